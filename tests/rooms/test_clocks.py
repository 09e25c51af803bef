"""A room's chess clocks (server.rooms.clocks): the deciding player's clock runs, time is
charged when the decision is made, and a clock that reaches zero stops there (rule 104.3a:
that player then concedes, see the room's tests)."""

from __future__ import annotations

from protocol.v1 import messages_pb2 as mpb
from server.rooms.clocks import ChessClocks


def _shown(data: bytes) -> list[tuple[int, int, bool]]:
    clocks = mpb.ServerMessage.FromString(data).clocks
    return [(c.seat, c.remaining_ms, c.running) for c in clocks.seats]


def test_only_the_running_clock_is_charged_and_shown_running() -> None:
    clocks = ChessClocks.fresh(2, 60.0)
    assert clocks.running_seat is None and clocks.runs_out_at() is None
    clocks.start(1, now=10.0)
    assert clocks.running_seat == 1 and clocks.runs_out_at() == 70.0
    assert _shown(clocks.message(12.5)) == [(0, 60_000, False), (1, 57_500, True)]
    clocks.start(0, now=15.0)  # seat 1 decided after 5 s
    assert clocks.remaining == [60.0, 55.0] and clocks.running_seat == 0
    clocks.start(None, now=16.0)  # the game is over: none runs
    assert clocks.remaining == [59.0, 55.0] and clocks.running is None
    assert clocks.ran_out(1_000.0) is None


def test_a_clock_runs_out_at_zero_and_stops() -> None:
    clocks = ChessClocks.fresh(2, 30.0)
    clocks.start(0, now=0.0)
    assert clocks.ran_out(29.9) is None and clocks.running_seat == 0
    assert clocks.ran_out(31.0) == 0
    assert clocks.remaining == [0.0, 30.0] and clocks.running is None


def test_the_message_is_built_again_only_when_what_it_shows_changes() -> None:
    clocks = ChessClocks.fresh(2, 60.0)
    clocks.start(0, now=0.0)
    first = clocks.message(1.0)
    assert clocks.message(1.0004) is first  # the same millisecond shown
    assert clocks.message(1.002) is not first
    assert _shown(clocks.message(1.002))[0] == (0, 58_998, True)
