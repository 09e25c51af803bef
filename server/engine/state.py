"""The game state: players, zones, objects, turn structure and the pending decision.

Mutable on purpose (the engine is the single writer of a game); everything that leaves the
engine goes through :mod:`server.view`. Iteration order is always list or insertion order, so
results never depend on ``PYTHONHASHSEED`` (architecture invariant 3).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum, IntEnum
from typing import TYPE_CHECKING

from server.cards import CardDef
from server.cards.mana import ManaCost
from server.cards.model import (
    ActivatedAbility,
    ObjectFilter,
    StickerDef,
    StickerKind,
    TriggeredAbility,
)
from server.cards.verbs import Effect
from server.engine.actions import Action
from server.engine.rng import GameRng

if TYPE_CHECKING:
    from server.engine.board import Board, Graveyard
    from server.engine.permissions import Permission
    from server.engine.replacements import Registered
    from server.engine.variants import Variant
    from server.engine.watchers import Watchers


class Zone(IntEnum):
    """The zones of rule 400.1 (values match protocol ``ZoneKind``)."""

    LIBRARY = 1
    HAND = 2
    BATTLEFIELD = 3
    GRAVEYARD = 4
    STACK = 5
    EXILE = 6
    COMMAND = 7
    #: Rules 400.1, 407: the ante zone, used only when playing for ante (public, 400.2).
    ANTE = 8


class Step(IntEnum):
    """The steps of a turn in order (rules 500.1, 501-514; values match protocol ``Step``)."""

    UNTAP = 1
    UPKEEP = 2
    DRAW = 3
    PRECOMBAT_MAIN = 4
    BEGINNING_OF_COMBAT = 5
    DECLARE_ATTACKERS = 6
    DECLARE_BLOCKERS = 7
    COMBAT_DAMAGE = 8
    END_OF_COMBAT = 9
    POSTCOMBAT_MAIN = 10
    END = 11
    CLEANUP = 12

    @property
    def is_main(self) -> bool:
        """Rule 505: the two main phases."""
        return self in _MAIN_STEPS


#: The main phases' steps (rule 505), bound once: in Python 3.11 reading an enum member as a
#: class attribute goes through the slow hook of ``EnumType.__getattr__``.
_MAIN_STEPS = (Step.PRECOMBAT_MAIN, Step.POSTCOMBAT_MAIN)
#: (Read by the characteristics below on every question, and by Game.zone_list at every
#: zone change, bound once for the same reason.)
_LIBRARY, _HAND, _GRAVEYARD, _BATTLEFIELD = Zone.LIBRARY, Zone.HAND, Zone.GRAVEYARD, \
    Zone.BATTLEFIELD
_STACK, _EXILE, _COMMAND, _ANTE = Zone.STACK, Zone.EXILE, Zone.COMMAND, Zone.ANTE


class DecisionKind(IntEnum):
    """What the pending decision asks for (values match protocol ``DecisionKind``)."""

    PRIORITY = 1
    CHOOSE_X = 2
    CHOOSE_TARGET = 3
    PAY_MANA = 4
    DECLARE_ATTACKERS = 5
    DECLARE_BLOCKERS = 6
    ASSIGN_COMBAT_DAMAGE = 7
    DISCARD = 8
    CHOOSE_STARTING_PLAYER = 9
    MULLIGAN = 10
    BOTTOM_CARD = 11
    CHOOSE_MODE = 12
    ORDER_TRIGGERS = 13
    ORDER_GRAVEYARD = 14
    LEGEND_RULE = 15
    SACRIFICE = 16
    CHOOSE_COST = 17
    CHOOSE_REPLACEMENT = 18
    CHOOSE_DEFENDER = 19
    #: Put looked-at cards on the top or bottom of a library: scry, fateseal (701.22a,
    #: 701.29a) and the optional bottom of a clash (701.30a).
    SCRY = 20
    #: Find cards in a searched zone (701.23).
    SEARCH = 21
    #: Choose a player: the opponent to clash with (701.30b) or to separate piles (700.3).
    CHOOSE_PLAYER = 22
    #: Separate cards into two piles (700.3): pick the cards of the first pile.
    SEPARATE_PILES = 23
    #: Choose one of two piles (700.3).
    CHOOSE_PILE = 24
    #: Choose a card from a revealed hand for an effect (701.9b: "you choose ... that player
    #: discards that card").
    CHOOSE_CARD = 25
    #: Rule 701.30a: keep the card revealed by a clash on top, or put it on the bottom.
    CLASH = 26
    #: Rule 700.8d: choose a party from among your creatures (one card at a time).
    CHOOSE_PARTY = 27
    #: Rule 608.2d: take an optional ("you may") action of a resolving spell or ability.
    MAY = 28
    #: Rules 105.4, 608.2d: choose a color ("the color of your choice") as an effect resolves.
    CHOOSE_COLOR = 29
    #: Rule 608.2d: choose one of the names an effect offers ("your choice of deathtouch or
    #: lifelink": a keyword ability's name).
    CHOOSE_NAME = 30
    #: Rule 400.11b: choose a card you own from outside the game to bring in (a wish).
    CHOOSE_OUTSIDE_CARD = 50
    #: Rule 406.4: choose an exiled card -- a face-down one only if you may look at it,
    #: else a pile of face-down cards (a card of it is then chosen at random).
    CHOOSE_EXILED_CARD = 51
    #: Rule 702.35a: cast the card a madness ability exiled for its madness cost (a
    #: CastSpell), or don't (Decline) and put it into its owner's graveyard.
    CAST_MADNESS = 60


class GamePhase(Enum):
    """Before the first turn (rule 103) or playing turns (rule 500)."""

    CHOOSE_STARTING_PLAYER = "starting_player"  # rule 103.1
    MULLIGANS = "mulligans"  # rule 103.5
    PLAYING = "playing"


class CastStage(Enum):
    """Where a spell being cast (or an ability being activated, 602.2b) is in rule 601.2."""

    CHOOSE_MODE = "mode"      # 601.2b
    CHOOSE_X = "x"            # 601.2b
    CHOOSE_TARGETS = "targets"  # 601.2c
    CHOOSE_COST = "cost"      # 601.2f-h: the permanent to sacrifice / card to discard
    PAY = "pay"               # 601.2g-h


class AbilityKind(Enum):
    """The kind of an ability on the stack (rule 113.3)."""

    ACTIVATED = "activated"  # rule 602
    TRIGGERED = "triggered"  # rule 603


@dataclass(frozen=True, slots=True)
class AbilityRef:
    """An ability on the stack: an object that is not a card (rules 113.7, 602.2a, 603.3)."""

    kind: AbilityKind
    #: Index into the source card's ``abilities`` or ``triggers``.
    index: int
    #: The source's id when the ability was created (it may have left since: 113.7a).
    source_id: str
    #: The definition when it isn't printed on the card (a keyword's trigger: prowess; an
    #: activated ability a static ability granted the source, 613.1f).
    definition: TriggeredAbility | ActivatedAbility | None = None
    #: "That player" of the trigger event (e.g. the controller of a creature that died).
    event_player: int | None = None
    #: "That many": what the trigger event counted.
    event_amount: int = 0
    #: "That creature": the object the trigger event is about, by its id then.
    event_object: str | None = None


@dataclass(frozen=True, slots=True)
class Sticker:
    """A sticker on an object (rule 123.1): not an object itself. It has its own timestamp
    (613.7k), renewed right after the object's whenever the object gets a new one."""

    definition: StickerDef
    timestamp: int

    @property
    def text(self) -> str:
        """What the sticker shows ("4/4", "Flying", ...)."""
        return self.definition.text


