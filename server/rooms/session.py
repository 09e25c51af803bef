"""The sans-I/O client session: bytes in, typed requests or typed errors out.

No sockets, no clock, no trio: like websockets' ``protocol.py`` this is a pure state machine,
tested by feeding it bytes. Any bad client message becomes a :class:`SessionError` with a
protocol error code, never a traceback in a room.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field

from google.protobuf.message import DecodeError
from google.protobuf.unknown_fields import UnknownFieldSet

from protocol.v1 import messages_pb2 as mpb
from server.decks import DeckFormat
from server.invisible import hidden_in_name
from server.rooms.match import BEST_OF
from server.store.records import Spectate, TierKind

PROTOCOL_VERSION = 1
MAX_NAME = 32
MAX_ROOM_NAME = 64
MAX_ROOM_ID = 64
#: Longest object id a request may name (the engine's are 16 hex digits or so).
MAX_OBJECT_ID = 64
#: Resume tokens are 43 URL-safe characters; anything much longer is refused unread.
MAX_TOKEN = 128
#: A deck list in any format (an MTGO .dek file of 75 cards is about 8 KiB).
MAX_DECK = 32 * 1024
MAX_PASSWORD = 256


#: Free-for-all games of 2 to 8 players (rules 800, 806).
MIN_SEATS, MAX_SEATS = 2, 8
#: The longest time bank a room may give each player (a day).
MAX_CLOCK_SECONDS = 86_400


class SessionError(Exception):
    """A client message that must be answered with an ``Error``."""

    def __init__(self, code: int, message: str, request_id: int = 0) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.request_id = request_id


@dataclass(frozen=True, slots=True)
class Hello:
    """The client said hello: as the account holding ``token``, as a registered account
    (``login`` name and password), or (neither) as a new guest named ``name``."""

    name: str
    token: str = field(default="", repr=False)  # secrets: never in a log line
    login: tuple[str, str] | None = field(default=None, repr=False)
    #: The client asked for ServerBatch frames after the Welcome (Hello.batched).
    batched: bool = False
    #: Refuse rather than take the session over from another open connection.
    no_takeover: bool = False
    #: For replays only: a session of its own beside the account's (Hello.replays_only).
    replays_only: bool = False


@dataclass(frozen=True, slots=True)
class Register:
    """Make this guest account a registered one."""

    name: str
    password: str = field(repr=False)


@dataclass(frozen=True, slots=True)
class RevokeTokens:
    """Void every token of this account; issue new ones."""


@dataclass(frozen=True, slots=True)
class Resume:
    """Reclaim an earlier connection's session and place with its resume token."""

    token: str = field(repr=False)  # a secret: never in a log line
    last_state_id: int = 0
    #: As Hello.batched.
    batched: bool = False


@dataclass(frozen=True, slots=True)
class ListRooms:
    """List the lobby's rooms."""


@dataclass(frozen=True, slots=True)
class CreateRoom:
    """Create a room with ``seats`` player seats."""

    name: str
    seats: int
    #: Each player's time bank in seconds (0: the default).
    clock_seconds: int = 0
    private: bool = False
    spectate: Spectate = Spectate.ALLOWED
    format: DeckFormat = DeckFormat.CONSTRUCTED
    #: Account names to hold the first seats for.
    reserved: tuple[str, ...] = ()
    #: Delayed spectator tiers (account names not resolved yet).
    tiers: tuple[TierRequest, ...] = ()
    #: A match of several games (rule 100.6a): 1, 3 or 5.
    best_of: int = 1
    #: The creator takes a seat at once with ``deck`` (as JoinRoom's), checked first: a deck
    #: that can't be played creates no room.
    join: bool = False
    deck: str = ""
    #: Computer players the server runs take this many of the last seats at once.
    computers: int = 0


@dataclass(frozen=True, slots=True)
class TierRequest:
    """A delayed spectator tier as the creator asked for it (protocol/README.md,
    "Spectator tiers")."""

    kind: TierKind
    seat: int
    delay_seconds: int
    delay_turns: int
    accounts: tuple[str, ...]
    invite: bool


