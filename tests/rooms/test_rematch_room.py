"""The rematch, as the sans-I/O room keeps it (protocol/README.md, "Rematch"): offers once the
game (of a match, the match) is over, withdrawals, refusals, cancelling, and -- once every
player has offered -- the plan the app makes the new room from, the players released."""

from __future__ import annotations

import pytest

from protocol.v1 import messages_pb2 as mpb
from server.rooms.commands import (
    ConcedeGame,
    Disconnect,
    Join,
    Leave,
    OfferRematch,
    Publish,
    Reattach,
    RematchMade,
    SubmitDeck,
    Tick,
)
from server.rooms.room import Room, RoomConfig, rematch_name
from server.rooms.session import MAX_ROOM_NAME
from server.store.records import (
    RoomSettings,
    Spectate,
    SpectatorTier,
    TierKind,
    secret_hash,
)
from tests.rooms.test_room_machine import WELCOME, Driver, errors, seat_conn, two_player_room

SPECTATOR_CONN = 7
DELAYED = 8
#: Seats reserved for the two players (how they take seats in a private room here).
SEATS = (("a1", "p1"), ("a2", "p2"))


def over(d: Driver) -> None:
    """Seat 0 concedes (rule 104.3a): the game is over; what was sent so far is dropped."""
    d.do(ConcedeGame(seat_conn(d, 0), 90))
    assert d.room.finished
    for conn in list(d.got):
        d.take(conn)


def offers(msgs: list[mpb.ServerMessage]) -> list[mpb.ServerMessage]:
    return [m for m in msgs if m.HasField("rematch_offers")]


def watched_room(settings: RoomSettings | None = None) -> Driver:
    d = Driver(Room("r1", "friends", 2, 0.0, RoomConfig(), clock_seconds=600,
                    settings=settings))
    assert d.join(SPECTATOR_CONN, spectator=True).accepted
    assert d.join(1, deck="naya-pets").accepted
    assert d.join(2, deck="golgari-grind").accepted
    return d


def test_a_rematch_offered_before_the_game_is_over_is_refused_not_ready() -> None:
    d = two_player_room()
    out = d.do(OfferRematch(1, 5))
    assert out.rematch is None
    got = d.take(1)
    assert errors(got) == [mpb.ERROR_CODE_NOT_READY]
    assert got[-1].error.message == \
        "the game isn't over yet: a rematch can be offered once it has ended"
    assert not any(d.room.rematch_offers)


def test_rule_100_6a_between_the_games_of_a_match_no_rematch_yet() -> None:
    d = Driver(Room("r1", "match", 2, 0.0, settings=RoomSettings(best_of=3)))
    assert d.join(1, deck="naya-pets").accepted and d.join(2, deck="golgari-grind").accepted
    d.do(ConcedeGame(1, 3))
    assert d.room.sideboarding
    d.take(1)
    d.do(OfferRematch(1, 4))
    assert [m.error.message for m in d.take(1) if m.HasField("error")] == [
        "the match isn't over yet: a rematch can be offered once it has ended"]


def test_an_offer_is_told_to_every_player_and_live_spectator_and_can_be_withdrawn() -> None:
    d = watched_room()
    over(d)
    out = d.do(OfferRematch(2, 11))
    assert out.rematch is None
    mine, theirs, watcher = offers(d.take(2)), offers(d.take(1)), offers(d.take(SPECTATOR_CONN))
    assert [m.request_id for m in mine] == [11]  # the answer to the request
    assert [m.request_id for m in theirs] == [0]  # "p2 wants a rematch"
    for m in (*mine, *theirs, *watcher):
        assert list(m.rematch_offers.offered) == [False, True]
        assert m.rematch_offers.room_id == "r1" and not m.rematch_offers.cancelled
    assert len(watcher) == 1
    d.do(OfferRematch(2, 12, offer=False))
    assert [list(m.rematch_offers.offered) for m in offers(d.take(1))] == [[False, False]]


def test_a_spectators_offer_is_refused_as_any_players_only_request() -> None:
    d = watched_room()
    over(d)
    d.do(OfferRematch(SPECTATOR_CONN, 3))
    got = d.take(SPECTATOR_CONN)
    assert errors(got) == [mpb.ERROR_CODE_NOT_YOUR_DECISION]
    assert got[-1].error.message == "you hold no seat in this room"
    assert not any(d.room.rematch_offers)


