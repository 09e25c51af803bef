"""The server's side of a relay link (server/relay/host.py): a crowd's requests arriving
together are handed to their connections a few per scheduler round, so other tasks (a
game's action) run in between instead of waiting behind the whole crowd."""

from __future__ import annotations

import itertools
from typing import cast

import pytest
import trio
import trio.lowlevel
import trio.testing

from server.refusals import Kind, Notes
from server.relay import host, link
from server.rooms.commands import FeedOp, Publish, StartWatching, StopWatching
from server.rooms.relay import Relay


async def test_a_crowds_requests_are_handed_on_a_few_per_scheduler_round(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    crowd = 10 * host.WAKE_AT_ONCE
    handed: list[int] = []
    received = host.RemoteSocket.received

    def spy(sock: host.RemoteSocket, data: bytes) -> None:
        handed.append(sock.rid)
        received(sock, data)

    monkeypatch.setattr(host.RemoteSocket, "received", spy)
    got: list[bytes] = []
    everyone_got = trio.Event()

    async def serve(sock: host.RemoteSocket) -> None:
        got.append(await sock.recv())
        if len(got) == crowd:
            everyone_got.set()

    relay = host.RelayLink(0, host.RelayOptions(), serve)
    send, receive = trio.testing.memory_stream_one_way_pair()
    # Every connection opens, then all their requests come in one read of the link.
    await send.send_all(b"".join(
        [link.record(link.OPEN, link.conn_body(rid, b"127.0.0.1")) for rid in range(crowd)]
        + [link.record(link.CLIENT, link.conn_body(rid, b"join")) for rid in range(crowd)]))
    seen: list[int] = []  # requests handed on so far, each time another task got to run

    async def other_task() -> None:
        for _ in range(1000):
            seen.append(len(handed))
            if len(handed) == crowd:
                return
            await trio.lowlevel.checkpoint()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(relay._read, receive, nursery)
        nursery.start_soon(other_task)
        with trio.fail_after(5):
            await everyone_got.wait()
        await send.aclose()
    assert sorted(handed) == list(range(crowd)) and got == [b"join"] * crowd
    # Another task ran between every few requests handed on, not only before or after.
    steps = [b - a for a, b in itertools.pairwise(seen) if b != a]
    # (in one round each task runs once, the reader before or after the other task)
    assert steps and max(steps) <= 2 * host.WAKE_AT_ONCE, seen


async def test_a_relayed_clients_queued_messages_are_read_two_per_turn() -> None:
    """A spectator's LeaveRoom and JoinRoom arrive together: the second is taken without
    another wake-up, but a client with many queued still yields between every two."""
    async def serve(sock: host.RemoteSocket) -> None:
        raise AssertionError("not served here")

    relay = host.RelayLink(0, host.RelayOptions(), serve)
    sock = host.RemoteSocket(relay, 1, "127.0.0.1")
    for n in range(5):
        sock.received(b"m%d" % n)
    with trio.testing.assert_no_checkpoints():  # (its task was just started)
        assert await sock.recv() == b"m0"
    for n in range(1, 5, 2):
        with trio.testing.assert_checkpoints():
            assert await sock.recv() == b"m%d" % n
        with trio.testing.assert_no_checkpoints():
            assert await sock.recv() == b"m%d" % (n + 1)
    with trio.move_on_after(1) as waited:  # nothing queued: it waits (and yields)
        await sock.recv()
    assert waited.cancelled_caught


def unserved_relay(refusals: Notes | None = None) -> host.RelayLink:
    """A relay link whose clients are never served (only its routing is looked at)."""
    async def serve(sock: host.RemoteSocket) -> None:
        raise AssertionError("not served here")

    return host.RelayLink(0, host.RelayOptions(), serve, refusals)


async def test_a_relayed_spectators_watch_is_stopped_only_by_the_room_it_watches() -> None:
    """As for the server's own feeds: a StopWatching from the room a relayed spectator
    left, coming after its next room's StartWatching, crosses the link as nothing."""
    relay = unserved_relay()
    send, receive = trio.testing.memory_stream_one_way_pair()
    relay.out = link.Writer(send)
    sock = host.RemoteSocket(relay, 7, "127.0.0.1")
    local: list[tuple[str, list[FeedOp]]] = []

    class Local:
        def apply(self, room_id: str, ops: list[FeedOp]) -> None:
            local.append((room_id, [op for op in ops if not isinstance(op, Publish)]))

    router = host.FeedRouter(cast(Relay, Local()), lambda conn: sock if conn == 1 else None)
    router.links.append(relay)
    router.apply("r1", [StartWatching(1, 0, (b"snap1",))])
    router.apply("r2", [StartWatching(1, 0, (b"snap2",))])
    router.apply("r1", [StopWatching(1, False)])  # r1's, late: r2's watch stays
    assert relay.watching == {7: ("r2", 0)} and dict(relay.keys) == {("r2", 0): 1}
    router.apply("r2", [StopWatching(1, True)])
    assert relay.watching == {} and not relay.keys
    assert all(not ops for _, ops in local)  # none of it was for this process's feeds
    relay.out.close()
    await relay.out.run()
    await send.aclose()
    kinds = [kind async for kind, _body in link.records(receive)]
    assert kinds == [link.WATCH, link.WATCH, link.UNWATCH]


async def test_a_client_of_a_relay_that_died_never_reaches_the_next_relays_clients() -> None:
    """A relay process numbers its clients from 1. A spectator's join still waiting for its
    turn when its relay died was let in later, and its watch -- a seat's view, snapshot and
    deltas -- went to whichever client of the restarted relay had its number (found by an
    attacker: six strangers got seat 0's hand). A client writes only to its own relay's
    link: gone with it, nothing of it crosses the new one."""
    relay = unserved_relay()
    old_send, _old_receive = trio.testing.memory_stream_one_way_pair()
    relay.out = link.Writer(old_send)
    stale = host.RemoteSocket(relay, 1, "127.0.0.1")
    relay.sockets[1] = stale
    # The relay dies (run's cleanup), and a new one starts on a new link.
    for sock in list(relay.sockets.values()):
        sock.end()
    relay.sockets.clear()
    relay.out.closed = True
    send, receive = trio.testing.memory_stream_one_way_pair()
    relay.out = link.Writer(send)
    newcomer = host.RemoteSocket(relay, 1, "127.0.0.1")  # the new relay's client number 1
    relay.sockets[1] = newcomer

    class Local:
        def apply(self, room_id: str, ops: list[FeedOp]) -> None:
            assert not [op for op in ops if not isinstance(op, Publish)]

    router = host.FeedRouter(cast(Relay, Local()), lambda conn: stale if conn == 1 else None)
    router.links.append(relay)
    router.apply("r1", [StartWatching(1, 1, (b"seat 0's snapshot",))])
    router.apply("r1", [StopWatching(1, False)])
    assert not stale.direct(b"a direct message") and not stale.has_room()
    await stale.close(1000, "bye")
    assert relay.watching == {} and not relay.keys
    assert relay.out.buffered == 0  # nothing for the newcomer
    assert newcomer.direct(b"its own")  # while its own messages go through
    relay.out.close()
    await relay.out.run()
    await send.aclose()
    assert [kind async for kind, _body in link.records(receive)] == [link.DIRECT]


async def test_a_relays_refusals_are_noted_and_an_unknown_kind_breaks_its_link() -> None:
    """What a relay's limits refuse is counted with the server's own refusals; a refusal of
    a kind the server doesn't know is a broken link, like any record it can't read."""
    noted: list[tuple[str, str]] = []

    class Noted:
        def note(self, kind: Kind, address: str) -> None:
            noted.append((kind, address))

    relay = unserved_relay(Noted())
    send, receive = trio.testing.memory_stream_one_way_pair()
    await send.send_all(link.record(link.REFUSED, link.refused_body("slow", "10.0.0.7"))
                        + link.record(link.REFUSED, link.refused_body("http", "::1"))
                        + link.record(link.REFUSED, link.refused_body("bogus", "::1")))
    await send.aclose()
    async with trio.open_nursery() as nursery:
        with pytest.raises(link.LinkBrokenError, match="unknown refusal kind 'bogus'"):
            await relay._read(receive, nursery)
    assert noted == [("slow", "10.0.0.7"), ("http", "::1")]