#: Most delayed tiers a room offers, longest delays, most account names per tier.
MAX_TIERS = 4
MAX_DELAY_SECONDS = 3600
MAX_DELAY_TURNS = 20
MAX_TIER_ACCOUNTS = 64
_TIER_KINDS = {mpb.TIER_KIND_PUBLIC: TierKind.PUBLIC,
               mpb.TIER_KIND_OMNISCIENT: TierKind.OMNISCIENT,
               mpb.TIER_KIND_PLAYER: TierKind.PLAYER}


def _tiers(tiers: Sequence[mpb.SpectatorTier], seats: int, rid: int
           ) -> tuple[TierRequest, ...]:
    def bad(message: str) -> SessionError:
        return SessionError(mpb.ERROR_CODE_INVALID_ARGUMENT, message, rid)

    if len(tiers) > MAX_TIERS:
        raise bad(f"a room offers at most {MAX_TIERS} spectator tiers")
    out = []
    for n, tier in enumerate(tiers, start=1):
        kind = _TIER_KINDS.get(tier.kind)
        if kind is None:
            raise bad(f"tier {n}: kind must be TIER_KIND_PUBLIC, _OMNISCIENT or _PLAYER")
        if kind is TierKind.PLAYER and tier.seat >= seats:
            raise bad(f"tier {n}: the room has seats 0 to {seats - 1}, not {tier.seat}")
        if not (tier.delay_seconds or tier.delay_turns):
            raise bad(f"tier {n}: a spectator tier is delayed: give delay_seconds or "
                      f"delay_turns (the live public view is tier 0)")
        if tier.delay_seconds > MAX_DELAY_SECONDS or tier.delay_turns > MAX_DELAY_TURNS:
            raise bad(f"tier {n}: delay_seconds is at most {MAX_DELAY_SECONDS} and "
                      f"delay_turns at most {MAX_DELAY_TURNS}")
        if len(tier.accounts) > MAX_TIER_ACCOUNTS:
            raise bad(f"tier {n}: at most {MAX_TIER_ACCOUNTS} account names")
        if not (tier.accounts or tier.invite):
            raise bad(f"tier {n}: name the accounts that may watch it, or set invite")
        out.append(TierRequest(
            kind, tier.seat if kind is TierKind.PLAYER else -1, tier.delay_seconds,
            tier.delay_turns,
            tuple(_clean_name(a, MAX_NAME, "tier account name", rid) for a in tier.accounts),
            tier.invite))
    return tuple(out)


def _computers(create: mpb.CreateRoom, seats: int, rid: int) -> None:
    """Refuse a ``CreateRoom.computers`` that makes no sense (INVALID_ARGUMENT, in words):
    the computers take the seats other than the creator's, who joins at once."""
    computers = create.computers
    if not computers:
        return
    message = ""
    if computers > seats - 1:
        message = (f"a room of {seats} seats has at most {seats - 1} computer player"
                   f"{'s' if seats > 2 else ''}: one seat is yours")
    elif not create.join:
        message = ("computer players take the seats other than yours: create the room with "
                   "join, to play in it")
    elif create.reserved:
        message = ("a room with computer players reserves no seats: the computers take "
                   "the last seats, you the first, and anyone you invite the others")
    if message:
        raise SessionError(mpb.ERROR_CODE_INVALID_ARGUMENT, message, rid)


@dataclass(frozen=True, slots=True)
class JoinRoom:
    """Join a room as a player (``spectator`` False) or a spectator."""

    room_id: str
    spectator: bool
    deck: str
    invite_code: str = field(default="", repr=False)
    #: A spectator's tier (0: the live public view).
    tier: int = 0


@dataclass(frozen=True, slots=True)
class QuickMatch:
    """Queue for a game of ``seats`` players in ``format`` with ``deck``."""

    format: DeckFormat
    seats: int
    deck: str


@dataclass(frozen=True, slots=True)
class CancelQuickMatch:
    """Leave the quick-match queue."""


@dataclass(frozen=True, slots=True)
class LeaveRoom:
    """Leave the current room."""


