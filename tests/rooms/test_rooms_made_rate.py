"""Rooms are made at a rate per client address (``--room-burst``, ``--rooms-per-minute``;
atk10 LOW): a finished room counts for no room limit and every game is stored for good, so
one connection made ~6 rooms a second for ever -- a game against the computer, concede,
rematch (the computer offers at once), concede, rematch... -- and the store grew ~0.5 GB a
day. The same with two guests of one address rematching each other, and with quick match.
Rooms created (CreateRoom) and rooms the server makes for players (a quick match's table, a
rematch) take a token of their addresses' buckets; past them the request is refused in
words, with the seconds to wait, and a refused request makes no room and takes no token."""

from __future__ import annotations

import re
from pathlib import Path

import trio
import trio.testing

from protocol.v1 import messages_pb2 as mpb
from server.app import App, Limits
from tests.rooms.test_app_memory import running_app
from tests.rooms.test_app_rooms import Peer
from tests.rooms.test_server_made_rooms_count import _errors, _finished, _rematched


def _rate_said(whose: str, per_minute: str) -> re.Pattern[str]:
    """The refusal's words: a request may be tried again; a refused rematch can't (its
    players are released), so it says when a new room can be made."""
    then = "a new room can be made in" if whose == "a player's" else "try again in"
    return re.compile(rf"{whose} address made too many rooms lately \(at most {per_minute} "
                      rf"a minute\): {then} (\d+) s")


async def _peer(app: App, name: str, address: str = "memory") -> Peer:
    peer = Peer(app, name)
    peer.sock.address = address
    await peer.hello()
    return peer


def _got(peer: Peer) -> list[mpb.ServerMessage]:
    """Everything ``peer`` got so far."""
    peer.pump()
    return peer.got


async def _create(peer: Peer, **fields: object) -> mpb.ServerMessage:
    return await peer.call(create_room=mpb.CreateRoom(name="r", **fields))  # type: ignore[arg-type]