def test_a_player_who_leaves_cancels_the_rematch_and_later_offers_are_refused() -> None:
    d = watched_room()
    over(d)
    d.do(OfferRematch(1, 3))
    d.take(1)
    d.do(Leave(2, 4))
    told = offers(d.take(1))
    assert [m.rematch_offers.cancelled for m in told] == ["p2 left the room"]
    assert list(told[-1].rematch_offers.offered) == [False, False]
    assert offers(d.take(SPECTATOR_CONN))[-1].rematch_offers.cancelled == "p2 left the room"
    out = d.do(OfferRematch(1, 5))
    assert out.rematch is None
    got = d.take(1)
    assert errors(got) == [mpb.ERROR_CODE_INVALID_ARGUMENT]
    assert got[-1].error.message == "no rematch: p2 left the room"


def test_a_player_who_drops_withdraws_its_offer_and_may_offer_again_once_back() -> None:
    d = watched_room()
    over(d)
    d.do(OfferRematch(1, 3))
    d.do(Disconnect(1))
    assert list(offers(d.take(2))[-1].rematch_offers.offered) == [False, False]
    out = d.do(OfferRematch(2, 4))  # the other one's offer alone starts nothing
    assert out.rematch is None
    assert d.do(Reattach(9, 5, "s1", "p1", 0, "a1", WELCOME)).accepted
    assert list(offers(d.take(9))[-1].rematch_offers.offered) == [False, True]
    assert d.do(OfferRematch(9, 6)).rematch is not None


def test_rule_103_1_once_every_player_offered_the_plan_keeps_seats_decks_and_settings() -> None:
    """Same seats order; the new game's own starting-player procedure (103.1) runs there;
    each player's deck is the one it registered (100.4)."""
    settings = RoomSettings(spectate=Spectate.ALLOWED, format="constructed")
    d = watched_room(settings)
    registered = [m.registered for m in d.room.seats if m is not None]
    over(d)
    assert d.do(OfferRematch(2, 3)).rematch is None
    d.take(1)
    out = d.do(OfferRematch(1, 4))
    plan = out.rematch
    assert plan is not None
    assert (plan.room_id, plan.name, plan.seats, plan.clock_seconds) == (
        "r1", "friends (rematch)", 2, 600)
    assert [(p.session_id, p.name, p.account_id) for p in plan.players] == [
        ("s1", "p1", "a1"), ("s2", "p2", "a2")]
    assert [p.deck for p in plan.players] == registered
    assert sorted(out.released) == [1, 2]
    assert d.room.member_of(1) is None and d.room.member_of(2) is None
    assert [m.request_id for m in offers(d.take(1))] == [4]
    assert list(offers(d.take(2))[-1].rematch_offers.offered) == [True, True]
    # Offers once it is agreed: refused (the players are in no room here any more).
    d.do(OfferRematch(SPECTATOR_CONN, 5))
    assert errors(d.take(SPECTATOR_CONN)) == [mpb.ERROR_CODE_NOT_YOUR_DECISION]


def test_rule_100_4_a_match_rematch_plays_the_registered_decks_not_the_sideboarded_ones(
) -> None:
    d = Driver(Room("r1", "match", 2, 0.0, settings=RoomSettings(best_of=3)))
    assert d.join(1, deck="naya-pets").accepted and d.join(2, deck="golgari-grind").accepted
    registered = [m.registered for m in d.room.seats if m is not None]
    for game in range(2):  # seat 0 concedes twice: the match is over (100.6a)
        d.do(ConcedeGame(seat_conn(d, 0), 10 + game))
        if game == 0:
            d.do(SubmitDeck(1, 20))
            d.do(SubmitDeck(2, 21))
    assert d.room.finished
    d.do(OfferRematch(1, 30))
    plan = d.do(OfferRematch(2, 31)).rematch
    assert plan is not None and [p.deck for p in plan.players] == registered


def test_spectators_are_told_where_the_rematch_is_and_a_private_rooms_learn_only_that() -> None:
    for private in (False, True):
        settings = RoomSettings(private=private, spectate=Spectate.ALLOWED, reserved=SEATS)
        d = watched_room(settings)
        over(d)
        d.do(OfferRematch(1, 3))
        assert d.do(OfferRematch(2, 4)).rematch is not None
        d.take(SPECTATOR_CONN)
        out = d.do(RematchMade("r2", "SECRETCODE"))
        assert not out.sends  # the players are told by the app, which seats them
        started = [m.rematch_started for m in d.take(SPECTATOR_CONN)
                   if m.HasField("rematch_started")]
        assert [(s.old_room_id, s.new_room_id, s.invite_code) for s in started] == [
            ("r1", "" if private else "r2", "")]


