"""Replays of a match's games while the match is still being played (a security tester's
round 7, H1): a player replayed game 1 of a best-of-3 with every card shown during
sideboarding -- from a replays-only side connection, with the same token -- and read the
other player's whole deck before game 2. Until the match is over its players may replay only
what they saw live (their own seat's view, the public view); the rest opens once it is over.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
import trio.testing

from protocol.v1 import messages_pb2 as mpb
from server.replay import EVERY_HAND, OMNISCIENT, PUBLIC, access_problem, replay_problem
from server.store.records import (
    GameRecord,
    MatchRecord,
    RoomSettings,
    SpectatorTier,
    TierKind,
)
from tests.rooms.test_app_memory import MemorySocket, running_app
from tests.rooms.test_matches_app import _match, _until
from tests.rooms.test_replay_app import _client, _control, _replay, store_game
from tests.rooms.test_replay_limits import _inline_threads

UNTIL_OVER = "until the match is over"


async def _sideboarding(a: MemorySocket, b: MemorySocket) -> None:
    """Ann concedes game 1: the match goes on to sideboarding."""
    await a.to_server.send(mpb.ClientMessage(concede=mpb.ConcedeGame()).SerializeToString())
    state = (await _until(b, "match_state")).match_state
    while state.phase != mpb.MATCH_PHASE_SIDEBOARDING:
        state = (await _until(b, "match_state")).match_state


async def _side(app: object, token: str) -> MemorySocket:
    """A replays-only side connection with the account's token (Hello.replays_only)."""
    sock = MemorySocket()
    app.lobby.nursery.start_soon(app.handle_connection, sock)  # type: ignore[attr-defined]
    welcome = await sock.request(hello=mpb.Hello(protocol_version=1, account_token=token,
                                                 replays_only=True))
    assert welcome.HasField("welcome"), welcome
    return sock


async def _started(sock: MemorySocket, **fields: object) -> mpb.ServerMessage:
    reply = await sock.request(**_replay(paused=True, **fields))
    if reply.HasField("replay_status"):
        assert (await sock.request(**_control(stop=True))).replay_ended.stopped
    return reply


