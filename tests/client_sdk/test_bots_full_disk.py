"""``manawire bots`` on a server whose disk fills (docs/operating.md, "Restarts and
crashes"): the bots wait for their stopped room to come back and play on, a game the server
can't save yet (Hello refused "try again later", closed 1013) is tried again with backoff,
and the actions of games that failed are counted too.

Found by an operator: game 0 failed with RoomClosedError although its room came back,
games 1-5 failed within a second ("the server can't save anything now ... try again
later"), and the summary said ``"actions": 0`` after 656 actions."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
import trio
import trio.testing

from client_sdk import bots
from client_sdk.bots import Summary, run_bot_games
from client_sdk.policy import Policy
from server.app import App
from tests.client_sdk.memory import Network
from tests.rooms.test_app_memory import running_app

FULL = "database or disk is full"


class Disk:
    """``app``'s store, which fills after ``after`` stored writes (never: None) until
    :meth:`frees`; :attr:`filled` is set as it fills."""

    def __init__(self, app: App, monkeypatch: pytest.MonkeyPatch, *,
                 after: int | None = None) -> None:
        self.app, self.after, self.full = app, after, after == 0
        self.filled = trio.Event()
        if self.full:
            self.filled.set()
        self.stored = 0
        store = app.writer.store
        apply, probe = store.apply, store.probe

        def full_apply(*args: Any, **kwargs: Any) -> Any:
            if not self.full and self.after is not None and self.stored >= self.after:
                self.full = True
                self.filled.set()
            if self.full:
                raise sqlite3.OperationalError(FULL)
            self.stored += 1
            return apply(*args, **kwargs)

        def full_probe(*args: Any, **kwargs: Any) -> Any:
            if self.full:
                raise sqlite3.OperationalError(FULL)
            return probe(*args, **kwargs)

        monkeypatch.setattr(store, "apply", full_apply)
        monkeypatch.setattr(store, "probe", full_probe)

    def frees(self) -> None:
        self.full, self.after = False, None
        self.app.writer.writes.settle_seconds = 0.0  # (real seconds: the test's clock jumps)


async def _bots(app: App, monkeypatch: pytest.MonkeyPatch, disk: Disk, games: int, *,
                full_for: float | None, game_seconds: float = 300.0) -> Summary:
    """``games`` games of two eager bots; the disk, once full, is freed after ``full_for``
    seconds (None: never)."""
    monkeypatch.setattr(bots, "Client", Network(app).client_class())
    async with trio.open_nursery() as nursery:
        if full_for is not None:
            async def free_later() -> None:
                await disk.filled.wait()
                await trio.sleep(full_for)
                disk.frees()
            nursery.start_soon(free_later)
        summary = await run_bot_games("memory", games, seed=7, policy=Policy.EAGER,
                                      game_seconds=game_seconds)
        nursery.cancel_scope.cancel()
    return summary


async def test_bots_wait_for_their_stopped_room_to_come_back_and_play_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        autojump_clock: trio.testing.MockClock, capsys: pytest.CaptureFixture[str]) -> None:
    async with running_app(tmp_path) as app:
        disk = Disk(app, monkeypatch, after=60)  # (in the first game's play)
        summary = await _bots(app, monkeypatch, disk, 2, full_for=20)
        assert disk.filled.is_set() and disk.stored > 60  # (stored again once freed)
        assert "failed" not in capsys.readouterr().out
        assert (summary.games, summary.completed, summary.errors) == (2, 2, 0)
        assert summary.actions >= disk.stored - 60  # (game 1's, and game 0's after it)


async def test_a_game_the_server_cant_save_yet_is_tried_again_until_it_can(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        autojump_clock: trio.testing.MockClock, capsys: pytest.CaptureFixture[str]) -> None:
    async with running_app(tmp_path) as app:
        disk = Disk(app, monkeypatch, after=0)  # full from the start: every Hello refused
        summary = await _bots(app, monkeypatch, disk, 1, full_for=30)
        assert "failed" not in capsys.readouterr().out
        assert (summary.completed, summary.errors) == (1, 0) and summary.actions > 0


async def test_the_actions_of_games_that_failed_are_counted(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        autojump_clock: trio.testing.MockClock, capsys: pytest.CaptureFixture[str]) -> None:
    """The disk stays full: game 0's room never comes back (the game's time runs out), and
    game 1 can't begin; the 60 actions played in game 0 are counted."""
    async with running_app(tmp_path) as app:
        disk = Disk(app, monkeypatch, after=60)
        summary = await _bots(app, monkeypatch, disk, 2, full_for=None, game_seconds=120)
        out = capsys.readouterr().out
        assert "game 0 (default decks) failed: TooSlowError" in out
        assert "game 1 (default decks) failed: the server can't save anything now" in out
        assert (summary.completed, summary.errors) == (0, 2)
        assert summary.actions >= 50  # (each action stored, the start's writes too)
