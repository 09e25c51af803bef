"""``manawire bots`` against a server's rate of rooms made per address (``--room-burst``,
``--rooms-per-minute``): every game makes a room from the bots' one address, and a room
refused for rate (``ERROR_CODE_RATE_LIMITED``, "... try again in N s") is tried again after
the seconds the server said -- within the game's time -- instead of failing the game."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pytest
import trio
import trio.testing

from client_sdk import bots
from client_sdk.bots import run_bot_games
from client_sdk.policy import Policy
from server.app import Limits
from tests.client_sdk.memory import Network
from tests.rooms.test_app_memory import running_app


@pytest.mark.parametrize("quick_match", [False, True])
async def test_bots_wait_out_a_room_refused_for_rate_and_play_every_game(
        quick_match: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        autojump_clock: trio.testing.MockClock, capsys: pytest.CaptureFixture[str]) -> None:
    async with running_app(tmp_path, Limits(room_burst=1, rooms_per_minute=1)) as app:
        refused: list[str] = []
        rate_refusal = app.create_desk.rate_refusal

        def noted(addresses: Iterable[str], *, yours: bool = False,
                  then: str = "try again in") -> str:
            said = rate_refusal(addresses, yours=yours, then=then)
            if said:
                refused.append(said)
            return said

        monkeypatch.setattr(app.create_desk, "rate_refusal", noted)
        monkeypatch.setattr(bots, "Client", Network(app).client_class())
        start = trio.current_time()
        summary = await run_bot_games("memory", 2, seed=3, policy=Policy.EAGER,
                                      quick_match=quick_match)
        assert "failed" not in capsys.readouterr().out
        assert (summary.games, summary.completed, summary.errors) == (2, 2, 0)
        assert refused  # (the second game's room was refused at first, and waited for)
        assert trio.current_time() - start >= 59  # (a room a minute: as the server said)


async def test_a_wait_past_the_games_time_fails_the_game_saying_why(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        autojump_clock: trio.testing.MockClock, capsys: pytest.CaptureFixture[str]) -> None:
    async with running_app(tmp_path, Limits(room_burst=1, rooms_per_minute=0.1)) as app:
        monkeypatch.setattr(bots, "Client", Network(app).client_class())
        summary = await run_bot_games("memory", 2, seed=3, policy=Policy.EAGER,
                                      game_seconds=300)
        out = capsys.readouterr().out
        assert (summary.completed, summary.errors) == (1, 1)
        assert "game 1 (default decks) failed: your address made too many rooms lately" in out
