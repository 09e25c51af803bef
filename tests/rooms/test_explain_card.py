"""ExplainCard: a seated player asks why a card can't be cast now and the room answers from
the engine's ``why_not_castable`` (np7 finding 2) -- a pure query: nothing is logged, no
state changes, nobody else is told. A spectator, or a player before the game, is refused;
a card that isn't the player's is answered as a made-up id is."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
import trio
import trio.testing

from protocol.v1 import messages_pb2 as mpb
from server import incidents
from server.engine.actions import KeepHand
from server.engine.state import DecisionKind
from server.rooms import room as room_module
from server.rooms.commands import ExplainCard
from tests.rooms.test_app_in_flight import _act_message
from tests.rooms.test_app_memory import running_app
from tests.rooms.test_app_write_now import _decision_of, _drain, _seated_pair
from tests.rooms.test_room_machine import Driver, seat_conn, two_player_room


def _started() -> Driver:
    """Two players past the mulligans (each keeps), the first with priority."""
    d = two_player_room()
    game = d.room.game
    assert game is not None
    while game.pending is not None and game.pending.kind is not DecisionKind.PRIORITY:
        options = game.pending.options
        keep = next((i for i, o in enumerate(options) if isinstance(o, KeepHand)), 0)
        d.act(seat_conn(d, game.pending.seat), keep)
    return d


def _ask(d: Driver, conn: int, object_id: str, rid: int = 77) -> mpb.ServerMessage:
    d.take(1), d.take(2), d.take(3)
    out = d.do(ExplainCard(conn, rid, object_id))
    assert not out.log  # nothing stored: a query
    got = d.take(conn)
    assert len(got) == 1 and got[0].request_id == rid
    assert not d.take(3 - conn)  # the other player hears nothing of it
    return got[0]


def test_a_player_is_told_why_a_card_in_hand_cant_be_cast() -> None:
    d = _started()
    game = d.room.game
    assert game is not None and game.pending is not None
    prompt = game.pending.prompt_id
    for seat in (0, 1):
        conn = seat_conn(d, seat)
        offered = {getattr(o, "object_id", "") for o in game.pending.options
                   if type(o).__name__ == "CastSpell"} if game.pending.seat == seat else set()
        for oid in game.player(seat).hand:
            answer = _ask(d, conn, oid).card_explanation
            assert answer.object_id == oid
            assert answer.castable == (answer.reason == "") == (oid in offered)
        theirs = _ask(d, conn, game.player(1 - seat).hand[0]).card_explanation
        made_up = _ask(d, conn, "no-such-card").card_explanation
        assert (theirs.castable, theirs.reason) == (made_up.castable, made_up.reason)
        assert theirs.reason.startswith("It isn't a card you may cast")
    assert game.pending.prompt_id == prompt  # nothing changed


def test_a_spectator_or_a_stranger_is_refused() -> None:
    d = _started()
    d.join(3, spectator=True)
    game = d.room.game
    assert game is not None
    got = _ask(d, 3, game.player(0).hand[0])
    assert got.WhichOneof("body") == "error"
    assert got.error.code == mpb.ERROR_CODE_NOT_YOUR_DECISION


async def test_a_failing_explanation_is_told_to_its_asker_alone_and_the_game_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """A fault answering ExplainCard (a pure query: 601.2's tests, asked, never acted on)
    changed nothing: it isn't the room's failure. The asker gets ERROR_CODE_INTERNAL with an
    incident id, which the log names; the opponent hears nothing; the game goes on."""

    def broken(game: object, seat: int, object_id: str) -> str:
        raise RuntimeError("injected explanation fault")

    monkeypatch.setattr(room_module, "why_not_castable", broken)
    caplog.set_level(logging.ERROR, logger="manawire.room")
    before = incidents.totals()["query"]
    async with running_app(tmp_path) as app:
        socks = await _seated_pair(app)
        seat, _prompt = _decision_of(app)
        await socks[seat].to_server.send(mpb.ClientMessage(
            request_id=41, explain_card=mpb.ExplainCard(object_id="anything"),
        ).SerializeToString())
        await trio.testing.wait_all_tasks_blocked()
        (answer,) = _drain(socks[seat])
        assert answer.request_id == 41 and answer.error.code == mpb.ERROR_CODE_INTERNAL
        incident = answer.error.incident_id
        assert incident and f"incident {incident}" in answer.error.message
        assert "the game goes on" in answer.error.message
        assert not _drain(socks[1 - seat])
        assert incidents.totals()["query"] == before + 1
        assert any(incident in r.getMessage() and r.exc_info for r in caplog.records)
        # The room is still there and plays on: the decision is answered as ever.
        seat, act = _act_message(app)
        await socks[seat].to_server.send(act)
        await trio.testing.wait_all_tasks_blocked()
        assert any(m.HasField("delta") for m in _drain(socks[seat]))
        (room,) = app.lobby.rooms.values()
        assert not room.closed and room.game is not None and room.game.result is None
