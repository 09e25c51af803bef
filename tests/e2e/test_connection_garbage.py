"""A connection that ends leaves no cyclic garbage on the server: everything it held (its
session, streams, socket, websockets' protocol) is freed by reference counting as it ends.

A serving process relies on it (:mod:`server.gctune`): cyclic garbage waits for the full
collection, every ``--gc-full-seconds``. An operator's soak found each finished bot game
keeping ~550 KB until then (RSS 94 MB to 508 MB in ten minutes, then a 0.5 s collection):
a player's connection held its last command's ticket, whose callback held the connection;
and a connection lost abruptly kept websockets' exceptions, whose tracebacks' frames held
the connection and its protocol. The collector is off while each test runs, so whatever
it finds after is what the connections left behind."""

from __future__ import annotations

import contextlib
import gc
import socket
import struct
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import trio
from websockets.trio.client import connect

import server.transport.ws as ws_module
from client_sdk.bots import run_bot_games
from protocol.v1 import messages_pb2 as mpb
from tests.e2e.test_spectator_resume_e2e import serving

#: The server's objects of a connection (one of them in the garbage: the whole lot is).
SERVER_TYPES = {"_Connection", "_CappedConnection", "ServerProtocol", "Session", "Ticket",
                "WebSocket", "Batcher"}


@contextmanager
def collector_off() -> Iterator[Counter[str]]:
    """Run the block with the collector off; then collect, and count the types found."""
    found: Counter[str] = Counter()
    gc.collect()
    gc.disable()
    try:
        yield found
    finally:
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            gc.collect()
            found.update(type(o).__qualname__ for o in gc.garbage
                         if type(o).__qualname__ in SERVER_TYPES)
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
            gc.enable()


async def test_players_who_finish_a_game_and_leave_leave_no_cyclic_garbage(
        tmp_path: Path) -> None:
    with trio.fail_after(120):
        async with serving(tmp_path / "db.sqlite3") as (app, port):
            with collector_off() as found:
                summary = await run_bot_games(f"ws://127.0.0.1:{port}", 2, 2, seed=3,
                                              game_seconds=100)
                assert summary.completed == 2
                for _ in range(100):  # (their connections' ends are handled)
                    if not app.conns:
                        break
                    await trio.sleep(0.05)
                assert not app.conns
    assert not found, found


async def test_connections_reset_by_their_clients_leave_no_cyclic_garbage(
        tmp_path: Path) -> None:
    with trio.fail_after(60):
        async with serving(tmp_path / "db.sqlite3") as (app, port):
            with collector_off() as found:
                for n in range(10):
                    async with connect(f"ws://127.0.0.1:{port}", compression=None) as ws:
                        await ws.send(mpb.ClientMessage(request_id=1, hello=mpb.Hello(
                            protocol_version=1, display_name=f"gone{n}")).SerializeToString())
                        await ws.recv()
                        sock = ws.stream.socket  # type: ignore[attr-defined]
                        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                        struct.pack("ii", 1, 0))
                        sock.close()  # (a reset: the client's own close fails, below)
                        with contextlib.suppress(Exception):  # whatever the client says
                            await ws.recv()
                for _ in range(100):
                    if not app.conns:
                        break
                    await trio.sleep(0.05)
                assert not app.conns
    assert not found, found


async def test_connections_that_never_finish_their_handshake_leave_no_cyclic_garbage(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An attacker's flood (round 14): TCP connections that send nothing, or half a request,
    until the server drops them at the handshake's time limit. Each left its connection, its
    tasks and their frames (~150 objects) to the full collection, which 11,000 of them made
    stop every room for 6.5 s."""
    monkeypatch.setattr(ws_module, "OPEN_TIMEOUT", 0.5)
    with trio.fail_after(60):
        async with serving(tmp_path / "db.sqlite3") as (app, port):
            with collector_off() as found:
                socks = []
                for n in range(20):
                    sock = trio.socket.socket()
                    await sock.connect(("127.0.0.1", port))
                    if n % 2:  # half a request, then nothing
                        await sock.send(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                    socks.append(sock)
                for sock in socks:  # each closed by the server at the time limit
                    with trio.fail_after(10):
                        while await sock.recv(4096):
                            pass
                    sock.close()
                await trio.sleep(0.2)  # (their ends handled)
            # Each is told to the operator (the refusals' line and metrics): a flood of them
            # was seen nowhere.
            assert app.refusals.totals["silent"] == 20
    assert not found, found
