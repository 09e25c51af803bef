"""The link between the server and one of its relay processes: a stream socket carrying
length-prefixed records, each ``u32 length | u8 kind | body`` (big-endian).

Relay -> server: a client connected (:data:`OPEN`: its relay-side id and address), sent a
message (:data:`CLIENT`) or is gone (:data:`GONE`); the relay listens on a port
(:data:`LISTENING`); one of its limits refused a client (:data:`REFUSED`: the kind of
refusal, :mod:`server.refusals`, and the client's address); a client's writer took a big
message the server sent it from its outbox (:data:`TAKEN`: how many of the server's
messages for it it has taken so far). Server -> relay: a message
for one connection (:data:`DIRECT`), a message for every watcher of a view class
(:data:`PUBLISH`, once per class, however many watch it), a connection starts or stops
watching a class (:data:`WATCH`, :data:`UNWATCH`), close a connection (:data:`CLOSE`), a
room failed (:data:`DROP_ROOM`), the server took a connection's messages (:data:`CREDIT`:
how many), an action of a connection was applied (:data:`REFUND`: its message's token
back, as :meth:`server.ratelimit.MessageLimiter.refund`).

Both ends only ever append to an in-memory buffer (no waiting on the peer while handling a
room's output); one task per end writes it out. The records keep the order they were
written in, so a connection sees its messages and its view's stream in the room's order.

Flow control: a relay forwards at most :data:`WINDOW` messages of one client that the
server hasn't taken yet (it reads no more of that client until :data:`CREDIT` comes), and
reads no client while :data:`ROOMY` bytes wait to be written to the link: no client can
fill the link, nor the server's inbox of a relayed client. The other way, the server counts
what it sent each relayed client that the relay's writer hasn't taken yet (:data:`TAKEN`,
for the big messages only), as it counts a client's outbox on its own port: one big room
list at a time, ``--outbox-bytes`` of big messages, then the client is dropped (1013); and
it sends a room list only while the link has room (fewer than :data:`ROOMY` bytes queued):
no client -- nor a thousand of them, each asking once -- can fill the link either. A link
whose writer still finds more than ``max_buffered`` bytes queued is broken
(:meth:`Writer.run` raises): its relay exits and is started again, its clients resume.
"""

from __future__ import annotations

import struct
from collections.abc import AsyncGenerator, Iterator
from dataclasses import dataclass

import trio

# ---- record kinds
OPEN, CLIENT, GONE, LISTENING, REFUSED, TAKEN = 1, 2, 3, 4, 5, 6
DIRECT, PUBLISH, WATCH, UNWATCH, CLOSE, DROP_ROOM, CREDIT, REFUND = (
    10, 11, 12, 13, 14, 15, 16, 17)

_HEAD = struct.Struct(">IB")
_U32 = struct.Struct(">I")
_ID_TIER = struct.Struct(">IH")
_ID_CODE = struct.Struct(">IH")
_ID_FLAG = struct.Struct(">IB")
_ID_COUNT = struct.Struct(">II")
#: A :data:`TAKEN` count is sent modulo 2**32.
COUNT_MASK = 0xFFFFFFFF
#: A record longer than this is a broken link (a room's snapshot is ~100 KB at most).
MAX_RECORD = 64 * 1024 * 1024
#: Messages of one client a relay forwards that the server hasn't taken yet, at most (well
#: under the server's inbox of a relayed client, ``server.relay.host.INBOX``).
WINDOW = 16
#: The server says it took a client's messages (:data:`CREDIT`) every this many.
CREDIT_EVERY = WINDOW // 2
#: Bytes queued for the link at which a relay stops reading its clients until they are
#: written out (a client message is 64 KiB at most).
ROOMY = 1 << 20


class LinkBrokenError(Exception):
    """The peer sent something that is no record: the link is closed."""


def record(kind: int, body: bytes) -> bytes:
    """One record."""
    return _HEAD.pack(len(body) + 1, kind) + body


def conn_body(conn: int, data: bytes = b"") -> bytes:
    return _U32.pack(conn) + data


def room_key(room_id: str, tier: int) -> bytes:
    """A view class's key on the link: tier and room id."""
    room = room_id.encode()
    return struct.pack(">HB", tier, len(room)) + room


def watch_body(conn: int, room_id: str, tier: int, first: tuple[bytes, ...]) -> bytes:
    parts = [_U32.pack(conn), room_key(room_id, tier), _U32.pack(len(first))]
    for data in first:
        parts += [_U32.pack(len(data)), data]
    return b"".join(parts)


@dataclass(frozen=True, slots=True)
class Watch:
    conn: int
    room_id: str
    tier: int
    first: tuple[bytes, ...]


def read_conn(body: bytes) -> tuple[int, bytes]:
    """A (connection id, data) body."""
    return _U32.unpack_from(body)[0], body[4:]


def read_key(body: bytes, at: int = 0) -> tuple[str, int, int]:
    """(room id, tier, offset after the key)."""
    tier, size = struct.unpack_from(">HB", body, at)
    start = at + 3
    return body[start:start + size].decode(), tier, start + size


def read_watch(body: bytes) -> Watch:
    conn = _U32.unpack_from(body)[0]
    room_id, tier, at = read_key(body, 4)
    count = _U32.unpack_from(body, at)[0]
    at += 4
    first = []
    for _ in range(count):
        size = _U32.unpack_from(body, at)[0]
        first.append(body[at + 4:at + 4 + size])
        at += 4 + size
    return Watch(conn, room_id, tier, tuple(first))


