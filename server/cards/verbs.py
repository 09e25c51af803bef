"""Effects as one small frozen dataclass per verb (issue 13).

Each class holds only the fields its verb uses, with ``verb`` as a class variable; the
loader (:mod:`server.cards`) derives which keys an effect may have, and how each value is
parsed, from the class's fields and their annotations, and the engine
(:mod:`server.engine.effects`) performs each class with the one function registered for it.
:data:`Effect` is the union of the classes, so ``match effect:`` ending in
``assert_never`` is checked for exhaustiveness by mypy.

Common to every effect (:class:`EffectBase`): an "if" ``condition`` (checked as the effect
would be performed, rule 608.2c) and ``optional`` ("you may", 608.2d). :class:`Affecting`
adds who or what the effect affects (``who``; ``filter`` for which permanents or cards a
``who`` "chosen", "chosen_one" or "attached_to_that", a search or an exile_linked from
``zones`` means), :class:`Targeting` the
``target`` (set exactly when ``who`` is "target", rule 115.1).

An effect with an amount (:data:`Amounted`) says how much in one ``amount``
(:data:`~server.cards.amounts.Amount`, rule 107.1): a number, X (107.3), a count of what a
filter describes, a characteristic of an object ("damage equal to its power", 608.2h), the
trigger event's number ("that many"), devotion (700.5), a fact of this turn or of this
resolution, "their" life or library for each player affected, scaled or halved (107.1a); the
engine evaluates it as the effect is performed (608.2c). The flag marked ``DERIVED`` isn't a
data key: the loader sets ``token_x`` from an "X/X" token.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Literal, TypeAlias, get_args

from server.cards.amounts import Amount, AnyCondition, Fixed
from server.cards.mana import ManaCost
from server.cards.model import (
    Affected,
    CardDef,
    ObjectFilter,
    ObjectRef,
    Objects,
    Players,
    StickerDef,
    TargetReq,
    TriggeredAbility,
    TriggerEvent,
    TriggerSubject,
    Verb,
)

#: Field metadata: the data key of a field when it isn't the field's name.
KEY = "key"
#: Field metadata: a field the loader computes rather than reads from a key of its own.
DERIVED = {"derived": True}
#: The creature that deals damage equal to its power or fights, when not the spell itself
#: (rules 120.3, 701.14): the source as a permanent, or the previous effect's target.
Acting: TypeAlias = Literal[ObjectRef.SELF, ObjectRef.THAT]
#: The amount an effect has when its data gives none ("draw a card", "deal 1 damage").
ONE = Fixed(1)


@dataclass(frozen=True, slots=True, kw_only=True)
class EffectBase:
    """One instruction of a spell or ability, performed in text order (rule 608.2c)."""

    verb: ClassVar[Verb]
    #: Performed only if this holds as the effect would be performed (rule 608.2c).
    condition: AnyCondition | None = None
    #: "You may ..." (rule 608.2d): its controller chooses as it would be performed.
    optional: bool = False

    @property
    def target_req(self) -> TargetReq | None:
        """The effect's target requirement (rule 115.1), if it has one."""
        return None


@dataclass(frozen=True, slots=True, kw_only=True)
class Affecting(EffectBase):
    """An effect on players or objects the effect names (rules 608.2c, 608.2h): each class
    narrows ``who`` to what its verb acts on -- a player set (:class:`PlayerEffect`), objects
    (:class:`ObjectEffect`) or, for a few verbs, either -- and the loader reads and checks it
    from that annotation."""

    who: Affected = Players.YOU
    #: Which permanents or cards a ``who`` "chosen", "chosen_one" or "attached_to_that"
    #: means, the cards a search finds or an exile_linked exiles from its ``zones`` (from the
    #: controller's point of view); what an amount counts is the amount's own filter.
    filter: ObjectFilter | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Targeting(Affecting):
    """An effect that may name a target (rule 115.1): ``target`` is set exactly when ``who``
    is "target" (or an :class:`Each` ``of`` "target")."""

    target: TargetReq | None = None

    @property
    def target_req(self) -> TargetReq | None:
        return self.target


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerEffect(Affecting):
    """An effect performed by or on players (rule 102): ``who`` is a player set."""

    who: Players = Players.YOU


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerTargeting(Targeting):
    """A player effect that may name a target player (rule 115.1)."""

    who: Players = Players.YOU


@dataclass(frozen=True, slots=True, kw_only=True)
class ObjectEffect(Affecting):
    """An effect on objects (permanents, spells, cards): ``who`` is an object reference or
    every permanent of a description (:class:`Each`)."""

    who: Objects = ObjectRef.TARGET


@dataclass(frozen=True, slots=True, kw_only=True)
class ObjectTargeting(Targeting):
    """An object effect that may name a target object (rule 115.1)."""

    who: Objects = ObjectRef.TARGET


@dataclass(frozen=True, slots=True, kw_only=True)
class DealDamage(Targeting):
    """``deal_damage``: rule 120"""

    verb: ClassVar[Verb] = Verb.DEAL_DAMAGE
    #: DEAL_DAMAGE, FIGHT: the creature that deals the damage / fights when it isn't the
    #: effect's source: ``THAT`` -- the previous effect's target ("Then that creature deals
    #: damage equal to its power to ...", "Then it fights ..."); ``SELF`` -- the source as a
    #: permanent. None: the source (a spell deals its own damage, rule 120.1).
    by: Acting | None = None
    #: How much (rule 107.1): see the module docstring.
    amount: Amount = ONE


@dataclass(frozen=True, slots=True, kw_only=True)
class GainLife(PlayerTargeting):
    """``gain_life``: rule 119.3"""

    verb: ClassVar[Verb] = Verb.GAIN_LIFE
    #: How much (rule 107.1): see the module docstring.
    amount: Amount = ONE


@dataclass(frozen=True, slots=True, kw_only=True)
class LoseLife(PlayerTargeting):
    """``lose_life``: rule 119.3"""

    verb: ClassVar[Verb] = Verb.LOSE_LIFE
    #: How much (rule 107.1): see the module docstring.
    amount: Amount = ONE


