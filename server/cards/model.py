"""Frozen, typed card definitions (see ../README: "How to add a card").

Printed characteristics come from MTGJSON-format data; behaviour is data over a closed
vocabulary of effects named after the rules' verbs. This module holds only the types; the
loader in :mod:`server.cards` validates data files into them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from server.cards.mana import ManaCost


class TargetKind(Enum):
    """What a target may be (rule 115.1): the noun phrase after the word "target"."""

    #: "any target": a creature, player, planeswalker or battle (rule 115.4).
    ANY = "any"
    PLAYER = "player"
    #: "target opponent" (rule 102.2).
    OPPONENT = "opponent"
    CREATURE = "creature"
    CREATURE_OR_PLANESWALKER = "creature_or_planeswalker"
    PLAYER_OR_PLANESWALKER = "player_or_planeswalker"
    ARTIFACT_OR_ENCHANTMENT = "artifact_or_enchantment"
    #: "target spell": an object on the stack that is a spell (rule 112.1).
    SPELL = "spell"


@dataclass(frozen=True, slots=True)
class TargetReq:
    """One instance of the word "target" (rule 115.1) with its number and restrictions."""

    kind: TargetKind
    #: How many targets this instance names ("two target creatures").
    count: int = 1
    #: "up to N": the player announces how many, 0 to N (rule 601.2c).
    up_to: bool = False
    #: "target tapped creature": only tapped permanents qualify.
    tapped: bool = False
    #: "with mana value 3 or less" (rule 202.3).
    max_mana_value: int | None = None
    #: "... an opponent controls" (rule 102.2).
    opponent_controls: bool = False


class Verb(Enum):
    """The closed effect vocabulary, named after the rules' own verbs."""

    DEAL_DAMAGE = "deal_damage"  # rule 120
    GAIN_LIFE = "gain_life"  # rule 119.3
    LOSE_LIFE = "lose_life"  # rule 119.3
    DRAW = "draw"  # rule 121
    DISCARD = "discard"  # rule 701.9 (2009: 701.7)
    DESTROY = "destroy"  # rule 701.8 (2009: 701.6)
    COUNTER = "counter"  # rule 701.6 (2009: 701.5)
    RETURN_TO_HAND = "return_to_hand"  # "return ... to its owner's hand" (rule 400.3)
    PUT_COUNTERS = "put_counters"  # rule 122
    MODIFY_PT = "modify_pt"  # "gets +N/+N until end of turn" (rules 611.2, 613.4c, 514.2)


class Who(Enum):
    """Who or what an effect affects when it names no target."""

    TARGET = "target"
    YOU = "you"
    EACH_OPPONENT = "each_opponent"
    EACH_PLAYER = "each_player"
    #: The source itself ("put a +1/+1 counter on [this]").
    SELF = "self"
    EACH_CREATURE_YOU_CONTROL = "each_creature_you_control"


@dataclass(frozen=True, slots=True)
class Effect:
    """One instruction of a spell or ability, performed in text order (rule 608.2c).

    ``amount`` None means X (rule 107.3). ``target`` is set exactly when ``who`` is TARGET.
    """

    verb: Verb
    who: Who = Who.YOU
    target: TargetReq | None = None
    amount: int | None = 1
    #: PUT_COUNTERS: the kind of counter, e.g. ``"+1/+1"`` (rule 122.1).
    counter: str = ""
    #: MODIFY_PT: the change to power and toughness until end of turn.
    power: int = 0
    toughness: int = 0


@dataclass(frozen=True, slots=True)
class ActivatedAbility:
    """``[Cost]: [Effect.]`` (rule 602). Costs: mana, {T}, sacrificing the source."""

    text: str
    cost: ManaCost
    tap: bool
    sacrifice_self: bool
    #: "Activate only as a sorcery" (rule 602.5d).
    sorcery_speed: bool
    effects: tuple[Effect, ...]

    @property
    def targets(self) -> tuple[TargetReq, ...]:
        """The target requirements of the ability, in text order."""
        return tuple(e.target for e in self.effects if e.target is not None)


class TriggerEvent(Enum):
    """Trigger conditions (rule 603.2) the vocabulary supports."""

    #: "When [this] enters" (rule 603.6a).
    ENTERS = "enters"
    #: "When [this] dies": put into a graveyard from the battlefield (rules 700.4, 603.10a).
    DIES = "dies"
    #: "At the beginning of your upkeep" (rule 503.1a).
    YOUR_UPKEEP = "your_upkeep"


