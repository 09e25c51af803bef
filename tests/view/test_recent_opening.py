"""``recent_events`` (Snapshot.recent_events) begins with how the game began -- who plays
first (rule 103.1), each mulligan taken (103.5) -- when the last events don't reach back to
them, and never repeats one that they do (protocol/README.md, ``recent_events``)."""

from __future__ import annotations

from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from server.engine.events import CardDrawn, MulliganTaken, StartingPlayerChosen
from server.view.stream import RECENT_EVENTS, opening_events, recent_events


def _chosen() -> pb.GameEvent:
    return pb.GameEvent(starting_player_chosen=pb.StartingPlayerChosenEvent(
        chooser=1, starting=1))


def _mulligan(seat: int) -> pb.GameEvent:
    return pb.GameEvent(mulligan_taken=pb.MulliganTakenEvent(seat=seat, number=1))


def _draw(seat: int) -> pb.GameEvent:
    return pb.GameEvent(card_drawn=pb.CardDrawnEvent(seat=seat))


def _delta(state: int, events: list[pb.GameEvent]) -> tuple[int, int, bytes]:
    return (state - 1, state, mpb.ServerMessage(delta=pb.Delta(
        prev_state_id=state - 1, state_id=state, events=events)).SerializeToString())


def _bytes(events: list[pb.GameEvent]) -> list[bytes]:
    return [e.SerializeToString(deterministic=True) for e in events]


def _opening(history: list[tuple[int, int, bytes]]) -> list[tuple[int, bytes]]:
    """What a view class keeps of its deltas (as the room does)."""
    return [(state, e) for _prev, state, data in history
            for e in opening_events([StartingPlayerChosen(1, 1)], data)]


def test_opening_events_are_looked_for_only_after_an_action_that_made_one() -> None:
    data = _delta(2, [_chosen(), _draw(0)])[2]
    assert opening_events([CardDrawn(0)], data) == []
    assert opening_events([MulliganTaken(0, 1)], data) == _bytes([_chosen()])


def test_rule_103_5_the_opening_comes_first_when_the_last_events_are_later() -> None:
    history = [_delta(2, [_chosen(), *[_draw(0)] * 7, *[_draw(1)] * 7]),
               _delta(3, [_mulligan(1), *[_draw(1)] * 7]),
               *[_delta(n, [_draw(n % 2)]) for n in range(4, 4 + RECENT_EVENTS + 5)]]
    recent = recent_events(history, _opening(history))
    assert recent == _bytes([_chosen(), _mulligan(1), *[_draw(n % 2) for n in range(
        4 + 5, 4 + RECENT_EVENTS + 5)]])
    # Without them kept (as before): only the last events.
    assert recent_events(history) == recent[2:]


def test_an_opening_event_among_the_last_events_is_told_once() -> None:
    history = [_delta(2, [_chosen(), _draw(0)]), _delta(3, [_mulligan(0), _draw(0)]),
               _delta(4, [_draw(1)])]
    assert recent_events(history, _opening(history)) == _bytes(
        [_chosen(), _draw(0), _mulligan(0), _draw(0), _draw(1)])


def test_an_opening_event_of_a_last_delta_cut_short_still_comes_first() -> None:
    """Four players' first draws (28) after the choice: the last 20 are kept of that
    delta, and the choice before them."""
    history = [_delta(2, [_chosen(), *[_draw(s) for s in range(4) for _ in range(7)]])]
    recent = recent_events(history, _opening(history))
    assert recent[0] == _chosen().SerializeToString(deterministic=True)
    assert len(recent) == RECENT_EVENTS + 1 and recent.count(recent[0]) == 1