@dataclass(frozen=True, slots=True, kw_only=True)
class Draw(PlayerTargeting):
    """``draw``: rule 121"""

    verb: ClassVar[Verb] = Verb.DRAW
    #: How much (rule 107.1): see the module docstring.
    amount: Amount = ONE


@dataclass(frozen=True, slots=True, kw_only=True)
class Discard(PlayerTargeting):
    """``discard``: rule 701.9 (2009: 701.7)"""

    verb: ClassVar[Verb] = Verb.DISCARD
    #: SEARCH: the stated quality of the cards to find (see ``CARD_QUALITIES``; "" is
    #: "a card": a quantity, rule 701.23d); DISCARD: what the chosen card must be.
    find: str = ""
    reveal: bool = False
    #: DISCARD: "" -- the player chooses (701.9b); "you" -- the effect's controller chooses
    #: from the revealed hand; "random" -- at random.
    chooser: str = ""
    #: DISCARD: "discard your hand" -- every card in it (rule 701.9a).
    whole_hand: bool = False
    #: DISCARD: "discard up to N cards" -- the player may stop after any number, even none
    #: (rules 701.9b, 608.2d); "that many" is then the amount ``this_way`` ``chosen``.
    up_to: bool = False
    #: How much (rule 107.1): see the module docstring.
    amount: Amount = ONE


@dataclass(frozen=True, slots=True, kw_only=True)
class Destroy(ObjectTargeting):
    """``destroy``: rule 701.8 (2009: 701.6)"""

    verb: ClassVar[Verb] = Verb.DESTROY
    #: DESTROY: "It can't be regenerated" (rule 701.19c).
    no_regeneration: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class CounterSpell(ObjectTargeting):
    """``counter``: rule 701.6 (2009: 701.5)"""

    verb: ClassVar[Verb] = Verb.COUNTER
    #: COUNTER: "... unless its controller pays {N}" (rule 118.12a): the target's controller
    #: may pay this cost as the effect is performed; if they don't, it is countered.
    unless_pays: ManaCost | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ReturnToHand(ObjectTargeting):
    """``return_to_hand``: "return ... to its owner's hand" (rule 400.3)"""

    verb: ClassVar[Verb] = Verb.RETURN_TO_HAND
    #: SEARCH: the zones searched, in text order ("graveyard", "hand", "library").
    zones: tuple[str, ...] = ()
    #: How much (rule 107.1): see the module docstring.
    amount: Amount = ONE


@dataclass(frozen=True, slots=True, kw_only=True)
class PutCounters(ObjectTargeting):
    """``put_counters``: rule 122"""

    verb: ClassVar[Verb] = Verb.PUT_COUNTERS
    #: PUT_COUNTERS: the kind of counter, e.g. ``"+1/+1"`` (rule 122.1).
    counter: str = ""
    #: PUT_COUNTERS: "double the number of [kind] counters on it" -- put as many as it
    #: already has (rule 701.10e); ``amount`` is ignored.
    double: bool = False
    #: How much (rule 107.1): see the module docstring.
    amount: Amount = ONE


@dataclass(frozen=True, slots=True, kw_only=True)
class ModifyPT(ObjectTargeting):
    """``modify_pt``: "gets +N/+N [and gains K] until end of turn" (rules 611.2, 613.1f, 613.4c,
    514.2)"""

    verb: ClassVar[Verb] = Verb.MODIFY_PT
    #: MODIFY_PT: the change to power and toughness until end of turn.
    power: int = 0
    toughness: int = 0
    #: MODIFY_PT: keyword abilities gained / lost until end of turn (rule 613.1f).
    gains: tuple[str, ...] = ()
    loses: tuple[str, ...] = ()
    #: MODIFY_PT: "double the power" (the bonus is its power as the effect begins).
    double_power: bool = False
    #: MODIFY_PT: "switch its power and toughness" (layer 7d, rule 613.4d).
    switch: bool = False
    #: MODIFY_PT: "[they] have base power and toughness P/T" (layer 7b, rule 613.4b): sets
    #: them to ``power``/``toughness`` (times the amount: "X/X") instead of adding.
    set_base: bool = False
    #: MODIFY_PT: no duration stated ("It gains haste."): until the end of the game
    #: (rule 611.2a), not until end of turn.
    lasting: bool = False
    #: MODIFY_PT: "gains protection from [quality] until end of turn" (rule 702.16a): a
    #: quality protection can name, or ``"chosen_color"`` -- the color chosen earlier in this
    #: resolution ("protection from the color of your choice").
    protection: str = ""
    #: MODIFY_PT: it also gains the keyword ability chosen earlier in this resolution.
    gains_chosen: bool = False
    #: How much (rule 107.1): see the module docstring.
    amount: Amount = ONE


@dataclass(frozen=True, slots=True, kw_only=True)
class CreateToken(PlayerTargeting):
    """``create_token``: rule 111.1"""

    verb: ClassVar[Verb] = Verb.CREATE_TOKEN
    #: CREATE_TOKEN: the token's definition (rule 111.3).
    token: CardDef
    #: CREATE_TOKEN: "tapped and attacking" (rule 508.4).
    tapped_attacking: bool = False
    #: CREATE_TOKEN: "an X/X token, where X is [an amount]" -- the token's power and
    #: toughness are the effect's amount, locked in as it is created (rule 107.3a);
    #: it creates one token.
    token_x: bool = field(default=False, metadata=DERIVED)
    #: How much (rule 107.1): see the module docstring.
    amount: Amount = ONE


@dataclass(frozen=True, slots=True, kw_only=True)
class Exile(ObjectTargeting):
    """``exile``: rule 701.13 (2009: 701.11)"""

    verb: ClassVar[Verb] = Verb.EXILE


@dataclass(frozen=True, slots=True, kw_only=True)
class Tap(ObjectTargeting):
    """``tap``: rule 701.26a (2009: 701.15a)"""

    verb: ClassVar[Verb] = Verb.TAP
    #: How much (rule 107.1): see the module docstring.
    amount: Amount = ONE


@dataclass(frozen=True, slots=True, kw_only=True)
class Untap(ObjectTargeting):
    """``untap``: rule 701.26b"""

    verb: ClassVar[Verb] = Verb.UNTAP
    #: How much (rule 107.1): see the module docstring.
    amount: Amount = ONE


