"""A room's audience code (protocol/README.md, "Invite and audience codes"): the code a
stream's watch links carry lets its holder watch -- live where the room takes a code for it,
the tiers open to "anyone with the invite link", the replays those could watch -- but never
take a seat (new-user round HIGH: the tier link carried the players' invite code, so anyone
in a stream's audience could take a seat before the players arrived)."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
import trio.testing

from protocol.v1 import messages_pb2 as mpb
from server.decks import DeckFormat, resolve
from server.replay import access_problem, hidden_from
from server.rooms.commands import Join
from server.rooms.recovery import recover
from server.rooms.room import AUDIENCE_ONLY, Room, RoomConfig
from server.store import Store
from server.store.records import (
    CreateGame,
    RoomSettings,
    Spectate,
    SpectatorTier,
    TierKind,
    secret_hash,
)
from server.view import SPECTATOR
from server.view.project import EVERY_HAND
from tests.rooms.test_app_memory import running_app
from tests.rooms.test_app_rooms import Peer
from tests.rooms.test_matches import REGISTERED
from tests.rooms.test_rematch_app import _settle
from tests.rooms.test_replay_app import store_game
from tests.rooms.test_room_machine import Driver, errors

INVITE = "players-code"
AUDIENCE = "audience-code"
#: The stream's tier: every hand, a minute behind, open to "anyone with the invite link".
EVERY_HAND_TIER = SpectatorTier(TierKind.OMNISCIENT, delay_seconds=60, invite=True)


def streamed(*, private: bool = True, spectate: Spectate = Spectate.INVITE,
             audience: bool = True) -> RoomSettings:
    """The host's stream room: no seat of the host's, the every-hand tier open to the code."""
    return RoomSettings(private=private, invite_hash=secret_hash(INVITE), spectate=spectate,
                        creator="host", tiers=(EVERY_HAND_TIER,),
                        audience_hash=secret_hash(AUDIENCE) if audience else b"")


def room(settings: RoomSettings) -> Driver:
    return Driver(Room("r1", "stream", 2, 0.0, RoomConfig(), settings=settings))


def join(d: Driver, conn: int, code: str, *, spectator: bool = False, tier: int = 0) -> bool:
    d.rid += 1
    deck = None if spectator else resolve("naya-pets", DeckFormat.CONSTRUCTED)
    return d.do(Join(conn, d.rid, f"s{conn}", f"p{conn}", spectator, deck, f"a{conn}",
                     code, tier)).accepted


@pytest.mark.parametrize("private", [True, False])
def test_the_audience_code_takes_no_seat_and_says_why(private: bool) -> None:
    d = room(streamed(private=private))
    assert not join(d, 1, AUDIENCE)
    got = d.take(1)
    assert errors(got) == [mpb.ERROR_CODE_FORBIDDEN]
    assert got[-1].error.message == AUDIENCE_ONLY == \
        "this link lets you watch, not play: ask the host for a seat link"
    assert all(m is None for m in d.room.seats)
    # The players' code seats them as before.
    assert join(d, 2, INVITE) and join(d, 3, INVITE)
    assert [m.account_id for m in d.room.seats if m is not None] == ["a2", "a3"]


def test_the_audience_code_watches_live_and_the_tier_open_to_the_invite_link() -> None:
    d = room(streamed())
    assert join(d, 1, AUDIENCE, spectator=True)
    assert join(d, 2, AUDIENCE, spectator=True, tier=1)
    assert [m.tier for m in d.room.spectators.values()] == [0, 1]
    assert all(m.seat == SPECTATOR for m in d.room.spectators.values())
    # A wrong code still opens nothing (and a private room stays hidden to it).
    assert not join(d, 3, "guess", spectator=True, tier=1)
    assert errors(d.take(3)) == [mpb.ERROR_CODE_ROOM_NOT_FOUND]


def test_a_tier_not_open_to_the_invite_link_stays_shut_to_the_audience_code() -> None:
    named = SpectatorTier(TierKind.OMNISCIENT, delay_seconds=60, accounts=(("aw", "w"),))
    d = room(RoomSettings(invite_hash=secret_hash(INVITE), tiers=(named,),
                          audience_hash=secret_hash(AUDIENCE)))
    assert not join(d, 1, AUDIENCE, spectator=True, tier=1)
    assert errors(d.take(1)) == [mpb.ERROR_CODE_FORBIDDEN]


def test_a_player_who_came_with_the_audience_code_is_not_told_the_rematchs_code() -> None:
    """Only a player who knew the invite code is told a rematch's (Member.knows_code): a
    public room's player can't get it by presenting the audience code -- it is refused."""
    d = room(streamed(private=False, spectate=Spectate.ALLOWED))
    assert not join(d, 1, AUDIENCE)
    assert join(d, 1, "")
    (member,) = [m for m in d.room.seats if m is not None]
    assert not member.knows_code


def test_a_room_stored_before_audience_codes_keeps_working_after_a_restart(
        tmp_path: Path) -> None:
    """A room stored before rooms had an audience code comes back with none: its watchers
    keep using the invite code (its watch links said it), and no code (an empty one least
    of all) is taken for an audience code."""
    old = streamed(audience=False)
    raw = old.to_json()
    assert '"audience_hash": ""' in raw
    stored_before = raw.replace(', "audience_hash": ""', "").replace('"audience_hash": "", ', "")
    assert "audience_hash" not in stored_before
    assert RoomSettings.from_json(stored_before) == old
    new = streamed()
    assert RoomSettings.from_json(new.to_json()) == new  # the hash survives a reload
    deck = resolve("naya-pets", DeckFormat.CONSTRUCTED)
    for settings, code, seats in ((old, INVITE, True), (new, AUDIENCE, False)):
        store = Store(tmp_path / f"{code}.sqlite3")
        store.apply([CreateGame("r1", "stream", b"s" * 32,
                                (("A", deck.text, "s1"), ("B", deck.text, "s2")),
                                1800.0, ("a1", "a2"), settings)])
        store.close()
        store = Store(tmp_path / f"{code}.sqlite3")
        (record,) = store.unfinished_games()
        store.close()
        d = Driver(recover(record, 0.0))
        assert join(d, 7, code, spectator=True, tier=1), code
        assert join(d, 8, code, spectator=True), code
        for empty in ("", " "):
            assert not join(d, 9, empty, spectator=True, tier=1)
            d.take(9)
        # The restored room's audience code still takes no seat (nor would one be free).
        if not seats:
            assert not join(d, 10, AUDIENCE)
            assert d.take(10)[-1].error.message == AUDIENCE_ONLY


def test_a_replay_of_a_code_room_takes_either_code(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite3")
    store_game(store, "r1", ("a1", "a2"), settings=streamed(spectate=Spectate.INVITE))
    store_game(store, "r0", ("a1", "a2"), settings=streamed(audience=False))
    new, old = store.load_game("r1"), store.load_game("r0")
    store.close()
    for code in (INVITE, AUDIENCE):
        assert not hidden_from(new, "ae", SPECTATOR, code)
        assert access_problem(new, "ae", SPECTATOR, code, 1e12) is None, code
    assert hidden_from(new, "ae", SPECTATOR, "guess")
    assert access_problem(old, "ae", SPECTATOR, INVITE, 1e12) is None
    assert access_problem(old, "ae", SPECTATOR, AUDIENCE, 1e12) is not None
    assert access_problem(new, "ae", EVERY_HAND, AUDIENCE, 1e12) is None


async def test_through_the_app_the_audience_code_watches_the_rematch_but_takes_no_seat(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    """The creator is told both codes; a watcher of a room watched only with a code
    (SPECTATE_INVITE) who came with the audience code is told the rematch's audience code
    -- never its invite code -- and watches the rematch with it, but can't take a seat."""
    async with running_app(tmp_path) as app:
        ann, bob, cy = Peer(app, "Ann"), Peer(app, "Bob"), Peer(app, "Cy")
        for p in (ann, bob, cy):
            await p.hello()
        created = (await ann.call(create_room=mpb.CreateRoom(
            name="stream", clock_seconds=900, spectate=mpb.SPECTATE_INVITE, join=True,
            deck=REGISTERED))).room_created
        room_id, code = created.room.room_id, created.invite_code
        audience = created.audience_code
        assert audience and code and audience != code
        settings = app.lobby.rooms[room_id].settings
        assert settings.audience_hash == secret_hash(audience)  # (the hash alone is kept)
        refused = await cy.call(join_room=mpb.JoinRoom(room_id=room_id, role=mpb.ROLE_PLAYER,
                                                       invite_code=audience))
        assert (refused.error.code, refused.error.message) == (
            mpb.ERROR_CODE_FORBIDDEN, AUDIENCE_ONLY)
        reply = await cy.call(join_room=mpb.JoinRoom(room_id=room_id, role=mpb.ROLE_SPECTATOR,
                                                     invite_code=audience))
        assert reply.HasField("joined"), reply
        await _settle()
        reply = await bob.call(join_room=mpb.JoinRoom(room_id=room_id, role=mpb.ROLE_PLAYER,
                                                      deck="golgari-grind"))
        assert reply.joined.seat == 1
        await ann.send(concede=mpb.ConcedeGame())
        await _settle()
        for p in (ann, bob, cy):
            p.pump()
            p.got.clear()
        await ann.send(offer_rematch=mpb.OfferRematch(offer=True))
        await bob.send(offer_rematch=mpb.OfferRematch(offer=True))
        await _settle()
        for p in (ann, cy):
            p.pump()
        (to_ann,) = [m.rematch_started for m in ann.got if m.HasField("rematch_started")]
        (to_cy,) = [m.rematch_started for m in cy.got if m.HasField("rematch_started")]
        new_id = to_ann.new_room_id
        assert to_ann.invite_code and to_ann.audience_code
        assert (to_cy.new_room_id, to_cy.invite_code, to_cy.audience_code) == (
            new_id, "", to_ann.audience_code)
        await cy.send(leave_room=mpb.LeaveRoom())
        await _settle()
        reply = await cy.call(join_room=mpb.JoinRoom(room_id=new_id, role=mpb.ROLE_SPECTATOR,
                                                     invite_code=to_cy.audience_code))
        assert reply.HasField("joined"), reply