@dataclass(frozen=True, slots=True)
class Act:
    """Answer the pending decision with the option at ``option_index``."""

    prompt_id: int
    option_index: int
    expected_state_id: int


@dataclass(frozen=True, slots=True)
class RequestSnapshot:
    """Send me a full snapshot of my view."""


@dataclass(frozen=True, slots=True)
class ConcedeGame:
    """Concede the game (rule 104.3a)."""


@dataclass(frozen=True, slots=True)
class ExplainCard:
    """Why can't I cast the card ``object_id`` now? (A seated player asks.)"""

    object_id: str


@dataclass(frozen=True, slots=True)
class OfferRematch:
    """Offer the other players a rematch (``offer``) or withdraw the offer, once the game
    (of a match, the match) is over."""

    offer: bool


@dataclass(frozen=True, slots=True)
class SubmitDeck:
    """Between games of a match: keep the current deck (``keep``) or play ``deck`` next."""

    keep: bool
    deck: str = ""


@dataclass(frozen=True, slots=True)
class StartReplay:
    """Replay a finished game as ``viewer`` saw it: a seat, -1 public, -2 omniscient."""

    room_id: str
    viewer: int
    invite_code: str = field(default="", repr=False)
    start_action: int | None = None
    start_turn: int | None = None
    #: Actions per second (0: as fast as the connection takes them).
    speed: float = 0.0
    paused: bool = False


@dataclass(frozen=True, slots=True)
class ControlReplay:
    """Control the connection's replay: ``command`` is play, pause, seek_action, seek_turn,
    speed or stop."""

    command: str
    value: float = 0.0


#: The fastest replay speed a client may ask for, in actions per second (0 is "as fast as
#: the connection takes them", which is bounded by the connection anyway).
MAX_REPLAY_SPEED = 1000.0
#: The slowest replay (actions per second) but 0: one action every 100 s. (A speed of
#: 5e-324 put the next action in ~1e300 s: a replay "playing" with no traffic, never idle,
#: holding its place among the replays an address and the server run for good.)
MIN_REPLAY_SPEED = 0.01


def _speed(value: float, rid: int) -> float:
    if not (value == 0.0 or MIN_REPLAY_SPEED <= value <= MAX_REPLAY_SPEED):  # NaN fails too
        raise SessionError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                           f"speed is 0 (as fast as possible) or {MIN_REPLAY_SPEED:g} to "
                           f"{MAX_REPLAY_SPEED:g} actions per second", rid)
    return float(value)


Request = (Hello | Resume | Register | RevokeTokens | ListRooms | CreateRoom | JoinRoom
           | LeaveRoom | QuickMatch | CancelQuickMatch | Act | RequestSnapshot | ConcedeGame
           | SubmitDeck | StartReplay | ControlReplay | ExplainCard | OfferRematch)


def _format(value: int, rid: int) -> DeckFormat:
    if value in (mpb.DECK_FORMAT_UNSPECIFIED, mpb.DECK_FORMAT_CONSTRUCTED):
        return DeckFormat.CONSTRUCTED
    if value == mpb.DECK_FORMAT_LIMITED:
        return DeckFormat.LIMITED
    raise SessionError(mpb.ERROR_CODE_INVALID_ARGUMENT, f"unknown deck format {value}", rid)


def _spectate(value: int, rid: int) -> Spectate:
    if value in (mpb.SPECTATE_UNSPECIFIED, mpb.SPECTATE_ALLOWED):
        return Spectate.ALLOWED
    if value == mpb.SPECTATE_NONE:
        return Spectate.NONE
    if value == mpb.SPECTATE_INVITE:
        return Spectate.INVITE
    raise SessionError(mpb.ERROR_CODE_INVALID_ARGUMENT, f"unknown spectate value {value}", rid)


