"""The hand-written protobuf framing of :mod:`server.view.wire` writes exactly the bytes
protobuf's deterministic serialization writes (field order, zeros omitted, set optional
fields and submessages kept, negative int32, long varints)."""

from __future__ import annotations

import random

import pytest

from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from server.cards import demo_deck, demo_deck_names
from server.engine import PlayerSetup, apply, new_game
from server.view.encode import encode_header, encode_player
from server.view.project import project_header, project_players
from server.view.track import GameTracker
from server.view.wire import (
    delta_message,
    header_message,
    header_parts,
    set_header_op,
    varint,
    with_recent_events,
    with_request_id,
)

_OPS = [pb.DeltaOp(remove_object="o-1"), pb.DeltaOp(set_zone=pb.ZoneContents(
    zone=pb.ZoneRef(kind=pb.ZONE_KIND_BATTLEFIELD, owner=-1),
    object_ids=[f"id-{n}" for n in range(3000)]))]
_EVENTS = [pb.GameEvent(card_drawn=pb.CardDrawnEvent(seat=1)),
           pb.GameEvent(damage=pb.DamageEvent(source_id="o-2", amount=3, player=0))]


@pytest.mark.parametrize(("prev_id", "state_id", "view_hash", "ops", "events"), [
    (0, 1, b"", [], []),
    (1, 2, b"h" * 32, _OPS[:1], []),
    (2**40, 2**40 + 1, b"h" * 32, _OPS, _EVENTS),  # a 16 KiB+ op: a three-byte length
    (127, 128, b"x", _OPS[1:], _EVENTS[:1]),
    (5, 0, b"", _OPS[:1], []), (16383, 16384, b"h", [], []),
])
def test_delta_message_is_byte_for_byte_what_protobuf_writes(
        prev_id: int, state_id: int, view_hash: bytes, ops: list[pb.DeltaOp],
        events: list[pb.GameEvent]) -> None:
    expected = mpb.ServerMessage(delta=pb.Delta(
        prev_state_id=prev_id, state_id=state_id, ops=ops, view_hash=view_hash,
        events=events)).SerializeToString(deterministic=True)
    assert delta_message(prev_id, state_id, [o.SerializeToString() for o in ops],
                         view_hash, events) == expected


@pytest.mark.parametrize("request_id", [0, 1, 127, 128, 2**40])
def test_a_shared_message_behind_a_request_id_is_what_protobuf_writes(request_id: int) -> None:
    """A snapshot is built once per state and given to each joiner behind its request id."""
    snapshot = pb.Snapshot(room_id="r", state_id=9, view_hash=b"h" * 32)
    shared = mpb.ServerMessage(snapshot=snapshot).SerializeToString(deterministic=True)
    assert with_request_id(request_id, shared) == mpb.ServerMessage(
        request_id=request_id, snapshot=snapshot).SerializeToString(deterministic=True)


@pytest.mark.parametrize("events", [[], _EVENTS, _EVENTS * 40])  # * 40: a longer length
def test_a_snapshots_recent_events_are_added_as_protobuf_writes_them(
        events: list[pb.GameEvent]) -> None:
    """The view of a snapshot is encoded once per state; the recent events of whoever gets
    it are written after it, and the snapshot's length grows."""
    snapshot = pb.Snapshot(room_id="r", state_id=9, view=pb.View(
        header=pb.GameHeader(turn=3)), view_hash=b"h" * 32)
    shared = mpb.ServerMessage(snapshot=snapshot).SerializeToString(deterministic=True)
    added = with_recent_events(shared, [e.SerializeToString() for e in events])
    snapshot.recent_events.extend(events)
    assert added == mpb.ServerMessage(snapshot=snapshot).SerializeToString(deterministic=True)
    with pytest.raises(ValueError, match="not a serialized"):
        with_recent_events(with_request_id(4, shared), [b""])


def test_varint_writes_negative_values_as_protobuf_does() -> None:
    msg = pb.GameHeader(priority_seat=-1)
    assert msg.SerializeToString() == b"\x20" + varint(-1)


