"""A new player's review (np8) of ``manawire play`` against a browser player, in-process
(a stub client standing in for the server):

- at a match's end (and a game's) the screen always says what ``r`` and ``q`` do -- only
  "q: leave" was left once a line was typed or a notice went with the match's end;
- the opponent's offer says "r accepts", and its withdrawal is said on the screen and in
  the log (an offer gone across a resume -- a restart forgets offers -- is no withdrawal);
- a number typed for a decision that was gone as Enter came (the opponent kept, the
  connection was resumed) was dropped with no word: "Nothing to answer now." went as the
  decision came back. It now answers that decision when it is the same question (under a
  new number, too), and says so when it is another;
- the room created gives the web client's invite links (a friend in a browser).
"""

from __future__ import annotations

import trio
import trio.testing

from client_sdk.board import frame_text
from client_sdk.terminal import REASK_SECONDS, Session, invite_text, web_link
from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from tests.terminal.test_session_receive import StubClient, _received

KEEP = pb.Action(keep_hand=pb.KeepHand())
MULLIGAN = pb.Action(take_mulligan=pb.TakeMulligan())
CHANGED = "The decision changed as you typed: nothing was sent. Answer this one."


def _mulligan(prompt_id: int, state_id: int = 5) -> mpb.ServerMessage:
    return mpb.ServerMessage(decision=pb.Decision(
        prompt_id=prompt_id, seat=0, kind=pb.DECISION_KIND_MULLIGAN, state_id=state_id,
        prompt="Keep this hand or take a mulligan.", options=[KEEP, MULLIGAN]))


def _offers(*offered: bool) -> mpb.ServerMessage:
    return mpb.ServerMessage(rematch_offers=mpb.RematchOffers(room_id="r1",
                                                              offered=list(offered)))


async def _match_over(messages: list[mpb.ServerMessage]) -> tuple[StubClient, Session]:
    """Ann (seat 0) has won a best-of-3 against Bob; then ``messages`` come."""
    client, _board, session = await _received([])
    session.rematch = True
    client.room = None  # type: ignore[attr-defined]
    client.rematch = None  # type: ignore[attr-defined]
    client.best_of = 3  # type: ignore[attr-defined]
    client.match = mpb.MatchState(best_of=3, game_number=2, wins=[2, 0],
                                  phase=mpb.MATCH_PHASE_OVER)
    client.finished = True
    client.messages.extend([mpb.ServerMessage(match_state=client.match), *messages])
    await _receive(session)
    return client, session


async def _receive(session: Session) -> None:
    with trio.move_on_after(1):
        await session._receive(None, trio.CancelScope())


def _events(session: Session) -> list[str]:
    return [text for text, _n in session.board.events]


async def test_a_matchs_end_always_says_r_offers_a_rematch(
        autojump_clock: trio.testing.MockClock) -> None:
    _client, session = await _match_over([])
    words = "The match is over: r offers a rematch, q leaves."
    assert session.board.notice == words
    await session._command("")  # (Enter alone: the words went, "q: leave" was left)
    session._sync()
    assert session.board.notice == words
    assert words in " ".join(frame_text(session.board, now=0.0).split())
    session.board.notice = ""  # (a notice gone with the match's end, say)
    session._sync()
    assert session.board.notice == words


async def test_the_opponents_offer_says_r_accepts_and_its_withdrawal_is_said(
        autojump_clock: trio.testing.MockClock) -> None:
    client, session = await _match_over([_offers(False, True)])
    assert session.board.notice == "Bob wants a rematch: r accepts, q leaves."
    client.messages.append(_offers(False, False))
    await _receive(session)
    assert session.board.notice == ("Bob withdrew the rematch offer. The match is over: r "
                                    "offers a rematch, q leaves.")
    assert _events(session)[-2:] == ["Bob wants a rematch.", "Bob withdrew the rematch offer."]
    # An offer forgotten by a restart (the connection resumed between) is no withdrawal.
    client.messages.append(_offers(False, True))
    await _receive(session)
    client.resumes = 1
    client.messages.append(_offers(False, False))
    await _receive(session)
    assert session.board.notice.startswith(
        "Bob's rematch offer no longer stands (the connection was resumed). The match is over")


