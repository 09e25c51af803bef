"""``manawire watch`` and the players' rematch (protocol/README.md, "Rematch"), in-process:
the real SDK client and terminal session against an App run in memory
(tests/client_sdk/memory.py), the keys typed into a pipe.

The spectator's session ended with the game, so the rematch the players started -- which
the server tells the old room's spectators (RematchStarted, its room id) and the web client
offers to watch ("Watch the rematch") -- was never seen. Now at the game's end the screen
says ``w`` watches the players' rematch once they start one; who offers is said; once it
started the keys line says ``w: watch the rematch``, and ``w`` joins its room as a spectator
(of the same tier) and shows the new game, to its end. With no input left (nobody can type
``w``) the session ends with the game, as before. A match's next games are shown as they
come (the session waits through the sideboarding)."""

from __future__ import annotations

import io
import os
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import trio
import trio.testing

from client_sdk import terminal
from client_sdk.client import Client
from protocol.v1 import messages_pb2 as mpb
from tests.client_sdk.memory import Network, until
from tests.rooms.test_app_memory import running_app
from tests.terminal.test_session_receive import StubClient
from tests.terminal.test_stops import _mirror, _session


class _Drawn(io.StringIO):
    """What the session drew; :attr:`changed` is set at each write."""

    def __init__(self) -> None:
        super().__init__()
        self.changed = trio.Event()

    def write(self, text: str) -> int:
        self.changed.set()
        return super().write(text)


class _Watcher:
    """``terminal.watch`` of a room run in a task: what it drew, the keys sent, its code."""

    def __init__(self) -> None:
        self.out = _Drawn()
        self.keys_r, self.keys_w = os.pipe()
        self.code: int | None = None
        self.done = trio.Event()

    def type(self, line: str) -> None:
        os.write(self.keys_w, f"{line}\n".encode())

    def close_keys(self) -> None:
        os.close(self.keys_w)
        self.keys_w = -1

    def text(self) -> str:
        """What it drew, its lines joined (the console wraps them at 80 columns)."""
        return " ".join(self.out.getvalue().split())

    async def run(self, room_id: str) -> None:
        self.code = await terminal.watch("memory", room_id, out=self.out,
                                         stdin_fd=self.keys_r)
        self.done.set()

    async def ended(self) -> int:
        """Its exit code, once it ended."""
        with trio.fail_after(30):
            await self.done.wait()
        assert self.code is not None
        return self.code

    async def shows(self, pattern: str, since: int = 0, seconds: float = 30) -> None:
        """Wait until what it drew (from character ``since`` of :meth:`text`) matches."""
        with trio.fail_after(seconds):
            while not re.search(pattern, self.text()[since:]):
                self.out.changed = trio.Event()
                await self.out.changed.wait()

    def close(self) -> None:
        for fd in (self.keys_r, self.keys_w):
            if fd >= 0:
                os.close(fd)


@asynccontextmanager
async def _watched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, best_of: int = 0
                   ) -> AsyncIterator[tuple[Client, Client, str, _Watcher, trio.Nursery]]:
    """Ann and Bob seated in a new public room (a match if ``best_of``), its game begun,
    watched by ``manawire watch`` (run in the nursery given)."""
    async with running_app(tmp_path) as app:
        client_class = Network(app).client_class()
        monkeypatch.setattr(terminal, "Client", client_class)
        watcher = _Watcher()
        try:
            async with client_class.connect("memory", "Ann") as ann, \
                    client_class.connect("memory", "Bob") as bob, \
                    trio.open_nursery() as nursery:
                room = await ann.create_room("t", best_of=best_of)
                nursery.start_soon(watcher.run, room.room_id)
                await watcher.shows(r"Waiting for the game to start|Seated")
                await ann.join(room.room_id)
                await bob.join(room.room_id)
                await until(ann, lambda: ann.mirror.ready)
                await until(bob, lambda: bob.mirror.ready)
                yield ann, bob, room.room_id, watcher, nursery
        finally:
            watcher.close()


async def _game_over(ann: Client, bob: Client) -> None:
    """Ann concedes the game being played (104.3a); both clients see its end."""
    await ann.concede()
    await until(ann, lambda: ann.mirror.game_over)
    await until(bob, lambda: bob.mirror.game_over)