@pytest.mark.parametrize("priority", [None, 0, 1, 7, -1, 300])
@pytest.mark.parametrize("pending", [None, (0, 0, 0), (1, 3, 1), (7, 28, 2**33)])
@pytest.mark.parametrize("rest", [
    {"turn": 0, "active_seat": 0, "step": 0, "result": None, "phase": 0, "starting_seat": 0,
     "triggers": [], "planar_controller": None},
    {"turn": 12, "active_seat": 1, "step": pb.STEP_END, "phase": pb.GAME_PHASE_PLAYING,
     "starting_seat": 1, "planar_controller": 0,
     "triggers": [pb.WaitingTrigger(id="t-1", controller=1, source_name="Opt",
                                    text="Scry 1."), pb.WaitingTrigger(id="t-2")],
     "result": pb.GameResult(winners=[0], reason="r")},
    {"turn": 3, "active_seat": 2, "step": pb.STEP_UPKEEP, "phase": pb.GAME_PHASE_PLAYING,
     "starting_seat": 0, "planar_controller": 3, "triggers": [],
     "result": pb.GameResult(reason="draw")},
])
def test_header_message_matches_protobuf_for_any_header(
        priority: int | None, pending: tuple[int, int, int] | None,
        rest: dict[str, object]) -> None:
    expected = pb.GameHeader(**rest)  # type: ignore[arg-type]
    if priority is not None:
        expected.priority_seat = priority
    if pending is not None:
        seat, kind, prompt = pending
        expected.pending.CopyFrom(pb.PendingInfo(seat=seat, kind=kind,  # type: ignore[arg-type]
                                                 prompt_id=prompt))
    serialized = expected.SerializeToString(deterministic=True)
    head, tail = header_parts(**rest)  # type: ignore[arg-type]
    assert header_message(head, priority, pending, tail) == serialized
    assert set_header_op(serialized) == pb.DeltaOp(set_header=expected).SerializeToString(
        deterministic=True)


def test_every_header_and_player_of_whole_games_is_what_protobuf_writes() -> None:
    """Through the tracker: after every action of real games (two and three players), the
    shared header and player ops are exactly :func:`encode_header` and
    :func:`encode_player` of the full projection, serialized by protobuf."""
    checked = 0
    for players in (2, 3):
        rng = random.Random(players)
        decks = demo_deck_names()
        game = new_game(players.to_bytes(16, "big"), [
            PlayerSetup(f"p{i}", demo_deck(rng.choice(decks))) for i in range(players)])
        tracker = GameTracker()
        changes = tracker.step(game)
        for _ in range(3000):
            assert changes.header_op == pb.DeltaOp(set_header=encode_header(
                project_header(game))).SerializeToString(deterministic=True)
            assert changes.header == project_header(game)
            assert changes.player_ops == tuple(
                pb.DeltaOp(set_player=encode_player(p)).SerializeToString(deterministic=True)
                for p in project_players(game))
            assert changes.players == project_players(game)
            checked += 1
            pending = game.pending
            if pending is None:
                break
            action = rng.choice(pending.options)
            apply(game, pending.seat, action)
            changes = tracker.step(game, action)
    assert checked > 500


def test_a_snapshots_recent_events_are_whole_deltas_never_a_deltas_tail() -> None:
    """The last 20 events were cut at a count, within a delta: a spectator joining after a
    mulligan (one delta: the hand put back, the mulligan, seven draws) read "drew a card
    (x3)" with no mulligan before it. Now only whole deltas are repeated, the newest ones
    up to 20 events -- unless the newest alone has more: then its last 20."""
    from server.view.stream import RECENT_EVENTS, recent_events

    def delta(n: int, seat: int) -> tuple[int, int, bytes]:
        events = [pb.GameEvent(card_drawn=pb.CardDrawnEvent(seat=seat)) for _ in range(n)]
        return (0, 0, mpb.ServerMessage(delta=pb.Delta(events=events)).SerializeToString())

    def seats(history: list[tuple[int, int, bytes]]) -> list[int]:
        return [pb.GameEvent.FromString(e).card_drawn.seat for e in recent_events(history)]

    # Deltas of 3, 15 (a mulligan), none and 4 events: the 3 would make 22.
    assert seats([delta(3, 0), delta(15, 1), delta(0, 9), delta(4, 2)]) == [1] * 15 + [2] * 4
    assert seats([delta(1, 0), delta(15, 1), delta(4, 2)]) == [0] + [1] * 15 + [2] * 4
    assert seats([delta(2, 0), delta(25, 1)]) == [1] * RECENT_EVENTS  # one delta, too many
    assert seats([]) == []
