"""Wiring: client connections from hello (or resume) to goodbye, independent of the transport.

The transport hands :meth:`App.handle_connection` a :class:`Socket`; tests can hand it a
trio memory-stream pair instead of a WebSocket.

Sessions. ``Hello`` starts a session and ``Welcome`` gives it a secret resume token; the
server keeps only the token's SHA-256 hash (in memory and in the store). ``Resume`` on a new
connection presents the token: the session, and its place in a room, move to the new
connection (an older connection still holding it is closed with :data:`CLOSE_REPLACED`), and
the token is replaced by a new one. Which room a connection is in is decided by that room's
answer to the join (a refused join leaves the connection where it was); its seat is the
room's own record.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import itertools
import logging
import secrets
from dataclasses import dataclass, field
from typing import Protocol, assert_never

import trio

import server
from protocol.v1 import messages_pb2 as mpb
from server.rooms import commands as cmd
from server.rooms import session as req
from server.rooms.commands import ConnId
from server.rooms.lobby import MAX_ROOMS, Lobby, LobbyFullError
from server.rooms.pump import RoomGoneError, RoomHost
from server.rooms.room import RoomConfig
from server.rooms.session import PROTOCOL_VERSION, Session, SessionError, error_bytes
from server.store import Store
from server.store.records import DropSession, PutSession
from server.store.writer import StoreClosedError, StoreWriter

log = logging.getLogger("manawire")


class SocketClosed(Exception):
    """The peer went away."""


class Socket(Protocol):
    """A message-oriented, bidirectional connection (a WebSocket, or a test double)."""

    async def recv(self) -> bytes | str:
        """The next message; raises :class:`SocketClosed` once the peer is gone."""
        ...

    async def send(self, data: bytes) -> None:
        """Send one binary message; raises :class:`SocketClosed` once the peer is gone."""
        ...

    async def close(self, code: int, reason: str) -> None:
        """Close the connection with a close code."""
        ...


@dataclass(frozen=True)
class Limits:
    """The server's limits (README.md, "Limits"); every one answers with a clear error or
    close reason."""

    outbox_size: int = 1024  # messages queued for one client before it is disconnected
    send_timeout: float = 10.0  # seconds one send may take before the client is dropped
    max_rooms: int = MAX_ROOMS  # rooms on this server
    max_rooms_per_session: int = 4  # live rooms one session (connection) has created
    #: Seconds a session whose room closed while it was away can still resume (to learn
    #: that its room is gone) before it is forgotten.
    session_ttl: float = 3600.0
    room: RoomConfig = field(default_factory=RoomConfig)


CLOSE_SERVICE_RESTART = 1012  # RFC 6455: the server restarts; resume after it is back
CLOSE_TOO_SLOW = 1013  # RFC 6455 "try again later": the client fell behind
CLOSE_INTERNAL = 1011  # RFC 6455: an unexpected condition (an incident id is logged)
CLOSE_REPLACED = 4001  # a newer connection resumed this session
#: Longest wait for a room's answer to a join or resume, even for a closing connection.
SETTLE_SECONDS = 30.0


def token_hash(token: str) -> bytes:
    """The stored form of a resume token."""
    return hashlib.sha256(token.encode()).digest()


@dataclass(eq=False)
class _SessionRecord:
    """A session the server knows: who, its token's hash, its room and live connection."""

    session_id: str
    name: str
    token_hash: bytes
    room_id: str | None = None
    conn: _Connection | None = None
    #: Live rooms this session created (the per-session room limit).
    created: set[str] = field(default_factory=set)
    #: The hash of the token the client last presented: it stays valid until the newer
    #: token is used once, so a crash between rotating a token and delivering the new one
    #: never strands a client.
    prev_hash: bytes = b""
    #: Serializes resumes of this session.
    lock: trio.Lock = field(default_factory=trio.Lock)
    #: Since when it has had neither a connection nor a room (see App._sweep).
    idle_since: float = 0.0

    def row(self) -> PutSession:
        return PutSession(self.session_id, self.token_hash, self.name, self.room_id,
                          self.prev_hash)


@dataclass(eq=False)
class _Connection:
    """One client's connection state, owned by its :meth:`App.handle_connection` task."""

    conn_id: ConnId
    session: Session
    send: trio.MemorySendChannel[bytes]
    scope: trio.CancelScope = field(default_factory=trio.CancelScope)
    record: _SessionRecord | None = None
    host: RoomHost | None = None
    close_code: int = 0
    close_reason: str = ""

    def close(self, code: int, reason: str) -> None:
        """Disconnect this client with a close code (the first reason given wins)."""
        if not self.close_code:
            self.close_code, self.close_reason = code, reason[:120]
        self.scope.cancel()

    def reply(self, data: bytes) -> None:
        """Queue a message for this client without ever waiting (invariant 7)."""
        try:
            self.send.send_nowait(data)
        except trio.WouldBlock:
            self.close(CLOSE_TOO_SLOW, "client too slow: outbox full")
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            pass  # the connection is closing; it resumes later


