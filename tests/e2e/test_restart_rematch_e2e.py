"""A rematch across a real restart, end to end: the server process (``manawire serve``), SDK
clients over loopback WebSockets, and a SIGKILL (protocol/README.md, "Rematch", crashes).

Ann and Bob finish a game that Cy watches and start a rematch; the server is killed and
started again on the same data directory. Ann and Bob resume into the rematch's game; Cy
resumes into the old room, which still tells him where the rematch is (L6: before, it said
nothing, and the players there merely looked disconnected), and he watches the rematch from
there ("Watch the rematch"). A leave from the rematch's room once its game is over is kept
by a second SIGKILL: Ann, resuming, is told that no rematch can be had, Bob has left."""

from __future__ import annotations

import signal
from collections.abc import Callable
from pathlib import Path

import pytest
import trio

from client_sdk import Client, ServerError
from protocol.v1 import messages_pb2 as mpb
from tests.e2e.restart_harness import ServerProcess


async def _until(client: Client, done: Callable[[], bool]) -> None:
    """Process ``client``'s messages (resuming after a drop) until ``done()``."""
    while not done():
        await client.next_message()


def _started(client: Client) -> mpb.RematchStarted:
    """Where the client was last told the rematch is."""
    assert client.rematch_started is not None
    return client.rematch_started


def _cancelled(client: Client) -> str:
    """Why no rematch can be had, as the client was last told ("": none said)."""
    return client.rematch.cancelled if client.rematch is not None else ""


async def test_l6_after_a_sigkill_the_old_room_still_says_where_the_rematch_is(
    tmp_path: Path,
) -> None:
    server = ServerProcess(tmp_path / "data")
    try:
        with trio.fail_after(150):
            await server.start()
            async with Client.connect(server.url, "Ann") as ann, \
                    Client.connect(server.url, "Bob") as bob, \
                    Client.connect(server.url, "Cy") as cy:
                room = await ann.create_room("friends", clock_seconds=900)
                await ann.join(room.room_id)
                await bob.join(room.room_id)
                await cy.join(room.room_id, spectator=True)
                await _until(ann, lambda: ann.mirror.ready)
                await ann.concede()
                for client in (ann, bob, cy):
                    await _until(client, lambda c=client: c.finished)  # type: ignore[misc]
                await ann.offer_rematch()
                await bob.offer_rematch()
                await _until(cy, lambda: cy.rematch_started is not None)
                assert cy.rematch_started is not None
                new_id = cy.rematch_started.new_room_id
                assert new_id and cy.rematch_started.old_room_id == room.room_id
                await _until(ann, lambda: ann.room_id == new_id and ann.mirror.ready)
                await _until(bob, lambda: bob.room_id == new_id and bob.mirror.ready)

                await server.stop(signal.SIGKILL)
                cy.rematch_started = None  # (what the old room says after the restart)
                await server.start()
                assert server.restored[-1] == 2  # the rematch in play, the old room lingering
                await _until(cy, lambda: cy.resumes == 1 and cy.rematch_started is not None)
                assert cy.room_id == room.room_id
                assert (_started(cy).old_room_id, _started(cy).new_room_id) == \
                    (room.room_id, new_id)
                for player in (ann, bob):
                    await _until(player, lambda p=player: p.resumes == 1)  # type: ignore[misc]
                    assert player.room_id == new_id and player.seat is not None
                # "Watch the rematch": from the old room to the new one.
                await cy.leave_room(wait=True)
                await cy.join(new_id, spectator=True)
                assert cy.room_id == new_id

                # The rematch ends; Bob leaves its room; a second SIGKILL keeps that.
                await bob.concede()
                for client in (ann, bob):
                    await _until(client, lambda c=client: c.finished)  # type: ignore[misc]
                await bob.leave_room(wait=True)
                await _until(ann, lambda: bool(_cancelled(ann)))
                said = _cancelled(ann)
                assert said.endswith(" left the room"), said
                await server.stop(signal.SIGKILL)
                ann.rematch = None
                await server.start()
                await _until(ann, lambda: ann.resumes == 2 and ann.rematch is not None)
                assert ann.room_id == new_id
                assert _cancelled(ann) == said
                with pytest.raises(ServerError) as refused:
                    await ann.offer_rematch()
                assert refused.value.message == f"no rematch: {said}"
            await server.stop(signal.SIGTERM)
    finally:
        await server.aclose()
