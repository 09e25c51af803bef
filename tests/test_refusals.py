"""server.refusals: what the per-address limits refused, one log line a minute at most."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
import trio
import trio.testing

from protocol.v1 import messages_pb2 as mpb
from server import refusals
from server.app import Limits
from server.refusals import Refusals
from tests.rooms.test_accounts import _connect, _create
from tests.rooms.test_app_memory import running_app


def test_a_line_names_the_addresses_refused_most_and_counts_the_rest() -> None:
    r = Refusals()
    assert r.take(60.0) is None  # nothing refused: no line
    for address, n in (("203.0.113.5", 1200), ("198.51.100.7", 4), ("192.0.2.1", 2),
                       ("192.0.2.9", 1)):
        for _ in range(n):
            r.note("connection", address)
    r.note("flood", "203.0.113.5")
    assert r.take(60.0) == (
        "limits, last 60 s: 1,207 connections refused over the per-address cap "
        "(203.0.113.5: 1,200, 198.51.100.7: 4, 192.0.2.1: 2, other addresses; 4 addresses); "
        "1 client closed for flooding past the message rate (203.0.113.5: 1; 1 address)")
    assert r.take(60.0) is None  # counted afresh


def test_the_table_of_addresses_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(refusals, "MAX_KEYS", 2)
    r = Refusals()
    for n in range(5):
        r.note("http", f"192.0.2.{n}")
    r.note("http", "192.0.2.0")  # (one already counted still counts on its own)
    assert r.take(60.0) == (
        "limits, last 60 s: 6 page requests refused over the per-address cap "
        "(192.0.2.0: 2, 192.0.2.1: 1, other addresses; 2 addresses)")


async def test_the_report_logs_only_minutes_with_refusals(
        autojump_clock: trio.testing.MockClock, caplog: pytest.LogCaptureFixture) -> None:
    r = Refusals()
    with caplog.at_level(logging.WARNING, logger="manawire"):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(r.report, 60.0)
            await trio.sleep(61)
            r.note("flood", "192.0.2.1")
            await trio.sleep(120)
            nursery.cancel_scope.cancel()
    assert [rec.getMessage() for rec in caplog.records] == [
        "limits, last 60 s: 1 client closed for flooding past the message rate "
        "(192.0.2.1: 1; 1 address)"]


async def test_rooms_and_new_guests_refused_by_their_limits_are_told_too(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    """An operator's soak: 'your address has 64 open rooms' and 'too many new guest
    accounts from your address' refused every bot game for minutes, and the log said
    nothing of it."""
    limits = Limits(max_rooms_per_account=1, guest_burst=2, guests_per_minute=1)
    async with running_app(tmp_path, limits) as app:
        ann, _w = await _connect(app, "ann")
        await _create(ann)
        refused = await ann.request(create_room=mpb.CreateRoom(name="two"))
        assert refused.error.code == mpb.ERROR_CODE_LIMIT_REACHED
        _b, _w = await _connect(app, "bob")
        _c, refused = await _connect(app, "cid")
        assert refused.error.code == mpb.ERROR_CODE_RATE_LIMITED
        assert app.refusals.take(60.0) == (
            "limits, last 60 s: 1 new room refused over a room limit (memory: 1; 1 address); "
            "1 new guest refused over the per-address rate (memory: 1; 1 address)")
