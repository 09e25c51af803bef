"""The records between the server and a relay process (server/relay/link.py): framing over
a byte stream cut anywhere, each record kind's body, and a broken stream refused."""

from __future__ import annotations

from contextlib import aclosing

import pytest
import trio
import trio.testing

from server.relay import link


def test_records_survive_any_split_of_the_stream() -> None:
    sent = [(link.DIRECT, link.conn_body(7, b"hello")),
            (link.PUBLISH, link.room_key("room1", 2) + b"\x00" * 300),
            (link.WATCH, link.watch_body(9, "room1", 0, (b"snap", b"", b"clocks"))),
            (link.UNWATCH, link.flag_body(9, True)),
            (link.CLOSE, link.close_body(7, 1013, "too slow")),
            (link.GONE, link.conn_body(3))]
    stream = b"".join(link.record(kind, body) for kind, body in sent)
    for cut in (1, 3, 5, 17, len(stream)):
        reader = link.Reader()
        got = [r for at in range(0, len(stream), cut) for r in reader.feed(stream[at:at + cut])]
        assert got == sent
    assert link.read_conn(sent[0][1]) == (7, b"hello")
    room, tier, at = link.read_key(sent[1][1])
    assert (room, tier, sent[1][1][at:]) == ("room1", 2, b"\x00" * 300)
    assert link.read_watch(sent[2][1]) == link.Watch(9, "room1", 0, (b"snap", b"", b"clocks"))
    assert link.read_flag(sent[3][1]) == (9, True)
    assert link.read_close(sent[4][1]) == (7, 1013, "too slow")


def test_a_record_of_impossible_length_breaks_the_link() -> None:
    reader = link.Reader()
    with pytest.raises(link.LinkBrokenError):
        list(reader.feed(b"\xff\xff\xff\xff\x01"))
    with pytest.raises(link.LinkBrokenError):
        list(link.Reader().feed(b"\x00\x00\x00\x00\x01"))


async def test_the_writer_sends_in_order_and_closes_when_the_peer_stops_reading() -> None:
    left, right = trio.testing.memory_stream_pair()
    writer = link.Writer(left)
    got: list[tuple[int, bytes]] = []
    async with trio.open_nursery() as nursery:
        nursery.start_soon(writer.run)
        for n in range(50):
            writer.send(link.DIRECT, link.conn_body(n, b"x" * n))
        writer.close()

        async def read() -> None:
            async with aclosing(link.records(right)) as records:
                async for item in records:
                    got.append(item)
                    if len(got) == 50:
                        return

        nursery.start_soon(read)
    assert [link.read_conn(b)[0] for _k, b in got] == list(range(50))
    stuck = link.Writer(left, max_buffered=100)
    stuck.send(link.DIRECT, b"y" * 200)  # past the bound: the peer is stuck
    assert stuck.closed
    with pytest.raises(link.LinkBrokenError):
        await stuck.run()


class _HeldStream(trio.abc.SendStream):
    """A stream whose every send waits for :attr:`go` (a peer slow to read)."""

    def __init__(self) -> None:
        self.go = trio.Event()
        self.sending = trio.Event()
        self.sent = bytearray()

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        self.sending.set()
        await self.go.wait()
        self.sent += data

    async def wait_send_all_might_not_block(self) -> None:
        await self.go.wait()

    async def aclose(self) -> None:
        return


async def test_a_writer_that_overflowed_while_it_was_sending_breaks_even_if_it_caught_up() -> None:
    """The relay's side of its link passed its bound while it was writing (a flood of
    client frames): it wrote the rest out and returned as if closed on purpose, and the
    relay dropped every later record -- its clients' messages -- silently, for good. A link
    that overflowed is broken: :meth:`run` raises, whenever it finds out."""
    stream = _HeldStream()
    writer = link.Writer(stream, max_buffered=100)
    async with trio.open_nursery() as nursery:
        ended: list[BaseException | None] = []

        async def run() -> None:
            try:
                await writer.run()
            except link.LinkBrokenError as exc:
                ended.append(exc)
            else:
                ended.append(None)

        nursery.start_soon(run)
        writer.send(link.OPEN, link.conn_body(1, b"127.0.0.1"))
        await stream.sending.wait()  # it writes that record, slowly...
        writer.send(link.CLIENT, link.conn_body(1, b"x" * 200))  # ...and the flood comes
        assert writer.closed and writer.overflowed
        writer.send(link.CLIENT, link.conn_body(1, b"later"))  # (dropped: the link is broken)
        stream.go.set()
    (exc,) = ended
    assert isinstance(exc, link.LinkBrokenError)
    assert "stopped reading the link" in str(exc)
    assert writer.buffered == 0  # (the unsent bytes are let go at once)
    assert bytes(stream.sent) == link.record(link.OPEN, link.conn_body(1, b"127.0.0.1"))


async def test_room_on_the_link_waits_while_it_is_backed_up_and_not_otherwise() -> None:
    stream = _HeldStream()
    writer = link.Writer(stream, max_buffered=4 * link.ROOMY)
    with trio.testing.assert_no_checkpoints():
        await writer.room()  # (nothing queued)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(writer.run)
        writer.send(link.CLIENT, b"a")
        await stream.sending.wait()  # being written; then a backlog comes
        writer.send(link.CLIENT, b"b" * link.ROOMY)
        with trio.move_on_after(0.2) as waited:
            await writer.room()
        assert waited.cancelled_caught  # backed up: a client's next message waits
        stream.go.set()  # the peer reads: the backlog is taken
        with trio.fail_after(5):
            await writer.room()
        writer.close()
    assert len(stream.sent) == 2 * 5 + 1 + link.ROOMY
    # A small bound's room is a quarter of it (a test's scaled-down link).
    small = link.Writer(_HeldStream(), max_buffered=400)
    small.send(link.CLIENT, b"c" * 100)
    with trio.move_on_after(0.1) as waited:
        await small.room()
    assert waited.cancelled_caught
