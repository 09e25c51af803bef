"""A connection's sending side, apart from the transport and from what is sent (split from
:mod:`server.app`): the socket the transport hands the app (:class:`Socket`, and
:class:`ImmediateSocket` for one that can also write at once), and :class:`Writers` -- each
connection's writer task, which sends its queued messages in order, and the one watchdog
that drops a client whose send lasts ``send_timeout`` (architecture invariant 7: no client
can stall a room or the server).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import trio

from server.rooms.commands import ConnId
from server.transport.batch import FLUSH

if TYPE_CHECKING:
    from server.app import _Connection


class SocketClosed(Exception):
    """The peer went away."""


class Socket(Protocol):
    """A message-oriented, bidirectional connection (a WebSocket, or a test double)."""

    #: The client's address (the per-address limits count by it).
    address: str

    async def recv(self) -> bytes | str:
        """The next message; raises :class:`SocketClosed` once the peer is gone."""
        ...

    async def send(self, data: bytes) -> None:
        """Send one binary message; raises :class:`SocketClosed` once the peer is gone."""
        ...

    async def close(self, code: int, reason: str) -> None:
        """Close the connection with a close code."""
        ...


class SendNow(enum.Enum):
    """What :meth:`ImmediateSocket.send_now` did with a message."""

    NOT_NOW = "not now"  # nothing was written: send it the usual way
    SENT = "sent"  # written whole
    STARTED = "started"  # written in part: the rest leaves by ``flush``, before anything else


@runtime_checkable
class ImmediateSocket(Socket, Protocol):
    """A socket that can also write a message from the calling task's step, without
    yielding, when the kernel has room for it (a WebSocket over TCP)."""

    def send_now(self, data: bytes) -> SendNow:
        """Send one binary message now, or say why not (never waits, never raises)."""
        ...

    async def flush(self) -> None:
        """Send what :meth:`send_now` left unsent; raises :class:`SocketClosed` once the
        peer is gone."""
        ...


class Writers:
    """Every connection's writer task (:meth:`run`) and the watchdog of their sends'
    deadlines (:meth:`watch`). ``feed(conn_id, batched)``: a spectator's frames from its
    feed (for a :data:`~server.transport.batch.FEED_WAKE`); ``too_slow(conn_id)``: drop
    that client, whose send outlasted ``send_timeout``."""

    def __init__(self, send_timeout: float, feed: Callable[[ConnId, bool], list[bytes]],
                 too_slow: Callable[[ConnId], None]) -> None:
        self.send_timeout = send_timeout
        self._feed = feed
        self._too_slow = too_slow
        #: When each send in progress is due to have finished, by connection, in the order
        #: the sends began (so in deadline order: every send gets ``send_timeout``).
        self._sending: dict[ConnId, float] = {}

    async def run(self, sock: Socket, receive: trio.MemoryReceiveChannel[bytes],
                  conn: _Connection) -> None:
        """Send ``conn``'s queued messages in order until its outbox closes or the peer is
        gone.

        A batched connection (see :class:`server.transport.batch.Batcher`) gets, after its
        Welcome or Resumed, one ServerBatch frame per wake-up holding every message ready
        for it -- a room's delta, decision and clocks for one action travel together. While
        this task waits with nothing queued, a room may write its messages itself
        (:meth:`_Connection.write_now`); :data:`FLUSH` then asks for the rest of a frame the
        kernel took only part of."""
        batcher = conn.batcher
        conn_id = conn.conn_id

        def feed(batched: bool) -> list[bytes]:
            return self._feed(conn_id, batched)

        timeout, sending = self.send_timeout, self._sending
        # Each send's deadline is an entry in ``sending`` while it lasts, which the watchdog
        # (watch) enforces: a cancel scope per frame cost ~6 us more a frame, one per
        # connection ~0.8 KB of every idle connection's memory.
        async with receive:
            while True:
                first: bytes | None
                try:
                    first = receive.receive_nowait()
                except trio.WouldBlock:
                    first = None  # (waited for outside the handler: a handled exception
                    # would be kept, with its traceback, by every idle connection)
                except trio.EndOfChannel:
                    return
                if first is None:
                    conn.writer_idle = True  # (until reply() queues the next message)
                    try:
                        first = await receive.receive()
                    except trio.EndOfChannel:
                        return
                else:  # more was queued meanwhile: let others run first, as a send that
                    # the kernel takes at once doesn't yield (a deep outbox of single
                    # frames would hold the event loop for all of them)
                    await trio.lowlevel.checkpoint()
                frames = (first,) if first is FLUSH else \
                    batcher.frames(first, receive, conn.batch_requested, feed)
                for frame in frames:
                    sending[conn_id] = trio.current_time() + timeout
                    try:
                        if frame is FLUSH:
                            assert conn.immediate is not None  # (only write_now queues it)
                            await conn.immediate.flush()
                        else:
                            await sock.send(frame)
                    except SocketClosed:
                        return  # the reader sees the closed socket too and ends it
                    finally:
                        sending.pop(conn_id, None)

    async def watch(self) -> None:
        """Drop every client whose send has lasted ``send_timeout`` (close 1013): its
        receive window stayed full, and no client holds a room or the server up. Sleeps
        until the oldest send in progress is due (the sends began in deadline order), or a
        whole timeout while none is: a send begun meanwhile is due later than that."""
        sending, timeout = self._sending, self.send_timeout
        while True:
            if not sending:
                await trio.sleep(timeout)
                continue
            conn_id, due = next(iter(sending.items()))
            if trio.current_time() < due:
                await trio.sleep_until(due)
                continue
            del sending[conn_id]
            self._too_slow(conn_id)
