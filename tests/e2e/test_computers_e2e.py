"""A game against the computer end to end, over real loopback WebSockets: an SDK client
creates a room with ``computers=1`` (``CreateRoom.computers``), the server's computer takes
the other seat at once, and the client plays the game to its end -- the computer deciding
inside its room, as a person would, only on its own decisions."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path

import trio

from client_sdk import Client
from client_sdk.bots import RandomBot
from client_sdk.policy import Policy
from server.app import App, Limits
from server.rooms.room import RoomConfig
from server.store.sqlite import Store
from server.transport.ws import serve_app


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
