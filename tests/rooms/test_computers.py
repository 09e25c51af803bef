"""Computer players the server runs (``CreateRoom.computers``), as the sans-I/O room plays
them: a computer seat decides only its own decisions, after a human-like delay, through the
path a player's ``Act`` takes (logged first); a game against it ends; a restart brings it
back acting; in a match it keeps its deck; it offers a rematch at once; and the requests
that make no sense are refused in words."""

from __future__ import annotations

import random

import pytest

from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from server.engine.actions import (
    CastSpell,
    ChooseStartingPlayer,
    Concede,
    FinishAttackers,
    KeepHand,
    PassPriority,
    PlayLand,
    TakeMulligan,
)
from server.rooms import computer
from server.rooms.commands import (
    ConcedeGame,
    Disconnect,
    Leave,
    OfferRematch,
    Snapshot,
    SubmitDeck,
    Tick,
)
from server.rooms.recovery import recover
from server.rooms.room import Room, RoomConfig
from server.rooms.session import CreateRoom, Session, SessionError
from server.store.records import AppendAction, CreateGame, FinishGame, RoomSettings
from tests.rooms.test_action_limit import stored
from tests.rooms.test_room_machine import Driver, kinds

HUMAN = 1  # the human player's connection


def computer_room(seats: int = 2, computers: int = 1, *, best_of: int = 1,
                  config: RoomConfig | None = None) -> Driver:
    """A room whose last ``computers`` seats are the server's, its creator (connection 1)
    seated: with every other seat a computer's, the game has started."""
    settings = RoomSettings(creator="a1", best_of=best_of,
                            computers=tuple(range(seats - computers, seats)))
    d = Driver(Room("r1", "vs computer", seats, 0.0, config, settings=settings))
    assert d.join(HUMAN).accepted
    return d


def pending_seat(d: Driver) -> int:
    game = d.room.game
    assert game is not None and game.pending is not None
    return game.pending.seat


def wait_for_computer(d: Driver) -> list[AppendAction]:
    """Let time pass until the room's next wake-up (the computer's answer); the actions
    that logged."""
    before = len(d.log)
    out = d.do(Tick())
    assert out.wake_at > d.now  # (nothing was due yet)
    d.now = out.wake_at
    d.do(Tick())
    return [op for op in d.log[before:] if isinstance(op, AppendAction)]


def human_turn(d: Driver, rng: random.Random) -> None:
    """The human answers its decision as the computer would (without the wait)."""
    game = d.room.game
    assert game is not None and game.pending is not None
    d.act(HUMAN, computer.choose(rng, game.pending.seat, game.pending.options))


def play_out(d: Driver, rng: random.Random, limit: int = 6000) -> int:
    """Play the running game to its end: the human at once, the computers when the room
    wakes. Returns the actions played."""
    game = d.room.game
    assert game is not None
    for n in range(limit):
        if game.result is not None:
            return n
        if d.room.is_computer(pending_seat(d)):
            assert len(wait_for_computer(d)) >= 1
        else:
            human_turn(d, rng)
    raise AssertionError(f"the game didn't end in {limit} decisions")


def test_the_computer_takes_its_seat_at_once_and_says_so() -> None:
    """A 2-seat room with one computer starts with its creator's join (rule 103: every
    seat taken); RoomInfo.computers names the computer's seat and the presence shows it
    connected (it never goes away)."""
    d = computer_room()
    assert d.room.game is not None
    info = d.room.info()
    assert list(info.players) == ["p1", "Computer"] and list(info.computers) == [1]
    presence = [m.presence for m in d.take(HUMAN) if m.HasField("presence")]
    assert [s.connected for s in presence[-1].seats] == [True, True]
    member = d.room.seats[1]
    assert member is not None and member.conn is None and ":" in member.account_id


