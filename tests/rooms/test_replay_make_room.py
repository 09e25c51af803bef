"""Which replay a full server ends to make room for a new one (a security tester's round 7,
M1): a refused ReplayRequest (an unknown game) ended an honest viewer's replay before it
was refused, and "quiet" meant "no ReplayControl" -- a viewer watching a replay play
counted as idle, while controls the server dropped kept an attacker's replays "heard".
Now a request evicts only once its game is there and the account may see it, and a replay
is active while it plays to its client (or takes a control); the quiet one is paused,
unsteered."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
import trio
import trio.testing

from protocol.v1 import messages_pb2 as mpb
from server.app import Limits
from server.replay_desk import QUIET_SECONDS
from server.rooms.replaying import MAX_PENDING_CONTROLS, Control, ReplayRunner
from tests.rooms.test_app_memory import running_app
from tests.rooms.test_replay_app import _replay, _until, store_game
from tests.rooms.test_replay_limits import _client_at, _inline_threads


async def test_a_refused_request_ends_nobodys_replay(
        tmp_path: Path, autojump_clock: trio.testing.MockClock,
        monkeypatch: pytest.MonkeyPatch) -> None:
    _inline_threads(monkeypatch)
    async with running_app(tmp_path, replace(Limits(), max_replays=2)) as app:
        desk = app.replay_desk
        store_game(app.store, "g", ("a", "b"))
        viewers = [await _client_at(app, f"V{n}", f"10.0.3.{n}") for n in range(2)]
        for viewer in viewers:
            assert (await viewer.request(**_replay(room_id="g", public=True, paused=True))
                    ).HasField("replay_status")
        await trio.sleep(QUIET_SECONDS + 10)  # both quiet: either may be ended for a start
        eve = await _client_at(app, "Eve", "10.0.3.9")
        for n, (fields, code) in enumerate((
                ({"room_id": "nosuchroom", "public": True}, mpb.ERROR_CODE_ROOM_NOT_FOUND),
                ({"room_id": "nosuchroom.2", "public": True}, mpb.ERROR_CODE_ROOM_NOT_FOUND),
                ({"room_id": "g", "omniscient": True}, mpb.ERROR_CODE_FORBIDDEN),
                ({"room_id": "g", "seat": 0}, mpb.ERROR_CODE_FORBIDDEN))):
            reply = await eve.request(**_replay(paused=True, **fields))
            assert reply.error.code == code, (fields, reply)
            assert desk.running == 2 and all(not r.done for r in desk._active), n
        # A request that starts ends one of them.
        assert (await eve.request(**_replay(room_id="g", public=True, paused=True))
                ).HasField("replay_status")
        assert desk.running == 2
        assert sum(r.done for r in desk._active) == 0 and len(desk._active) == 2


async def test_a_viewer_watching_a_replay_play_is_not_the_quiet_one(
        tmp_path: Path, autojump_clock: trio.testing.MockClock,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Ann watches a replay play (an action every 4 s, no control for minutes); Bob's,
    started later, sits paused: a new start ends Bob's, not Ann's."""
    _inline_threads(monkeypatch)
    async with running_app(tmp_path, replace(Limits(), max_replays=2)) as app:
        store_game(app.store, "g", ("a", "b"))  # 60 actions: 240 s at 0.25 a second
        ann = await _client_at(app, "Ann", "10.0.4.1")
        bob = await _client_at(app, "Bob", "10.0.4.2")
        eve = await _client_at(app, "Eve", "10.0.4.3")
        assert (await ann.request(**_replay(room_id="g", public=True, speed=0.25))
                ).HasField("replay_status")
        await trio.sleep(10)
        assert (await bob.request(**_replay(room_id="g", public=True, paused=True))
                ).HasField("replay_status")
        deltas = 0

        async def watch() -> None:  # Ann's client reads what it is sent
            nonlocal deltas
            while True:
                msg = mpb.ServerMessage.FromString(await ann.from_server.receive())
                assert not msg.HasField("error"), msg
                deltas += msg.HasField("delta")

        async with trio.open_nursery() as nursery:
            nursery.start_soon(watch)
            await trio.sleep(QUIET_SECONDS + 10)
            assert (await eve.request(**_replay(room_id="g", public=True, paused=True))
                    ).HasField("replay_status")
            told = await _until(bob, "error")
            assert told.error.code == mpb.ERROR_CODE_LIMIT_REACHED
            assert "to make room" in told.error.message and "paused" in told.error.message
            await trio.sleep(5)
            nursery.cancel_scope.cancel()
        assert deltas > 10  # Ann's replay went on playing to her


async def test_a_dropped_control_is_no_sign_of_life(
        autojump_clock: trio.testing.MockClock) -> None:
    """An attacker's controls past the queue are dropped (RATE_LIMITED): they kept its
    replays 'heard' all the same."""
    sent: list[bytes] = []
    runner = ReplayRunner("g", lambda: None, sent.append, lambda: True,  # type: ignore[arg-type,return-value]
                          rid=1, speed=1.0, playing=False)
    for _ in range(MAX_PENDING_CONTROLS):
        assert runner.control(Control(2, "pause"))
    await trio.sleep(QUIET_SECONDS)
    heard = runner.heard
    assert not runner.control(Control(3, "pause"))
    assert runner.heard == heard  # (dropped: not heard)
