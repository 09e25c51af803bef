"""Refusals an operator never saw (an operator's report): the server-wide room cap
(``--max-rooms``, for a room created and for a quick-match table), sign-ins refused after
too many failures with a name, and sign-ins over the address's rate of password checks were
answered to their clients but never counted: the minute's line and the metrics showed
nothing of a full server or of password guessing."""

from __future__ import annotations

from pathlib import Path

import trio
import trio.testing

from protocol.v1 import messages_pb2 as mpb
from server.app import Limits
from server.refusals import KINDS
from server.rooms.room import RoomConfig
from tests.rooms.test_accounts import _connect, _create, _join, _queue
from tests.rooms.test_app_memory import running_app


async def test_a_full_server_counts_its_refused_rooms_and_tables(tmp_path: Path) -> None:
    async with running_app(tmp_path, Limits(max_rooms=1)) as app:
        ann, _w = await _connect(app, "ann")
        await _create(ann)
        refused = await ann.request(create_room=mpb.CreateRoom(name="two"))
        assert refused.error.code == mpb.ERROR_CODE_LIMIT_REACHED
        bob, _w = await _connect(app, "bob")
        cid, _w = await _connect(app, "cid")
        queued = await _queue(bob, seats=2)
        assert queued.HasField("match_queue")
        await _queue(cid, seats=2)  # queued; the table is then refused to both
        await trio.testing.wait_all_tasks_blocked()
        assert app.refusals.totals["full"] == 3  # the room, and each player of the table
        assert app.refusals.take(60.0) == (
            "limits, last 60 s: 3 new rooms refused: the server holds --max-rooms rooms "
            "(memory: 3; 1 address)")


async def test_password_guessing_is_counted_and_told(tmp_path: Path) -> None:
    # The real clock: passwords are checked on worker threads.
    limits = Limits(login_failures=1, login_window=60.0, password_check_burst=3,
                    password_checks_per_minute=1)
    async with running_app(tmp_path, limits) as app:
        ann, _w = await _connect(app, "ann")
        await ann.request(register=mpb.Register(name="Ann", password="correct horse"))
        _s, wrong = await _connect(app, login=("Ann", "wrong horse"))
        assert wrong.error.code == mpb.ERROR_CODE_UNAUTHENTICATED
        _s, locked = await _connect(app, login=("Ann", "other horse"))
        assert "too many failed sign-ins" in locked.error.message
        _s, wrong = await _connect(app, login=("Nobody", "guess"))
        assert wrong.error.code == mpb.ERROR_CODE_UNAUTHENTICATED
        _s, flooded = await _connect(app, login=("Nobody2", "guess"))
        assert flooded.error.code == mpb.ERROR_CODE_RATE_LIMITED
        assert (app.refusals.totals["login"], app.refusals.totals["password"]) == (1, 1)
        assert app.refusals.take(60.0) == (
            "limits, last 60 s: 1 sign-in refused after too many failed sign-ins with its "
            "name (memory: 1; 1 address); 1 sign-in or registration refused over the "
            "per-address rate of password checks (memory: 1; 1 address)")


async def test_spectators_a_full_room_turns_away_are_counted_and_told(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    """A caster's audience over ``--max-spectators`` got LIMIT_REACHED, and the operator saw
    nothing: no refusal kind, no log line (a spectator-stream host's report)."""
    async with running_app(tmp_path, Limits(room=RoomConfig(max_spectators=1))) as app:
        ann, _w = await _connect(app, "ann")
        room_id = (await _create(ann)).room.room_id
        first, _w = await _connect(app, "cy")
        assert (await _join(first, room_id, spectator=True)).HasField("joined")
        for name in ("dee", "eve"):
            late, _w = await _connect(app, name)
            refused = await _join(late, room_id, spectator=True)
            assert refused.error.code == mpb.ERROR_CODE_LIMIT_REACHED
        assert app.refusals.totals["spectators"] == 2
        assert app.refusals.take(60.0) == (
            "limits, last 60 s: 2 spectators refused: the room holds --max-spectators "
            "(memory: 2; 1 address)")


def test_the_new_kinds_reach_the_metrics() -> None:
    assert {"full", "login", "password", "spectators"} <= set(KINDS)
