"""A board starting afresh mid-game (a spectator joining late, a player back in a new
terminal) logs how the game began -- who played first (103.1), the mulligans (103.5) --
which the snapshot's recent events begin with (protocol/README.md, ``recent_events``),
whole: only the last events after them may begin with the tail of a run cut at a count."""

from __future__ import annotations

from client_sdk.board import opening_lead
from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from tests.terminal.test_board_joining import (
    ANN,
    BOB,
    RECENT_EVENTS,
    SPECTATOR,
    _drew,
    _started,
    _view,
)

CHOSEN = pb.GameEvent(starting_player_chosen=pb.StartingPlayerChosenEvent(chooser=BOB,
                                                                          starting=BOB))


def _mulligan(number: int) -> pb.GameEvent:
    return pb.GameEvent(mulligan_taken=pb.MulliganTakenEvent(seat=ANN, number=number))


def test_rule_103_5_a_late_spectator_logs_the_opening_then_the_last_events() -> None:
    recent = [CHOSEN, _mulligan(1), _mulligan(2), *[_drew(ANN)] * 3,
              *[_drew(BOB)] * (RECENT_EVENTS - 3)]
    assert opening_lead(recent) == 3
    board = _started(SPECTATOR, _view(SPECTATOR, pb.GAME_PHASE_PLAYING, turn=9), recent)
    assert [text for text, _n in board.events] == [
        "Bob chose to play first", "Ann took a mulligan", "Ann took a mulligan (2nd)",
        # (the last events' first run may be cut short: left out, as ever)
        "Bob drew a card"]


def test_a_window_from_the_games_start_is_told_as_it_was() -> None:
    recent = [CHOSEN, *[_drew(BOB)] * 7, *[_drew(ANN)] * 7, _mulligan(1)]
    board = _started(ANN, _view(ANN, pb.GAME_PHASE_PLAYING, turn=1), recent)
    assert [(text, n) for text, n in board.events] == [
        ("Bob chose to play first", 1), ("Bob drew a card", 7), ("you drew a card", 7),
        ("you took a mulligan", 1)]


def test_a_resync_does_not_repeat_the_opening_in_a_log_that_has_it() -> None:
    recent = [CHOSEN, _mulligan(1), *[_drew(BOB)] * 2]
    board = _started(SPECTATOR, _view(SPECTATOR, pb.GAME_PHASE_PLAYING, turn=9), recent)
    before = list(board.events)
    board.absorb(mpb.ServerMessage(snapshot=pb.Snapshot(
        view=_view(SPECTATOR, pb.GAME_PHASE_PLAYING, turn=9),
        recent_events=[*recent, _drew(ANN)])), now=2.0)
    assert list(board.events) == [*before, ("Ann drew a card", 1)]
