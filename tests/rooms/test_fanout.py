"""Spectator fan-out (architecture, "Surviving faults": spectators are served off the game
path): the sans-I/O feeds (:class:`Fanout`) and the relay task that serves them
(:class:`Relay`, with ``autojump_clock``), then through the app over memory sockets."""

from __future__ import annotations

from pathlib import Path

import trio
import trio.testing

from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from server.app import Limits
from server.rooms.commands import Publish, StartWatching, StopWatching
from server.rooms.fanout import Fanout
from server.rooms.relay import Relay
from server.transport.batch import FEED_WAKE, batch_entry
from tests.rooms.test_app_memory import MemorySocket, _two_players, running_app

KEY = ("r1", 0)


def msg(n: int) -> bytes:
    return mpb.ServerMessage(request_id=n).SerializeToString()


def snapshot(request_id: int, state_id: int) -> bytes:
    return mpb.ServerMessage(request_id=request_id, snapshot=pb.Snapshot(
        state_id=state_id)).SerializeToString()


def test_publishing_costs_nothing_per_watcher_and_each_gets_its_first_messages_then_the_feed(
) -> None:
    f = Fanout()
    f.publish(KEY, msg(1))  # nobody watches: nothing is kept
    assert KEY not in f.feeds
    f.apply("r1", [StartWatching(1, 0, (b"snap1",)), Publish(0, msg(2)),
                   StartWatching(2, 0, (b"snap2",)), Publish(0, msg(3))])
    feed = f.feeds[KEY]
    assert feed.messages == [msg(2), msg(3)]  # one copy, whatever the number of watchers
    assert sorted(w.conn for w in f.due()) == [1, 2]
    # The second watcher starts after what was published before its watch (its snapshot
    # covers it); both get their own first message in front.
    assert f.take(1, batched=False) == [b"snap1", msg(2), msg(3)]
    assert f.take(2, batched=False) == [b"snap2", msg(3)]
    assert f.take(2, batched=False) == []
    f.publish(KEY, msg(4))
    assert [w.conn for w in f.due()] == [1, 2]


def test_batched_watchers_at_the_same_place_share_one_joined_frame() -> None:
    f = Fanout()
    for conn in (1, 2, 3):
        f.watch(conn, KEY, ())
    for n in range(5):
        f.publish(KEY, msg(n))
    frames = [f.take(conn, batched=True) for conn in (1, 2, 3)]
    assert frames[0] == [b"".join(batch_entry(msg(n)) for n in range(5))]
    assert frames[0][0] is frames[1][0] is frames[2][0]  # joined once
    batch = mpb.ServerBatch.FromString(frames[0][0])
    assert [m.request_id for m in batch.messages] == list(range(5))


def test_a_resync_replaces_what_was_owed_and_stop_at_once_or_after_the_rest() -> None:
    f = Fanout()
    old, new = snapshot(0, 5), snapshot(0, 6)
    f.watch(1, KEY, (old,))
    f.publish(KEY, msg(1))
    f.watch(1, KEY, (new,))  # a new snapshot supersedes the old one and msg(1)
    assert f.take(1, batched=False) == [new]
    f.watch(2, KEY, ())
    f.publish(KEY, msg(2))
    f.apply("r1", [Publish(0, msg(3)), StopWatching(1, False), StopWatching(2, True)])
    assert 1 not in f.watches
    assert f.take(2, batched=False) == [msg(2), msg(3)]  # drained, then it stops
    assert 2 not in f.watches and KEY not in f.feeds


def test_a_snapshot_reply_superseded_before_it_was_sent_is_answered_with_an_error() -> None:
    """A spectator sending RequestSnapshot twice within one flush got only the second's
    snapshot: the first request was never answered, and a client waiting on its id hung
    (found by an attacker: about half of the requests at 19/s). The first is answered now
    with a short error carrying its id -- never a second snapshot kept for a client that
    doesn't read."""
    f = Fanout()
    f.watch(1, KEY, (snapshot(0, 1), msg(0)))  # the join's snapshot (no id), a clock
    f.watch(1, KEY, (snapshot(7, 2), msg(0)))  # RequestSnapshot 7, not sent yet...
    f.watch(1, KEY, (snapshot(8, 3), msg(0)))  # ... when request 8 comes
    first = [mpb.ServerMessage.FromString(m) for m in f.take(1, batched=False)]
    assert [(m.request_id, m.WhichOneof("body")) for m in first] == \
        [(7, "error"), (8, "snapshot"), (0, None)]
    assert first[0].error.code == mpb.ERROR_CODE_RATE_LIMITED
    assert "superseded" in first[0].error.message
    assert first[1].snapshot.state_id == 3
    # Sent, it is owed nothing more; and a watch of another feed (a move to another room)
    # owes nothing of the room left.
    f.watch(1, KEY, (snapshot(9, 4),))
    f.watch(1, ("r2", 0), (snapshot(0, 1),))
    assert [mpb.ServerMessage.FromString(m).request_id for m in f.take(1, batched=False)] \
        == [0]


def test_a_feed_forgets_what_all_took_and_evicts_a_watcher_too_far_behind() -> None:
    f = Fanout(max_messages=4)
    f.watch(1, KEY, ())
    f.watch(2, KEY, ())
    for n in range(3):
        f.publish(KEY, msg(n))
    f.take(1, batched=False)
    assert f.trim() == []
    assert f.feeds[KEY].base == 0  # watcher 2 still needs them
    f.take(2, batched=False)
    assert f.trim() == [] and f.feeds[KEY].base == 3 and f.feeds[KEY].messages == []
    for n in range(5):
        f.publish(KEY, msg(n))
    f.take(1, batched=False)
    assert f.trim() == [2]  # 5 behind, past the bound of 4: evicted, never silently skipped
    assert 2 not in f.watches and f.feeds[KEY].messages == []


