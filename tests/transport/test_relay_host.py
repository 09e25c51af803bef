"""The server's side of a relay link (server/relay/host.py): a crowd's requests arriving
together are handed to their connections a few per scheduler round, so other tasks (a
game's action) run in between instead of waiting behind the whole crowd."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from pathlib import Path
from typing import cast

import pytest
import trio
import trio.lowlevel
import trio.testing
from websockets.trio.server import ServerConnection

from server.app import Limits
from server.refusals import Kind, Notes
from server.relay import host, link
from server.relay.gate import ClientLimits, Gate
from server.rooms.commands import FeedOp, Publish, StartWatching, StopWatching
from server.rooms.relay import Relay
from server.sending import OutboxBytes


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


def test_a_relay_that_keeps_dying_is_started_again_less_and_less_often() -> None:
    """An operator's log: a relay whose port another process took after the relay died was
    started again, and logged two lines, every 1.1 s for as long as that lasted. The wait
    doubles with each death in a row, up to RESTART_MOST_SECONDS; a relay that stayed up
    STEADY_SECONDS before it died waits RESTART_SECONDS again."""
    backoff = host.RestartBackoff()
    assert [backoff.died(None) for _ in range(8)] == [1, 2, 4, 8, 16, 30, 30, 30]
    assert backoff.died(host.STEADY_SECONDS - 1) == 30  # up a little: not up
    assert backoff.died(host.STEADY_SECONDS) == 1  # up a minute: from the start
    assert [backoff.died(None) for _ in range(3)] == [2, 4, 8]
    assert backoff.died(3600.0) == 1
    assert host.RestartBackoff().died(10.0) == host.RESTART_SECONDS


class _Scripted(host.RelayLink):
    """A relay link whose process lives as ``lives`` say, one a start: listening for so
    many seconds, or None (it can't listen: it exits at once). Stopped after the last."""

    def __init__(self, lives: list[float | None]) -> None:
        async def serve(sock: host.RemoteSocket) -> None:
            raise AssertionError("no client")

        super().__init__(0, host.RelayOptions(1, port=8766), serve)
        self.lives = lives
        self.starts: list[float] = []
        #: (time, whether it was up) each time the metrics could have asked, a second apart.
        self.seen_up: list[tuple[float, bool]] = []

    def start(self) -> None:
        self.starts.append(trio.current_time())

    async def run(self, nursery: trio.Nursery) -> None:
        life = self.lives.pop(0)
        if not self.lives:
            self.stop()
        if life is not None:
            self.listening_on(8766)
            await trio.sleep(life)


async def test_a_relay_supervisor_waits_longer_each_time_says_when_and_keeps_its_metrics(
    autojump_clock: trio.testing.MockClock, caplog: pytest.LogCaptureFixture,
) -> None:
    lives: list[float | None] = [5.0, *[None] * 7, 100.0, None, None]
    relay = _Scripted(lives)
    relay.start()
    start = trio.current_time()

    async def watch_up() -> None:
        await trio.sleep(0.5)  # (between the script's whole seconds)
        while True:
            relay.seen_up.append((trio.current_time() - start, relay.up))
            await trio.sleep(1.0)

    with caplog.at_level("WARNING", logger="manawire.relay"):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(watch_up)
            await relay.supervise(nursery)
            nursery.cancel_scope.cancel()
    waits = [round(b - a - life, 6) for a, b, life in zip(
        relay.starts, relay.starts[1:], [5.0, *[0.0] * 7, 100.0, 0.0], strict=False)]
    assert waits == [1, 2, 4, 8, 16, 30, 30, 30, 1, 2]
    assert relay.restarts == 10 and relay.stopped.is_set() and not relay.up
    lines = [r.getMessage() for r in caplog.records]
    assert lines.pop(8) == "relay 0 (port 8766) is up again (restart 8)"  # (it listened)
    assert len(lines) == 10  # one a death, none a second
    assert lines[0] == "relay 0 (port 8766) is down: starting it again in 1 s (restart 1)"
    assert lines[5] == ("relay 0 (port 8766) is down again (6 times in a row, none of them up "
                        "60 s): starting it again in 30 s (restart 6; the wait doubles, up "
                        "to 30 s, until it stays up -- is its port taken?)")
    assert lines[8] == "relay 0 (port 8766) is down: starting it again in 1 s (restart 9)"
    # manawire_relay_up: 1 while it listened, 0 while it waited to be started again.
    up_at = dict(relay.seen_up)
    back = relay.starts[8] - start  # the start that listened 100 s
    assert back == 126
    assert all(up_at[t + 0.5] == (t < 5 or 126 <= t < 226) for t in range(0, 226))


async def test_a_stop_while_a_relay_waits_to_be_started_again_ends_its_supervisor_at_once(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """The server's graceful stop waits for each relay to have stopped (within --grace): a
    relay waiting its 30 s to be started again mustn't hold it."""
    relay = _Scripted([*[None] * 7, None, None])
    relay.start()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(relay.supervise, nursery)
        await trio.sleep(70.0)  # down 7 times by now: waiting 30 s
        assert relay.restarts == 6 and not relay.stopped.is_set()
        asked = trio.current_time()
        relay.stop()
        await relay.stopped.wait()
        assert trio.current_time() == asked and relay.restarts == 6 and not relay.up


async def test_a_relayed_client_is_given_credit_as_its_messages_are_taken_and_its_refunds() -> None:
    """The relay forwards at most link.WINDOW of a client's messages the server hasn't
    taken: each link.CREDIT_EVERY taken (RemoteSocket.recv), the server says so; an applied
    action's token goes back to the relay's limiter too (link.REFUND)."""
    relay = unserved_relay()
    send, receive = trio.testing.memory_stream_one_way_pair()
    relay.out = link.Writer(send)
    sock = host.RemoteSocket(relay, 5, "127.0.0.1")
    for n in range(link.WINDOW):
        sock.received(b"m%d" % n)
    for n in range(link.CREDIT_EVERY - 1):
        assert await sock.recv() == b"m%d" % n
    assert relay.out.buffered == 0  # (not a record per message)
    await sock.recv()
    sock.refund()
    for _ in range(link.CREDIT_EVERY):
        await sock.recv()
    relay.out.close()
    await relay.out.run()
    await send.aclose()
    got = [(kind, body) async for kind, body in link.records(receive)]
    assert got == [(link.CREDIT, link.credit_body(5, link.CREDIT_EVERY)),
                   (link.REFUND, link.conn_body(5)),
                   (link.CREDIT, link.credit_body(5, link.CREDIT_EVERY))]
    assert link.read_credit(got[0][1]) == (5, link.CREDIT_EVERY)


def test_a_relay_process_is_given_the_servers_limits_for_each_client() -> None:
    """The relay's per-client outbox, send timeout and message rate are the server's
    settings (--outbox, --send-timeout, --messages-per-second, --message-burst,
    --rate-strikes), not constants of its own; and its link's bound (tests scale it down)."""
    from server.transport import relay as process

    options = host.RelayOptions(1, outbox=7, outbox_bytes=5000, send_timeout=2.5,
                                messages_per_second=3.5, message_burst=9, rate_strikes=11,
                                link_buffer=4096)
    command = host.RelayLink(0, options, _never).command(42)
    assert command[1:3] == ["-m", "server.transport.relay"]
    args = process.parser().parse_args(command[3:])
    assert (args.link_fd, args.outbox, args.outbox_bytes, args.send_timeout,
            args.messages_per_second, args.message_burst, args.rate_strikes,
            args.link_buffer) == (42, 7, 5000, 2.5, 3.5, 9, 11, 4096)
    defaults = process.parser().parse_args(
        host.RelayLink(0, host.RelayOptions(), _never).command(3)[3:])
    assert (defaults.outbox, defaults.outbox_bytes, defaults.messages_per_second,
            defaults.message_burst, defaults.rate_strikes) == (
        1024, Limits().outbox_bytes, 20.0, 60, 200)


async def _never(sock: host.RemoteSocket) -> None:
    raise AssertionError("not served here")


def test_manawire_serve_gives_its_relays_its_limits_per_client(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    from server import cli

    started: list[host.RelayOptions] = []

    def run(call: Callable[[], object]) -> None:
        assert isinstance(call, functools.partial)
        started.append(call.keywords["relays"])

    monkeypatch.setattr(trio, "run", run)
    assert cli.main(["serve", "--data-dir", str(tmp_path), "--relays", "1", "--outbox", "300",
                     "--outbox-bytes", "70000", "--send-timeout", "4",
                     "--messages-per-second", "5", "--message-burst", "15",
                     "--rate-strikes", "25"]) == 0
    (options,) = started
    assert (options.outbox, options.outbox_bytes, options.send_timeout,
            options.messages_per_second, options.message_burst, options.rate_strikes) == (
        300, 70000, 4.0, 5.0, 15, 25)


async def test_a_relayed_client_that_never_reads_is_dropped_past_its_outbox_bytes() -> None:
    """A room list (~568 KB with 2,000 rooms) asked for again and again by a client of a
    relay port that never read was queued in the relay's outbox a copy each, bounded by
    the outbox's count of messages only (attacker round 14): the relay holds big messages
    up to --outbox-bytes, as the server's port, then drops the client (1013)."""
    from server.transport import relay as process

    noted: list[tuple[str, str]] = []

    class Noted:
        def note(self, kind: str, address: str) -> None:
            noted.append((kind, address))

    send, receive = trio.open_memory_channel[bytes](1024)
    scope = trio.CancelScope()  # (the client's task's: closing the client cancels it)
    client = process._Client(1, cast(ServerConnection, None), send, scope, "10.0.0.9",
                             cast(process._LinkNotes, Noted()), Gate(ClientLimits()),
                             trio.Event(), outbox=OutboxBytes(100_000))
    listing = b"x" * 40_000
    assert client.queue(listing) and client.queue(listing)
    assert client.queue(b"small" * 100)  # (under BIG_MESSAGE: bounded by the count)
    receive.receive_nowait()  # the writer takes one: its bytes are free again
    assert client.queue(listing)
    assert not scope.cancel_called
    assert not client.queue(listing)  # 120,000 bytes: over
    assert scope.cancel_called
    assert (client.close_code, client.close_reason) == (
        process.CLOSE_TOO_SLOW, "client too slow: outbox over 0.0953674 MiB")
    assert noted == [("slow", "10.0.0.9")]


def test_a_relays_log_line_counts_its_clients_in_words() -> None:
    """An operator read "its 1 clients resume" in the log (a new player's round)."""
    from server.relay.host import _clients_resume

    assert _clients_resume(1) == "1 client resumes"
    assert _clients_resume(3) == "3 clients resume"
