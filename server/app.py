"""Wiring: one client connection from hello to goodbye, independent of the transport.

The transport hands :meth:`App.handle_connection` a :class:`Socket`; tests can hand it a
trio memory-stream pair instead of a WebSocket.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import trio

import server
from protocol.v1 import messages_pb2 as mpb
from server.rooms import session as req
from server.rooms.lobby import Lobby, LobbyFullError
from server.rooms.room import Command, Member, Room
from server.rooms.session import PROTOCOL_VERSION, Session, SessionError, error_bytes
from server.store import Store

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
    """Per-connection limits that keep one client from stalling or flooding the server."""

    outbox_size: int = 1024  # messages queued for one client before it is disconnected
    send_timeout: float = 10.0  # seconds one send may take before the client is dropped


CLOSE_TOO_SLOW = 1013  # RFC 6455 "try again later"


@dataclass
class _Connection:
    """One client's connection state, owned by its :meth:`App.handle_connection` task."""

    session: Session
    send: trio.MemorySendChannel[bytes]
    scope: trio.CancelScope
    member: Member | None = None
    room: Room | None = None
    kicked: str = ""

    def kick(self, reason: str) -> None:
        """Disconnect this client (it fell behind); it may reconnect and resync later."""
        self.kicked = self.kicked or reason
        self.scope.cancel()

    def reply(self, data: bytes) -> None:
        """Queue a message for this client without ever waiting (invariant 7)."""
        try:
            self.send.send_nowait(data)
        except trio.WouldBlock:
            self.kick("client too slow: outbox full")


class App:
    """The Manawire server application: lobby, rooms and client connections."""

    def __init__(self, store: Store, nursery: trio.Nursery, limits: Limits | None = None) -> None:
        self.lobby = Lobby(store, nursery)
        self.limits = limits or Limits()

    async def handle_connection(self, sock: Socket) -> None:
        """Serve one client until it disconnects (or is disconnected)."""
        send, receive = trio.open_memory_channel[bytes](self.limits.outbox_size)
        async with trio.open_nursery() as nursery:
            conn = _Connection(Session(), send, nursery.cancel_scope)
            nursery.start_soon(self._writer, sock, receive, conn.kick)
            try:
                while True:
                    try:
                        data = await sock.recv()
                    except SocketClosed:
                        break
                    try:
                        rid, request = conn.session.receive(data)
                    except SessionError as exc:
                        conn.reply(error_bytes(exc.code, exc.message, exc.request_id))
                        continue
                    await self._dispatch(conn, rid, request)
            finally:
                nursery.cancel_scope.cancel()
                if conn.room is not None and conn.member is not None:
                    conn.room.disconnected(conn.member)
        if conn.kicked:
            with trio.move_on_after(1):
                await sock.close(CLOSE_TOO_SLOW, conn.kicked[:120])

    async def _dispatch(self, conn: _Connection, rid: int, request: req.Request) -> None:
        """Answer a lobby request here; hand anything about a game to the member's room."""
        if isinstance(request, req.Hello):
            conn.member = Member(conn.session.session_id, request.name, conn.send.clone(),
                                 conn.kick)
            conn.reply(mpb.ServerMessage(request_id=rid, welcome=mpb.Welcome(
                protocol_version=PROTOCOL_VERSION, server_version=server.__version__,
                session_id=conn.session.session_id)).SerializeToString())
            return
        if isinstance(request, req.ListRooms):
            conn.reply(mpb.ServerMessage(
                request_id=rid, room_list=self.lobby.listing()).SerializeToString())
            return
        if isinstance(request, req.CreateRoom):
            try:
                created = self.lobby.create(request.name, request.seats,
                                            request.clock_seconds)
            except LobbyFullError as exc:
                conn.reply(error_bytes(mpb.ERROR_CODE_ROOM_FULL, str(exc), rid))
                return
            conn.reply(mpb.ServerMessage(request_id=rid, room_list=mpb.RoomList(
                rooms=[created.info()])).SerializeToString())
            return
        member = conn.member
        assert member is not None  # the session refuses everything but Hello before it
        if isinstance(request, req.JoinRoom):
            if conn.room is not None and conn.room.has_member(member):
                conn.reply(error_bytes(mpb.ERROR_CODE_INVALID_ARGUMENT,
                                       "already in a room; leave it first", rid))
                return
            target = self.lobby.rooms.get(request.room_id)
            if target is None:
                conn.reply(error_bytes(mpb.ERROR_CODE_ROOM_NOT_FOUND,
                                       f"no room {request.room_id!r}", rid))
                return
            conn.room = target
        elif conn.room is None:
            conn.reply(error_bytes(mpb.ERROR_CODE_NOT_READY, "join a room first", rid))
            return
        await conn.room.submit(Command(member, rid, request))
        if isinstance(request, req.LeaveRoom):
            conn.room = None

    async def _writer(self, sock: Socket, receive: trio.MemoryReceiveChannel[bytes],
                      kick: Callable[[str], None]) -> None:
        """Send queued messages in order; a send that takes too long drops the client."""
        async with receive:
            async for data in receive:
                with trio.move_on_after(self.limits.send_timeout) as scope:
                    try:
                        await sock.send(data)
                    except SocketClosed:
                        return  # the reader sees the closed socket too and ends the connection
                if scope.cancelled_caught:
                    kick("client too slow: send timed out")
                    return