@dataclass(slots=True)
class GameObject:
    """A card or token in some zone. A new object (new id) after every zone change (400.7)."""

    id: str
    card: CardDef
    owner: int
    #: The effective controller (after control-changing effects, layer 2; rule 613.1b).
    controller: int
    zone: Zone
    tapped: bool = False
    damage: int = 0
    #: Turn number when it last came under its controller's control (rule 302.6).
    controlled_since: int = 0
    #: Rule 107.3: the value of X chosen while casting (spells on the stack only).
    x_value: int | None = None
    #: Chosen targets: ("player", seat) or ("object", id) (rule 601.2c), flattened.
    targets: tuple[tuple[str, int | str], ...] = ()
    #: How many of ``targets`` belong to each target requirement, in order.
    target_groups: tuple[int, ...] = ()
    #: The chosen modes of a modal spell or ability, in the order chosen (rule 700.2).
    modes: tuple[int, ...] = ()
    #: Counters by kind, e.g. {"+1/+1": 2, "loyalty": 3} (rule 122).
    counters: dict[str, int] = field(default_factory=dict)
    #: The object this Aura or Equipment is attached to (rule 701.3).
    attached_to: str | None = None
    #: Exiled face down (rule 406.3): it has no characteristics.
    face_down: bool = False
    #: Dealt damage by a source with deathtouch since SBAs were last checked (rule 702.2b).
    deathtouched: bool = False
    #: Who controls it before control-changing effects: who put it onto the battlefield.
    base_controller: int = -1
    #: Power/toughness, keywords and subtypes after the layers (rule 613), computed by
    #: :func:`server.engine.layers.refresh` for permanents; None until then.
    pt_now: tuple[int, int] | None = None
    keywords_now: frozenset[str] | None = None
    subtypes_now: tuple[str, ...] | None = None
    #: The card name chosen as it entered ("As [this] enters, choose a card name", 614.12a).
    chosen_name: str = ""
    #: Rules restrictions from static abilities: "cant_attack", "cant_block", ...
    restrictions: frozenset[str] = frozenset()
    #: Triggered abilities static abilities grant it now (layer 6, rule 613.1f).
    granted_triggers: tuple[TriggeredAbility, ...] = ()
    #: Activated abilities static abilities grant it now (layer 6, rule 613.1f): "has all
    #: activated abilities of the top card of your library" -- numbered after its printed
    #: ones (see :attr:`activated_abilities`).
    granted_abilities: tuple[ActivatedAbility, ...] = ()
    #: "You may cast [filter] spells from the top of your library": the filters of such
    #: rules changes its static abilities give its controller now (601.3, 401.5).
    top_casts: tuple[ObjectFilter, ...] = ()
    #: Card types effects give it now besides its printed ones (layer 4, rule 613.1d).
    types_added: tuple[str, ...] = ()
    #: Protection static abilities and resolved effects grant it now (layer 6, rule
    #: 702.16a), e.g. ("R",).
    protection_added: tuple[str, ...] = ()
    #: A spell: the zone its card was cast from (rule 601.2a).
    cast_from: Zone | None = None
    #: A permanent: it entered from its owner's graveyard, or was cast from there (601.2a).
    from_graveyard: bool = False
    #: Regeneration shields on it this turn (rule 701.19a).
    regeneration_shields: int = 0
    #: A token (rule 111) -- a token copy of a card (707.2) has a card's definition.
    token: bool = False
    #: A copy of a spell (rule 707.10): it ceases to exist off the stack (704.5e).
    spell_copy: bool = False
    #: Turn in which a loyalty ability of it was last activated (rule 606.3).
    loyalty_turn: int = -1
    #: Set for an ability on the stack, which is not a card (rule 113.7).
    ability: AbilityRef | None = None
    #: When the object entered its zone (rule 613.7d).
    timestamp: int = 0
    #: For an activated ability: its source's power as it was activated (last known
    #: information for "damage equal to its power" once the source is sacrificed, 608.2h).
    source_power: int = 0
    #: For an ability: what its source was attached to as the ability was created (last
    #: known information for "enchanted creature" once the Aura is gone, 608.2h).
    source_attached: str | None = None
    #: Turn in which an ability of it was last activated (rule 700.10).
    activated_turn: int = -1
    #: Rule 700.2e: the player who chose the modes of this spell (-1: its controller).
    chooser: int = -1
    #: The id of the object this one was before its last zone change (rule 400.7). Never
    #: shown to anyone; only the exceptions of 400.7e, 400.7f and 400.7j may use it to find
    #: the new object in a public zone (see :mod:`server.engine.zone_rules`).
    came_from: str = ""
    #: Rules 406.5, 406.6: the exile pile this card is in -- the object whose ability exiled
    #: it (``"<object id>"``); "" for none. A new object in exile (400.8) is in no pile.
    exiled_with: str = ""
    #: Rule 406.4: the pile of face-down exiled cards this card is in -- cards exiled face
    #: down at the same time in the same way (the id of the spell or ability that did it).
    exile_pile: str = ""
    #: Stickers on it (rule 123), oldest timestamp first. Kept as it moves to a public zone
    #: (123.5, 400.7m); lost as it moves to a hidden zone.
    stickers: list[Sticker] = field(default_factory=list)
    #: "It doesn't untap during its controller's next untap step" (rule 502.3): kept tapped
    #: in the next untap step of whoever controls it then.
    skip_next_untap: bool = False

    @property
    def sticker_pt(self) -> tuple[int, int] | None:
        """Rule 123.8: the power and toughness set by its latest power and toughness sticker
        (613.7k) -- on a creature, or on a creature or Vehicle card off the battlefield."""
        if not (self.is_creature or (self.zone is not _BATTLEFIELD
                                     and "Vehicle" in self.card.subtypes)):
            return None
        latest = self.pt_sticker
        return None if latest is None else (latest.definition.power,
                                            latest.definition.toughness)

    @property
    def pt_sticker(self) -> Sticker | None:
        """Its latest power and toughness sticker (123.8, 613.7k), whatever it is now."""
        last = None
        for sticker in self.stickers:
            if sticker.definition.kind is StickerKind.POWER_TOUGHNESS:
                last = sticker
        return last

    @property
    def activated_abilities(self) -> tuple[ActivatedAbility, ...]:
        """Rule 602.1: the activated abilities it has now -- its printed ones, then those
        static abilities grant it (layer 6, 613.1f; only a permanent is granted any). An
        :class:`~server.engine.actions.ActivateAbility` names one by its index here."""
        if self.granted_abilities:
            return (*self.card.abilities, *self.granted_abilities)
        return self.card.abilities

    @property
    def activated_def(self) -> ActivatedAbility:
        """The definition of the activated ability this stack object is (602.2a): the one
        its source had as it was activated, printed or granted (113.7a)."""
        ability = self.ability_def
        assert isinstance(ability, ActivatedAbility), "not an activated ability"
        return ability

    @property
    def ability_def(self) -> ActivatedAbility | TriggeredAbility | None:
        """The definition of the ability this stack object is, if it is one."""
        ref = self.ability
        if ref is None:
            return None
        if ref.definition is not None:
            return ref.definition
        if ref.kind is AbilityKind.ACTIVATED:
            return self.card.abilities[ref.index]
        return self.card.triggers[ref.index]

    @property
    def is_token(self) -> bool:
        """Rule 111: whether this object is a token."""
        return self.token or self.card.is_token

    @property
    def is_ability(self) -> bool:
        """Whether this stack object is an ability rather than a spell (rule 113.7)."""
        return self.ability is not None

    @property
    def is_creature(self) -> bool:
        """Rule 302: whether this object is a creature (after layer 4 on the battlefield)."""
        return self.ability is None and (self.card.creature or (
            "Creature" in self.types_added and self.zone is _BATTLEFIELD))

    @property
    def is_planeswalker(self) -> bool:
        """Rule 306: whether this object is a planeswalker."""
        return self.ability is None and self.card.planeswalker

    @property
    def power(self) -> int:
        """Current power: after the layers on the battlefield (rule 613.4); elsewhere the
        printed value."""
        if self.pt_now is not None and self.zone is _BATTLEFIELD:
            return self.pt_now[0]
        bonus = self.counters.get("+1/+1", 0) - self.counters.get("-1/-1", 0)
        if self.stickers and self.sticker_pt is not None:
            return self.sticker_pt[0] + bonus  # rule 123.8
        return (self.card.power or 0) + bonus

    @property
    def toughness(self) -> int:
        """Current toughness (see :attr:`power`)."""
        if self.pt_now is not None and self.zone is _BATTLEFIELD:
            return self.pt_now[1]
        bonus = self.counters.get("+1/+1", 0) - self.counters.get("-1/-1", 0)
        if self.stickers and self.sticker_pt is not None:
            return self.sticker_pt[1] + bonus  # rule 123.8
        return (self.card.toughness or 0) + bonus

    def has(self, keyword: str) -> bool:
        """Whether it has a keyword ability now (rule 702), after layer 6."""
        if self.keywords_now is not None and self.zone is _BATTLEFIELD:
            return keyword in self.keywords_now
        # Rule 123.7: an ability sticker grants its ability in every zone.
        return keyword in self.card.keywords or (bool(self.stickers) and any(
            keyword in s.definition.keywords for s in self.stickers))

    @property
    def subtypes(self) -> tuple[str, ...]:
        """Its subtypes now, after type-changing effects (layer 4)."""
        if self.subtypes_now is not None and self.zone is _BATTLEFIELD:
            return self.subtypes_now
        return self.card.subtypes

    @property
    def protection(self) -> tuple[str, ...]:
        """The qualities it has protection from now (rule 702.16a): printed, and granted
        while it is a permanent by static abilities or resolved effects (layer 6)."""
        if self.protection_added and self.zone is _BATTLEFIELD:
            return (*self.card.protection, *self.protection_added)
        return self.card.protection

    @property
    def loyalty(self) -> int:
        """A planeswalker's loyalty: its number of loyalty counters (rule 306.5b)."""
        return self.counters.get("loyalty", 0)

    @property
    def mana_value(self) -> int:
        """Rule 202.3, with X as chosen on the stack (202.3e)."""
        return self.card.mana_cost.mana_value + self.card.mana_cost.x_count * (self.x_value or 0)


