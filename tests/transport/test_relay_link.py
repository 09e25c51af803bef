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
