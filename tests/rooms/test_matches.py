"""Matches of several games in one room (rules 100.4, 100.6a, 103.1, 103.2a) on the sans-I/O
room with a controlled clock: the score, who chooses the starting player, sideboarding and its
time limit, leaving, state ids across games, and spectators -- live and delayed -- attached
from the first game to the last."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from client_sdk.mirror import Mirror
from protocol.v1 import messages_pb2 as mpb
from server.decks import DeckFormat, resolve
from server.engine import DecisionKind
from server.engine.state import GamePhase
from server.rooms.commands import (
    Act,
    ConcedeGame,
    Disconnect,
    Join,
    Leave,
    Reattach,
    Snapshot,
    SubmitDeck,
    Tick,
)
from server.rooms.match import decide, games_to_win, next_chooser, sideboard_problems
from server.rooms.recovery import recover
from server.rooms.room import Room, RoomConfig
from server.rooms.session import Session, SessionError
from server.store import Store
from server.store.records import (
    AppendAction,
    CreateGame,
    FinishGame,
    PutMatch,
    RoomSettings,
    Spectate,
    SpectatorTier,
    TierKind,
)
from server.view import SPECTATOR, project
from server.view.encode import encode_view
from tests.rooms.test_room_machine import WELCOME, Driver, errors, kinds, seat_conn

#: Naya vanilla with a sideboard (2 Plains, 2 Mountain): what the tests' seat 0 registers.
REGISTERED = """4 Staunch Shieldmate
4 Onakke Ogre
4 Garruk's Gorehorn
4 Shock
4 Volcanic Geyser
16 Mountain
12 Plains
12 Forest

Sideboard
2 Plains
2 Mountain
"""
#: The same 64 cards, the Shocks sideboarded out for the basic lands (rule 100.4).
SIDEBOARDED = """4 Staunch Shieldmate
4 Onakke Ogre
4 Garruk's Gorehorn
4 Volcanic Geyser
18 Mountain
14 Plains
12 Forest

