"""What the store keeps, as plain records: the writes a room asks for (:data:`StoreOp`) and
the games and sessions read back. No database here, so a room (sans-I/O) can build them."""

from __future__ import annotations

import enum
import hashlib
import json
from dataclasses import dataclass, field

from server.engine.actions import Action


def secret_hash(secret: str) -> bytes:
    """The stored form of a secret the server hands out (account token, resume token,
    invite code, audience code): its SHA-256. Each has 96 or more random bits, so a fast
    hash suffices."""
    return hashlib.sha256(secret.encode()).digest()


class Spectate(enum.StrEnum):
    """Who may watch a room."""

    ALLOWED = "allowed"  # anyone who knows the room id
    NONE = "none"  # nobody
    INVITE = "invite"  # only with the room's invite code (or its audience code)


class TierKind(enum.StrEnum):
    """What a spectator tier shows (protocol/README.md, "Spectator tiers")."""

    PUBLIC = "public"  # the spectators' view
    OMNISCIENT = "omniscient"  # every hand and every look
    PLAYER = "player"  # one seat's view


@dataclass(frozen=True, slots=True)
class SpectatorTier:
    """A delayed spectator tier a room offers (tier numbers 1, 2, ... in order): what it
    shows, how far behind the game, and who may watch it."""

    kind: TierKind
    #: TierKind.PLAYER: whose view.
    seat: int = -1
    #: Each action is shown this many seconds after it was played ...
    delay_seconds: float = 0.0
    #: ... and once the game's turn is this many turns past the turn it ended in.
    delay_turns: int = 0
    #: (account id, account name) that may watch it.
    accounts: tuple[tuple[str, str], ...] = ()
    #: Anyone with the room's invite code -- or its audience code -- may watch it too.
    invite: bool = False

    def to_raw(self) -> dict[str, object]:
        return {"kind": self.kind.value, "seat": self.seat, "delay_seconds": self.delay_seconds,
                "delay_turns": self.delay_turns, "accounts": [list(a) for a in self.accounts],
                "invite": self.invite}

    @classmethod
    def from_raw(cls, raw: dict[str, object]) -> SpectatorTier:
        accounts = raw["accounts"]
        assert isinstance(accounts, list)
        return cls(TierKind(str(raw["kind"])), int(str(raw["seat"])),
                   float(str(raw["delay_seconds"])), int(str(raw["delay_turns"])),
                   tuple((str(a), str(n)) for a, n in accounts), bool(raw["invite"]))


@dataclass(frozen=True, slots=True)
class RoomSettings:
    """What the creator chose for a room: who may join and watch, and its deck format."""

    #: Absent from the room list; players join with the invite code (or a reserved seat).
    private: bool = False
    #: SHA-256 of the room's invite code (the code itself is given only to the creator).
    invite_hash: bytes = field(default=b"", repr=False)
    spectate: Spectate = Spectate.ALLOWED
    #: The deck format (a :class:`server.decks.DeckFormat` value).
    format: str = "constructed"
    #: (account id, account name) the first seats are held for, in seat order.
    reserved: tuple[tuple[str, str], ...] = ()
    #: The account that created the room.
    creator: str = ""
    #: The delayed spectator tiers offered (tier 1, 2, ...; tier 0 is the live public view).
    tiers: tuple[SpectatorTier, ...] = ()
    #: The match: 1 a single game, 3 or 5 games at most (rule 100.6a).
    best_of: int = 1
    #: A rematch's room: the room whose players started it ("": none). After a restart the
    #: old room tells its spectators where the rematch is again (RematchStarted).
    rematch_of: str = ""
    #: The seats computer players the server runs hold (CreateRoom.computers): the last
    #: ones, ascending (empty: none; settings stored before computers load so).
    computers: tuple[int, ...] = ()
    #: The accounts of the players who knew the room's invite code as its game started (its
    #: creator, those who joined with the code): after a restart they alone are told a
    #: rematch's new code, as before it (``Member.knows_code``; stored with each game).
    code_holders: tuple[str, ...] = ()
    #: SHA-256 of the room's audience code: it opens what the invite code opens to
    #: spectators (live in a SPECTATE_INVITE room, the tiers open to the invite code, the
    #: replays those could watch) but never a seat. Empty for a room stored before rooms had
    #: one: its watchers keep using the invite code.
    audience_hash: bytes = field(default=b"", repr=False)

    def to_json(self) -> str:
        return json.dumps({"private": self.private, "invite_hash": self.invite_hash.hex(),
                           "spectate": self.spectate.value, "format": self.format,
                           "reserved": [list(r) for r in self.reserved],
                           "creator": self.creator,
                           "tiers": [t.to_raw() for t in self.tiers],
                           "best_of": self.best_of, "rematch_of": self.rematch_of,
                           "computers": list(self.computers),
                           "code_holders": list(self.code_holders),
                           "audience_hash": self.audience_hash.hex()},
                          sort_keys=True)

    @classmethod
    def from_json(cls, text: str | None) -> RoomSettings:
        """Settings stored by :meth:`to_json` (None: a game stored before rooms had them)."""
        if not text:
            return cls()
        raw = json.loads(text)
        return cls(bool(raw["private"]), bytes.fromhex(raw["invite_hash"]),
                   Spectate(raw["spectate"]), str(raw["format"]),
                   tuple((str(a), str(n)) for a, n in raw["reserved"]), str(raw["creator"]),
                   tuple(SpectatorTier.from_raw(t) for t in raw.get("tiers", ())),
                   int(raw.get("best_of", 1)), str(raw.get("rematch_of", "")),
                   tuple(int(seat) for seat in raw.get("computers", ())),
                   tuple(str(a) for a in raw.get("code_holders", ())),
                   bytes.fromhex(str(raw.get("audience_hash", ""))))


