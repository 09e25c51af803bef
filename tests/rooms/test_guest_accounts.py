"""Guest accounts nobody uses are forgotten (``serve --guest-days``): at start-up and
every sweep, never one that is connected or held by a live room (app over memory sockets,
autojump clock)."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import trio
import trio.testing

from protocol.v1 import messages_pb2 as mpb
from server.app import Limits
from tests.rooms.test_accounts import _connect, _create, _join
from tests.rooms.test_app_memory import running_app

DAY = 86_400.0


async def test_guests_unused_for_guest_days_are_forgotten_and_none_that_is_held(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """Every guest account was kept for ever, in the store and in memory (~0.9 KB each,
    all loaded at every start): a public server's guests piled up without end. A guest
    nobody has used for ``--guest-days`` is forgotten at start-up -- its token refused, its
    name free -- unless it is registered, was used since, or holds a seat of a live game."""
    start = time.time()
    async with running_app(tmp_path) as app:
        _o, old = await _connect(app, "old")
        _u, used = await _connect(app, "used")
        reg, registered = await _connect(app, "reg")
        await reg.request(register=mpb.Register(name="Regina", password="correct horse"))
        seated, held = await _connect(app, "seated")
        room = (await _create(reg)).room
        assert (await _join(reg, room.room_id)).joined.seat == 0
        assert (await _join(seated, room.room_id)).joined.seat == 1  # the game starts
    async with running_app(tmp_path) as app:  # 80 days later, "used" comes back
        app.accounts.clock = lambda: start + 80 * DAY
        _u, again = await _connect(app, token=used.welcome.account_token)
        assert again.HasField("welcome")
    async with running_app(tmp_path, Limits(guest_days=90)) as app:  # 91 days after the start
        app.accounts.clock = lambda: start + 91 * DAY
        assert app.recover() == 1  # the game of "reg" and "seated" goes on
        for who, kept in ((old, False), (used, True), (registered, True), (held, True)):
            _s, reply = await _connect(app, token=who.welcome.account_token)
            # (a seat of the live game: Resumed into it)
            assert (not reply.HasField("error")) == kept, (who.welcome.account.name, reply)
            if not kept:
                assert reply.error.code == mpb.ERROR_CODE_UNAUTHENTICATED
    with sqlite3.connect(tmp_path / "db.sqlite3") as db:
        names = {row[0] for row in db.execute("SELECT name FROM accounts")}
        orphans = db.execute("SELECT COUNT(*) FROM account_tokens WHERE account_id NOT IN "
                             "(SELECT account_id FROM accounts)").fetchone()[0]
    db.close()
    assert old.welcome.account.name not in names and "Regina" in names
    assert orphans == 0


async def test_a_connected_guest_is_never_forgotten_and_0_guest_days_keeps_every_guest(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    start = time.time()
    async with running_app(tmp_path, Limits(guest_days=0)) as app:
        _a, ann = await _connect(app, "ann")
        app.accounts.clock = lambda: start + 10_000 * DAY
        assert app.session_desk.unused_guests() == []
    async with running_app(tmp_path, Limits(guest_days=30)) as app:
        sock, _bob = await _connect(app, "bob")
        app.accounts.clock = lambda: start + 31 * DAY
        ops = app.session_desk.unused_guests()  # ann only: bob is connected
        assert [type(op).__name__ for op in ops] == ["DropAccount"]
        app.store.apply(ops)
        _s, reply = await _connect(app, token=ann.welcome.account_token)
        assert reply.error.code == mpb.ERROR_CODE_UNAUTHENTICATED
        await sock.to_server.aclose()  # bob's connection ends
        await trio.sleep(1)
        assert [type(op).__name__ for op in app.session_desk.unused_guests()] == ["DropAccount"]