@dataclass(frozen=True, slots=True, kw_only=True)
class Sacrifice(PlayerTargeting):
    """``sacrifice``: "[Player] sacrifices a [quality] creature": that player chooses (rule
    701.21a)"""

    verb: ClassVar[Verb] = Verb.SACRIFICE
    #: SACRIFICE: the quality the sacrificed permanent must have, e.g. "Flying".
    quality: str = ""
    #: SACRIFICE: "another" -- not the source itself.
    other: bool = False
    #: A reflexive triggered ability (rule 603.12): "When you do, ..." after the optional
    #: action of this effect is taken.
    reflexive: TriggeredAbility | None = None
    #: How much (rule 107.1): see the module docstring.
    amount: Amount = ONE


@dataclass(frozen=True, slots=True, kw_only=True)
class Attach(ObjectTargeting):
    """``attach``: Equip: attach the source to the target (rules 701.3a, 702.6a)"""

    verb: ClassVar[Verb] = Verb.ATTACH


@dataclass(frozen=True, slots=True, kw_only=True)
class ReturnToBattlefield(ObjectTargeting):
    """``return_to_battlefield``: "Return [it] to the battlefield under your control": the
    card moved onto the battlefield under the effect's controller (rules 400.3, 110.2)."""

    verb: ClassVar[Verb] = Verb.RETURN_TO_BATTLEFIELD


@dataclass(frozen=True, slots=True, kw_only=True)
class RemoveCounters(ObjectTargeting):
    """``remove_counters``: rule 122"""

    verb: ClassVar[Verb] = Verb.REMOVE_COUNTERS
    #: PUT_COUNTERS: the kind of counter, e.g. ``"+1/+1"`` (rule 122.1).
    counter: str = ""
    #: How much (rule 107.1): see the module docstring.
    amount: Amount = ONE


@dataclass(frozen=True, slots=True, kw_only=True)
class ExileIfDies(ObjectTargeting):
    """``exile_if_dies``: "If that creature would die this turn, exile it instead" (rule 614.1a)"""

    verb: ClassVar[Verb] = Verb.EXILE_IF_DIES


@dataclass(frozen=True, slots=True, kw_only=True)
class Regenerate(ObjectTargeting):
    """``regenerate``: "Regenerate [permanent]": a regeneration shield (rules 701.19a, 614.8)"""

    verb: ClassVar[Verb] = Verb.REGENERATE


@dataclass(frozen=True, slots=True, kw_only=True)
class CreateDelayedTrigger(EffectBase):
    """``delayed_trigger``: Create a delayed triggered ability (rule 603.7), e.g. "whenever ...
    this turn"."""

    verb: ClassVar[Verb] = Verb.DELAYED_TRIGGER
    #: DELAYED_TRIGGER: the ability it creates; ``this_turn``: its stated duration (603.7b).
    delayed: TriggeredAbility
    this_turn: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class CreateEmblem(EffectBase):
    """``create_emblem``: "You get an emblem with ..." (rule 114.1): an object in the command
    zone."""

    verb: ClassVar[Verb] = Verb.CREATE_EMBLEM
    #: CREATE_EMBLEM: the emblem (rule 114).
    emblem: CardDef


@dataclass(frozen=True, slots=True, kw_only=True)
class CopySpell(ObjectTargeting):
    """``copy_spell``: "Copy target instant or sorcery spell" (rules 707.10, 707.2)"""

    verb: ClassVar[Verb] = Verb.COPY_SPELL
    #: COPY_SPELL: "You may choose new targets for the copy" (rule 707.10c).
    new_targets: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class CreateTokenCopy(ObjectTargeting):
    """``create_token_copy``: "Create a token that's a copy of target creature" (rules 707.2,
    111.1)"""

    verb: ClassVar[Verb] = Verb.CREATE_TOKEN_COPY


@dataclass(frozen=True, slots=True, kw_only=True)
class Coded(PlayerTargeting):
    """``coded``: An effect the vocabulary can't express, coded in :mod:`server.engine.coded`."""

    verb: ClassVar[Verb] = Verb.CODED
    #: CODED: the name of the coded effect.
    code: str
    #: How much (rule 107.1): see the module docstring.
    amount: Amount = ONE


@dataclass(frozen=True, slots=True, kw_only=True)
class PreventCombatDamage(EffectBase):
    """``prevent_combat_damage``: "Prevent all combat damage that would be dealt this turn" (rules
    615.1, 615.7)"""

    verb: ClassVar[Verb] = Verb.PREVENT_COMBAT_DAMAGE
    #: PREVENT_COMBAT_DAMAGE: "... that would be dealt this turn to [Dogs you control]": only
    #: to permanents the filter describes (from the controller's point of view) as the damage
    #: would be dealt; None: all combat damage.
    prevent_to: ObjectFilter | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Scry(PlayerEffect):
    """``scry``: "Scry N" (rule 701.22a; 2009: 701.16a)."""

    verb: ClassVar[Verb] = Verb.SCRY
    #: How much (rule 107.1): see the module docstring.
    amount: Amount = ONE


@dataclass(frozen=True, slots=True, kw_only=True)
class Fateseal(PlayerTargeting):
    """``fateseal``: "Fateseal N": scry an opponent's library (rule 701.29a; 2009: 701.17a)."""

    verb: ClassVar[Verb] = Verb.FATESEAL
    #: How much (rule 107.1): see the module docstring.
    amount: Amount = ONE


