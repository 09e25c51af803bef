"""A game against the computer end to end, over real loopback WebSockets: an SDK client
creates a room with ``computers=1`` (``CreateRoom.computers``), the server's computer takes
the other seat at once, and the client plays the game to its end -- the computer deciding
inside its room, as a person would, only on its own decisions."""

from __future__ import annotations

import random
import signal
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path

import trio

from client_sdk import Client
from client_sdk.bots import RandomBot
from client_sdk.policy import Policy, pick
from server.app import App, Limits
from server.rooms.room import RoomConfig
from server.store.sqlite import Store
from server.transport.ws import serve_app
from tests.e2e.restart_harness import ServerProcess


@asynccontextmanager
async def serving(path: Path, limits: Limits) -> AsyncIterator[tuple[App, int]]:
    """An App on the store at ``path`` served on a free port of 127.0.0.1."""
    store = Store(path)
    app: App | None = None
    try:
        async with trio.open_nursery() as nursery:
            app = App(store, nursery, limits)
            app.recover()
            server = await nursery.start(serve_app, app, "127.0.0.1", 0)
            yield app, server.listeners[0].socket.getsockname()[1]
            app.shutdown()
            nursery.cancel_scope.cancel()
    finally:
        if app is not None:
            app.close()
        store.close()


async def test_an_sdk_client_plays_a_whole_game_against_the_computer(tmp_path: Path) -> None:
    # (the computer thinks 5-15 ms a decision here, so that the game takes seconds)
    limits = replace(Limits(), room=replace(RoomConfig(), computer_seconds=0.01))
    with trio.fail_after(240):
        async with serving(tmp_path / "db.sqlite3", limits) as (app, port), \
                Client.connect(f"ws://127.0.0.1:{port}", "Ann") as ann:
            info, joined = await ann.create_and_join("vs computer", computers=1)
            assert list(info.computers) == [1] and joined.seat == 0
            # (the room as created: the computer seated; as joined: both, started)
            assert list(info.players) == ["Computer"]
            assert list(joined.room.players)[1:] == ["Computer"]
            assert list(joined.room.computers) == [1]
            bot = RandomBot(ann, random.Random(7), Policy.EAGER)
            await bot.play()
            assert ann.finished and bot.actions > 0
            assert not bot.server_errors()
            room = app.lobby.rooms[info.room_id]
            game = room.game
            assert game is not None and game.result is not None
            # The computer played its part: actions of both seats were stored.
            seats = {seat for seat, _action in
                     app.store.load_game(info.room_id).actions}
            assert seats == {0, 1}


async def test_a_game_against_the_computer_survives_a_kill_9_and_ends(tmp_path: Path) -> None:
    """The real server process, SIGKILLed mid-game and served again on its data directory:
    the game comes back with its computer (its seat is in the stored settings), the SDK
    client resumes by itself, and both play on to the end."""
    server = ServerProcess(tmp_path / "data", args=("--computer-seconds", "0.02"))
    try:
        with trio.fail_after(240):
            await server.start()
            async with Client.connect(server.url, "Ann") as ann:
                info, _joined = await ann.create_and_join("vs computer", computers=1)
                rng = random.Random(11)
                acted = 0
                while acted < 8:  # a few decisions of hers (and the computer's between)
                    decision = ann.my_decision
                    if decision is None:
                        await ann.next_message()
                        continue
                    await ann.act(pick(Policy.EAGER, rng, decision.options))
                    acted += 1
                assert not ann.finished
                await server.stop(signal.SIGKILL)
                before = Store(server.store_path)
                try:
                    stored = len(before.load_game(info.room_id).actions)
                finally:
                    before.close()
                await server.start()
                assert server.restored[-1] == 1
                bot = RandomBot(ann, rng, Policy.EAGER)
                await bot.play()  # (the client resumes by itself first)
                assert ann.finished and not bot.server_errors()
            await server.stop(signal.SIGTERM)
        store = Store(server.store_path)
        try:
            record = store.load_game(info.room_id)
        finally:
            store.close()
        assert record.result is not None
        # Both seats acted after the restart: the computer went on deciding.
        assert {seat for seat, _a in record.actions[stored:]} == {0, 1}
    finally:
        await server.aclose()
