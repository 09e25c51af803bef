"""A full server (``--max-rooms``) closes the oldest room nobody is in, whose game hasn't
started, for a new one -- rooms created and never joined filled the cap before (attacker
round 16: three addresses' 40 rooms, their creators gone, kept every new game out of a
40-room server; 125 addresses would lock out one with the default 2,000, renewing every
--idle-room-seconds with no connection open). Which room closes is decided without I/O
(:func:`~server.rooms.lobby.room_to_close`); the app tests check the whole path."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
import trio.testing

from protocol.v1 import messages_pb2 as mpb
from server.app import App, Limits
from server.rooms.commands import ConcedeGame, Disconnect, Join
from server.rooms.lobby import (
    CLOSE_GRACE_SECONDS,
    LobbyFullError,
    nobody_in,
    room_to_close,
)
from server.rooms.room import Room, no_room
from server.store.records import RoomSettings
from tests.rooms.test_app_memory import running_app
from tests.rooms.test_app_rooms import Peer

# ---- which room closes (sans-I/O: rooms and a time in, a room out)


def _room(room_id: str, seats: int = 2, settings: RoomSettings | None = None) -> Room:
    return Room(room_id, room_id, seats, 0.0, settings=settings)


def _seat(room: Room, conn: int, now: float = 1.0, *, spectator: bool = False) -> None:
    out = room.handle(Join(conn, 1, f"s{conn}", f"p{conn}", spectator), now)
    assert out.accepted


def _finished(room_id: str, now: float) -> Room:
    """A two-player room whose game one player conceded at ``now``."""
    room = _room(room_id)
    _seat(room, 1, now)
    _seat(room, 2, now)
    assert room.game is not None
    room.handle(ConcedeGame(1, 2), now)
    assert room.finished
    return room


def test_the_oldest_unstarted_room_nobody_is_in_closes_and_never_one_with_someone_in_it(
) -> None:
    old, newer = _room("old"), _room("newer")
    seated, watched, playing = _room("seated"), _room("watched"), _room("playing")
    _seat(seated, 1)  # a player waiting for an opponent
    _seat(watched, 2, spectator=True)  # a spectator waiting for the game
    _seat(playing, 3)
    _seat(playing, 4)  # full: its game is in play
    made = {"old": 10.0, "newer": 20.0, "seated": 0.0, "watched": 0.0, "playing": 0.0}
    rooms = [newer, seated, watched, playing, old]
    assert [r.room_id for r in rooms if nobody_in(r)] == ["newer", "old"]
    assert room_to_close(rooms, made, 100.0) is old
    assert room_to_close([newer, seated, watched, playing], made, 100.0) is newer
    # With someone in every room (or a game in play), none closes: the cap holds.
    assert room_to_close([seated, watched, playing], made, 100.0) is None


def test_a_room_whose_players_dropped_before_the_start_is_nobodys_again() -> None:
    """A player who drops from an unstarted room frees the seat: the room waits with
    nobody in it, as if never joined (its creator may be connected elsewhere)."""
    room = _room("r")
    _seat(room, 1)
    assert not nobody_in(room)
    room.handle(Disconnect(1), 2.0)
    assert nobody_in(room)
    assert room_to_close([room], {"r": 0.0}, 100.0) is room


def test_computer_players_are_nobody() -> None:
    """A room holding only the server's computer players waits for a person (its creator
    made it without a seat): the computers keep nothing open."""
    room = _room("r", settings=RoomSettings(computers=(1,)))
    assert room.seats[1] is not None and room.game is None
    assert nobody_in(room)


def test_a_room_made_moments_ago_is_not_closed_its_players_are_being_seated() -> None:
    """A quick match's table, a rematch, a CreateRoom with join: made, then seated -- closed
    in between, its players would find no room."""
    young = _room("young")
    made = {"young": 100.0}
    assert room_to_close([young], made, 100.0 + CLOSE_GRACE_SECONDS - 0.1) is None
    assert room_to_close([young], made, 100.0 + CLOSE_GRACE_SECONDS) is young


def test_finished_rooms_go_first_then_empty_unstarted_ones_then_those_still_shown() -> None:
    """A finished room only lingers for its last looks: it goes before one that may still be
    joined; one whose delayed tiers still show the game goes last (closing it cuts their
    audience's view short)."""
    waiting = _room("waiting")
    done = _finished("done", 50.0)
    made = {"waiting": 0.0, "done": 0.0}
    assert room_to_close([waiting, done], made, 100.0) is done
    assert room_to_close([waiting], made, 100.0) is waiting


# ---- the whole path: the app over memory sockets (autojump clock)


async def _peer(app: App, name: str, address: str) -> Peer:
    """A client from ``address``, said Hello."""
    peer = Peer(app, name, address)
    await peer.hello()
    return peer


async def _fill_and_leave(app: App, rooms: int) -> list[tuple[str, str, str]]:
    """Rooms created from their own addresses without a seat taken, their creators gone
    (attacker round 16's r2_fill_leave.py): (room id, invite code, creator account)."""
    made = []
    for n in range(rooms):
        creator = await _peer(app, f"filler{n}", f"127.0.7.{n + 1}")
        reply = await creator.call(create_room=mpb.CreateRoom(
            name=f"fill{n}", seats=8, private=True))
        assert reply.HasField("room_created"), reply
        room_id = reply.room_created.room.room_id
        made.append((room_id, reply.room_created.invite_code,
                     app.lobby.rooms[room_id].settings.creator))
        await creator.sock.to_server.aclose()  # (gone)
        await trio.testing.wait_all_tasks_blocked()
        await trio.sleep(1)
    return made


async def test_rooms_created_and_left_no_longer_keep_every_new_game_out(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    async with running_app(tmp_path, Limits(max_rooms=3)) as app:
        made = await _fill_and_leave(app, 3)
        await trio.sleep(CLOSE_GRACE_SECONDS)
        newcomer = await _peer(app, "newcomer", "127.0.8.1")
        reply = await newcomer.call(create_room=mpb.CreateRoom(name="mine", seats=2))
        assert reply.HasField("room_created"), reply
        await trio.testing.wait_all_tasks_blocked()
        mine = reply.room_created.room.room_id
        oldest, code, creator = made[0]
        # The oldest room nobody was in closed for it; the cap holds (3 rooms).
        assert set(app.lobby.rooms) == {mine, made[1][0], made[2][0]}
        # A later join naming it is told what became of it -- its creator, or one with its
        # invite code; to a stranger a private room stays no room at all.
        words = app.lobby.closed_for_room(oldest, creator, "")
        assert "was closed before its game started: the server was full" in words
        assert app.lobby.closed_for_room(oldest, "", code) == words
        assert app.lobby.closed_for_room(oldest, "someone-else", "wrong") == ""
        assert app.lobby.closed_for_room(made[1][0], creator, "") == ""  # (still open)
        # ... as the app answers a join naming it; a stranger gets the answer of no room.
        joins = [await newcomer.call(join_room=mpb.JoinRoom(room_id=oldest, role=mpb.ROLE_PLAYER,
                                                           invite_code=c))
                 for c in (code, "wrong")]
        assert [(m.error.code, m.error.message) for m in joins] == [
            (mpb.ERROR_CODE_ROOM_NOT_FOUND, words),
            (mpb.ERROR_CODE_ROOM_NOT_FOUND, no_room(oldest))]
        # Its creator's address counts it no more: the next waiting room of that address
        # isn't refused over the old one.
        assert not any(oldest in rooms for rooms in app.create_desk._waiting_rooms.values())


async def test_quick_match_players_get_a_table_on_a_server_full_of_rooms_nobody_is_in(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    async with running_app(tmp_path, Limits(max_rooms=2)) as app:
        await _fill_and_leave(app, 2)
        await trio.sleep(CLOSE_GRACE_SECONDS)
        ann = await _peer(app, "ann", "127.0.8.1")
        bob = await _peer(app, "bob", "127.0.8.2")
        asked = [await p.send(quick_match=mpb.QuickMatch(seats=2)) for p in (ann, bob)]
        await trio.testing.wait_all_tasks_blocked()
        for peer, rid in zip((ann, bob), asked, strict=True):
            answers = [m for m in peer.pump() if m.request_id == rid]
            assert [m.WhichOneof("body") for m in answers] == ["match_queue", "joined"], answers
        assert len(app.lobby.rooms) == 2
        assert sum(r.game is not None for r in app.lobby.rooms.values()) == 1


async def test_a_server_full_of_rooms_with_someone_in_them_still_refuses_clearly(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """Rooms a player waits in are never closed: past the cap with none that may close, a
    CreateRoom and a quick-match table are refused (LIMIT_REACHED, under their request
    ids)."""
    async with running_app(tmp_path, Limits(max_rooms=2)) as app:
        for n in range(2):
            waiting = await _peer(app, f"w{n}", f"127.0.7.{n + 1}")
            reply = await waiting.call(create_room=mpb.CreateRoom(name=f"w{n}", join=True))
            assert reply.HasField("room_created"), reply
        await trio.sleep(10 * CLOSE_GRACE_SECONDS)
        newcomer = await _peer(app, "newcomer", "127.0.8.1")
        refused = await newcomer.call(create_room=mpb.CreateRoom(name="mine"))
        assert refused.error.code == mpb.ERROR_CODE_LIMIT_REACHED
        assert "maximum of 2 rooms" in refused.error.message
        other = await _peer(app, "other", "127.0.8.2")
        asked = [await p.send(quick_match=mpb.QuickMatch(seats=2)) for p in (newcomer, other)]
        await trio.testing.wait_all_tasks_blocked()
        for peer, rid in zip((newcomer, other), asked, strict=True):
            errors = [m.error for m in peer.pump() if m.HasField("error")]
            assert [e.code for e in errors] == [mpb.ERROR_CODE_LIMIT_REACHED]
            assert peer.got[-1].request_id == rid  # (the refusal answers its QuickMatch)
        assert len(app.lobby.rooms) == 2


async def test_a_room_someone_is_entering_is_not_closed_under_them(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """A join handed to an empty room, not handled yet, as a new room is made: the room
    decides in its own task, in turn -- the join is taken and the room stays (closed under
    it, the join would have had no answer at all); the new room is made (over the cap by
    one, that once), and the next is refused until one may close."""
    async with running_app(tmp_path, Limits(max_rooms=1)) as app:
        old = app.lobby.create("old", 2)
        await trio.sleep(CLOSE_GRACE_SECONDS)
        queued = old.submit(Join(7, 1, "s7", "late", False))  # (not handled yet)
        new = app.lobby.create("new", 2)
        await trio.testing.wait_all_tasks_blocked()
        assert queued.output is not None and queued.output.accepted
        assert set(app.lobby.hosts) == {old.room_id, new.room_id}
        await trio.sleep(CLOSE_GRACE_SECONDS)
        with pytest.raises(LobbyFullError, match="maximum of 1 rooms"):
            app.lobby.create("another", 2)  # (the new room, empty, goes first: then full)
        await trio.testing.wait_all_tasks_blocked()
        assert set(app.lobby.hosts) == {old.room_id}
        # Once it is empty again, it may close too.
        old.notify(Disconnect(7))
        await trio.testing.wait_all_tasks_blocked()
        last = app.lobby.create("last", 2)
        await trio.testing.wait_all_tasks_blocked()
        assert set(app.lobby.hosts) == {last.room_id}
