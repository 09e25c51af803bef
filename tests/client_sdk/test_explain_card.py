"""Why a card can't be cast, asked through the whole server (np7 finding 2): the SDK's
``explain_card`` (ExplainCard -> CardExplanation) answered by the room from the engine's
``why_not_castable``; a spectator is refused; an opponent's card reads as a made-up id."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
import trio.testing

from client_sdk.client import ServerError
from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from tests.client_sdk.memory import Network, deciding, until
from tests.rooms.test_app_memory import running_app


async def test_a_player_asks_why_and_a_spectator_is_refused(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    async with running_app(tmp_path) as app:
        memory_client = Network(app).client_class()
        async with memory_client.connect("memory", "Ann") as ann, \
                memory_client.connect("memory", "Bob") as bob, \
                memory_client.connect("memory", "Cy") as cy:
            room = await ann.create_room("t")
            await ann.join(room.room_id)
            await bob.join(room.room_id)
            await cy.join(room.room_id, spectator=True)
            await until(ann, lambda: ann.mirror.ready)
            await until(bob, lambda: bob.mirror.ready)
            game = app.lobby.rooms[room.room_id].game
            assert game is not None and ann.seat is not None and bob.seat is not None
            while game.pending is not None and not game.player(ann.seat).hand:
                await (await deciding(app, room.room_id, ann, bob)).act(0)  # who starts
                await trio.testing.wait_all_tasks_blocked()
            seat = ann.seat
            await until(ann, lambda: bool(ann.mirror.zone(pb.ZONE_KIND_HAND, seat)))
            hand = ann.mirror.zone(pb.ZONE_KIND_HAND, seat)
            for card in hand:
                answer = await ann.explain_card(card.id)
                assert answer.object_id == card.id
                # The mulligans: nobody casts anything yet (103.5).
                assert not answer.castable and answer.reason.startswith("The game hasn't")
            theirs = await ann.explain_card(game.player(bob.seat).hand[0])
            made_up = await ann.explain_card("nothing-like-it")
            assert theirs.reason == made_up.reason and not theirs.castable
            with pytest.raises(ServerError) as refused:
                await cy.explain_card(hand[0].id)
            assert refused.value.code == mpb.ERROR_CODE_NOT_YOUR_DECISION