def close_body(conn: int, code: int, reason: str) -> bytes:
    return _ID_CODE.pack(conn, code) + reason.encode()[:123]


def read_close(body: bytes) -> tuple[int, int, str]:
    conn, code = _ID_CODE.unpack_from(body)
    return conn, code, body[_ID_CODE.size:].decode(errors="replace")


def credit_body(conn: int, count: int) -> bytes:
    return _ID_CODE.pack(conn, count)


def read_credit(body: bytes) -> tuple[int, int]:
    """(connection id, messages taken) of a :data:`CREDIT` body."""
    conn, count = _ID_CODE.unpack_from(body)
    return conn, count


def taken_body(conn: int, count: int) -> bytes:
    """A :data:`TAKEN` body: ``count`` modulo 2**32 (the server knows how many it sent)."""
    return _ID_COUNT.pack(conn, count & COUNT_MASK)


def read_taken(body: bytes) -> tuple[int, int]:
    """(connection id, the server's messages for it taken so far) of a :data:`TAKEN`
    body."""
    conn, count = _ID_COUNT.unpack_from(body)
    return conn, count


def flag_body(conn: int, flag: bool) -> bytes:
    return _ID_FLAG.pack(conn, int(flag))


def read_flag(body: bytes) -> tuple[int, bool]:
    conn, flag = _ID_FLAG.unpack_from(body)
    return conn, bool(flag)


def refused_body(kind: str, address: str) -> bytes:
    name = kind.encode()
    return bytes((len(name),)) + name + address.encode()


def read_refused(body: bytes) -> tuple[str, str]:
    """(kind, address) of a :data:`REFUSED` body."""
    size = body[0]
    return (body[1:1 + size].decode(errors="replace"),
            body[1 + size:].decode(errors="replace"))


class Reader:
    """Splits a byte stream into records."""

    def __init__(self) -> None:
        self._buf = bytearray()

    def feed(self, data: bytes | bytearray) -> Iterator[tuple[int, bytes]]:
        """The whole records ``data`` completes, as (kind, body)."""
        buf = self._buf
        buf += data
        at = 0
        while len(buf) - at >= _HEAD.size:
            size, kind = _HEAD.unpack_from(buf, at)
            if size < 1 or size > MAX_RECORD:
                raise LinkBrokenError(f"a link record of {size} bytes")
            end = at + 4 + size
            if end > len(buf):
                break
            yield kind, bytes(buf[at + _HEAD.size:end])
            at = end
        del buf[:at]


async def records(stream: trio.abc.ReceiveStream) -> AsyncGenerator[tuple[int, bytes]]:
    """The records read from ``stream`` as (kind, body), until the peer closes it."""
    reader = Reader()
    while True:
        data = await stream.receive_some(1 << 20)
        if not data:
            return
        for item in reader.feed(data):
            yield item


class Writer:
    """An end's outgoing records: appended without waiting, written by :meth:`run`."""

    def __init__(self, stream: trio.abc.SendStream, max_buffered: int = MAX_RECORD) -> None:
        self._stream = stream
        self._buf = bytearray()
        self._ready = trio.Event()
        #: Set (and replaced) each time :meth:`run` takes what is queued.
        self._drained = trio.Event()
        self.max_buffered = max_buffered
        self.closed = False
        #: More than ``max_buffered`` bytes were queued: the peer is stuck, the link broken.
        self.overflowed = False

    def send(self, kind: int, body: bytes) -> None:
        """Queue a record. Past ``max_buffered`` unsent bytes the peer is stuck: the link
        is closed, and :meth:`run` raises :class:`LinkBrokenError` (both ends then treat
        every connection on it as gone; a relay exits and is started again)."""
        if self.closed:
            return
        self._buf += record(kind, body)
        if len(self._buf) > self.max_buffered:
            self.closed = self.overflowed = True
            self._drained.set()  # (nobody waits for room on a broken link)
        self._ready.set()

    @property
    def buffered(self) -> int:
        """Bytes queued and not written yet."""
        return len(self._buf)

    @property
    def backed_up(self) -> bool:
        """Whether :meth:`room` would wait now."""
        return len(self._buf) >= min(ROOMY, self.max_buffered // 4) and not self.closed

    async def room(self) -> None:
        """Wait until fewer than :data:`ROOMY` bytes (a quarter of ``max_buffered`` if
        that is less) are queued, or the link is closed: the caller may then queue one
        more record. A checkpoint only when it waits."""
        limit = min(ROOMY, self.max_buffered // 4)
        while len(self._buf) >= limit and not self.closed:
            await self._drained.wait()

    def close(self) -> None:
        """Write what is queued, then stop."""
        self.closed = True
        self._ready.set()

    async def run(self) -> None:
        """Write queued records until the link closes (returns) or breaks (raises
        :class:`LinkBrokenError`: past ``max_buffered`` bytes queued, even if it could
        have written them since -- records were dropped -- or the stream's errors)."""
        while True:
            if self.overflowed:
                unsent, self._buf = len(self._buf), bytearray()
                raise LinkBrokenError(f"the peer stopped reading the link ({unsent:,} bytes "
                                      f"unsent, more than {self.max_buffered:,})")
            if not self._buf:
                if self.closed:
                    return
                await self._ready.wait()
                self._ready = trio.Event()
                continue
            data, self._buf = bytes(self._buf), bytearray()
            self._drained.set()
            self._drained = trio.Event()
            await self._stream.send_all(data)
