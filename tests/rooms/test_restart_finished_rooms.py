"""What a restart (a crash, or a stop) must not forget about a finished room and its rematch
(protocol/README.md, "Rematch", "Server restarts and crashes"), through the app over memory
streams, the server started again on the same store (``running_app`` twice, then
``App.recover``):

1. A player who left a finished (lingering) room has left it after a restart too (and after
   a second one): no rematch can be had ("Bob left the room"), the others are told so as they
   resume, and the leaver can't take its seat back -- not merely away.
2. A room the server made for players (a rematch's, a quick match's table) counts against
   their client addresses (``--max-rooms-per-address``) after a restart as before; so does a
   room a client created, against the creator's.
3. The old room of a rematch still says where the rematch is (``RematchStarted``) to its
   spectators after a restart -- those resuming and those joining it -- and they may watch
   it from there ("Watch the rematch"), as without the restart.
"""

from __future__ import annotations

from pathlib import Path

import trio
import trio.testing

from protocol.v1 import messages_pb2 as mpb
from server.app import App, Limits
from server.rooms.commands import Leave, Reattach
from server.rooms.recovery import recover
from server.rooms.room import Room, RoomConfig
from server.store.sqlite import Store
from tests.rooms.test_app_memory import running_app
from tests.rooms.test_app_rooms import Peer
from tests.rooms.test_matches import concede, keep, match_room
from tests.rooms.test_rematch_app import (
    _both_offer,
    _finished_game,
    _of,
    _settle,
    _tiered_rematch,
)
from tests.rooms.test_rematch_room import offers
from tests.rooms.test_room_machine import WELCOME, Driver


async def _resume(app: App, name: str, token: str) -> Peer:
    peer = Peer(app, name)
    reply = await peer.call(resume=mpb.Resume(protocol_version=1, resume_token=token))
    assert reply.HasField("resumed"), reply
    await _settle()
    peer.pump()
    return peer


def _cancelled(peer: Peer) -> list[str]:
    return [m.rematch_offers.cancelled for m in _of(peer, "rematch_offers")]