Sideboard
4 Shock
"""
SPECTATE, DELAYED = 7, 8  # the live spectator's and the delayed tier's connections
WATCHER = "aw"


def deck(text: str) -> object:
    return resolve(text, DeckFormat.CONSTRUCTED)


def match_room(best_of: int = 3, config: RoomConfig | None = None, *,
               delay: float = 0.0) -> Driver:
    """A best-of-``best_of`` room with a live spectator (and, with ``delay``, a spectator of
    a public tier shown ``delay`` seconds late) joined before the players."""
    tiers = (SpectatorTier(TierKind.PUBLIC, delay_seconds=delay,
                           accounts=((WATCHER, "watcher"),)),) if delay else ()
    d = Driver(Room("r1", "match", 2, 0.0, config or RoomConfig(),
                    settings=RoomSettings(best_of=best_of, tiers=tiers)))
    assert d.join(SPECTATE, spectator=True).accepted
    if delay:
        d.rid += 1
        assert d.do(Join(DELAYED, d.rid, "sd", "watcher", True, None, WATCHER,
                         tier=1)).accepted
    d.rid += 1
    assert d.do(Join(1, d.rid, "s1", "Ann", False, deck(REGISTERED), "a1")).accepted  # type: ignore[arg-type]
    assert d.join(2, deck="golgari-grind").accepted
    return d


def states(msgs: list[mpb.ServerMessage]) -> list[mpb.MatchState]:
    return [m.match_state for m in msgs if m.HasField("match_state")]


def concede(d: Driver, seat: int) -> None:
    d.rid += 1
    d.do(ConcedeGame(seat_conn(d, seat), d.rid))


def keep(d: Driver, seat: int) -> list[mpb.ServerMessage]:
    d.rid += 1
    conn = seat_conn(d, seat)
    d.do(SubmitDeck(conn, d.rid))
    return d.got.get(conn, [])


def test_100_6a_best_of_3_ends_once_a_player_has_won_two_games_and_is_recorded() -> None:
    d = match_room(3)
    assert d.room.info().best_of == 3 and d.room.game_number == 1
    got = d.take(1)
    assert kinds(got)[:3] == ["joined", "snapshot", "match_state"]
    first = states(got)[0]
    assert first.phase == mpb.MATCH_PHASE_PLAYING and first.game_number == 1
    assert list(first.wins) == [0, 0] and first.winner == -1 and first.game_id == "r1"
    assert states(d.take(SPECTATE))[0] == first
    concede(d, 0)  # game 1: Bob wins
    over = states(d.take(SPECTATE))
    assert len(over) == 1 and over[0].phase == mpb.MATCH_PHASE_SIDEBOARDING
    assert list(over[0].wins) == [0, 1] and over[0].game_number == 2
    assert over[0].sideboard_remaining_ms == 180_000 and list(over[0].ready) == [False, False]
    assert over[0].games[0].winner == 1 and over[0].games[0].game_id == "r1"
    assert not d.room.finished and d.room.info().wins == [0, 1]
    keep(d, 0)
    keep(d, 1)
    assert d.room.game_number == 2 and d.room.game is not None
    assert d.room.game.result is None and d.room.game_id == "r1.2"
    concede(d, 1)  # game 2: Ann wins
    keep(d, 0)
    keep(d, 1)
    assert d.room.game_number == 3 and d.room.game_id == "r1.3"
    assert d.room.info().wins == [1, 1]
    concede(d, 0)  # game 3: Bob wins the match 2-1
    final = states(d.take(SPECTATE))[-1]
    assert final.phase == mpb.MATCH_PHASE_OVER and final.winner == 1
    assert list(final.wins) == [1, 2] and final.game_number == 3
    assert final.reason == "p2 won 2 of 3 games"
    assert [g.game_id for g in final.games] == ["r1", "r1.2", "r1.3"]
    assert [g.winner for g in final.games] == [1, 0, 1]
    assert d.room.finished and d.room.info().finished
    # Each game is stored as a game of its own; the match record follows the score.
    assert [op.room_id for op in d.log if isinstance(op, CreateGame)] == ["r1", "r1.2", "r1.3"]
    assert all(op.match_id == "r1" for op in d.log if isinstance(op, CreateGame))
    assert [op.room_id for op in d.log if isinstance(op, FinishGame)] == ["r1", "r1.2", "r1.3"]
    # (each game's actions under its own id: a game's log is numbered from 1)
    assert [(op.room_id, op.seq) for op in d.log if isinstance(op, AppendAction)] == \
        [("r1", 1), ("r1.2", 1), ("r1.3", 1)]
    record = [op.match for op in d.log if isinstance(op, PutMatch)][-1]
    assert record.games == ("r1", "r1.2", "r1.3") and record.wins == (1, 2)
    assert record.winner == 1 and record.best_of == 3
    # No more sideboarding, acting or deck submissions once it is over.
    d.take(1)
    keep(d, 0)
    assert errors(d.take(1)) == [mpb.ERROR_CODE_GAME_OVER]


def test_100_6a_best_of_5_needs_three_won_games() -> None:
    assert [games_to_win(n) for n in (1, 3, 5)] == [1, 2, 3]
    d = match_room(5)
    for n in range(3):
        assert not d.room.finished
        concede(d, 0)
        if n < 2:
            keep(d, 0)
            keep(d, 1)
    assert d.room.finished and d.room.match_winner == 1 and d.room.wins == [0, 3]


def test_100_6a_drawn_games_count_for_nobody_and_the_match_plays_on_but_not_forever() -> None:
    names = ["Ann", "Bob"]
    assert decide(3, [1, 1], [(0, ""), (-1, ""), (1, "")], names) is None
    assert decide(3, [0, 2], [(1, ""), (-1, ""), (1, "")], names) == (1, "Bob won 2 of 3 games")
    draws = [(-1, "draw")] * 6
    assert decide(3, [0, 0], draws, names) == (-1, "a draw: no player won more games of the "
                                                    "6 played")
    assert decide(3, [1, 0], [(0, ""), *draws[:5]], names)[0] == 0  # type: ignore[index]
    assert decide(3, [0, 0], [], names, left=[0]) == (1, "Ann left the match (and conceded it)")
    assert decide(1, [0, 0], [(-1, "draw")], names) == (-1, "draw")


def _to_priority(d: Driver) -> None:
    """Choose the starting player and keep every hand (option 0 each time)."""
    game = d.room.game
    assert game is not None
    while game.phase is not GamePhase.PLAYING:
        assert game.pending is not None
        d.act(seat_conn(d, game.pending.seat), 0)


def _draw(d: Driver) -> None:
    """End the current game in a draw: both players at 0 life lose at once when state-based
    actions are next checked (rules 104.4a, 704.5a) -- as the step ends, once both players
    have passed (the first pass only moves priority on, 117.3d: the engine checks them again
    only after something happened, and this life total was set from outside the game)."""
    _to_priority(d)
    game = d.room.game
    assert game is not None and game.pending is not None
    for player in game.players:
        player.life = 0
    for _ in range(2):
        assert game.pending is not None and game.pending.kind is DecisionKind.PRIORITY
        d.act(seat_conn(d, game.pending.seat), 0)  # pass
    assert game.result is not None and game.result.winners == ()


def test_103_1_the_loser_of_the_previous_game_chooses_who_takes_the_first_turn() -> None:
    d = match_room(5)
    game = d.room.game
    assert game is not None and game.pending is not None
    assert game.pending.kind is DecisionKind.CHOOSE_STARTING_PLAYER
    assert d.room.choosers == [game.pending.seat]  # game 1: a random player (103.1)
    for loser in (0, 1, 1):
        concede(d, loser)
        keep(d, 0)
        keep(d, 1)
        game = d.room.game
        assert game is not None and game.pending is not None
        assert game.pending.kind is DecisionKind.CHOOSE_STARTING_PLAYER
        assert game.pending.seat == loser
        created = [op for op in d.log if isinstance(op, CreateGame)][-1]
        assert created.chooser == loser  # stored, so the game replays the same
    assert next_chooser(0, 0, 2) == 1 and next_chooser(1, 1, 2) == 0


def test_103_1_after_a_draw_the_player_who_chose_in_that_game_chooses_again() -> None:
    d = match_room(3)
    concede(d, 1)  # game 1 to Ann: Bob chooses in game 2
    keep(d, 0)
    keep(d, 1)
    game = d.room.game
    assert game is not None and game.pending is not None and game.pending.seat == 1
    _draw(d)
    over = states(d.take(1))[-1]
    assert over.draws == 1 and over.phase == mpb.MATCH_PHASE_SIDEBOARDING
    assert over.games[1].winner == -1 and over.games[1].chooser == 1
    keep(d, 0)
    keep(d, 1)
    game = d.room.game
    assert game is not None and game.pending is not None
    assert game.pending.seat == 1  # Bob chose in the drawn game: he chooses again
    assert next_chooser(-1, 0, 2) == 0


def test_100_4_a_sideboarded_deck_must_be_exactly_the_registered_cards() -> None:
    d = match_room(3)
    concede(d, 1)
    before = d.room.seats[0]
    assert before is not None and before.deck is not None
    kept = before.deck

    def submit(text: str) -> list[mpb.ServerMessage]:
        d.rid += 1
        d.do(SubmitDeck(1, d.rid, resolve(text, DeckFormat.CONSTRUCTED)))
        return d.take(1)

    d.take(1)
    d.take(SPECTATE)
    writes = len(d.log)
    foreign = SIDEBOARDED.replace("4 Shock", "4 Llanowar Visionary")
    got = submit(foreign)
    assert errors(got) == [mpb.ERROR_CODE_INVALID_DECK]
    details = list(got[0].error.details)
    assert any("'Llanowar Visionary': 4 in the deck and sideboard, but 0 registered" in p
               and "exchange cards between your main deck and sideboard" in p
               and "100.4" not in p for p in details)  # (plain words for players)
    assert any("'Shock': 4 of the 4 registered missing" in p for p in details)
    assert "your deck is unchanged" in got[0].error.message
    # Nothing changed: the same deck, not ready, no store write, no announcement.
    assert before.deck is kept and d.room.ready == [False, False]
    assert not d.take(SPECTATE) and len(d.log) == writes
    short = [c for c in kept.main if c.name != "Shock"]
    problems = sideboard_problems(kept, resolve("\n".join(
        f"1 {c.name}" for c in short), DeckFormat.LIMITED), DeckFormat.CONSTRUCTED)
    assert any(p == "a constructed deck has at least 60 cards in its main deck, got 56"
               for p in problems), problems
    # The sideboarded deck is accepted, stored, and played in game 2.
    got = submit(SIDEBOARDED)
    accepted = [m.deck_accepted for m in got if m.HasField("deck_accepted")]
    assert accepted and accepted[0].game_number == 2 and not accepted[0].kept
    assert accepted[0].main_count == 60 and accepted[0].sideboard_count == 4
    assert d.room.ready == [True, False]
    ready = states(d.take(SPECTATE))
    assert ready and list(ready[-1].ready) == [True, False]
    record = [op.match for op in d.log if isinstance(op, PutMatch)][-1]
    assert record.decks[0] == resolve(SIDEBOARDED, DeckFormat.CONSTRUCTED).text
    assert record.registered[0] == resolve(REGISTERED, DeckFormat.CONSTRUCTED).text
    keep(d, 1)
    created = [op for op in d.log if isinstance(op, CreateGame)][-1]
    assert created.room_id == "r1.2"
    assert created.players[0][1] == resolve(SIDEBOARDED, DeckFormat.CONSTRUCTED).text
    game = d.room.game
    assert game is not None and game.players[0].sideboard  # 400.11: outside the game
    assert sorted(c.name for c in game.players[0].sideboard) == ["Shock"] * 4
    # Sideboarding again (for game 3) may go back to the registered deck.
    concede(d, 0)
    d.take(1)
    assert not errors(submit(REGISTERED))


def test_sideboarding_outside_its_time_or_by_a_spectator_is_refused() -> None:
    d = match_room(3)
    d.take(1)
    keep(d, 0)
    got = d.take(1)
    assert errors(got) == [mpb.ERROR_CODE_NOT_READY]
    assert "game 1 is being played" in got[0].error.message
    d.rid += 1
    d.do(SubmitDeck(SPECTATE, d.rid))
    assert errors(d.take(SPECTATE)) == [mpb.ERROR_CODE_NOT_YOUR_DECISION]
    single = Driver(Room("r2", "one", 2, 0.0))
    single.join(1)
    single.join(2)
    single.take(1)
    single.do(SubmitDeck(1, 5))
    assert errors(single.take(1)) == [mpb.ERROR_CODE_NOT_READY]
    assert not any(isinstance(op, PutMatch) for op in single.log)  # a single game: no match
    assert not states(single.take(2))
    # Acting between games says what to do instead.
    concede(d, 0)
    game = d.room.game
    assert game is not None
    d.take(2)
    d.do(Act(2, 0, 1, 0, 0))
    got = d.take(2)
    assert errors(got) == [mpb.ERROR_CODE_GAME_OVER] and "SubmitDeck" in got[0].error.message


def test_100_4_sideboarding_time_runs_out_and_who_did_not_answer_keeps_their_deck() -> None:
    d = match_room(3, RoomConfig(sideboard_seconds=30))
    d.now = 10.0
    concede(d, 0)
    assert d.do(Tick()).wake_at == 40.0
    d.rid += 1
    d.do(SubmitDeck(1, d.rid, resolve(SIDEBOARDED, DeckFormat.CONSTRUCTED)))  # Ann answers
    d.now = 39.9
    d.do(Tick())
    assert d.room.game_number == 1 and d.room.sideboarding
    d.take(2)
    d.now = 40.0
    d.do(Tick())  # Bob never answered: he keeps his deck
    assert d.room.game_number == 2 and not d.room.sideboarding
    created = [op for op in d.log if isinstance(op, CreateGame)]
    assert created[-1].players[0][1] == resolve(SIDEBOARDED, DeckFormat.CONSTRUCTED).text
    assert created[-1].players[1][1] == created[0].players[1][1]
    got = d.take(2)
    assert "snapshot" in kinds(got)
    assert states(got)[-1].phase == mpb.MATCH_PHASE_PLAYING and states(got)[-1].game_number == 2
    # A fresh time bank each game (the clock is per game, rule 104.3a concedes one game).
    assert d.room.remaining == [d.room.clock_seconds] * 2


def test_104_3a_a_clock_running_out_concedes_the_game_not_the_match() -> None:
    d = match_room(3, RoomConfig(clock_seconds=60))
    game = d.room.game
    assert game is not None and game.pending is not None
    loser = game.pending.seat
    d.now = 60.0
    d.do(Tick())
    assert game.result is not None and d.room.sideboarding and not d.room.finished
    assert d.room.wins[1 - loser] == 1


def test_leaving_during_a_game_concedes_it_and_the_match() -> None:
    d = match_room(3)
    concede(d, 1)
    keep(d, 0)
    keep(d, 1)
    d.take(SPECTATE)
    d.rid += 1
    d.do(Leave(seat_conn(d, 0), d.rid))
    game = d.room.game
    assert game is not None and game.result is not None and game.result.winners == (1,)
    assert d.room.finished and d.room.match_winner == 1 and d.room.wins == [1, 1]
    final = states(d.take(SPECTATE))[-1]
    assert final.phase == mpb.MATCH_PHASE_OVER and final.winner == 1
    assert "left the match" in final.reason
    assert [op.match.winner for op in d.log if isinstance(op, PutMatch)][-1] == 1


def test_leaving_between_games_concedes_the_match() -> None:
    d = match_room(3)
    concede(d, 1)  # Ann leads 1-0 ... and leaves while sideboarding: Bob wins the match
    d.take(SPECTATE)
    d.rid += 1
    d.do(Leave(1, d.rid))
    assert d.room.finished and d.room.match_winner == 1 and not d.room.sideboarding
    final = states(d.take(SPECTATE))
    assert final and final[-1].phase == mpb.MATCH_PHASE_OVER and final[-1].winner == 1
    assert d.do(Tick()).wake_at == pytest.approx(RoomConfig().linger_seconds)  # it lingers


def _ids(msgs: list[mpb.ServerMessage]) -> list[int]:
    out = []
    for m in msgs:
        if m.HasField("snapshot"):
            out.append(m.snapshot.state_id)
        elif m.HasField("delta"):
            assert m.delta.prev_state_id == out[-1] if out else True
            out.append(m.delta.state_id)
    return out


def test_state_ids_keep_increasing_across_games_and_a_resume_into_the_last_game_snapshots(
) -> None:
    d = match_room(3)
    rng = random.Random(3)
    seen: dict[int, list[mpb.ServerMessage]] = {c: [] for c in (1, 2, SPECTATE)}
    mirrors = {c: Mirror() for c in seen}

    def collect() -> None:
        for conn, msgs in seen.items():
            for m in d.take(conn):
                msgs.append(m)
                if m.HasField("snapshot"):
                    mirrors[conn].load_snapshot(m.snapshot)
                elif m.HasField("delta"):
                    mirrors[conn].apply_delta(m.delta)

    last_of_game1 = 0
    for n in range(3):
        game = d.room.game
        assert game is not None
        for _ in range(40):  # some random play, then a concession ends the game
            if game.result is not None or game.pending is None:
                break
            d.act(seat_conn(d, game.pending.seat), rng.randrange(len(game.pending.options)))
        if game.result is None:
            concede(d, n % 2)
        collect()
        if n == 0:
            last_of_game1 = mirrors[2].state_id
        if not d.room.finished:
            keep(d, 0)
            keep(d, 1)
            collect()
            if n == 0:  # Bob drops in game 2 and resumes from game 1's last state
                d.do(Disconnect(2))
                out = d.do(Reattach(9, 50, "s2", "p2", last_of_game1, "a2", WELCOME))
                assert out.accepted
                got = d.take(9)
                assert got[0].resumed.snapshot and got[0].resumed.deltas == 0
                assert kinds(got)[1:3] == ["snapshot", "match_state"]
                assert got[1].snapshot.state_id > last_of_game1
                seen[9] = got
                mirrors[9] = Mirror()
                mirrors[9].load_snapshot(got[1].snapshot)
                del seen[2], mirrors[2]
    assert d.room.finished
    for conn, msgs in seen.items():
        ids = _ids(msgs)
        assert ids == sorted(ids) and len(ids) == len(set(ids)), conn  # never reused
    snaps = [m.snapshot.state_id for m in seen[SPECTATE] if m.HasField("snapshot")]
    assert len(snaps) == 3  # a snapshot of every game
    game = d.room.game
    assert game is not None
    assert mirrors[SPECTATE].view() == encode_view(project(game, SPECTATOR))


def test_spectators_live_and_delayed_stay_attached_and_see_every_game_in_turn() -> None:
    delay = 50.0
    d = match_room(3, RoomConfig(history=10_000, sideboard_seconds=5), delay=delay)
    got = d.take(DELAYED)
    assert kinds(got)[-2:] == ["snapshot", "match_state"]  # game 1's start, at once
    assert got[-2].snapshot.state_id == 1
    concede(d, 0)
    d.now = 1.0
    keep(d, 0)
    keep(d, 1)  # game 2 starts at t=1
    assert d.room.game_number == 2
    assert "snapshot" in kinds(d.take(SPECTATE))
    d.now = delay + 0.5  # game 1's end is due for the tier; game 2's start is not yet
    d.do(Tick())
    got = d.take(DELAYED)
    assert "snapshot" not in kinds(got)
    assert [s.phase for s in states(got)] == [mpb.MATCH_PHASE_SIDEBOARDING]
    assert "delta" in kinds(got)  # the concession
    d.do(Snapshot(DELAYED, 77))  # a resync: still game 1's last state
    again = d.take(DELAYED)
    assert kinds(again) == ["snapshot", "match_state"]
    assert again[0].snapshot.view.header.HasField("result")
    d.now = delay + 1.0
    d.do(Tick())
    got = d.take(DELAYED)
    # Ann's answer (at t=1), then game 2's start: its snapshot and the match playing it.
    assert kinds(got) == ["match_state", "snapshot", "match_state"]
    assert list(got[0].match_state.ready) == [True, False]
    assert got[1].snapshot.state_id > again[0].snapshot.state_id
    assert not got[1].snapshot.view.header.HasField("result")
    assert got[2].match_state.game_number == 2
    assert got[2].match_state.phase == mpb.MATCH_PHASE_PLAYING
    assert all(s.sideboard_remaining_ms == 0 for s in states(got))
    # Live members never got anything meant for the tier, and vice versa no clocks.
    assert "clocks" not in kinds(got) and "presence" not in kinds(got)
    assert d.room.member_of(SPECTATE) is not None and d.room.member_of(DELAYED) is not None


def test_best_of_is_1_3_or_5_and_a_match_of_several_games_is_for_two_players() -> None:
    def create(**fields: object) -> object:
        msg = mpb.ClientMessage(request_id=3, create_room=mpb.CreateRoom(**fields))  # type: ignore[arg-type]
        session = Session()
        session.established("s", "n")
        return session.receive(msg.SerializeToString())[1]

    assert create(best_of=0).best_of == 1  # type: ignore[attr-defined]
    assert create(best_of=3).best_of == 3  # type: ignore[attr-defined]
    assert create(best_of=5, seats=2).best_of == 5  # type: ignore[attr-defined]
    for bad, words in ((2, "best_of is 1 (or 0: a single game), 3 or 5, got 2"),
                       (7, "got 7")):
        with pytest.raises(SessionError) as caught:
            create(best_of=bad)
        assert caught.value.code == mpb.ERROR_CODE_INVALID_ARGUMENT
        assert words in caught.value.message
    with pytest.raises(SessionError, match="two players"):
        create(best_of=3, seats=3)
    with pytest.raises(ValueError, match="two players"):
        Room("r", "n", 3, 0.0, settings=RoomSettings(best_of=3))


def test_a_restart_between_games_gives_a_delayed_tier_the_result_only_once_it_shows_it(
        tmp_path: Path) -> None:
    # The delayed tier starts over from the last game's start after a restart: its score
    # is the one before that game until its view has shown the game's end.
    d = match_room(3, RoomConfig(history=10_000), delay=30.0)
    concede(d, 0)  # game 1 to Bob; the room is between games
    store = Store(tmp_path / "db.sqlite3")
    store.apply(d.log)  # type: ignore[arg-type]
    [record] = store.unfinished_games()
    store.close()
    room = recover(record, 100.0, RoomConfig(history=10_000))
    assert room.sideboarding and room.wins == [0, 1]
    tier = room.delayed[0]
    assert tier.match is not None
    shown = mpb.ServerMessage.FromString(tier.match).match_state
    assert shown.phase == mpb.MATCH_PHASE_PLAYING and list(shown.wins) == [0, 0]
    sent = tier.release(130.0, room.game.turn if room.game else 0, True)
    last = mpb.ServerMessage.FromString(sent[-1]).match_state
    assert last.phase == mpb.MATCH_PHASE_SIDEBOARDING and list(last.wins) == [0, 1]
    assert mpb.ServerMessage.FromString(sent[-2]).HasField("delta")  # the concession first


def _play(d: Driver, rng: random.Random, actions: int) -> None:
    """Up to ``actions`` random live actions, one a second of the room's clock."""
    for _ in range(actions):
        game = d.room.game
        assert game is not None and game.pending is not None
        if game.result is not None:
            return
        d.now += 1.0
        d.act(seat_conn(d, game.pending.seat), rng.randrange(len(game.pending.options)))


