"""server.status: the operator's status line -- what is open now, and the connections
opened and actions played since the last line (an operator's soak found the log said
nothing of either)."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path

import pytest
import trio
import trio.testing

from protocol.v1 import messages_pb2 as mpb
from server.status import Activity, Gauges
from tests.rooms.test_accounts import _connect, _create, _join
from tests.rooms.test_app_memory import running_app

ROOT = Path(__file__).resolve().parents[1]


def test_a_line_says_what_is_open_and_what_happened_then_counts_afresh() -> None:
    activity = Activity(connections=120, actions=1234)
    assert activity.take(600.0, Gauges(35, 18, 12)) == (
        "status: 35 connections, 18 rooms (12 games in play); last 600 s: "
        "120 connections opened, 1,234 actions")
    assert activity.take(600.0, Gauges(1, 1, 1)) == (
        "status: 1 connection, 1 room (1 game in play); last 600 s: "
        "0 connections opened, 0 actions")
    assert activity.take(600.0, Gauges(1, 0, 0, stopped=2)) == (
        "status: 1 connection, 0 rooms (0 games in play), 2 rooms stopped (the store can't "
        "be written); last 600 s: 0 connections opened, 0 actions")


async def test_the_app_counts_connections_and_the_actions_played(
        tmp_path: Path, autojump_clock: trio.testing.MockClock,
        caplog: pytest.LogCaptureFixture) -> None:
    async with running_app(tmp_path) as app:
        ann, _w = await _connect(app, "ann")
        bob, _w = await _connect(app, "bob")
        room_id = (await _create(ann)).room.room_id
        await _join(ann, room_id)
        await _join(bob, room_id)
        await trio.sleep(1)
        assert app.gauges() == Gauges(2, 1, 1)
        # Whoever decides (103.1: who plays first) answers its first option.
        for _ in range(3):
            for sock in (ann, bob):
                while True:
                    try:
                        msg = mpb.ServerMessage.FromString(sock.from_server.receive_nowait())
                    except trio.WouldBlock:
                        break
                    if msg.HasField("decision"):
                        d = msg.decision
                        await sock.to_server.send(mpb.ClientMessage(act=mpb.Act(
                            prompt_id=d.prompt_id, option_index=0,
                            expected_state_id=d.state_id)).SerializeToString())
            await trio.sleep(1)
        assert app.activity.connections == 2 and app.activity.actions == 3
        with caplog.at_level(logging.INFO, logger="manawire"):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(app.activity.report, 60.0, app.gauges)
                await trio.sleep(61)
                nursery.cancel_scope.cancel()
        assert caplog.messages == [
            "status: 2 connections, 1 room (1 game in play); last 60 s: "
            "2 connections opened, 3 actions"]


def test_status_seconds_must_not_be_negative(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "server.cli", "serve", "--port", "0",
                           "--data-dir", str(tmp_path), "--status-seconds", "-1"],
                          check=False, cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and "--status-seconds must not be negative" in done.stderr
