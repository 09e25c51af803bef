"""The SDK's rematch (protocol/README.md, "Rematch"): ``Client.offer_rematch`` is refused
before the game is over, tells the other player who offers (``Client.rematch``), and once
both have offered each client follows the server into the new room -- its ``room_id``, seat
and view are the new game's, its deck the one registered (rule 100.4)."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
import trio.testing

from client_sdk.client import ServerError
from protocol.v1 import messages_pb2 as mpb
from tests.client_sdk.memory import Network, seated_pair, until
from tests.rooms.test_app_memory import running_app


async def test_rule_103_1_offer_rematch_and_both_clients_play_the_new_game(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    """The new game chooses its starting player by its own procedure (103.1): the clients
    only follow it."""
    async with running_app(tmp_path) as app:
        memory_client = Network(app).client_class()
        async with seated_pair(memory_client) as (ann, bob, room_id):
            with pytest.raises(ServerError) as refused:
                await ann.offer_rematch()
            assert refused.value.code == mpb.ERROR_CODE_NOT_READY
            decks = [ann.deck_text, bob.deck_text]
            await ann.concede()
            await until(ann, lambda: ann.finished)
            await until(bob, lambda: bob.finished)
            offers = await bob.offer_rematch()
            assert list(offers.offered) == [False, True]
            await until(ann, lambda: ann.rematch is not None)
            assert ann.rematch is not None and list(ann.rematch.offered) == [False, True]
            withdrawn = await bob.offer_rematch(False)
            assert list(withdrawn.offered) == [False, False]
            await bob.offer_rematch()
            await ann.offer_rematch()
            for client, seat in ((ann, 0), (bob, 1)):
                await until(client, lambda c=client: c.room_id not in (room_id, None)  # type: ignore[misc]
                            and c.mirror.ready)
                started = client.rematch_started
                assert started is not None and started.old_room_id == room_id
                assert client.room_id == started.new_room_id and client.seat == seat
                assert not client.finished and client.rematch is None
            assert [ann.deck_text, bob.deck_text] == decks
            assert ann.room_id == bob.room_id
            live = app.lobby.rooms[ann.room_id or ""]
            assert live.game is not None and not live.finished