def game_id(room_id: str, game_number: int) -> str:
    """The stored id of game ``game_number`` (1-based) of a room's match: the room id for
    the first game (so a single game's id is its room's), ``<room id>.<n>`` for the others."""
    return room_id if game_number <= 1 else f"{room_id}.{game_number}"


@dataclass(frozen=True, slots=True)
class CreateGame:
    """A game has started: its secret seed and its players (name, deck list, session id),
    their accounts and the room's settings. ``room_id`` is the game's id (:func:`game_id`);
    a game of a match of several games names its room in ``match_id``."""

    room_id: str
    name: str
    seed: bytes
    players: tuple[tuple[str, str, str], ...]
    clock_seconds: float
    accounts: tuple[str, ...] = ()
    settings: RoomSettings = field(default_factory=RoomSettings)
    #: The room whose match this game belongs to ("": a single game, its id the room's).
    match_id: str = ""
    game_number: int = 1
    #: The seat that chooses who takes the first turn (rule 103.1; None: a random one).
    chooser: int | None = None
    #: The state id every view class's first snapshot of the game has (state ids keep
    #: increasing across the games of a match: see :func:`next_state_base`).
    state_base: int = 1


def next_state_base(state_base: int, actions: int) -> int:
    """The first state id of the game after one that started at ``state_base`` and took
    ``actions`` actions: past every state id any view class had in it (each class's id
    grows by at most one per action), so ids are never reused within a room."""
    return state_base + actions + 1


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A match of several games in one room (rule 100.6a), as stored and recovered."""

    room_id: str
    best_of: int
    #: Each seat's deck as registered when it joined (main deck and sideboard: what
    #: sideboarding may rearrange, rule 100.4), canonical text.
    registered: tuple[str, ...]
    #: Each seat's current deck (after sideboarding), canonical text.
    decks: tuple[str, ...]
    #: The game ids, in order (the last one is being played, or was just played).
    games: tuple[str, ...] = ()
    wins: tuple[int, ...] = ()
    draws: int = 0
    #: The seat that chose who took the first turn in each game (rule 103.1).
    choosers: tuple[int, ...] = ()
    #: (winner seat or -1 for a draw, reason) of each finished game.
    results: tuple[tuple[int, str], ...] = ()
    #: Between games: whether each seat has answered the sideboarding.
    ready: tuple[bool, ...] = ()
    #: Once over: the seat that won the match, -1 a drawn match (None: not over).
    winner: int | None = None
    reason: str = ""
    aborted: str | None = None

    def state_json(self) -> str:
        return json.dumps({"registered": list(self.registered), "decks": list(self.decks),
                           "choosers": list(self.choosers),
                           "results": [list(r) for r in self.results],
                           "ready": list(self.ready)}, sort_keys=True)


@dataclass(frozen=True, slots=True)
class PutMatch:
    """Create or update a match record."""

    match: MatchRecord


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
    account_id: str = ""


@dataclass(frozen=True, slots=True)
class DropSession:
    """Forget a session (it holds no place any more)."""

    session_id: str


@dataclass(frozen=True, slots=True)
class PutAccount:
    """Create or update an account (``name_key``: the unique form of its name)."""

    account_id: str
    name: str
    name_key: str
    registered: bool
    password_hash: str = field(default="", repr=False)


@dataclass(frozen=True, slots=True)
class PutToken:
    """A new token of an account (only its SHA-256 is stored)."""

    token_hash: bytes = field(repr=False)
    account_id: str = ""


@dataclass(frozen=True, slots=True)
class DropTokens:
    """Void every token of an account (revocation)."""

    account_id: str


@dataclass(frozen=True, slots=True)
class SeatLeft:
    """The player of ``seat`` left game ``room_id`` (a game's id) -- the running game, or
    (``after_end``) the room after its game (of a match, the match) ended: it may neither
    come back nor watch it, and no rematch can be had, after a restart too. (Leaving
    concedes, but a player who has lost already leaves no Concede in the log.)"""

    room_id: str
    seat: int
    #: It left the room once its game (match) was over ("left the room", not "the game").
    after_end: bool = False


@dataclass(frozen=True, slots=True)
class RoomAddresses:
    """The client addresses a room counts against (``--max-rooms-per-address``: its
    creator's, or a quick match's or a rematch's players'), kept while its game is in play
    so that it counts against them after a restart too. ``room_id``: the room's id."""

    room_id: str
    addresses: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SeenAccount:
    """An account was used (a Hello or Resume with it) at ``when`` (``time.time()``):
    guest accounts unused for ``--guest-days`` are forgotten."""

    account_id: str
    when: float


@dataclass(frozen=True, slots=True)
class DropAccount:
    """Forget a guest account: its row, its tokens and its sessions (its games keep the
    name it played under)."""

    account_id: str


StoreOp = (CreateGame | AppendAction | FinishGame | AbortGame | PutSession | DropSession
           | PutAccount | PutToken | DropTokens | PutMatch | SeenAccount | DropAccount
           | SeatLeft | RoomAddresses)


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
    #: Each seat's account id ("" for games stored before accounts).
    accounts: tuple[str, ...] = ()
    settings: RoomSettings = field(default_factory=RoomSettings)
    #: As in :class:`CreateGame`.
    match_id: str = ""
    game_number: int = 1
    chooser: int | None = None
    state_base: int = 1
    #: The game's match, when it is the latest game of an unfinished match (recovery).
    match: MatchRecord | None = None
    #: When it was created (``time.time()``; None: not known).
    created: float | None = None
    #: With :attr:`match`, in a room with a tier delayed by seconds: the match's earlier
    #: games, in order (a delayed tier may not have shown their ends yet).
    earlier: tuple[GameRecord, ...] = ()
    #: When each action was stored (``time.time()``; 0: not known -- stored before this
    #: was), in the order of :attr:`actions` (empty: none known).
    action_times: tuple[float, ...] = ()
    #: The seats whose players left the running game (:class:`SeatLeft`) or the room after
    #: it ended ...
    left: tuple[int, ...] = ()
    #: ... of which these left the room after it ended (``SeatLeft.after_end``), in the
    #: order they left.
    left_after_end: tuple[int, ...] = ()
    #: When its result was recorded (``time.time()``; None: not finished, or not known).
    finished: float | None = None


@dataclass(frozen=True, slots=True)
class SessionRow:
    """A stored session: whose token hashes to ``token_hash``, and where it is."""

    session_id: str
    token_hash: bytes
    name: str
    room_id: str | None
    prev_hash: bytes = b""
    account_id: str = ""


@dataclass(frozen=True, slots=True)
class AccountRow:
    """A stored account."""

    account_id: str
    name: str
    registered: bool
    password_hash: str = field(default="", repr=False)
    #: When it was last used, or else created (``time.time()``).
    last_seen: float = 0.0
