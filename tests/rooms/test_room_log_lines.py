"""The INFO lines of rooms (a security tester's round 7, L1): CreateRoom{join} then LeaveRoom
in a loop wrote two INFO lines a cycle ("room ... created", "room ... closed: no game
started in it") -- about 1,280 lines a second from one address with 64 connections. A room
in which no game ever started says so at DEBUG only; a room whose game started keeps its
INFO lines (created, said when its first game starts; started; ended; closed)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
import trio
import trio.testing

from protocol.v1 import messages_pb2 as mpb
from tests.rooms.test_app_memory import _two_players, running_app
from tests.rooms.test_replay_app import _client


async def test_a_room_no_game_started_in_logs_at_debug_only(
        tmp_path: Path, autojump_clock: trio.testing.MockClock,
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="manawire")
    async with running_app(tmp_path) as app:
        flood, _ = await _client(app, "Flood")
        rooms = []
        for n in range(20):
            made = await flood.request(create_room=mpb.CreateRoom(name="x", join=True))
            rooms.append(made.room_created.room.room_id)
            await flood.to_server.send(mpb.ClientMessage(
                request_id=100 + n, leave_room=mpb.LeaveRoom()).SerializeToString())
            await trio.testing.wait_all_tasks_blocked()
        assert not app.lobby.hosts  # (each closed as its creator left)
    lines = [(r.levelno, r.getMessage()) for r in caplog.records
             if any(room in r.getMessage() for room in rooms)]
    assert [text for level, text in lines if level >= logging.INFO] == []
    debug = [text for level, text in lines if level == logging.DEBUG]
    assert sum(" created: 2 seats" in text for text in debug) == 20
    assert sum(" closed: no game started in it" in text for text in debug) == 20


async def test_a_room_whose_game_started_keeps_its_info_lines(
        tmp_path: Path, autojump_clock: trio.testing.MockClock,
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="manawire")
    async with running_app(tmp_path) as app:
        a, _b, room_id = await _two_players(app)
        await trio.testing.wait_all_tasks_blocked()
        await a.to_server.send(mpb.ClientMessage(
            request_id=7, concede=mpb.ConcedeGame()).SerializeToString())
        await trio.sleep(3600)  # (the finished room lingers, then closes)
        assert room_id not in app.lobby.hosts
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO
            and room_id in r.getMessage()]
    assert said[0] == f"room {room_id} created: 2 seats, constructed, best of 1, public"
    assert said[1].startswith(f"room {room_id}: game 1 started: ")
    assert said[2].startswith(f"room {room_id}: game 1 ended: ")
    assert said[-1] == f"room {room_id} closed: its game is over"
    assert sum(" created: " in line for line in said) == 1