def test_rule_117_the_computer_answers_only_its_own_decisions_after_a_human_like_delay(
) -> None:
    rng = random.Random(5)
    d = computer_room(config=RoomConfig(computer_seconds=0.8))
    mine = theirs = 0
    for _ in range(120):
        game = d.room.game
        assert game is not None
        if game.result is not None:
            break
        seat = pending_seat(d)
        prompt = game.pending.prompt_id if game.pending is not None else -1
        if d.room.is_computer(seat):
            start = d.now
            out = d.do(Tick())
            # It thinks 0.4 to 1.2 s, and answers nothing before then.
            assert 0.4 <= out.wake_at - start <= 1.2
            d.now = out.wake_at - 0.01
            d.do(Tick())
            assert game.pending is not None and game.pending.prompt_id == prompt
            d.now = out.wake_at
            acted = [op for op in d.do(Tick()).log if isinstance(op, AppendAction)]
            # (logged as a player's action is: its seat, before any delta left)
            assert acted and acted[0].seat == seat
            theirs += 1
        else:
            # The human's decision: time passes and the computer does nothing.
            d.now += 5
            d.do(Tick())
            assert game.pending is not None and game.pending.prompt_id == prompt
            human_turn(d, rng)
            mine += 1
    assert mine > 5 and theirs > 5


def test_a_whole_game_against_the_computer_ends() -> None:
    d = computer_room()
    actions = play_out(d, random.Random(8))
    game = d.room.game
    assert game is not None and game.result is not None
    assert 0 < actions < d.room.config.max_game_actions
    assert d.room.finished
    assert any(isinstance(op, FinishGame) for op in d.log)


def test_rule_103_5_the_computer_keeps_its_hand_and_plays_first_when_it_chooses() -> None:
    rng = random.Random(1)
    assert computer.choose(rng, 1, [KeepHand(), TakeMulligan(), Concede()]) == 0
    assert computer.choose(rng, 1, [ChooseStartingPlayer(0), ChooseStartingPlayer(1)]) == 1
    # With priority it plays a land nearly always (95%), else casts (90%), else passes.
    picks = [computer.choose(random.Random(n), 0, [PassPriority(), PlayLand("l"),
                                                    CastSpell("s")]) for n in range(200)]
    assert picks.count(1) > 170 and picks.count(0) < 10
    # Never a concession or a mulligan while anything else is offered.
    assert all(computer.choose(random.Random(n), 0, [Concede(), FinishAttackers()]) == 1
               for n in range(20))


def test_a_restarted_rooms_computer_goes_on_deciding() -> None:
    """The store keeps which seats are computers (RoomSettings.computers); the reloaded
    room's computer, disconnected from nothing, answers its pending decision once the room
    wakes."""
    rng = random.Random(3)
    d = computer_room()
    for _ in range(40):
        if d.room.is_computer(pending_seat(d)):
            wait_for_computer(d)
        else:
            human_turn(d, rng)
    while not d.room.is_computer(pending_seat(d)):
        human_turn(d, rng)
    record = stored(d)
    assert record.settings.computers == (1,)
    assert RoomSettings.from_json(record.settings.to_json()) == record.settings
    back = recover(record, 500.0)
    assert back.is_computer(1) and not back.is_computer(0)
    e = Driver(back, now=500.0)
    game = back.game
    assert game is not None
    count = game.action_count
    acted = wait_for_computer(e)
    assert acted and acted[0].seat == 1 and game.action_count > count
    # Its human is away (not resumed): its decision waits for them, as for anyone.
    assert back.is_computer(1) and e.room.seats[0] is not None


def test_settings_stored_before_computers_load_with_none() -> None:
    old = ('{"best_of": 1, "creator": "a", "format": "constructed", "invite_hash": "", '
           '"private": false, "rematch_of": "", "reserved": [], "spectate": "allowed", '
           '"tiers": []}')
    assert RoomSettings.from_json(old).computers == ()


