"""``Client.concede(wait=True)`` waits for the server's answer to the concession (rule
104.3a): the Delta that shows it, carrying its request id (protocol/README.md, "Which
requests get no reply") -- or a ServerError if the server refuses it."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
import trio.testing

from client_sdk.client import ServerError
from protocol.v1 import messages_pb2 as mpb
from tests.client_sdk.memory import Network, seated_pair
from tests.rooms.test_app_memory import running_app


async def test_rule_104_3a_concede_waits_for_its_answer_then_a_second_is_refused(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    async with running_app(tmp_path) as app:
        memory_client = Network(app).client_class()
        async with seated_pair(memory_client) as (ann, _bob, _room_id):
            with trio.fail_after(60):  # (the mock clock: no reply at all fails, not hangs)
                await ann.concede(wait=True)
            # The answer was the Delta that shows it: the mirror has the game over already.
            assert ann.mirror.game_over and "conceded" in ann.mirror.header.result.reason
            with pytest.raises(ServerError) as refused:
                await ann.concede(wait=True)
            assert refused.value.code == mpb.ERROR_CODE_GAME_OVER
