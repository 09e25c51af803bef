"""The SDK when every player offered a rematch but the server can't make it
(protocol/README.md, "Rematch", "No rematch is made"): each player gets
``ERROR_CODE_LIMIT_REACHED`` "no rematch: <why>" (request id 0) and is in no room any more
-- ``Client.rematch`` then says why (``cancelled``) and ``room_id`` is None."""

from __future__ import annotations

from pathlib import Path

import trio
import trio.testing

from client_sdk.client import Client, no_rematch
from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from protocol.viewhash import view_hash
from server.app import Limits
from tests.client_sdk.memory import Network, seated_pair, until
from tests.rooms.test_app_memory import running_app


async def test_a_rematch_the_server_cant_make_leaves_both_clients_in_no_room_told_why(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    """A room Cy (at the players' address) opened as the game ended holds the address's one
    open room: none is left for the rematch (a finished room doesn't count)."""
    async with running_app(tmp_path, Limits(max_rooms_per_address=1)) as app:
        memory_client = Network(app).client_class()
        async with seated_pair(memory_client) as (ann, bob, room_id):
            await ann.concede()
            await until(ann, lambda: ann.finished)
            await until(bob, lambda: bob.finished)
            async with memory_client.connect("memory", "Cy") as cy:
                await cy.create_room("Cy's")
                await bob.offer_rematch()
                await ann.offer_rematch()
            for client in (ann, bob):
                await until(client, lambda c=client: c.room_id is None)  # type: ignore[misc]
                offers = client.rematch
                assert offers is not None and offers.room_id == room_id
                assert offers.cancelled and offers.cancelled in client.errors[-1].message
                assert client.errors[-1].code == mpb.ERROR_CODE_LIMIT_REACHED
                assert client.rematch_started is None


def test_no_rematch_reads_only_the_servers_word_that_none_can_be_made() -> None:
    def error(code: mpb.ErrorCode, message: str, rid: int = 0) -> mpb.ServerMessage:
        return mpb.ServerMessage(request_id=rid, error=mpb.Error(code=code, message=message))

    limit = mpb.ERROR_CODE_LIMIT_REACHED
    assert no_rematch(error(limit, "no rematch: Bob went to another game")) == \
        "Bob went to another game"
    assert no_rematch(error(limit, "no rematch: x", rid=3)) is None  # (a request's answer)
    assert no_rematch(error(mpb.ERROR_CODE_INVALID_ARGUMENT, "no rematch: Bob left")) is None
    assert no_rematch(error(limit, "too many rooms")) is None
    assert no_rematch(mpb.ServerMessage(rematch_offers=mpb.RematchOffers())) is None


def _resumed_outside(nursery: trio.Nursery, *messages: mpb.ServerMessage) -> Client:
    """Ann (seat 0 of r1, its game over, her offer standing) resumed in no room: her
    connection closed as the last offer came (protocol/README.md, "Rematch"); then
    ``messages`` come."""
    ann = Client("memory", "Ann", nursery)
    ann._placed(mpb.Joined(room=mpb.RoomInfo(room_id="r1"), role=mpb.ROLE_PLAYER, seat=0))
    view = pb.View(viewer=0, header=pb.GameHeader(result=pb.GameResult(winners=[0])),
                   players=[pb.Player(seat=0, name="Ann"), pb.Player(seat=1, name="Bob")])
    ann.mirror.load_snapshot(pb.Snapshot(room_id="r1", state_id=9, view=view,
                                         view_hash=view_hash(view)))
    ann.rematch = mpb.RematchOffers(room_id="r1", offered=[True, False])
    ann._took_over(mpb.Resumed())
    assert ann.room_id is None and ann.finished
    ann._queued.extend((None, m) for m in messages)
    return ann


async def test_resumed_in_no_room_the_client_follows_the_seat_the_rematch_gives_it() -> None:
    async with trio.open_nursery() as nursery:
        ann = _resumed_outside(nursery, mpb.ServerMessage(rematch_started=mpb.RematchStarted(
            old_room_id="r1", new_room_id="r2", invite_code="c0de")),
            mpb.ServerMessage(joined=mpb.Joined(room=mpb.RoomInfo(room_id="r2"),
                                                role=mpb.ROLE_PLAYER, seat=0)))
        await ann.next_message()
        assert ann.rematch_started is not None and ann.invite_codes["r2"] == "c0de"
        await ann.next_message()
        assert (ann.room_id, ann.seat) == ("r2", 0)
        assert ann.rematch is None and not ann.finished  # (the new room's, afresh)


async def test_resumed_in_no_room_the_servers_no_rematch_is_kept_with_its_reason() -> None:
    async with trio.open_nursery() as nursery:
        ann = _resumed_outside(nursery, mpb.ServerMessage(error=mpb.Error(
            code=mpb.ERROR_CODE_LIMIT_REACHED, message="no rematch: the server is full")))
        await ann.next_message()
        assert ann.room_id is None and ann.rematch is not None
        assert (ann.rematch.room_id, ann.rematch.cancelled) == ("r1", "the server is full")
