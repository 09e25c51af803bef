"""A late spectator's log has how the game began (rules 103.1, 103.5): a snapshot's recent
events begin with who played first and each mulligan taken, however long ago -- the events
its view class was sent then, so nothing it didn't see (architecture invariant 4) -- and
then the last events, as before (protocol/README.md, ``recent_events``)."""

from __future__ import annotations

import random

from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from server.engine.actions import KeepHand, TakeMulligan
from server.rooms.commands import Join, ShowDelayed, Snapshot
from server.rooms.room import Room
from server.store.records import RoomSettings, SpectatorTier, TierKind
from server.view.stream import RECENT_EVENTS
from tests.rooms.test_room_machine import Driver, play, seat_conn

OPENING = ("starting_player_chosen", "mulligan_taken")


def _through_mulligans(d: Driver, mulligans: dict[int, int]) -> None:
    """Choose who plays first, then each seat takes ``mulligans[seat]`` mulligans (rule
    103.5) and keeps; the cards to put on the bottom, the first offered."""
    taken = dict.fromkeys(range(len(d.room.seats)), 0)
    for _ in range(100):
        game = d.room.game
        assert game is not None and game.pending is not None
        pending = game.pending
        if game.turn >= 1:
            return
        options = list(pending.options)
        seat = pending.seat
        if any(isinstance(o, TakeMulligan) for o in options):
            want = taken[seat] < mulligans.get(seat, 0)
            pick = next(n for n, o in enumerate(options)
                        if isinstance(o, TakeMulligan if want else KeepHand))
            taken[seat] += want
        else:
            pick = 0
        d.act(seat_conn(d, seat), pick)
    raise AssertionError("the mulligans never ended")


def _opening(events: list[pb.GameEvent]) -> list[pb.GameEvent]:
    return [e for e in events if e.WhichOneof("kind") in OPENING]


def _sent_events(msgs: list[mpb.ServerMessage]) -> list[pb.GameEvent]:
    return [e for m in msgs if m.HasField("delta") for e in m.delta.events]


def test_rule_103_5_a_late_spectator_is_told_who_played_first_and_the_mulligans() -> None:
    tier = SpectatorTier(TierKind.PUBLIC, delay_seconds=0.0, accounts=(("a12", "p12"),))
    d = Driver(Room("r1", "test", 2, 0.0, settings=RoomSettings(tiers=(tier,))))
    assert d.join(1, deck="naya-pets").accepted
    assert d.join(10, spectator=True).accepted  # there from the start
    assert d.join(2, deck="golgari-grind").accepted
    _through_mulligans(d, {1: 2})
    play(d, random.Random(5), 300)
    game = d.room.game
    assert game is not None and game.turn >= 4
    early = _sent_events(d.take(10))
    told = _opening(early)
    assert [e.WhichOneof("kind") for e in told] == \
        ["starting_player_chosen", "mulligan_taken", "mulligan_taken"]
    assert [e.mulligan_taken.number for e in told[1:]] == [1, 2]
    # A spectator joining now: the last events, after the opening ones.
    assert d.join(11, spectator=True).accepted
    snap = next(m.snapshot for m in d.take(11) if m.HasField("snapshot"))
    recent = list(snap.recent_events)
    assert recent[:3] == told
    assert not _opening(recent[3:]) and 0 < len(recent[3:]) <= RECENT_EVENTS + 30
    # Nothing the spectators weren't sent: every recent event is one of the early one's.
    early_bytes = [e.SerializeToString(deterministic=True) for e in early]
    assert all(e.SerializeToString(deterministic=True) in early_bytes for e in recent)
    # A player back in a new terminal (a snapshot on request) has them too, as its seat saw.
    ann = seat_conn(d, 0)
    d.take(ann)
    d.do(Snapshot(ann, 3))
    mine = next(m.snapshot for m in d.take(ann) if m.HasField("snapshot"))
    assert [e.WhichOneof("kind") for e in mine.recent_events][:3] == \
        ["starting_player_chosen", "mulligan_taken", "mulligan_taken"]
    # The delayed tier's audience too, from its own view class (shown up to now).
    for _ in range(1000):
        if not d.room.delayed[0].held:
            break
        d.do(ShowDelayed())
    d.rid += 1
    assert d.do(Join(12, d.rid, "s12", "p12", True, None, "a12", tier=1)).accepted
    delayed = next(m.snapshot for m in d.take(12) if m.HasField("snapshot"))
    assert list(delayed.recent_events)[:3] == told
