"""SDK clients whose room a full disk stopped play on once it is back, whichever way they
come back to it: seated again by the server while connected (an unasked Joined, then a
Snapshot), or by a resume once the server is reachable again (a restart with space back).

Found by an operator: both clients resumed into the restored room, their view empty (state 0,
no decision) and no snapshot came -- the room's close had kept the view (its last board) but
dropped the room id, the resume asked for what came after the old state id (nothing: the
restored room was at that same state), and the Resumed's room, not the one the client knew
(None), made it forget the view."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
import trio.testing

from tests.client_sdk.memory import Network, deciding, seated_pair, until
from tests.rooms.test_app_memory import running_app
from tests.rooms.test_stopped_rooms_come_back import _store_fails


async def test_a_client_resuming_into_its_room_back_from_a_full_disk_gets_a_snapshot(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        autojump_clock: trio.testing.MockClock) -> None:
    async with running_app(tmp_path) as app:
        network = Network(app)
        memory_client = network.client_class()
        async with seated_pair(memory_client) as (ann, bob, room_id):
            states = (ann.mirror.state_id, bob.mirror.state_id)
            assert states[0] > 0
            # The disk fills; the deciding player acts; the room stops.
            actor = await deciding(app, room_id, ann, bob)
            _store_fails(app, monkeypatch)
            await actor.act(0)
            for client in (ann, bob):
                await until(client, lambda c=client: c.room_id is None)  # type: ignore[misc]
                assert client.comes_back and client.mirror.state_id > 0  # (its last board)
            # Ann's connection goes while the server is unreachable; space comes back.
            network.up = False
            await ann.drop()
            monkeypatch.undo()
            app.writer.writes.settle_seconds = 0.0
            await trio.sleep(5)
            assert room_id in app.lobby.hosts  # back; Bob, connected, is seated again
            await until(bob, lambda: bob.room_id == room_id and bob.mirror.ready)
            assert bob.mirror.state_id == states[1]
            # Ann resumes into the room: its view comes whole, and play goes on.
            network.up = True
            await until(ann, lambda: ann.room_id == room_id and ann.mirror.ready)
            assert ann.resumes == 1 and ann.mirror.state_id == states[0]
            player = await deciding(app, room_id, ann, bob)
            await player.act(0)
            await until(ann, lambda: ann.mirror.state_id > states[0])
            await until(bob, lambda: bob.mirror.state_id > states[1])
            assert ann.resyncs == bob.resyncs == 0


async def test_a_client_resuming_into_a_room_it_had_forgotten_asks_for_a_snapshot(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    """Whatever state id a resume sent, a Resumed placing the client in a room its view
    wasn't of, with no snapshot coming, ends with a snapshot asked for."""
    async with running_app(tmp_path) as app:
        network = Network(app)
        memory_client = network.client_class()
        async with seated_pair(memory_client) as (ann, _bob, room_id):
            state = ann.mirror.state_id
            # The client's idea of its room is lost, its view kept (as a RoomClosed left it),
            # and its resume sends the view's state id anyway (as it did before the fix).
            ann.room_id = "elsewhere"
            await ann.drop()
            await until(ann, lambda: ann.resumes == 1)
            assert ann.room_id == room_id
            await until(ann, lambda: ann.mirror.ready)
            assert ann.mirror.state_id == state and ann.resume_snapshots == 0
            assert not ann.errors