def _best_of(value: int, seats: int, rid: int) -> int:
    """A room's match length: 0 or 1 a single game, 3 or 5 (rule 100.6a) for two seats."""
    best_of = value or 1
    if best_of not in BEST_OF:
        raise SessionError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                           f"best_of is 1 (or 0: a single game), 3 or 5, got {value}", rid)
    if best_of > 1 and seats != 2:
        raise SessionError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                           f"a match of several games is for two players (a multiplayer "
                           f"match is one game); this room has {seats} seats", rid)  # (100.6a)
    return best_of


def _seats(value: int, rid: int) -> int:
    seats = value or 2
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise SessionError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                           f"a room has {MIN_SEATS} to {MAX_SEATS} seats (a free-for-all "
                           f"game above two), got {seats}", rid)  # (rule 806)
    return seats


def _deck(text: str, rid: int) -> str:
    if len(text.encode()) > MAX_DECK:
        raise SessionError(mpb.ERROR_CODE_INVALID_DECK,
                           f"a deck list is at most {MAX_DECK // 1024} KiB", rid)
    return text


def _clean_name(raw: str, limit: int, what: str, request_id: int) -> str:
    """A name as given, or the error to answer: one with a character shown as nothing is
    refused -- a control character, and a Hangul filler too (printable: 'Ann' and a filler
    read as 'Ann')."""
    name = raw.strip()
    if not name or len(name) > limit or not name.isprintable() or hidden_in_name(name):
        why = ("it is empty" if not name else f"it has {len(name)}" if len(name) > limit
               else "it has a control or invisible character")  # (shown as nothing)
        raise SessionError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                           f"{what} must be 1-{limit} printable characters ({why})",
                           request_id)
    return name