def test_rule_100_6a_a_match_against_the_computer_it_keeps_its_deck_between_games() -> None:
    """Best of 3: the computer is ready at once between games (it keeps its deck, 100.4),
    so the person's answer alone starts the next game; the loser of a game chooses who
    plays first in the next (103.1) -- the computer too, when it lost."""
    d = computer_room(best_of=3)
    rng = random.Random(4)
    d.do(ConcedeGame(HUMAN, 1))
    assert d.room.sideboarding and d.room.ready == [False, True]
    deck = d.room.seats[1]
    assert deck is not None and deck.deck == deck.registered
    d.take(HUMAN)
    d.do(SubmitDeck(HUMAN, 2))
    assert d.room.game_number == 2 and not d.room.sideboarding
    assert d.room.choosers == [d.room.choosers[0], 0]  # the loser (the person) chooses
    while not d.room.finished:
        play_out(d, rng)
        if d.room.sideboarding:
            assert d.room.ready == [False, True]
            d.do(SubmitDeck(HUMAN, 3))
            # Whoever lost game 2 chooses in game 3, the computer too (it answers).
            loser = 1 - d.room.results[-1][0]
            assert d.room.choosers[-1] == loser
    assert d.room.match_winner is not None
    assert len(d.room.results) in (2, 3)


def test_the_computer_offers_a_rematch_at_once_and_the_persons_offer_starts_it() -> None:
    d = computer_room()
    d.take(HUMAN)
    d.do(ConcedeGame(HUMAN, 1))
    offers = [list(m.rematch_offers.offered) for m in d.take(HUMAN)
              if m.HasField("rematch_offers")]
    assert offers == [[False, True]]
    out = d.do(OfferRematch(HUMAN, 2))
    plan = out.rematch
    assert plan is not None and plan.seats == 2
    # Only the person is seated by the app; the new room (same settings) seats its computer.
    assert [p.name for p in plan.players] == ["p1"]
    assert d.room.settings.computers == (1,)


def test_a_finished_room_reloaded_has_its_computer_offering_again() -> None:
    d = computer_room()
    d.do(ConcedeGame(HUMAN, 1))
    back = recover(stored(d, finished=True), 100.0)
    assert back.finished and back.rematch_offers == [False, True]


def test_when_the_last_person_leaves_a_free_for_all_the_computers_end_it() -> None:
    """Three seats, two computers: the person leaving concedes (104.3a) and the computers
    don't play on for nobody -- they concede until the game ends."""
    d = computer_room(seats=3, computers=2)
    assert [m.name for m in d.room.seats if m is not None] == ["p1", "Computer 1",
                                                               "Computer 2"]
    d.do(Leave(HUMAN, 1))
    game = d.room.game
    assert game is not None and game.result is not None
    assert d.room.finished
    # The end says why the computers conceded ("Computer 1 conceded" read as its doing).
    assert game.result.reason == "Computer 1 conceded: no person was left playing"


def test_a_person_who_drops_still_has_the_computer_waiting_not_conceding() -> None:
    """The away rule (--away-seconds) is a person's: the computer is never away."""
    d = computer_room(config=RoomConfig(away_seconds=5))
    rng = random.Random(2)
    for _ in range(40):  # (its decisions take their time: well past away_seconds)
        if d.room.is_computer(pending_seat(d)):
            wait_for_computer(d)
        else:
            human_turn(d, rng)
    game = d.room.game
    assert game is not None and game.result is None and d.now > 10
    while not d.room.is_computer(pending_seat(d)):
        human_turn(d, rng)
    d.do(Disconnect(HUMAN))
    for _ in range(200):
        if not d.room.is_computer(pending_seat(d)):
            break
        wait_for_computer(d)
    d.now += 6
    d.do(Tick())
    game = d.room.game
    assert game is not None and game.result is not None
    assert game.result.winners == (1,) or list(game.result.winners) == [1]


def test_the_computers_hand_is_hidden_from_the_person_like_anyones() -> None:
    """Invariant 4: its seat is projected for nobody but itself -- once the hands are
    kept, the person's snapshot counts the computer's hand and shows none of its cards,
    while it shows the person's own."""
    d = computer_room()
    rng = random.Random(1)
    for _ in range(6):
        if d.room.is_computer(pending_seat(d)):
            wait_for_computer(d)
        else:
            human_turn(d, rng)
    d.take(HUMAN)
    d.do(Snapshot(HUMAN, 5))
    view = [m.snapshot for m in d.take(HUMAN) if m.HasField("snapshot")][-1].view
    assert view.players[1].hand_count > 0
    assert not [o for o in view.objects if o.zone.kind == pb.ZONE_KIND_HAND and o.owner == 1]
    assert all(o.name for o in view.objects if o.zone.kind == pb.ZONE_KIND_HAND)
    assert [o for o in view.objects if o.zone.kind == pb.ZONE_KIND_HAND and o.owner == 0]
    # A spectator sees neither hand.
    d.join(7, spectator=True)
    view = [m.snapshot for m in d.take(7) if m.HasField("snapshot")][-1].view
    assert view.players[1].hand_count > 0
    assert not [o for o in view.objects if o.zone.kind == pb.ZONE_KIND_HAND]


