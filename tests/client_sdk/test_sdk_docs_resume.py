"""docs/sdk.md's complete bot, killed in the middle of its game and run again: it comes back
as the same account (its token kept in ``mybot.token``), which the server puts straight back
in its room, and it plays that game on -- it doesn't try to open a second room (refused:
"already in a room") while the first seat's game waits (a new player's review, round 12)."""

from __future__ import annotations

import re
import signal
import sys
from dataclasses import replace
from pathlib import Path

import trio

from server.app import Limits
from server.rooms.room import RoomConfig
from tests.client_sdk.test_sdk_docs import GAME_LINE, ROOM_LINE, bot_example, guide
from tests.e2e.test_computers_e2e import serving

#: What the bot prints when it is back in its room.
BACK_LINE = re.compile(r"^room (\w+): back in seat 0, turn \d+$")


async def first_line(process: trio.Process) -> str:
    """The first line ``process`` prints."""
    assert process.stdout is not None
    got = b""
    while b"\n" not in got:
        chunk = await process.stdout.receive_some(4096)
        assert chunk, f"the bot printed no line: {got!r}"
        got += chunk
    return got.decode().split("\n", 1)[0]


async def test_the_guides_bot_killed_mid_game_plays_its_game_on_when_run_again(
        tmp_path: Path) -> None:
    script = tmp_path / "mybot.py"
    script.write_text(bot_example(guide()), encoding="utf-8")
    limits = replace(Limits(), room=replace(RoomConfig(), computer_seconds=0.01))
    command = [sys.executable, "-u", str(script)]
    with trio.fail_after(240):
        async with serving(tmp_path / "db.sqlite3", limits) as (app, port):
            url = f"ws://127.0.0.1:{port}"
            process = await trio.lowlevel.open_process(
                [*command, url, "1"], cwd=tmp_path, stdout=-1, stderr=-3)
            try:
                made = ROOM_LINE.match(await first_line(process))
                assert made is not None
            finally:
                process.send_signal(signal.SIGKILL)  # killed: no goodbye, the game goes on
                await process.wait()
            room_id = made.group(1)
            game = app.lobby.rooms[room_id].game
            assert game is not None and game.result is None
            assert (tmp_path / "mybot.token").read_text()

            done = await trio.run_process([*command, url, "1"], cwd=tmp_path,
                                          capture_stdout=True, capture_stderr=True,
                                          check=False)
            out = done.stdout.decode()
            assert done.returncode == 0, f"{out}\n{done.stderr.decode()}"
            lines = out.splitlines()
            back = BACK_LINE.match(lines[0]) if lines else None
            assert back is not None and back.group(1) == room_id, out
            assert len(lines) == 2 and GAME_LINE.match(lines[1]), out
            played = [r for r in app.lobby.rooms.values() if r.game is not None]
            assert [r.room_id for r in played] == [room_id]
            record = app.store.load_game(room_id)
            assert record.result is not None