@dataclass(frozen=True, slots=True, kw_only=True)
class Search(PlayerTargeting):
    """``search``: "Search [zones] for [cards]" then put them somewhere (rule 701.23; 2009:
    701.14)."""

    verb: ClassVar[Verb] = Verb.SEARCH
    #: SEARCH: the zones searched, in text order ("graveyard", "hand", "library").
    zones: tuple[str, ...] = ()
    #: SEARCH: the stated quality of the cards to find (see ``CARD_QUALITIES``; "" is
    #: "a card": a quantity, rule 701.23d); DISCARD: what the chosen card must be.
    find: str = ""
    #: SEARCH: where found cards go ("hand", "battlefield", "exile", "library_top");
    #: EXCHANGE_ZONES: the two zones exchanged ("hand", "graveyard", "exile").
    destination: str = ""
    #: SEARCH: "put one onto [destination] and the other into [rest_to]" -- the searcher
    #: chooses which found card goes to ``destination`` (608.2d); the rest go here.
    rest_to: str = ""
    #: SEARCH: found cards enter tapped / are revealed (701.23e) / the library is shuffled.
    tapped: bool = False
    reveal: bool = False
    shuffle: bool = False
    #: SEARCH: "search your library and/or graveyard for ... If you search your library this
    #: way, shuffle" -- the searcher chooses the zones (608.2d): with a card sought in the
    #: graveyard they are asked whether to search the library too; searching the graveyard
    #: alone, the library is neither looked at nor shuffled (701.23a, 701.24a).
    and_or: bool = False
    #: SEARCH: "all cards with ..." -- every match (a hidden zone may still hide some, 701.23b).
    find_all: bool = False
    #: SEARCH with ``find`` "named": the English names searched for (rules 201.2, 701.23) --
    #: "a card named A and/or a card named B": at most one card of each name.
    names: tuple[str, ...] = field(default=(), metadata={KEY: "name"})
    #: EXILE_TOP, SEARCH (to exile): "Until end of turn, you may play cards exiled this way" /
    #: "You may cast them this turn" -- a permission to play them from exile this turn,
    #: following the normal timing and costs (rules 305.1, 601.2, 400.7h).
    may_play: bool = False
    #: How much (rule 107.1): see the module docstring.
    amount: Amount = ONE


@dataclass(frozen=True, slots=True, kw_only=True)
class RevealTop(PlayerEffect):
    """``reveal_top``: "Reveal the top card of your library" (rule 701.20a; 2009: 701.12a)."""

    verb: ClassVar[Verb] = Verb.REVEAL_TOP
    #: SEARCH: the stated quality of the cards to find (see ``CARD_QUALITIES``; "" is
    #: "a card": a quantity, rule 701.23d); DISCARD: what the chosen card must be.
    find: str = ""
    #: SEARCH: where found cards go ("hand", "battlefield", "exile", "library_top");
    #: EXCHANGE_ZONES: the two zones exchanged ("hand", "graveyard", "exile").
    destination: str = ""
    #: REVEAL_TOP with ``find`` and ``destination``: "If it's a [find] card, put it into
    #: [destination]. Otherwise, put it [otherwise]" -- "library_bottom" or "" (it stays).
    otherwise: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class RevealUntil(PlayerTargeting):
    """``reveal_until``: "[Player] reveals cards from the top of their library until they reveal a
    [find] card, puts that card into [destination], then shuffles the rest into their library"
    (rules 701.20a, 701.24a): the player puts the card there (under their control)."""

    verb: ClassVar[Verb] = Verb.REVEAL_UNTIL
    #: SEARCH: the stated quality of the cards to find (see ``CARD_QUALITIES``; "" is
    #: "a card": a quantity, rule 701.23d); DISCARD: what the chosen card must be.
    find: str = ""
    #: SEARCH: where found cards go ("hand", "battlefield", "exile", "library_top");
    #: EXCHANGE_ZONES: the two zones exchanged ("hand", "graveyard", "exile").
    destination: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Clash(EffectBase):
    """``clash``: "Clash with an opponent" (rule 701.30; 2009: 701.18)."""

    verb: ClassVar[Verb] = Verb.CLASH


@dataclass(frozen=True, slots=True, kw_only=True)
class Piles(EffectBase):
    """``piles``: "Reveal the top N cards; an opponent separates them into two piles; put one into
    your hand and the other into your graveyard" (rule 700.3)."""

    verb: ClassVar[Verb] = Verb.PILES
    #: How much (rule 107.1): see the module docstring.
    amount: Amount = ONE


@dataclass(frozen=True, slots=True, kw_only=True)
class PutOnTop(ObjectTargeting):
    """``put_on_top``: "Put target creature on top of its owner's library" (rule 401.4)."""

    verb: ClassVar[Verb] = Verb.PUT_ON_TOP


@dataclass(frozen=True, slots=True, kw_only=True)
class PutOnBottom(ObjectTargeting):
    """``put_on_bottom``: "Put target card from your graveyard on the bottom of your library":
    into its owner's library, beneath every other card (rules 400.3, 401.1)."""

    verb: ClassVar[Verb] = Verb.PUT_ON_BOTTOM


@dataclass(frozen=True, slots=True, kw_only=True)
class FlipCoin(EffectBase):
    """``flip_coin``: "Flip a coin" (rule 705): the controller flips and calls it; whether they
    won is the condition ``won_flip`` (705.2)."""

    verb: ClassVar[Verb] = Verb.FLIP_COIN


@dataclass(frozen=True, slots=True, kw_only=True)
class Mill(PlayerTargeting):
    """``mill``: "[Player] mills N cards" (rule 701.17a)."""

    verb: ClassVar[Verb] = Verb.MILL
    #: How much (rule 107.1): see the module docstring.
    amount: Amount = ONE


@dataclass(frozen=True, slots=True, kw_only=True)
class Fight(ObjectTargeting):
    """``fight``: "[It] fights [target creature]": each deals damage equal to its power to the
    other (rules 701.14a-d). ``by`` names the creature that fights."""

    verb: ClassVar[Verb] = Verb.FIGHT
    #: DEAL_DAMAGE, FIGHT: the creature that deals the damage / fights when it isn't the
    #: effect's source: ``THAT`` -- the previous effect's target ("Then that creature deals
    #: damage equal to its power to ...", "Then it fights ..."); ``SELF`` -- the source as a
    #: permanent. None: the source (a spell deals its own damage, rule 120.1).
    by: Acting | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ExchangeControl(ObjectTargeting):
    """``exchange_control``: "Exchange control of two target permanents" (rules 701.12a-b; 2009:
    701.8a-b)."""

    verb: ClassVar[Verb] = Verb.EXCHANGE_CONTROL


@dataclass(frozen=True, slots=True, kw_only=True)
class ExchangeLife(PlayerTargeting):
    """``exchange_life``: "Two target players exchange life totals" (rule 701.12c; 2009: 701.8c)."""

    verb: ClassVar[Verb] = Verb.EXCHANGE_LIFE


