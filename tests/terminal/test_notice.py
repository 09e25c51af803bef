"""The terminal shows a server's ``Notice`` (protocol/README.md, "Notices") as a notice --
a line in the log and under the decision, which stays as it was -- not as an error; and a
game the server's limit of actions ended reads as a draw, said once."""

from __future__ import annotations

from client_sdk.board import frame_text
from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from tests.terminal.test_board import ANN, DECISION, SPECTATOR, _board

WARNING = "this game has taken 270 actions: at the server's limit of 300 it ends as a draw"


def test_a_notice_is_a_line_of_its_own_and_the_decision_stays() -> None:
    board = _board(ANN)
    board.decision = DECISION
    board.absorb(mpb.ServerMessage(notice=mpb.Notice(
        code=mpb.NOTICE_CODE_ACTION_LIMIT_NEAR, message=WARNING)), now=0.0)
    said = f"Server notice: {WARNING}"
    assert board.notice == said and board.events[-1] == (said, 1)
    assert board.decision is DECISION
    text = frame_text(board, now=0.0, width=160)
    assert "Your decision" in text and "The server says" not in text
    assert text.count(said) == 2  # (in the log, and under the decision)
    # A code this client doesn't know yet is shown the same way.
    board.absorb(mpb.ServerMessage(notice=mpb.Notice(code=99, message="maintenance at 6")),  # type: ignore[arg-type]
                 now=0.0)
    assert board.notice == "Server notice: maintenance at 6"


def test_a_game_drawn_at_the_limit_says_so_once() -> None:
    for viewer in (ANN, SPECTATOR):
        board = _board(viewer)
        header = pb.GameHeader()
        header.CopyFrom(board.mirror.header)
        header.ClearField("pending")
        header.result.reason = "the game reached the server's limit of 300 actions: a draw"
        board.mirror.header = header
        assert board.result_line() == \
            "Game over: The game is a draw (the game reached the server's limit of 300 actions)"
        assert "Game over: The game is a draw" in frame_text(board, now=0.0, width=160)
