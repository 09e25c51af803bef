"""The lobby's list must not tell a delayed tier's spectators that the game is over before
their view shows it (protocol/README.md, "Spectator tiers", "Rematch"): a rematch has the same
name and players, so listing it at once said the old game -- a match, and so who won it --
had ended, while the old room's own entry still held that back (attacker round 9). Through
the app over memory streams (autojump clock)."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
import trio.testing

from protocol.v1 import messages_pb2 as mpb
from server.rooms.room import Room
from tests.rooms.test_app_memory import running_app
from tests.rooms.test_app_rooms import Peer
from tests.rooms.test_rematch_app import _settle, _tiered_rematch


async def _listed(peer: Peer) -> dict[str, mpb.RoomInfo]:
    reply = await peer.call(list_rooms=mpb.ListRooms())
    return {info.room_id: info for info in reply.room_list.rooms}


async def test_a_rematch_is_listed_only_once_the_old_rooms_slowest_tier_showed_the_end(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """No live spectators, a tier 120 s behind: the old room is listed as still playing, and
    the rematch not at all, until that tier has shown the end."""
    async with running_app(tmp_path) as app:
        dan, old_id, _code, new_id = await _tiered_rematch(app, mpb.SPECTATE_NONE)
        listed = await _listed(dan)
        assert not listed[old_id].finished
        assert new_id not in listed, listed[new_id]
        await trio.sleep(150)
        listed = await _listed(dan)
        assert new_id in listed
        assert old_id not in listed or listed[old_id].finished


async def test_a_rematch_of_a_room_watched_live_is_listed_at_once(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """Live spectators see the end as it happens (and the list says so): nothing to hold."""
    async with running_app(tmp_path) as app:
        dan, old_id, _code, new_id = await _tiered_rematch(app, mpb.SPECTATE_ALLOWED)
        listed = await _listed(dan)
        assert listed[old_id].finished and new_id in listed


async def test_a_long_chain_of_rematches_is_listed_in_one_walk(
    tmp_path: Path, autojump_clock: trio.testing.MockClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Attacker round 10: one player conceding to the computer and rematching made a chain
    of hundreds of lingering rooms, each naming the one before; the listing walked each
    room's chain again (a square of its length: a second a listing, the event loop held).
    Each room's entry is built once now."""
    async with running_app(tmp_path) as app:
        ann = Peer(app, "Ann")
        await ann.hello()
        created = await ann.call(create_room=mpb.CreateRoom(name="again", join=True,
                                                            computers=1))
        assert created.HasField("room_created"), created
        for _ in range(40):
            await _settle()
            await ann.send(concede=mpb.ConcedeGame())
            await _settle()
            await ann.send(offer_rematch=mpb.OfferRematch(offer=True))
        await _settle()
        rooms = app.lobby.rooms
        assert len(rooms) == 41 and sum(room.finished for room in rooms.values()) == 40
        built = [0]
        listed_info = Room.listed_info

        def counted(room: Room) -> mpb.RoomInfo:
            built[0] += 1
            return listed_info(room)

        monkeypatch.setattr(Room, "listed_info", counted)
        assert len(app.lobby.listing().rooms) == 41
        assert built[0] == 41  # (none of them hides its end: one entry each)
