"""The sans-I/O client session: bytes in, typed requests or typed errors out.

No sockets, no clock, no trio: like websockets' ``protocol.py`` this is a pure state machine,
tested by feeding it bytes. Any bad client message becomes a :class:`SessionError` with a
protocol error code, never a traceback in a room.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from google.protobuf.message import DecodeError

from protocol.v1 import messages_pb2 as mpb

PROTOCOL_VERSION = 1
MAX_NAME = 32
MAX_ROOM_NAME = 64
MAX_ROOM_ID = 64
#: Resume tokens are 43 URL-safe characters; anything much longer is refused unread.
MAX_TOKEN = 128


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
    """The client said hello with a valid name and version."""

    name: str


@dataclass(frozen=True, slots=True)
class Resume:
    """Reclaim an earlier connection's session and place with its resume token."""

    token: str = field(repr=False)  # a secret: never in a log line
    last_state_id: int = 0


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


@dataclass(frozen=True, slots=True)
class JoinRoom:
    """Join a room as a player (``spectator`` False) or a spectator."""

    room_id: str
    spectator: bool
    deck: str


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


Request = (Hello | Resume | ListRooms | CreateRoom | JoinRoom | LeaveRoom | Act | RequestSnapshot
           | ConcedeGame)


def _clean_name(raw: str, limit: int, what: str, request_id: int) -> str:
    name = raw.strip()
    if not name or len(name) > limit or not name.isprintable():
        raise SessionError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                           f"{what} must be 1-{limit} printable characters", request_id)
    return name


class Session:
    """One client's protocol state: must say hello first, then lobby and game requests."""

    def __init__(self) -> None:
        self.session_id = secrets.token_hex(8)
        self.name: str | None = None

    def resumed(self, session_id: str, name: str) -> None:
        """A Resume succeeded: this connection now continues session ``session_id``."""
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
            raise SessionError(mpb.ERROR_CODE_BAD_MESSAGE, "empty ClientMessage", rid)
        if body == "hello":
            if self.ready:
                raise SessionError(mpb.ERROR_CODE_INVALID_ARGUMENT, "already said hello", rid)
            if msg.hello.protocol_version != PROTOCOL_VERSION:
                raise SessionError(
                    mpb.ERROR_CODE_UNSUPPORTED_VERSION,
                    f"server speaks protocol version {PROTOCOL_VERSION}, "
                    f"client asked for {msg.hello.protocol_version}", rid)
            self.name = _clean_name(msg.hello.display_name, MAX_NAME, "display_name", rid)
            return rid, Hello(self.name)
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
            return rid, Resume(token, msg.resume.last_state_id)
        if not self.ready:
            raise SessionError(mpb.ERROR_CODE_NOT_READY, "send Hello (or Resume) first", rid)
        return rid, self._request(msg, body, rid)

    @staticmethod
    def _request(msg: mpb.ClientMessage, body: str, rid: int) -> Request:
        if body == "list_rooms":
            return ListRooms()
        if body == "create_room":
            seats = msg.create_room.seats or 2
            if not MIN_SEATS <= seats <= MAX_SEATS:
                raise SessionError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                                   f"a room has {MIN_SEATS} to {MAX_SEATS} seats (free-for-all, "
                                   f"rule 806), got {seats}", rid)
            name = _clean_name(msg.create_room.name or "game", MAX_ROOM_NAME, "room name", rid)
            clock = msg.create_room.clock_seconds
            if clock > MAX_CLOCK_SECONDS:
                raise SessionError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                                   f"clock_seconds is at most {MAX_CLOCK_SECONDS}", rid)
            return CreateRoom(name, seats, clock)
        if body == "join_room":
            role = msg.join_room.role
            if role not in (mpb.ROLE_PLAYER, mpb.ROLE_SPECTATOR):
                raise SessionError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                                   "role must be ROLE_PLAYER or ROLE_SPECTATOR", rid)
            room_id, deck = msg.join_room.room_id, msg.join_room.deck
            if len(room_id) > MAX_ROOM_ID or len(deck) > MAX_ROOM_NAME:
                raise SessionError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                                   f"room_id is at most {MAX_ROOM_ID} characters and deck at "
                                   f"most {MAX_ROOM_NAME}", rid)
            return JoinRoom(room_id, role == mpb.ROLE_SPECTATOR, deck)
        if body == "leave_room":
            return LeaveRoom()
        if body == "act":
            return Act(msg.act.prompt_id, msg.act.option_index, msg.act.expected_state_id)
        if body == "request_snapshot":
            return RequestSnapshot()
        if body == "concede":
            return ConcedeGame()
        raise SessionError(mpb.ERROR_CODE_BAD_MESSAGE, f"unexpected message {body}", rid)


def error_bytes(code: int, message: str, request_id: int = 0, incident_id: str = "") -> bytes:
    """A serialized ``ServerMessage`` carrying an ``Error``."""
    return mpb.ServerMessage(request_id=request_id, error=mpb.Error(
        code=code, message=message, incident_id=incident_id)  # type: ignore[arg-type]
    ).SerializeToString()
