"""A trio client for the Manawire protocol over WebSockets, which resumes by itself.

When the connection drops (the network, the server restarting with close code 1012, the
server closing a client that fell behind with 1013), the client reconnects with exponential
backoff and sends ``Resume{resume_token, last_state_id}``: the server hands its place back
and sends only the deltas it missed (or a snapshot), then the pending decision again. An
``Act`` sent just before a drop may or may not have reached the server; either way the
decision that is current after the resume is sent again, so a bot simply answers it.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from typing import cast

import trio
from google.protobuf.message import DecodeError
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.trio.client import ClientConnection, connect

from client_sdk.mirror import Mirror, MirrorDesyncError
from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb

PROTOCOL_VERSION = 1
#: The largest client message the server reads (protocol/README.md); a larger one closes
#: the connection (1009), so the client refuses to send it.
MAX_MESSAGE = 64 * 1024
#: Close codes after which the client does not come back by itself.
CLOSE_REPLACED = 4001  # another connection resumed this session
#: Reconnection backoff: first delay, factor, longest delay, and the time to give up after.
BACKOFF_FIRST, BACKOFF_FACTOR, BACKOFF_MAX, RECONNECT_FOR = 0.05, 2.0, 2.0, 120.0
#: Seconds a spectator's join again after a resume may take (:meth:`Client._watch_again`).
REJOIN_SECONDS = 30.0
#: Seconds to wait after the server drops a message for rate.
RATE_LIMITED_PAUSE = 0.25
#: How the server's "the rematch can't be made" begins (protocol/README.md, "Rematch": an
#: ERROR_CODE_LIMIT_REACHED with request id 0; the players are in no room any more).
NO_REMATCH = "no rematch: "

class _DropsAreResumed(logging.Filter):
    """websockets logs a keepalive ping that timed out (the client stopped reading for
    ``ping_interval + ping_timeout``, or the network went) as an ERROR with a traceback.
    For this client that is an ordinary drop, resumed like any other: the record becomes
    one INFO line without the traceback. Any other record passes as it is."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if record.msg == "keepalive ping failed" and isinstance(exc, ConnectionClosed):
            record.msg, record.args, record.exc_info = f"keepalive ping failed: {exc}", (), None
            record.levelno, record.levelname = logging.INFO, logging.getLevelName(logging.INFO)
        return True


#: The logger of the client's connections (websockets' records about them).
ws_log = logging.getLogger("manawire.client.websocket")
ws_log.addFilter(_DropsAreResumed())


def store_refused(error: mpb.Error) -> bool:
    """Whether ``error`` says the server can't save anything now (its disk is full, say:
    protocol/README.md, "A store that can't be written"): ``ERROR_CODE_INTERNAL`` with no
    incident id -- nothing was done, and the same request works once it can save again (a
    room it stopped comes back by itself). A fault of the server has an incident id."""
    return error.code == mpb.ERROR_CODE_INTERNAL and not error.incident_id


class ServerError(Exception):
    """The server answered a request with an Error."""

    def __init__(self, code: int, message: str, details: list[str] | None = None, *,
                 incident_id: str = "") -> None:
        shown = "".join(f"\n  {d}" for d in details or ())
        super().__init__(f"{mpb.ErrorCode.Name(cast(mpb.ErrorCode, code))}: {message}{shown}")
        #: The ``ErrorCode`` (``mpb.ERROR_CODE_...``).
        self.code = cast(mpb.ErrorCode, code)
        self.message = message
        #: Every problem (a refused deck's lines).
        self.details = list(details or ())
        #: The incident id of an internal error (quote it to the operator).
        self.incident_id = incident_id

    @property
    def try_again(self) -> bool:
        """Whether the server refused only because it can't save anything now
        (:func:`store_refused`): the same request works later."""
        return store_refused(mpb.Error(code=self.code, incident_id=self.incident_id))


class ProtocolError(Exception):
    """The server sent something this client can't read."""


class ConnectionLostError(Exception):
    """The connection dropped and could not be resumed (or a request's reply was lost in
    a drop: the request may or may not have been performed)."""


class ConnectionEndedError(ConnectionLostError):
    """The server closed the connection in a way this client does not resume (it was
    replaced by a newer connection of the session, code 4001), or it closed with
    ``reconnect`` off. ``code`` and ``reason`` are the close frame's (None and "": no close
    frame, the connection just dropped)."""

    def __init__(self, code: int | None, reason: str) -> None:
        if code == CLOSE_REPLACED:
            why = "another connection resumed this session"
        elif code is None:
            why = "the connection dropped"
        else:
            why = "the server closed the connection"
        super().__init__(f"{why} ({code if code is not None else 'no close frame'}"
                         f"{': ' + reason if reason else ''})")
        self.code = code
        self.reason = reason

    @classmethod
    def of(cls, exc: ConnectionClosed) -> ConnectionEndedError:
        """The error for websockets' ``exc``."""
        close = exc.rcvd
        return cls(close.code if close is not None else None,
                   close.reason if close is not None else "")


def _lone(group: BaseExceptionGroup[BaseException]) -> BaseException | None:
    """The one exception inside ``group`` (nested groups of one included), else None."""
    inner: BaseException = group
    while isinstance(inner, BaseExceptionGroup):
        if len(inner.exceptions) != 1:
            return None
        inner = inner.exceptions[0]
    return inner


