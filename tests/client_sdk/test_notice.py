"""A server ``Notice`` (protocol/README.md, "Notices") is told and changes nothing: the
game nearing ``--max-game-actions`` (at 90%) reaches the SDK's players as a notice kept in
``Client.notices`` -- never as an error, never touching the decision being answered -- and
``manawire bots`` counts a game the limit ended as a draw as completed, with no error.

Found by a user: the warning was an ``Error`` with request id 0, which is how the server
refuses an ``Act``; the SDK took it for a refused move, answered the decision again, got
stale-prompt errors, and ``manawire bots`` reported a game that ended properly as failed."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest
import trio
import trio.testing

from client_sdk import bots
from client_sdk.bots import RandomBot, run_bot_games
from protocol.v1 import messages_pb2 as mpb
from server.app import Limits
from server.rooms.room import RoomConfig, action_warning_at
from tests.client_sdk.memory import Network, deciding, seated_pair, until
from tests.rooms.test_app_memory import running_app

LIMIT = 40
NOTICE = (f"this game has taken {action_warning_at(LIMIT)} actions: at the server's limit of "
          f"{LIMIT} it ends as a draw")
DRAW = f"the game reached the server's limit of {LIMIT} actions: a draw"


def _limits(limit: int) -> Limits:
    return Limits(room=replace(RoomConfig(), max_game_actions=limit))


async def test_a_notice_leaves_the_pending_decision_alone_and_the_bots_play_on(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    async with running_app(tmp_path, _limits(LIMIT)) as app:
        memory_client = Network(app).client_class()
        async with seated_pair(memory_client) as (ann, bob, room_id):
            game = app.lobby.rooms[room_id].game
            assert game is not None
            rng = random.Random(11)
            while game.action_count < action_warning_at(LIMIT):
                actor = await deciding(app, room_id, ann, bob)
                decision = actor.my_decision
                assert decision is not None
                await actor.act(rng.randrange(len(decision.options)))
                await trio.testing.wait_all_tasks_blocked()
            # The warning's action was played: whoever decides next gets the decision, then
            # the notice -- which leaves that decision pending, as it was.
            actor = await deciding(app, room_id, ann, bob)
            other = bob if actor is ann else ann
            pending = actor.my_decision
            assert pending is not None
            await until(actor, lambda: bool(actor.notices))
            await until(other, lambda: bool(other.notices))
            for client in (ann, bob):
                assert [(n.code, n.message) for n in client.notices] == [
                    (mpb.NOTICE_CODE_ACTION_LIMIT_NEAR, NOTICE)]
                assert client.errors == []
            assert actor.my_decision is pending and other.my_decision is None
            # The bots play the game on to the limit: each decision answered once, no error.
            played = [RandomBot(c, random.Random(i)) for i, c in enumerate((ann, bob))]
            async with trio.open_nursery() as nursery:
                for bot in played:
                    nursery.start_soon(bot.play)
            for client, bot in zip((ann, bob), played, strict=True):
                assert client.mirror.game_over and client.finished
                result = client.mirror.header.result
                assert (list(result.winners), result.reason) == ([], DRAW)
                assert client.errors == [] and bot.server_errors() == []
                assert len(client.notices) == 1  # (once)


async def test_manawire_bots_count_a_game_the_limit_drew_as_completed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        autojump_clock: trio.testing.MockClock, capsys: pytest.CaptureFixture[str]) -> None:
    seen: list[RandomBot] = []
    play = RandomBot.play

    async def kept_play(self: RandomBot) -> None:
        seen.append(self)
        await play(self)

    monkeypatch.setattr(RandomBot, "play", kept_play)
    async with running_app(tmp_path, _limits(60)) as app:
        monkeypatch.setattr(bots, "Client", Network(app).client_class())
        summary = await run_bot_games("memory", 2, seed=3)  # (uniform: ~1,100 actions)
    assert "failed" not in capsys.readouterr().out
    assert (summary.games, summary.completed, summary.errors) == (2, 2, 0)
    assert len(seen) == 4
    for bot in seen:
        assert bot.client.errors == []
        assert [n.code for n in bot.client.notices] == [mpb.NOTICE_CODE_ACTION_LIMIT_NEAR]
        assert bot.client.mirror.header.result.reason == \
            "the game reached the server's limit of 60 actions: a draw"