async def test_an_offer_the_client_kept_for_no_room_still_says_who_offers(
        autojump_clock: trio.testing.MockClock) -> None:
    """Who offers is read from the offers said to this board's room, even if the client
    kept none (``client.rematch`` None): "Bob wants a rematch." was logged while the screen
    said "r offers a rematch"."""
    _client, session = await _match_over([_offers(False, True)])
    assert session.board.notice == "Bob wants a rematch: r accepts, q leaves."


async def test_a_number_typed_as_the_same_question_comes_again_answers_it(
        autojump_clock: trio.testing.MockClock) -> None:
    """Bob's keep typed ~1.5 s after the opponent kept was dropped with no word: the
    decision was gone as Enter came ("Nothing to answer now."), and came back -- which took
    that notice off. Now the line waits a moment for the decision, and answers it: here
    asked again under a new number (after a resume, say)."""
    client, board, session = await _received([_mulligan(4)])
    session._seen[4] = board.decision  # type: ignore[assignment]  # (drawn)
    client.my_decision = None  # gone as Enter came
    session.keyboard.line_mark = (4, trio.current_time())

    async def comes_again() -> None:
        await trio.sleep(REASK_SECONDS / 3)
        client.my_decision = _mulligan(5, state_id=6).decision

    async with trio.open_nursery() as nursery:
        nursery.start_soon(comes_again)
        await session._command("1")
    assert client.acted == [(5, 0)]


async def test_a_number_typed_for_a_decision_replaced_by_another_says_so_and_stays_said(
        autojump_clock: trio.testing.MockClock) -> None:
    client, board, session = await _received([_mulligan(4)])
    session._seen[4] = board.decision  # type: ignore[assignment]
    client.my_decision = None
    session.keyboard.line_mark = (4, trio.current_time())
    other = pb.Decision(prompt_id=5, seat=0, kind=pb.DECISION_KIND_PRIORITY,
                        options=[pb.Action(pass_priority=pb.PassPriority())])

    async def another() -> None:
        await trio.sleep(REASK_SECONDS / 3)
        client.my_decision = other

    async with trio.open_nursery() as nursery:
        nursery.start_soon(another)
        await session._command("2")
    assert client.acted == [] and board.notice == CHANGED
    session._sync()  # (redrawn: the notice stays, unlike "Nothing to answer now.")
    assert board.notice == CHANGED
    # Nothing at all came back: nothing to answer.
    client.my_decision = None
    session._sync()
    await session._command("1")
    assert client.acted == [] and board.notice == "Nothing to answer now."


async def test_the_same_question_under_a_new_number_is_answered_at_once(
        autojump_clock: trio.testing.MockClock) -> None:
    client, board, session = await _received([_mulligan(4)])
    session._seen[4] = board.decision  # type: ignore[assignment]
    client.my_decision = _mulligan(9, state_id=7).decision
    session.keyboard.line_mark = (4, trio.current_time())
    await session._command("2")
    assert client.acted == [(9, 1)]


def test_the_room_created_gives_the_web_clients_invite_links() -> None:
    text = invite_text("ws://127.0.0.1:8765", "r1", "Ab_c-1", False)
    assert "  a friend joins with:  manawire play ws://127.0.0.1:8765 --room r1 --invite " \
           "Ab_c-1\n      or in a browser:  http://127.0.0.1:8765/#join=r1&code=Ab_c-1\n" \
           in text
    assert "      or in a browser:  http://127.0.0.1:8765/#watch=r1&code=Ab_c-1" in text
    assert web_link("wss://play.example/mw", "join", "r1") == "https://play.example/mw/#join=r1"
    public = invite_text("ws://h:1", "r2", "x", True, seats_open=False)
    assert "http://h:1/#watch=r2\n" in public + "\n" and "#join" not in public