#: How many times a turn a player may take back a cast (CancelCast) or start a declaration
#: of attackers or blockers over. Each returns the game to where it was, so one player could
#: repeat it without end -- a loop of optional actions that changes nothing (732.1b, 732.3:
#: the loop must not continue), each one logged and replayed on every restart. Past it those
#: options are offered only where nothing else is (a declaration that can't be finished).
MAX_TAKE_BACKS = 16


@dataclass(slots=True)
class Player:
    """A player: life, their own zones (object ids, top of library last) and mana pool."""

    seat: int
    name: str
    life: int = 20
    #: The starting life total (rule 103.4): 20 in the variants the engine plays.
    starting_life: int = 20
    library: list[str] = field(default_factory=list)
    hand: list[str] = field(default_factory=list)
    graveyard: list[str] = field(default_factory=list)
    #: Unspent mana by type, in MANA_TYPES order W U B R G C (rule 106.4).
    mana_pool: list[int] = field(default_factory=lambda: [0] * 6)
    #: Mana that may be spent only to cast spells of some card types (rule 106.6): for each
    #: such restriction (its card types), unspent mana by type as in ``mana_pool``.
    restricted_mana: dict[tuple[str, ...], list[int]] = field(default_factory=dict)
    lands_played: int = 0
    poison: int = 0
    max_hand_size: int = 7  # rule 402.2
    #: Mulligans taken so far (rule 103.5).
    mulligans: int = 0
    #: Cards outside the game (rule 400.11): the sideboard. Not objects.
    sideboard: list[CardDef] = field(default_factory=list)
    has_lost: bool = False
    #: Rule 704.5b: attempted to draw from an empty library since SBAs were last checked.
    drew_from_empty: bool = False
    #: Casts taken back and declarations started over this turn (:data:`TAKE_BACKS` actions;
    #: past :data:`MAX_TAKE_BACKS` they are no longer offered where anything else is).
    take_backs: int = 0

    def all_mana(self) -> tuple[int, ...]:
        """All unspent mana by type, restricted (rule 106.6) or not: what others see."""
        pool = list(self.mana_pool)
        for counts in self.restricted_mana.values():
            pool = [a + b for a, b in zip(pool, counts, strict=True)]
        return tuple(pool)


