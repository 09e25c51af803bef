"""A move in flight when its room stops (the store can't be written: a full disk) gets one
error, not two: the room's own -- "the server can't save anything now (...), so this room
stopped before the last action took effect ..." -- under the move's request id, then
RoomClosed. It got that notice (request id 0) and then "the room closed"
(ROOM_NOT_FOUND) under its request id as well, as if the room had failed."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
import trio.testing

from protocol.v1 import messages_pb2 as mpb
from tests.rooms.test_app_memory import running_app
from tests.rooms.test_stopped_rooms_come_back import FULL, _seated, _store_fails


@pytest.mark.parametrize("request_id", [0, 41])
async def test_a_move_in_flight_when_its_room_stops_gets_one_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        autojump_clock: trio.testing.MockClock, request_id: int) -> None:
    async with running_app(tmp_path) as app:
        socks, _welcomes, room_id = await _seated(app)
        game = app.lobby.rooms[room_id].game
        assert game is not None and game.pending is not None
        mover, other = socks[game.pending.seat], socks[1 - game.pending.seat]
        _store_fails(app, monkeypatch)
        await mover.to_server.send(mpb.ClientMessage(request_id=request_id, act=mpb.Act(
            prompt_id=game.pending.prompt_id)).SerializeToString())
        await trio.testing.wait_all_tasks_blocked()
        for sock, rid in ((mover, request_id), (other, 0)):
            told = []
            while True:
                try:
                    told.append(mpb.ServerMessage.FromString(sock.from_server.receive_nowait()))
                except trio.WouldBlock:
                    break
            errors = [(m.request_id, m.error.code, m.error.message) for m in told
                      if m.HasField("error")]
            assert errors == [(rid, mpb.ERROR_CODE_INTERNAL,
                               f"the server can't save anything now ({FULL}), so this room "
                               f"stopped before the last action took effect: its game, as "
                               f"last saved, comes back by itself once the server can save "
                               f"again (its players still connected are seated again)")]
            assert told[-1].HasField("room_closed")
        # The mover's connection serves on, out of the room.
        monkeypatch.undo()
        listed = await mover.request(list_rooms=mpb.ListRooms())
        assert listed.HasField("room_list")