class Session:
    """One client's protocol state: must say hello first, then lobby and game requests."""

    __slots__ = ("name", "session_id")

    def __init__(self) -> None:
        self.session_id = secrets.token_hex(8)
        self.name: str | None = None

    def established(self, session_id: str, name: str) -> None:
        """A Hello or Resume succeeded: this connection now is session ``session_id`` of the
        account named ``name``."""
        self.session_id = session_id
        self.name = name

    @property
    def ready(self) -> bool:
        """Whether the hello handshake is complete."""
        return self.name is not None

    def receive(self, data: bytes | str) -> tuple[int, Request]:
        """Decode and validate one client message into ``(request_id, request)``."""
        if isinstance(data, str):
            raise SessionError(mpb.ERROR_CODE_BAD_MESSAGE,
                               "messages must be binary protobuf ClientMessage frames")
        msg = mpb.ClientMessage()
        try:
            msg.ParseFromString(data)
        except DecodeError:
            raise SessionError(mpb.ERROR_CODE_BAD_MESSAGE, "undecodable ClientMessage") from None
        rid = msg.request_id
        body = msg.WhichOneof("body")
        if body is None:
            # A body this server's schema doesn't know (a newer client's request) parses as
            # an unknown field: say so, rather than that the message was empty.
            raise SessionError(mpb.ERROR_CODE_BAD_MESSAGE,
                               "a ClientMessage with a request this server doesn't know "
                               f"(protocol version {PROTOCOL_VERSION})"
                               if len(UnknownFieldSet(msg)) else "empty ClientMessage", rid)
        if body == "hello":
            if self.ready:
                raise SessionError(mpb.ERROR_CODE_INVALID_ARGUMENT, "already said hello", rid)
            if msg.hello.protocol_version != PROTOCOL_VERSION:
                raise SessionError(
                    mpb.ERROR_CODE_UNSUPPORTED_VERSION,
                    f"server speaks protocol version {PROTOCOL_VERSION}, "
                    f"client asked for {msg.hello.protocol_version}", rid)
            hello = msg.hello
            if len(hello.account_token) > MAX_TOKEN or len(hello.login.password) > MAX_PASSWORD \
                    or len(hello.login.name) > MAX_NAME:
                raise SessionError(mpb.ERROR_CODE_UNAUTHENTICATED, "unknown account", rid)
            if hello.account_token and hello.HasField("login"):
                raise SessionError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                                   "give an account_token or a login, not both", rid)
            if hello.HasField("login"):
                return rid, Hello("", login=(hello.login.name, hello.login.password),
                                  batched=hello.batched, no_takeover=hello.no_takeover,
                                  replays_only=hello.replays_only)
            if hello.account_token:
                return rid, Hello("", token=hello.account_token, batched=hello.batched,
                                  no_takeover=hello.no_takeover,
                                  replays_only=hello.replays_only)
            name = _clean_name(hello.display_name, MAX_NAME, "a name (display_name)", rid)
            return rid, Hello(name, batched=hello.batched)
        if body == "resume":
            if self.ready:
                raise SessionError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                                   "Resume must be a connection's first message", rid)
            if msg.resume.protocol_version != PROTOCOL_VERSION:
                raise SessionError(
                    mpb.ERROR_CODE_UNSUPPORTED_VERSION,
                    f"server speaks protocol version {PROTOCOL_VERSION}, "
                    f"client asked for {msg.resume.protocol_version}", rid)
            token = msg.resume.resume_token
            if not token or len(token) > MAX_TOKEN:
                raise SessionError(mpb.ERROR_CODE_RESUME_FAILED, "unknown resume token", rid)
            return rid, Resume(token, msg.resume.last_state_id, msg.resume.batched)
        if not self.ready:
            raise SessionError(mpb.ERROR_CODE_NOT_READY, "send Hello (or Resume) first", rid)
        return rid, self._request(msg, body, rid)

    @staticmethod
    def _request(msg: mpb.ClientMessage, body: str, rid: int) -> Request:
        if body == "register":
            if len(msg.register.password) > MAX_PASSWORD:
                raise SessionError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                                   f"a password has at most {MAX_PASSWORD} characters", rid)
            if len(msg.register.name) > MAX_ROOM_NAME:
                raise SessionError(mpb.ERROR_CODE_INVALID_ARGUMENT, "that name is too long",
                                   rid)
            return Register(msg.register.name, msg.register.password)
        if body == "revoke_tokens":
            return RevokeTokens()
        if body == "list_rooms":
            return ListRooms()
        if body == "create_room":
            create = msg.create_room
            seats = _seats(create.seats, rid)
            name = _clean_name(create.name or "game", MAX_ROOM_NAME, "room name", rid)
            clock = create.clock_seconds
            if clock > MAX_CLOCK_SECONDS:
                raise SessionError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                                   f"clock_seconds is at most {MAX_CLOCK_SECONDS}", rid)
            if len(create.reserved) > seats:
                raise SessionError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                                   f"at most {seats} reserved seats in a room of {seats}", rid)
            reserved = tuple(_clean_name(n, MAX_NAME, "reserved account name", rid)
                             for n in create.reserved)
            # A private room is watched only with its code unless the creator says else.
            spectate = Spectate.INVITE if create.private and \
                create.spectate == mpb.SPECTATE_UNSPECIFIED else _spectate(create.spectate, rid)
            if create.deck and not create.join:
                raise SessionError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                                   "CreateRoom.deck is the creator's own deck: it needs join",
                                   rid)
            _computers(create, seats, rid)
            return CreateRoom(name, seats, clock, create.private, spectate,
                              _format(create.format, rid), reserved,
                              _tiers(create.tiers, seats, rid),
                              _best_of(create.best_of, seats, rid), create.join,
                              _deck(create.deck, rid), create.computers)
        if body == "join_room":
            join = msg.join_room
            role = join.role
            if role not in (mpb.ROLE_PLAYER, mpb.ROLE_SPECTATOR):
                raise SessionError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                                   "role must be ROLE_PLAYER or ROLE_SPECTATOR", rid)
            if len(join.room_id) > MAX_ROOM_ID or len(join.invite_code) > MAX_TOKEN:
                raise SessionError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                                   f"room_id is at most {MAX_ROOM_ID} characters and "
                                   f"invite_code at most {MAX_TOKEN}", rid)
            if join.tier and role != mpb.ROLE_SPECTATOR:
                raise SessionError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                                   "a tier is for spectators (ROLE_SPECTATOR)", rid)
            return JoinRoom(join.room_id, role == mpb.ROLE_SPECTATOR, _deck(join.deck, rid),
                            join.invite_code, join.tier)
        if body == "leave_room":
            return LeaveRoom()
        if body == "quick_match":
            quick = msg.quick_match
            return QuickMatch(_format(quick.format, rid), _seats(quick.seats, rid),
                              _deck(quick.deck, rid))
        if body == "cancel_quick_match":
            return CancelQuickMatch()
        if body == "act":
            return Act(msg.act.prompt_id, msg.act.option_index, msg.act.expected_state_id)
        if body == "request_snapshot":
            return RequestSnapshot()
        if body == "concede":
            return ConcedeGame()
        if body == "offer_rematch":
            return OfferRematch(msg.offer_rematch.offer)
        if body == "explain_card":
            if len(msg.explain_card.object_id) > MAX_OBJECT_ID:
                raise SessionError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                                   f"object_id is at most {MAX_OBJECT_ID} characters", rid)
            return ExplainCard(msg.explain_card.object_id)
        if body == "submit_deck":
            choice = msg.submit_deck.WhichOneof("choice")
            if choice is None or (choice == "keep" and not msg.submit_deck.keep):
                raise SessionError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                                   "SubmitDeck needs keep: true or a deck list", rid)
            if choice == "keep":
                return SubmitDeck(keep=True)
            if not msg.submit_deck.deck.strip():
                raise SessionError(mpb.ERROR_CODE_INVALID_DECK,
                                   "an empty deck list: send your deck list, or keep: true",
                                   rid)
            return SubmitDeck(keep=False, deck=_deck(msg.submit_deck.deck, rid))
        if body == "replay":
            return _replay_request(msg.replay, rid)
        if body == "replay_control":
            control = msg.replay_control
            command = control.WhichOneof("command")
            if command is None:
                raise SessionError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                                   "ReplayControl needs a command", rid)
            if command == "speed":
                return ControlReplay(command, _speed(control.speed, rid))
            if command in ("seek_action", "seek_turn"):
                return ControlReplay(command, float(getattr(control, command)))
            return ControlReplay(command)
        raise SessionError(mpb.ERROR_CODE_BAD_MESSAGE, f"unexpected message {body}", rid)


