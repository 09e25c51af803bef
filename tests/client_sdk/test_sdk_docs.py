"""docs/sdk.md, the guide to writing a bot with the SDK, checked against the code so that it
can't rot: its complete bot (the ``python`` block that begins ``# mybot.py``) is run as its
readers run it -- a script, ``python mybot.py URL 2`` -- against a real server on 127.0.0.1,
and plays two whole games against the server's computer player (the second a rematch);
the names the guide uses exist (the ``Client`` and ``Mirror`` attributes it names, the
decision and option kinds of its table, which covers every ``DecisionKind``)."""

from __future__ import annotations

import re
import sys
from dataclasses import replace
from pathlib import Path

import trio

from client_sdk import Client, Mirror
from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from server.app import Limits
from server.engine.actions import ChooseTarget
from server.rooms.room import RoomConfig
from tests.e2e.test_computers_e2e import serving

REPO = Path(__file__).resolve().parents[2]
GUIDE = REPO / "docs" / "sdk.md"
#: How the guide's complete bot begins.
BOT_FIRST_LINE = "# mybot.py"
#: A ```python fenced block: its code.
PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```$", re.MULTILINE | re.DOTALL)
#: What the bot prints: its room and seat, then how each game ended.
ROOM_LINE = re.compile(r"^room (\w+): seat 0 of \['MyBot#\d+', 'Computer'\]$")
GAME_LINE = re.compile(r"^game (\d+): turn \d+, (I won|I lost|a draw) \(.+\)$")


def guide() -> str:
    return GUIDE.read_text(encoding="utf-8")


def bot_example(text: str) -> str:
    """The guide's complete bot: the one ``python`` block that begins with
    :data:`BOT_FIRST_LINE`."""
    found: list[str] = [code for code in PYTHON_BLOCK.findall(text)
                        if code.startswith(BOT_FIRST_LINE)]
    assert len(found) == 1, f"docs/sdk.md has {len(found)} blocks beginning {BOT_FIRST_LINE!r}"
    return found[0]


def test_the_bot_example_is_found() -> None:
    code = bot_example(guide())
    assert "computers=1" in code and 'if __name__ == "__main__":' in code
    compile(code, "mybot.py", "exec")


async def test_the_guides_bot_plays_two_whole_games_against_the_computer(
        tmp_path: Path) -> None:
    """The example, run as a script, creates a room with ``computers=1``, plays the game to
    its end, offers a rematch and plays that game too, printing each result; the server
    stored both games finished, and in neither did the bot aim at itself (the server lists
    the caster first among "any target"'s players: a bot answering by position does)."""
    script = tmp_path / "mybot.py"
    script.write_text(bot_example(guide()), encoding="utf-8")
    # (the computer thinks 5-15 ms a decision here, so that a game takes seconds)
    limits = replace(Limits(), room=replace(RoomConfig(), computer_seconds=0.01))
    with trio.fail_after(240):
        async with serving(tmp_path / "db.sqlite3", limits) as (app, port):
            done = await trio.run_process(
                [sys.executable, str(script), f"ws://127.0.0.1:{port}", "2"],
                cwd=tmp_path, capture_stdout=True, capture_stderr=True, check=False)
            out = done.stdout.decode()
            assert done.returncode == 0, f"{out}\n{done.stderr.decode()}"
            lines = out.splitlines()
            assert len(lines) == 3, out
            room = ROOM_LINE.match(lines[0])
            assert room is not None, out
            games = [GAME_LINE.match(line) for line in lines[1:]]
            assert [g.group(1) if g else None for g in games] == ["1", "2"], out
            played = [r for r in app.lobby.rooms.values() if r.game is not None]
            assert len(played) == 2 and room.group(1) in {r.room_id for r in played}
            for finished in played:
                assert finished.game is not None and finished.game.result is not None
                record = app.store.load_game(finished.room_id)
                assert record.result is not None
                assert {seat for seat, _action in record.actions} == {0, 1}
                aimed = [a.player for seat, a in record.actions
                         if seat == 0 and isinstance(a, ChooseTarget) and a.player is not None]
                assert 0 not in aimed, f"the bot targeted itself: {aimed}"


#: ``me.NAME``, ``watcher.NAME`` ... in the guide: a Client's attributes (not a path's
#: ``client.py``, nor a logger's ``manawire.client.websocket``).
CLIENT_NAME = re.compile(r"(?<![\w./])(?:me|watcher|ann|client|Client)\.(?!py\b)([A-Za-z_]\w*)")
#: ``mirror.NAME``: a Mirror's (not a path's ``mirror.py``).
MIRROR_NAME = re.compile(r"(?<![\w/])mirror\.(?!py\b)([A-Za-z_]\w*)")
#: ``pb.NAME`` and ``mpb.NAME``: the protocol modules' (not a prefix: ``pb.STEP_...``).
PROTO_NAME = re.compile(r"\b(pb|mpb)\.([A-Z]\w*[A-Za-z0-9])\b(?!_)")


def _assigned(module: Path) -> set[str]:
    """The attributes ``module``'s classes set on ``self`` (instance attributes)."""
    return set(re.findall(r"\bself\.(\w+)\s*(?::[^=\n]*)?=", module.read_text(encoding="utf-8")))


def test_the_names_the_guide_uses_exist() -> None:
    text = guide()
    client_names = {n for n in dir(Client)} | _assigned(REPO / "client_sdk" / "client.py")
    mirror_names = {n for n in dir(Mirror)} | _assigned(REPO / "client_sdk" / "mirror.py")
    unknown = sorted({f"Client.{n}" for n in CLIENT_NAME.findall(text) if n not in client_names}
                     | {f"Mirror.{n}" for n in MIRROR_NAME.findall(text)
                        if n not in mirror_names}
                     | {f"{m}.{n}" for m, n in PROTO_NAME.findall(text)
                        if not hasattr(pb if m == "pb" else mpb, n)})
    assert not unknown, f"docs/sdk.md names what the SDK doesn't have: {unknown}"
    # (the check sees the names: a few it must find)
    assert {"my_decision", "act", "create_and_join", "offer_rematch"} <= \
        set(CLIENT_NAME.findall(text))


def test_the_kinds_table_names_every_decision_kind_and_only_real_option_kinds() -> None:
    """The table of "Decision kinds and option kinds": its first column names every
    ``DecisionKind`` of protocol/v1/game.proto (but UNSPECIFIED), its other columns only
    ``Action`` kinds that exist."""
    section = guide().split("## Decision kinds and option kinds", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    assert rows
    decisions: set[str] = set()
    options: set[str] = set()
    for row in rows:
        cells = row.strip("|").split("|")
        decisions.update(re.findall(r"`([A-Z_]+)`", cells[0]))
        for cell in cells[1:]:
            options.update(re.findall(r"`([a-z_]+)`", cell))
    kinds = {value.name.removeprefix("DECISION_KIND_")
             for value in pb.DecisionKind.DESCRIPTOR.values}
    assert decisions == kinds - {"UNSPECIFIED"}
    actions = {field.name for field in pb.Action.DESCRIPTOR.oneofs_by_name["kind"].fields}
    assert options and options <= actions, sorted(options - actions)
