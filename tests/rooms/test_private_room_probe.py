"""A stranger can't tell a private room's id from a made-up one: a join with a wrong (or no)
invite code got FORBIDDEN "that is not this room's invite code" -- after the deck was read
-- where a made-up id got ROOM_NOT_FOUND at once, so trying ids told which exist. Now both
are ROOM_NOT_FOUND with the same words, answered before any deck is read (a deck that can't
be played doesn't tell them apart either); the code's holder, and the room's players, are
answered as before."""

from __future__ import annotations

from pathlib import Path

import trio
import trio.testing

from protocol.v1 import messages_pb2 as mpb
from server.rooms.room import no_room
from tests.rooms.test_accounts import _connect, _create
from tests.rooms.test_app_memory import MemorySocket, running_app


async def _try(sock: MemorySocket, room_id: str, code: str, *, spectator: bool = False,
               deck: str = "") -> tuple[int, str]:
    role = mpb.ROLE_SPECTATOR if spectator else mpb.ROLE_PLAYER
    reply = await sock.request(join_room=mpb.JoinRoom(room_id=room_id, role=role,
                                                      invite_code=code, deck=deck))
    return reply.error.code, reply.error.message


async def test_a_wrong_code_and_a_missing_room_get_the_same_answer(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    async with running_app(tmp_path) as app:
        host, _w = await _connect(app, "host")
        eve, _w = await _connect(app, "eve")
        created = await _create(host, private=True, spectate=mpb.SPECTATE_INVITE)
        room_id, code = created.room.room_id, created.invite_code
        missing = "0" * len(room_id)
        unplayable = "4 Shock\n56 Mountain\n1 No Such Card"
        for spectator in (False, True):
            for guess in ("", "wrong", code[:-1]):
                for deck in ("", unplayable):
                    asked = await _try(eve, room_id, guess, spectator=spectator, deck=deck)
                    unknown = await _try(eve, missing, guess, spectator=spectator, deck=deck)
                    # The same words, each naming the id it was sent (nothing else).
                    assert asked == (mpb.ERROR_CODE_ROOM_NOT_FOUND, no_room(room_id)), \
                        (spectator, guess, deck)
                    assert unknown == (mpb.ERROR_CODE_ROOM_NOT_FOUND, no_room(missing))
        # Its code lets a player in (and its deck is read as ever).
        refused = await _try(eve, room_id, code, deck=unplayable)
        assert refused[0] == mpb.ERROR_CODE_INVALID_DECK
        assert (await eve.request(join_room=mpb.JoinRoom(
            room_id=room_id, role=mpb.ROLE_PLAYER, invite_code=code))).HasField("joined")
        # The room's own player is told about the room, not that it doesn't exist.
        again = await _try(eve, room_id, "")
        assert again[0] == mpb.ERROR_CODE_INVALID_ARGUMENT


async def test_a_public_rooms_answers_are_unchanged(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    async with running_app(tmp_path) as app:
        host, _w = await _connect(app, "host")
        eve, _w = await _connect(app, "eve")
        created = await _create(host, spectate=mpb.SPECTATE_INVITE)
        room_id = created.room.room_id
        # A listed room is no secret: watching it without the code is refused as before.
        code, message = await _try(eve, room_id, "wrong", spectator=True)
        assert code == mpb.ERROR_CODE_FORBIDDEN and "invite code" in message
