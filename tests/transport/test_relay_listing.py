"""What the server sends a relay port's clients is held to what it holds a client of its own
port to (docs/limits.md "Limits", ``--outbox`` and ``--outbox-bytes``): one big room list at
a time, ``--outbox-bytes`` of big messages the relay's writer hasn't taken yet, and room
lists handed on only while the link isn't backed up.

The attack (round 16, HIGH): 64 connections from one address to a relay port, each asking
for the room list (~184 KB with ~2,000 rooms) 55 times and never reading, broke the
server's link to the relay within 2 s ("the peer stopped reading the link (67,168,896 bytes
unsent ...)"): every relayed client was closed (1012), and again after each restart. The
relay never stopped reading its link -- it is niced, and on a busy machine it read slower
than the server wrote -- but nothing bounded what the server wrote for a relayed client: the
one-list-at-a-time rule of the server's port asked its outbox, and a relayed client has none
(its messages go straight onto the link). 1,000 clients asking once each broke it too.

Here the server's side runs in memory (an App, a :class:`RelayLink` fed records and read by
the test) and the relay's side's writer with a client that never reads; autojump clock.
"""

from __future__ import annotations

from pathlib import Path
from typing import cast

import trio
import trio.testing
from websockets.trio.server import ServerConnection

from protocol.v1 import messages_pb2 as mpb
from server.app import App
from server.relay import host, link
from server.relay.gate import ClientLimits, Gate
from server.sending import BIG_MESSAGE, OutboxBytes, SocketClosed
from server.transport import relay as process
from tests.rooms.test_app_memory import running_app

#: The server's port's words for a second big list asked for before the first was sent.
NOT_SENT_YET = ("the room list you asked for before hasn't been sent to you yet: ask again "
                "once it has arrived")


def _message(rid: int, **body: object) -> bytes:
    return mpb.ClientMessage(request_id=rid, **body).SerializeToString()  # type: ignore[arg-type]


def _hello(rid: int, name: str) -> bytes:
    return _message(rid, hello=mpb.Hello(protocol_version=1, display_name=name))


def _list(rid: int) -> bytes:
    return _message(rid, list_rooms=mpb.ListRooms())


def _client(conn: int, data: bytes) -> bytes:
    return link.record(link.CLIENT, link.conn_body(conn, data))


def _open(conn: int, address: str = "10.0.0.1") -> bytes:
    return link.record(link.OPEN, link.conn_body(conn, address.encode()))


async def _records(stream: trio.abc.ReceiveStream, reader: link.Reader
                   ) -> list[tuple[int, bytes]]:
    """The records that came on ``stream`` until it has been quiet for a second."""
    got: list[tuple[int, bytes]] = []
    while True:
        with trio.move_on_after(1):
            data = await stream.receive_some()
            got.extend(reader.feed(data))
            continue
        return got


def _directs(records: list[tuple[int, bytes]], conn: int) -> list[mpb.ServerMessage]:
    """The server's messages for ``conn`` among ``records``."""
    out = []
    for kind, body in records:
        if kind == link.DIRECT:
            rid, data = link.read_conn(body)
            if rid == conn:
                out.append(mpb.ServerMessage.FromString(data))
    return out


def _busy_lobby(app: App) -> int:
    """300 rooms with long names of four-byte characters: the room list's size (> 80 KB)."""
    for _ in range(300):
        app.lobby.create("\U0001F600" * 64, 8)
    size = len(app.lobby.listing_message())
    assert size > 80_000
    return size


