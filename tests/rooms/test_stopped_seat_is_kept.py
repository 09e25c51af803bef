"""A player whose room stopped (the store couldn't be written) keeps their seat there and
takes none elsewhere meanwhile (a security tester's round 7, M2): Ann joined another room
while hers was stopped and was seated; when hers came back she held a seat in two games in
play, away in one with her clock running. Now, while a stopped room -- or one back from a
stop whose seat waits for her -- holds her seat, JoinRoom, CreateRoom{join} and QuickMatch as
a player are refused, as for any game in play; watching and replays stay open."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
import trio.testing

from protocol.v1 import messages_pb2 as mpb
from tests.rooms.test_app_memory import running_app
from tests.rooms.test_stopped_rooms_come_back import _player, _seated, _stop_the_room, _until

STOPPED = "stopped and comes back when the server can store it"


async def test_no_seat_elsewhere_while_the_stopped_room_holds_yours(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        autojump_clock: trio.testing.MockClock) -> None:
    async with running_app(tmp_path) as app:
        socks, _welcomes, room_id = await _seated(app)
        cy, _w = await _player(app, "Cy")
        other = (await cy.request(create_room=mpb.CreateRoom(name="o"))).room_created.room
        await _stop_the_room(app, socks, room_id, monkeypatch)
        monkeypatch.undo()  # (the store works again, but the room isn't back yet)
        ann = socks[0]
        for request in ({"join_room": mpb.JoinRoom(room_id=other.room_id,
                                                   role=mpb.ROLE_PLAYER)},
                        {"create_room": mpb.CreateRoom(name="mine", join=True)},
                        {"quick_match": mpb.QuickMatch()}):
            refused = await ann.request(**request)
            assert refused.error.code == mpb.ERROR_CODE_INVALID_ARGUMENT, (request, refused)
            assert f"your game in room {room_id} {STOPPED}" in refused.error.message
        assert not any(m is not None and m.name.startswith("Ann#")
                       for m in app.lobby.rooms[other.room_id].seats)
        # Watching is open meanwhile (and creating a room without a seat).
        watching = await ann.request(join_room=mpb.JoinRoom(room_id=other.room_id,
                                                            role=mpb.ROLE_SPECTATOR))
        assert watching.HasField("joined"), watching
        await ann.to_server.send(mpb.ClientMessage(request_id=2, leave_room=mpb.LeaveRoom())
                                 .SerializeToString())
        assert (await ann.request(create_room=mpb.CreateRoom(name="later"))
                ).HasField("room_created")
        # Its own room, stopped, is no room to join (as documented).
        refused = await ann.request(join_room=mpb.JoinRoom(room_id=room_id,
                                                           role=mpb.ROLE_PLAYER))
        assert refused.error.code == mpb.ERROR_CODE_ROOM_NOT_FOUND
        # Back: she is seated there again, and in no other game.
        app.writer.writes.settle_seconds = 0.0
        await trio.sleep(5)
        assert room_id in app.lobby.hosts
        told = await _until(ann, "snapshot")
        assert [m.joined.room.room_id for m in told if m.HasField("joined")] == [room_id]
        held = [r.room_id for r in app.lobby.rooms.values()
                if any(m is not None and m.name.startswith("Ann#") for m in r.seats)]
        assert held == [room_id]


async def test_a_seat_waiting_in_a_room_back_from_a_stop_is_taken_back_not_doubled(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        autojump_clock: trio.testing.MockClock) -> None:
    """Ann was watching elsewhere when her room came back (not seated again: her seat
    waits, away): out of there, she may take that seat back, not one in another game."""
    async with running_app(tmp_path) as app:
        socks, _welcomes, room_id = await _seated(app)
        cy, _w = await _player(app, "Cy")
        other = (await cy.request(create_room=mpb.CreateRoom(name="o"))).room_created.room
        await _stop_the_room(app, socks, room_id, monkeypatch)
        monkeypatch.undo()
        ann = socks[0]
        assert (await ann.request(join_room=mpb.JoinRoom(room_id=other.room_id,
                                                         role=mpb.ROLE_SPECTATOR))
                ).HasField("joined")
        app.writer.writes.settle_seconds = 0.0
        await trio.sleep(5)
        assert room_id in app.lobby.hosts
        seat = app.lobby.rooms[room_id].seats[0]
        assert seat is not None and seat.conn is None  # (away: it waits for her)
        await ann.to_server.send(mpb.ClientMessage(request_id=2, leave_room=mpb.LeaveRoom())
                                 .SerializeToString())
        refused = await ann.request(join_room=mpb.JoinRoom(room_id=other.room_id,
                                                           role=mpb.ROLE_PLAYER))
        assert refused.error.code == mpb.ERROR_CODE_INVALID_ARGUMENT, refused
        assert f"your game in room {room_id} is back" in refused.error.message
        back = await ann.request(join_room=mpb.JoinRoom(room_id=room_id, role=mpb.ROLE_PLAYER))
        assert back.joined.seat == 0 and back.joined.room.room_id == room_id, back
        # Her game over, she may play elsewhere again.
        await ann.to_server.send(mpb.ClientMessage(request_id=3, concede=mpb.ConcedeGame())
                                 .SerializeToString())
        await trio.testing.wait_all_tasks_blocked()
        assert app.lobby.rooms[room_id].finished
        await ann.to_server.send(mpb.ClientMessage(request_id=4, leave_room=mpb.LeaveRoom())
                                 .SerializeToString())
        joined = await ann.request(join_room=mpb.JoinRoom(room_id=other.room_id,
                                                          role=mpb.ROLE_PLAYER))
        assert joined.HasField("joined"), joined
