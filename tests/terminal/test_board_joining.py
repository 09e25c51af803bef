"""A board that starts from a snapshot in the middle of a game -- a spectator joining, a
player back in a new terminal -- logs what is true of what it missed: the snapshot's last
events are cut at a count (protocol/README.md, ``recent_events``: at most 20), and a
spectator joining during the mulligans read "Ann put a card from their hand into their
library (x4)" (of a hand of seven) and "Ann drew a card (x7)" with no mulligan before it
(found by a new player)."""

from __future__ import annotations

from client_sdk.board import Board, frame_text
from client_sdk.mirror import Mirror
from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from protocol.viewhash import view_hash

ANN, BOB, SPECTATOR = 0, 1, -1
#: The most events a snapshot repeats (protocol/README.md, ``recent_events``).
RECENT_EVENTS = 20
HAND, LIBRARY = pb.ZONE_KIND_HAND, pb.ZONE_KIND_LIBRARY


def _view(viewer: int, phase: int, *, turn: int = 0) -> pb.View:
    """Ann has taken two mulligans (five cards left), Bob none; Bob plays first."""
    header = pb.GameHeader(turn=turn, active_seat=BOB, starting_seat=BOB, phase=phase,  # type: ignore[arg-type]
                           step=pb.STEP_UNTAP if not turn else pb.STEP_PRECOMBAT_MAIN,
                           pending=pb.PendingInfo(seat=ANN, kind=pb.DECISION_KIND_MULLIGAN,
                                                  prompt_id=8))
    players = [pb.Player(seat=ANN, name="Ann", life=20, hand_count=5, library_count=55,
                         mulligans=2),
               pb.Player(seat=BOB, name="Bob", life=20, hand_count=7, library_count=53)]
    return pb.View(viewer=viewer, header=header, players=players)


def _to_library(seat: int) -> pb.GameEvent:
    return pb.GameEvent(zone_change=pb.ZoneChangeEvent(owner=seat, from_zone=HAND,
                                                       to_zone=LIBRARY))


def _drew(seat: int) -> pb.GameEvent:
    return pb.GameEvent(card_drawn=pb.CardDrawnEvent(seat=seat))


def _started(viewer: int, view: pb.View, recent: list[pb.GameEvent]) -> Board:
    mirror = Mirror()
    mirror.load_snapshot(pb.Snapshot(room_id="r1", state_id=40, view=view,
                                     view_hash=view_hash(view)))
    board = Board(mirror, seat=viewer, watching=viewer == SPECTATOR,
                  room=mpb.RoomInfo(room_id="r1"))
    board.absorb(mpb.ServerMessage(snapshot=pb.Snapshot(view=view, recent_events=recent)),
                 now=0.0)
    return board


def test_103_5_joining_during_the_mulligans_the_log_says_the_hands_as_they_are() -> None:
    recent = ([_to_library(ANN)] * 4 + [_drew(ANN)] * 7 + [_to_library(ANN)] * 2
              + [_drew(BOB)] * 7)
    assert len(recent) == RECENT_EVENTS  # (a full window: cut at a count)
    board = _started(SPECTATOR, _view(SPECTATOR, pb.GAME_PHASE_MULLIGANS), recent)
    assert [text for text, _n in board.events] == [
        "-- The mulligans so far --",
        "Bob plays first",
        "Ann has taken 2 mulligans: 5 cards in hand",
        "Bob has taken no mulligan: 7 cards in hand",
    ]
    text = frame_text(board, now=1.0)
    assert "(x4)" not in text and "drew a card" not in text, text
    # What happens next is told as it happens.
    board.absorb(mpb.ServerMessage(delta=pb.Delta(events=[
        pb.GameEvent(mulligan_taken=pb.MulliganTakenEvent(seat=ANN, number=3))])), now=2.0)
    assert list(board.events)[-1] == ("Ann took a mulligan (3rd)", 1)


def test_103_5_a_player_back_during_the_mulligans_reads_them_about_themself() -> None:
    board = _started(ANN, _view(ANN, pb.GAME_PHASE_MULLIGANS), [_drew(ANN)] * 7)
    assert [text for text, _n in board.events][1:] == [
        "Bob plays first", "you have taken 2 mulligans: 5 cards in hand",
        "Bob has taken no mulligan: 7 cards in hand"]
    assert "You have taken 2 mulligans: 5 cards in hand" in frame_text(board, now=1.0)


def test_a_resync_during_the_mulligans_adds_no_summary_to_a_log_that_saw_them() -> None:
    board = _started(SPECTATOR, _view(SPECTATOR, pb.GAME_PHASE_MULLIGANS), [])
    before = list(board.events)
    board.absorb(mpb.ServerMessage(snapshot=pb.Snapshot(
        view=_view(SPECTATOR, pb.GAME_PHASE_MULLIGANS), recent_events=[])), now=1.0)
    assert list(board.events) == before


def test_a_full_window_of_last_events_leaves_out_its_first_run_which_may_be_cut() -> None:
    """Joining on turn 1: the window began inside Bob's opening hand -- "Bob drew a card
    (x3)" of seven. That run is left out; the runs after it are whole."""
    recent = [_drew(BOB)] * 3 + [_drew(ANN)] * 7 + [_to_library(ANN)] * 6 + [_drew(ANN)] * 4
    assert len(recent) == RECENT_EVENTS
    board = _started(SPECTATOR, _view(SPECTATOR, pb.GAME_PHASE_PLAYING, turn=1), recent)
    assert list(board.events) == [
        ("Ann drew a card", 7), ("Ann put a card from their hand into their library", 6),
        ("Ann drew a card", 4)]
    # Fewer than the most: nothing was cut, every line is told.
    board = _started(SPECTATOR, _view(SPECTATOR, pb.GAME_PHASE_PLAYING, turn=1), recent[1:])
    assert board.events[0] == ("Bob drew a card", 2)
