"""A room stopped because its action couldn't be stored (a full disk) comes back by itself
once the store can be written again: its game as last stored, its players seated again
(those still connected at once; the others by resuming or joining it by its id), and play
goes on -- no restart (server/rooms/lobby.py, Lobby.resume_stopped; docs/operating.md, "Restarts and
crashes")."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest
import trio
import trio.testing

from protocol.v1 import messages_pb2 as mpb
from server import incidents
from server.app import App
from server.rooms import lobby as lobby_module
from tests.rooms.test_app_memory import MemorySocket, running_app

FULL = "database or disk is full"


def _full(*_args: object) -> None:
    raise sqlite3.OperationalError(FULL)


def _store_fails(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every write and probe of ``app``'s store fails as on a full disk (until undone)."""
    monkeypatch.setattr(app.writer.store, "apply", _full)
    monkeypatch.setattr(app.writer.store, "probe", _full)


async def _player(app: App, name: str) -> tuple[MemorySocket, mpb.Welcome]:
    sock = MemorySocket()
    app.lobby.nursery.start_soon(app.handle_connection, sock)
    welcome = (await sock.request(hello=mpb.Hello(protocol_version=1, display_name=name))
               ).welcome
    return sock, welcome


async def _seated(app: App) -> tuple[list[MemorySocket], list[mpb.Welcome], str]:
    """Ann creates a room; Ann and Bob take seats 0 and 1; the game starts."""
    (a, wa), (b, wb) = await _player(app, "Ann"), await _player(app, "Bob")
    room = (await a.request(create_room=mpb.CreateRoom(name="t"))).room_created.room
    for seat, sock in enumerate((a, b)):
        joined = await sock.request(join_room=mpb.JoinRoom(room_id=room.room_id,
                                                           role=mpb.ROLE_PLAYER))
        assert joined.joined.seat == seat
    await trio.testing.wait_all_tasks_blocked()
    return [a, b], [wa, wb], room.room_id


async def _until(sock: MemorySocket, body: str) -> list[mpb.ServerMessage]:
    """What ``sock`` is sent, up to and with the first message of kind ``body``."""
    told: list[mpb.ServerMessage] = []
    with trio.fail_after(60):
        while not told or told[-1].WhichOneof("body") != body:
            told.append(mpb.ServerMessage.FromString(await sock.from_server.receive()))
    return told


async def _view(sock: MemorySocket) -> tuple[int, bytes]:
    """The state id and view hash of ``sock``'s view now (a snapshot asked for)."""
    snapshot = (await sock.request(request_snapshot=mpb.RequestSnapshot())).snapshot
    return snapshot.state_id, snapshot.view_hash


