"""The server's side of a relay link (server/relay/host.py): a crowd's requests arriving
together are handed to their connections a few per scheduler round, so other tasks (a
game's action) run in between instead of waiting behind the whole crowd."""

from __future__ import annotations

import itertools

import pytest
import trio
import trio.lowlevel
import trio.testing

from server.relay import host, link


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
