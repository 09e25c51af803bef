"""Watchers: the turn facts, kept in one place from the engine's event stream.

Like XMage's watchers: each watcher is a small typed record that observes the events the
engine emits (:mod:`server.engine.events`) and keeps one fact about the current turn --
"creatures that died this turn", "cards drawn this turn", "spells cast this turn", ... --
for the conditions, counts and triggers that ask about it. The engine doesn't count these
by hand where the events happen: it emits the event with :func:`emit`, which appends it to
the event list and shows it to every watcher at once, so a fact is current the moment its
event happened (a resolving spell's later "if you've drawn two or more cards this turn"
sees the draws of its earlier effects, rule 608.2c).

All of them start afresh at the beginning of each turn, in one place
(:func:`new_turn`, called as a turn begins: rule 500.1 -- "this turn" is the current turn,
and nothing of a turn carries over to the next one). A few facts aren't events of their own
-- mana spent on spells (700.14), "triggers only once each turn" uses (603.2h), the draws
of the current draw step (504.1) -- and are told to their watcher directly by the one
engine function where they happen.

Watchers hold only ints, strings and card definitions in insertion-ordered containers, so
they are deterministic (architecture invariant 3); a game is persisted as its action log
and rebuilt by replaying it, which rebuilds its watchers too.

Adding a turn fact: write a watcher class here (``observe`` for the events it counts,
documented with its rule), add it to :class:`Watchers` and to the branch of
:meth:`Watchers.observe` for its event type, and read it where the condition, count or
trigger needs it (``game.watchers.<name>``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from server.cards import CardDef
from server.engine.events import (
    CardDrawn,
    DamageDealt,
    Event,
    LifeGained,
    SpellCast,
    ZoneChanged,
)
from server.engine.state import Zone

# Enum members read in this module's functions, bound to module names once: in Python
# 3.11 reading a member as a class attribute (``Zone.BATTLEFIELD``) goes through the slow
# attribute hook of ``EnumType.__getattr__``, several times the cost of reading a global.
# They are the same objects (``is`` holds).
_ZONE_BATTLEFIELD: Final = Zone.BATTLEFIELD
_ZONE_GRAVEYARD: Final = Zone.GRAVEYARD
_ZONE_HAND: Final = Zone.HAND

if TYPE_CHECKING:
    from server.engine.state import Game


def _bump(counts: dict[int, int], seat: int, amount: int) -> None:
    counts[seat] = counts.get(seat, 0) + amount


@dataclass(slots=True)
class CreaturesDied:
    """Rule 700.4: creatures that died (went from the battlefield to a graveyard) this turn
    -- in all, the nontoken ones (111.1), and by the player who controlled each as it died
    (603.10a: as it last existed)."""

    total: int = 0
    nontoken: int = 0
    by_controller: dict[int, int] = field(default_factory=dict)

    def observe(self, event: ZoneChanged) -> None:
        if event.creature and event.from_zone is _ZONE_BATTLEFIELD \
                and event.to_zone is _ZONE_GRAVEYARD:
            self.total += 1
            if not event.token:
                self.nontoken += 1
            _bump(self.by_controller, event.controller, 1)

    def of(self, seat: int) -> int:
        """The creatures ``seat`` controlled that died this turn."""
        return self.by_controller.get(seat, 0)


@dataclass(slots=True)
class PermanentsToHand:
    """Rule 400.3: permanents put into their owner's hand from the battlefield this turn,
    by owner."""

    by_owner: dict[int, int] = field(default_factory=dict)

    def observe(self, event: ZoneChanged) -> None:
        if event.from_zone is _ZONE_BATTLEFIELD and event.to_zone is _ZONE_HAND:
            _bump(self.by_owner, event.owner, 1)

    def of(self, seat: int) -> int:
        return self.by_owner.get(seat, 0)


@dataclass(slots=True)
class Descended:
    """Rule 700.11: permanent cards (not tokens) put into a player's graveyard from
    anywhere this turn, by the graveyard's owner."""

    by_owner: dict[int, int] = field(default_factory=dict)

    def observe(self, event: ZoneChanged) -> None:
        if event.to_zone is _ZONE_GRAVEYARD and event.card.is_permanent_card \
                and not event.token:
            _bump(self.by_owner, event.owner, 1)

    def of(self, seat: int) -> int:
        return self.by_owner.get(seat, 0)


@dataclass(slots=True)
class CardsDrawn:
    """Rule 121.1: cards each player drew this turn ("if you've drawn two or more cards
    this turn", "whenever you draw your second card each turn")."""

    by_seat: dict[int, int] = field(default_factory=dict)

    def observe(self, event: CardDrawn) -> None:
        _bump(self.by_seat, event.seat, 1)

    def of(self, seat: int) -> int:
        return self.by_seat.get(seat, 0)