class App:
    """The Manawire server application: lobby, rooms, sessions and client connections."""

    def __init__(self, store: Store, nursery: trio.Nursery, limits: Limits | None = None,
                 writer: StoreWriter | None = None) -> None:
        self.limits = limits or Limits()
        self.store = store
        self.writer = writer or StoreWriter(store)
        self.lobby = Lobby(self.writer, nursery, deliver=self._deliver,
                           released=self._released, closed=self._room_closed,
                           config=self.limits.room, max_rooms=self.limits.max_rooms)
        self.conns: dict[ConnId, _Connection] = {}
        self._sessions: dict[str, _SessionRecord] = {}
        self._by_hash: dict[bytes, _SessionRecord] = {}
        self._ids = itertools.count(1)
        self.stopping = False
        nursery.start_soon(self._sweep, name="session-sweeper")

    # ---- start and stop
    def recover(self) -> int:
        """Reload every unfinished game from the store and the sessions that may resume
        into them (call once, before serving). Returns the number of rooms recovered."""
        count = self.lobby.recover(self.store.unfinished_games(
            finished_within=self.limits.room.linger_seconds))
        live = set(self.lobby.hosts)
        self.store.prune_sessions(live, older_than=86_400)
        for row in self.store.sessions():
            record = _SessionRecord(row.session_id, row.name, row.token_hash,
                                    row.room_id if row.room_id in live else None,
                                    prev_hash=row.prev_hash)
            self._sessions[row.session_id] = record
            for digest in (row.token_hash, row.prev_hash):
                if digest:
                    self._by_hash[digest] = record
        return count

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
    def _deliver(self, conn_id: ConnId, data: bytes) -> None:
        conn = self.conns.get(conn_id)
        if conn is not None:
            conn.reply(data)

    def _released(self, host: RoomHost, conns: list[ConnId]) -> None:
        for conn_id in conns:
            conn = self.conns.get(conn_id)
            if conn is not None and conn.host is host:
                conn.host = None

    def _room_closed(self, host: RoomHost) -> None:
        for record in list(self._sessions.values()):
            record.created.discard(host.room_id)
            if record.room_id == host.room_id:
                record.room_id = None
                record.idle_since = trio.current_time()

    # ---- one connection
    async def handle_connection(self, sock: Socket) -> None:
        """Serve one client until it disconnects (or is disconnected)."""
        send, receive = trio.open_memory_channel[bytes](self.limits.outbox_size)
        conn = _Connection(next(self._ids), Session(), send)
        if self.stopping:
            await sock.close(CLOSE_SERVICE_RESTART, "server restarting")
            return
        self.conns[conn.conn_id] = conn
        try:
            with conn.scope:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(self._writer, sock, receive, conn)
                    try:
                        await self._read(sock, conn)
                    finally:
                        nursery.cancel_scope.cancel()
        except Exception:  # fault isolation: this connection only
            incident = secrets.token_hex(6)
            log.exception("connection %d failed (incident %s)", conn.conn_id, incident)
            conn.close(CLOSE_INTERNAL, f"internal error, incident {incident}")
        finally:
            del self.conns[conn.conn_id]
            if conn.host is not None:
                conn.host.notify(cmd.Disconnect(conn.conn_id))
            record = conn.record
            if record is not None and record.conn is conn:
                record.conn = None
                self._forget_if_idle(record)
        if conn.close_code:
            with trio.move_on_after(1):
                await sock.close(conn.close_code, conn.close_reason)

    async def _read(self, sock: Socket, conn: _Connection) -> None:
        while True:
            try:
                data = await sock.recv()
            except SocketClosed:
                return
            try:
                rid, request = conn.session.receive(data)
            except SessionError as exc:
                conn.reply(error_bytes(exc.code, exc.message, exc.request_id))
                continue
            await self._dispatch(conn, rid, request)

    async def _dispatch(self, conn: _Connection, rid: int, request: req.Request) -> None:
        """Answer a session or lobby request here; hand a game request to the connection's
        room."""
        if isinstance(request, req.Hello):
            await self._hello(conn, rid, request)
            return
        if isinstance(request, req.Resume):
            await self._resume(conn, rid, request)
            return
        record = conn.record
        if record is None:  # replaced by a newer connection of the session: it is closing
            return
        if isinstance(request, req.ListRooms):
            conn.reply(mpb.ServerMessage(
                request_id=rid, room_list=self.lobby.listing()).SerializeToString())
        elif isinstance(request, req.CreateRoom):
            self._create(conn, record, rid, request)
        elif isinstance(request, req.JoinRoom):
            await self._join(conn, record, rid, request)
        elif isinstance(request, req.LeaveRoom):
            await self._leave(conn, record, rid)
        elif isinstance(request, req.Act | req.RequestSnapshot | req.ConcedeGame):
            host = conn.host
            if host is None:
                conn.reply(error_bytes(mpb.ERROR_CODE_NOT_READY, "join a room first", rid))
                return
            command: cmd.Command
            if isinstance(request, req.Act):
                command = cmd.Act(conn.conn_id, rid, request.prompt_id, request.option_index,
                                  request.expected_state_id)
            elif isinstance(request, req.RequestSnapshot):
                command = cmd.Snapshot(conn.conn_id, rid)
            else:
                command = cmd.ConcedeGame(conn.conn_id, rid)
            try:
                # One command in flight per connection: nobody floods a room's inbox.
                await host.submit(command).wait()
            except RoomGoneError:
                conn.host = None
                conn.reply(error_bytes(mpb.ERROR_CODE_ROOM_NOT_FOUND, "the room closed", rid))
        else:
            assert_never(request)

    def _forget_if_idle(self, record: _SessionRecord) -> None:
        """A session whose connection dropped while it held no place in a room holds nothing
        worth resuming: forget it (memory and store; resuming it then says RESUME_FAILED and
        the client says Hello again), so sessions don't pile up."""
        if record.conn is not None or record.room_id is not None or self.stopping:
            return
        self._forget(record)

    async def _sweep(self) -> None:
        """Forget, now and then, sessions whose room closed while they were away and who
        have not come back for :attr:`Limits.session_ttl` seconds."""
        while True:
            await trio.sleep(self.limits.session_ttl / 4)
            now = trio.current_time()
            for record in list(self._sessions.values()):
                if record.conn is None and record.room_id is None and \
                        now - record.idle_since >= self.limits.session_ttl:
                    self._forget(record)

    def _forget(self, record: _SessionRecord) -> None:
        self._sessions.pop(record.session_id, None)
        for digest in (record.token_hash, record.prev_hash):
            if self._by_hash.get(digest) is record:
                del self._by_hash[digest]
        self.lobby.nursery.start_soon(self._drop_session, record.session_id)

    async def _drop_session(self, session_id: str) -> None:
        with contextlib.suppress(StoreClosedError):  # shutting down: recovery prunes it
            await self.writer.write([DropSession(session_id)])

    def _welcome(self, session_id: str, token: str) -> mpb.Welcome:
        return mpb.Welcome(protocol_version=PROTOCOL_VERSION,
                           server_version=server.__version__, session_id=session_id,
                           resume_token=token)

    def _new_token(self, record: _SessionRecord, presented: bytes = b"") -> str:
        """Give ``record`` a fresh resume token. Valid from now on: the new token, and the
        one the client just ``presented`` (until the new one is used once); every other is
        void."""
        token = secrets.token_urlsafe(32)
        for digest in (record.token_hash, record.prev_hash):
            if self._by_hash.get(digest) is record:
                del self._by_hash[digest]
        record.token_hash, record.prev_hash = token_hash(token), presented
        self._by_hash[record.token_hash] = record
        if presented:
            self._by_hash[presented] = record
        return token

    async def _hello(self, conn: _Connection, rid: int, request: req.Hello) -> None:
        record = _SessionRecord(conn.session.session_id, request.name, b"")
        token = self._new_token(record)
        self._sessions[record.session_id] = record
        conn.record, record.conn = record, conn
        await self.writer.write([record.row()])  # the token survives a crash from now on
        conn.reply(mpb.ServerMessage(request_id=rid, welcome=self._welcome(
            record.session_id, token)).SerializeToString())

    def _find(self, token: str) -> _SessionRecord | None:
        digest = token_hash(token)
        record = self._by_hash.get(digest)
        if record is None:
            return None
        current = hmac.compare_digest(record.token_hash, digest)
        previous = bool(record.prev_hash) and hmac.compare_digest(record.prev_hash, digest)
        return record if current or previous else None

    async def _resume(self, conn: _Connection, rid: int, request: req.Resume) -> None:
        record = self._find(request.token)
        if record is None:
            self._resume_failed(conn, rid)
            return
        # One resume of a session at a time: the connection that ends up holding the
        # session is the one holding its newest token.
        async with record.lock:
            if self._find(request.token) is not record:
                self._resume_failed(conn, rid)  # voided by the resume that went first
                return
            await self._take_over(conn, rid, request, record)

    @staticmethod
    def _resume_failed(conn: _Connection, rid: int) -> None:
        conn.reply(error_bytes(mpb.ERROR_CODE_RESUME_FAILED,
                               "unknown or expired resume token; say Hello to start a new "
                               "session", rid))

    async def _take_over(self, conn: _Connection, rid: int, request: req.Resume,
                         record: _SessionRecord) -> None:
        token = self._new_token(record, token_hash(request.token))
        await self.writer.write([record.row()])  # the new one survives a crash
        # No await from closing the older connection to queueing the Reattach: the room
        # then sees the Reattach before the older connection's Disconnect.
        old = record.conn
        if old is not None and old is not conn:
            old.record = None
            old.close(CLOSE_REPLACED, "replaced by a newer connection of this session")
        conn.session.resumed(record.session_id, record.name)
        conn.record, record.conn = record, conn
        welcome = self._welcome(record.session_id, token)
        host = self.lobby.hosts.get(record.room_id) if record.room_id else None
        if host is not None:
            out = await self._settle(conn, host, cmd.Reattach(
                conn.conn_id, rid, record.session_id, record.name, request.last_state_id,
                welcome.SerializeToString()))
            if out is not None and out.accepted:
                return
            if self.stopping:
                return  # a frozen room answers nothing; the client resumes after the restart
            if out is not None:
                record.room_id = None
                await self.writer.write([record.row()])
                return  # the room answered: Resumed without a place (seat freed, room full)
        record.room_id = None
        conn.reply(mpb.ServerMessage(request_id=rid, resumed=mpb.Resumed(
            welcome=welcome)).SerializeToString())

    def _create(self, conn: _Connection, record: _SessionRecord, rid: int,
                request: req.CreateRoom) -> None:
        limit = self.limits.max_rooms_per_session
        if len(record.created) >= limit:
            conn.reply(error_bytes(
                mpb.ERROR_CODE_LIMIT_REACHED,
                f"you may have at most {limit} open rooms you created; play or leave them "
                f"first (an unstarted room with nobody in it closes after "
                f"{self.limits.room.idle_seconds:.0f} s)", rid))
            return
        try:
            host = self.lobby.create(request.name, request.seats, request.clock_seconds)
        except LobbyFullError as exc:
            conn.reply(error_bytes(mpb.ERROR_CODE_LIMIT_REACHED, str(exc), rid))
            return
        record.created.add(host.room_id)
        conn.reply(mpb.ServerMessage(request_id=rid, room_list=mpb.RoomList(
            rooms=[host.room.info()])).SerializeToString())

    async def _join(self, conn: _Connection, record: _SessionRecord, rid: int,
                    request: req.JoinRoom) -> None:
        if conn.host is not None:
            conn.reply(error_bytes(mpb.ERROR_CODE_INVALID_ARGUMENT,
                                   "already in a room; leave it first", rid))
            return
        host = self.lobby.hosts.get(request.room_id)
        if host is None:
            conn.reply(error_bytes(mpb.ERROR_CODE_ROOM_NOT_FOUND,
                                   f"no room {request.room_id!r}", rid))
            return
        out = await self._settle(conn, host, cmd.Join(
            conn.conn_id, rid, record.session_id, record.name, request.spectator,
            request.deck))
        if out is None:
            conn.reply(error_bytes(mpb.ERROR_CODE_ROOM_NOT_FOUND,
                                   f"no room {request.room_id!r}", rid))
        elif out.accepted:
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
        with trio.CancelScope(shield=True), trio.move_on_after(SETTLE_SECONDS):
            try:
                out = await ticket.wait()
            except RoomGoneError:
                return None
            if out.accepted:
                conn.host = host
                if conn.record is not None:
                    conn.record.room_id = host.room_id
            return out
        return None  # pragma: no cover - a room that doesn't answer in SETTLE_SECONDS

    async def _leave(self, conn: _Connection, record: _SessionRecord, rid: int) -> None:
        host = conn.host
        if host is None:
            conn.reply(error_bytes(mpb.ERROR_CODE_NOT_READY, "not in a room", rid))
            return
        conn.host = None
        record.room_id = None
        with contextlib.suppress(RoomGoneError):
            await host.submit(cmd.Leave(conn.conn_id, rid)).wait()
        await self.writer.write([record.row()])

    async def _writer(self, sock: Socket, receive: trio.MemoryReceiveChannel[bytes],
                      conn: _Connection) -> None:
        """Send queued messages in order; a send that takes too long drops the client."""
        async with receive:
            async for data in receive:
                with trio.move_on_after(self.limits.send_timeout) as scope:
                    try:
                        await sock.send(data)
                    except SocketClosed:
                        return  # the reader sees the closed socket too and ends the connection
                if scope.cancelled_caught:
                    conn.close(CLOSE_TOO_SLOW, "client too slow: send timed out")
                    return