@dataclass(frozen=True, slots=True)
class TriggeredAbility:
    """``When/Whenever/At [event], [effect]`` (rule 603.1)."""

    text: str
    event: TriggerEvent
    effects: tuple[Effect, ...]

    @property
    def targets(self) -> tuple[TargetReq, ...]:
        """The target requirements of the ability, in text order."""
        return tuple(e.target for e in self.effects if e.target is not None)


#: Keyword abilities the engine implements (rule 702).
SUPPORTED_KEYWORDS = ("Flash", "Deathtouch")


@dataclass(frozen=True, slots=True)
class CardDef:
    """One card's printed characteristics and its behaviour."""

    name: str
    mana_cost: ManaCost
    has_mana_cost: bool
    supertypes: tuple[str, ...]
    card_types: tuple[str, ...]
    subtypes: tuple[str, ...]
    colors: tuple[str, ...]
    rules_text: str
    power: int | None
    toughness: int | None
    #: Printed loyalty of a planeswalker (rule 306.5b).
    loyalty: int | None = None
    #: Effects performed, in order, when the spell resolves (rule 608.2c).
    effects: tuple[Effect, ...] = ()
    #: A modal spell's modes ("Choose one --", rule 700.2); empty if not modal.
    modes: tuple[tuple[Effect, ...], ...] = ()
    #: Mana abilities "{T}: Add ...", each as the mana it adds, e.g. ``"G"`` or ``"CC"``.
    #: Basic land types grant theirs intrinsically (rule 305.6).
    mana_abilities: tuple[str, ...] = ()
    abilities: tuple[ActivatedAbility, ...] = ()
    triggers: tuple[TriggeredAbility, ...] = ()
    keywords: tuple[str, ...] = ()
    #: "[This] enters tapped" (rule 614.1d).
    enters_tapped: bool = False
    #: "You may play N additional lands on each of your turns" (rule 305.2).
    extra_lands: int = 0
    #: An Aura's enchant ability (rule 303.4a, 702.5).
    enchant: TargetKind | None = None
    # Derived once from the type line (the engine asks these constantly).
    creature: bool = field(init=False, repr=False, compare=False)
    planeswalker: bool = field(init=False, repr=False, compare=False)
    legendary: bool = field(init=False, repr=False, compare=False)
    is_aura: bool = field(init=False, repr=False, compare=False)
    is_equipment: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        derived = {
            "creature": "Creature" in self.card_types,
            "planeswalker": "Planeswalker" in self.card_types,
            "legendary": "Legendary" in self.supertypes,
            "is_aura": "Aura" in self.subtypes,  # rule 303.4
            "is_equipment": "Equipment" in self.subtypes,  # rule 301.5
        }
        for name, value in derived.items():
            object.__setattr__(self, name, value)

    def is_type(self, card_type: str) -> bool:
        """Whether the card has the given card type (rule 205.2)."""
        return card_type in self.card_types

    def has_keyword(self, keyword: str) -> bool:
        """Whether the card has the keyword ability (rule 702)."""
        return keyword in self.keywords

    @property
    def is_land(self) -> bool:
        """Rule 305: lands are played, not cast."""
        return "Land" in self.card_types

    @property
    def is_permanent_card(self) -> bool:
        """Rule 110.4: artifact, battle, creature, enchantment, land and planeswalker cards."""
        return not ("Instant" in self.card_types or "Sorcery" in self.card_types)

    def spell_effects(self, mode: int | None) -> tuple[Effect, ...]:
        """The effects of the spell as cast: the chosen mode's, if modal (rule 700.2)."""
        if self.modes:
            return self.modes[mode or 0]
        return self.effects

    def spell_targets(self, mode: int | None) -> tuple[TargetReq, ...]:
        """Targets the spell requires, in text order (rules 601.2c, 303.4a for Auras)."""
        if self.enchant is not None:
            return (TargetReq(self.enchant),)
        return tuple(e.target for e in self.spell_effects(mode) if e.target is not None)

    @property
    def type_line(self) -> str:
        """The printed type line, e.g. ``Basic Land — Forest`` (rule 205.1)."""
        left = " ".join((*self.supertypes, *self.card_types))
        return f"{left} — {' '.join(self.subtypes)}" if self.subtypes else left
