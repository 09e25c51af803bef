"""Wiring: client connections from hello (or resume) to goodbye, independent of the transport.

The transport hands :meth:`App.handle_connection` a :class:`Socket`; tests can hand it a
trio memory-stream pair instead of a WebSocket.

Accounts and sessions (``Hello``, ``Resume``, ``Register``, ``RevokeTokens``) are
:class:`server.sessions.SessionDesk`'s: a resumed session takes its place in a room back on
the new connection (an older connection still holding it is closed with
:data:`~server.sessions.CLOSE_REPLACED`). Which room a connection is in is decided by that
room's answer to the join (a refused join leaves the connection where it was); its seat is
the room's own record.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import assert_never

import trio

from protocol.v1 import messages_pb2 as mpb
from server.accounts import Accounts
from server.cards import demo_deck_names
from server.create_desk import CreateDesk
from server.deck_checks import DeckCheckRefused, DeckChecks
from server.decks import Deck, DeckFormat
from server.decks.names import pool_note
from server.incidents import new_incident
from server.quickmatch import QuickMatchDesk
from server.ratelimit import MessageLimiter, Verdict
from server.refusals import Refusals
from server.rematch import RematchDesk
from server.replay_desk import ReplayDesk
from server.rooms import commands as cmd
from server.rooms import session as req
from server.rooms.admission import BUSY_INTERVAL, WatchGate
from server.rooms.commands import ConnId
from server.rooms.lobby import MAX_ROOMS, Lobby
from server.rooms.pump import RoomGoneError, RoomHost, Ticket
from server.rooms.relay import Relay
from server.rooms.replaying import ReplayRunner
from server.rooms.room import Room, RoomConfig, no_room
from server.rooms.session import Session, SessionError, error_bytes, request_id_of
from server.sending import (
    BIG_MESSAGE,
    OUTBOX_BYTES,
    DirectSocket,
    ImmediateSocket,
    OutboxBytes,
    SendNow,
    Socket,
    SocketClosed,
    Writers,
)
from server.sessions import SessionDesk, _SessionRecord
from server.status import Activity, Gauges
from server.store import Store
from server.store.records import AbortGame, AppendAction, PutSession
from server.store.writer import StoreUnwritableError, StoreWriter
from server.transport.batch import FEED_WAKE, FLUSH, Batcher
from server.view.wire import with_request_id

log = logging.getLogger("manawire")


@dataclass(frozen=True)
class Limits:
    """The server's limits (docs/limits.md, "Limits"); every one answers with a clear error or
    close reason."""

    outbox_size: int = 1024  # messages queued for one client before it is disconnected
    #: Bytes of messages of :data:`BIG_MESSAGE` bytes or more queued for one client before
    #: it is disconnected (one such message alone is always queued): a client that asks for
    #: big answers and never reads held 1,024 of them (a 568 KB room list each: 12.6 MB a
    #: connection, ~1 GB from 64 of them).
    outbox_bytes: int = OUTBOX_BYTES
    #: Seconds a connection has to send its first Hello or Resume before it is closed
    #: (1008): one that never did held its per-address place and socket for ever.
    hello_seconds: float = 10.0
    send_timeout: float = 10.0  # seconds one send may take before the client is dropped
    max_rooms: int = MAX_ROOMS  # rooms on this server
    max_rooms_per_account: int = 4  # live rooms one account has created
    #: Rooms whose game hasn't started that connections from one address have created
    #: (guest accounts are free: this bounds what one client can hold of the room cap).
    max_waiting_rooms_per_address: int = 16
    #: Open rooms, started or not, that connections from one address have created (a room
    #: counts until it closes).
    max_rooms_per_address: int = 64
    #: Rooms made for one client address -- created from it (CreateRoom), or made by the
    #: server for players at it (a quick match's table, a rematch): a burst, then this many
    #: a minute. A finished room counts for none of the limits above, and every game is
    #: stored for good: conceding and rematching the computer made ~6 rooms a second.
    room_burst: int = 60
    rooms_per_minute: float = 30.0
    #: Client messages per second per connection (a token bucket refilled at this rate).
    messages_per_second: float = 20.0
    #: Messages a connection may send at once before the bucket runs dry.
    message_burst: int = 60
    #: Strikes (messages refused for rate, forgiven at one per second) at which the
    #: connection is closed (1008); see server/ratelimit.py.
    rate_strikes: int = 200
    #: Open connections one client address may hold; the handshake answers HTTP 503 past it.
    max_connections_per_address: int = 64
    #: Plain HTTP requests (the web client's files) one client address may have in flight,
    #: each until its answer is sent; past it the request is answered HTTP 503.
    max_http_requests_per_address: int = 16
    #: New guest accounts one client address may create: a burst, then this many a minute
    #: (every credential-less Hello stores an account; a returning client shows its token).
    guest_burst: int = 200
    guests_per_minute: float = 60.0
    #: Failed sign-ins with one account name within ``login_window`` seconds after which
    #: more are refused unchecked until the window has passed (password guessing).
    login_failures: int = 5
    login_window: float = 60.0
    #: Password checks (sign-ins with a name, registrations) one client address may ask
    #: for: a burst, then this many a minute. Each costs ~50 ms of a worker thread, and
    #: one address runs one at a time, so no address can keep the others' waiting.
    password_check_burst: int = 10
    password_checks_per_minute: float = 30.0
    #: Seconds a session whose room closed while it was away can still resume (to learn
    #: that its room is gone) before it is forgotten.
    session_ttl: float = 3600.0
    #: Days a guest account nobody uses (no Hello or Resume with it) is kept; 0: for ever.
    guest_days: float = 90.0
    #: Replays running at once on this server (one per connection at most), and for one
    #: client address.
    max_replays: int = 200
    max_replays_per_address: int = 4
    #: Spectators are sent their view class's news at most this often (seconds): one
    #: frame per flush with everything since the last (players are never delayed).
    spectator_flush_seconds: float = 0.1
    #: Messages a spectator feed keeps for its slowest watcher; one further behind is
    #: disconnected (1013) and resumes.
    spectator_feed_messages: int = 4096
    #: Spectator writers the relay wakes per scheduler round (spreads their sends).
    relay_wake_batch: int = 8
    #: Seconds between spectators' joins let in while the event loop is busy (0: never
    #: paced; see server/rooms/admission.py).
    spectator_join_interval: float = BUSY_INTERVAL
    #: Seconds a delayed tier that shows hidden cards (every hand, a seat's view) is behind
    #: at least: whoever the room's creator lets watch it, a player's second account among
    #: them, sees the players' hands only that long after (0: any delay).
    hidden_tier_seconds: float = 60.0
    room: RoomConfig = field(default_factory=RoomConfig)


CLOSE_SERVICE_RESTART = 1012  # RFC 6455: the server restarts; resume after it is back
CLOSE_TOO_SLOW = 1013  # RFC 6455 "try again later": the client fell behind
CLOSE_INTERNAL = 1011  # RFC 6455: an unexpected condition (an incident id is logged)
#: What a demo deck's name looks like (anything else is read as a deck list).
_DEMO_NAME = re.compile(r"[a-z][a-z0-9-]*")
#: What a session for replays only (Hello.replays_only) may ask: the room list and replays.
_SIDE_REQUESTS = (req.ListRooms, req.StartReplay, req.ControlReplay, req.LeaveRoom,
                  req.RequestSnapshot)
CLOSE_POLICY = 1008  # RFC 6455 policy violation: sustained flooding past the message rate
#: The requests that begin a session (a connection's first Hello or Resume lifts its
#: deadline, Limits.hello_seconds): a tuple, which isinstance checks faster than a union.
_GREETINGS = (req.Hello, req.Resume)
#: RFC 6455 "try again later" (as CLOSE_TOO_SLOW): a Hello or Resume the store couldn't
#: record (a full disk: server.store.health); the reason says so.
CLOSE_STORE = 1013
#: Longest wait for a room's answer to a join or resume, even for a closing connection.
SETTLE_SECONDS = 30.0


@dataclass(eq=False, slots=True)
class _Connection:
    """One client's connection state, owned by its :meth:`App.handle_connection` task."""

    conn_id: ConnId
    session: Session
    send: trio.MemorySendChannel[bytes]
    limiter: MessageLimiter
    #: The connection's nursery's scope, once it runs (cancelling it ends the connection).
    scope: trio.CancelScope | None = None
    record: _SessionRecord | None = None
    host: RoomHost | None = None
    #: The room a join or resume of this connection is being answered by (_settle), and
    #: what is set once its answer is recorded.
    entering: str | None = None
    settled: trio.Event | None = None
    #: The client's address (Socket.address).
    address: str = ""
    #: The quick-match queue this connection waits in (and until its room is settled).
    queued: tuple[DeckFormat, int] | None = None
    close_code: int = 0
    close_reason: str = ""
    #: The client's latest Hello or Resume asked for ServerBatch frames; the writer starts
    #: batching after it has sent the Welcome or Resumed that confirms it.
    batch_requested: bool = False
    #: The replay this connection is watching (then it is in no room), and the nursery its
    #: task runs in (the connection's own).
    replay: ReplayRunner | None = None
    nursery: trio.Nursery | None = None
    #: The socket (for a relay process's client: what routes its view stream there).
    sock: Socket | None = None
    #: A relay process's client: its messages go straight onto the link, in order (the
    #: relay queues, batches and sends them); no outbox or writer task here.
    direct: Callable[[bytes], bool] | None = None
    #: It watches its room as a spectator (it joined as one).
    spectating: bool = False
    #: The socket, if it can write a message at once (see :meth:`write_now`).
    immediate: ImmediateSocket | None = None
    #: Its framing (plain frames until the confirming Welcome, then batches).
    batcher: Batcher = field(default_factory=Batcher)
    #: The writer task waits for the outbox, which is empty, and nothing is on its way to
    #: it (:meth:`reply` clears this): a message may be written from another task.
    writer_idle: bool = False
    #: The game command sent to its room and not yet handled there, if any: the next
    #: message is handled only after it (see :meth:`App._read`).
    in_flight: Ticket | None = None
    #: A request of its own that may put it in a room, the queue or a replay is being
    #: answered (JoinRoom, CreateRoom, QuickMatch, StartReplay): a room coming back doesn't
    #: seat it meanwhile (App._room_resumed).
    placing: bool = False
    #: The outbox's big messages' bytes, and what they may add up to (Limits.outbox_bytes).
    outbox: OutboxBytes = field(default_factory=lambda: OutboxBytes(Limits.outbox_bytes))
    #: The index (in ``outbox.count``) of the last room list put in the outbox; -1: none.
    listing_index: int = -1

    def close(self, code: int, reason: str) -> None:
        """Disconnect this client with a close code (the first reason given wins)."""
        if not self.close_code:
            self.close_code, self.close_reason = code, reason[:120]
        if self.scope is not None:
            self.scope.cancel()

    def busy(self, rid: int) -> bool:
        """Whether this connection is in a room, queued or in a replay (then it is told so,
        in answer to request ``rid``)."""
        if self.host is None and self.queued is None and self.replay is None and \
                self.entering is None:  # (entering: a room back from a stop seats it)
            return False
        self.reply(error_bytes(mpb.ERROR_CODE_INVALID_ARGUMENT,
                               "already in a replay: stop it first" if self.replay is not None
                               else "already in a room or the quick-match queue; leave it "
                                    "first", rid))
        return True

    def reply(self, data: bytes) -> bool:
        """Queue a message for this client without ever waiting (invariant 7); False if
        it can't be (the client is too slow and is closed, or is closing)."""
        if log.isEnabledFor(logging.DEBUG):
            _log_refusal(self, data)
        if self.direct is not None:
            return self.direct(data)
        self.writer_idle = False
        why = self.outbox.put(self.send, data)
        if why:
            self.close(CLOSE_TOO_SLOW, why)
        return why is None

    def listing_queued(self) -> bool:
        """Whether the last room list queued for this client is still in its outbox (not
        yet taken by its writer) -- for a relay's client, not yet taken by the relay's
        writer for it."""
        if self.listing_index < 0:
            return False
        sock = self.sock
        if self.direct is not None and isinstance(sock, DirectSocket):
            return sock.queued(self.listing_index)
        return self.outbox.queued(self.listing_index,
                                  self.send.statistics().current_buffer_used)

    def write_now(self, messages: Sequence[bytes]) -> bool:
        """Send ``messages`` (one room step's, for this client) as one batched frame from
        the calling task, if the writer is idle and the socket takes it at once: the frame
        leaves in this step, not in the writer's. Whatever the kernel didn't take the writer
        sends next (:data:`FLUSH`). False: nothing was sent (queue them with :meth:`reply`):
        the writer is busy or has messages queued (they go first), the client is closing, or
        it doesn't take batches yet."""
        sock = self.immediate
        if sock is None or not self.writer_idle or self.close_code \
                or not self.batcher.batching:
            return False
        frame = self.batcher.batch(messages)
        if frame is None:
            return False
        sent = sock.send_now(frame)
        if sent is SendNow.NOT_NOW:
            return False
        if sent is SendNow.STARTED:
            self.reply(FLUSH)
        return True


