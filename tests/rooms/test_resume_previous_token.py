"""The resume token a client presented keeps working after the resume -- the answer with the
newer token may never have arrived -- but an old token kept working as long as it was used
again, each use voiding the newer one (security round 14, finding 5). Now it is void once
the newer token is used, or once the connection given the newer one has held the session
for PREVIOUS_TOKEN_SECONDS (it has received it); a connection dropping sooner leaves it
working, however many times in a row (app over memory sockets, autojump clock)."""

from __future__ import annotations

from pathlib import Path

import trio
import trio.testing

from protocol.v1 import messages_pb2 as mpb
from server.sessions import PREVIOUS_TOKEN_SECONDS
from tests.rooms.test_app_memory import running_app
from tests.rooms.test_app_rooms import Peer, _table


async def _resume(app: object, token: str) -> tuple[Peer, mpb.ServerMessage]:
    peer = Peer(app, "again")  # type: ignore[arg-type]
    return peer, await peer.call(resume=mpb.Resume(protocol_version=1, resume_token=token))


def _seated(reply: mpb.ServerMessage) -> bool:
    """Whether ``reply`` resumed the session into its seat (seat 0)."""
    return reply.HasField("resumed") and reply.resumed.HasField("joined") and \
        reply.resumed.joined.seat == 0


async def _drop(peer: Peer) -> None:
    await peer.sock.to_server.aclose()
    await trio.testing.wait_all_tasks_blocked()


async def test_a_presented_token_outlives_lost_answers_but_not_a_connection_that_stays(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    async with running_app(tmp_path) as app:
        (ann, _bob), _room_id = await _table(app, 2)  # a game in progress
        first = ann.token
        await _drop(ann)
        # Three answers lost in a row: each connection drops (within the grace) before its
        # client could read the newer token, so the one it has must keep working.
        for _ in range(3):
            lost, reply = await _resume(app, first)
            assert _seated(reply), reply
            await trio.sleep(PREVIOUS_TOKEN_SECONDS * 0.9)
            await _drop(lost)
        await trio.sleep(PREVIOUS_TOKEN_SECONDS * 2)  # (and it comes back later)
        kept, reply = await _resume(app, first)
        assert _seated(reply), reply
        await trio.sleep(PREVIOUS_TOKEN_SECONDS * 0.9)
        # Within the grace the presented token still works (the documented grace) ...
        kept, reply = await _resume(app, first)
        assert _seated(reply), reply
        newest = kept.token
        await trio.sleep(PREVIOUS_TOKEN_SECONDS + 1)
        # ... but once a connection has held the session that long, it is void: it no
        # longer takes the session over (closing the connection that has the newer token).
        _stale, reply = await _resume(app, first)
        assert reply.error.code == mpb.ERROR_CODE_RESUME_FAILED, reply
        assert kept.sock.closed is None
    # Void in the store too: a restart doesn't bring it back.
    async with running_app(tmp_path) as app:
        assert app.recover() == 1
        _stale, reply = await _resume(app, first)
        assert reply.error.code == mpb.ERROR_CODE_RESUME_FAILED, reply
        _again, reply = await _resume(app, newest)
        assert _seated(reply), reply
        # (a resume after the restart rotates as ever: the newest presented is the grace)
        _again, reply = await _resume(app, newest)
        assert _seated(reply), reply


async def test_using_the_newer_token_voids_the_presented_one_at_once(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    async with running_app(tmp_path) as app:
        (ann, _bob), _room_id = await _table(app, 2)
        first = ann.token
        await _drop(ann)
        second, reply = await _resume(app, first)
        assert _seated(reply), reply
        await _drop(second)
        _third, reply = await _resume(app, second.token)
        assert _seated(reply), reply
        _stale, reply = await _resume(app, first)
        assert reply.error.code == mpb.ERROR_CODE_RESUME_FAILED