async def _stop_the_room(app: App, socks: list[MemorySocket], room_id: str,
                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The store fails; the deciding player acts; the room stops (both are told)."""
    game = app.lobby.rooms[room_id].game
    assert game is not None and game.pending is not None and game.action_count == 0
    _store_fails(app, monkeypatch)
    await socks[game.pending.seat].to_server.send(mpb.ClientMessage(act=mpb.Act(
        prompt_id=game.pending.prompt_id)).SerializeToString())
    for sock in socks:
        told = await _until(sock, "room_closed")
        errors = [m.error for m in told if m.HasField("error")]
        assert len(errors) == 1 and errors[0].code == mpb.ERROR_CODE_INTERNAL
        assert errors[0].message == (
            f"the server can't save anything now ({FULL}), so this room stopped before the "
            f"last action took effect: its game, as last saved, comes back by itself once "
            f"the server can save again (its players still connected are seated again)")
        assert told[-1].room_closed.reason == \
            f"the server can't save games now ({FULL}); the game comes back once it can"
        assert not any(m.HasField("delta") for m in told)  # (invariant 6)
    assert room_id not in app.lobby.hosts and room_id in app.lobby.stopped


async def test_a_stopped_room_comes_back_once_the_store_can_be_written_and_play_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        autojump_clock: trio.testing.MockClock, caplog: pytest.LogCaptureFixture) -> None:
    async with running_app(tmp_path) as app:
        before = incidents.totals()["room"]
        socks, _welcomes, room_id = await _seated(app)
        views = [await _view(sock) for sock in socks]
        await _stop_the_room(app, socks, room_id, monkeypatch)
        listed = await socks[0].request(list_rooms=mpb.ListRooms())
        assert room_id not in [r.room_id for r in listed.room_list.rooms]
        refused = await socks[1].request(join_room=mpb.JoinRoom(room_id=room_id,
                                                                role=mpb.ROLE_PLAYER))
        assert refused.error.code == mpb.ERROR_CODE_ROOM_NOT_FOUND
        await trio.sleep(30)  # still full: the room stays stopped
        assert room_id in app.lobby.stopped and room_id not in app.lobby.hosts
        monkeypatch.undo()  # room on the disk again
        app.writer.writes.settle_seconds = 0.0  # (real seconds: the test's clock jumps)
        with caplog.at_level(logging.WARNING, logger="manawire.lobby"):
            await trio.sleep(5)  # the writer's probe sees it work; the room comes back
        assert f"room {room_id} is back" in caplog.text
        assert room_id in app.lobby.hosts and not app.lobby.stopped
        for seat, sock in enumerate(socks):  # seated again, without asking
            told = await _until(sock, "snapshot")
            joined = next(m for m in told if m.HasField("joined"))
            assert joined.request_id == 0 and joined.joined.seat == seat
            assert joined.joined.room.room_id == room_id
            assert (told[-1].snapshot.state_id, told[-1].snapshot.view_hash) == views[seat]
        room = app.lobby.rooms[room_id]
        game = room.game
        assert game is not None and game.pending is not None and game.action_count == 0
        assert all(m is not None and m.conn is not None for m in room.seats)
        listed = await socks[0].request(list_rooms=mpb.ListRooms())
        assert room_id in [r.room_id for r in listed.room_list.rooms]
        # Play goes on: the deciding player's action is stored and both see it.
        await socks[game.pending.seat].to_server.send(mpb.ClientMessage(act=mpb.Act(
            prompt_id=game.pending.prompt_id)).SerializeToString())
        for sock in socks:
            delta = (await _until(sock, "delta"))[-1].delta
            assert delta.prev_state_id == views[socks.index(sock)][0]
        assert game.action_count == 1
        assert len(app.store.unfinished_games()[0].actions) == 1
        assert incidents.totals()["room"] == before


async def test_a_player_away_while_it_was_stopped_resumes_into_it_once_it_is_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        autojump_clock: trio.testing.MockClock) -> None:
    """Its session keeps its place meanwhile (it isn't forgotten as a session with no room
    would be), and a resume after the room is back takes the seat back; one while it is
    still stopped resumes outside it, and is seated again when it comes back."""
    async with running_app(tmp_path) as app:
        socks, welcomes, room_id = await _seated(app)
        await _stop_the_room(app, socks, room_id, monkeypatch)
        await socks[1].to_server.aclose()  # Bob's connection drops
        await trio.sleep(1)
        assert welcomes[1].session_id in app.session_desk.sessions
        ann = MemorySocket()  # Ann's page reloads: resumed, outside the stopped room
        app.lobby.nursery.start_soon(app.handle_connection, ann)
        monkeypatch.undo()  # (the resume's token must be stored)
        resumed = await ann.request(resume=mpb.Resume(
            protocol_version=1, resume_token=welcomes[0].resume_token))
        assert resumed.HasField("resumed") and not resumed.resumed.HasField("joined")
        app.writer.writes.settle_seconds = 0.0
        await trio.sleep(5)
        assert (await _until(ann, "snapshot"))[0].joined.seat == 0  # seated again
        bob = MemorySocket()
        app.lobby.nursery.start_soon(app.handle_connection, bob)
        resumed = await bob.request(resume=mpb.Resume(
            protocol_version=1, resume_token=welcomes[1].resume_token))
        assert resumed.resumed.joined.seat == 1 and resumed.resumed.joined.room.room_id == \
            room_id


async def test_a_room_whose_game_start_couldnt_be_stored_is_gone_and_says_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        autojump_clock: trio.testing.MockClock) -> None:
    async with running_app(tmp_path) as app:
        (a, _), (b, _) = await _player(app, "Ann"), await _player(app, "Bob")
        room = (await a.request(create_room=mpb.CreateRoom(name="t"))).room_created.room
        await a.request(join_room=mpb.JoinRoom(room_id=room.room_id, role=mpb.ROLE_PLAYER))
        _store_fails(app, monkeypatch)
        await b.to_server.send(mpb.ClientMessage(request_id=5, join_room=mpb.JoinRoom(
            room_id=room.room_id, role=mpb.ROLE_PLAYER)).SerializeToString())
        told = await _until(a, "room_closed")
        assert [m.error.message for m in told if m.HasField("error")] == [
            f"the server can't save anything now ({FULL}), so this room stopped before its "
            f"game started: nothing of it was saved"]
        assert told[-1].room_closed.reason == f"the server can't save games now ({FULL})"
        assert room.room_id not in app.lobby.hosts and not app.lobby.stopped
        monkeypatch.undo()
        app.writer.writes.settle_seconds = 0.0
        await trio.sleep(5)
        assert room.room_id not in app.lobby.hosts and app.store.unfinished_games() == []


async def test_a_stopped_room_whose_rebuild_fails_is_aborted_not_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        autojump_clock: trio.testing.MockClock, caplog: pytest.LogCaptureFixture) -> None:
    async with running_app(tmp_path) as app:
        socks, _welcomes, room_id = await _seated(app)
        await _stop_the_room(app, socks, room_id, monkeypatch)
        monkeypatch.undo()

        def broken(*_args: object, **_kwargs: object) -> None:
            raise ValueError("an action this build doesn't know")

        monkeypatch.setattr(lobby_module, "recover", broken)
        app.writer.writes.settle_seconds = 0.0
        with caplog.at_level(logging.ERROR, logger="manawire.lobby"):
            await trio.sleep(5)
        assert f"could not bring back room {room_id}" in caplog.text
        assert room_id not in app.lobby.hosts and not app.lobby.stopped
        assert app.store.unfinished_games() == [] and app.store.failed_recoveries() == 1
        assert all(r.room_id is None for r in app.session_desk.sessions.values())


async def test_a_player_joining_another_room_as_its_room_comes_back_is_in_one_room_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        autojump_clock: trio.testing.MockClock) -> None:
    """Ann, her room stopped, goes to watch another (a seat elsewhere is refused meanwhile:
    tests/rooms/test_stopped_seat_is_kept.py); her join is still waiting for its turn as her
    room comes back. Seating her again then put the connection in both rooms (the join went
    on into the other): a room coming back leaves a connection answering a request of its
    own that may place it (JoinRoom, CreateRoom, QuickMatch, StartReplay) where that
    request takes it; her seat there waits for her, as for a player away."""
    async with running_app(tmp_path) as app:
        socks, _welcomes, room_id = await _seated(app)
        cy, _w = await _player(app, "Cy")
        other = (await cy.request(create_room=mpb.CreateRoom(name="o"))).room_created.room
        await _stop_the_room(app, socks, room_id, monkeypatch)
        monkeypatch.undo()
        gate = trio.Event()
        admit = app.watch_gate.admit

        async def slow(room: str) -> None:
            await gate.wait()  # the spectators' turns take a while
            await admit(room)

        monkeypatch.setattr(app.watch_gate, "admit", slow)
        await socks[0].to_server.send(mpb.ClientMessage(request_id=7, join_room=mpb.JoinRoom(
            room_id=other.room_id, role=mpb.ROLE_SPECTATOR)).SerializeToString())
        app.writer.writes.settle_seconds = 0.0
        await trio.sleep(5)  # the room comes back while Ann waits for her turn to watch
        assert room_id in app.lobby.hosts
        gate.set()
        told = await _until(socks[0], "joined")
        assert (told[-1].request_id, told[-1].joined.room.room_id) == (7, other.room_id)
        await trio.testing.wait_all_tasks_blocked()
        [ann] = [c for c in app.conns.values()
                 if c.record is not None and c.record.name.startswith("Ann#")]
        assert ann.host is not None and ann.host.room_id == other.room_id
        back = app.lobby.rooms[room_id].seats[0]
        assert back is not None and back.conn is None  # (away: it waits for her)
        told = await _until(socks[1], "snapshot")  # Bob is back in his seat
        assert [m.joined.seat for m in told if m.HasField("joined")] == [1]
