"""End to end over real loopback WebSockets with the SDK: a spectator whose place a crash
lost comes back to the room it watched.

The server writes a spectator's place without waiting for the commit (StoreWriter.write_place,
README "Restarts and crashes"), so a crash in the tenth of a second after its join restores the
session with no room, and resuming it gives ``Resumed`` without ``joined``. The SDK then joins
that room again by itself (``Client._watch_again``), with the tier and invite code it joined
with. (Found by the crash harness, tests/e2e/test_restart.py: a spectator stranded in the
lobby.)"""

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


async def test_a_spectator_whose_place_a_crash_lost_is_back_in_its_room_after_resuming(
    tmp_path: Path,
) -> None:
    path = tmp_path / "db.sqlite3"
    with trio.fail_after(90):
        async with trio.open_nursery() as outer:
            apps: list[App] = []
            ports: list[int] = []
            first_up, restart, done = trio.Event(), trio.Event(), trio.Event()
            lost: list[str | None] = []

            async def servers() -> None:
                async with serving(path) as (app, port):
                    apps.append(app)
                    ports.append(port)
                    first_up.set()
                    await restart.wait()
                lost.append(_stored_place(path, session[0]))
                async with serving(path, port) as (app, _port):
                    apps.append(app)
                    await done.wait()

            session: list[str] = []
            outer.start_soon(servers)
            await first_up.wait()
            url = f"ws://127.0.0.1:{ports[0]}"
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
                session.append(eve.session_id)
                await _lose_place(apps[0], eve.session_id)
                restart.set()
                with trio.fail_after(20):
                    while eve.resumes == 0:
                        await eve.next_message()
                # The restart found the session in no room (so Resumed had no joined) and
                # the client joined again, with the private room's invite code.
                assert lost == [None]
                assert eve.room_id == room.room_id and eve.seat == -1
                assert apps[1].session_desk.sessions[eve.session_id].room_id == room.room_id
                with trio.fail_after(20):  # the new join's Snapshot
                    while not (await eve.next_message()).HasField("snapshot"):
                        pass
                assert eve.mirror.state_id > 0 and eve.room_id == room.room_id
                assert eve.resume_snapshots == 0
            done.set()


async def _snapshot(client: Client) -> None:
    """Read until the next Snapshot (the one a join or a resume gets)."""
    with trio.fail_after(20):
        while not (await client.next_message()).HasField("snapshot"):
            pass


async def test_a_spectator_whose_move_a_crash_lost_leaves_the_earlier_room_for_the_latest(
    tmp_path: Path,
) -> None:
    """Eve watched room A, then left it for room B; the crash lost the move, so the restarted
    server resumes her watching A. The SDK leaves A and joins B again: she is back where
    she was, and A no longer counts her."""
    path = tmp_path / "db.sqlite3"
    with trio.fail_after(90):
        async with trio.open_nursery() as outer:
            apps: list[App] = []
            ports: list[int] = []
            first_up, restart, done = trio.Event(), trio.Event(), trio.Event()
            lost: list[str | None] = []
            session: list[str] = []

            async def servers() -> None:
                async with serving(path) as (app, port):
                    apps.append(app)
                    ports.append(port)
                    first_up.set()
                    await restart.wait()
                lost.append(_stored_place(path, session[0]))
                async with serving(path, port) as (app, _port):
                    apps.append(app)
                    await done.wait()

            outer.start_soon(servers)
            await first_up.wait()
            url = f"ws://127.0.0.1:{ports[0]}"
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
                session.append(eve.session_id)
                await _lose_place(apps[0], eve.session_id, before=a)
                restart.set()
                with trio.fail_after(20):
                    while eve.resumes == 0:
                        await eve.next_message()
                assert lost == [a]
                assert eve.room_id == b and eve.seat == -1
                assert apps[1].session_desk.sessions[eve.session_id].room_id == b
                await _snapshot(eve)  # B's, after the new join
                assert eve.room_id == b
                room_a = apps[1].lobby.hosts[a].room
                for _ in range(1000):  # the leave is handed to A without an answer
                    if eve.session_id not in room_a.spectators:
                        break
                    await trio.sleep(0.01)
                assert eve.session_id not in room_a.spectators
                assert eve.session_id in apps[1].lobby.hosts[b].room.spectators
            done.set()