def may_take_back(game: Game, seat: int) -> bool:
    """Whether ``seat`` may still take back a cast or start a declaration over this turn
    (:data:`MAX_TAKE_BACKS`)."""
    return game.players[seat].take_backs < MAX_TAKE_BACKS


@dataclass(frozen=True, slots=True)
class ContinuousEffect:
    """A continuous effect from a resolved spell or ability (rule 611.2): it affects the
    objects it affected when it began (611.2c) and lasts until end of turn (514.2)."""

    timestamp: int
    affected: tuple[str, ...]
    power: int = 0
    toughness: int = 0
    gains: tuple[str, ...] = ()
    loses: tuple[str, ...] = ()
    #: Layer 7d: switch power and toughness (rule 613.4d).
    switch: bool = False
    #: Layer 7b: ``power``/``toughness`` are the new base power and toughness (613.4b).
    base: bool = False
    #: Layer 4: card types and subtypes added (613.1d).
    types: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()
    #: Layer 2: the affected permanents' new controller (rule 613.1b); -1 for none.
    controller: int = -1
    #: It lasts indefinitely rather than until end of turn (rule 611.2a).
    lasting: bool = False
    #: Rules changes ("cant_block", rule 611.2c) for the affected permanents or, with
    #: ``filter``, for every permanent the filter describes from ``viewer``'s point of view
    #: (the effect's controller) at any time while it lasts -- not a locked-in set.
    restrictions: tuple[str, ...] = ()
    filter: ObjectFilter | None = None
    viewer: int = -1
    #: Layer 6: "gains protection from [quality]" (rule 702.16a).
    protection: tuple[str, ...] = ()


