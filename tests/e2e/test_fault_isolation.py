"""Fault isolation over real loopback WebSockets (architecture invariant 6): a room whose
engine raises ends alone -- its members get ERROR_CODE_INTERNAL with an incident id, the
store marks its game aborted with the traceback, the log names the room, the action and the
incident -- while another room plays its game to the end and the server keeps accepting."""

from __future__ import annotations

import logging
import random
from pathlib import Path

import pytest
import trio

from client_sdk import Client
from client_sdk.bots import RandomBot, RoomClosedError
from protocol.v1 import messages_pb2 as mpb
from server import incidents
from server.app import App
from server.engine import Game
from server.engine.actions import Action
from server.engine.events import Event
from server.rooms import room as room_module
from server.store import Store
from server.transport.ws import serve_app

FAULT_AT = 25  # the failing room's engine raises on this action


async def _seat_bots(url: str, clients: list[Client], name: str) -> tuple[str, list[RandomBot]]:
    room = await clients[0].create_room(name)
    for c in clients:
        await c.join(room.room_id)
    return room.room_id, [RandomBot(c, random.Random(i)) for i, c in enumerate(clients)]


async def test_a_failing_room_ends_alone_and_the_server_plays_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    store = Store(tmp_path / "db.sqlite3")
    doomed: list[Game] = []
    real_apply = room_module.apply  # type: ignore[attr-defined]

    def faulty(game: Game, seat: int, action: Action) -> list[Event]:
        if doomed and game is doomed[0] and game.action_count + 1 >= FAULT_AT:
            raise RuntimeError("injected engine fault")
        return real_apply(game, seat, action)

    monkeypatch.setattr(room_module, "apply", faulty)
    caplog.set_level(logging.ERROR, logger="manawire.room")
    before = incidents.totals()
    with trio.fail_after(180):
        async with trio.open_nursery() as nursery:
            app = App(store, nursery)
            server = await nursery.start(serve_app, app, "127.0.0.1", 0)
            url = f"ws://127.0.0.1:{server.listeners[0].socket.getsockname()[1]}"
            async with Client.connect(url, "x0") as x0, Client.connect(url, "x1") as x1, \
                    Client.connect(url, "y0") as y0, Client.connect(url, "y1") as y1:
                bad_id, bad_bots = await _seat_bots(url, [x0, x1], "doomed")
                good_id, good_bots = await _seat_bots(url, [y0, y1], "fine")
                bad_game = app.lobby.rooms[bad_id].game
                good_game = app.lobby.rooms[good_id].game
                assert bad_game is not None and good_game is not None
                doomed.append(bad_game)
                failures: list[BaseException] = []

                async def run(bot: RandomBot) -> None:
                    try:
                        await bot.play()
                    except RoomClosedError as exc:
                        failures.append(exc)

                async with trio.open_nursery() as play:
                    for bot in [*bad_bots, *good_bots]:
                        play.start_soon(run, bot)
                # Both members' connections serve on: the one whose action failed the
                # room had that request answered too (it was never left waiting).
                for client in (x0, x1):
                    with trio.fail_after(10):
                        assert (await client.create_room(f"again-{client.name}")).room_id
            assert len(failures) == 2  # both members of the failed room
            for client in (x0, x1):
                internal = [e for e in client.errors if e.code == mpb.ERROR_CODE_INTERNAL]
                assert len(internal) == 1 and len(internal[0].incident_id) == 12
                assert internal[0].incident_id in internal[0].message
            incident = x0.errors[0].incident_id
            # The other room finished its game; its players saw no error.
            assert good_game.result is not None and y0.mirror.game_over
            assert y0.errors == [] and y1.errors == []
            # The failed room left the lobby; the server still accepts and serves.
            assert bad_id not in app.lobby.rooms
            async with Client.connect(url, "late") as late:
                assert (await late.create_room("after")).room_id
            nursery.cancel_scope.cancel()
    record = store.load_game(bad_id)
    assert record.aborted is not None and "injected engine fault" in record.aborted
    assert incident in record.aborted
    assert store.load_game(good_id).aborted is None
    assert [r.room_id for r in store.unfinished_games()] == []  # never reloaded
    logged = [r for r in caplog.records if incident in r.getMessage()]
    assert logged and bad_id in logged[0].getMessage()
    assert f"at action {FAULT_AT}" in logged[0].getMessage()
    # Counted for the operator's alerts (manawire_incidents_total{kind="room"}).
    after = incidents.totals()
    assert after["room"] == before["room"] + 1 and after["connection"] == before["connection"]
    store.close()
