"""The link between the server and one of its relay processes: a stream socket carrying
length-prefixed records, each ``u32 length | u8 kind | body`` (big-endian).

Relay -> server: a client connected (:data:`OPEN`: its relay-side id and address), sent a
message (:data:`CLIENT`) or is gone (:data:`GONE`); the relay listens on a port
(:data:`LISTENING`); one of its limits refused a client (:data:`REFUSED`: the kind of
refusal, :mod:`server.refusals`, and the client's address). Server -> relay: a message
for one connection (:data:`DIRECT`), a message for every watcher of a view class
(:data:`PUBLISH`, once per class, however many watch it), a connection starts or stops
watching a class (:data:`WATCH`, :data:`UNWATCH`), close a connection (:data:`CLOSE`), a
room failed (:data:`DROP_ROOM`).

Both ends only ever append to an in-memory buffer (no waiting on the peer while handling a
room's output); one task per end writes it out. The records keep the order they were
written in, so a connection sees its messages and its view's stream in the room's order.
"""

from __future__ import annotations

import struct
from collections.abc import AsyncGenerator, Iterator
from dataclasses import dataclass

import trio

# ---- record kinds
OPEN, CLIENT, GONE, LISTENING, REFUSED = 1, 2, 3, 4, 5
DIRECT, PUBLISH, WATCH, UNWATCH, CLOSE, DROP_ROOM = 10, 11, 12, 13, 14, 15

_HEAD = struct.Struct(">IB")
_U32 = struct.Struct(">I")
_ID_TIER = struct.Struct(">IH")
_ID_CODE = struct.Struct(">IH")
_ID_FLAG = struct.Struct(">IB")
#: A record longer than this is a broken link (a room's snapshot is ~100 KB at most).
MAX_RECORD = 64 * 1024 * 1024


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
        self.max_buffered = max_buffered
        self.closed = False

    def send(self, kind: int, body: bytes) -> None:
        """Queue a record. Past ``max_buffered`` unsent bytes the peer is stuck: the link
        is closed (both ends then treat every connection on it as gone)."""
        if self.closed:
            return
        self._buf += record(kind, body)
        if len(self._buf) > self.max_buffered:
            self.closed = True
        self._ready.set()

    @property
    def buffered(self) -> int:
        """Bytes queued and not written yet."""
        return len(self._buf)

    def close(self) -> None:
        """Write what is queued, then stop."""
        self.closed = True
        self._ready.set()

    async def run(self) -> None:
        """Write queued records until the link closes (returns) or breaks (raises)."""
        while not self.closed or self._buf:
            if self.closed and len(self._buf) > self.max_buffered:
                raise LinkBrokenError("the peer stopped reading the link")
            await self._ready.wait()
            self._ready = trio.Event()
            while self._buf:
                data, self._buf = bytes(self._buf), bytearray()
                await self._stream.send_all(data)