@dataclass(slots=True)
class PhasedOut:
    """A phased-out permanent (rule 702.26b): who controlled it as it phased out, whether it
    phased out indirectly with ``host`` (702.26g), and "until the end of [seat]'s next turn,
    it can't phase in": ``held_by`` (-1: not held) from turn ``held_from``."""

    object_id: str
    controller: int
    host: str = ""
    held_by: int = -1
    held_from: int = 0


@dataclass(slots=True)
class Casting:
    """A spell being cast (601.2), an ability being activated (602.2) or a triggered ability
    being put on the stack (603.3d): the object is already on the stack."""

    object_id: str
    seat: int
    stage: CastStage
    #: Targets chosen so far for the current target requirement (rule 601.2c).
    chosen_in_group: int = 0
    #: Whether the caster had priority before (rule 601.2i): a trigger doesn't.
    had_priority: bool = True
    #: The permanent or card chosen to pay an additional cost (rule 601.2f).
    cost_paid: str | None = None
    #: The permanents chosen so far to tap for a "tap N untapped [permanents]" cost (602.2b).
    cost_tapped: tuple[str, ...] = ()
    #: Choosing new targets for a copy (rule 707.10c): the original's targets and how many
    #: belong to each target requirement; each may be kept, even if illegal now.
    retarget: tuple[tuple[str, int | str], ...] | None = None
    retarget_groups: tuple[int, ...] = ()
    #: Rule 700.2e: the player choosing the modes (-1: the caster; -2: not yet chosen).
    mode_chooser: int = -1
    #: Rule 601.2f: the total cost, locked in as the payment begins.
    locked_cost: ManaCost | None = None


@dataclass(slots=True)
class Choice:
    """A choice a player makes outside casting: mulligans, discards, orderings, legend rule.

    ``pool`` holds the ids to choose from; ``count`` how many picks remain; ``picked`` the
    picks so far, in order.
    """

    kind: DecisionKind
    seat: int
    pool: list[str] = field(default_factory=list)
    count: int = 1
    picked: list[str] = field(default_factory=list)
    #: The choice may be declined ("you may ...").
    optional: bool = False
    #: A reflexive trigger to create if the optional action is taken (rule 603.12a), with
    #: the card and object it comes from.
    reflexive: PendingTrigger | None = None
    #: SCRY: for each pick, whether it went to the bottom; SEARCH/CHOOSE_CARD/PILES: the
    #: effect being performed, whose library / hand it is, and the cards found must be at
    #: least ``minimum`` (701.23d) before the player may stop.
    bottoms: list[bool] = field(default_factory=list)
    effect: Effect | None = None
    owner: int = -1
    minimum: int = 0
    #: A clash or pile separation in progress (the other choices of the same effect).
    group: list[str] = field(default_factory=list)
    #: PAY_MANA outside casting: the cost of "counter ... unless its controller pays" (rule
    #: 118.12a) -- ``pool`` names the spell or ability that is countered if it isn't paid.
    unless_cost: ManaCost | None = None
    #: PAY_MANA: "you may pay" -- declining doesn't counter anything (else "unless ... pays").
    may_pay: bool = False