@dataclass(slots=True)
class DrawStepDraws:
    """Rule 504.1: the draws the active player made (or tried to make, from an empty
    library) in the current draw step -- "except the first one you draw in each of your
    draw steps". Not an event of its own: :func:`server.engine.zones.draw` tells it; it
    starts afresh with each draw step as well as each turn."""

    count: int = 0

    def attempt(self) -> int:
        """A draw in the draw step: how many came before it."""
        self.count += 1
        return self.count - 1


@dataclass(slots=True)
class LifeGainedThisTurn:
    """Rule 119.3: life each player gained this turn ("if you gained 3 or more life this
    turn")."""

    by_seat: dict[int, int] = field(default_factory=dict)

    def observe(self, event: LifeGained) -> None:
        _bump(self.by_seat, event.seat, event.amount)

    def of(self, seat: int) -> int:
        return self.by_seat.get(seat, 0)


@dataclass(slots=True)
class NoncombatDamage:
    """Rules 120.3a, 510.2: noncombat damage dealt to each player this turn ("noncombat
    damage dealt to your opponents this turn")."""

    by_seat: dict[int, int] = field(default_factory=dict)

    def observe(self, event: DamageDealt) -> None:
        if event.player is not None and not event.combat:
            _bump(self.by_seat, event.player, event.amount)


@dataclass(slots=True)
class SpellsCast:
    """Rule 601.2i: the cards of the spells each player cast this turn, in order, countered
    or not (a copy isn't cast, 707.10)."""

    by_seat: dict[int, list[CardDef]] = field(default_factory=dict)

    def observe(self, event: SpellCast) -> None:
        self.by_seat.setdefault(event.controller, []).append(event.card)

    def of(self, seat: int) -> list[CardDef]:
        return self.by_seat.get(seat, [])


@dataclass(slots=True)
class ManaSpentOnSpells:
    """Rule 700.14: mana each player spent to cast spells this turn (what "expend N" counts).
    Paying isn't an event of its own: :func:`server.engine.casting` tells it as a spell's
    cost is paid (601.2h)."""

    by_seat: dict[int, int] = field(default_factory=dict)

    def spend(self, seat: int, amount: int) -> tuple[int, int]:
        """``seat`` spent ``amount`` more mana on a spell: (before, after)."""
        before = self.by_seat.get(seat, 0)
        self.by_seat[seat] = before + amount
        return before, before + amount


@dataclass(slots=True)
class OnceEachTurn:
    """"This ability triggers only once each turn" (rule 603.2h): the abilities (``"source
    id:ability index"``) that triggered this turn."""

    used: list[str] = field(default_factory=list)

    def use(self, key: str) -> bool:
        """Whether the ability ``key`` may trigger now (and note that it did)."""
        if key in self.used:
            return False
        self.used.append(key)
        return True


@dataclass(slots=True)
class Watchers:
    """The watchers of one game: one turn fact each (see the module docstring)."""

    creatures_died: CreaturesDied = field(default_factory=CreaturesDied)
    permanents_to_hand: PermanentsToHand = field(default_factory=PermanentsToHand)
    descended: Descended = field(default_factory=Descended)
    cards_drawn: CardsDrawn = field(default_factory=CardsDrawn)
    draw_step_draws: DrawStepDraws = field(default_factory=DrawStepDraws)
    life_gained: LifeGainedThisTurn = field(default_factory=LifeGainedThisTurn)
    noncombat_damage: NoncombatDamage = field(default_factory=NoncombatDamage)
    spells_cast: SpellsCast = field(default_factory=SpellsCast)
    mana_spent: ManaSpentOnSpells = field(default_factory=ManaSpentOnSpells)
    once_each_turn: OnceEachTurn = field(default_factory=OnceEachTurn)

    def observe(self, event: Event) -> None:
        """Show one event to the watchers that count its kind (called for every event the
        engine emits, so only those; the watchers told directly see none)."""
        if isinstance(event, ZoneChanged):
            self.creatures_died.observe(event)
            self.permanents_to_hand.observe(event)
            self.descended.observe(event)
        elif isinstance(event, CardDrawn):
            self.cards_drawn.observe(event)
        elif isinstance(event, LifeGained):
            self.life_gained.observe(event)
        elif isinstance(event, DamageDealt):
            self.noncombat_damage.observe(event)
        elif isinstance(event, SpellCast):
            self.spells_cast.observe(event)


def emit(game: Game, events: list[Event], event: Event) -> None:
    """An event happened: add it to this action's events (for triggers, 603.2, and the
    views) and show it to the watchers."""
    events.append(event)
    game.watchers.observe(event)


def new_turn(game: Game) -> None:
    """Rule 500.1: a new turn begins -- every turn fact starts afresh."""
    game.watchers = Watchers()


def new_draw_step(game: Game) -> None:
    """Rule 504.1: a draw step begins -- its draws start afresh."""
    game.watchers.draw_step_draws = DrawStepDraws()
