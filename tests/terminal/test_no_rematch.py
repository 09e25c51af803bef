"""The terminal when a rematch every player offered can't be made, or when its seat comes
after a resume (protocol/README.md, "Rematch"), in-process (a stub client standing in for
the server and the SDK):

- the server's "no rematch: <why>" (request id 0; the players are in no room any more) was
  ignored: the screen went on saying "waiting for Bob" and a later ``r`` got "not in a
  room". It is said on the screen and in the log, and the session ends as a cancelled
  rematch's does (exit 0, "No rematch: ...");
- a player whose connection closed as the last offer came resumes in no room, and the
  server seats it in the rematch's room (RematchStarted, then Joined): the terminal waits
  for that seat instead of ending, and follows it into the new room;
- the keys line at the end says "r: rematch · q: leave" while a rematch can be offered.
"""

from __future__ import annotations

import trio
import trio.testing

from client_sdk.board import frame_text
from client_sdk.client import no_rematch
from client_sdk.terminal import REMATCH_SEAT_SECONDS, Session
from protocol.v1 import messages_pb2 as mpb
from tests.terminal.test_review_np8 import _events, _match_over, _offers
from tests.terminal.test_session_receive import StubClient

WENT = mpb.ServerMessage(error=mpb.Error(code=mpb.ERROR_CODE_LIMIT_REACHED,
                                         message="no rematch: Bob went to another game"))


class _Sdk:
    """What the SDK does with the messages the stub gives (client_sdk.client)."""

    @staticmethod
    async def next_message(client: StubClient) -> mpb.ServerMessage:
        msg = await StubClient.next_message(client)
        if no_rematch(msg) is not None:
            client.room_id = None  # type: ignore[assignment]  # (let go by the old room)
        elif msg.HasField("joined"):
            client.room_id = msg.joined.room.room_id
            client.finished = False
            client.match = None
        return msg


async def _over(messages: list[mpb.ServerMessage]) -> tuple[StubClient, Session]:
    client, session = await _match_over([])
    client.next_message = lambda: _Sdk.next_message(client)  # type: ignore[method-assign]
    client.mirror = session.board.mirror  # type: ignore[attr-defined]
    client.rematch_started = None  # type: ignore[attr-defined]
    client.messages.extend(messages)
    await _receive(session, 1)
    return client, session


async def _receive(session: Session, seconds: float) -> None:
    with trio.move_on_after(seconds):
        await session._receive(None, trio.CancelScope())


def _keys(session: Session) -> str:
    return " ".join(frame_text(session.board, now=0.0).split())


async def test_no_rematch_from_the_server_is_said_and_ends_the_session_as_a_cancelled_one(
        autojump_clock: trio.testing.MockClock) -> None:
    _client, session = await _over([_offers(True, False)])
    assert session.board.notice.startswith("You offered a rematch: waiting for Bob")
    assert "r: take back your rematch offer · q: leave" in _keys(session)  # (np13)
    _client.messages.append(WENT)
    await _receive(session, 1)
    assert session._outcome is not None and session._outcome.code == 0
    assert session._outcome.line.endswith("No rematch: Bob went to another game.")
    assert session.board.notice == "No rematch: Bob went to another game."
    assert _events(session)[-1] == "No rematch: Bob went to another game."
    session._sync()
    assert "r: rematch" not in _keys(session)


async def test_a_cancelled_rematch_is_logged_and_leaves_only_q_leave(
        autojump_clock: trio.testing.MockClock) -> None:
    cancelled = mpb.ServerMessage(rematch_offers=mpb.RematchOffers(
        room_id="r1", offered=[True, False], cancelled="Bob left the room"))
    _client, session = await _over([cancelled])
    assert session._outcome is not None and session._outcome.code == 0
    assert session._outcome.line.endswith("No rematch: Bob left the room.")
    assert _events(session)[-1] == "No rematch: Bob left the room."
    session._sync()
    assert "r: rematch" not in _keys(session)


async def test_the_keys_say_r_only_where_a_rematch_can_be_offered(
        autojump_clock: trio.testing.MockClock) -> None:
    _client, session = await _over([])
    assert "r: rematch · q: leave" in _keys(session)
    session.rematch = False  # (with bots: the session ends with the game)
    session._sync()
    assert "r: rematch" not in _keys(session)
    session.rematch, session.player = True, False  # (watching)
    session._sync()
    assert "r: rematch" not in _keys(session)


async def test_resumed_in_no_room_with_its_offer_standing_it_follows_the_rematchs_seat(
        autojump_clock: trio.testing.MockClock) -> None:
    """The connection closed as the last offer came: Resumed names no room, then the server
    seats this player in the rematch's room (RematchStarted, then Joined)."""
    client, session = await _over([_offers(True, False)])
    client.room_id = None  # type: ignore[assignment]
    client.resumes = 1
    await _receive(session, 5)
    assert session._outcome is None  # (waiting for its seat: not "the room closed")
    client.messages.extend([
        mpb.ServerMessage(rematch_started=mpb.RematchStarted(old_room_id="r1",
                                                             new_room_id="r2")),
        mpb.ServerMessage(joined=mpb.Joined(room=mpb.RoomInfo(room_id="r2"),
                                            role=mpb.ROLE_PLAYER, seat=0))])
    await _receive(session, 1)
    assert session._outcome is None
    assert session.board.room.room_id == "r2"
    assert "-- Rematch in room r2 --" in _events(session)


async def test_resumed_in_no_room_a_seat_that_never_comes_ends_the_session_saying_so(
        autojump_clock: trio.testing.MockClock) -> None:
    client, session = await _over([_offers(True, False)])
    client.room_id = None  # type: ignore[assignment]
    await _receive(session, REMATCH_SEAT_SECONDS + 5)
    assert session._outcome is not None and session._outcome.code == 0
    assert session._outcome.line.endswith(
        "No rematch: the server seated you in no new game.")


async def test_resumed_in_no_room_with_no_offer_of_its_own_the_session_ends(
        autojump_clock: trio.testing.MockClock) -> None:
    client, session = await _over([_offers(False, True)])
    client.room_id = None  # type: ignore[assignment]
    await _receive(session, 1)
    assert session._outcome is not None and session._outcome.code == 0
