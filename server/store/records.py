"""What the store keeps, as plain records: the writes a room asks for (:data:`StoreOp`) and
the games and sessions read back. No database here, so a room (sans-I/O) can build them."""

from __future__ import annotations

from dataclasses import dataclass

from server.engine.actions import Action


@dataclass(frozen=True, slots=True)
class CreateGame:
    """A game has started: its secret seed and its players (name, deck, session id)."""

    room_id: str
    name: str
    seed: bytes
    players: tuple[tuple[str, str, str], ...]
    clock_seconds: float


@dataclass(frozen=True, slots=True)
class AppendAction:
    """Action number ``seq`` (1-based) of a game, and every seat's time bank after it."""

    room_id: str
    seq: int
    seat: int
    action: Action
    clocks: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class FinishGame:
    """A game's result (rule 104)."""

    room_id: str
    winners: tuple[int, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class AbortGame:
    """A room failed: its game is never reloaded; the traceback is kept for the operator."""

    room_id: str
    traceback: str


@dataclass(frozen=True, slots=True)
class PutSession:
    """A session's current resume-token hash and the room it belongs to (None: none)."""

    session_id: str
    token_hash: bytes
    name: str
    room_id: str | None
    #: The token the client last presented: valid until the newer one is used once.
    prev_hash: bytes = b""


@dataclass(frozen=True, slots=True)
class DropSession:
    """Forget a session (it holds no place any more)."""

    session_id: str


StoreOp = CreateGame | AppendAction | FinishGame | AbortGame | PutSession | DropSession


@dataclass(frozen=True, slots=True)
class GameRecord:
    """Everything needed to replay a stored game."""

    room_id: str
    name: str
    seed: bytes
    #: (display name, deck, session id) per seat.
    players: list[tuple[str, str, str]]
    #: (seat, action) in order.
    actions: list[tuple[int, Action]]
    result: dict[str, object] | None
    clock_seconds: float = 1800.0
    #: Each seat's time bank after the last action (None: no action yet).
    clocks: tuple[float, ...] | None = None
    aborted: str | None = None


@dataclass(frozen=True, slots=True)
class SessionRow:
    """A stored session: whose token hashes to ``token_hash``, and where it is."""

    session_id: str
    token_hash: bytes
    name: str
    room_id: str | None
    prev_hash: bytes = b""
