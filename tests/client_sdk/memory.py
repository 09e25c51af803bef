"""The real SDK :class:`~client_sdk.client.Client` against an :class:`~server.app.App` run in
memory (tests/rooms/test_app_memory.py): each connection the client opens is a
:class:`MemorySocket` the app handles, seen by the client as a websockets connection
(``send``, ``recv``, ``aclose``; :class:`ConnectionClosed` once either side closed it)."""

from __future__ import annotations

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