def _replay_request(replay: mpb.ReplayRequest, rid: int) -> StartReplay:
    if len(replay.room_id) > MAX_ROOM_ID or len(replay.invite_code) > MAX_TOKEN:
        raise SessionError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                           f"room_id is at most {MAX_ROOM_ID} characters and invite_code at "
                           f"most {MAX_TOKEN}", rid)
    perspective = replay.WhichOneof("perspective")
    if perspective == "seat":
        if replay.seat >= MAX_SEATS:
            raise SessionError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                               f"a game has at most {MAX_SEATS} seats", rid)
        viewer = replay.seat
    elif perspective == "public":
        viewer = -1
    elif perspective == "omniscient":
        viewer = -2
    elif perspective == "every_hand":
        viewer = -3
    else:
        raise SessionError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                           "ReplayRequest needs a perspective: seat, public, omniscient or "
                           "every_hand", rid)
    start = replay.WhichOneof("start")
    return StartReplay(replay.room_id, viewer, replay.invite_code,
                       replay.start_action if start == "start_action" else None,
                       replay.start_turn if start == "start_turn" else None,
                       _speed(replay.speed, rid), replay.paused)


def request_id_of(data: bytes | str) -> int:
    """The request id of a client message, to answer it without handling it (0 if it has
    none or can't be decoded)."""
    if isinstance(data, str):
        return 0
    try:
        return mpb.ClientMessage.FromString(data).request_id
    except DecodeError:
        return 0


def error_bytes(code: int, message: str, request_id: int = 0, incident_id: str = "",
                details: Sequence[str] = ()) -> bytes:
    """A serialized ``ServerMessage`` carrying an ``Error`` (``details``: every problem)."""
    return mpb.ServerMessage(request_id=request_id, error=mpb.Error(
        code=code, message=message, incident_id=incident_id,  # type: ignore[arg-type]
        details=details)).SerializeToString()
