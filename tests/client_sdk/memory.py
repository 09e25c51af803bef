"""The real SDK :class:`~client_sdk.client.Client` against an :class:`~server.app.App` run in
memory (tests/rooms/test_app_memory.py): each connection the client opens is a
:class:`MemorySocket` the app handles, seen by the client as a websockets connection
(``send``, ``recv``, ``aclose``; :class:`ConnectionClosed` once either side closed it)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

import trio
from websockets.exceptions import ConnectionClosed
from websockets.frames import Close

from client_sdk.client import Client
from server.app import App
from server.sending import SocketClosed
from tests.rooms.test_app_memory import MemorySocket


class _ServerSide(MemorySocket):
    """A memory socket whose close by the server ends the client's reading too."""

    async def send(self, data: bytes) -> None:
        if self.closed is not None:
            raise SocketClosed
        try:
            await self._outgoing.send(data)
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            raise SocketClosed from None

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)
        self._outgoing.close()


class MemoryConnection:
    """The client's end of a :class:`_ServerSide` socket, as websockets' connection."""

    def __init__(self, sock: _ServerSide) -> None:
        self.sock = sock
        self._closed: Close | None = None

    def _gone(self) -> ConnectionClosed:
        closed = self.sock.closed
        rcvd = Close(closed[0], closed[1]) if closed is not None else self._closed
        return ConnectionClosed(rcvd, None)

    async def send(self, data: bytes | str) -> None:
        if self._closed is not None or self.sock.closed is not None:
            raise self._gone()
        try:
            await self.sock.to_server.send(data if isinstance(data, bytes) else data.encode())
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            raise self._gone() from None

    async def recv(self) -> bytes:
        try:
            return await self.sock.from_server.receive()
        except (trio.EndOfChannel, trio.ClosedResourceError):
            raise self._gone() from None

    async def aclose(self, code: int = 1000, reason: str = "") -> None:
        if self._closed is None:
            self._closed = Close(code, reason)
            self.sock.to_server.close()  # (the server reads SocketClosed)
            self.sock.from_server.close()  # (a task reading here gets ConnectionClosed)
        await trio.lowlevel.checkpoint()


@dataclass
class Network:
    """How the memory clients reach ``app``: ``up`` False refuses every connection (a
    server restarting); :attr:`connections` counts those opened."""

    app: App
    up: bool = True
    connections: list[_ServerSide] = field(default_factory=list)

    def client_class(self) -> type[Client]:
        network = self

        class MemoryClient(Client):
            async def _open(self) -> MemoryConnection:  # type: ignore[override]
                if not network.up:
                    raise OSError("connection refused (the server is down)")
                sock = _ServerSide()
                network.connections.append(sock)
                network.app.lobby.nursery.start_soon(network.app.handle_connection, sock)
                await trio.lowlevel.checkpoint()
                return MemoryConnection(sock)

        return MemoryClient


async def until(client: Client, done: Callable[[], bool], seconds: float = 60) -> None:
    """Process ``client``'s messages until ``done()``."""
    with trio.fail_after(seconds):
        while not done():
            await client.next_message()


async def deciding(app: App, room_id: str, *clients: Client) -> Client:
    """The client the room's game waits on, once it holds the decision."""
    game = app.lobby.rooms[room_id].game
    assert game is not None and game.pending is not None
    client = next(c for c in clients if c.seat == game.pending.seat)
    await until(client, lambda: client.my_decision is not None)
    return client


@asynccontextmanager
async def seated_pair(client_class: type[Client]) -> AsyncIterator[tuple[Client, Client, str]]:
    """Ann and Bob (``client_class``: a :meth:`Network.client_class`) seated in a new
    two-player room, its game begun, each holding its first view: (ann, bob, room id)."""
    async with client_class.connect("memory", "Ann") as ann, \
            client_class.connect("memory", "Bob") as bob:
        room = await ann.create_room("t")
        await ann.join(room.room_id)
        await bob.join(room.room_id)
        await until(ann, lambda: ann.mirror.ready)
        await until(bob, lambda: bob.mirror.ready)
        yield ann, bob, room.room_id