def test_a_rooms_stop_ends_only_its_own_feeds_watch_one_that_moved_on_keeps_watching(
) -> None:
    """Nobody waits for a spectator's leave: the room it left may say StopWatching after
    the room it joined next said StartWatching. Only that room's own watch stops."""
    f = Fanout()
    f.apply("r1", [StartWatching(1, 0, (b"snap1",))])
    f.apply("r2", [StartWatching(1, 0, (b"snap2",))])  # joined r2 first ...
    f.apply("r1", [StopWatching(1, False), StopWatching(1, True)])  # ... then left r1
    assert f.watches[1].feed.key == ("r2", 0) and ("r1", 0) not in f.feeds
    f.apply("r2", [Publish(0, msg(1))])
    assert f.take(1, batched=False) == [b"snap2", msg(1)]
    f.apply("r2", [StopWatching(1, False)])
    assert 1 not in f.watches


def test_a_failed_room_drops_its_feeds_and_watchers() -> None:
    f = Fanout()
    f.watch(1, KEY, ())
    f.watch(2, ("r2", 0), ())
    assert f.close_room("r1") == [1]
    assert list(f.watches) == [2] and KEY not in f.feeds


async def test_the_relay_wakes_watchers_at_most_once_per_flush_a_few_per_round(
    autojump_clock: trio.testing.MockClock,
) -> None:
    woken: list[tuple[float, int]] = []
    evicted: list[int] = []

    def wake(conn: int) -> bool:
        woken.append((trio.current_time(), conn))
        return conn != 99  # conn 99 is gone: its watch is dropped

    relay = Relay(wake, evicted.append, flush_seconds=0.5, wake_batch=2, max_messages=8)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(relay.run)
        relay.apply("r1", [StartWatching(c, 0, (b"snapshot",)) for c in (1, 2, 3, 99)])
        await trio.sleep(0.01)
        assert sorted(c for _t, c in woken) == [1, 2, 3, 99]
        assert 99 not in relay.fanout.watches
        for conn in (1, 2, 3):
            relay.take(conn, batched=True)
        woken.clear()
        start = trio.current_time()
        for n in range(3):  # three publishes within one flush interval: one wake each
            relay.apply("r1", [Publish(0, msg(n))])
            await trio.sleep(0.1)
        await trio.sleep(1)
        assert sorted(c for _t, c in woken) == [1, 2, 3]
        assert all(t - start >= 0.5 - 1e-9 for t, _c in woken[1:]) or len(woken) == 3
        # Watcher 3 never takes what it is woken for: it falls behind and is evicted.
        woken.clear()
        for n in range(10):
            relay.apply("r1", [Publish(0, msg(n))])
            relay.take(1, batched=True)
            relay.take(2, batched=True)
            await trio.sleep(0.6)
        assert evicted == [3] and relay.evicted == 1
        nursery.cancel_scope.cancel()


async def _spectator(app: object, room_id: str, nursery: trio.Nursery) -> MemorySocket:
    sock = MemorySocket(out_buffer=10_000)
    nursery.start_soon(app.handle_connection, sock)  # type: ignore[attr-defined]
    welcome = await sock.request(hello=mpb.Hello(protocol_version=1, display_name="Eve",
                                                 batched=True))
    assert welcome.welcome.batched  # every frame from now on is a ServerBatch
    await sock.to_server.send(mpb.ClientMessage(request_id=2, join_room=mpb.JoinRoom(
        room_id=room_id, role=mpb.ROLE_SPECTATOR)).SerializeToString())
    with trio.fail_after(5):
        while True:
            batch = mpb.ServerBatch.FromString(await sock.from_server.receive())
            if any(m.request_id == 2 and m.HasField("joined") for m in batch.messages):
                return sock


async def test_app_spectators_get_their_stream_through_the_relay_as_one_frame_per_flush(
    tmp_path: Path, autojump_clock: trio.testing.MockClock,
) -> None:
    limits = Limits(spectator_flush_seconds=1.0)
    async with running_app(tmp_path, limits) as app:
        a, b, room_id = await _two_players(app)
        eve = await _spectator(app, room_id, app.lobby.nursery)
        await trio.sleep(2)
        frames: list[bytes] = []
        while True:
            try:
                frames.append(eve.from_server.receive_nowait())
            except trio.WouldBlock:
                break
        messages = [m for f in frames for m in mpb.ServerBatch.FromString(f).messages]
        assert [m.WhichOneof("body") for m in messages][:2] == ["snapshot", "clocks"]
        # Players act fast: the spectator's deltas come batched, at most one frame a second.
        host = app.lobby.hosts[room_id]
        game = host.room.game
        assert game is not None
        for _ in range(40):
            pending = game.pending
            assert pending is not None
            sock = a if pending.seat == 0 else b
            await sock.to_server.send(mpb.ClientMessage(act=mpb.Act(
                prompt_id=pending.prompt_id, option_index=0)).SerializeToString())
            await trio.sleep(0.05)
        await trio.sleep(1.5)
        frames = []
        while True:
            try:
                frames.append(eve.from_server.receive_nowait())
            except trio.WouldBlock:
                break
        deltas = [m for f in frames for m in mpb.ServerBatch.FromString(f).messages
                  if m.HasField("delta")]
        assert len(deltas) >= 40
        assert len(frames) <= 40 * 0.05 / 1.0 + 2  # ~one frame per flush second
        ids = [(d.delta.prev_state_id, d.delta.state_id) for d in deltas]
        assert all(prev == ids[i - 1][1] for i, (prev, _s) in enumerate(ids) if i)
        assert app.relay.woken > 0 and FEED_WAKE not in frames
