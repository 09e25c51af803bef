"""Computer players through the app over memory streams (autojump clock): a room created
with ``CreateRoom.computers`` starts at once and its computer plays; a rematch has the
computer again, in the same seat, and starts on the person's offer alone; a restart brings
the game back with the computer deciding; the room counts against its creator as any."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import trio
import trio.testing

from protocol.v1 import messages_pb2 as mpb
from server.app import App, Limits
from server.rooms import computer
from server.rooms.room import Room, RoomConfig
from tests.rooms.test_app_memory import running_app
from tests.rooms.test_app_rooms import Peer

LIMITS = replace(Limits(), room=replace(RoomConfig(), computer_seconds=0.8))


def _room(app: App, room_id: str) -> Room:
    return app.lobby.rooms[room_id]


async def _against_computer(app: App, name: str = "Ann", **fields: object
                            ) -> tuple[Peer, str]:
    peer = Peer(app, name)
    await peer.hello()
    reply = await peer.call(create_room=mpb.CreateRoom(
        name="vs computer", join=True, computers=1, **fields))  # type: ignore[arg-type]
    assert reply.HasField("room_created"), reply
    return peer, reply.room_created.room.room_id


async def _play(app: App, peer: Peer, room_id: str, rng: random.Random,
                decisions: int) -> None:
    """The person answers its own decisions (as the computer would) while the computer
    answers its own, in the room, at its pace."""
    room = _room(app, room_id)
    for _ in range(decisions):
        await trio.sleep(0.05)
        peer.pump()
        game = room.game
        assert game is not None
        if game.result is not None:
            return
        pending = game.pending
        assert pending is not None
        if room.is_computer(pending.seat):
            await trio.sleep(1.3)  # (it answers within 1.2 s)
            assert game.result is not None or game.pending is None or \
                game.pending.prompt_id != pending.prompt_id
            continue
        await peer.send(act=mpb.Act(prompt_id=pending.prompt_id, option_index=computer.choose(
            rng, pending.seat, pending.options)))


async def test_a_room_with_a_computer_starts_at_once_and_the_computer_plays(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    async with running_app(tmp_path, LIMITS) as app:
        ann, room_id = await _against_computer(app)
        room = _room(app, room_id)
        assert room.game is not None  # started with the creator's join
        joined = [m.joined for m in ann.got if m.HasField("joined")]
        assert list(joined[0].room.computers) == [1]
        await _play(app, ann, room_id, random.Random(1), 60)
        game = room.game
        assert game is not None
        assert {seat for seat, _a in app.store.load_game(room_id).actions} == {0, 1}


async def test_a_rematch_against_the_computer_starts_on_the_persons_offer_alone(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    async with running_app(tmp_path, LIMITS) as app:
        ann, room_id = await _against_computer(app, private=True)
        await ann.send(concede=mpb.ConcedeGame())
        await trio.sleep(1)
        ann.pump()
        offers = [list(m.rematch_offers.offered) for m in ann.got
                  if m.HasField("rematch_offers")]
        assert offers[-1] == [False, True]  # the computer offers at once
        ann.got.clear()
        await ann.send(offer_rematch=mpb.OfferRematch(offer=True))
        await trio.sleep(1)
        ann.pump()
        started = [m.rematch_started for m in ann.got if m.HasField("rematch_started")]
        assert len(started) == 1 and started[0].old_room_id == room_id
        new = _room(app, started[0].new_room_id)
        assert new.settings.computers == (1,) and new.settings.private
        assert new.game is not None and not new.finished  # both seats taken: started
        seat0, seat1 = new.seats
        assert seat0 is not None and seat1 is not None
        assert seat0.name.startswith("Ann") and seat1.name == "Computer"
        assert new.is_computer(1)
        # and its computer plays there too
        await _play(app, ann, new.room_id, random.Random(2), 30)
        assert 1 in {seat for seat, _a in app.store.load_game(new.room_id).actions}


async def test_a_restart_brings_the_game_back_and_the_computer_goes_on(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    """As after a kill -9: what was stored is all there is (the store writes inline
    here); the reloaded room knows its computer's seat and the computer decides again."""
    async with running_app(tmp_path, LIMITS) as app:
        ann, room_id = await _against_computer(app)
        await _play(app, ann, room_id, random.Random(3), 20)
        token = ann.token
        before = _room(app, room_id).game
        assert before is not None and before.result is None
    async with running_app(tmp_path, LIMITS) as app:
        assert app.recover() == 1
        room = _room(app, room_id)
        assert room.is_computer(1) and room.game is not None
        back = Peer(app, "Ann")
        reply = await back.call(resume=mpb.Resume(protocol_version=1, resume_token=token))
        assert reply.resumed.joined.room.room_id == room_id
        assert list(reply.resumed.joined.room.computers) == [1]
        count = room.game.action_count
        await _play(app, back, room_id, random.Random(4), 40)
        assert room.game.action_count > count
        seats = [seat for seat, _a in app.store.load_game(room_id).actions[count:]]
        assert 0 in seats and 1 in seats  # both went on: the person and the computer


async def test_a_room_with_a_computer_counts_against_its_creator_as_any(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    async with running_app(tmp_path, replace(LIMITS, max_rooms_per_account=1)) as app:
        ann, room_id = await _against_computer(app)
        reply = await ann.call(create_room=mpb.CreateRoom(name="again"))
        assert reply.error.code == mpb.ERROR_CODE_LIMIT_REACHED
        assert room_id in app.lobby.rooms