async def test_a_leave_from_a_finished_room_is_kept_across_two_restarts(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """Bob leaves the lingering room after the game (LeaveRoom): before the restart Ann and
    Cy are told there is no rematch (he left the room) and offering is refused. It was not
    stored: after a restart Bob's seat was only away -- Ann was told nothing, could offer a
    rematch and wait for him for good."""
    async with running_app(tmp_path) as app:
        ann, bob, cy, room_id, _code = await _finished_game(app, private=False)
        bob_name = app.lobby.rooms[room_id].seats[1].name  # type: ignore[union-attr]
        await bob.send(leave_room=mpb.LeaveRoom())
        await _settle()
        ann.pump(), cy.pump()
        before = f"{bob_name} left the room"
        assert _cancelled(ann) == [before] and _cancelled(cy) == [before]
        tokens = {"Ann": ann.token, "Bob": bob.token, "Cy": cy.token}
        app.shutdown()
    for _restart in range(2):
        async with running_app(tmp_path) as app:
            app.recover()
            room = app.lobby.rooms[room_id]
            assert room.finished
            assert [m is not None and m.left for m in room.seats] == [False, True]
            ann = await _resume(app, "Ann", tokens["Ann"])
            assert ann.got[0].resumed.joined.room.room_id == room_id
            # The player is told there is no rematch as it resumes, and offering is refused.
            assert _cancelled(ann) == [before]
            reply = await ann.call(offer_rematch=mpb.OfferRematch(offer=True))
            assert reply.error.code == mpb.ERROR_CODE_INVALID_ARGUMENT, reply
            assert reply.error.message == f"no rematch: {before}"
            # Bob resumes outside the room and may not take the seat back.
            bob = await _resume(app, "Bob", tokens["Bob"])
            assert not bob.got[0].resumed.HasField("joined")
            refused = await bob.call(join_room=mpb.JoinRoom(room_id=room_id,
                                                            role=mpb.ROLE_SPECTATOR))
            assert refused.error.message == \
                "you left this game (and conceded): you can't come back or watch it", refused
            cy = await _resume(app, "Cy", tokens["Cy"])
            assert cy.got[0].resumed.joined.room.room_id == room_id
            tokens = {"Ann": ann.token, "Bob": bob.token, "Cy": cy.token}
            app.shutdown()


async def test_a_leave_during_the_game_still_says_left_the_game_after_a_restart(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """Rule 104.3a: Bob leaves the running game (which concedes it): "Bob left the game" as
    it ends, before and after a restart -- not "left the room", said of a leave after it."""
    async with running_app(tmp_path) as app:
        ann, bob = Peer(app, "Ann"), Peer(app, "Bob")
        for p in (ann, bob):
            await p.hello()
        created = await ann.call(create_room=mpb.CreateRoom(name="r", clock_seconds=600,
                                                           join=True))
        room_id = created.room_created.room.room_id
        assert (await bob.call(join_room=mpb.JoinRoom(
            room_id=room_id, role=mpb.ROLE_PLAYER))).HasField("joined")
        await _settle()
        bob_name = app.lobby.rooms[room_id].seats[1].name  # type: ignore[union-attr]
        await bob.send(leave_room=mpb.LeaveRoom())
        await _settle()
        ann.pump()
        assert app.lobby.rooms[room_id].finished
        assert _cancelled(ann) == [f"{bob_name} left the game"]
        token = ann.token
        app.shutdown()
    async with running_app(tmp_path) as app:
        app.recover()
        ann = await _resume(app, "Ann", token)
        assert _cancelled(ann) == [f"{bob_name} left the game"]


async def test_server_made_and_created_rooms_count_per_address_after_a_restart(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """--max-rooms-per-address 2: a rematch game and a quick match's game, both left in
    play by players who dropped, hold their address's two open rooms -- after a restart
    too (before, they counted against nobody then: the limit was dodged by getting the
    server restarted). A created room of the address counts as well."""
    limits = Limits(max_rooms_per_address=2)
    async with running_app(tmp_path, limits) as app:
        ann, bob, _cy, _room, _code = await _finished_game(app, private=False)
        before = set(app.lobby.rooms)
        await ann.send(offer_rematch=mpb.OfferRematch(offer=True))
        await bob.send(offer_rematch=mpb.OfferRematch(offer=True))
        await _settle()
        (rematch,) = set(app.lobby.rooms) - before
        quick = [Peer(app, "Dee"), Peer(app, "Eve")]
        for p in quick:
            await p.hello()
            await p.send(quick_match=mpb.QuickMatch(seats=2))
        await _settle()
        started = [r for r in app.lobby.rooms.values()
                   if r.game is not None and not r.finished]
        assert len(started) == 2 and rematch in {r.room_id for r in started}
        app.shutdown()
    async with running_app(tmp_path, limits) as app:
        app.recover()
        assert len([r for r in app.lobby.rooms.values() if not r.finished]) == 2
        fay = Peer(app, "Fay")
        await fay.hello()
        refused = await fay.call(create_room=mpb.CreateRoom(name="mine", join=True))
        assert refused.error.code == mpb.ERROR_CODE_LIMIT_REACHED, refused
        assert "your address has 2 open rooms" in refused.error.message
        # A player of another address is not held back by them.
        gus = Peer(app, "Gus")
        gus.sock.address = "elsewhere"
        await gus.hello()
        created = await gus.call(create_room=mpb.CreateRoom(name="his", join=True))
        assert created.HasField("room_created"), created
        app.shutdown()
    async with running_app(tmp_path, limits) as app:  # (Gus's room: never started, gone)
        app.recover()
        gus = Peer(app, "Gus")
        gus.sock.address = "elsewhere"
        await gus.hello()
        for n in range(2):
            created = await gus.call(create_room=mpb.CreateRoom(name=f"his{n}"))
            assert created.HasField("room_created"), created


async def test_a_created_games_room_counts_for_its_creators_address_after_a_restart(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """The same for a room a client created and whose game it left in play."""
    limits = Limits(max_rooms_per_address=1)
    async with running_app(tmp_path, limits) as app:
        ann, bob = Peer(app, "Ann"), Peer(app, "Bob")
        bob.sock.address = "elsewhere"
        for p in (ann, bob):
            await p.hello()
        created = await ann.call(create_room=mpb.CreateRoom(name="r", join=True))
        room_id = created.room_created.room.room_id
        assert (await bob.call(join_room=mpb.JoinRoom(
            room_id=room_id, role=mpb.ROLE_PLAYER))).HasField("joined")
        await _settle()
        assert app.lobby.rooms[room_id].game is not None
        app.shutdown()
    async with running_app(tmp_path, limits) as app:
        app.recover()
        cy = Peer(app, "Cy")
        await cy.hello()
        refused = await cy.call(create_room=mpb.CreateRoom(name="mine", join=True))
        assert refused.error.code == mpb.ERROR_CODE_LIMIT_REACHED, refused
        dee = Peer(app, "Dee")
        dee.sock.address = "elsewhere"  # (the joiner's address: not the creator's)
        await dee.hello()
        assert (await dee.call(create_room=mpb.CreateRoom(name="d"))).HasField("room_created")


async def test_l6_the_old_rooms_spectators_are_told_where_the_rematch_is_after_a_restart(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """Cy watched the old room as its players started a rematch; the server restarts. Cy
    resumes into the old room: it says where the rematch is (RematchStarted, as before the
    restart), so the players shown away there went to it; Dee, a new spectator of the old
    room, is told too; Cy then watches the rematch from there. Before, after a restart the
    old room said nothing of the rematch: its players merely looked disconnected."""
    async with running_app(tmp_path) as app:
        ann, bob, cy, room_id, _code = await _finished_game(app, private=False)
        told = await _both_offer(ann, bob, cy)
        new_id = told.new_room_id
        assert told.old_room_id == room_id and new_id
        token = cy.token
        app.shutdown()
    async with running_app(tmp_path) as app:
        app.recover()
        assert app.lobby.rooms[room_id].finished and not app.lobby.rooms[new_id].finished
        cy = await _resume(app, "Cy", token)
        assert cy.got[0].resumed.joined.room.room_id == room_id
        assert [(m.rematch_started.old_room_id, m.rematch_started.new_room_id,
                 m.rematch_started.invite_code) for m in _of(cy, "rematch_started")] == [
            (room_id, new_id, "")]
        dee = Peer(app, "Dee")
        await dee.hello()
        joined = await dee.call(join_room=mpb.JoinRoom(room_id=room_id,
                                                       role=mpb.ROLE_SPECTATOR))
        assert joined.HasField("joined"), joined
        await _settle()
        dee.pump()
        assert [m.rematch_started.new_room_id for m in _of(dee, "rematch_started")] == [new_id]
        # "Watch the rematch": leave the old room, watch the new one.
        await cy.send(leave_room=mpb.LeaveRoom())
        watching = await cy.call(join_room=mpb.JoinRoom(room_id=new_id,
                                                        role=mpb.ROLE_SPECTATOR))
        assert watching.joined.room.room_id == new_id, watching
        # Nobody may offer a rematch in the old room any more (its players went to it).
        assert app.lobby.rooms[room_id].rematch_room == new_id



async def test_a_quick_matchs_last_seated_player_counts_after_a_restart_too(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """A quick match's table counts against each player's address as it is seated; the
    last one's seating starts (and stores) the game, so its address is stored just after:
    after a restart the room counts against both addresses."""
    limits = Limits(max_rooms_per_address=1)
    async with running_app(tmp_path, limits) as app:
        dee, eve = Peer(app, "Dee"), Peer(app, "Eve")
        eve.sock.address = "other"
        for p in (dee, eve):
            await p.hello()
            await p.send(quick_match=mpb.QuickMatch(seats=2))
            await _settle()
        assert [r.game is not None for r in app.lobby.rooms.values()] == [True]
        app.shutdown()
    async with running_app(tmp_path, limits) as app:
        app.recover()
        for address in ("memory", "other"):
            fay = Peer(app, f"Fay-{address}")
            fay.sock.address = address
            await fay.hello()
            refused = await fay.call(create_room=mpb.CreateRoom(name="mine", join=True))
            assert refused.error.code == mpb.ERROR_CODE_LIMIT_REACHED, (address, refused)


async def test_l6_a_delayed_tier_of_the_old_room_tells_the_rematch_after_a_restart_in_time(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """A public tier 120 s behind: its spectator, joining the old room's tier again after a
    restart (a delayed tier's place is not kept), is told where the rematch is once its view
    has shown the game's end -- not at once, not never."""
    async with running_app(tmp_path) as app:
        cy, room_id, code, new_id = await _tiered_rematch(app)
        token = cy.token
        app.shutdown()
    async with running_app(tmp_path) as app:
        app.recover()
        cy = await _resume(app, "Cy", token)
        joined = await cy.call(join_room=mpb.JoinRoom(room_id=room_id, tier=1,
                                                      invite_code=code,
                                                      role=mpb.ROLE_SPECTATOR))
        assert joined.joined.tier == 1, joined
        await _settle()
        cy.pump()
        assert _of(cy, "rematch_started") == []  # (its view hasn't shown the end yet)
        await trio.sleep(180)
        cy.pump()
        assert [m.rematch_started.new_room_id for m in _of(cy, "rematch_started")] == [new_id]


def _reloaded(d: Driver, tmp_path: Path) -> Room:
    """The room as a restart reloads it from what it stored (a finished one lingering)."""
    store = Store(tmp_path / "db.sqlite3")
    try:
        store.apply(d.log)  # type: ignore[arg-type]
        [record] = store.unfinished_games(finished_within=3600)
    finally:
        store.close()
    return recover(record, 100.0, RoomConfig(history=10_000))


def test_rule_100_6a_a_leave_after_a_matchs_end_is_kept_by_a_restart(tmp_path: Path) -> None:
    """Bob wins a best of 3, 2-0; Ann leaves the room after: after a restart she has left
    and no rematch can be had, as the room said before."""
    d = match_room(3)
    concede(d, 0)
    keep(d, 0), keep(d, 1)
    concede(d, 0)
    assert d.room.finished and d.room.match_winner == 1
    d.rid += 1
    d.do(Leave(1, d.rid))
    said = f"{d.room.seats[0].name} left the room"  # type: ignore[union-attr]
    assert offers(d.take(2))[-1].rematch_offers.cancelled == said
    room = _reloaded(d, tmp_path)
    assert room.finished and [m.left for m in room.seats if m is not None] == [True, False]
    reloaded = Driver(room)
    assert reloaded.do(Reattach(9, 5, "s2", "p2", 0, "a2", WELCOME)).accepted
    assert offers(reloaded.take(9))[-1].rematch_offers.cancelled == said


def test_rule_100_6a_a_leave_between_games_says_left_the_game_after_a_restart(
        tmp_path: Path) -> None:
    """Leaving while sideboarding concedes the match: "left the game" -- not the room --
    after a restart too."""
    d = match_room(3)
    concede(d, 1)
    d.rid += 1
    d.do(Leave(1, d.rid))
    assert d.room.finished
    said = f"{d.room.seats[0].name} left the game"  # type: ignore[union-attr]
    assert offers(d.take(2))[-1].rematch_offers.cancelled == said
    room = _reloaded(d, tmp_path)
    reloaded = Driver(room)
    assert reloaded.do(Reattach(9, 5, "s2", "p2", 0, "a2", WELCOME)).accepted
    assert offers(reloaded.take(9))[-1].rematch_offers.cancelled == said


async def test_a_rematch_counts_for_the_old_rooms_creator_after_a_restart_only_if_it_plays(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """As when it was made (rev8 LOW): Hal created a room for Ann and Bob without a seat;
    their rematch doesn't count against his rooms (--max-rooms-per-account), after a
    restart either. Ann's rematch of her own room counts for her."""
    async with running_app(tmp_path) as app:
        hal, ann, bob = Peer(app, "Hal"), Peer(app, "Ann"), Peer(app, "Bob")
        for p in (hal, ann, bob):
            await p.hello()
        created = await hal.call(create_room=mpb.CreateRoom(name="theirs", clock_seconds=600))
        hosted = created.room_created.room.room_id
        for p in (ann, bob):
            joined = await p.call(join_room=mpb.JoinRoom(room_id=hosted, role=mpb.ROLE_PLAYER))
            assert joined.HasField("joined"), joined
        await _settle()
        await ann.send(concede=mpb.ConcedeGame())
        await _settle()
        before = set(app.lobby.rooms)
        await ann.send(offer_rematch=mpb.OfferRematch(offer=True))
        await bob.send(offer_rematch=mpb.OfferRematch(offer=True))
        await _settle()
        (theirs,) = set(app.lobby.rooms) - before
        hal_id = app.lobby.rooms[hosted].settings.creator
        assert theirs not in app.accounts.by_id[hal_id].created_rooms
        app.shutdown()
    async with running_app(tmp_path) as app:
        app.recover()
        assert app.lobby.rooms[theirs].game is not None
        assert app.accounts.by_id[hal_id].created_rooms == {hosted}
    async with running_app(tmp_path / "own") as app:
        ann, bob, _cy, room_id, _code = await _finished_game(app, private=False)
        await ann.send(offer_rematch=mpb.OfferRematch(offer=True))
        await bob.send(offer_rematch=mpb.OfferRematch(offer=True))
        await _settle()
        ann_id = app.lobby.rooms[room_id].settings.creator
        (own,) = set(app.lobby.rooms) - {room_id}
        app.shutdown()
    async with running_app(tmp_path / "own") as app:
        app.recover()
        assert app.accounts.by_id[ann_id].created_rooms == {room_id, own}
