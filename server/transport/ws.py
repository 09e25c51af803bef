"""WebSocket transport on websockets' trio API (``websockets.trio``)."""

from __future__ import annotations

import trio
from websockets.exceptions import ConnectionClosed
from websockets.trio.server import Server, ServerConnection, serve

from server.app import App, SocketClosed

MAX_MESSAGE = 64 * 1024  # client messages are small; anything larger is refused


class WebSocket:
    """Adapts a websockets connection to :class:`server.app.Socket`."""

    def __init__(self, ws: ServerConnection) -> None:
        self._ws = ws

    async def recv(self) -> bytes | str:
        try:
            return await self._ws.recv()
        except ConnectionClosed:
            raise SocketClosed from None

    async def send(self, data: bytes) -> None:
        try:
            await self._ws.send(data)
        except ConnectionClosed:
            raise SocketClosed from None

    async def close(self, code: int, reason: str) -> None:
        await self._ws.aclose(code, reason)


async def serve_app(app: App, host: str, port: int,
                    task_status: trio.TaskStatus[Server] = trio.TASK_STATUS_IGNORED) -> None:
    """Serve ``app`` on ``host:port`` until cancelled. Reports the Server via task_status."""

    async def handler(ws: ServerConnection) -> None:
        await app.handle_connection(WebSocket(ws))

    await serve(handler, port, host=host, max_size=MAX_MESSAGE, compression=None,
                task_status=task_status)
