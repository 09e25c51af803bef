"""What every connection holds while idle stays small (issue 17: at most 32 KB of server
memory per idle connection at 3,000 of them, measured by ``manawire bench-server --idle``).

The figure itself is a benchmark's; these tests keep its causes from coming back: the
per-connection objects have no ``__dict__``, and a served connection doesn't keep its
handshake's request and response headers."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
import trio
from websockets.datastructures import Headers
from websockets.trio.client import connect
from websockets.trio.server import ServerConnection

from server.app import App, Limits, _Connection
from server.ratelimit import MessageLimiter, TokenBucket
from server.rooms.session import Session
from server.sending import Socket
from server.sessions import _SessionRecord
from server.store import Store
from server.transport import ws as transport
from server.transport.batch import Batcher
from server.transport.ws import AddressSlot, WebSocket


@pytest.mark.parametrize("cls", [_Connection, _SessionRecord, Session, MessageLimiter,
                                 TokenBucket, WebSocket, AddressSlot, Batcher])
def test_per_connection_objects_have_no_instance_dict(cls: type) -> None:
    assert "__slots__" in vars(cls), cls
    assert "__dict__" not in dir(cls), cls


PROBE = "X-Footprint-Probe"


async def test_a_served_connection_drops_its_handshake_headers(tmp_path: Path) -> None:
    seen: list[ServerConnection] = []
    arrived = trio.Event()

    class Spy(App):
        async def handle_connection(self, sock: Socket) -> None:
            assert isinstance(sock, WebSocket)
            seen.append(sock._ws)
            arrived.set()
            await super().handle_connection(sock)

    store = Store(tmp_path / "db.sqlite3")
    app: App | None = None
    try:
        async with trio.open_nursery() as nursery:
            app = Spy(store, nursery, Limits())
            server = await nursery.start(transport.serve_app, app, "127.0.0.1", 0)
            port = server.listeners[0].socket.getsockname()[1]
            with trio.fail_after(10):
                async with connect(f"ws://127.0.0.1:{port}", compression=None,
                                   additional_headers={PROBE: "x" * 200}) as client:
                    await arrived.wait()
                    assert seen[0].request is transport._HANDSHAKE_DONE
                    assert seen[0].response is None
                    # Nor anything else: the request the connection's parser still holds
                    # (a generator's local) was emptied too. (Only the client's own request
                    # -- in this process too -- has the header.)
                    assert client.request is not None
                    gc.collect()
                    kept = [obj for obj in gc.get_objects() if isinstance(obj, Headers)
                            and PROBE in obj and obj is not client.request.headers]
                    assert kept == []
            nursery.cancel_scope.cancel()
    finally:
        if app is not None:
            app.close()
        store.close()