@dataclass(frozen=True, slots=True, kw_only=True)
class ExchangeZones(Targeting):
    """``exchange_zones``: "Exchange [zone] and [zone]" of one player (rules 701.12d-f; 2009:
    701.8d-f)."""

    verb: ClassVar[Verb] = Verb.EXCHANGE_ZONES
    #: A player set (the zones of whom), or the object(s) acted on.
    who: Players | ObjectRef = Players.YOU
    #: SEARCH: where found cards go ("hand", "battlefield", "exile", "library_top");
    #: EXCHANGE_ZONES: the two zones exchanged ("hand", "graveyard", "exile").
    destination: str = ""
    exchange_with: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class MoveFound(ObjectTargeting):
    """``move_found``: Put the new object a moved object became ("that card", "return [this]")
    into ``destination`` -- found only in a public zone (rules 400.7e, 400.7f, 400.7j)."""

    verb: ClassVar[Verb] = Verb.MOVE_FOUND
    #: SEARCH: the zones searched, in text order ("graveyard", "hand", "library").
    zones: tuple[str, ...] = ()
    #: SEARCH: where found cards go ("hand", "battlefield", "exile", "library_top");
    #: EXCHANGE_ZONES: the two zones exchanged ("hand", "graveyard", "exile").
    destination: str = ""
    #: SEARCH: found cards enter tapped / are revealed (701.23e) / the library is shuffled.
    tapped: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class PutIntoLibraryBeneath(ObjectTargeting):
    """``put_into_library_beneath``: "Put target creature into its owner's library just beneath
    the top N cards" -- N+1th from the top ("second from the top" is N=1; rule 401.7)."""

    verb: ClassVar[Verb] = Verb.PUT_INTO_LIBRARY_BENEATH
    #: How much (rule 107.1): see the module docstring.
    amount: Amount = ONE


@dataclass(frozen=True, slots=True, kw_only=True)
class ShuffleIntoLibrary(PlayerTargeting):
    """``shuffle_into_library``: "[Player] shuffles their [zones] into their library" (rule
    400.12)."""

    verb: ClassVar[Verb] = Verb.SHUFFLE_INTO_LIBRARY
    #: SEARCH: the zones searched, in text order ("graveyard", "hand", "library").
    zones: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Wish(PlayerEffect):
    """``wish``: "You may reveal a [card_type] card you own from outside the game and put it into
    your hand" (rule 400.11b)."""

    verb: ClassVar[Verb] = Verb.WISH
    #: WISH: the card type of the card brought in from outside the game ("Sorcery").
    card_type: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ExileLinked(Targeting):
    """``exile_linked``: "Exile target card", kept in a pile of cards exiled with the source
    (406.5, 406.6)."""

    verb: ClassVar[Verb] = Verb.EXILE_LINKED
    #: A player set (the zones of whom), or the object(s) acted on.
    who: Players | ObjectRef = Players.YOU
    #: EXILE_LINKED: "until [this] leaves the battlefield" (rule 610.3): the card returns to
    #: its previous zone as the source leaves; nothing is exiled if it already has (610.3b).
    until_leaves: bool = False
    #: SEARCH: the zones searched, in text order ("graveyard", "hand", "library").
    zones: tuple[str, ...] = ()
    #: SEARCH: the stated quality of the cards to find (see ``CARD_QUALITIES``; "" is
    #: "a card": a quantity, rule 701.23d); DISCARD: what the chosen card must be.
    find: str = ""
    #: DISCARD: "" -- the player chooses (701.9b); "you" -- the effect's controller chooses
    #: from the revealed hand; "random" -- at random.
    chooser: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class MoveLinked(ObjectEffect):
    """``move_linked``: Put the cards exiled with the source (406.6: linked abilities) into
    ``destination``."""

    verb: ClassVar[Verb] = Verb.MOVE_LINKED
    #: SEARCH: where found cards go ("hand", "battlefield", "exile", "library_top");
    #: EXCHANGE_ZONES: the two zones exchanged ("hand", "graveyard", "exile").
    destination: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class ExileZone(PlayerTargeting):
    """``exile_zone``: "Exile all cards [player] owns in [zones]" -- exiling an exiled card makes
    a new object (rules 400.8, 406.7, 400.12)."""

    verb: ClassVar[Verb] = Verb.EXILE_ZONE
    #: SEARCH: the zones searched, in text order ("graveyard", "hand", "library").
    zones: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class PutIntoCommand(PlayerTargeting):
    """``put_into_command``: "Put each card you own in the command zone into the command zone":
    each becomes a new object that has just entered it (rule 400.10)."""

    verb: ClassVar[Verb] = Verb.PUT_INTO_COMMAND


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnFaceDown(PlayerTargeting):
    """``turn_face_down``: "Turn each face-up card you own in the command zone face down": each
    becomes a new object with no characteristics (rules 400.9, 708.2)."""

    verb: ClassVar[Verb] = Verb.TURN_FACE_DOWN


@dataclass(frozen=True, slots=True, kw_only=True)
class PreventDamageFrom(ObjectTargeting):
    """``prevent_damage_from``: "Prevent all damage target [spell or permanent] would deal this
    turn" (rule 615.1; for a permanent spell it goes on with the permanent, 400.7c)."""

    verb: ClassVar[Verb] = Verb.PREVENT_DAMAGE_FROM


@dataclass(frozen=True, slots=True, kw_only=True)
class ExileTopFaceDown(PlayerTargeting):
    """``exile_top_face_down``: "Exile the top N cards of your library face down" -- one pile of
    face-down cards (406.4), exiled with the source (406.6)."""

    verb: ClassVar[Verb] = Verb.EXILE_TOP_FACE_DOWN
    #: EXILE_TOP_FACE_DOWN: "You may look at it for as long as it remains exiled" (406.3).
    may_look: bool = False
    #: How much (rule 107.1): see the module docstring.
    amount: Amount = ONE


