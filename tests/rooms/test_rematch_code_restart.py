"""A rematch's new invite code goes to the players who knew the old room's code -- its
creator, those who joined with it (protocol/README.md, "Rematch") -- after a restart too:
who knew it wasn't kept, so after a crash mid-game nobody was told the new code and the
players of a private rematch had no invite link to give a spectator (new player, round 9).
Through the app over memory streams (autojump clock), the server started again on the same
store."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
import trio.testing

from protocol.v1 import messages_pb2 as mpb
from tests.rooms.test_app_memory import running_app
from tests.rooms.test_app_rooms import Peer
from tests.rooms.test_rematch_app import _of, _settle
from tests.rooms.test_restart_finished_rooms import _resume


@pytest.mark.parametrize("private", [True, False])
async def test_who_knew_the_code_gets_the_rematchs_after_a_restart_mid_game(
    tmp_path: Path, autojump_clock: trio.testing.MockClock, private: bool
) -> None:
    """Ann creates the room; Bob joins it with the code only if it is private (a public
    room is joined without: he must get no code, the code opening the invite-only tiers)."""
    async with running_app(tmp_path) as app:
        ann, bob = Peer(app, "Ann"), Peer(app, "Bob")
        for p in (ann, bob):
            await p.hello()
        created = await ann.call(create_room=mpb.CreateRoom(
            name="friends", clock_seconds=900, private=private, join=True))
        room_id, code = created.room_created.room.room_id, created.room_created.invite_code
        await _settle()
        joined = await bob.call(join_room=mpb.JoinRoom(
            room_id=room_id, role=mpb.ROLE_PLAYER, invite_code=code if private else ""))
        assert joined.HasField("joined"), joined
        await _settle()
        assert app.lobby.rooms[room_id].game is not None
        tokens = (ann.token, bob.token)
        app.shutdown()
    async with running_app(tmp_path) as app:
        app.recover()
        ann = await _resume(app, "Ann", tokens[0])
        bob = await _resume(app, "Bob", tokens[1])
        await ann.send(concede=mpb.ConcedeGame())
        await _settle()
        await ann.send(offer_rematch=mpb.OfferRematch(offer=True))
        await bob.send(offer_rematch=mpb.OfferRematch(offer=True))
        await _settle()
        ann.pump(), bob.pump()
        (ann_started,) = [m.rematch_started for m in _of(ann, "rematch_started")]
        (bob_started,) = [m.rematch_started for m in _of(bob, "rematch_started")]
        assert ann_started.new_room_id == bob_started.new_room_id != ""
        new_room = app.lobby.rooms[ann_started.new_room_id]
        assert ann_started.invite_code and new_room._code_matches(ann_started.invite_code)
        assert bool(bob_started.invite_code) == private