def _create(**fields: object) -> CreateRoom:
    s = Session()
    s.established("s1", "Ann")
    _rid, request = s.receive(mpb.ClientMessage(request_id=7, create_room=mpb.CreateRoom(
        **fields)).SerializeToString())  # type: ignore[arg-type]
    assert isinstance(request, CreateRoom)
    return request


@pytest.mark.parametrize(("fields", "words"), [
    ({"seats": 2, "computers": 2, "join": True}, "at most 1 computer player: one seat"),
    ({"seats": 4, "computers": 4, "join": True}, "at most 3 computer players"),
    ({"seats": 2, "computers": 1}, "create the room with join"),
    ({"seats": 3, "computers": 1, "join": True, "reserved": ["Bob"]}, "reserves no seats"),
])
def test_a_create_room_with_computers_that_makes_no_sense_is_refused_in_words(
        fields: dict[str, object], words: str) -> None:
    with pytest.raises(SessionError) as info:
        _create(**fields)
    assert info.value.code == mpb.ERROR_CODE_INVALID_ARGUMENT
    assert words in info.value.message


def test_a_create_room_with_computers_is_read() -> None:
    assert _create(seats=3, computers=2, join=True).computers == 2
    assert _create(seats=2, join=True).computers == 0


def test_the_game_is_logged_with_the_computer_as_a_player() -> None:
    d = computer_room()
    create = next(op for op in d.log if isinstance(op, CreateGame))
    assert [p[0] for p in create.players] == ["p1", "Computer"]
    assert create.settings.computers == (1,)
    assert "snapshot" in kinds(d.take(HUMAN))


def test_an_unstarted_room_its_creator_leaves_closes_though_a_computer_sits_in_it() -> None:
    """Three seats, one computer: the creator leaving before anyone else came closes the
    room at once, as one with nobody else in it does -- a computer is nobody to wait for."""
    d = computer_room(seats=3, computers=1)
    assert d.room.game is None
    out = d.do(Leave(HUMAN, 1))
    assert out.closed and d.room.closed


def test_serve_computer_seconds_sets_the_computers_pace() -> None:
    from tests.test_serve_options import _limits

    assert _limits("--computer-seconds", "2.5").room.computer_seconds == 2.5
    assert _limits().room.computer_seconds == RoomConfig().computer_seconds == 0.8
    with pytest.raises(SystemExit):
        _limits("--computer-seconds", "-1")


def test_the_action_limit_ends_a_game_against_the_computer_as_a_draw() -> None:
    """The server's --max-game-actions holds for a computer's actions as for anyone's: at
    the limit the game is a draw and the computer decides nothing more."""
    d = computer_room(config=RoomConfig(max_game_actions=30))
    play_out(d, random.Random(6))
    game = d.room.game
    assert game is not None and game.result is not None
    assert list(game.result.winners) == [] and game.action_count <= 31
    d.now += 10
    d.do(Tick())
    assert game.action_count <= 31


def test_rule_104_3a_a_computer_whose_clock_runs_out_concedes_as_anyone() -> None:
    """Its clock runs while it thinks: a room whose time bank is shorter than its thinking
    (here 2 s against 2.5-7.5 s) sees it run out, and it concedes."""
    settings = RoomSettings(creator="a1", computers=(1,))
    d = Driver(Room("r1", "short", 2, 0.0, RoomConfig(computer_seconds=5.0),
                    clock_seconds=2, settings=settings))
    assert d.join(HUMAN).accepted
    rng = random.Random(9)
    while not d.room.is_computer(pending_seat(d)):
        human_turn(d, rng)
    d.now += 8
    d.do(Tick())
    game = d.room.game
    assert game is not None and game.result is not None
    assert list(game.result.winners) == [0] and "time" in game.result.reason
