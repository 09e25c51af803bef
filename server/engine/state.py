"""The game state: players, zones, objects, turn structure and the pending decision.

Mutable on purpose (the engine is the single writer of a game); everything that leaves the
engine goes through :mod:`server.view`. Iteration order is always list or insertion order, so
results never depend on ``PYTHONHASHSEED`` (architecture invariant 3).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum, IntEnum

from server.cards import CardDef
from server.engine.actions import Action
from server.engine.rng import GameRng


class Zone(IntEnum):
    """The zones of rule 400.1 (values match protocol ``ZoneKind``)."""

    LIBRARY = 1
    HAND = 2
    BATTLEFIELD = 3
    GRAVEYARD = 4
    STACK = 5
    EXILE = 6
    COMMAND = 7


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
        return self in (Step.PRECOMBAT_MAIN, Step.POSTCOMBAT_MAIN)


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


class CastStage(Enum):
    """Where a spell being cast is in rule 601.2."""

    CHOOSE_X = "x"            # 601.2b
    CHOOSE_TARGETS = "targets"  # 601.2c
    PAY = "pay"               # 601.2g-h


@dataclass(slots=True)
class GameObject:
    """A card or token in some zone. A new object (new id) after every zone change (400.7)."""

    id: str
    card: CardDef
    owner: int
    controller: int
    zone: Zone
    tapped: bool = False
    damage: int = 0
    #: Turn number when it last came under its controller's control (rule 302.6).
    controlled_since: int = 0
    #: Rule 107.3: the value of X chosen while casting (spells on the stack only).
    x_value: int | None = None
    #: Chosen targets: ("player", seat) or ("object", id) (rule 601.2c).
    targets: tuple[tuple[str, int | str], ...] = ()

    @property
    def is_creature(self) -> bool:
        """Rule 302: whether this object is a creature."""
        return self.card.is_type("Creature")

    @property
    def power(self) -> int:
        """Current power (printed power until continuous effects exist)."""
        return self.card.power or 0

    @property
    def toughness(self) -> int:
        """Current toughness (printed toughness until continuous effects exist)."""
        return self.card.toughness or 0

    @property
    def mana_value(self) -> int:
        """Rule 202.3, with X as chosen on the stack (202.3e)."""
        return self.card.mana_cost.mana_value + self.card.mana_cost.x_count * (self.x_value or 0)


@dataclass(slots=True)
class Player:
    """A player: life, their own zones (object ids, top of library last) and mana pool."""

    seat: int
    name: str
    life: int = 20
    library: list[str] = field(default_factory=list)
    hand: list[str] = field(default_factory=list)
    graveyard: list[str] = field(default_factory=list)
    #: Unspent mana by type, in MANA_TYPES order W U B R G C (rule 106.4).
    mana_pool: list[int] = field(default_factory=lambda: [0] * 6)
    lands_played: int = 0
    has_lost: bool = False
    #: Rule 704.5b: attempted to draw from an empty library since SBAs were last checked.
    drew_from_empty: bool = False


@dataclass(slots=True)
class Casting:
    """A spell in the middle of being cast (rule 601.2)."""

    object_id: str
    seat: int
    stage: CastStage


@dataclass(slots=True)
class Combat:
    """The combat phase's bookkeeping (rules 506-511)."""

    attackers_declared: bool = False
    #: Defending players who have finished declaring blockers (rule 509.1).
    blockers_done: list[int] = field(default_factory=list)
    damage_dealt: bool = False
    #: attacker id -> seat of the player it attacks
    attackers: dict[str, int] = field(default_factory=dict)
    #: attacker id -> blocker ids, in declaration order
    blocked_by: dict[str, list[str]] = field(default_factory=dict)
    #: blocker id -> attacker id
    blocking: dict[str, str] = field(default_factory=dict)
    #: attacker id -> chosen division of its damage (rule 510.1c)
    assignments: dict[str, tuple[tuple[str, int], ...]] = field(default_factory=dict)


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
    priority: int | None = None
    #: Number of consecutive passes (rule 117.4: all players pass in succession).
    passes: int = 0
    casting: Casting | None = None
    combat: Combat = field(default_factory=Combat)
    pending: Decision | None = None
    prompt_counter: int = 0
    result: GameResult | None = None
    #: Number of actions applied so far (the length of the action log).
    action_count: int = 0

    def player(self, seat: int) -> Player:
        """The player in ``seat``."""
        return self.players[seat]

    def zone_list(self, zone: Zone, owner: int) -> list[str]:
        """The ordered id list for a zone (``owner`` is ignored for shared zones)."""
        if zone is Zone.LIBRARY:
            return self.players[owner].library
        if zone is Zone.HAND:
            return self.players[owner].hand
        if zone is Zone.GRAVEYARD:
            return self.players[owner].graveyard
        if zone is Zone.BATTLEFIELD:
            return self.battlefield
        if zone is Zone.STACK:
            return self.stack
        if zone is Zone.EXILE:
            return self.exile
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
        """Seats of ``seat``'s opponents still in the game (rule 102.2)."""
        return [s for s in self.in_game() if s != seat]
