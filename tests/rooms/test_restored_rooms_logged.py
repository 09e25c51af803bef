"""A start that reloads games says which rooms came back (docs/operating.md, "Restarts and
crashes"): an INFO line a room -- its id, game, turn, where its play stands and its seats'
names -- and never a secret (invite or audience code, token)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
import trio
import trio.testing

from protocol.v1 import messages_pb2 as mpb
from server.rooms.lobby import restored_line
from tests.rooms.test_app_memory import running_app
from tests.rooms.test_app_rooms import Peer
from tests.rooms.test_matches import concede, match_room
from tests.rooms.test_rematch_app import _finished_game, _settle


async def test_a_restart_logs_each_restored_room_and_no_secret(
    tmp_path: Path, autojump_clock: trio.testing.MockClock, caplog: pytest.LogCaptureFixture
) -> None:
    async with running_app(tmp_path) as app:
        # A finished private room (it lingers), and a game in play.
        ann, bob, _cy, over, code = await _finished_game(app, private=True)
        eve, fay = Peer(app, "Eve"), Peer(app, "Fay")
        for p in (eve, fay):
            await p.hello()
        created = await eve.call(create_room=mpb.CreateRoom(name="duel", join=True))
        playing = created.room_created.room.room_id
        secrets = [code, created.room_created.invite_code, created.room_created.audience_code,
                   *(p.token for p in (ann, bob, eve, fay))]
        assert all(secrets)
        joined = await fay.call(join_room=mpb.JoinRoom(room_id=playing, role=mpb.ROLE_PLAYER))
        assert joined.HasField("joined"), joined
        await _settle()
        names = [m.name for m in app.lobby.rooms[playing].seats if m is not None]
        over_names = [m.name for m in app.lobby.rooms[over].seats if m is not None]
        app.shutdown()
    caplog.set_level(logging.DEBUG)
    async with running_app(tmp_path) as app:
        assert app.recover() == 2
    lines = [r.getMessage() for r in caplog.records if " restored: " in r.getMessage()]
    assert sorted(lines) == sorted([
        f"room {playing} restored: game 1, turn 0, in play: "
        f"{', '.join(map(repr, names))}",
        f"room {over} restored: game 1, turn 0, over, lingering: "
        f"{', '.join(map(repr, over_names))}"])
    logged = caplog.text + "".join(repr(r.args) for r in caplog.records)
    assert not [s for s in secrets if s in logged]


def test_a_restored_matchs_line_says_the_score_and_where_it_stands() -> None:
    d = match_room(3)
    names = ", ".join(repr(m.name) for m in d.room.seats if m is not None)
    assert restored_line(d.room) == f"room r1 restored: game 1 of a best of 3 (0-0), turn 0, " \
        f"in play: {names}"
    concede(d, 0)  # rule 104.3a: seat 1 wins game 1
    assert restored_line(d.room) == f"room r1 restored: game 1 of a best of 3 (0-1), turn 0, " \
        f"between games (sideboarding): {names}"