def _keep_tokens(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Each display name's account token, from the Welcome its Hello got."""
    tokens: dict[str, str] = {}
    real_request = MemorySocket.request

    async def keeping(self: MemorySocket, **body: object) -> mpb.ServerMessage:
        reply = await real_request(self, **body)
        hello = body.get("hello")
        if isinstance(hello, mpb.Hello) and reply.welcome.account_token:
            tokens[hello.display_name] = reply.welcome.account_token
        return reply

    monkeypatch.setattr(MemorySocket, "request", keeping)
    return tokens


async def test_a_player_replays_only_what_they_saw_live_until_the_match_is_over(
        tmp_path: Path, autojump_clock: trio.testing.MockClock,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The attacker's way in: Hello{account_token, replays_only} beside the seated
    connection (which may not replay while seated)."""
    _inline_threads(monkeypatch)
    tokens = _keep_tokens(monkeypatch)
    async with running_app(tmp_path) as app:
        a, b, room_id = await _match(app)
        await _until(a, "snapshot")
        await _sideboarding(a, b)
        bob_seat = next(m.seat for m in app.lobby.rooms[room_id].seats
                        if m is not None and m.name.startswith("Bob"))
        ann_seat = 1 - bob_seat
        side = await _side(app, tokens["Bob"])
        for fields in ({"omniscient": True}, {"every_hand": True}):
            reply = await _started(side, room_id=room_id, **fields)
            assert reply.error.code == mpb.ERROR_CODE_NOT_READY, (fields, reply)
            assert UNTIL_OVER in reply.error.message
        # (Ann's seat's view is hers alone, during the match or after it.)
        reply = await _started(side, room_id=room_id, seat=ann_seat)
        assert reply.error.code == mpb.ERROR_CODE_FORBIDDEN, reply
        # What he saw live stays open.
        assert (await _started(side, room_id=room_id, seat=bob_seat)).HasField("replay_status")
        assert (await _started(side, room_id=room_id, public=True)).HasField("replay_status")
        # Game 2 not played yet: told the same, not "no such game".
        reply = await _started(side, room_id=f"{room_id}.2", omniscient=True)
        assert reply.error.code == mpb.ERROR_CODE_NOT_READY and UNTIL_OVER in \
            reply.error.message
        # A spectator gets what the room showed it live (the public view), nothing more.
        eve, _ = await _client(app, "Eve")
        assert (await _started(eve, room_id=room_id, public=True)).HasField("replay_status")
        for eve_asks in ({"omniscient": True}, {"every_hand": True}, {"seat": ann_seat}):
            reply = await _started(eve, room_id=room_id, **eve_asks)
            assert reply.error.code == mpb.ERROR_CODE_FORBIDDEN, (eve_asks, reply)
        # Ann leaves between games: that concedes the match; now it all opens.
        await a.to_server.send(mpb.ClientMessage(
            request_id=2, leave_room=mpb.LeaveRoom()).SerializeToString())  # (no answer)
        while (await _until(b, "match_state")).match_state.phase != mpb.MATCH_PHASE_OVER:
            pass
        assert app.lobby.rooms[room_id].finished
        for fields in ({"omniscient": True}, {"every_hand": True}):
            assert (await _started(side, room_id=room_id, **fields)).HasField("replay_status")
        reply = await _started(side, room_id=room_id, seat=ann_seat)
        assert reply.error.code == mpb.ERROR_CODE_FORBIDDEN, reply


def test_the_rule_is_access_problems() -> None:
    """The one place the rules live: a game of an open match refuses its players every
    class they didn't see live -- every hand, every card, and another seat's view even where
    a tier of the room names them -- and nothing more than before once it is over (or of a
    single game)."""
    tiers = (SpectatorTier(TierKind.PLAYER, seat=1, delay_seconds=60,
                           accounts=(("a", "Ann"), ("c", "Coach"))),)
    record = GameRecord("g", "n", b"s" * 32, [("A", "", ""), ("B", "", "")], [],
                        {"winners": [1]}, accounts=("a", "b"), finished=1000.0,
                        settings=RoomSettings(tiers=tiers), match_id="g")
    for viewer in (OMNISCIENT, EVERY_HAND, 1):
        problem = access_problem(record, "a", viewer, now=5000.0, match_open=True)
        assert problem is not None and problem.code == mpb.ERROR_CODE_NOT_READY, viewer
        assert UNTIL_OVER in problem.message
        assert replay_problem(record, "a", viewer, now=5000.0) is None
    for viewer in (PUBLIC, 0):
        assert access_problem(record, "a", viewer, match_open=True) is None
    # Others are held to what their tier showed them (the coach: seat 1, once shown).
    assert access_problem(record, "c", 1, now=5000.0, match_open=True) is None
    for viewer in (OMNISCIENT, EVERY_HAND, 0):
        problem = access_problem(record, "c", viewer, now=5000.0, match_open=True)
        assert problem is not None and problem.code == mpb.ERROR_CODE_FORBIDDEN
    # A stranger is refused as before (FORBIDDEN: nothing said of the match).
    problem = access_problem(record, "eve", OMNISCIENT, match_open=True)
    assert problem is not None and problem.code == mpb.ERROR_CODE_FORBIDDEN


async def test_a_match_not_in_play_any_more_is_asked_of_the_store(tmp_path: Path) -> None:
    """The room gone (a restart, a stopped room): the stored match record says whether the
    match is over (a record that can't be found counts as open)."""
    async with running_app(tmp_path) as app:
        desk = app.replay_desk
        store_game(app.store, "r", ("ann", "bob"))
        record = app.store.load_game("r", actions=False)
        assert not await desk._match_open(record, "ann", OMNISCIENT)  # a single game
        from dataclasses import replace
        in_match = replace(record, match_id="r")
        assert await desk._match_open(in_match, "ann", OMNISCIENT)  # (no record: open)
        from server.store.records import PutMatch
        match = MatchRecord("r", 3, ("", ""), ("", ""), ("r",), (0, 1), 0)
        await app.writer.write([PutMatch(match)])
        assert await desk._match_open(in_match, "ann", OMNISCIENT)
        # Not asked where it changes nothing: a stranger, the public view, one's own seat.
        for account, viewer in (("eve", OMNISCIENT), ("ann", PUBLIC), ("ann", 0)):
            assert not await desk._match_open(in_match, account, viewer)
        await app.writer.write([PutMatch(replace(match, winner=1, reason="won"))])
        assert not await desk._match_open(in_match, "ann", OMNISCIENT)