@dataclass(slots=True)
class Resolution:
    """A spell or ability part-way through resolving (rule 608.2), paused for a choice."""

    object_id: str
    #: Index of the next effect to perform.
    index: int
    #: For each chosen target, whether it was still legal as resolution began (608.2b).
    legal: tuple[bool, ...]
    #: The controllers of its object targets as resolution began (last known, 608.2h).
    controllers: dict[str, int] = field(default_factory=dict)
    #: The source's power as resolution began, or as it last existed (608.2h).
    source_power: int = 0
    #: Rule 701.30d: the controller won a clash during this resolution.
    won_clash: bool = False
    #: Rule 705.2: the controller won a coin flip during this resolution.
    won_flip: bool = False
    #: The cards a search of this resolution put onto the battlefield, as the new objects
    #: they became there ("untap that land", rule 400.7).
    found: list[str] = field(default_factory=list)
    #: Life lost by the players the previous effects of this resolution affected ("you gain
    #: life equal to the life lost this way").
    life_lost: int = 0
    #: The still-legal targets of a "you may" effect waiting for its controller's decision
    #: (608.2d): "you may have it deal 1 damage to any target".
    optional_targets: list[tuple[str, int | str]] = field(default_factory=list)
    #: Cards this resolution revealed (701.20a) for "if it's a ... card".
    revealed: list[str] = field(default_factory=list)
    #: The names of its object targets as resolution began (last known, 608.2h).
    names: dict[str, str] = field(default_factory=dict)
    #: The still-legal targets of the target before the performed effect's own ("Then that
    #: creature deals damage ...", "Then it fights ...": rules 608.2b, 701.14b).
    previous_targets: list[tuple[str, int | str]] = field(default_factory=list)
    #: The last optional ("you may") action of this resolution was taken ("If you do").
    did: bool = False
    #: The cards of its object targets as resolution began: last known copiable values
    #: once one has left ("create a token that's a copy of it", rules 608.2h, 707.2).
    cards: dict[str, CardDef] = field(default_factory=dict)
    #: The players a discard of this resolution could not make discard: no card in hand
    #: ("each opponent who can't", rule 701.9a).
    couldnt: list[int] = field(default_factory=list)
    #: The objects the last effect of this resolution chose and acted on ("tapped this
    #: way", "discard up to two cards, then draw that many", 608.2c-d).
    chosen: list[str] = field(default_factory=list)
    #: The color chosen during this resolution ("the color of your choice", 105.4): a letter.
    color: str = ""
    #: The name chosen during this resolution ("your choice of deathtouch or lifelink").
    name: str = ""
    #: How many cards the searches of this resolution took from a hand ("for each card
    #: exiled from their hand this way", 608.2c).
    found_from_hand: int = 0


@dataclass(slots=True)
class Look:
    """Cards in a hidden zone that players may see for now (rules 701.20a, 701.20e): revealed
    to everyone, or looked at by one player. It ends when the effect that made it is done;
    a card that changes zones is a new object (400.7), which nobody has looked at."""

    ids: list[str]
    #: Who may see them (every seat for a reveal).
    seats: tuple[int, ...]
    #: The stack object whose resolution made the look; it ends when that object leaves
    #: the stack ("" -- ends as the choice it was made for is answered).
    source: str = ""
    #: Whether its seats also see where in their library the cards lie (a look at the top
    #: cards: they are the top ones, in order). A search's found cards are revealed without
    #: their places (701.20a shows the cards, not where they were: their places would
    #: tell what was put at the bottom or the top earlier).
    placed: bool = True


@dataclass(slots=True)
class PendingTrigger:
    """A triggered ability waiting to be put on the stack (rules 603.2, 603.3)."""

    id: str
    controller: int
    card: CardDef
    index: int
    source_id: str
    definition: TriggeredAbility
    event_player: int | None = None
    event_amount: int = 0
    event_object: str | None = None


@dataclass(frozen=True, slots=True)
class DelayedTrigger:
    """A delayed triggered ability (rule 603.7): it triggers the next time its event happens,
    or each time until the turn ends if it says "this turn" (603.7b)."""

    controller: int
    card: CardDef
    ability: TriggeredAbility
    this_turn: bool


@dataclass(slots=True)
class Combat:
    """The combat phase's bookkeeping (rules 506-511)."""

    attackers_declared: bool = False
    #: Rule 508.8: whether any creature was declared as an attacker this combat.
    any_attacker_declared: bool = False
    #: Defending players who have finished declaring blockers (rule 509.1).
    blockers_done: list[int] = field(default_factory=list)
    damage_dealt: bool = False
    #: attacker id -> seat of the player it attacks
    attackers: dict[str, int] = field(default_factory=dict)
    #: attacker id -> blocker ids, in declaration order
    blocked_by: dict[str, list[str]] = field(default_factory=dict)
    #: blocker id -> attacker id
    blocking: dict[str, str] = field(default_factory=dict)
    #: attacker id -> chosen division of its damage (rule 510.1c); "" is what it attacks
    assignments: dict[str, tuple[tuple[str, int], ...]] = field(default_factory=dict)
    #: attacker id -> the planeswalker it attacks (rule 506.3)
    attacking_planeswalker: dict[str, str] = field(default_factory=dict)
    #: Attackers that left the battlefield this combat -> the seat they were attacking (their
    #: last known information, 608.2h; one merely removed from combat isn't here).
    left_attacking: dict[str, int] = field(default_factory=dict)
    #: Attackers removed from combat this combat by any means (rule 506.4: leaving the
    #: battlefield, regenerating, phasing out, changing control) -> the seat they were
    #: attacking: "defending player" for them (rule 508.5).
    was_attacking: dict[str, int] = field(default_factory=dict)
    #: Rule 510.4: this combat damage step is the first-strike one.
    first_strike_step: bool = False
    #: Creatures that had first strike or double strike as the first-strike combat damage
    #: step began (rule 510.4): without double strike they deal no damage in the second.
    first_strikers: list[str] = field(default_factory=list)
    #: Rule 510.1c, asked one recipient at a time (see :data:`MAX_OPTIONS`): attacker id ->
    #: the amounts chosen so far for its first recipients.
    dividing: dict[str, tuple[tuple[str, int], ...]] = field(default_factory=dict)


