"""End to end over real loopback WebSockets with the SDK: a spectator whose place a crash
lost comes back to the room it watched.

The server writes a spectator's place without waiting for the commit (StoreWriter.write_place,
docs/operating.md "Restarts and crashes"), so a crash in the tenth of a second after its join
restores the session with no room, and resuming it gives ``Resumed`` without ``joined``. The
SDK then joins that room again by itself (``Client._watch_again``), with the tier and invite
code it joined with. (Found by the crash harness, tests/e2e/test_restart.py: a spectator
stranded in the lobby.)"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path

import trio

from client_sdk import Client
from protocol.v1 import messages_pb2 as mpb
from server.app import App
from server.store import Store
from server.store.writer import PLACE_SECONDS
from server.transport.ws import serve_app


@asynccontextmanager
async def serving(path: Path, port: int = 0) -> AsyncIterator[tuple[App, int]]:
    """An App on the store at ``path`` (its unfinished games recovered) served on
    127.0.0.1:``port`` (0: a free one); stopped as a restart stops it on exit."""
    store = Store(path)
    app: App | None = None
    try:
        async with trio.open_nursery() as nursery:
            app = App(store, nursery)
            app.recover()
            server = await nursery.start(serve_app, app, "127.0.0.1", port)
            yield app, server.listeners[0].socket.getsockname()[1]
            app.shutdown()
            nursery.cancel_scope.cancel()
    finally:
        if app is not None:
            app.close()
        store.close()


async def _lose_place(app: App, session_id: str, before: str | None = None) -> None:
    """What a crash before the spectator's place was committed leaves: its session's row with
    the place before (no room, or the room it watched before), written over the one the
    writer thread stored by then."""
    await trio.sleep(3 * PLACE_SECONDS)
    row = app.session_desk.sessions[session_id].row()
    assert row.room_id is not None and row.room_id != before
    await app.writer.write([replace(row, room_id=before)])


def _stored_place(path: Path, session_id: str) -> str | None:
    store = Store(path)
    try:
        (row,) = [r for r in store.sessions() if r.session_id == session_id]
        return row.room_id
    finally:
        store.close()


class _Restart:
    """A server on the store at ``path``, then -- once :attr:`restart` is set -- another on the
    same store and port, up until :attr:`done`; :attr:`lost` gets the place the store held
    for session :attr:`session` in between."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.apps: list[App] = []
        self.port = 0
        self.first_up, self.restart, self.done = trio.Event(), trio.Event(), trio.Event()
        self.session = ""
        self.lost: list[str | None] = []

    async def run(self) -> None:
        async with serving(self.path) as (app, port):
            self.apps.append(app)
            self.port = port
            self.first_up.set()
            await self.restart.wait()
        self.lost.append(_stored_place(self.path, self.session))
        async with serving(self.path, self.port) as (app, _port):
            self.apps.append(app)
            await self.done.wait()

    async def crash_losing_place(self, client: Client, before: str | None = None) -> None:
        """Lose the client's latest place (see :func:`_lose_place`), restart, and read until
        the client has resumed."""
        self.session = client.session_id
        await _lose_place(self.apps[0], client.session_id, before)
        self.restart.set()
        with trio.fail_after(20):
            while client.resumes == 0:
                await client.next_message()


@asynccontextmanager
async def _restarting(path: Path) -> AsyncIterator[_Restart]:
    """:class:`_Restart` running (the first server up) for the block."""
    servers = _Restart(path)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(servers.run)
        await servers.first_up.wait()
        yield servers
        servers.done.set()


async def _snapshot(client: Client) -> None:
    """Read until the next Snapshot (the one a join or a resume gets)."""
    with trio.fail_after(20):
        while not (await client.next_message()).HasField("snapshot"):
            pass


async def test_a_spectator_whose_place_a_crash_lost_is_back_in_its_room_after_resuming(
    tmp_path: Path,
) -> None:
    with trio.fail_after(90):
        async with _restarting(tmp_path / "db.sqlite3") as servers:
            url = f"ws://127.0.0.1:{servers.port}"
            async with Client.connect(url, "ann") as ann, Client.connect(url, "bob") as bob, \
                    Client.connect(url, "eve") as eve:
                room = await ann.create_room("watched", private=True)
                code = ann.invite_codes[room.room_id]
                joined = await eve.join(room.room_id, spectator=True, invite_code=code)
                assert joined.role == mpb.ROLE_SPECTATOR
                await ann.join(room.room_id)
                await bob.join(room.room_id, invite_code=code)
                with trio.fail_after(20):
                    while eve.mirror.state_id == 0:
                        await eve.next_message()
                await servers.crash_losing_place(eve)
                # The restart found the session in no room (so Resumed had no joined) and
                # the client joined again, with the private room's invite code.
                assert servers.lost == [None]
                assert eve.room_id == room.room_id and eve.seat == -1
                restarted = servers.apps[1]
                assert restarted.session_desk.sessions[eve.session_id].room_id == room.room_id
                await _snapshot(eve)  # the new join's
                assert eve.mirror.state_id > 0 and eve.room_id == room.room_id
                assert eve.resume_snapshots == 0


async def test_a_spectator_whose_move_a_crash_lost_leaves_the_earlier_room_for_the_latest(
    tmp_path: Path,
) -> None:
    """Eve watched room A, then left it for room B; the crash lost the move, so the restarted
    server resumes her watching A. The SDK leaves A and joins B again: she is back where
    she was, and A no longer counts her."""
    with trio.fail_after(90):
        async with _restarting(tmp_path / "db.sqlite3") as servers:
            url = f"ws://127.0.0.1:{servers.port}"
            async with Client.connect(url, "ann") as ann, Client.connect(url, "bob") as bob, \
                    Client.connect(url, "cid") as cid, Client.connect(url, "dan") as dan, \
                    Client.connect(url, "eve") as eve:
                rooms = []
                for first, second in ((ann, bob), (cid, dan)):
                    room = await first.create_room(f"game of {first.name}")
                    await first.join(room.room_id)
                    await second.join(room.room_id)
                    rooms.append(room.room_id)
                a, b = rooms
                await eve.join(a, spectator=True)
                await _snapshot(eve)
                await eve.leave_room()
                await eve.join(b, spectator=True)
                await _snapshot(eve)
                await servers.crash_losing_place(eve, before=a)
                assert servers.lost == [a]
                assert eve.room_id == b and eve.seat == -1
                restarted = servers.apps[1]
                assert restarted.session_desk.sessions[eve.session_id].room_id == b
                await _snapshot(eve)  # B's, after the new join
                assert eve.room_id == b
                room_a = restarted.lobby.hosts[a].room
                for _ in range(1000):  # the leave is handed to A without an answer
                    if eve.session_id not in room_a.spectators:
                        break
                    await trio.sleep(0.01)
                assert eve.session_id not in room_a.spectators
                assert eve.session_id in restarted.lobby.hosts[b].room.spectators