@dataclass(frozen=True, slots=True, kw_only=True)
class ChooseExiled(PlayerEffect):
    """``choose_exiled``: "Choose a card in exile" and put it into ``destination`` -- a face-down
    card only by its pile unless you may look at it (rule 406.4)."""

    verb: ClassVar[Verb] = Verb.CHOOSE_EXILED
    #: SEARCH: where found cards go ("hand", "battlefield", "exile", "library_top");
    #: EXCHANGE_ZONES: the two zones exchanged ("hand", "graveyard", "exile").
    destination: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class GrantFlashback(PlayerEffect):
    """``grant_flashback``: "Each instant and sorcery card in your graveyard gains flashback until
    end of turn. The flashback cost is equal to its mana cost." (rules 702.34a, 611.2c, 400.7g)"""

    verb: ClassVar[Verb] = Verb.GRANT_FLASHBACK


@dataclass(frozen=True, slots=True, kw_only=True)
class MoveCommandCards(PlayerTargeting):
    """``move_command_cards``: "Put each card [player] owns in the command zone into its owner's
    [destination]": a conspiracy, phenomenon, plane, scheme or vanguard card stays there (rule
    400.4b)."""

    verb: ClassVar[Verb] = Verb.MOVE_COMMAND_CARDS
    #: SEARCH: where found cards go ("hand", "battlefield", "exile", "library_top");
    #: EXCHANGE_ZONES: the two zones exchanged ("hand", "graveyard", "exile").
    destination: str


@dataclass(frozen=True, slots=True, kw_only=True)
class PutSticker(ObjectTargeting):
    """``put_sticker``: "Put a [sticker] on target [permanent] you own" (rules 123.3, 123.3b)."""

    verb: ClassVar[Verb] = Verb.PUT_STICKER
    #: PUT_STICKER: the sticker put on (rule 123.3; sticker sheets, 123.2, aren't modelled).
    sticker: StickerDef


@dataclass(frozen=True, slots=True, kw_only=True)
class AnteTop(PlayerTargeting):
    """``ante_top``: "Ante the top card of your library" (rules 407.3, 407.4)."""

    verb: ClassVar[Verb] = Verb.ANTE_TOP


@dataclass(frozen=True, slots=True, kw_only=True)
class DoesntUntapNext(ObjectTargeting):
    """``doesnt_untap_next``: "[Those creatures] don't untap during their controller's next untap
    step" (rule 502.3): whoever controls it then."""

    verb: ClassVar[Verb] = Verb.DOESNT_UNTAP_NEXT


@dataclass(frozen=True, slots=True, kw_only=True)
class RestrictThisTurn(ObjectTargeting):
    """``restrict_this_turn``: "[Creatures without flying] can't block this turn" (rule 611.2c): a
    rules change until end of turn, for the target(s) or for every permanent the ``filter``
    describes at any time this turn (the set isn't locked in: no characteristic changes)."""

    verb: ClassVar[Verb] = Verb.RESTRICT_THIS_TURN
    #: RESTRICT_THIS_TURN: the rules changes, e.g. "cant_block" (see StaticAbility).
    restrictions: tuple[str, ...]
    #: RESTRICT_THIS_TURN with "each": the permanents *gain an ability* granting the rules
    #: change ("creatures you control gain 'You may have this creature assign its combat
    #: damage as though it weren't blocked'"): a characteristic (layer 6, 613.1f), so only the
    #: permanents there as it resolves are affected (611.2c), not later arrivals.
    locked_in: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class LookAndPick(EffectBase):
    """``look_and_pick``: "Look at the top N cards of your library. Put [pick] of them into your
    hand and the rest into [rest]" (rules 701.20, 401.4): the controller chooses the cards one
    at a time; the rest go to the graveyard or, one at a time in the order chosen, to the
    bottom of the library."""

    verb: ClassVar[Verb] = Verb.LOOK_AND_PICK
    #: SEARCH: where found cards go ("hand", "battlefield", "exile", "library_top");
    #: EXCHANGE_ZONES: the two zones exchanged ("hand", "graveyard", "exile").
    destination: str = ""
    #: LOOK_AND_PICK: how many of the looked-at cards go into ``destination`` ("one of
    #: them"); where the rest go ("graveyard", "library_bottom"); and a condition under which
    #: every looked-at card goes into ``destination`` instead.
    pick: int = 1
    rest: str = ""
    all_if: AnyCondition | None = None
    #: How much (rule 107.1): see the module docstring.
    amount: Amount = ONE


@dataclass(frozen=True, slots=True, kw_only=True)
class ExileTopPlayable(EffectBase):
    """``exile_top_playable``: "Exile the top card of your library. You may play that card until
    you exile another card with [this]" -- or, with ``this_turn``, "... this turn" (rules
    406.3, 601.3, 305.2): a permission to play it from exile, kept while it stays there."""

    verb: ClassVar[Verb] = Verb.EXILE_TOP_PLAYABLE
    this_turn: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class EndTurn(EffectBase):
    """``end_turn``: "End the turn" (rule 724.1): exile everything on the stack, check state-based
    actions, and skip to the cleanup step."""

    verb: ClassVar[Verb] = Verb.END_TURN


@dataclass(frozen=True, slots=True, kw_only=True)
class Pay(EffectBase):
    """``pay``: "You may pay {1}{B}" (rules 118.1, 608.2d): the controller may pay the effect's
    ``cost`` as it is performed; "If you do" (condition ``you_did``) is whether they paid."""

    verb: ClassVar[Verb] = Verb.PAY
    #: A reflexive triggered ability (rule 603.12): "When you do, ..." after the optional
    #: action of this effect is taken.
    reflexive: TriggeredAbility | None = None
    #: PAY: the mana cost the controller may pay.
    cost: ManaCost


@dataclass(frozen=True, slots=True, kw_only=True)
class ChooseTarget(ObjectTargeting):
    """``target``: "Target creature you control [deals damage ...]": the subject of the next
    instruction is a target (rule 115.1) -- chosen with the others, it does nothing by itself;
    the next effect names it with ``by`` (or ``who``) "that"."""

    verb: ClassVar[Verb] = Verb.TARGET