@pytest.mark.parametrize("made", [True, False])
def test_a_player_let_go_to_the_rematch_resumes_outside_the_old_room(made: bool) -> None:
    """Every player offered and the room let them go: one whose connection closed before it
    was seated resumes outside this room (Resumed naming none), and the app is asked to seat
    it in the rematch's room (rev8 MEDIUM: it was put back here, its game over, and never
    seated there) -- whether that room is made yet or not."""
    d = watched_room(RoomSettings(private=True, spectate=Spectate.ALLOWED, reserved=SEATS))
    over(d)
    d.do(OfferRematch(1, 3))
    d.do(OfferRematch(2, 4))
    if made:
        d.do(RematchMade("r2", "SECRETCODE"))
    out = d.do(Reattach(9, 5, "s2", "p2", 0, "a2", WELCOME))
    assert not out.accepted and out.rematch_seat
    (resumed,) = d.take(9)
    assert resumed.request_id == 5 and resumed.HasField("resumed")
    assert not resumed.resumed.HasField("joined")
    assert d.room.member_of(9) is None
    d.do(OfferRematch(9, 6))  # (it holds no seat here any more)
    assert errors(d.take(9)) == [mpb.ERROR_CODE_NOT_READY]


def test_a_rematch_that_could_not_be_made_refuses_later_offers_with_why() -> None:
    d = watched_room()
    over(d)
    d.do(OfferRematch(1, 3))
    d.do(OfferRematch(2, 4))
    out = d.do(RematchMade("", failed="the server hosts its maximum of 1 rooms; try again "
                                      "later"))
    # (its live spectators are told why; its players, let go, were told by the app)
    assert [m for m in out.feed if isinstance(m, Publish)]
    assert d.room._rematch_off.startswith("the server hosts")
    d.join(9, spectator=True)
    d.do(OfferRematch(9, 7))
    assert errors(d.take(9)) == [mpb.ERROR_CODE_NOT_YOUR_DECISION]


def test_a_delayed_tiers_spectators_learn_of_the_rematch_only_once_they_saw_the_end() -> None:
    """The live players rematch at once; a spectator watching 30 s late is told where the
    rematch is only when its view has shown the game's end (never a result early)."""
    tier = SpectatorTier(TierKind.PUBLIC, delay_seconds=30, accounts=(("aw", "watcher"),))
    d = Driver(Room("r1", "friends", 2, 0.0, RoomConfig(), settings=RoomSettings(
        spectate=Spectate.NONE, tiers=(tier,))))
    assert d.do(Join(DELAYED, 1, "sw", "watcher", True, None, "aw", tier=1)).accepted
    assert d.join(1, deck="naya-pets").accepted and d.join(2, deck="golgari-grind").accepted
    d.now = 40.0  # the tier has shown the start
    d.do(Tick())
    d.do(ConcedeGame(1, 3))
    d.do(OfferRematch(1, 4))
    assert d.do(OfferRematch(2, 5)).rematch is not None
    d.now = 41.0
    d.do(RematchMade("r2", "SECRETCODE"))
    shown = d.take(DELAYED)
    assert not any(m.HasField("rematch_started") or m.HasField("rematch_offers")
                   for m in shown)
    assert d.room.info(1).finished is False
    d.now = 71.5
    d.do(Tick())
    shown = d.take(DELAYED)
    kinds_shown = [m.WhichOneof("body") for m in shown]
    assert "rematch_started" in kinds_shown
    assert kinds_shown.index("rematch_started") > max(
        i for i, k in enumerate(kinds_shown) if k == "delta")
    (started,) = [m.rematch_started for m in shown if m.HasField("rematch_started")]
    assert (started.new_room_id, started.invite_code) == ("r2", "")
    assert d.room.info(1).finished is True


def test_rule_104_3a_a_player_who_left_the_running_game_leaves_no_rematch_to_offer() -> None:
    """Leaving a running game concedes it (104.3a): as it ends, the others are told that no
    rematch can be had, and an offer is refused with why."""
    d = watched_room()
    d.do(Leave(1, 3))
    assert d.room.finished
    told = offers(d.take(2))
    assert [m.rematch_offers.cancelled for m in told] == ["p1 left the game"]
    d.do(OfferRematch(2, 4))
    got = d.take(2)
    assert errors(got) == [mpb.ERROR_CODE_INVALID_ARGUMENT]
    assert got[-1].error.message == "no rematch: p1 left the game"


