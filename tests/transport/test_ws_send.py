"""Sending on server.transport.ws's connections, over real loopback WebSockets.

A frame the kernel has room for is written at once, without a scheduler checkpoint (it
leaves in the sending task's own step); a frame it has no room for is finished under
websockets' send lock, and frames sent meanwhile, from any task, wait their turn: every
frame arrives whole and in the order it was sent. A peer that went away makes a send raise
``ConnectionClosed``, as websockets' own path does.
"""

from __future__ import annotations

import functools
import logging
import socket
import struct
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

import pytest
import trio
import trio.testing
from websockets.exceptions import ConnectionClosed
from websockets.trio.client import ClientConnection, connect
from websockets.trio.server import ServerConnection, serve

from server.sending import SendNow
from server.transport.ws import _CappedConnection

HOST = "127.0.0.1"
WAIT = 10.0  # the bound on every wait in these tests
BIG = 4 * 1024 * 1024  # far more than the socket buffers the test leaves hold
SMALL_BUFFER = 64 * 1024


@asynccontextmanager
async def serving(handler: Callable[[ServerConnection], Awaitable[None]]
                  ) -> AsyncIterator[int]:
    """A server on a free loopback port whose connections are ``_CappedConnection``s run by
    ``handler``; its port."""
    async with trio.open_nursery() as nursery:
        with trio.fail_after(WAIT):
            server = await nursery.start(functools.partial(
                serve, handler, 0, host=HOST, compression=None, max_size=None,
                create_connection=_CappedConnection))
        try:
            yield server.listeners[0].socket.getsockname()[1]
        finally:
            nursery.cancel_scope.cancel()


@asynccontextmanager
async def talking(handler: Callable[[ServerConnection], Awaitable[None]], *,
                  max_queue: int = 16) -> AsyncIterator[ClientConnection]:
    """:func:`serving`, and one client connected to it (``max_queue``: the frames it
    buffers beyond one before it stops reading its socket)."""
    async with serving(handler) as port, connect(
            f"ws://{HOST}:{port}/", proxy=None, compression=None, max_size=None,
            max_queue=max_queue, open_timeout=WAIT) as client:
        yield client


def _small_buffer(conn: ServerConnection | ClientConnection, option: int) -> None:
    """Shrink one end's socket buffer (``SO_SNDBUF`` or ``SO_RCVBUF``): a big frame then
    can't fit in the kernel's buffers."""
    stream = conn.stream
    assert isinstance(stream, trio.SocketStream)
    stream.socket.setsockopt(socket.SOL_SOCKET, option, SMALL_BUFFER)


@asynccontextmanager
async def talking_slowly(handler: Callable[[ServerConnection], Awaitable[None]]
                         ) -> AsyncIterator[ClientConnection]:
    """:func:`talking`, with a client that buffers one frame, then stops reading its
    (small-buffered) socket until the test reads: a big frame can't be written whole
    before that."""
    async with talking(handler, max_queue=0) as client:
        _small_buffer(client, socket.SO_RCVBUF)
        yield client


async def test_a_frame_the_kernel_has_room_for_leaves_without_a_checkpoint() -> None:
    sent = trio.Event()

    async def handler(ws: ServerConnection) -> None:
        assert isinstance(ws, _CappedConnection)
        with trio.testing.assert_no_checkpoints():
            await ws.send(b"first")
            await ws.send(b"second")
        sent.set()
        await trio.sleep_forever()

    async with talking(handler) as client:
        with trio.fail_after(WAIT):
            assert await client.recv() == b"first"
            assert await client.recv() == b"second"
            await sent.wait()


async def test_frames_the_kernel_has_no_room_for_arrive_whole_and_in_order() -> None:
    """A frame too big for the socket's buffers is finished under the send lock; small
    frames sent from other tasks meanwhile queue behind it (the locked path), and once it
    is written the fast path takes over again."""
    big = bytes(range(256)) * (BIG // 256)
    done = trio.Event()
    blocked = trio.Event()

    async def handler(ws: ServerConnection) -> None:
        async def small(tag: bytes) -> None:
            await blocked.wait()
            await ws.send(tag)

        _small_buffer(ws, socket.SO_SNDBUF)
        async with trio.open_nursery() as nursery:
            await ws.send(b"before")
            nursery.start_soon(small, b"during-1")
            nursery.start_soon(small, b"during-2")

            async def send_big() -> None:
                await ws.send(big)
                await ws.send(b"after")

            nursery.start_soon(send_big)
            with trio.fail_after(WAIT):
                await trio.testing.wait_all_tasks_blocked()
            assert ws.send_lock.locked()  # the big frame's rest waits for room
            blocked.set()
        done.set()
        await trio.sleep_forever()

    async with talking_slowly(handler) as client:
        with trio.fail_after(WAIT):
            await blocked.wait()
            got = [await client.recv() for _ in range(5)]
            await done.wait()
    assert got[0] == b"before"
    assert got[1] == big
    # Frames wait in the order their sends began; both small ones began while the big
    # frame held the lock, "after" only once it was written.
    assert sorted(got[2:4]) == [b"during-1", b"during-2"]
    assert got[4] == b"after"


async def test_a_send_to_a_peer_that_went_away_raises_connection_closed() -> None:
    outcome: list[BaseException | None] = []
    finished = trio.Event()
    client_gone = trio.Event()

    async def handler(ws: ServerConnection) -> None:
        await client_gone.wait()
        try:
            with trio.fail_after(WAIT):
                for _ in range(1000):  # until the reset or the close is seen
                    await ws.send(b"x" * 1024)
                    await trio.sleep(0.001)
            outcome.append(None)
        except ConnectionClosed as exc:
            outcome.append(exc)
        finished.set()

    async with serving(handler) as port:
        # A client that opens the WebSocket by hand, then resets the TCP connection
        # without a closing handshake.
        with trio.fail_after(WAIT):
            stream = await trio.open_tcp_stream(HOST, port)
            await stream.send_all(
                f"GET / HTTP/1.1\r\nHost: {HOST}:{port}\r\nUpgrade: websocket\r\n"
                "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n".encode())
            answer = b""
            while b"\r\n\r\n" not in answer:
                answer += await stream.receive_some(4096)
        assert answer.startswith(b"HTTP/1.1 101")
        stream.socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                 struct.pack("ii", 1, 0))
        await stream.aclose()
        client_gone.set()
        with trio.fail_after(WAIT):
            await finished.wait()
    assert len(outcome) == 1 and isinstance(outcome[0], ConnectionClosed)