async def test_a_spectator_watches_the_rematch_the_players_started_with_w(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        autojump_clock: trio.testing.MockClock) -> None:
    async with _watched(tmp_path, monkeypatch) as (ann, bob, room_id, watcher, _nursery):
        await _game_over(ann, bob)
        await watcher.shows(r"The game is over: if the players start a rematch, w watches "
                            r"it; q stops watching\.")
        assert watcher.code is None  # (still watching)
        await bob.offer_rematch()
        await watcher.shows(r"Bob#\d+ wants a rematch\.")
        await ann.offer_rematch()
        for client in (ann, bob):
            await until(client, lambda c=client: c.room_id not in (room_id, None)  # type: ignore[misc]
                        and c.mirror.ready)
        new_id = ann.room_id
        assert new_id is not None
        await watcher.shows(r"The players started a rematch: w watches it, q stops watching\.")
        await watcher.shows(r"w: watch the rematch · q: stop watching")
        watcher.type("w")
        await watcher.shows(re.escape(f"-- Watching the rematch in room {new_id} --"))
        assert watcher.code is None
        # The rematch is shown to its end, and the spectator stays for another.
        tail = len(watcher.text())
        await _game_over(ann, bob)
        await watcher.shows(r"Game over: Bob#\d+ won .*The game is over: if the players start "
                            r"a rematch, w watches it", since=tail)
        watcher.type("q")
        await watcher.ended()
    assert watcher.code == 0
    assert re.search(r"Game over: Bob#\d+ won .*Stopped watching\.", watcher.text())


async def test_w_before_any_rematch_says_what_it_will_do(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        autojump_clock: trio.testing.MockClock) -> None:
    async with _watched(tmp_path, monkeypatch) as (ann, bob, _room_id, watcher, nursery):
        watcher.type("w")
        await watcher.shows(r"No rematch to watch: w watches the players' rematch once they "
                            r"start one; q stops watching\.")
        await _game_over(ann, bob)
        await ann.leave_room()  # (a player leaving cancels the rematch for everyone)
        await watcher.ended()
        nursery.cancel_scope.cancel()
    assert watcher.code == 0
    assert re.search(r"Game over: Bob#\d+ won.*No rematch: Ann#\d+ left", watcher.text(),
                     re.DOTALL), watcher.text()[-2000:]


async def test_with_no_input_left_watching_ends_with_the_game_as_before(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        autojump_clock: trio.testing.MockClock) -> None:
    async with _watched(tmp_path, monkeypatch) as (ann, bob, _room_id, watcher, nursery):
        watcher.close_keys()
        await trio.sleep(1)
        await _game_over(ann, bob)
        await watcher.ended()
        nursery.cancel_scope.cancel()
    assert watcher.code == 0
    assert "w watches" not in watcher.text()


async def test_a_matchs_next_game_is_shown_to_its_spectator(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        autojump_clock: trio.testing.MockClock) -> None:
    async with _watched(tmp_path, monkeypatch, best_of=3) as (ann, bob, _room_id, watcher,
                                                               nursery):
        await _game_over(ann, bob)
        await until(ann, lambda: ann.must_sideboard)
        await ann.keep_deck()
        await until(bob, lambda: bob.must_sideboard)
        await bob.keep_deck()
        await until(ann, lambda: ann.mirror.ready and not ann.mirror.game_over)
        await watcher.shows(r"Game 2 of 3")
        assert watcher.code is None
        nursery.cancel_scope.cancel()





def test_a_private_rooms_spectator_is_promised_no_rematch_to_watch() -> None:
    """A private room's spectators learn only that a rematch started, never where: the end
    said "once every player offers, w watches it", then "The players started a rematch, in a
    private room" (a new player's finding). It says what it can't do instead."""
    mirror = _mirror()
    stub = StubClient([])
    board, session = _session(mirror, stub)
    board.room = mpb.RoomInfo(room_id="r1", private=True, players=["Ann", "Bob"])
    stub.rematch = mpb.RematchOffers(offered=[False, True])  # type: ignore[attr-defined]
    words = session._watch_words()
    assert "w watches" not in words and "can't be watched" in words, words
    stub.rematch = None  # type: ignore[attr-defined]
    assert session._watch_words() == "The game is over; q stops watching."
