"""The stream's audience over loopback (new-user round HIGH): a host makes a private room
without taking a seat, its every-hand tier open to "anyone with the room's invite link"; the
tier's watch link carried the players' invite code, so anyone in the audience could take a
seat with ``Client.join(room, invite_code=X)`` before the players arrived. The watch link now
carries the room's audience code: it watches the tier, and is refused a seat."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio

from client_sdk import Client
from client_sdk.client import ServerError
from client_sdk.invites import invite_text
from protocol.v1 import messages_pb2 as mpb
from server.cards import card_pool
from tests.e2e.test_spectator_resume_e2e import serving


async def test_the_watch_links_code_watches_the_every_hand_tier_and_takes_no_seat(
        tmp_path: Path) -> None:
    card_pool()
    with trio.fail_after(60):
        async with serving(tmp_path / "db.sqlite3") as (app, port):
            url = f"ws://127.0.0.1:{port}"
            async with Client.connect(url, "Host") as host:
                room = await host.create_room("stream", private=True, tiers=(
                    mpb.SpectatorTier(kind=mpb.TIER_KIND_OMNISCIENT, delay_seconds=60,
                                      invite=True),))
                code = host.invite_codes[room.room_id]
                audience = host.audience_codes[room.room_id]
                assert audience and audience != code
            text = invite_text(url, room.room_id, code, False, audience=audience)
            (watch_link,) = [w for w in text.split() if "#watch=" in w]
            assert watch_link.endswith(f"&code={audience}") and code not in watch_link
            async with Client.connect(url, "Viewer42") as viewer:
                with pytest.raises(ServerError) as refused:
                    await viewer.join(room.room_id, invite_code=audience)
                assert refused.value.code == mpb.ERROR_CODE_FORBIDDEN
                assert refused.value.message == \
                    "this link lets you watch, not play: ask the host for a seat link"
                assert all(m is None for m in app.lobby.rooms[room.room_id].seats)
                joined = await viewer.join(room.room_id, spectator=True, tier=1,
                                           invite_code=audience)
                assert (joined.role, joined.tier) == (mpb.ROLE_SPECTATOR, 1)
            async with Client.connect(url, "Player") as player:
                joined = await player.join(room.room_id, invite_code=code)
                assert (joined.role, joined.seat) == (mpb.ROLE_PLAYER, 0)