@pytest.mark.parametrize("size", [0, 1, 125, 126, 65535, 65536])
async def test_frames_of_every_length_encoding_arrive_intact(size: int) -> None:
    """RFC 6455 5.2: 7-bit, 16-bit and 64-bit payload lengths."""
    payload = bytes(i % 251 for i in range(size))

    async def handler(ws: ServerConnection) -> None:
        await ws.send(payload)
        await trio.sleep_forever()

    async with talking(handler) as client:
        with trio.fail_after(WAIT):
            assert await client.recv() == payload


async def test_send_now_writes_from_any_task_without_a_checkpoint() -> None:
    """What a room task uses to write a player's messages (server.sending.ImmediateSocket)."""
    results: list[SendNow] = []

    async def handler(ws: ServerConnection) -> None:
        assert isinstance(ws, _CappedConnection)
        with trio.testing.assert_no_checkpoints():
            results.append(ws.send_now(b"one"))
            results.append(ws.send_now(b"two"))
        await trio.sleep_forever()

    async with talking(handler) as client:
        with trio.fail_after(WAIT):
            assert [await client.recv(), await client.recv()] == [b"one", b"two"]
    assert results == [SendNow.SENT, SendNow.SENT]


async def test_what_send_now_left_unsent_leaves_before_any_later_frame() -> None:
    """A frame the kernel took only in part (STARTED): nothing else may be written now
    (NOT_NOW), a later send goes after its rest, and flush() finishes it."""
    big = bytes(range(256)) * (BIG // 256)
    results: list[SendNow] = []
    done = trio.Event()

    async def handler(ws: ServerConnection) -> None:
        assert isinstance(ws, _CappedConnection)
        _small_buffer(ws, socket.SO_SNDBUF)
        await ws.send(b"before")
        results.append(ws.send_now(big))
        results.append(ws.send_now(b"not now"))
        async with trio.open_nursery() as nursery:
            nursery.start_soon(ws.send, b"after")  # the rest of big goes first
            nursery.start_soon(ws.flush)
        await ws.flush()  # nothing left: returns
        done.set()
        await trio.sleep_forever()

    async with talking_slowly(handler) as client:
        with trio.fail_after(WAIT):
            got = [await client.recv() for _ in range(3)]
            await done.wait()
    assert results == [SendNow.STARTED, SendNow.NOT_NOW]
    assert got == [b"before", big, b"after"]


async def test_send_now_on_a_closed_connection_does_nothing() -> None:
    results: list[SendNow] = []
    finished = trio.Event()

    async def handler(ws: ServerConnection) -> None:
        assert isinstance(ws, _CappedConnection)
        await ws.aclose()
        results.append(ws.send_now(b"too late"))
        finished.set()

    async with talking(handler) as client:
        with trio.fail_after(WAIT), pytest.raises(ConnectionClosed):
            await client.recv()
        with trio.fail_after(WAIT):
            await finished.wait()
    assert results == [SendNow.NOT_NOW]


async def test_a_connection_aborted_while_a_frame_is_half_written_ends_quietly(
        caplog: pytest.LogCaptureFixture) -> None:
    """send_now left part of a frame unsent (the client stopped reading), then the
    connection was aborted (its socket closed, as websockets does when a close times out):
    websockets then writes only the end of the stream and expects no error; the rest of the
    frame is dropped, not written to the closed socket (that error escaped its reader)."""
    big = bytes(range(256)) * (BIG // 256)
    results: list[SendNow] = []
    finished = trio.Event()

    async def handler(ws: ServerConnection) -> None:
        assert isinstance(ws, _CappedConnection)
        _small_buffer(ws, socket.SO_SNDBUF)
        results.append(ws.send_now(big))
        await ws.stream.aclose()  # an abort
        with trio.fail_after(WAIT):
            await ws.wait_closed()
        finished.set()

    async with talking_slowly(handler) as client:
        with trio.fail_after(WAIT):
            await finished.wait()
        del client
    assert results == [SendNow.STARTED]
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