def test_live_spectators_who_needed_a_code_get_the_new_audience_code_with_the_room() -> None:
    """A public room watched only with a code (SPECTATE_INVITE): its live spectators had
    one, and get the rematch's audience code with its id -- never its invite code, which
    would seat them (new-user round HIGH: the audience could take a player's seat); a
    private room's learn neither."""
    for private, told in ((False, ("r2", "", "SECRETCODE")), (True, ("", "", ""))):
        d = Driver(Room("r1", "friends", 2, 0.0, settings=RoomSettings(
            private=private, spectate=Spectate.INVITE, invite_hash=secret_hash("OLDCODE"),
            reserved=SEATS)))
        assert d.do(Join(SPECTATOR_CONN, 1, "sw", "w", True, None, "aw",
                         invite_code="OLDCODE")).accepted
        assert d.join(1, deck="naya-pets").accepted and d.join(2, deck="golgari-grind").accepted
        over(d)
        d.do(OfferRematch(1, 3))
        d.do(OfferRematch(2, 4))
        d.do(RematchMade("r2", "SECRETCODE"))
        started = [m.rematch_started for m in d.take(SPECTATOR_CONN)
                   if m.HasField("rematch_started")]
        assert [(s.new_room_id, s.invite_code, s.audience_code) for s in started] == [told]


def test_a_spectator_who_joins_after_the_rematch_was_told_learns_where_it_is() -> None:
    """rev8 LOW: RematchStarted was pushed once; a spectator joining the lingering room
    later -- live, or a delayed tier's once its view has shown the end -- never learnt of it.
    Its snapshot now comes with it, as with the match's state."""
    tier = SpectatorTier(TierKind.PUBLIC, delay_seconds=30, accounts=(("aw", "watcher"),))
    d = Driver(Room("r1", "friends", 2, 0.0, RoomConfig(), settings=RoomSettings(
        spectate=Spectate.ALLOWED, tiers=(tier,))))
    assert d.join(1, deck="naya-pets").accepted and d.join(2, deck="golgari-grind").accepted
    d.do(ConcedeGame(1, 3))
    d.do(OfferRematch(1, 4))
    assert d.do(OfferRematch(2, 5)).rematch is not None
    d.do(RematchMade("r2", "SECRETCODE"))
    assert d.join(SPECTATOR_CONN, spectator=True).accepted  # live, late
    (started,) = [m.rematch_started for m in d.take(SPECTATOR_CONN)
                  if m.HasField("rematch_started")]
    assert (started.old_room_id, started.new_room_id, started.invite_code) == ("r1", "r2", "")
    d.now = 31.0  # the tier has shown the end, and passed the rematch on
    d.do(Tick())
    assert d.do(Join(DELAYED, 9, "sw", "watcher", True, None, "aw", tier=1)).accepted
    got = d.take(DELAYED)
    kinds = [m.WhichOneof("body") for m in got]
    assert kinds.index("snapshot") < kinds.index("rematch_started"), kinds


def test_a_rematch_is_named_for_its_original_and_counts_on() -> None:
    """The lobby listed a room and its rematches, finished, under one name: a rematch is
    "NAME (rematch)", the next "NAME (rematch 2)", ... always within MAX_ROOM_NAME."""
    assert rematch_name("friday") == "friday (rematch)"
    assert rematch_name("friday (rematch)") == "friday (rematch 2)"
    assert rematch_name("friday (rematch 9)") == "friday (rematch 10)"
    long = "x" * MAX_ROOM_NAME
    assert rematch_name(long) == "x" * (MAX_ROOM_NAME - 10) + " (rematch)"
    assert len(rematch_name(rematch_name(long))) <= MAX_ROOM_NAME
    # Only its own counts are counted on (attacker 12): other digits, a huge number, "0".
    assert rematch_name("friday (rematch \u0663)") == "friday (rematch \u0663) (rematch)"
    huge = "x (rematch " + "9" * 52 + ")"
    assert rematch_name(huge).startswith("x (rematch 999") and \
        rematch_name(huge).endswith(" (rematch)") and len(rematch_name(huge)) <= MAX_ROOM_NAME
    assert rematch_name("friday (rematch 0)") == "friday (rematch 0) (rematch)"