#: The most options a decision lists for a choice whose ways multiply: every way to pay a cost
#: from a mana pool (rule 601.2h), to divide combat damage (510.1c). 64 lists every way of
#: the usual cases (two blockers and power up to 62; a cost from a pool of two or three kinds
#: of mana) in one decision, as before, and keeps a decision a few kilobytes on the wire; past
#: it the choice is asked in steps -- one mana type, or one recipient, at a time -- each
#: listing at most one option per amount (like choosing X), together reaching every way.
MAX_OPTIONS = 64


@dataclass(frozen=True, slots=True)
class Decision:
    """The single pending decision: who must choose, what kind, and every legal option."""

    prompt_id: int
    seat: int
    kind: DecisionKind
    options: tuple[Action, ...]


@dataclass(frozen=True, slots=True)
class GameResult:
    """Rule 104: the winners (empty for a draw) and why the game ended."""

    winners: tuple[int, ...]
    reason: str


def _new_watchers() -> Watchers:
    """A game's watchers at its start (imported here: the watchers read the events, which
    read this module)."""
    from server.engine.watchers import Watchers
    return Watchers()


@dataclass(slots=True)
class Game:
    """One game of Magic. Change it only through :func:`server.engine.apply`."""

    rng: GameRng
    players: list[Player]
    objects: dict[str, GameObject] = field(default_factory=dict)
    battlefield: list[str] = field(default_factory=list)
    #: Top of the stack is the last element (rule 405.2).
    stack: list[str] = field(default_factory=list)
    exile: list[str] = field(default_factory=list)
    command: list[str] = field(default_factory=list)
    phase: GamePhase = GamePhase.CHOOSE_STARTING_PLAYER
    turn: int = 0
    active: int = 0
    starting_player: int = 0
    step: Step = Step.UNTAP
    #: Whether the current step's turn-based actions have been performed.
    step_begun: bool = False
    #: Rules 514.1-514.2 have been performed in this cleanup step.
    cleanup_done: bool = False
    #: Rule 514.3a: state-based actions happened during cleanup, so players get priority.
    cleanup_priority: bool = False
    #: Rule 514.1: the active player is choosing cards to discard to hand size.
    cleanup_discarding: bool = False
    #: Legendary permanents the legend rule will put into graveyards (rule 704.5j).
    legend_rule_losers: list[str] = field(default_factory=list)
    #: Seats that declared a mulligan in the current round (rule 103.5).
    mulligan_round: list[int] = field(default_factory=list)
    priority: int | None = None
    #: Number of consecutive passes (rule 117.4: all players pass in succession).
    passes: int = 0
    casting: Casting | None = None
    #: Choices waiting to be made, the first one pending (mulligans, discards, orderings).
    choices: list[Choice] = field(default_factory=list)
    resolving: Resolution | None = None
    pending_triggers: list[PendingTrigger] = field(default_factory=list)
    #: Rule 603.3b: the ids of the triggered abilities being put on the stack now (those
    #: waiting when the players began putting them there); one that triggers meanwhile
    #: waits for the next batch. None between batches.
    trigger_batch: frozenset[str] | None = None
    #: Next timestamp to hand out (rule 613.7).
    clock: int = 0
    #: Continuous effects of resolved spells and abilities (rule 611.2).
    effects: list[ContinuousEffect] = field(default_factory=list)
    #: Tokens that left the battlefield (rule 704.5d).
    stray_tokens: list[str] = field(default_factory=list)
    #: Delayed triggered abilities waiting for their event (rule 603.7).
    delayed: list[DelayedTrigger] = field(default_factory=list)
    #: Spells that left the stack this turn, as they last existed there (rule 608.2h), by
    #: their old id: "copy that spell" of a cast trigger once the spell was countered.
    last_known_spells: dict[str, GameObject] = field(default_factory=dict)
    #: Rules 113.7a, 608.2h: each permanent that has left the battlefield this turn, as it
    #: last existed there (the object itself, which nothing changes any more), by its old
    #: id -- the source of an ability whose source has left: its power ("gain life equal to
    #: its power" of a dies trigger), keywords, types and controller then.
    last_known_permanents: dict[str, GameObject] = field(default_factory=dict)
    #: Rule 610.3: cards exiled "until [a permanent] leaves the battlefield" -- (that
    #: permanent's id, the exiled object's id, the zone it returns to).
    exiled_until_leaves: list[tuple[str, str, Zone]] = field(default_factory=list)
    combat: Combat = field(default_factory=Combat)
    pending: Decision | None = None
    prompt_counter: int = 0
    #: Rule 601.2h asked in steps (see :data:`MAX_OPTIONS`): the pool and cost being paid and
    #: how much of each of the first mana types (WUBRGC order) the player chose to spend.
    mana_prefix: tuple[tuple[int, ...], ManaCost, tuple[int, ...]] | None = None
    result: GameResult | None = None
    #: Number of actions applied so far (the length of the action log).
    action_count: int = 0
    #: Hidden cards that some players may see for now (701.20a, 701.20e, 701.23a).
    looks: list[Look] = field(default_factory=list)
    #: The variants played (Planechase, 901; ante, 407), each with its own record of its
    #: state (see :mod:`server.engine.variants`).
    variants: list[Variant] = field(default_factory=list)
    #: The ante zone (rules 400.1, 407): empty unless something antes.
    ante: list[str] = field(default_factory=list)
    #: Rules 401.5, 401.6: for each seat playing with the top card of their library
    #: revealed, the id of the card revealed now (see :mod:`server.engine.zone_rules`).
    revealed_tops: dict[int, str] = field(default_factory=dict)
    #: Permissions to cast or play cards from outside the hand or without paying their mana
    #: costs, and their uses (rules 601.2, 305.1, 118.9; see
    #: :mod:`server.engine.permissions`): "you may play that card this turn", granted
    #: flashback, the alternative cost a spell on the stack is cast for, ...
    permissions: list[Permission] = field(default_factory=list)
    #: Phased-out permanents (rule 702.26, see :mod:`server.engine.phasing`): not in
    #: ``battlefield`` while phased out.
    phased_out: list[PhasedOut] = field(default_factory=list)
    #: The last turn each seat began (for "until the end of your next turn"); for a player
    #: who left, the turn after which theirs would have begun (rule 800.4m).
    last_turn_of: dict[int, int] = field(default_factory=dict)
    #: Extra turns to take after this one (rule 500.7): the most recently created is taken
    #: first (the last of the list).
    extra_turns: list[int] = field(default_factory=list)
    #: Madness (702.35, see :mod:`server.engine.madness`; a spell cast for its madness cost
    #: is in ``permissions``): for each spell, the card discarded or permanent sacrificed to
    #: pay its additional cost, by the id it had then (its effects find the object that
    #: became in a public zone, 400.7j); and discarded cards a madness trigger put into a
    #: public zone without being cast: the discarded card's id -> the object it became there
    #: (400.7k).
    costs_paid: dict[str, str] = field(default_factory=dict)
    madness_found: dict[str, str] = field(default_factory=dict)
    #: The replacement effects created for particular objects (rule 614; see
    #: :mod:`server.engine.replacements`): "exile it instead", flashback's exile, ..., and
    #: the prevention effects of resolved spells and abilities (615.1).
    replacements: list[Registered] = field(default_factory=list)
    #: The turn facts ("creatures that died this turn", ...), kept from the event stream
    #: (see :mod:`server.engine.watchers`).
    watchers: Watchers = field(default_factory=_new_watchers)
    #: A summary of the battlefield's abilities (:func:`server.engine.board.board`): derived
    #: state, kept only to skip scans; not part of the game's state.
    board: Board | None = field(default=None, repr=False, compare=False)
    #: A summary of each seat's graveyard (:func:`server.engine.board.graveyard`): derived
    #: state too.
    graveyards: dict[int, Graveyard] = field(default_factory=dict, repr=False, compare=False)

    def player(self, seat: int) -> Player:
        """The player in ``seat``."""
        return self.players[seat]

    def power_as_it_left(self, object_id: str) -> int:
        """Rule 608.2h: the power of the creature ``object_id`` as it last existed on the
        battlefield (0: not a creature then, or unknown)."""
        last = self.last_known_permanents.get(object_id)
        return last.power if last is not None and last.is_creature else 0

    def summoning_sick(self, obj: GameObject) -> bool:
        """Rule 302.6: a creature that hasn't been under its controller's control
        continuously since their most recent turn began (haste aside, 702.10c) -- during
        the next players' turns too, until its controller's next turn begins."""
        return obj.is_creature and obj.controlled_since >= self.last_turn_of.get(
            obj.controller, 0)

    def zone_list(self, zone: Zone, owner: int) -> list[str]:
        """The ordered id list for a zone (``owner`` is ignored for shared zones)."""
        if zone is _LIBRARY:
            return self.players[owner].library
        if zone is _HAND:
            return self.players[owner].hand
        if zone is _GRAVEYARD:
            return self.players[owner].graveyard
        if zone is _BATTLEFIELD:
            return self.battlefield
        if zone is _STACK:
            return self.stack
        if zone is _EXILE:
            return self.exile
        if zone is _COMMAND:
            return self.command
        if zone is _ANTE:
            return self.ante
        raise ValueError(f"no object list for zone {zone.name}")

    def in_game(self) -> list[int]:
        """Seats of players still in the game, in turn order (rule 800.4a)."""
        return [p.seat for p in self.players if not p.has_lost]

    def next_seat(self, seat: int) -> int:
        """The next player in turn order after ``seat`` who is still in the game (101.4)."""
        n = len(self.players)
        for k in range(1, n + 1):
            candidate = (seat + k) % n
            if not self.players[candidate].has_lost:
                return candidate
        return seat

    def opponents(self, seat: int) -> list[int]:
        """Seats of ``seat``'s opponents still in the game, in turn order after ``seat``
        (rule 102.2)."""
        return [s for s in self.apnap(seat) if s != seat]

    def apnap(self, start: int | None = None) -> list[int]:
        """Players still in the game in turn order from ``start`` (the active player by
        default): APNAP order (rule 101.4). A player who left is skipped (800.4j)."""
        first = self.active if start is None else start
        n = len(self.players)
        order = [(first + k) % n for k in range(n)]
        return [s for s in order if not self.players[s].has_lost]
