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


#: Messages of this many bytes or more are counted against an outbox's bytes
#: (:class:`OutboxBytes`; smaller ones are bounded by the outbox's count of messages).
BIG_MESSAGE = 1024
#: What the big messages in one client's outbox may add up to by default (``--outbox-bytes``,
#: on the server's port and a relay's).
OUTBOX_BYTES = 8 * 1024 * 1024
#: The close reason of a client whose outbox is full (its count of messages).
OUTBOX_FULL = "client too slow: outbox full"


class OutboxBytes:
    """The bytes of the big messages (:data:`BIG_MESSAGE` or more) in a client's outbox --
    a memory channel its writer empties in order -- and what they may add up to: a room list
    of ~568 KB queued 1,024 times for a client that never read (its outbox's count of
    messages the only bound) took a process from 194 MB to 1 GB (attacker round 14).

    Which messages are still in the outbox is known from the channel's count of them
    (``in_buffer``: ``statistics().current_buffer_used``), the writer taking them in order:
    no work on the writer's side, and for a small message only a length check here."""

    __slots__ = ("_big", "count", "limit", "total")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        #: Messages ever put in the outbox: those still in it are the last ``in_buffer``.
        self.count = 0
        #: Bytes of the big messages that may still be in it.
        self.total = 0
        #: Those messages, oldest first, as (index in :attr:`count`, size); None: none.
        self._big: list[tuple[int, int]] | None = None

    def put(self, send: trio.MemorySendChannel[bytes], data: bytes) -> str | None:
        """Queue ``data`` in the outbox ``send`` without waiting: None once queued; else
        the close reason of a client too slow for it (:data:`OUTBOX_FULL`, or its big
        messages' bytes over the limit), or "" for an outbox closed (its connection is
        closing: it resumes later)."""
        size = len(data)
        if self.counts(size) and not self.fits(size, send.statistics().current_buffer_used):
            return self.too_big_reason()
        try:
            send.send_nowait(data)
        except trio.WouldBlock:
            return OUTBOX_FULL
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            return ""
        self.added(size)
        return None

    def counts(self, size: int) -> bool:
        """Whether a message of ``size`` bytes is to be checked (:meth:`fits`): a big one
        while big ones may be queued -- else it fits, and the channel's count, which costs a
        call, needn't be read."""
        return size >= BIG_MESSAGE and self._big is not None

    def fits(self, size: int, in_buffer: int) -> bool:
        """Whether a message of ``size`` bytes may be queued now (one bigger than the limit
        alone always may)."""
        if not self.counts(size):
            return True
        self.taken(in_buffer)
        return not self.total or self.total + size <= self.limit

    def added(self, size: int) -> int:
        """A message of ``size`` bytes was queued: its index."""
        index = self.count
        if size >= BIG_MESSAGE:
            if self._big is None:
                self._big = []
            self._big.append((index, size))
            self.total += size
        self.count += 1
        return index

    def queued(self, index: int, in_buffer: int) -> bool:
        """Whether the message of ``index`` is still in the outbox."""
        return index >= self.count - in_buffer

    def taken(self, in_buffer: int) -> None:
        """Forget the big messages the writer has taken from the outbox."""
        big = self._big
        if big is None:
            return
        taken = self.count - in_buffer
        gone = 0
        for index, size in big:
            if index >= taken:
                break
            gone += 1
            self.total -= size
        if gone == len(big):
            self._big = None
        elif gone:
            del big[:gone]

    @property
    def big_messages(self) -> int:
        """How many big messages may still be in the outbox (:meth:`taken` updates it)."""
        return len(self._big or ())

    def too_big_reason(self) -> str:
        """The close reason of a client over the limit."""
        return f"client too slow: outbox over {self.limit / 2**20:g} MiB"


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


@runtime_checkable
class DirectSocket(Socket, Protocol):
    """A socket whose messages are handed on at once, in order, to be queued and sent
    elsewhere (a relay process's client, :class:`server.relay.host.RemoteSocket`): no outbox
    or writer task here -- the socket itself counts what was sent it that the far side's
    writer hasn't taken yet, as :class:`OutboxBytes` counts an outbox."""

    def direct(self, data: bytes) -> bool:
        """Hand ``data`` on now; False if it can't be (the client is gone or too slow)."""
        ...

    @property
    def sent(self) -> int:
        """How many messages were handed on: the index the next one gets."""
        ...

    def queued(self, index: int) -> bool:
        """Whether the message handed on as ``index`` may not have been taken by the far
        side's writer yet."""
        ...

    async def room(self) -> None:
        """Wait until a big message that can wait may be handed on (the way on isn't backed
        up); a checkpoint only when it waits."""
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