async def test_a_relayed_client_is_sent_one_big_room_list_at_a_time_as_on_the_servers_port(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """A ``ListRooms`` while the last big list sent to a relayed client hasn't been taken by
    the relay's writer for it is answered ``RATE_LIMITED``, in the server's port's words;
    once the relay says its writer took it (:data:`link.TAKEN`), the next is answered."""
    async with running_app(tmp_path) as app:
        _busy_lobby(app)
        nursery = app.lobby.nursery
        relay = host.RelayLink(0, host.RelayOptions(), app.handle_connection)
        to_relay, from_server = trio.testing.memory_stream_one_way_pair()
        relay.out = link.Writer(to_relay)
        to_server, from_relay = trio.testing.memory_stream_one_way_pair()
        nursery.start_soon(relay.out.run)
        nursery.start_soon(relay._read, from_relay, nursery)
        reader = link.Reader()
        await to_server.send_all(_open(1) + _client(1, _hello(1, "Never reads")))
        (welcome,) = _directs(await _records(from_server, reader), 1)
        assert welcome.HasField("welcome")
        # Ten at once (within the relay's window of link.WINDOW), none taken by the relay.
        await to_server.send_all(b"".join(_client(1, _list(rid)) for rid in range(10, 20)))
        answers = _directs(await _records(from_server, reader), 1)
        assert [m.request_id for m in answers] == list(range(10, 20))
        assert [m.request_id for m in answers if m.HasField("room_list")] == [10]
        for m in answers[1:]:
            assert (m.error.code, m.error.message) == (mpb.ERROR_CODE_RATE_LIMITED,
                                                       NOT_SENT_YET)
        # The relay's writer took the list (the 2nd of the 11 messages sent it so far).
        await to_server.send_all(link.record(link.TAKEN, link.taken_body(1, 2)))
        await to_server.send_all(_client(1, _list(30)) + _client(1, _list(31)))
        answers = _directs(await _records(from_server, reader), 1)
        assert [m.WhichOneof("body") for m in answers] == ["room_list", "error"]
        assert len(answers[0].room_list.rooms) == 300
        assert answers[1].error.message == NOT_SENT_YET
        assert not relay.out.closed


class _HeldStream(trio.abc.SendStream):
    """The server's side of the link to a relay that reads it only once :attr:`go` is set
    (a relay slower than the server: niced, on a busy machine)."""

    def __init__(self) -> None:
        self.go = trio.Event()
        self.sent = bytearray()

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        await self.go.wait()
        self.sent += data

    async def wait_send_all_might_not_block(self) -> None:
        await self.go.wait()

    async def aclose(self) -> None:
        return


async def test_many_relayed_clients_asking_once_each_wait_for_room_on_the_link_in_turn(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """30 relayed clients each ask for an ~80 KB list once, the relay reading its link
    slower than the server writes it (here: not at all for a while). Each list waits until
    the link isn't backed up: the link holds what :meth:`link.Writer.room` allows (a quarter
    of its bound, here) plus one list -- it would have held all 30, past its bound, and
    broken. Once the relay reads, every client gets its list."""
    clients = 30
    async with running_app(tmp_path) as app:
        size = _busy_lobby(app)
        nursery = app.lobby.nursery
        relay = host.RelayLink(0, host.RelayOptions(), app.handle_connection)
        held = _HeldStream()
        bound = 2 * 1024 * 1024  # (the lists would be 2.4 MB)
        relay.out = link.Writer(held, bound)
        to_server, from_relay = trio.testing.memory_stream_one_way_pair()
        nursery.start_soon(relay.out.run)
        nursery.start_soon(relay._read, from_relay, nursery)
        await to_server.send_all(b"".join(
            _open(conn, f"10.0.{conn}.1") + _client(conn, _hello(1, f"c{conn}"))
            for conn in range(1, clients + 1)))
        await trio.sleep(1)
        await to_server.send_all(b"".join(_client(conn, _list(2))
                                          for conn in range(1, clients + 1)))
        await trio.sleep(5)
        assert not relay.out.closed
        assert relay.out.buffered < bound // 4 + size
        assert len(app.conns) == clients  # (each waits its turn, connected)
        held.go.set()  # the relay reads again
        await trio.sleep(5)
        assert not relay.out.closed
        records = list(link.Reader().feed(bytes(held.sent)))
        for conn in range(1, clients + 1):
            answers = _directs(records, conn)
            assert [m.WhichOneof("body") for m in answers] == ["welcome", "room_list"], conn
            assert len(answers[1].room_list.rooms) == 300


def _remote(outbox_bytes: int) -> tuple[host.RemoteSocket, trio.abc.ReceiveStream]:
    async def never(sock: host.RemoteSocket) -> None:
        raise AssertionError("not served here")

    relay = host.RelayLink(0, host.RelayOptions(outbox_bytes=outbox_bytes), never)
    send, receive = trio.testing.memory_stream_one_way_pair()
    relay.out = link.Writer(send)
    return host.RemoteSocket(relay, 5, "10.0.0.9"), receive


async def test_a_relayed_client_is_dropped_once_what_the_relay_hasnt_taken_passes_its_bytes(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """The big messages sent a relayed client that the relay's writer hasn't taken add up
    to ``--outbox-bytes`` at most, as a client's outbox on the server's port; past it the
    client is closed (1013, the server's port's words) and its socket ends."""
    sock, receive = _remote(100_000)
    big = b"x" * 30_000
    for _ in range(3):
        assert sock.direct(big)
    assert sock.direct(b"small" * 100)  # (under BIG_MESSAGE: bounded by the count)
    sock.took(1)  # the relay's writer took the first: its bytes are free again
    assert sock.direct(big)
    assert not sock.gone
    assert not sock.direct(big)  # 120,000 bytes: over
    assert sock.gone and not sock.direct(b"more")
    try:
        await sock.recv()
        raise AssertionError("its socket should have ended")
    except SocketClosed:
        pass
    sock.relay.out.close()
    await sock.relay.out.run()
    got = await _records(receive, link.Reader())
    assert [kind for kind, _ in got] == [link.DIRECT] * 5 + [link.CLOSE]
    assert link.read_close(got[-1][1]) == (
        5, 1013, "client too slow: outbox over 0.0953674 MiB")
    # One message bigger than the limit alone is sent; another big one is not.
    alone, _ = _remote(100_000)
    assert alone.direct(b"x" * 300_000)
    assert not alone.direct(b"x" * BIG_MESSAGE)


def test_what_a_relay_has_taken_is_counted_modulo_2_to_the_32() -> None:
    sock, _ = _remote(100_000)
    index = link.COUNT_MASK - 1
    sock.outbox.count = index  # (a connection sent four billion messages)
    assert sock.direct(b"x" * 2000) and sock.direct(b"y" * 2000) and sock.direct(b"z")
    assert sock.sent == link.COUNT_MASK + 2
    sock.took(link.read_taken(link.taken_body(5, index + 2))[1])  # the first two taken
    assert sock.unsent == 1 and not sock.queued(index + 1) and sock.queued(index + 2)


def _sized(size: int) -> bytes:
    """A server message of ``size`` bytes."""
    data = mpb.ServerMessage(error=mpb.Error(message="x" * size)).SerializeToString()
    data = mpb.ServerMessage(error=mpb.Error(message="x" * (2 * size - len(data)))
                             ).SerializeToString()
    assert len(data) == size, (len(data), size)
    return data


class _NeverReads:
    """A relay's client that never reads: its first send takes for ever (until
    :attr:`go`)."""

    def __init__(self) -> None:
        self.go = trio.Event()
        self.sent: list[bytes] = []

    async def send(self, frame: bytes) -> None:
        self.sent.append(frame)
        await self.go.wait()


async def test_a_relay_tells_the_server_when_its_writer_takes_a_big_message_for_a_client(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """The relay says :data:`link.TAKEN` (the count of the server's messages for the client
    taken so far) when its writer for a client takes a big one from the client's outbox --
    not while it waits there behind one being sent, and never for small ones."""
    ours, theirs = trio.testing.memory_stream_pair()
    proc = process.RelayProcess(ours, 0.1, 100)
    ws = _NeverReads()
    send, receive = trio.open_memory_channel[bytes](1024)
    reader = link.Reader()
    async with trio.open_nursery() as nursery:
        scope = trio.CancelScope()
        client = process._Client(1, cast(ServerConnection, ws), send, scope, "10.0.0.9",
                                 process._LinkNotes(proc.out), Gate(ClientLimits()),
                                 trio.Event(), outbox=OutboxBytes(1 << 20))
        proc.clients[1] = client
        nursery.start_soon(proc.out.run)
        nursery.start_soon(proc.read_link)
        nursery.start_soon(proc._write, client, receive)

        async def direct(data: bytes) -> list[tuple[int, bytes]]:
            await theirs.send_all(link.record(link.DIRECT, link.conn_body(1, data)))
            return await _records(theirs, reader)

        welcome, small, last = _sized(20), _sized(30), _sized(40)
        first, second = _sized(BIG_MESSAGE), _sized(5000)
        ws.go.set()
        assert await direct(welcome) == []  # small: nothing to say
        ws.go = trio.Event()  # from now on it reads nothing
        assert await direct(first) == [
            (link.TAKEN, link.taken_body(1, 2))]  # taken at once, being sent
        assert await direct(small) == []
        assert await direct(second) == []  # queued behind the one being sent
        ws.go.set()  # the client reads: the writer takes what was queued
        assert await direct(last) == [(link.TAKEN, link.taken_body(1, 4))]
        assert ws.sent == [welcome, first, small, second, last]
        nursery.cancel_scope.cancel()