@pytest.mark.parametrize("started_ago", [5.0, 60.0])
def test_a_restart_in_game_2_never_shows_a_delayed_tier_game_1s_result_early(
        tmp_path: Path, started_ago: float) -> None:
    """After a restart a delayed tier runs later than before, never earlier (protocol
    README, "Spectator tiers"). Restarted early in game 2, a 30 s tier started at game 2's
    start: game 1's result and game 2's opening went out at once, 25 s early, and the end
    of game 1 was never shown. If game 2 started less than the delay before the restart
    (however long ago game 1 ended: a sideboarding may outlast the delay), game 1 is now
    replayed first, then game 2's start and actions; if it started longer ago (the tier
    had shown its start), the tier starts at game 2 as before."""
    delay = 30.0
    d = match_room(3, RoomConfig(history=10_000, sideboard_seconds=5), delay=delay)
    rng = random.Random(8)
    _play(d, rng, 25)
    concede(d, 0)  # game 1 to Bob
    game_1_last = d.room.classes[SPECTATOR].stream.state_id
    sent_1 = [data for _prev, _state, data in d.room.classes[SPECTATOR].history]
    keep(d, 0)
    keep(d, 1)
    _play(d, rng, 12)
    assert d.room.game_number == 2 and d.room.game is not None
    live = d.room.classes[SPECTATOR].stream
    sent_2 = [data for _prev, _state, data in d.room.classes[SPECTATOR].history]
    assert len(sent_1) == game_1_last - 1 and len(sent_2) == 12
    store = Store(tmp_path / "db.sqlite3")
    store.apply(d.log)  # type: ignore[arg-type]
    [record] = store.unfinished_games()
    store.close()
    # (stored all at once here: as actions stored before they had times, held from the
    # restart; with their times, see the next test)
    record = replace(record, action_times=(), earlier=tuple(
        replace(g, action_times=()) for g in record.earlier))
    [game_1] = record.earlier
    assert game_1.result is not None and record.created is not None
    room = recover(record, 100.0, RoomConfig(history=10_000),
                   wall_now=record.created + started_ago)
    tier = room.delayed[0]
    assert tier.match is not None
    at_restart = mpb.ServerMessage.FromString(tier.match).match_state
    game = room.game
    assert game is not None
    assert tier.release(100.0 + delay - 0.01, game.turn, False) == []  # nothing early
    released = tier.release(100.0 + delay, game.turn, False)
    shown = [mpb.ServerMessage.FromString(m) for m in released]
    if started_ago >= delay:  # the tier had shown game 2's start: it starts there, 1-0
        assert (at_restart.game_number, list(at_restart.wins)) == (2, [0, 1])
        assert released == sent_2
    else:  # game 1 from its start, its end, the score then, game 2's start and its actions
        assert (at_restart.game_number, list(at_restart.wins),
                at_restart.phase) == (1, [0, 0], mpb.MATCH_PHASE_PLAYING)
        ended = kinds(shown).index("match_state")
        deltas = [m.delta for m in shown[:ended]]
        assert all(m == "delta" for m in kinds(shown[:ended]))
        assert [(x.prev_state_id, x.state_id) for x in deltas] == \
            [(n, n + 1) for n in range(1, game_1_last)]
        # What the live spectators were sent of game 1, its end (the concession) the last.
        assert released[:ended] == sent_1
        sideboarding = shown[ended].match_state
        assert (sideboarding.phase, list(sideboarding.wins), sideboarding.game_number) == \
            (mpb.MATCH_PHASE_SIDEBOARDING, [0, 1], 2)
        assert kinds(shown[ended + 1:ended + 3]) == ["snapshot", "match_state"]
        assert shown[ended + 2].match_state.phase == mpb.MATCH_PHASE_PLAYING
        assert released[ended + 3:] == sent_2
    # Either way the tier ends where the live spectators are, hash for hash.
    assert tier.stream.state_id == live.state_id
    assert shown[-1].delta.view_hash == live.digest.hash(SPECTATOR)


