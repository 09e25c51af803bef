"""The terminal's ``why``: the answers to ExplainCard are lines under the decision, one a
card (np7 finding 2: a card that couldn't be cast was just left off the list)."""

from __future__ import annotations

from client_sdk.board import WHY_NOTICE, WHY_STALE
from protocol.v1 import messages_pb2 as mpb
from tests.terminal.test_board import ANN, _board
from tests.terminal.test_session_receive import StubClient
from tests.terminal.test_stops import _mirror, _session


def test_the_answers_to_why_are_lines_under_the_decision() -> None:
    board = _board(ANN)
    board.notice = WHY_NOTICE
    board.why_requests = {5: "Titanic Growth", 6: "Shock", 7: "Mind Rot"}
    board.absorb(mpb.ServerMessage(request_id=5, card_explanation=mpb.CardExplanation(
        object_id="g", reason="No legal target: it needs target creature.")),
        now=0.0)
    board.absorb(mpb.ServerMessage(request_id=6, card_explanation=mpb.CardExplanation(
        object_id="s", castable=True)), now=0.0)
    board.absorb(mpb.ServerMessage(request_id=7, error=mpb.Error(
        code=mpb.ERROR_CODE_RATE_LIMITED, message="too many")), now=0.0)
    assert board.notice.splitlines() == [
        WHY_NOTICE, "Titanic Growth: No legal target: it needs target creature.",
        "Shock: it can be cast now", "Mind Rot: the server says: too many"]
    assert board.why_requests == {}
    # An answer another command's notice replaced: the line alone.
    board.notice = "Nothing to answer now."
    board.why_requests = {8: "Shock"}
    board.absorb(mpb.ServerMessage(request_id=8, card_explanation=mpb.CardExplanation(
        reason="You don't have priority")), now=0.0)
    assert board.notice == "Shock: You don't have priority"


def test_answers_given_at_a_state_the_game_left_are_said_stale() -> None:
    """``why`` typed as a turn began: the server answered at its state then ("It isn't your
    main phase"), and the main phase's decision came after -- the answer read as one about
    it (a new player's finding). Once the game moved on, the screen says to ask again."""
    mirror = _mirror()
    board, session = _session(mirror, StubClient([]))
    board.notice = WHY_NOTICE
    board.why_requests = {5: "Shock"}
    board.absorb(mpb.ServerMessage(request_id=5, card_explanation=mpb.CardExplanation(
        object_id="h1", reason="It isn't your main phase")), now=0.0)
    session._sync()
    assert board.notice.splitlines()[1] == "Shock: It isn't your main phase"  # (same state)
    mirror.state_id += 1  # (the game moved on: the main phase began)
    session._sync()
    assert board.notice == WHY_STALE