class Client:
    """One session: lobby requests, a mirror of the joined game and its pending decision.

    Use :func:`Client.connect`; then call :meth:`next_message` (or iterate
    :meth:`messages`) to process what the server pushes.
    """

    def __init__(self, url: str, name: str, nursery: trio.Nursery, *,
                 reconnect: bool = True, token: str = "", batched: bool = True,
                 reconnect_for: float = RECONNECT_FOR) -> None:
        self.url = url
        #: Seconds a resume keeps trying to reach the server after a drop.
        self.reconnect_for = reconnect_for
        #: Ask for batched frames (Hello.batched); :attr:`batching`: the server agreed.
        self.batched = batched
        self.batching = False
        #: Messages received and not processed yet (the rest of a ServerBatch frame), each
        #: with its bytes if they are at hand (a plain frame).
        self._queued: deque[tuple[bytes | None, mpb.ServerMessage]] = deque()
        self.name = name
        #: The account's long-lived secret (given, or issued by the server to a new guest
        #: or on login): keep it to come back as the same account.
        self.account_token = token
        #: The account as the server knows it (its unique name, registered or a guest).
        self.account = mpb.Account()
        #: Invite codes of the rooms this client created (used by :meth:`join`): give one
        #: to a room's players -- it takes a seat (and watches).
        self.invite_codes: dict[str, str] = {}
        #: Audience codes of the rooms this client created, and of a rematch it was told of
        #: (used by :meth:`join` as a spectator): give one to a room's audience -- it
        #: watches what the invite code watches but takes no seat (RoomCreated.audience_code).
        self.audience_codes: dict[str, str] = {}
        self.reconnect = reconnect
        self._nursery = nursery
        self._ws: ClientConnection | None = None
        self._next_request = 0
        self.mirror = Mirror()
        self.decision: pb.Decision | None = None
        self.seat: int | None = None
        self.room_id: str | None = None
        #: The room as the server described it when this client was placed in it, and
        #: until its game starts as each seat is taken or freed (RoomUpdate: who is seated).
        self.room: mpb.RoomInfo | None = None
        #: The room :meth:`leave_room` waited to leave: what it still sends is ignored.
        self._left: str | None = None
        #: The room, tier and invite code this client watches as a spectator (None: it
        #: doesn't): joined again by itself if a resume finds the place gone.
        self._watching: tuple[str, int, str] | None = None
        self.session_id = ""
        #: The secret that resumes this session (rotated by the server on every resume).
        self.resume_token = ""
        self.errors: list[mpb.Error] = []
        #: The server's notices (pushed, no answer asked: e.g. a game nearing the server's
        #: limit of actions), in order. They change nothing: a pending decision stays so.
        self.notices: list[mpb.Notice] = []
        #: The players' decision clocks, by seat (pushed when the deciding seat changes).
        self.clocks: dict[int, mpb.ClockState] = {}
        #: Whether each seat's player is connected (pushed when it changes).
        self.presence: dict[int, bool] = {}
        #: The joined room's match length (RoomInfo.best_of: 1 a single game) and, in a
        #: match of several games, its latest MatchState (protocol/README.md, "Matches").
        self.best_of = 1
        self.match: mpb.MatchState | None = None
        #: The game number this client's sideboarding answer was accepted for.
        self._deck_for = 0
        #: This player's deck as the server stores it (Joined.deck, DeckAccepted.deck; also
        #: a resumed session's: a terminal back in its game showed no deck to sideboard).
        self.deck_text = ""
        self.deltas = 0
        self.resyncs = 0
        #: Resumes done, and the deltas the server re-sent in them.
        self.resumes = 0
        self.missed_deltas = 0
        self.resume_snapshots = 0
        self._epoch = 0
        #: Held while resuming: a task sending while another receives both see a drop, and
        #: only one of them resumes (:meth:`_resume_once`).
        self._resume_lock = trio.Lock()
        #: A resume was under way when its task was cancelled (a caller's timeout around
        #: :meth:`next_message`): the next receive or send takes it up again.
        self._resume_cut = False
        #: Whether a Hello of this client (connecting, or starting over after a resume
        #: was refused) may close another connection of its account (``connect``'s
        #: ``take_over``).
        self.take_over = True
        #: The epoch of a request waiting for its reply (None: none).
        self._requesting: int | None = None
        #: The decision last answered (sent again after a rate-limit refusal).
        self._answered: pb.Decision | None = None
        #: Messages the server dropped for rate (ERROR_CODE_RATE_LIMITED).
        self.rate_limited = 0
        #: Called with every raw message received (tracing, leak checks).
        self.on_raw: Callable[[bytes], None] | None = None
        #: The last ``RoomClosed`` of the room this client was in (None: placed since);
        #: :attr:`comes_back` says whether that room comes back by itself.
        self.closed: mpb.RoomClosed | None = None
        #: A resume placed this client in a room whose view it had to forget, and the
        #: server sends no snapshot for it: one is asked for once the resume is done.
        self._want_snapshot = False
        #: Who offers a rematch in this client's room, its game over (the latest
        #: RematchOffers; None: none yet), and the last rematch started from a room this
        #: client was in (protocol/README.md, "Rematch"): a player is then seated in
        #: ``new_room_id`` by the server (a ``Joined``, request id 0). A rematch every
        #: player offered but the server couldn't make ("no rematch: <why>") is kept here
        #: as offers whose ``cancelled`` says why, and the client is in no room any more.
        self.rematch: mpb.RematchOffers | None = None
        self.rematch_started: mpb.RematchStarted | None = None

    @classmethod
    @asynccontextmanager
    async def connect(cls, url: str, name: str = "player", *, token: str = "",
                      login: tuple[str, str] | None = None, reconnect: bool = True,
                      batched: bool = True, reconnect_for: float = RECONNECT_FOR,
                      take_over: bool = True) -> AsyncIterator[Client]:
        """Connect to ``url`` and say hello: as the account holding ``token``, as a
        registered account (``login``: name and password), or else as a new guest account
        named ``name`` (its token is then in :attr:`account_token`). An account whose
        session was in a room is back in it (:attr:`room_id`, :attr:`seat`, :attr:`room`;
        its other connection, if any, is closed: 4001 -- unless not ``take_over``: then
        :class:`ServerError` ``ERROR_CODE_ACCOUNT_IN_USE`` instead, the other connection
        untouched). With ``reconnect`` (the default)
        the client resumes by itself after a drop, trying for ``reconnect_for`` seconds
        (:class:`ConnectionLostError` after). ``batched`` (the default) asks the server
        for ServerBatch frames (several messages per frame)."""
        try:
            async with trio.open_nursery() as nursery:
                client = cls(url, name, nursery, reconnect=reconnect, token=token,
                             batched=batched, reconnect_for=reconnect_for)
                client.take_over = take_over
                try:
                    client._ws = await client._open()
                    hello = mpb.Hello(protocol_version=PROTOCOL_VERSION, display_name=name,
                                      account_token=token, batched=batched,
                                      no_takeover=not take_over)
                    if login is not None:
                        hello.login.name, hello.login.password = login
                    reply = await client.request(mpb.ClientMessage(hello=hello))
                    if reply.HasField("resumed"):  # the account's session was in a room
                        client._took_over(reply.resumed)
                    else:
                        client._welcomed(reply.welcome)
                    yield client
                finally:
                    client.reconnect = False
                    await client.aclose()
                    nursery.cancel_scope.cancel()
        except BaseExceptionGroup as group:
            # The client's own nursery wraps what the caller's block (or the hello) raised:
            # hand a lone exception back as it was raised.
            lone = _lone(group)
            if lone is None:
                raise
            raise lone from None

    async def _open(self) -> ClientConnection:
        opener = connect(self.url, compression=None, max_size=16 * 1024 * 1024,
                         open_timeout=10, logger=ws_log)
        return await opener.connect(self._nursery)

    async def aclose(self) -> None:
        """Close the connection (no reconnecting afterwards)."""
        self.reconnect = False
        ws, self._ws = self._ws, None
        if ws is not None:
            with trio.move_on_after(2):
                await ws.aclose()

    async def drop(self) -> None:
        """Close the connection as a network failure would (for tests): the client then
        resumes on its next receive or send."""
        ws = self._ws
        if ws is not None:
            with trio.move_on_after(2):
                await ws.aclose(code=1001, reason="client drop")

    def _welcomed(self, welcome: mpb.Welcome) -> None:
        self.session_id = welcome.session_id
        if welcome.resume_token:  # (Register's Welcome carries no new tokens)
            self.resume_token = welcome.resume_token
        if welcome.account_token:
            self.account_token = welcome.account_token
        if welcome.HasField("account"):
            self.account = welcome.account
            self.name = welcome.account.name

    def _took_over(self, resumed: mpb.Resumed) -> None:
        self._welcomed(resumed.welcome)
        if resumed.HasField("joined"):
            viewed = self.mirror.state_id
            self._placed(resumed.joined)
            if viewed and not self.mirror.state_id and not resumed.snapshot and \
                    resumed.joined.room.started:
                # The view this client had was of no room it is in (the room had closed --
                # a full disk stopped it -- and a restart brought it back): forgotten, and
                # the server, sending only what the client missed, sends no snapshot.
                self._want_snapshot = True
        else:  # the room is gone (its game ended and it closed, or it failed)
            self.room_id = None

    def _placed(self, joined: mpb.Joined) -> None:
        """The server put this client in a room (a Joined, or a Resumed's). In another room
        than the one it was in, what it knew of a room starts afresh (the room's Joined
        comes before anything the room sends): a bot joining its next game read the last
        game's ``game_over`` as its own until the new game's Snapshot came."""
        self._left = None
        self.closed = None
        room_id = joined.room.room_id
        if room_id != self.room_id:
            self._forget_room()
        self.seat = joined.seat
        self.room_id = room_id
        self.room = joined.room
        self.best_of = joined.room.best_of or 1
        self.deck_text = joined.deck or self.deck_text
        if joined.role != mpb.ROLE_SPECTATOR:
            self._watching = None
        elif self._watching is None or self._watching[0] != room_id:
            self._watching = (room_id, joined.tier, self.invite_codes.get(room_id, ""))

    @property
    def comes_back(self) -> bool:
        """Whether the room this client was in closed only until the server can save
        again (a full disk stopped it): once it is back, the server seats this client in it
        again by itself (a ``Joined`` with request id 0, then its ``Snapshot``) if it is
        still connected and in no other room (protocol/README.md, "A store that can't be
        written")."""
        return self.room_id is None and self.closed is not None and \
            "comes back" in self.closed.reason

    # ---- reconnecting
    def _resumable(self, exc: ConnectionClosed) -> bool:
        code = exc.rcvd.code if exc.rcvd is not None else None
        return self.reconnect and bool(self.resume_token) and code != CLOSE_REPLACED

    async def _resume(self) -> None:
        """Reconnect with backoff and resume the session; :class:`ConnectionLostError` if
        the server refuses the token or doesn't come back within :attr:`reconnect_for`."""
        self._resume_cut = True  # (until it ends other than by a cancellation)
        try:
            await self._resume_now()
        except Exception:
            self._resume_cut = False
            raise
        self._resume_cut = False

    async def _resume_now(self) -> None:
        self._epoch += 1
        self.decision = None  # the decision current after the resume is sent again
        old, self._ws = self._ws, None
        self.batching = False
        self._queued.clear()  # the rest of a batch from the old connection: resent if needed
        if old is not None:
            with trio.move_on_after(1):
                await old.aclose()
        delay = BACKOFF_FIRST
        deadline = trio.current_time() + self.reconnect_for
        while True:
            try:
                ws = await self._open()
                # The view's state id only while it is the view of the room this client is
                # in: a room that closed (a full disk stops one, and it comes back) keeps
                # its last board on the screen, but the room the resume places this client
                # in is rebuilt (after a restart, at the same state id): from 0 the server
                # sends a snapshot -- given the old state id it sent nothing, and the view,
                # forgotten as of another room, stayed empty.
                msg = mpb.ClientMessage(resume=mpb.Resume(
                    protocol_version=PROTOCOL_VERSION, resume_token=self.resume_token,
                    last_state_id=self.mirror.state_id if self.room_id is not None else 0,
                    batched=self.batched))
                await ws.send(msg.SerializeToString())
                data = await ws.recv()
            except (OSError, InvalidHandshake, TimeoutError, ConnectionClosed) as exc:
                if trio.current_time() + delay > deadline:
                    raise ConnectionLostError(f"could not resume: {exc!r}") from exc
                await trio.sleep(delay)
                delay = min(delay * BACKOFF_FACTOR, BACKOFF_MAX)
                continue
            reply = mpb.ServerMessage.FromString(data if isinstance(data, bytes)
                                                 else data.encode())
            if reply.HasField("error") and store_refused(reply.error):
                # The server can't save the resume now (a full disk): nothing was done,
                # the session keeps its place; try again, as after a drop.
                with trio.move_on_after(1):
                    await ws.aclose()
                if trio.current_time() + delay > deadline:
                    raise ConnectionLostError(f"could not resume: {reply.error.message}")
                await trio.sleep(delay)
                delay = min(delay * BACKOFF_FACTOR, BACKOFF_MAX)
                continue
            if reply.HasField("error"):
                if reply.error.code == mpb.ERROR_CODE_RESUME_FAILED and self.room_id is None:
                    # A session with no place is forgotten once its connection drops:
                    # nothing was lost, so start a new one.
                    try:
                        await ws.send(mpb.ClientMessage(hello=mpb.Hello(
                            protocol_version=PROTOCOL_VERSION, display_name=self.name,
                            account_token=self.account_token, batched=self.batched,
                            no_takeover=not self.take_over)
                        ).SerializeToString())
                        answer = mpb.ServerMessage.FromString(
                            await ws.recv())  # type: ignore[arg-type]
                    except ConnectionClosed as exc:
                        raise ConnectionLostError(f"could not start over: {exc!r}") from exc
                    if answer.HasField("error"):
                        await ws.aclose()
                        if store_refused(answer.error) and \
                                trio.current_time() + delay <= deadline:
                            await trio.sleep(delay)  # (can't save now: try again)
                            delay = min(delay * BACKOFF_FACTOR, BACKOFF_MAX)
                            continue
                        raise ConnectionLostError(f"hello refused: {answer.error.message}")
                    if answer.HasField("resumed"):
                        # The account's session is in a room (taken over elsewhere): this
                        # Hello took it over here, place included.
                        self._took_over(answer.resumed)
                        self.batching = answer.resumed.welcome.batched
                    else:
                        self._welcomed(answer.welcome)
                        self.batching = answer.welcome.batched
                    self._ws = ws
                    return
                await ws.aclose()
                raise ConnectionLostError(f"resume refused: {reply.error.message}")
            resumed = reply.resumed
            watching = self._watching  # (the room its last accepted join as a spectator chose)
            self._took_over(resumed)
            self.batching = resumed.welcome.batched
            self.resumes += 1
            self.missed_deltas += resumed.deltas
            self.resume_snapshots += int(resumed.snapshot)
            try:
                await self._watch_again(ws, watching)
            except ConnectionClosed as exc:  # dropped again: resume the resumed session
                if trio.current_time() + delay > deadline:
                    raise ConnectionLostError(f"could not resume: {exc!r}") from exc
                await trio.sleep(delay)
                delay = min(delay * BACKOFF_FACTOR, BACKOFF_MAX)
                continue
            self._ws = ws
            if self._want_snapshot:
                self._want_snapshot = False
                with suppress(ConnectionClosed):  # (then the next resume asks from 0)
                    await ws.send(mpb.ClientMessage(
                        request_snapshot=mpb.RequestSnapshot()).SerializeToString())
            return

    async def _watch_again(self, ws: ClientConnection,
                           watching: tuple[str, int, str] | None) -> None:
        """After a resume that found this spectator in no room, or watching a room it had
        left for ``watching`` (the room it last joined as a spectator), join that room
        again, and return once the server answered. The server stores a spectator's place
        without waiting for the commit, so a crash in the tenth of a second after its join
        loses it (docs/operating.md, "Restarts and crashes") and the restarted server has the place
        before it; a spectator holds nothing else, so it leaves that room and joining again
        puts it back where it was (a new Snapshot follows the Joined). The answer and
        anything before it are queued for :meth:`next_message`; if the room is gone, the
        client stays in the lobby."""
        if watching is None:
            return
        room_id, tier, code = watching
        if self.room_id is not None:
            if self._watching is None or self.room_id == room_id:
                return  # resumed in its seat, or where it watched
            # Resumed watching an earlier room: the move to the latest one was lost.
            await ws.send(mpb.ClientMessage(leave_room=mpb.LeaveRoom()).SerializeToString())
            self.room_id = None
        self._next_request += 1
        rid = self._next_request
        await ws.send(mpb.ClientMessage(request_id=rid, join_room=mpb.JoinRoom(
            room_id=room_id, role=mpb.ROLE_SPECTATOR, invite_code=code, tier=tier)
        ).SerializeToString())
        with trio.move_on_after(REJOIN_SECONDS):
            while True:
                got = self._messages_of(await ws.recv())
                self._queued.extend(got)
                for _raw, msg in got:
                    if msg.request_id != rid:
                        continue
                    if msg.HasField("joined"):
                        self._placed(msg.joined)
                    else:  # the room is gone (or refuses the spectator now)
                        self._watching = None
                    return
        self._watching = None  # no answer in time: the client stays in the lobby

    def _messages_of(self, data: bytes | str) -> list[tuple[bytes | None, mpb.ServerMessage]]:
        """The messages of a received frame, each with its bytes if it is a plain frame
        (the rest of a ServerBatch has none)."""
        frame = data if isinstance(data, bytes) else data.encode()
        if self.batching:
            return [(None, m) for m in read_batch(frame)]
        return [(frame, mpb.ServerMessage.FromString(frame))]

    @property
    def connected(self) -> bool:
        """Whether a connection is open (False while resuming after a drop)."""
        return self._ws is not None

    async def _resume_once(self, epoch: int) -> None:
        """Resume after the connection of ``epoch`` dropped -- unless another task did
        meanwhile (one task may act while another receives: both see the drop)."""
        async with self._resume_lock:
            if self._epoch == epoch or self._ws is None:
                await self._resume()

    async def _connection(self) -> ClientConnection:
        """The open connection -- once a resume a cancelled task left unfinished has been
        made; :class:`ConnectionLostError` if there is none."""
        if self._ws is None and self._resume_cut and self.reconnect:
            await self._resume_once(self._epoch)
        if self._ws is None:
            raise ConnectionLostError("not connected")
        return self._ws

    async def _send(self, msg: mpb.ClientMessage) -> None:
        data = msg.SerializeToString()
        if len(data) > MAX_MESSAGE:  # (the server would close the connection: 1009)
            raise ValueError(f"not sent: a {len(data):,}-byte message is over the protocol's "
                             f"{MAX_MESSAGE // 1024} KiB limit for client messages (a deck "
                             f"list may have at most 32 KiB)")
        ws = await self._connection()
        epoch = self._epoch
        try:
            await ws.send(data)
        except ConnectionClosed as exc:
            if not self._resumable(exc):
                raise ConnectionEndedError.of(exc) from exc
            # The message is lost; the current decision comes again.
            await self._resume_once(epoch)

    async def request(self, msg: mpb.ClientMessage) -> mpb.ServerMessage:
        """Send a request and process messages until its reply; raise ServerError on Error,
        :class:`ConnectionLostError` if the connection dropped before the reply came."""
        self._next_request += 1
        return await self._request_with_id(self._next_request, msg)

    async def _request_with_id(self, rid: int, msg: mpb.ClientMessage) -> mpb.ServerMessage:
        msg.request_id = rid
        await self._connection()  # (a resume cut short goes first: not this request's drop)
        epoch = self._epoch
        self._requesting = epoch
        try:
            await self._send(msg)
            while True:
                if self._epoch != epoch:
                    raise ConnectionLostError("the connection dropped before the reply")
                reply = await self.next_message()
                if reply.request_id == msg.request_id and self._epoch == epoch:
                    if reply.HasField("error"):
                        raise ServerError(reply.error.code, reply.error.message,
                                          list(reply.error.details),
                                          incident_id=reply.error.incident_id)
                    return reply
        finally:
            self._requesting = None

    async def next_message(self) -> mpb.ServerMessage:
        """Receive one message and fold it into the mirror and the pending decision
        (resuming first if the connection dropped)."""
        while not self._queued:
            ws = await self._connection()
            epoch = self._epoch
            try:
                self._queued.extend(self._messages_of(await ws.recv()))
                continue
            except ConnectionClosed as exc:
                if not self._resumable(exc):
                    raise ConnectionEndedError.of(exc) from exc
                await self._resume_once(epoch)
                if self._requesting is not None:  # its reply is lost: don't wait for it
                    raise ConnectionLostError("the connection dropped before the reply") \
                        from exc
        raw, msg = self._queued.popleft()
        if self.on_raw is not None:
            self.on_raw(msg.SerializeToString() if raw is None else raw)
        body = msg.WhichOneof("body")
        if body is None and raw is not None and raw[:1] == b"\x0a":
            # A ServerBatch frame read as one message (field 1 is never length-delimited in
            # a ServerMessage): the framing went wrong -- never drop messages silently. (A
            # message of a newer kind this client doesn't know is skipped, as ever.)
            raise ProtocolError("a batched frame was read as a single message")
        if (body == "welcome" and msg.welcome.batched) or \
                (body == "resumed" and msg.resumed.welcome.batched):
            self.batching = True  # every later frame is a ServerBatch
        if self._left is not None and (body == "delta" or (
                body == "snapshot" and msg.snapshot.room_id == self._left)):
            # Still in flight from the room this client waited to leave (a spectator's
            # feed may send after the server has read the LeaveRoom): not this view's.
            return msg
        if body == "snapshot":
            self.mirror.load_snapshot(msg.snapshot)
            self.room_id = msg.snapshot.room_id
        elif body == "delta":
            try:
                self.mirror.apply_delta(msg.delta)
                self.deltas += 1
            except MirrorDesyncError:
                self.resyncs += 1
                await self._send(mpb.ClientMessage(request_snapshot=mpb.RequestSnapshot()))
        elif body == "decision":
            self.decision = msg.decision
        elif body == "clocks":
            self.clocks = {c.seat: c for c in msg.clocks.seats}
        elif body == "presence":
            self.presence = {p.seat: p.connected for p in msg.presence.seats}
        elif body == "match_state":
            self.match = msg.match_state
        elif body == "replay_status":
            # A replay's view follows its answer: never the view of a room this client left
            # (anything still in flight from that room came before it).
            self._left = None
        elif body == "deck_accepted":
            self._deck_for = msg.deck_accepted.game_number
            self.deck_text = msg.deck_accepted.deck or self.deck_text
        elif body == "joined":
            self._placed(msg.joined)
            self.match = None
        elif body == "room_update" and msg.room_update.room.room_id == self.room_id:
            self.room = msg.room_update.room  # a seat taken or freed before the start
        elif body == "room_closed" and msg.room_closed.room_id in (self.room_id, ""):
            # (a room this client already left for another, closing late, changes nothing)
            self.room_id = None
            self._watching = None
            self.closed = msg.room_closed
        elif body == "notice":
            self.notices.append(msg.notice)  # told, nothing more: no error, no decision
        elif body == "rematch_offers" and msg.rematch_offers.room_id == self.room_id:
            self.rematch = msg.rematch_offers
        elif body == "rematch_started":
            started = msg.rematch_started
            self.rematch_started = started
            if started.invite_code and started.new_room_id:
                self.invite_codes[started.new_room_id] = started.invite_code
            if started.audience_code and started.new_room_id:
                self.audience_codes[started.new_room_id] = started.audience_code
        elif body == "error" and msg.error.code == mpb.ERROR_CODE_RATE_LIMITED:
            # The server dropped a message for rate: slow down; an answer it dropped is
            # pending again once the wait is over.
            self.rate_limited += 1
            await trio.sleep(RATE_LIMITED_PAUSE)
            if self.decision is None and self._answered is not None and \
                    self.mirror.header.pending.prompt_id == self._answered.prompt_id:
                self.decision = self._answered
        elif body == "error" and no_rematch(msg) is not None and self.finished:
            # Every player offered, but the rematch can't be made: the old room let its
            # players go (they are in no room any more), and the offers say why.
            self.errors.append(msg.error)
            offers = self.rematch
            self.rematch = mpb.RematchOffers(
                room_id=self.room_id or (offers.room_id if offers is not None else ""),
                offered=list(offers.offered) if offers is not None else [],
                cancelled=no_rematch(msg) or "")
            self.room_id = None
            self.decision = None
        elif body == "error" and msg.request_id == 0:
            self.errors.append(msg.error)
            # A refused answer (an Act carries no request id): the decision is still this
            # client's to answer while the game still waits on it -- or the client would
            # wait for a decision that never comes again, until its clock ran out.
            if self.decision is None and self._answered is not None and \
                    self.mirror.header.pending.prompt_id == self._answered.prompt_id:
                self.decision = self._answered
        return msg

    async def messages(self) -> AsyncIterator[mpb.ServerMessage]:
        """Process and yield pushed messages forever (until the connection closes)."""
        while True:
            yield await self.next_message()

    # ---- lobby
    async def list_rooms(self) -> list[mpb.RoomInfo]:
        """Every public room on the server (private rooms are never listed)."""
        reply = await self.request(mpb.ClientMessage(list_rooms=mpb.ListRooms()))
        return list(reply.room_list.rooms)

    async def create_room(self, name: str, seats: int = 2, clock_seconds: int = 0, *,
                          private: bool = False,
                          spectate: mpb.Spectate = mpb.SPECTATE_UNSPECIFIED,
                          deck_format: mpb.DeckFormat = mpb.DECK_FORMAT_CONSTRUCTED,
                          reserved: tuple[str, ...] = (), best_of: int = 0,
                          tiers: tuple[mpb.SpectatorTier, ...] = ()) -> mpb.RoomInfo:
        """Create a room; returns its info (join it to take a seat). Its invite code is
        kept in :attr:`invite_codes` (give it to the players of a private room).
        ``spectate`` unspecified lets the server choose: anyone may watch a public room, a
        private one only with its code. ``best_of`` 3 or 5: a match of several games
        between two players (0 or 1: a single game); ``tiers``: delayed spectator tiers."""
        reply = await self.request(mpb.ClientMessage(create_room=mpb.CreateRoom(
            name=name, seats=seats, clock_seconds=clock_seconds, private=private,
            spectate=spectate, format=deck_format, reserved=reserved, best_of=best_of,
            tiers=tiers)))
        created = reply.room_created
        self.invite_codes[created.room.room_id] = created.invite_code
        self.audience_codes[created.room.room_id] = created.audience_code
        return created.room

    async def create_and_join(self, name: str, seats: int = 2, clock_seconds: int = 0, *,
                              deck: str = "", private: bool = False,
                              spectate: mpb.Spectate = mpb.SPECTATE_UNSPECIFIED,
                              deck_format: mpb.DeckFormat = mpb.DECK_FORMAT_CONSTRUCTED,
                              reserved: tuple[str, ...] = (), best_of: int = 0,
                              tiers: tuple[mpb.SpectatorTier, ...] = (), computers: int = 0
                              ) -> tuple[mpb.RoomInfo, mpb.Joined]:
        """Create a room and take a seat in it with ``deck`` (as :meth:`join`), in one
        request (``CreateRoom.join``): the server checks the deck first, so a deck that
        can't be played raises :class:`ServerError` (``ERROR_CODE_INVALID_DECK``, every problem
        in ``details``) and creates no room. Otherwise as :meth:`create_room`;
        returns the room's info and the ``Joined``. ``computers``: computer players the
        server runs take that many of the other seats at once (``RoomInfo.computers``); with
        ``seats - 1`` of them the game starts at once -- a game against the computer."""
        self._next_request += 1
        rid = self._next_request
        reply = await self._request_with_id(rid, mpb.ClientMessage(create_room=mpb.CreateRoom(
            name=name, seats=seats, clock_seconds=clock_seconds, private=private,
            spectate=spectate, format=deck_format, reserved=reserved, best_of=best_of,
            tiers=tiers, join=True, deck=deck, computers=computers)))
        created = reply.room_created
        self.invite_codes[created.room.room_id] = created.invite_code
        self.audience_codes[created.room.room_id] = created.audience_code
        self._watching = None
        epoch = self._epoch
        self._requesting = epoch
        try:
            while True:  # the Joined (or the join's error) follows, with the same id
                msg = await self.next_message()
                if self._epoch != epoch:
                    raise ConnectionLostError("the connection dropped before the reply")
                if msg.request_id == rid and msg.HasField("joined"):
                    return created.room, msg.joined
                if msg.request_id == rid and msg.HasField("error"):
                    raise ServerError(msg.error.code, msg.error.message,
                                      list(msg.error.details),
                                      incident_id=msg.error.incident_id)
        finally:
            self._requesting = None

    async def join(self, room_id: str, *, spectator: bool = False, deck: str = "",
                   invite_code: str = "", tier: int = 0) -> mpb.Joined:
        """Join a room as a player (default) or spectator (of delayed ``tier`` n, or the
        live public view); ``deck``: a deck list in any accepted format or a demo deck name
        (empty: a demo deck). ``invite_code``: the room's invite code -- or, to watch, its
        audience code (a player's join with it is refused). The code of a room this client
        created (or was told of by a rematch) is sent by itself."""
        role = mpb.ROLE_SPECTATOR if spectator else mpb.ROLE_PLAYER
        code = invite_code or self._known_code(room_id, spectator)
        reply = await self.request(mpb.ClientMessage(join_room=mpb.JoinRoom(
            room_id=room_id, role=role, deck=deck, invite_code=code, tier=tier)))
        self._watching = (room_id, tier, code) if spectator else None
        return reply.joined

    async def send_join(self, room_id: str, *, spectator: bool = False, invite_code: str = "",
                        tier: int = 0) -> int:
        """:meth:`join` without waiting for the answer (for a client whose messages another
        task receives: the terminal spectator following a rematch): returns the request id
        its ``Joined`` or ``Error`` will carry."""
        role = mpb.ROLE_SPECTATOR if spectator else mpb.ROLE_PLAYER
        code = invite_code or self._known_code(room_id, spectator)
        self._next_request += 1
        rid = self._next_request
        await self._send(mpb.ClientMessage(request_id=rid, join_room=mpb.JoinRoom(
            room_id=room_id, role=role, invite_code=code, tier=tier)))
        self._watching = (room_id, tier, code) if spectator else None
        return rid

    def _known_code(self, room_id: str, spectator: bool) -> str:
        """The code this client knows for ``room_id``: its invite code; for a spectator
        told only the audience code (a rematch's live spectator), that."""
        code = self.invite_codes.get(room_id, "")
        return code or (self.audience_codes.get(room_id, "") if spectator else "")

    async def quick_match(self, *, seats: int = 2, deck: str = "",
                          deck_format: mpb.DeckFormat = mpb.DECK_FORMAT_CONSTRUCTED
                          ) -> mpb.Joined:
        """Queue for a game and wait until the server seats this client (the Joined);
        cancel the wait (trio cancellation) to stay queued, or call
        :meth:`cancel_quick_match`."""
        self._next_request += 1
        rid = self._next_request
        queued = await self._request_with_id(rid, mpb.ClientMessage(quick_match=mpb.QuickMatch(
            format=deck_format, seats=seats, deck=deck)))
        assert queued.HasField("match_queue")
        epoch = self._epoch
        self._requesting = epoch  # a drop leaves the queue: don't wait on after it
        try:
            while True:
                msg = await self.next_message()
                if self._epoch != epoch:
                    raise ConnectionLostError("the connection dropped while queued (which "
                                              "leaves the queue): queue again")
                if msg.request_id == rid and msg.HasField("joined"):
                    return msg.joined
                if msg.request_id == rid and msg.HasField("error"):
                    raise ServerError(msg.error.code, msg.error.message,
                                      list(msg.error.details),
                                      incident_id=msg.error.incident_id)
        finally:
            self._requesting = None

    async def cancel_quick_match(self) -> mpb.MatchQueue:
        """Leave the quick-match queue."""
        reply = await self.request(mpb.ClientMessage(cancel_quick_match=mpb.CancelQuickMatch()))
        return reply.match_queue

    # ---- account
    async def register(self, name: str, password: str) -> mpb.Account:
        """Make this (guest) account a registered one, signed in later with ``login``."""
        reply = await self.request(mpb.ClientMessage(register=mpb.Register(
            name=name, password=password)))
        self._welcomed(reply.welcome)
        return reply.welcome.account

    async def revoke_tokens(self) -> str:
        """Void every token of this account; returns (and keeps) the new one."""
        reply = await self.request(mpb.ClientMessage(revoke_tokens=mpb.RevokeTokens()))
        self._welcomed(reply.welcome)
        return self.account_token

    # ---- game
    @property
    def my_decision(self) -> pb.Decision | None:
        """The pending decision if it is this client's and still current, else None."""
        d = self.decision
        pending = self.mirror.header.pending
        if (d is None or self.mirror.game_over or not self.mirror.header.HasField("pending")
                or pending.prompt_id != d.prompt_id):
            return None
        return d

    async def act(self, option_index: int) -> None:
        """Answer the current decision with one of its options (fire and forget: the
        decision is cleared, and what follows comes as pushed messages). If the server
        refuses the answer (an error with request id 0, kept in :attr:`errors`) while the
        game still waits on that decision, the decision is current again, to answer anew.
        Raises RuntimeError if no decision is this client's, IndexError for an option the
        decision doesn't have (nothing is sent)."""
        d = self.my_decision
        if d is None:
            raise RuntimeError("no decision is pending for this client")
        if not 0 <= option_index < len(d.options):
            raise IndexError(f"option {option_index} of a decision with {len(d.options)} "
                             f"options")
        self.decision = None
        self._answered = d
        await self._send(mpb.ClientMessage(act=mpb.Act(
            prompt_id=d.prompt_id, option_index=option_index,
            expected_state_id=self.mirror.state_id)))

    async def concede(self, *, wait: bool = False) -> None:
        """Concede the game (rule 104.3a). Fire and forget by default: a refusal comes as
        an error with request id 0, kept in :attr:`errors`. ``wait``: send it with a
        request id and wait for the answer -- the ``Delta`` that shows the concession
        (folded into :attr:`mirror` as ever), or :class:`ServerError` if the server refuses
        (``GAME_OVER``, ``NOT_YOUR_DECISION`` for a spectator, ...). A client whose
        messages another task receives doesn't wait."""
        if wait:
            await self.request(mpb.ClientMessage(concede=mpb.ConcedeGame()))
            return
        await self._send(mpb.ClientMessage(concede=mpb.ConcedeGame()))

    # ---- rematch (protocol/README.md, "Rematch")
    async def offer_rematch(self, offer: bool = True) -> mpb.RematchOffers:
        """Once the game (of a match, the match) is over, offer the other players a rematch
        (``offer`` False: withdraw the offer). When every player has offered, the server
        makes a new room with the same settings and seats each player there, in the same
        seat, with the deck it registered for this room: :attr:`rematch_started`, then the
        new room's ``Joined`` (this client follows it: :attr:`room_id` becomes the new
        room's). Returns who offers now; :class:`ServerError` if refused (NOT_READY before
        the game is over, NOT_YOUR_DECISION for a spectator, INVALID_ARGUMENT once a
        player has left)."""
        reply = await self.request(mpb.ClientMessage(
            offer_rematch=mpb.OfferRematch(offer=offer)))
        return reply.rematch_offers

    async def send_rematch(self, offer: bool = True) -> int:
        """:meth:`offer_rematch` without waiting for the answer (for a client whose messages
        another task receives): returns the request id its ``RematchOffers`` or ``Error``
        will carry."""
        self._next_request += 1
        rid = self._next_request
        await self._send(mpb.ClientMessage(request_id=rid,
                                           offer_rematch=mpb.OfferRematch(offer=offer)))
        return rid

    # ---- matches (protocol/README.md, "Matches")
    @property
    def finished(self) -> bool:
        """Whether the room's play is over: its single game, or its match of several
        games (MatchState.phase OVER)."""
        if self.best_of <= 1:
            return self.mirror.game_over
        return self.match is not None and self.match.phase == mpb.MATCH_PHASE_OVER

    @property
    def must_sideboard(self) -> bool:
        """Whether the match is between games and waits for this player's deck (keep it
        with :meth:`keep_deck`, or :meth:`submit_deck`)."""
        match = self.match
        seat = self.seat
        if match is None or match.phase != mpb.MATCH_PHASE_SIDEBOARDING or seat is None \
                or seat < 0 or self._deck_for == match.game_number:
            return False
        return not (seat < len(match.ready) and match.ready[seat])

    async def keep_deck(self) -> mpb.DeckAccepted:
        """Between games of a match: play the next game with the current deck."""
        return await self._submit(mpb.SubmitDeck(keep=True))

    async def submit_deck(self, deck: str) -> mpb.DeckAccepted:
        """Between games of a match: play the next game with ``deck`` (a deck list in any
        accepted format), made of exactly the cards registered, main deck and sideboard
        together (rule 100.4); :class:`ServerError` lists every problem otherwise."""
        return await self._submit(mpb.SubmitDeck(deck=deck))

    async def _submit(self, body: mpb.SubmitDeck) -> mpb.DeckAccepted:
        reply = await self.request(mpb.ClientMessage(submit_deck=body))
        return reply.deck_accepted

    async def explain_card(self, object_id: str) -> mpb.CardExplanation:
        """Why this player can't cast the card ``object_id`` now (``ExplainCard``,
        protocol/README.md "Why a card can't be cast"): ``castable``, else ``reason`` in
        words with the rules' numbers. Waits for the answer -- a client whose messages
        another task receives uses :meth:`send_explain_card`."""
        reply = await self.request(mpb.ClientMessage(
            explain_card=mpb.ExplainCard(object_id=object_id)))
        return reply.card_explanation

    async def send_explain_card(self, object_id: str) -> int:
        """:meth:`explain_card` without waiting for the answer: returns the request id its
        ``CardExplanation`` or ``Error`` will carry."""
        self._next_request += 1
        rid = self._next_request
        await self._send(mpb.ClientMessage(request_id=rid,
                                           explain_card=mpb.ExplainCard(object_id=object_id)))
        return rid

    async def send_deck(self, *, keep: bool = False, deck: str = "") -> int:
        """:meth:`keep_deck` or :meth:`submit_deck` without waiting for the answer (for a
        client whose messages another task receives): returns the request id its
        ``DeckAccepted`` or ``Error`` will carry."""
        self._next_request += 1
        rid = self._next_request
        body = mpb.SubmitDeck(keep=True) if keep else mpb.SubmitDeck(deck=deck)
        await self._send(mpb.ClientMessage(request_id=rid, submit_deck=body))
        return rid

    async def replay(self, room_id: str, *, seat: int | None = None, omniscient: bool = False,
                     every_hand: bool = False, invite_code: str = "", start_action: int = 0,
                     start_turn: int = 0, speed: float = 0.0, paused: bool = False
                     ) -> mpb.ReplayStatus:
        """Replay the finished game ``room_id`` (protocol/README.md, "Replays") as its
        spectators saw it, or as ``seat`` did (that seat's account, or a delayed tier's
        audience of that seat), or with ``every_hand`` every hand (its players, and its
        every-hand tier's audience), or with ``omniscient`` every card (its players only);
        from its start, after
        ``start_action`` actions or at the beginning of ``start_turn``; ``speed`` actions a
        second (0: as fast as this client reads). Its Snapshot and Deltas then fill
        :attr:`mirror` as :meth:`next_message` reads them, up to ``ReplayEnded``; steer it
        with ``ReplayControl`` requests. Returns the answering ``ReplayStatus``
        (:class:`ServerError` if the server refuses)."""
        request = mpb.ReplayRequest(room_id=room_id, invite_code=invite_code, speed=speed,
                                    paused=paused)
        if omniscient:
            request.omniscient = True
        elif every_hand:
            request.every_hand = True
        elif seat is not None:
            request.seat = seat
        else:
            request.public = True
        if start_turn:
            request.start_turn = start_turn
        else:
            request.start_action = start_action
        return (await self.request(mpb.ClientMessage(replay=request))).replay_status

    async def leave_room(self, *, wait: bool = False) -> None:
        """Leave the room: a seated player of a running game concedes it (rule 104.3a).
        Not answered; the connection is back in the lobby once the server has read it. In
        no room (it closed, or was left), nothing is sent: the server would answer
        ``NOT_READY`` ("not in a room"), an error in :attr:`errors` with request id 0.

        ``wait``: also wait until it has -- the answer to a ``ListRooms`` sent after it
        comes after everything the room sent before -- and then forget the room (its
        mirror, match, clocks and presence start afresh), so that nothing it sent is
        taken for the next room's (a client resumed into a room whose game is over, say);
        a view of it still in flight (a spectator's feed) is ignored until this client is
        placed in a room again."""
        left = self.room_id
        if left is not None:
            await self._send(mpb.ClientMessage(leave_room=mpb.LeaveRoom()))
        self.room_id = None
        self._watching = None
        self.decision = None
        if wait:
            await self.list_rooms()
            self._left = left  # (until this client is placed in a room again)
            self._forget_room()

    def _forget_room(self) -> None:
        """Start afresh what this client knows of a room: the mirror (the same object,
        cleared: a board holding it draws the next room's game), match, decision, clocks and
        presence."""
        self.mirror.clear()
        self.room_id, self.seat, self.room, self.match = None, None, None, None
        self.decision, self._answered = None, None
        self.clocks, self.presence = {}, {}
        self._deck_for = 0
        self.deck_text = ""
        self.rematch = None


def no_rematch(msg: mpb.ServerMessage) -> str | None:
    """Why the rematch can't be made, if ``msg`` is the server's word that it can't (every
    player offered, but a player went to another game, a room limit was reached...); else
    None."""
    if msg.WhichOneof("body") != "error" or msg.request_id or \
            msg.error.code != mpb.ERROR_CODE_LIMIT_REACHED or \
            not msg.error.message.startswith(NO_REMATCH):
        return None
    return msg.error.message.removeprefix(NO_REMATCH).strip() or "the server made none"


def read_batch(frame: bytes) -> list[mpb.ServerMessage]:
    """The messages of a ServerBatch frame, in order; :class:`ProtocolError` if the frame
    isn't one (the server never sends an empty batch)."""
    try:
        messages = list(mpb.ServerBatch.FromString(frame).messages)
    except DecodeError as exc:
        raise ProtocolError(f"an undecodable ServerBatch frame: {exc}") from None
    if not messages:
        raise ProtocolError("a ServerBatch frame with no messages")
    return messages
