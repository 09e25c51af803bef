"""Amounts (rules 107.1, 107.3) and conditions as comparisons of amounts.

An :data:`Amount` is one of a few small frozen records, each a *concept* of the rules rather
than a phrase of a card: a fixed number, X, how many permanents a filter describes, how many
cards of a player set's zone, a characteristic of an object, the event's amount, devotion,
party size, a life total, a turn fact, a fact of the resolution -- with a multiplier / half
(107.1a) and a difference as modifiers. :class:`Compare` makes a condition of one ("if you
control a Basri planeswalker" is ``Compare(Permanents(...), at_least=1)``); the named
:class:`~server.cards.model.Condition` members are the conditions that are no amounts.

One evaluator reads them all: :func:`server.engine.counting.evaluate`. The loader derives the
fields each kind takes from these dataclasses (``{"kind": KIND, field: value, ...}``, an
integer for :class:`Fixed`, ``"X"`` for :class:`X`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import ClassVar, assert_never

from server.cards.model import Condition, ObjectFilter, Rounding


class Whose(Enum):
    """The player(s) whose cards, life or turn facts an amount counts (rules 102.2, 102.3)."""

    #: The controller of the spell or ability (its point of view, 109.5).
    YOU = "you"
    #: The player the effect affects ("their library"), counted for each one (608.2c).
    THEIR = "their"
    #: The most of any one opponent ("if an opponent has eight or more cards in their
    #: graveyard", 102.2): at least N for one of them.
    AN_OPPONENT = "an_opponent"
    #: All opponents together ("dealt to your opponents this turn", 102.2).
    OPPONENTS = "opponents"
    #: Every player together, including those who have left ("creatures that died this
    #: turn", 700.4).
    ALL_PLAYERS = "all_players"


class CardZone(Enum):
    """The zones whose cards an amount may count (rules 401.1, 402.1, 404.1)."""

    LIBRARY = "library"
    HAND = "hand"
    GRAVEYARD = "graveyard"


class Measure(Enum):
    """What is measured of the objects counted."""

    #: How many there are.
    NUMBER = "number"
    #: The sum of their powers (after the layers on the battlefield, 613.4; a negative power
    #: subtracts).
    TOTAL_POWER = "total_power"
    #: The greatest power among them (0 if there are none; in a graveyard the printed power or
    #: what a characteristic-defining ability says, 604.3).
    GREATEST_POWER = "greatest_power"
    #: The colors among them (rule 105.1): "for each color among permanents you control".
    COLORS = "colors"
    #: The most of them that share one name (rule 201.2): "N ... with the same name".
    MOST_SHARING_A_NAME = "most_sharing_a_name"


class Of(Enum):
    """Which object a characteristic is read from."""

    #: The source itself, "this object" -- as it last existed once it has left (608.2h).
    SOURCE = "source"
    #: The object the triggered ability's event is about ("that creature's power"), as it last
    #: existed once it has left (603.10a, 608.2h).
    EVENT_OBJECT = "event_object"
    #: This resolution's object target as resolution began (608.2h; X is 0 off the stack,
    #: 202.3e).
    TARGET = "target"


class Trait(Enum):
    """A characteristic or status of an object that is a number."""

    POWER = "power"  # rule 208.1
    TOUGHNESS = "toughness"  # rule 208.1
    MANA_VALUE = "mana_value"  # rule 202.3
    #: The counters of a kind on it (rule 122.1).
    COUNTERS = "counters"


class TurnFactKind(Enum):
    """Facts of the current turn, derived from its events (each resets as a turn begins)."""

    #: Creatures put into a graveyard from the battlefield (rule 700.4), counted by their
    #: controller as they died.
    CREATURES_DIED = "creatures_died"
    #: Cards drawn (rule 121.1).
    CARDS_DRAWN = "cards_drawn"
    #: Spells cast (rule 601.2i), countered or not; a ``filter`` describes the spell.
    SPELLS_CAST = "spells_cast"
    #: Permanents put into the player's hand from the battlefield (rules 400.3, 400.7): a token
    #: counts, as it is put there before it ceases to exist (704.5d).
    PERMANENTS_TO_HAND = "permanents_to_hand"
    #: Life gained (rule 119.3).
    LIFE_GAINED = "life_gained"
    #: Noncombat damage dealt to the player (rules 120.3a, 510.2).
    NONCOMBAT_DAMAGE_TAKEN = "noncombat_damage_taken"
    #: Permanent cards put into the player's graveyard -- "you descended" (rule 700.11).
    PERMANENT_CARDS_TO_GRAVEYARD = "permanent_cards_to_graveyard"


class ResolutionFact(Enum):
    """What the previous effects of this resolution did ("this way", rule 608.2c)."""

    #: The life lost ("you gain life equal to the life lost this way").
    LIFE_LOST = "life_lost"
    #: The objects the previous effect chose and acted on ("that many", "for each creature
    #: tapped this way").
    CHOSEN = "chosen"
    #: The cards the previous search took from a hand ("for each card exiled from their hand
    #: this way").
    FOUND_FROM_HAND = "found_from_hand"


@dataclass(frozen=True, slots=True)
class Fixed:
    """A number printed on the card ("3 damage")."""

    KIND: ClassVar[str] = "fixed"
    n: int


@dataclass(frozen=True, slots=True)
class X:
    """X (rule 107.3): the value chosen for X as the spell was cast or the ability activated
    (107.3a, 601.2b), 0 anywhere else (107.3b)."""

    KIND: ClassVar[str] = "x"


@dataclass(frozen=True, slots=True)
class Permanents:
    """The permanents a ``filter`` describes, from ``whose`` point of view (its "you"):
    ``measure`` of them ("the number of Shrines you control", "the total power of creatures you
    control"). ``whose`` AN_OPPONENT: the most any one opponent has (102.2)."""

    KIND: ClassVar[str] = "permanents"
    filter: ObjectFilter
    measure: Measure = Measure.NUMBER
    whose: Whose = Whose.YOU


@dataclass(frozen=True, slots=True)
class Cards:
    """The cards in ``zone`` of ``whose`` that the ``filter`` describes (all of them without
    one; their characteristics there, 109.3): ``measure`` of them -- "the number of cards in
    your hand", "creature cards in their graveyard", "the greatest power among creature cards
    in your graveyard"."""

    KIND: ClassVar[str] = "cards"
    zone: CardZone
    whose: Whose = Whose.YOU
    filter: ObjectFilter | None = None
    measure: Measure = Measure.NUMBER


@dataclass(frozen=True, slots=True)
class ObjectValue:
    """A characteristic of one object (``of``): its power, toughness, mana value or the
    ``counter`` counters on it (rules 208.1, 202.3, 122.1) -- "damage equal to its power",
    "that creature's mana value", "for each soul counter on [this]"."""

    KIND: ClassVar[str] = "object"
    of: Of
    trait: Trait
    #: COUNTERS: the kind counted.
    counter: str = ""


@dataclass(frozen=True, slots=True)
class EventAmount:
    """"That much", "that many": the number the triggered ability's event carried -- life
    gained, damage dealt, creatures that attacked (rule 603.2)."""

    KIND: ClassVar[str] = "event"


@dataclass(frozen=True, slots=True)
class Devotion:
    """Devotion to ``colors`` (rules 700.5, 700.5a)."""

    KIND: ClassVar[str] = "devotion"
    colors: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PartySize:
    """The number of creatures in your party (rule 700.8), 0 to 4."""

    KIND: ClassVar[str] = "party"


@dataclass(frozen=True, slots=True)
class Life:
    """The life total of ``whose`` (rule 119.1); ``above_starting``: minus the starting life
    total (103.4) -- "at least 7 life more than your starting life total"."""

    KIND: ClassVar[str] = "life"
    whose: Whose = Whose.YOU
    above_starting: bool = False


@dataclass(frozen=True, slots=True)
class TurnFact:
    """A fact of this turn (:class:`TurnFactKind`) for ``whose`` -- "creatures that died this
    turn", "cards you've drawn this turn", "instant and sorcery spells you've cast this turn"
    (``filter``: the spells; for CREATURES_DIED only ``nontoken``, counted for all players)."""

    KIND: ClassVar[str] = "turn"
    fact: TurnFactKind
    whose: Whose = Whose.YOU
    filter: ObjectFilter | None = None


@dataclass(frozen=True, slots=True)
class ThisWay:
    """What the previous effects of this resolution did (:class:`ResolutionFact`, 608.2c)."""

    KIND: ClassVar[str] = "this_way"
    fact: ResolutionFact


@dataclass(frozen=True, slots=True)
class Attackers:
    """The creatures attacking ``whose`` or planeswalkers they control (rules 506.3, 508.1);
    one that has left the battlefield counts as it last existed (608.2h)."""

    KIND: ClassVar[str] = "attackers"
    whose: Whose = Whose.YOU


@dataclass(frozen=True, slots=True)
class Scaled:
    """``factor`` times an amount ("twice X", "2 life for each"), then ``half`` of it rounded
    up or down if given (rule 107.1a: the effect says which way)."""

    KIND: ClassVar[str] = "scaled"
    amount: Amount
    factor: int = 1
    half: Rounding | None = None


@dataclass(frozen=True, slots=True)
class Difference:
    """One amount minus another: "if an opponent controls more creatures than you" is
    ``Difference(Permanents(creatures, whose=AN_OPPONENT), Permanents(creatures))`` at
    least 1."""

    KIND: ClassVar[str] = "difference"
    amount: Amount
    minus: Amount


#: One amount (rule 107.1): every quantity a card's text refers to.
Amount = (Fixed | X | Permanents | Cards | ObjectValue | EventAmount | Devotion | PartySize
          | Life | TurnFact | ThisWay | Attackers | Scaled | Difference)

#: Every kind of amount, by its data name (``{"kind": ...}``).
AMOUNT_KINDS: dict[str, type[Amount]] = {
    cls.KIND: cls for cls in (Fixed, X, Permanents, Cards, ObjectValue, EventAmount,
                              Devotion, PartySize, Life, TurnFact, ThisWay, Attackers,
                              Scaled, Difference)}


@dataclass(frozen=True, slots=True)
class Compare:
    """A condition as a comparison of an amount (rules 603.4, 602.5b, 611.3b, 608.2c): it
    holds when ``amount`` is at least ``at_least`` and at most ``at_most`` (either may be
    absent, not both) -- "if you control three or more artifacts", "if no creatures died this
    turn" (at most 0)."""

    amount: Amount
    at_least: int | None = None
    at_most: int | None = None

    def holds(self, n: int) -> bool:
        """Whether ``n`` lies within the bounds."""
        return (self.at_least is None or n >= self.at_least) and \
            (self.at_most is None or n <= self.at_most)


#: An "if" clause: a named condition that is no amount, or a comparison of an amount.
AnyCondition = Condition | Compare


def resolution_only(amount: Amount) -> bool:
    """Whether the amount can be known only while a spell or ability resolves (or is on the
    stack): X, the event's amount, a resolution's facts, its target, "their" (608.2c)."""
    match amount:
        case X() | EventAmount() | ThisWay():
            return True
        case ObjectValue(of=of):
            return of is not Of.SOURCE
        case Cards(whose=whose) | Life(whose=whose) | TurnFact(whose=whose) | \
                Attackers(whose=whose) | Permanents(whose=whose):
            return whose is Whose.THEIR
        case Scaled(amount=inner):
            return resolution_only(inner)
        case Difference(amount=left, minus=right):
            return resolution_only(left) or resolution_only(right)
        case Fixed() | Devotion() | PartySize():
            return False
        case _:
            assert_never(amount)


def condition_resolution_only(condition: AnyCondition) -> bool:
    """Whether only a resolving spell or ability can ask the condition (608.2c-d) -- never an
    "as long as" (611.3b), an "activate only if" (602.5b) or a cost reduction (601.2f)."""
    if isinstance(condition, Compare):
        return resolution_only(condition.amount)
    match condition:
        case Condition.WON_CLASH | Condition.YOU_DID | Condition.NOT_CAST_FROM_HAND | \
                Condition.REVEALED_CREATURE_OR_LAND | Condition.TARGET_WAS_CREATURE_CARD | \
                Condition.WON_FLIP:
            return True
        case Condition.SOURCE_UNTAPPED | Condition.YOUR_TURN | Condition.CAME_FROM_GRAVEYARD:
            return False
        case _:
            assert_never(condition)


def parts(amount: Amount) -> Iterator[Amount]:
    """The amount and every amount it is made of (a scaled or a difference's operands)."""
    yield amount
    match amount:
        case Scaled(amount=inner):
            yield from parts(inner)
        case Difference(amount=left, minus=right):
            yield from parts(left)
            yield from parts(right)
        case Fixed() | X() | Permanents() | Cards() | ObjectValue() | EventAmount() | \
                Devotion() | PartySize() | Life() | TurnFact() | ThisWay() | Attackers():
            return
        case _:
            assert_never(amount)


def names_their(amount: Amount) -> bool:
    """Whether the amount counts "their" cards, life, ... -- of each player the effect
    affects, counted for each one as it is performed (608.2c)."""
    return any(isinstance(p, (Permanents, Cards, Life, TurnFact, Attackers))
               and p.whose is Whose.THEIR for p in parts(amount))


def names_fact(amount: Amount, fact: ResolutionFact) -> bool:
    """Whether the amount counts what a previous effect of the resolution did ("this way")."""
    return any(isinstance(p, ThisWay) and p.fact is fact for p in parts(amount))


def names_event(amount: Amount) -> bool:
    """Whether the amount reads the triggered ability's event: "that much", "that creature's
    power" (603.2)."""
    return any(isinstance(p, EventAmount) or (isinstance(p, ObjectValue)
                                              and p.of is Of.EVENT_OBJECT)
               for p in parts(amount))