@dataclass(frozen=True, slots=True, kw_only=True)
class ExileTop(PlayerTargeting):
    """``exile_top``: "Exile the top N cards of your library" (rule 701.13a): face up; with
    ``may_play``, "Until end of turn, you may play cards exiled this way"."""

    verb: ClassVar[Verb] = Verb.EXILE_TOP
    #: EXILE_TOP, SEARCH (to exile): "Until end of turn, you may play cards exiled this way" /
    #: "You may cast them this turn" -- a permission to play them from exile this turn,
    #: following the normal timing and costs (rules 305.1, 601.2, 400.7h).
    may_play: bool = False
    #: How much (rule 107.1): see the module docstring.
    amount: Amount = ONE


@dataclass(frozen=True, slots=True, kw_only=True)
class PhaseOut(ObjectTargeting):
    """``phase_out``: "[Permanents] phase out" (rule 702.26b): until they phase in during the
    untap step of the player who controlled them (702.26a); ``hold``: "Until the end of your
    next turn, they can't phase in"."""

    verb: ClassVar[Verb] = Verb.PHASE_OUT
    #: PHASE_OUT: "Until the end of your next turn, they can't phase in" (rule 702.26a).
    hold: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class ExtraTurns(EffectBase):
    """``extra_turns``: "Take N extra turns after this one" (rule 500.7): the controller takes
    them."""

    verb: ClassVar[Verb] = Verb.EXTRA_TURNS
    #: How much (rule 107.1): see the module docstring.
    amount: Amount = ONE


@dataclass(frozen=True, slots=True, kw_only=True)
class LookAtTop(PlayerEffect):
    """``look_at_top``: "Look at the top N cards of your library. You may reveal a [take] card
    from among them and put it into your hand. Put the rest on the bottom of your library in a
    random order" (rules 701.20a, 401.1): ``take`` describes the cards that may be taken."""

    verb: ClassVar[Verb] = Verb.LOOK_AT_TOP
    reveal: bool = False
    #: LOOK_AT_TOP: "a creature card or Garruk planeswalker card" -- a card matching one of
    #: these descriptions (its characteristics in the library, rule 109.3).
    take: tuple[ObjectFilter, ...] = ()
    #: How much (rule 107.1): see the module docstring.
    amount: Amount = ONE


@dataclass(frozen=True, slots=True, kw_only=True)
class CastCard(ObjectTargeting):
    """``cast_card``: "You may cast target [card]" (rules 608.2g, 601.2): the controller casts it
    while this resolves, whatever its timing, paying its costs; ``exile_instead``: "If that
    spell would be put into your graveyard this turn, exile it instead" (614.1a)."""

    verb: ClassVar[Verb] = Verb.CAST_CARD
    #: CAST_CARD: "If that spell would be put into your graveyard this turn, exile it instead".
    exile_instead: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class FreeCastsThisTurn(EffectBase):
    """``free_casts_this_turn``: "Until end of turn, you may cast spells from your hand without
    paying their mana costs" (rules 118.9, 601.2b: an alternative cost; X is 0, 107.3)."""

    verb: ClassVar[Verb] = Verb.FREE_CASTS_THIS_TURN


@dataclass(frozen=True, slots=True, kw_only=True)
class SacrificeOrDiscard(ObjectEffect):
    """``sacrifice_or_discard``: "You may sacrifice a creature or discard a creature card": the
    chosen object (who "chosen", from the battlefield and your hand) is sacrificed if it is a
    permanent, discarded if it is in your hand (rules 701.21a, 701.9a, 608.2d)."""

    verb: ClassVar[Verb] = Verb.SACRIFICE_OR_DISCARD
    #: SEARCH: the zones searched, in text order ("graveyard", "hand", "library").
    zones: tuple[str, ...] = ()
    #: How much (rule 107.1): see the module docstring.
    amount: Amount = ONE


@dataclass(frozen=True, slots=True, kw_only=True)
class ChooseColor(EffectBase):
    """``choose_color``: "[The] color of your choice": the controller chooses a color as this
    effect is performed (rules 105.4, 608.2d); later effects of the resolution name it as
    ``"chosen_color"``."""

    verb: ClassVar[Verb] = Verb.CHOOSE_COLOR


@dataclass(frozen=True, slots=True, kw_only=True)
class GainControl(ObjectTargeting):
    """``gain_control``: "Gain control of target creature [until end of turn]" (rules 613.1b,
    611.2a; with ``this_turn`` it ends at the cleanup step, 514.2)."""

    verb: ClassVar[Verb] = Verb.GAIN_CONTROL
    this_turn: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class ChooseKeyword(EffectBase):
    """``choose_keyword``: "Your choice of deathtouch or lifelink": the controller chooses one of
    the keyword abilities in ``gains`` as this effect is performed (rule 608.2d); a later
    ``modify_pt`` with ``gains_chosen`` grants it."""

    verb: ClassVar[Verb] = Verb.CHOOSE_KEYWORD
    #: MODIFY_PT: keyword abilities gained / lost until end of turn (rule 613.1f).
    gains: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class ChooseCardName(EffectBase):
    """``choose_card_name``: "Choose a card name [other than a basic land card name]": the
    controller chooses the name of a card (rules 201.4, 201.4a, 608.2d) -- never one with the
    quality ``other_than``; a later ``search`` finds ``"chosen_name"``."""

    verb: ClassVar[Verb] = Verb.CHOOSE_CARD_NAME
    #: CHOOSE_CARD_NAME: "other than a [quality] card name" (a ``CARD_QUALITIES`` member).
    other_than: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class AddMana(EffectBase):
    """``add_mana``: "Add [amount] mana of [mana]" (rule 106.3): ``mana`` is mana letters added
    ``amount`` times, or ``"chosen_color"`` -- one mana of the color chosen earlier in this
    resolution ("add two mana of any one color", 105.4)."""

    verb: ClassVar[Verb] = Verb.ADD_MANA
    #: ADD_MANA: the mana added (see the verb).
    mana: str
    #: How much (rule 107.1): see the module docstring.
    amount: Amount = ONE


@dataclass(frozen=True, slots=True, kw_only=True)
class LoseGame(PlayerTargeting):
    """``lose_game``: "[Player] loses the game" (rule 104.3e)."""

    verb: ClassVar[Verb] = Verb.LOSE_GAME


