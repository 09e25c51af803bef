"""``manawire play`` whose input ends mid-game -- a closed terminal window, a dropped ssh
session -- keeps the seat: it took the end of input for a confirmed ``q`` and conceded, so
the same command could never take the seat back as the README promises (new player, round
9). In-process: the real SDK client and terminal session against an App run in memory
(tests/client_sdk/memory.py), the keys typed into a pipe that is then closed."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
import trio
import trio.testing

from client_sdk import saved, terminal
from server.app import App
from tests.client_sdk.memory import Network, until
from tests.rooms.test_app_memory import running_app
from tests.terminal.test_watch_rematch import _Drawn


class _Player:
    """``terminal.play`` run in a task: what it drew, its keys (a pipe), its exit code."""

    def __init__(self, options: terminal.PlayOptions) -> None:
        self.options = options
        self.out = _Drawn()
        self.keys_r, self.keys_w = os.pipe()
        self.code: int | None = None
        self.done = trio.Event()

    async def run(self) -> None:
        try:
            self.code = await terminal.play(self.options, out=self.out, stdin_fd=self.keys_r)
        finally:
            self.done.set()

    def text(self) -> str:
        return " ".join(self.out.getvalue().split())

    async def shows(self, pattern: str, seconds: float = 60) -> None:
        with trio.fail_after(seconds):
            while not re.search(pattern, self.text()):
                self.out.changed = trio.Event()
                await self.out.changed.wait()

    async def input_ends(self) -> int:
        """Close its keys (the terminal went away) and wait for its end: its exit code."""
        os.close(self.keys_w)
        self.keys_w = -1
        with trio.fail_after(30):
            await self.done.wait()
        assert self.code is not None
        return self.code

    def close(self) -> None:
        for fd in (self.keys_r, self.keys_w):
            if fd >= 0:
                os.close(fd)


def _running(app: App, room_id: str) -> bool:
    """Whether the room's game is still being played, nobody having left it (104.3a)."""
    room = app.lobby.rooms[room_id]
    return room.game is not None and room.game.result is None and not any(
        m is not None and m.left for m in room.seats)


async def test_104_3a_the_input_ending_mid_game_concedes_nothing_and_keeps_the_seat(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        autojump_clock: trio.testing.MockClock) -> None:
    async with running_app(tmp_path) as app:
        client_class = Network(app).client_class()
        monkeypatch.setattr(terminal, "Client", client_class)
        async with client_class.connect("memory", "Ann") as ann, trio.open_nursery() as nursery:
            room = await ann.create_room("t")
            await ann.join(room.room_id)
            bob = _Player(terminal.PlayOptions("memory", name="Bob", room_id=room.room_id,
                                               remember=False))
            try:
                nursery.start_soon(bob.run)
                await until(ann, lambda: ann.mirror.ready)
                await trio.sleep(2)  # (Bob's terminal has the game too; who decides first
                # is the game's random choice, 103.1: Ann, who answers nothing, or Bob)
                assert await bob.input_ends() == 0
            finally:
                bob.close()
            assert re.search(r"Your input ended: your seat is kept while your clock runs\. To "
                             r"take it back: manawire play memory --token \S+", bob.text())
            await trio.sleep(1)
            assert _running(app, room.room_id)
            assert not ann.mirror.game_over
            nursery.cancel_scope.cancel()


async def test_a_game_against_the_computer_comes_back_after_the_input_ended(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        autojump_clock: trio.testing.MockClock) -> None:
    """``play --bot``: the server's computer player took the other seat, so the game goes on
    without this process (the SDK bots it once ran in its own process died with it, and the
    game waited on them for good): the same command, run again, is back in it."""
    monkeypatch.setenv(saved.STATE_ENV, str(tmp_path / "state"))
    async with running_app(tmp_path) as app:
        monkeypatch.setattr(terminal, "Client", Network(app).client_class())
        options = terminal.PlayOptions("memory", name="Cy", bots=1)
        first = _Player(options)
        async with trio.open_nursery() as nursery:
            try:
                nursery.start_soon(first.run)
                await first.shows(r"Your decision #\d+")
                assert await first.input_ends() == 0
            finally:
                first.close()
            assert re.search(r"Your input ended: your seat is kept while your clock runs\. To "
                             r"take it back: manawire play memory\b", first.text())
            (room_id,) = app.lobby.rooms
            assert app.lobby.rooms[room_id].info().computers == [1]
            await trio.sleep(5)
            assert _running(app, room_id)
            again = _Player(options)
            try:
                nursery.start_soon(again.run)
                await again.shows(re.escape(f"{terminal.BACK_NOTICE}{room_id}"))
                await again.shows(r"Your decision #\d+")
                assert _running(app, room_id)
            finally:
                again.close()
            nursery.cancel_scope.cancel()


async def test_a_game_against_the_computer_ends_with_a_rematch_on_r(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        autojump_clock: trio.testing.MockClock) -> None:
    """``play --bot``: its in-process bots played one game (no rematch with them); the
    server's computer offers a rematch at once, so ``r`` alone starts one (104.3a: Cy
    concedes the first)."""
    monkeypatch.setenv(saved.STATE_ENV, str(tmp_path / "state"))
    async with running_app(tmp_path) as app:
        monkeypatch.setattr(terminal, "Client", Network(app).client_class())
        cy = _Player(terminal.PlayOptions("memory", name="Cy", bots=1))
        async with trio.open_nursery() as nursery:
            try:
                nursery.start_soon(cy.run)
                await cy.shows(r"Your decision #\d+")
                (first,) = app.lobby.rooms
                for _ in range(2):
                    os.write(cy.keys_w, b"concede\n")
                await cy.shows(r"Game over: Computer won")
                await cy.shows(r"Computer wants a rematch: r accepts, q leaves\.")
                os.write(cy.keys_w, b"r\n")
                await cy.shows(r"-- Rematch in room [0-9a-f]+ --")
                (rematch,) = set(app.lobby.rooms) - {first}
                assert f"-- Rematch in room {rematch} --" in cy.text()
                assert _running(app, rematch)
                assert app.lobby.rooms[rematch].info().computers == [1]
            finally:
                cy.close()
            nursery.cancel_scope.cancel()
