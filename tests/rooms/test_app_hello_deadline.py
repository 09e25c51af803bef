"""A connection that never says Hello (or Resume) is closed after ``Limits.hello_seconds``
(attacker round 14: 64 upgraded WebSockets that sent nothing were all still open a minute
later, each holding a per-address place and a socket). Over trio memory channels, autojump
clock."""

from __future__ import annotations

from pathlib import Path

import trio
import trio.testing

from protocol.v1 import messages_pb2 as mpb
from server.app import CLOSE_POLICY, Limits
from tests.rooms.test_app_memory import MemorySocket, running_app


async def test_a_connection_that_never_says_hello_is_closed_at_the_deadline(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    assert Limits().hello_seconds == 10.0
    async with running_app(tmp_path) as app:
        nursery = app.lobby.nursery
        silent, other, greets, resumes = (MemorySocket(address=f"10.0.0.{n}")
                                          for n in range(4))
        for sock in (silent, other, greets, resumes):
            nursery.start_soon(app.handle_connection, sock)
        await trio.sleep(9.5)
        assert silent.closed is None
        # Anything but a Hello or Resume doesn't count (it is refused as before).
        refused = await other.request(list_rooms=mpb.ListRooms())
        assert refused.error.code == mpb.ERROR_CODE_NOT_READY
        assert (await greets.request(hello=mpb.Hello(
            protocol_version=1, display_name="Ann"))).HasField("welcome")
        # A Resume counts even when refused: the client may say Hello next, as any may.
        failed = await resumes.request(resume=mpb.Resume(protocol_version=1,
                                                         resume_token="no such token"))
        assert failed.error.code == mpb.ERROR_CODE_RESUME_FAILED
        await trio.sleep(0.4)
        assert silent.closed is None and other.closed is None
        await trio.sleep(0.2)
        assert silent.closed == other.closed == (CLOSE_POLICY, "no Hello or Resume within 10 s")
        # Told to the operator (the minute's refusals line, the metrics): a flood of them was
        # seen nowhere.
        assert app.refusals.totals["silent"] == 2
        line = app.refusals.take(60.0)
        assert line is not None and "2 connections closed for saying nothing in time" in line
        assert "10.0.0.0: 1" in line and "10.0.0.1: 1" in line
        await trio.sleep(600)
        assert greets.closed is None and resumes.closed is None
        assert len((await greets.request(list_rooms=mpb.ListRooms())).room_list.rooms) == 0
        assert sorted(conn.address for conn in app.conns.values()) == ["10.0.0.2", "10.0.0.3"]


async def test_the_deadline_is_a_setting(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    async with running_app(tmp_path, Limits(hello_seconds=2.5)) as app:
        silent = MemorySocket()
        app.lobby.nursery.start_soon(app.handle_connection, silent)
        await trio.sleep(2.4)
        assert silent.closed is None
        await trio.sleep(0.2)
        assert silent.closed == (CLOSE_POLICY, "no Hello or Resume within 2.5 s")
        assert not app.conns
