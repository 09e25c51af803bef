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


class App:
    """The Manawire server application: lobby, rooms and client connections."""

    def __init__(self, store: Store, nursery: trio.Nursery, limits: Limits | None = None) -> None:
        self.lobby = Lobby(store, nursery)
        self.limits = limits or Limits()

    async def handle_connection(self, sock: Socket) -> None:
        """Serve one client until it disconnects (or is disconnected)."""
        session = Session()
        send, receive = trio.open_memory_channel[bytes](self.limits.outbox_size)
        kicked: list[str] = []
        room: Room | None = None
        member: Member | None = None
        async with trio.open_nursery() as nursery:

            def kick(reason: str) -> None:
                kicked.append(reason)
                nursery.cancel_scope.cancel()

            nursery.start_soon(self._writer, sock, receive, kick)
            try:
                while True:
                    try:
                        data = await sock.recv()
                    except SocketClosed:
                        break
                    try:
                        rid, request = session.receive(data)
                    except SessionError as exc:
                        self._queue(send, error_bytes(exc.code, exc.message, exc.request_id),
                                    kick)
                        continue
                    if isinstance(request, req.Hello):
                        member = Member(session.session_id, request.name, send.clone(), kick)
                        self._queue(send, mpb.ServerMessage(request_id=rid, welcome=mpb.Welcome(
                            protocol_version=PROTOCOL_VERSION, server_version=server.__version__,
                            session_id=session.session_id)).SerializeToString(), kick)
                    elif isinstance(request, req.ListRooms):
                        self._queue(send, mpb.ServerMessage(
                            request_id=rid, room_list=self.lobby.listing()).SerializeToString(),
                            kick)
                    elif isinstance(request, req.CreateRoom):
                        try:
                            created = self.lobby.create(request.name, request.seats)
                        except LobbyFullError as exc:
                            self._queue(send, error_bytes(mpb.ERROR_CODE_ROOM_FULL, str(exc), rid),
                                        kick)
                            continue
                        self._queue(send, mpb.ServerMessage(request_id=rid, room_list=mpb.RoomList(
                            rooms=[created.info()])).SerializeToString(), kick)
                    elif isinstance(request, req.JoinRoom):
                        target = self.lobby.rooms.get(request.room_id)
                        in_room = room is not None and member is not None and \
                            room.has_member(member)
                        if target is None or in_room:
                            why = ("already in a room; leave it first" if in_room
                                   else f"no room {request.room_id!r}")
                            code = (mpb.ERROR_CODE_INVALID_ARGUMENT if in_room
                                    else mpb.ERROR_CODE_ROOM_NOT_FOUND)
                            self._queue(send, error_bytes(code, why, rid), kick)
                            continue
                        assert member is not None
                        room = target
                        await room.submit(Command(member, rid, request))
                    elif room is None or member is None:
                        self._queue(send, error_bytes(mpb.ERROR_CODE_NOT_READY,
                                                      "join a room first", rid), kick)
                    else:
                        await room.submit(Command(member, rid, request))
                        if isinstance(request, req.LeaveRoom):
                            room = None
            finally:
                nursery.cancel_scope.cancel()
                if room is not None and member is not None:
                    room.disconnected(member)
        if kicked:
            with trio.move_on_after(1):
                await sock.close(CLOSE_TOO_SLOW, kicked[0][:120])

    @staticmethod
    def _queue(send: trio.MemorySendChannel[bytes], data: bytes,
               kick: Callable[[str], None]) -> None:
        try:
            send.send_nowait(data)
        except trio.WouldBlock:
            kick("client too slow: outbox full")

    async def _writer(self, sock: Socket, receive: trio.MemoryReceiveChannel[bytes],
                      kick: Callable[[str], None]) -> None:
        """Send queued messages in order; a send that takes too long drops the client."""
        async with receive:
            async for data in receive:
                with trio.move_on_after(self.limits.send_timeout) as scope:
                    try:
                        await sock.send(data)
                    except SocketClosed:
                        kick("connection closed")
                        return
                if scope.cancelled_caught:
                    kick("client too slow: send timed out")
                    return