@dataclass(frozen=True, slots=True, kw_only=True)
class PermitCastLinked(PlayerEffect):
    """``permit_cast_linked``: "Until end of turn, you may cast a [card_type] spell from among
    cards exiled with [this] without paying its mana cost" (rules 601.2, 118.9): one spell,
    this turn, with its normal timing."""

    verb: ClassVar[Verb] = Verb.PERMIT_CAST_LINKED
    #: WISH: the card type of the card brought in from outside the game ("Sorcery").
    card_type: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Become(ObjectTargeting):
    """``become``: "[It] becomes a P/T [subtypes] [types] with [keywords] in addition to its other
    types until end of turn" (rules 611.2, 613.1d, 613.1f, 613.4b): ``power``/``toughness`` are
    the new base values; ``add_types``/``add_subtypes`` and ``gains`` are added."""

    verb: ClassVar[Verb] = Verb.BECOME
    #: MODIFY_PT: the change to power and toughness until end of turn.
    power: int = 0
    toughness: int = 0
    #: MODIFY_PT: keyword abilities gained / lost until end of turn (rule 613.1f).
    gains: tuple[str, ...] = ()
    #: BECOME: card types and subtypes it gets in addition to its others (layer 4).
    add_types: tuple[str, ...] = field(default=(), metadata={KEY: "types"})
    add_subtypes: tuple[str, ...] = field(default=(), metadata={KEY: "subtypes"})


#: One instruction of a spell or ability (rule 608.2c): one class per verb.
Effect: TypeAlias = (
    DealDamage | GainLife | LoseLife | Draw | Discard | Destroy | CounterSpell |
    ReturnToHand | PutCounters | ModifyPT | CreateToken | Exile | Tap | Untap | Sacrifice |
    Attach | ReturnToBattlefield | RemoveCounters | ExileIfDies | Regenerate |
    CreateDelayedTrigger | CreateEmblem | CopySpell | CreateTokenCopy | Coded |
    PreventCombatDamage | Scry | Fateseal | Search | RevealTop | RevealUntil | Clash | Piles |
    PutOnTop | PutOnBottom | FlipCoin | Mill | Fight | ExchangeControl | ExchangeLife |
    ExchangeZones | MoveFound | PutIntoLibraryBeneath | ShuffleIntoLibrary | Wish |
    ExileLinked | MoveLinked | ExileZone | PutIntoCommand | TurnFaceDown | PreventDamageFrom |
    ExileTopFaceDown | ChooseExiled | GrantFlashback | MoveCommandCards | PutSticker |
    AnteTop | DoesntUntapNext | RestrictThisTurn | LookAndPick | ExileTopPlayable | EndTurn |
    Pay | ChooseTarget | ExileTop | PhaseOut | ExtraTurns | LookAtTop | CastCard |
    FreeCastsThisTurn | SacrificeOrDiscard | ChooseColor | GainControl | ChooseKeyword |
    ChooseCardName | AddMana | LoseGame | PermitCastLinked | Become
)

#: Every effect class, in the order of :class:`Verb`.
EFFECT_CLASSES: tuple[type[Effect], ...] = (
    DealDamage, GainLife, LoseLife, Draw, Discard, Destroy, CounterSpell, ReturnToHand,
    PutCounters, ModifyPT, CreateToken, Exile, Tap, Untap, Sacrifice, Attach,
    ReturnToBattlefield, RemoveCounters, ExileIfDies, Regenerate, CreateDelayedTrigger,
    CreateEmblem, CopySpell, CreateTokenCopy, Coded, PreventCombatDamage, Scry, Fateseal,
    Search, RevealTop, RevealUntil, Clash, Piles, PutOnTop, PutOnBottom, FlipCoin, Mill,
    Fight, ExchangeControl, ExchangeLife, ExchangeZones, MoveFound, PutIntoLibraryBeneath,
    ShuffleIntoLibrary, Wish, ExileLinked, MoveLinked, ExileZone, PutIntoCommand,
    TurnFaceDown, PreventDamageFrom, ExileTopFaceDown, ChooseExiled, GrantFlashback,
    MoveCommandCards, PutSticker, AnteTop, DoesntUntapNext, RestrictThisTurn, LookAndPick,
    ExileTopPlayable, EndTurn, Pay, ChooseTarget, ExileTop, PhaseOut, ExtraTurns, LookAtTop,
    CastCard, FreeCastsThisTurn, SacrificeOrDiscard, ChooseColor, GainControl, ChooseKeyword,
    ChooseCardName, AddMana, LoseGame, PermitCastLinked, Become,
)

#: The class of each verb (a bijection: tests/cards/test_verbs.py).
CLASS_OF_VERB: dict[Verb, type[Effect]] = {cls.verb: cls for cls in EFFECT_CLASSES}

#: An effect with an ``amount``.
Amounted: TypeAlias = (
    DealDamage | GainLife | LoseLife | Draw | Discard | ReturnToHand | PutCounters | ModifyPT |
    CreateToken | Tap | Untap | Sacrifice | RemoveCounters | Coded | Scry | Fateseal | Search |
    Piles | Mill | PutIntoLibraryBeneath | ExileTopFaceDown | LookAndPick | ExileTop | ExtraTurns |
    LookAtTop | SacrificeOrDiscard | AddMana
)


#: The effect classes with an ``amount``, for ``isinstance`` (the members of
#: :data:`Amounted`; a test checks they are exactly the classes with that field).
AMOUNTED: tuple[type[Amounted], ...] = get_args(Amounted)


def who_of(effect: Effect) -> Affected:
    """Who or what the effect affects: its ``who``, or its controller ("you") for a verb
    without one."""
    return effect.who if isinstance(effect, Affecting) else Players.YOU


def by_of(effect: Effect) -> Acting | None:
    """The creature that deals the damage or fights, if the effect names one (``by``)."""
    return effect.by if isinstance(effect, (DealDamage, Fight)) else None

#: Prowess (rule 702.108a): "Whenever you cast a noncreature spell, this creature gets +1/+1
#: until end of turn."
PROWESS = TriggeredAbility(
    text="Prowess (Whenever you cast a noncreature spell, this creature gets +1/+1 until end "
         "of turn.)",
    event=TriggerEvent.CAST,
    effects=(ModifyPT(who=ObjectRef.SELF, power=1, toughness=1),),
    subject=TriggerSubject.FILTER,
    filter=ObjectFilter(not_types=("Creature",)),
)