async def test_rooms_created_from_one_address_past_its_burst_are_refused_until_refilled(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    limits = Limits(room_burst=3, rooms_per_minute=6)  # (one every 10 s)
    async with running_app(tmp_path, limits) as app:
        peers = [await _peer(app, f"P{n}") for n in range(4)]
        # A CreateRoom refused for another reason takes no token.
        bad = await _create(peers[0], reserved=["nobody-at-all"])
        assert bad.error.code == mpb.ERROR_CODE_INVALID_ARGUMENT, bad
        for p in peers[:3]:
            assert (await _create(p)).HasField("room_created")
        rooms = set(app.lobby.rooms)
        refused = await _create(peers[3], join=True, computers=1)
        assert refused.error.code == mpb.ERROR_CODE_RATE_LIMITED, refused
        assert refused.error.message == ("your address made too many rooms lately (at most 6 "
                                         "a minute): try again in 10 s")
        assert set(app.lobby.rooms) == rooms  # no room made
        # Another address's bucket is its own.
        other = await _peer(app, "Oz", "other")
        assert (await _create(other)).HasField("room_created")
        await trio.sleep(9)
        refused = await _create(peers[3])
        assert refused.error.message.endswith("try again in 1 s"), refused
        await trio.sleep(1)
        assert (await _create(peers[3])).HasField("room_created")
        refused = await _create(peers[3])
        assert refused.error.code == mpb.ERROR_CODE_RATE_LIMITED, refused


async def test_conceding_to_the_computer_and_rematching_is_refused_past_the_burst(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    """The attacker's loop: each rematch is made at once (the computer offered), each game
    stored. Past the burst the rematch is refused as one for any room limit ("no rematch:
    ...", the player in no room), saying when to try again -- and then it works."""
    async with running_app(tmp_path, Limits(room_burst=3, rooms_per_minute=1)) as app:
        ann = await _peer(app, "Ann")
        created = await _create(ann, join=True, computers=1)
        assert created.HasField("room_created"), created
        room_id = created.room_created.room.room_id
        for n in range(3):  # (bounded: two rematches fit in the burst, the third doesn't)
            ann.got.clear()
            await ann.send(concede=mpb.ConcedeGame())
            await trio.sleep(0.1)
            rooms = set(app.lobby.rooms)
            await ann.send(offer_rematch=mpb.OfferRematch(offer=True))
            await trio.sleep(0.1)
            started = [m.rematch_started for m in _got(ann)
                       if m.HasField("rematch_started")]
            if n < 2:
                assert len(started) == 1, (n, _errors(ann))
                room_id = started[0].new_room_id
                assert app.lobby.rooms[room_id].game is not None
                continue
            assert not started and set(app.lobby.rooms) == rooms  # no room made
            (why,) = [msg for code, msg in _errors(ann) if code == mpb.ERROR_CODE_LIMIT_REACHED]
            said = _rate_said("a player's", "1").fullmatch(why.removeprefix("no rematch: "))
            assert said is not None, why
            wait = int(said.group(1))
            assert 58 <= wait <= 60
        refused = await _create(ann, join=True, computers=1)
        assert refused.error.code == mpb.ERROR_CODE_RATE_LIMITED, refused
        await trio.sleep(wait)
        again = await _create(ann, join=True, computers=1)
        assert again.HasField("room_created"), again


async def test_two_guests_of_one_address_rematching_each_other_are_refused_past_the_burst(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    async with running_app(tmp_path, Limits(room_burst=2, rooms_per_minute=1)) as app:
        ann, bob, _room = await _finished(app, ("Ann", "Bob"))  # (the first room: a token)
        before = set(app.lobby.rooms)
        await _rematched(ann, bob)  # (the second)
        (made,) = set(app.lobby.rooms) - before
        await ann.send(concede=mpb.ConcedeGame())
        await trio.sleep(1)
        assert app.lobby.rooms[made].finished
        rooms = set(app.lobby.rooms)
        await _rematched(ann, bob)
        assert set(app.lobby.rooms) == rooms
        for p in (ann, bob):
            assert any(code == mpb.ERROR_CODE_LIMIT_REACHED and _rate_said(
                "a player's", "1").fullmatch(msg.removeprefix("no rematch: "))
                for code, msg in _errors(p)), _errors(p)


async def test_a_rematch_refused_for_one_address_takes_no_token_of_the_others(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    """Every address is checked before any token is taken: Bob's address, not over its
    rate, still has its whole burst after the rematch was refused for Ann's."""
    async with running_app(tmp_path, Limits(room_burst=2, rooms_per_minute=1)) as app:
        ann = await _peer(app, "Ann")
        bob = await _peer(app, "Bob", "other")
        room_id = await ann.create()
        for p in (ann, bob):
            assert (await p.join(room_id)).HasField("joined")
        cy = await _peer(app, "Cy")  # Ann's address's last token
        assert (await _create(cy)).HasField("room_created")
        await ann.send(concede=mpb.ConcedeGame())
        await trio.sleep(1)
        rooms = set(app.lobby.rooms)
        await _rematched(ann, bob)
        assert set(app.lobby.rooms) == rooms  # no room made
        # (Said with what can be done: the rematch can't be offered again.)
        assert any(msg.startswith("no rematch: a player's address made too many rooms")
                   and "a new room can be made in" in msg
                   for _code, msg in _errors(bob)), _errors(bob)
        for _ in range(2):
            assert (await _create(bob)).HasField("room_created")
        refused = await _create(bob)
        assert refused.error.code == mpb.ERROR_CODE_RATE_LIMITED, refused


async def test_a_quick_match_past_the_addresss_rate_is_refused_and_makes_no_room(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    async with running_app(tmp_path, Limits(room_burst=1, rooms_per_minute=1)) as app:
        ann, bob = await _peer(app, "Ann"), await _peer(app, "Bob")
        for p in (ann, bob):
            await p.send(quick_match=mpb.QuickMatch())
        await trio.sleep(1)
        assert any(m.HasField("joined") for m in _got(ann))  # one room, one token
        rooms = set(app.lobby.rooms)
        cy = await _peer(app, "Cy")
        refused = await cy.call(quick_match=mpb.QuickMatch())
        assert refused.error.code == mpb.ERROR_CODE_RATE_LIMITED, refused
        assert _rate_said("your", "1").fullmatch(refused.error.message), refused
        assert set(app.lobby.rooms) == rooms


async def test_a_quick_match_table_is_not_made_for_an_address_over_its_rate_since_it_queued(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    """Ann queued with a token left; her address spent it (another connection created a
    room) before Eve, elsewhere, completed the table: Ann is refused, with her QuickMatch's
    id, and leaves the queue; Eve waits on, queued, her address's token untouched."""
    async with running_app(tmp_path, Limits(room_burst=1, rooms_per_minute=1)) as app:
        ann = await _peer(app, "Ann")
        queued = await ann.call(quick_match=mpb.QuickMatch())
        assert queued.match_queue.queued, queued
        cy = await _peer(app, "Cy")
        assert (await _create(cy)).HasField("room_created")
        rooms = set(app.lobby.rooms)
        eve = await _peer(app, "Eve", "other")
        await eve.send(quick_match=mpb.QuickMatch())
        await trio.sleep(1)
        assert set(app.lobby.rooms) == rooms  # no room made
        (refused,) = [m for m in _got(ann)
                      if m.request_id == queued.request_id and m.HasField("error")]
        assert refused.error.code == mpb.ERROR_CODE_RATE_LIMITED, refused
        assert _rate_said("your", "1").fullmatch(refused.error.message), refused
        assert not any(m.HasField("joined") or m.HasField("error") for m in _got(eve))
        # Eve is still queued, and her address still has its token: the next player seats.
        fay = await _peer(app, "Fay", "third")
        await fay.send(quick_match=mpb.QuickMatch())
        await trio.sleep(1)
        assert any(m.HasField("joined") for m in _got(eve)), eve.got