class App:
    """The Manawire server application: accounts, lobby, rooms, sessions and connections."""

    def __init__(self, store: Store, nursery: trio.Nursery, limits: Limits | None = None,
                 writer: StoreWriter | None = None) -> None:
        self.limits = limits or Limits()
        self.store = store
        self.writer = writer or StoreWriter(store)
        self.relay = Relay(self._wake_writer, self._evict_spectator,
                           flush_seconds=self.limits.spectator_flush_seconds,
                           wake_batch=self.limits.relay_wake_batch,
                           max_messages=self.limits.spectator_feed_messages)
        self.lobby = Lobby(self.writer, nursery, self.relay, deliver=self._deliver,
                           released=self._released, closed=self._room_closed,
                           placed=self._placed, config=self.limits.room,
                           max_rooms=self.limits.max_rooms, resumed=self._room_resumed)
        # Rooms stopped because the store couldn't be written come back once it can.
        self.writer.when_writable(self.lobby.wake_stopped)
        self.accounts = Accounts()
        self.accounts.load(*store.accounts())
        self.conns: dict[ConnId, _Connection] = {}
        #: What the per-address limits refused: a log line a minute (server.refusals).
        self.refusals = Refusals()
        nursery.start_soon(self.refusals.report, name="refusals-report")
        self.create_desk = CreateDesk(self.limits, self.lobby, self.accounts, self.refusals)
        self.match_desk = QuickMatchDesk(self.lobby, self.writer, self.conns,
                                         deck=self._deck, settle=self._settle,
                                         refusals=self.refusals,
                                         refusal=lambda addresses: self.create_desk
                                         .room_refusal(addresses, yours=True),
                                         made_for=self.create_desk.made_for,
                                         rooms_made=self.create_desk.rooms_made)
        self.rematch_desk = RematchDesk(self.lobby, self.writer, self._session_conn,
                                        settle=self._settle, idle=self._idle,
                                        refusal=lambda addresses: self.create_desk
                                        .room_refusal(addresses,
                                                      then="a new room can be made in"),
                                        made_for=self.create_desk.made_for,
                                        rooms_made=self.create_desk.rooms_made)
        self.session_desk = SessionDesk(self.limits, self.accounts, self.lobby, self.writer,
                                        settle=self._settle, admit=self._admit,
                                        stopping=lambda: self.stopping,
                                        rematch_resumed=self.rematch_desk.resumed,
                                        refusals=self.refusals)
        #: Deck lists read within a share of the loop's time, per address and in all.
        self.deck_checks = DeckChecks()
        self._ids = itertools.count(1)
        self.replay_desk = ReplayDesk(store, max_replays=self.limits.max_replays,
                                      max_per_address=self.limits.max_replays_per_address,
                                      outbox_size=self.limits.outbox_size,
                                      live_room=self._live_room)
        self.stopping = False
        self.writers = Writers(self.limits.send_timeout, self.relay.take, self._too_slow)
        nursery.start_soon(self.writers.watch, name="send-watchdog")
        nursery.start_soon(self.session_desk.sweep, name="session-sweeper")
        nursery.start_soon(self.relay.run, name="spectator-relay")
        nursery.start_soon(self.writer.watch_load, name="store-load")
        nursery.start_soon(self.writer.watch_health, name="store-health")
        #: Connections opened and actions played, for the status line (server.status).
        self.activity = Activity()
        #: The rooms back from a stop (the store couldn't be written), while they live: a
        #: player not seated again at once holds an away seat there (_held_seat).
        self._returned: dict[str, RoomHost] = {}
        #: Spectators' joins take turns here: games first (server.rooms.admission).
        self.watch_gate = WatchGate(busy_interval=self.limits.spectator_join_interval)
        nursery.start_soon(self.watch_gate.run, name="watch-gate")

    # ---- start and stop
    def recover(self) -> int:
        """Reload every unfinished game from the store and the sessions that may resume
        into them (call once, before serving). Returns the number of rooms recovered."""
        unreadable: list[tuple[str, str]] = []
        count = self.lobby.recover(self.store.unfinished_games(
            finished_within=self.limits.room.linger_seconds, unreadable=unreadable))
        for room_id, error in unreadable:  # aborted like a game whose replay fails
            incident = new_incident("recovery")
            log.error("recovery failed: could not recover room %s (incident %s): its "
                      "stored records can't be read: %s; its game is aborted", room_id,
                      incident, error)
            self.store.apply([AbortGame(room_id, f"incident {incident}: recovery failed: "
                                                 f"unreadable record: {error}")])
        live = set(self.lobby.hosts)
        for room_id, host in self.lobby.hosts.items():  # their rooms count for the creators
            self.create_desk.recovered(room_id, host.room.settings.creator)
        self.store.prune_sessions(live, older_than=86_400)
        self.store.apply(self.session_desk.recover(self.store.sessions(), live))
        self.store.apply(self._seated_sessions())
        forgotten = self.session_desk.unused_guests()
        if forgotten:
            self.store.apply(forgotten)
            log.info("forgot %d guest account%s unused for %g days", len(forgotten),
                     "" if len(forgotten) == 1 else "s", self.limits.guest_days)
        return count

    def _seated_sessions(self) -> list[PutSession]:
        """After :meth:`recover`'s sessions: a session seated in a recovered game in play
        belongs to that room, whatever room its stored row names -- the seat is the room's
        own record. (A rematch's players are seated, its game starts and is stored, and only
        then are their sessions' rows written: a crash between them left them resuming into
        the old room, its game over, while their seats waited in the new game.) Returns the
        rows to store."""
        rows = []
        sessions = self.session_desk.sessions
        for room_id, host in self.lobby.hosts.items():
            room = host.room
            if room.game is None or room.finished:
                continue
            for member in room.seats:
                record = None if member is None or member.left else \
                    sessions.get(member.session_id)
                if record is not None and record.room_id != room_id:
                    log.info("session of %s resumes into room %s, where it holds a seat "
                             "(its stored place was %s)", record.name, room_id,
                             record.room_id or "no room")
                    record.room_id = room_id
                    rows.append(record.row())
        return rows

    def gauges(self) -> Gauges:
        """The connections, rooms and games in play now (the status line's)."""
        rooms = self.lobby.rooms.values()
        return Gauges(len(self.conns), len(rooms),
                      sum(1 for r in rooms if r.game is not None and not r.finished),
                      len(self.lobby.stopped))

    def shutdown(self) -> None:
        """Freeze every room (their games are stored and go on after a restart) and close
        every connection with 1012 (service restart)."""
        self.stopping = True
        self.lobby.stop()
        for conn in list(self.conns.values()):
            conn.close(CLOSE_SERVICE_RESTART, "server restarting; resume when it is back")

    def close(self) -> None:
        """Commit every queued store write and stop the writer thread."""
        self.writer.close()

    # ---- room callbacks (called by room pumps)
    def _deliver(self, sends: Sequence[tuple[ConnId, bytes]]) -> None:
        """Hand each client its messages of one room step, in order: written at once as one
        frame where its writer is idle (:meth:`_Connection.write_now`), else queued."""
        messages: dict[ConnId, list[bytes]] = {}
        for conn_id, data in sends:
            messages.setdefault(conn_id, []).append(data)
        for conn_id, theirs in messages.items():
            conn = self.conns.get(conn_id)
            if conn is not None and not conn.write_now(theirs):
                for data in theirs:
                    conn.reply(data)

    def socket_of(self, conn_id: ConnId) -> Socket | None:
        """The socket of a live connection."""
        conn = self.conns.get(conn_id)
        return conn.sock if conn is not None else None

    def _wake_writer(self, conn_id: ConnId) -> bool:
        """The relay has news for this spectator: wake its writer (False: it is gone)."""
        conn = self.conns.get(conn_id)
        if conn is None or conn.close_code or conn.direct is not None:
            return False  # (a relay's client is watched on its relay, never here)
        return conn.reply(FEED_WAKE)

    def _placed(self, conn_id: ConnId, room_id: str) -> bool:
        """Whether ``conn_id`` is in ``room_id`` now, or being let in: a room's order that
        it watch the room's feed holds only then. A room that had to wait for its store
        write (its game's start) handed its spectators' watches on late: one that had left
        it and joined another room meanwhile lost the new room's watch to the old one's, and
        then that one too when its leave came -- and was sent nothing more."""
        conn = self.conns.get(conn_id)
        if conn is None:
            return False  # gone: nothing to watch for (its room ends its place)
        host = conn.host
        return (host is not None and host.room_id == room_id) or conn.entering == room_id

    def _too_slow(self, conn_id: ConnId) -> None:
        """A send to this client lasted ``send_timeout``: drop it (close 1013)."""
        conn = self.conns.get(conn_id)
        if conn is not None:
            conn.close(CLOSE_TOO_SLOW, "client too slow: send timed out")

    def _evict_spectator(self, conn_id: ConnId) -> None:
        conn = self.conns.get(conn_id)
        if conn is not None:
            conn.close(CLOSE_TOO_SLOW, "spectator too slow: fell behind its stream")

    def _live_room(self, room_id: str) -> Room | None:
        """The room of that id while it is live (its host's room; None: none)."""
        host = self.lobby.hosts.get(room_id)
        return None if host is None else host.room

    def _released(self, host: RoomHost, conns: list[ConnId]) -> None:
        for conn_id in conns:
            conn = self.conns.get(conn_id)
            if conn is not None and conn.host is host:
                conn.host = None

    def _room_closed(self, host: RoomHost) -> None:
        if self._returned.get(host.room_id) is host:
            del self._returned[host.room_id]
        self.create_desk.room_closed(host.room_id)
        self.match_desk.room_closed(host.room_id)
        self.session_desk.room_closed(host.room_id)
        self.rematch_desk.room_closed(host.room_id)

    def _room_resumed(self, host: RoomHost) -> None:
        """A room that stopped while the store couldn't be written is back
        (:meth:`Lobby.resume_stopped <server.rooms.lobby.Lobby.resume_stopped>`): it
        counts for its creator (as after a restart), and each of its players still
        connected, in no room, queue or replay, takes the seat back at once, as a JoinRoom
        of theirs would be answered (a Joined, request id 0, then the snapshot). A player
        who was away resumes into it (the session kept its place) or joins it by its id."""
        room = host.room
        self._returned[host.room_id] = host
        self.create_desk.recovered(host.room_id, room.settings.creator)
        if room.finished:
            return  # (a game over lingers for its last views: nothing to play on)
        seated = {m.account_id for m in room.seats
                  if m is not None and m.account_id and not m.left and m.conn is None}
        for conn in list(self.conns.values()):
            record = conn.record
            if record is not None and not record.side and \
                    record.account.account_id in seated and conn.nursery is not None and \
                    self._idle(conn):
                conn.nursery.start_soon(self._reseat, conn, host, record)

    def _session_conn(self, session_id: str) -> _Connection | None:
        """The connection a session has now (None: none)."""
        record = self.session_desk.sessions.get(session_id)
        return record.conn if record is not None else None

    @staticmethod
    def _idle(conn: _Connection) -> bool:
        """Whether ``conn`` is in no room, queue or replay, nor entering one."""
        return conn.host is None and conn.queued is None and conn.replay is None and \
            conn.entering is None and not conn.placing and not conn.close_code

    async def _reseat(self, conn: _Connection, host: RoomHost, record: _SessionRecord
                      ) -> None:
        """Seat ``conn`` again in ``host``'s room, back after a stop (:meth:`_room_resumed`),
        unless it went somewhere meanwhile."""
        if conn.record is not record or not self._idle(conn) or self.stopping:
            return
        out = await self._settle(conn, host, cmd.Join(
            conn.conn_id, 0, record.session_id, record.name, False,
            account_id=record.account.account_id))
        if out is not None and out.accepted:
            conn.spectating = False
            await self._record_place(conn, record)

    # ---- one connection
    async def handle_connection(self, sock: Socket) -> None:
        """Serve one client until it disconnects (or is disconnected)."""
        send, receive = trio.open_memory_channel[bytes](self.limits.outbox_size)
        limits = self.limits
        conn = _Connection(next(self._ids), Session(), send, MessageLimiter(
            limits.messages_per_second, limits.message_burst, limits.rate_strikes),
            address=sock.address, sock=sock, direct=getattr(sock, "direct", None),
            immediate=sock if isinstance(sock, ImmediateSocket) else None,
            outbox=OutboxBytes(limits.outbox_bytes))
        if self.stopping:
            log.debug("connection from %s refused: the server is stopping", conn.address)
            await sock.close(CLOSE_SERVICE_RESTART, "server restarting")
            return
        self.conns[conn.conn_id] = conn
        self.activity.connections += 1
        log.debug("connection %d opened from %s", conn.conn_id, conn.address)
        try:
            async with trio.open_nursery() as nursery:
                conn.scope = nursery.cancel_scope
                conn.nursery = nursery
                if conn.close_code:  # closed before it got here
                    nursery.cancel_scope.cancel()
                if conn.direct is None:
                    nursery.start_soon(self.writers.run, sock, receive, conn)
                try:
                    await self._read(sock, conn)
                finally:
                    nursery.cancel_scope.cancel()
        except Exception:  # fault isolation: this connection only
            incident = new_incident("connection")
            log.exception("connection %d failed (incident %s)", conn.conn_id, incident)
            conn.close(CLOSE_INTERNAL, f"internal error, incident {incident}")
        finally:
            del self.conns[conn.conn_id]
            self.relay.drop(conn.conn_id)
            self.match_desk.dropped(conn)
            if conn.host is not None:
                conn.host.notify(cmd.Disconnect(conn.conn_id))
            record = conn.record
            if record is not None and record.conn is conn:
                record.conn = None
                self.session_desk.forget_if_idle(record)
        if conn.close_code:
            log.debug("connection %d from %s closed by the server: %d (%s)", conn.conn_id,
                      conn.address, conn.close_code, conn.close_reason)
        else:
            log.debug("connection %d from %s closed by the client", conn.conn_id,
                      conn.address)
        if conn.close_code:
            if conn.close_code == CLOSE_TOO_SLOW and "too slow" in conn.close_reason:
                self.refusals.note("slow", conn.address)
            with trio.move_on_after(1):
                await sock.close(conn.close_code, conn.close_reason)

    async def _read(self, sock: Socket, conn: _Connection) -> None:
        # Until its first Hello or Resume, a connection is read within a deadline: one that
        # never says it held its per-address place and its socket for ever.
        greet_by: float | None = trio.current_time() + self.limits.hello_seconds
        while True:
            try:
                if greet_by is None:
                    data = await sock.recv()
                else:
                    received: bytes | str | None = None
                    with trio.move_on_at(greet_by):
                        received = await sock.recv()
                    if received is None:
                        self.refusals.note("silent", conn.address)
                        conn.close(CLOSE_POLICY, f"no Hello or Resume within "
                                                 f"{self.limits.hello_seconds:g} s")
                        return
                    data = received
            except SocketClosed:
                return
            in_flight = conn.in_flight
            if in_flight is not None:
                # One command in flight per connection: nobody floods a room's inbox, and
                # every answer goes out in the order of the requests. Usually the room has
                # handled it by now (a client acts again once it sees the action's delta).
                conn.in_flight = None
                if not in_flight.done:
                    await in_flight.finished()
            verdict = conn.limiter.check(trio.current_time())
            if verdict is Verdict.CLOSE:
                self.refusals.note("flood", conn.address)
                conn.close(CLOSE_POLICY, "too many messages: closed for flooding")
                return
            if verdict is Verdict.REFUSE:
                conn.reply(error_bytes(
                    mpb.ERROR_CODE_RATE_LIMITED,
                    f"more than {self.limits.messages_per_second:g} messages per second "
                    f"(bursts of {self.limits.message_burst}): this one was dropped",
                    request_id_of(data)))
                continue
            assert verdict is Verdict.ALLOW
            try:
                rid, request = conn.session.receive(data)
            except SessionError as exc:
                conn.reply(error_bytes(exc.code, exc.message, exc.request_id))
                continue
            if isinstance(request, _GREETINGS):
                greet_by = None
            try:
                await self._dispatch(conn, rid, request)
            except StoreUnwritableError as exc:
                # Nothing was written, and nothing about it was sent. The store's condition
                # is logged once (server.store.health); the client is told in words. A
                # session it couldn't record (Hello, Resume: its token would not survive a
                # restart) is not begun: the connection closes, and the client comes back.
                conn.reply(error_bytes(mpb.ERROR_CODE_INTERNAL, _store_refusal(exc), rid))
                if isinstance(request, _GREETINGS):
                    for _ in range(100):  # the answer goes out before the close (1 s)
                        if conn.writer_idle or conn.direct is not None:
                            break
                        await trio.sleep(0.01)
                    conn.close(CLOSE_STORE, _store_refusal(exc))
                    return

    async def _dispatch(self, conn: _Connection, rid: int, request: req.Request) -> None:
        """Answer a session or lobby request here; hand a game request to the connection's
        room."""
        if isinstance(request, req.Hello):
            await self.session_desk.hello(conn, rid, request)
            return
        if isinstance(request, req.Resume):
            await self.session_desk.resume(conn, rid, request)
            return
        record = conn.record
        if record is None:  # replaced by a newer connection of the session: it is closing
            return
        if record.side and not isinstance(request, _SIDE_REQUESTS):
            # (Hello.replays_only: the account's own session, elsewhere, plays and registers.)
            conn.reply(error_bytes(
                mpb.ERROR_CODE_ACCOUNT_IN_USE,
                "this connection is for replays only: the account's session is held by "
                "another connection (another tab or device), which alone may join, create "
                "or queue for rooms, play and change the account", rid))
            return
        if isinstance(request, req.Register):
            await self.session_desk.register(conn, record, rid, request)
        elif isinstance(request, req.RevokeTokens):
            await self.session_desk.revoke(conn, record, rid)
        elif isinstance(request, req.ListRooms):
            await self._list_rooms(conn, rid)
        elif isinstance(request, req.CreateRoom):
            if not request.join:
                self.create_desk.create(conn, record, rid, request)
            elif not self._seat_held(conn, record, rid, ""):
                with _placing(conn):
                    await self._create_and_join(conn, record, rid, request)
        elif isinstance(request, req.JoinRoom):
            if request.spectator or not self._seat_held(conn, record, rid, request.room_id):
                with _placing(conn):
                    await self._join(conn, record, rid, request)
        elif isinstance(request, req.LeaveRoom):
            await self._leave(conn, record, rid)
        elif isinstance(request, req.QuickMatch):
            if not self._seat_held(conn, record, rid, ""):
                with _placing(conn):
                    await self.match_desk.queue(conn, rid, request)
        elif isinstance(request, req.CancelQuickMatch):
            self.match_desk.cancel(conn, rid)
        elif isinstance(request, req.StartReplay):
            with _placing(conn):
                await self.replay_desk.start(conn, record, rid, request)
        elif isinstance(request, req.ControlReplay):
            self.replay_desk.control(conn, rid, request)
        elif isinstance(request, req.SubmitDeck):
            await self._submit_deck(conn, rid, request)
        elif isinstance(request, req.OfferRematch):
            await self._offer_rematch(conn, rid, request)
        elif conn.replay is not None and isinstance(request, req.RequestSnapshot):
            self.replay_desk.control(conn, rid, req.ControlReplay("snapshot"))
        elif isinstance(request, req.Act | req.RequestSnapshot | req.ConcedeGame
                        | req.ExplainCard):
            host = conn.host
            if host is None:
                conn.reply(error_bytes(mpb.ERROR_CODE_NOT_READY, "join a room first", rid))
                return
            command: cmd.Act | cmd.Snapshot | cmd.ConcedeGame | cmd.ExplainCard
            if isinstance(request, req.Act):
                command = cmd.Act(conn.conn_id, rid, request.prompt_id, request.option_index,
                                  request.expected_state_id)
            elif isinstance(request, req.RequestSnapshot):
                command = cmd.Snapshot(conn.conn_id, rid)
            elif isinstance(request, req.ExplainCard):
                command = cmd.ExplainCard(conn.conn_id, rid, request.object_id)
            else:
                command = cmd.ConcedeGame(conn.conn_id, rid)
            try:
                ticket = host.submit(command)
            except RoomGoneError:
                self._settled(conn, command, None, None)
                return
            # Not waited for here: the connection reads its next message meanwhile (and
            # handles it once this is done); the room task settles it.
            ticket.settle = partial(self._settled, conn, command, ticket)
            conn.in_flight = ticket
        else:
            assert_never(request)

    async def _list_rooms(self, conn: _Connection, rid: int) -> None:
        """Answer ``ListRooms``: the room list -- unless it is big (:data:`BIG_MESSAGE`
        bytes or more) and the last one this client was sent is still in its outbox, then
        ``RATE_LIMITED`` (as a spectator's second ``RequestSnapshot`` before its first was
        sent): each answer is a copy of the list, up to ~600 KB, and 64 clients asking 19
        times a second and never reading took the server from 194 MB to 1 GB. At most two
        big lists are held for a client: one being sent, one queued.

        A relay port's client (a :class:`DirectSocket`) is held to the same rule, its
        outbox being the link and the relay's outbox for it; and a big list is handed on
        only once the link isn't backed up (the client waits meanwhile, as one that asks
        faster than it is answered): 64 clients asking 55 times each and never reading,
        then any number asking once, filled the link faster than the relay read it, and
        the relay and all its clients went down (attacker round 16)."""
        listing = self.lobby.listing_message()
        big = len(listing) >= BIG_MESSAGE
        if big and conn.listing_queued():
            conn.reply(error_bytes(
                mpb.ERROR_CODE_RATE_LIMITED,
                "the room list you asked for before hasn't been sent to you yet: ask again "
                "once it has arrived", rid))
            return
        sock = conn.sock
        if conn.direct is not None and isinstance(sock, DirectSocket):
            if big:
                await sock.room()
                listing = self.lobby.listing_message()  # (the rooms now)
            index = sock.sent
        else:
            index = conn.outbox.count
        if conn.reply(with_request_id(rid, listing)):
            conn.listing_index = index

    def _seat_held(self, conn: _Connection, record: _SessionRecord, rid: int,
                   joining: str) -> bool:
        """Whether the account holds a seat in a game in play it isn't connected to -- in a
        room stopped while the store can't be written, or back from such a stop without it
        -- so it may not take a seat elsewhere (then the client is told so): one game at a
        time, as for any game in play (a player joined another room while theirs was
        stopped, and held a seat in both, their clock running in one, once it was back).
        ``joining``: the room the request takes a seat in (its own seat, back: allowed)."""
        account = record.account.account_id
        if conn.host is not None or not account:
            return False  # (in a room: the request is refused as for any member)
        for host, stopped in (*((h, True) for h in self.lobby.stopped.values()),
                              *((h, False) for h in self._returned.values())):
            room = host.room
            if room.finished or host.room_id == joining:
                continue  # (its own room: back, its seat; stopped, "no room" as documented)
            if any(m is not None and m.account_id == account and not m.left
                   and (stopped or m.conn is None) for m in room.seats):
                conn.reply(error_bytes(
                    mpb.ERROR_CODE_INVALID_ARGUMENT,
                    f"your game in room {host.room_id} stopped and comes back when the server "
                    f"can store it: you keep your seat there, and can't take one in another "
                    f"game meanwhile (watching and replays are open)" if stopped else
                    f"your game in room {host.room_id} is back after a stop and your seat in "
                    f"it waits for you: take it back (JoinRoom {host.room_id}, or Resume) -- "
                    f"you can't take a seat in another game meanwhile", rid))
                return True
        return False

    def _settled(self, conn: _Connection,
                 command: cmd.Act | cmd.Snapshot | cmd.ConcedeGame | cmd.ExplainCard,
                 ticket: Ticket | None, out: cmd.Output | None) -> None:
        """A game command was handled (``out``), or never will be: its room closed -- or
        stopped, the store unwritable, and answered it already (``ticket.answered``: its
        error under the command's request id; a second, "the room closed", told nothing)."""
        if out is None:
            conn.host = None
            if ticket is None or not ticket.answered:
                conn.reply(error_bytes(mpb.ERROR_CODE_ROOM_NOT_FOUND, "the room closed",
                                       command.rid))
        elif isinstance(command, cmd.Act) and any(
                isinstance(op, AppendAction) for op in out.log):
            conn.limiter.refund()  # a played action: play is never rate-limited
            refund = getattr(conn.sock, "refund", None)  # (a relay's client: its limiter too)
            if refund is not None:
                refund()
            self.activity.actions += 1

    # ---- lobby
    async def _deck(self, conn: _Connection, rid: int, spec: str, fmt: DeckFormat
                    ) -> tuple[bool, Deck | None]:
        """Whether ``spec`` is playable in ``fmt`` (if not, the client was told every
        problem), and its deck (None: none given, a demo deck is dealt). A real deck list
        checks in about a millisecond; a longer text (up to the 32 KiB / 1,000-line cap)
        is checked on a worker thread, one at a time, so no join holds up the rooms."""
        name = spec.strip()
        if not name:
            return True, None
        if _DEMO_NAME.fullmatch(name) and name not in demo_deck_names():
            conn.reply(error_bytes(mpb.ERROR_CODE_INVALID_DECK,
                                   f"unknown deck {name!r}: send a deck list, or one of the "
                                   f"demo decks {', '.join(demo_deck_names())}", rid))
            return False, None
        read = await self._read_deck(conn, rid, spec, fmt)
        if read is None:
            return False, None
        deck, problems = read
        if problems:
            self._refuse_deck(conn, rid, fmt, problems)
            return False, None
        return True, deck

    async def _read_deck(self, conn: _Connection, rid: int, spec: str, fmt: DeckFormat
                         ) -> tuple[Deck | None, tuple[str, ...]] | None:
        """:func:`server.decks.resolve_as_read` within the deck checks' budgets
        (:class:`server.deck_checks.DeckChecks`); None if the client's address is over its
        budget (it was told)."""
        try:
            return await self.deck_checks.read(conn.address, spec, fmt)
        except DeckCheckRefused as refused:
            self.refusals.note("deck", conn.address)
            conn.reply(error_bytes(mpb.ERROR_CODE_RATE_LIMITED, str(refused), rid))
            return None

    @staticmethod
    def _refuse_deck(conn: _Connection, rid: int, fmt: DeckFormat,
                     problems: Sequence[str]) -> None:
        note = pool_note(problems)
        conn.reply(error_bytes(mpb.ERROR_CODE_INVALID_DECK,
                               f"the deck can't be played in {fmt.value}: "
                               f"{len(problems)} problem(s)" + (f" ({note})" if note else ""),
                               rid, details=problems[:100]))

    async def _submit_deck(self, conn: _Connection, rid: int, request: req.SubmitDeck
                           ) -> None:
        """Between games of a match: read the deck list against the room's format (every
        problem told, as for a join), then the room checks it against the registered deck
        and sideboard (rule 100.4) and answers."""
        host = conn.host
        if host is None:
            conn.reply(error_bytes(mpb.ERROR_CODE_NOT_READY, "join a room first", rid))
            return
        deck = None
        problems: tuple[str, ...] = ()
        if not request.keep:
            # A list that reads whole but breaks the format's rules goes to the room too,
            # so every problem is told at once: the format's and the registered deck and
            # sideboard's (rule 100.4).
            read = await self._read_deck(conn, rid, request.deck, host.room.format)
            if read is None:
                return
            deck, problems = read
            if deck is None:
                self._refuse_deck(conn, rid, host.room.format, problems)
                return
        try:
            await host.submit(cmd.SubmitDeck(conn.conn_id, rid, deck, problems)).wait()
        except RoomGoneError:
            conn.host = None
            conn.reply(error_bytes(mpb.ERROR_CODE_ROOM_NOT_FOUND, "the room closed", rid))

    async def _offer_rematch(self, conn: _Connection, rid: int, request: req.OfferRematch
                             ) -> None:
        """A player offers a rematch (or withdraws the offer); once every player has, the
        rematch desk makes its room and seats them (server.rematch)."""
        host = conn.host
        if host is None:
            conn.reply(error_bytes(
                mpb.ERROR_CODE_NOT_READY,
                "not in a room: offer a rematch in the room whose game just ended", rid))
            return
        try:
            out = await host.submit(cmd.OfferRematch(conn.conn_id, rid, request.offer)).wait()
        except RoomGoneError:
            conn.host = None
            conn.reply(error_bytes(mpb.ERROR_CODE_ROOM_NOT_FOUND, "the room closed", rid))
            return
        if out.rematch is not None:
            # Everyone's, not this connection's: shielded (as a quick match's seating), so
            # this connection closing can't leave the others released and unseated.
            with trio.CancelScope(shield=True):
                await self.rematch_desk.start(host, out.rematch)

    async def _join(self, conn: _Connection, record: _SessionRecord, rid: int,
                    request: req.JoinRoom) -> None:
        if conn.busy(rid):
            return
        host = self.lobby.hosts.get(request.room_id)
        # A private room is no room to a stranger without its code: the same answer, as
        # soon (before the deck is read), so no guess tells its id exists.
        if host is None or host.room.hidden_from(
                record.session_id, record.account.account_id, request.invite_code,
                request.spectator, request.tier):
            conn.reply(error_bytes(mpb.ERROR_CODE_ROOM_NOT_FOUND,
                                   self._no_room_words(record, request) if host is None
                                   else no_room(request.room_id), rid))
            return
        deck = None
        if not request.spectator:
            ok, deck = await self._deck(conn, rid, request.deck, host.room.format)
            if not ok:
                return
            await self._enter(conn, host, record, rid, request, deck=deck)
            return
        # A thousand spectators following a popular game into its next room all ask at once:
        # their joins (the room's answer, each one's snapshot, the session rows written)
        # take turns (server.rooms.admission), a few per scheduler round and round the
        # rooms, and only a few a second while the games keep the loop busy: spectators
        # never slow a game, and a crowd in one room never queues another room's spectator.
        await self._admit(host.room_id)
        if conn.conn_id not in self.conns:
            return  # it closed while it waited for its turn: nobody to take in
        await self._enter(conn, host, record, rid, request, deck=None)

    async def _create_and_join(self, conn: _Connection, record: _SessionRecord, rid: int,
                               request: req.CreateRoom) -> None:
        """``CreateRoom`` with ``join``: the creator's deck is read and checked first (a
        deck that can't be played creates no room: the creator had an empty room counted
        against their open rooms for each deck they got wrong), then the room is created
        and the creator takes a seat in it as a JoinRoom would."""
        if conn.busy(rid):
            return
        ok, deck = await self._deck(conn, rid, request.deck, request.format)
        if not ok:
            return
        made = self.create_desk.create(conn, record, rid, request)
        if made is None:
            return
        host, invite = made
        await self._enter(conn, host, record, rid,
                          req.JoinRoom(host.room_id, False, request.deck, invite), deck=deck,
                          creating=True)

    async def _admit(self, room_id: str) -> None:
        """Wait for a spectator's turn to enter ``room_id`` (joining, or resuming a place
        in it): :class:`~server.rooms.admission.WatchGate`."""
        await self.watch_gate.admit(room_id)

    async def _enter(self, conn: _Connection, host: RoomHost, record: _SessionRecord,
                     rid: int, request: req.JoinRoom, *, deck: Deck | None,
                     creating: bool = False) -> None:
        """Ask the room to take the connection in (as a player with ``deck``, or a
        spectator; ``creating``: its creator, in the room just made) and record its
        answer."""
        out = await self._settle(conn, host, cmd.Join(
            conn.conn_id, rid, record.session_id, record.name, request.spectator,
            deck, record.account.account_id, request.invite_code, request.tier, creating))
        if out is None:
            conn.reply(error_bytes(mpb.ERROR_CODE_ROOM_NOT_FOUND,
                                   self._no_room_words(record, request), rid))
        elif out.accepted:
            conn.spectating = request.spectator
            await self._record_place(conn, record)
        elif out.spectators_full:
            self.refusals.note("spectators", conn.address)

    def _no_room_words(self, record: _SessionRecord, request: req.JoinRoom) -> str:
        """Why a join finds no room ``request.room_id``: that a full server closed it before
        its game started, to one who knew it (:meth:`Lobby.closed_for_room`), else no room."""
        return self.lobby.closed_for_room(request.room_id, record.account.account_id,
                                          request.invite_code) or no_room(request.room_id)

    async def _record_place(self, conn: _Connection, record: _SessionRecord) -> None:
        """Store the session's room (what a resume after a restart goes back to). A
        spectator's is written without waiting, within a tenth of a second and only in its
        latest version (StoreWriter.write_place): a crowd joining and leaving rooms costs the
        event loop no wake-up per member and the store one row per member, and a spectator
        whose latest place a crash lost just joins again; a player's is durable before its
        next request is read. A store that can't be written (logged once) loses the place,
        not the seat or the leave: the room has taken them, and said so; a restart before the
        session's row is written again resumes it where the store last had it."""
        if conn.spectating:
            self.writer.write_place(record.row())
        else:
            with contextlib.suppress(StoreUnwritableError):
                await self.writer.write([record.row()])

    async def _settle(self, conn: _Connection, host: RoomHost,
                      command: cmd.Join | cmd.Reattach) -> cmd.Output | None:
        """Hand a join or a reattach to ``host`` and record the room's answer: if accepted,
        the connection (and its session) is in that room from then on. The wait is shielded
        so a connection closed meanwhile still learns the answer, and then tells the room it
        left (no member is ever left behind by a dead connection). None: the room is gone."""
        try:
            ticket = host.submit(command)
        except RoomGoneError:
            return None
        conn.entering = host.room_id  # (its room may start its watch before answering)
        settled = conn.settled = trio.Event()
        # One scope, shielded with a deadline (two nested ones cost ~10 us more a join).
        with trio.CancelScope(shield=True,
                              deadline=trio.current_time() + SETTLE_SECONDS):
            try:
                out = await ticket.wait()
            except RoomGoneError:
                return None
            finally:
                conn.entering = conn.settled = None
                # (A takeover waits for it -- SessionDesk._take_over -- and runs only once
                # this task yields: after the place is recorded below.)
                settled.set()
            if out.accepted:
                conn.host = host
                # The session's record (even if another connection took the session over
                # meanwhile: the place is the session's, and comes back with it).
                record = self.session_desk.sessions.get(command.session_id)
                if record is not None:
                    record.room_id = host.room_id
                if conn.conn_id not in self.conns:  # it closed meanwhile: leave again
                    host.notify(cmd.Disconnect(conn.conn_id))
            return out
        return None  # pragma: no cover - a room that doesn't answer in SETTLE_SECONDS

    async def _leave(self, conn: _Connection, record: _SessionRecord, rid: int) -> None:
        if conn.replay is not None:  # leaving a replay stops it
            self.replay_desk.control(conn, rid, req.ControlReplay("stop"))
            return
        host = conn.host
        if host is None:
            conn.reply(error_bytes(mpb.ERROR_CODE_NOT_READY, "not in a room", rid))
            return
        conn.host = None
        record.room_id = None
        if conn.spectating:
            # Nobody waits for a spectator's leave (nothing follows from it but the room
            # forgetting it; the audience following a game into its next room saves a
            # round trip through the room per spectator): the room stops only its own
            # feed, so the watch of a room joined next is never stopped by it.
            host.notify(cmd.Leave(conn.conn_id, rid))
        else:
            with contextlib.suppress(RoomGoneError):
                await host.submit(cmd.Leave(conn.conn_id, rid)).wait()
        await self._record_place(conn, record)
        conn.spectating = False


@contextlib.contextmanager
def _placing(conn: _Connection) -> Iterator[None]:
    """``conn`` answers a request of its own that may place it (_Connection.placing)."""
    conn.placing = True
    try:
        yield
    finally:
        conn.placing = False


def _log_refusal(conn: _Connection, data: bytes) -> None:
    """A DEBUG line if ``data``, a reply to ``conn``, refuses a request (a sign-in, a token,
    an invite code...): its code and the words the client got (never what it sent)."""
    try:
        message = mpb.ServerMessage.FromString(data)
    except Exception:  # (FLUSH and the like: no message)
        return
    if message.HasField("error"):
        log.debug("connection %d from %s refused: %s (%s)", conn.conn_id, conn.address,
                  mpb.ErrorCode.Name(message.error.code), message.error.message)


def _store_refusal(exc: StoreUnwritableError) -> str:
    """What a client is told of a request the store couldn't record (a close reason too:
    at most 123 bytes)."""
    return f"the server can't save anything now ({exc.reason[:40]}): nothing was done; " \
           f"try again later"
