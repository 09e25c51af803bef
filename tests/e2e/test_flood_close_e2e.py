"""A client flooding the server's own port with large frames is closed with a code and a
reason it can read -- 1008 "too many messages: closed for flooding" -- over real loopback
WebSockets. The server stopped reading a client it was closing, so the client's frames
filled the socket's buffers in front of its answer to the close: the closing handshake
never ended and the flooder saw only 1006, no reason (found fixing the relay's flood,
round 9). The relay's port had the same fix (tests/e2e/test_relay_flood_e2e.py)."""

from __future__ import annotations

from pathlib import Path

import trio
from websockets.exceptions import ConnectionClosed
from websockets.trio.client import connect

from server.app import App
from server.store import Store
from server.transport.ws import serve_app
from tests.e2e.test_relay_flood_e2e import _BIG, _hello


async def test_a_flooder_of_large_frames_learns_why_it_was_closed(tmp_path: Path) -> None:
    store = Store(tmp_path / "manawire.sqlite3")
    closes: list[tuple[int | None, str | None]] = []
    sent = [0]
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            app = App(store, nursery)
            server = await nursery.start(serve_app, app, "127.0.0.1", 0)
            port = server.listeners[0].socket.getsockname()[1]

            async def flood() -> None:
                async with connect(f"ws://127.0.0.1:{port}", compression=None,
                                   max_size=None) as ws:
                    await _hello(ws, "Flooder")
                    try:
                        for _ in range(400):  # (a bound: closed long before)
                            await ws.send(_BIG)
                            sent[0] += 1
                        with trio.fail_after(10):
                            while True:
                                await ws.recv()
                    except ConnectionClosed:
                        pass
                    closes.append((ws.close_code, ws.close_reason))

            async with trio.open_nursery() as attack:
                for _ in range(4):
                    attack.start_soon(flood)
            assert sent[0] >= 4 * 40  # (MiBs sent: the buffers filled)
            assert closes == [(1008, "too many messages: closed for flooding")] * 4
            nursery.cancel_scope.cancel()
    store.close()