def test_a_delayed_tiers_room_info_and_the_room_list_tell_no_result_it_hasnt_shown() -> None:
    """A delayed-tier spectator's ``Joined.room`` (and a resume's) carried the live score:
    an hour behind, it learned who won game 1 as that game ended. The room list, which
    anyone reads, did the same for a room watched only through delayed tiers."""
    tiers = (SpectatorTier(TierKind.PUBLIC, delay_seconds=3600.0,
                           accounts=((WATCHER, "watcher"),)),)
    d = Driver(Room("r1", "match", 2, 0.0, RoomConfig(history=10_000),
                    settings=RoomSettings(best_of=3, tiers=tiers, spectate=Spectate.NONE)))
    d.rid += 1
    assert d.do(Join(1, d.rid, "s1", "Ann", False, deck(REGISTERED), "a1")).accepted  # type: ignore[arg-type]
    assert d.join(2, deck="golgari-grind").accepted
    concede(d, 0)  # game 1 to Bob, live
    assert d.room.info().wins == [0, 1]
    d.rid += 1
    assert d.do(Join(DELAYED, d.rid, "sd", "watcher", True, None, WATCHER, tier=1)).accepted
    joined = next(m.joined for m in d.take(DELAYED) if m.HasField("joined"))
    assert list(joined.room.wins) == [0, 0] and joined.room.game_number == 1
    assert not joined.room.finished
    listed = d.room.listed_info()
    assert list(listed.wins) == [0, 0] and listed.game_number == 1
    keep(d, 0)
    keep(d, 1)
    assert d.room.game_number == 2
    concede(d, 0)  # game 2, and the match, to Bob, live
    assert d.room.info().finished
    d.do(Disconnect(DELAYED))
    d.do(Reattach(DELAYED + 10, 99, "sd", "watcher", 1, WATCHER, WELCOME))
    resumed = next(m.resumed for m in d.take(DELAYED + 10) if m.HasField("resumed"))
    assert list(resumed.joined.room.wins) == [0, 0] and not resumed.joined.room.finished
    assert not d.room.listed_info().finished
    # Once the tier has shown the match's end, so do they.
    d.now = 10_000.0
    d.do(Tick())
    assert d.room.info(1).finished and list(d.room.info(1).wins) == [0, 2]
    assert d.room.listed_info().finished
