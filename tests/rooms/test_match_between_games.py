"""What a match's room says between two games: the game number its summary gives (the next
one, as ``MatchState`` says), and what a player's sideboarding answers tell the others --
that they answered, once, and nothing about answering again."""

from __future__ import annotations

from protocol.v1 import messages_pb2 as mpb
from server.decks import DeckFormat, resolve
from server.rooms.commands import SubmitDeck, Tick
from server.rooms.room import Room, RoomConfig
from server.store.records import RoomSettings, Spectate, SpectatorTier, TierKind
from tests.rooms.test_matches import (
    DELAYED,
    SIDEBOARDED,
    SPECTATE,
    concede,
    keep,
    match_room,
    states,
)
from tests.rooms.test_room_machine import Driver, seat_conn


def test_room_info_names_the_next_game_while_sideboarding_as_match_state_does() -> None:
    """RoomInfo.game_number is "the game being played or next" (protocol): between games 1
    and 2 the room list and a member's summary said 1 where MatchState said 2."""
    d = match_room(3)
    assert d.room.info().game_number == 1
    concede(d, 1)
    assert d.room.sideboarding
    pushed = states(d.take(SPECTATE))
    assert pushed and pushed[-1].phase == mpb.MATCH_PHASE_SIDEBOARDING
    assert pushed[-1].game_number == 2
    assert d.room.info().game_number == 2
    assert d.room.listed_info().game_number == 2
    keep(d, 0)
    keep(d, 1)
    assert not d.room.sideboarding and d.room.game_number == 2
    assert d.room.info().game_number == 2


def test_a_delayed_tier_names_the_next_game_once_it_has_shown_the_sideboarding() -> None:
    d = match_room(3, RoomConfig(history=10_000), delay=600.0)
    concede(d, 1)  # live: game 1 ended, sideboarding for game 2
    assert d.room.info(1).game_number == 1  # the tier hasn't shown game 1's end yet
    d.now = 2_000.0
    d.do(Tick())
    tier_states = states(d.take(DELAYED))
    assert tier_states and tier_states[-1].phase == mpb.MATCH_PHASE_SIDEBOARDING
    assert d.room.info(1).game_number == tier_states[-1].game_number == 2


def test_answering_sideboarding_again_tells_the_opponent_and_spectators_nothing() -> None:
    """Each accepted SubmitDeck pushed the same MatchState to the opponent and the
    spectators: they could count how often, and when, a player changed their plan."""
    d = match_room(3)
    concede(d, 1)
    d.take(seat_conn(d, 1))
    d.take(SPECTATE)
    submitted = resolve(SIDEBOARDED, DeckFormat.CONSTRUCTED)
    me = seat_conn(d, 0)

    def submit(deck: object | None) -> list[mpb.ServerMessage]:
        d.rid += 1
        d.do(SubmitDeck(me, d.rid, deck))  # type: ignore[arg-type]
        return d.take(me)

    first = submit(None)  # keep
    assert any(m.HasField("deck_accepted") for m in first)
    told = states(d.take(seat_conn(d, 1)))
    assert len(told) == 1 and list(told[0].ready) == [True, False]
    assert len(states(d.take(SPECTATE))) == 1
    # Changing their mind, twice: accepted, each; the others are told nothing more.
    for deck in (submitted, None):
        got = submit(deck)
        accepted = [m.deck_accepted for m in got if m.HasField("deck_accepted")]
        assert accepted and accepted[0].kept == (deck is None)
        assert not d.take(seat_conn(d, 1)) and not d.take(SPECTATE)
    assert d.room.ready == [True, False]
    keep(d, 1)  # the other's answer starts game 2, as before
    assert d.room.game_number == 2 and not d.room.sideboarding


def test_the_room_list_of_a_public_match_between_games_agrees_with_its_match_state() -> None:
    d = Driver(Room("r1", "match", 2, 0.0, RoomConfig(),
                    settings=RoomSettings(best_of=3, spectate=Spectate.ALLOWED, tiers=(
                        SpectatorTier(TierKind.PUBLIC, delay_seconds=60.0),))))
    assert d.join(1, deck="golgari-grind").accepted
    assert d.join(2, deck="golgari-grind").accepted
    concede(d, 0)
    listed = d.room.listed_info()  # (live spectators allowed: the list is live)
    assert listed.game_number == 2 and list(listed.wins) == [0, 1]
