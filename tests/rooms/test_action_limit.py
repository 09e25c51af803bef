"""The server's limit on a game's actions (``manawire serve --max-game-actions``): a game
that reaches it ends as a draw -- an engine action in its log, so a restart, a replay and
check-games reproduce the end -- its players and live spectators warned once at 90%; a game
reloaded past a limit lowered since ends so at once, logged; in a match the drawn game
counts as a draw. (Two accounts played one game to 104,000 actions: 31 s to reload.)"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from typing import Any, cast

import pytest
import trio
import trio.testing

from protocol.v1 import messages_pb2 as mpb
from server.engine import apply
from server.engine.actions import ActionLimitDraw, action_from_json, action_to_json
from server.engine.errors import GameOverError
from server.rooms.alarms import Alarms
from server.rooms.commands import ConnId, Disconnect, FeedOp, Reattach, Tick
from server.rooms.pump import RoomHost
from server.rooms.recovery import recover
from server.rooms.room import Room, RoomConfig, action_warning_at
from server.serve_options import GAME_ACTIONS_VARIABLE, add_serve_options, serve_limits
from server.store.records import (
    AppendAction,
    CreateGame,
    FinishGame,
    GameRecord,
    PutMatch,
    RoomSettings,
)
from server.store.writer import StoreWriter
from tests.rooms.test_room_machine import WELCOME, Driver, seat_conn, two_player_room

REASON = "the game reached the server's limit of {:,} actions: a draw"


def play_until(d: Driver, count: int, rng: random.Random) -> None:
    """Random options until the game has ``count`` actions (or ends: then the test fails)."""
    while True:
        game = d.room.game
        assert game is not None and game.result is None, "the game ended first"
        if game.action_count >= count:
            return
        assert game.pending is not None
        d.act(seat_conn(d, game.pending.seat), rng.randrange(len(game.pending.options)))


def stored(d: Driver, *, finished: bool = False) -> GameRecord:
    """The game as the store would give it back (its CreateGame and AppendActions)."""
    create = next(op for op in d.log if isinstance(op, CreateGame))
    actions = [op for op in d.log if isinstance(op, AppendAction)]
    finish = next((op for op in d.log if isinstance(op, FinishGame)), None)
    result: dict[str, object] | None = {"winners": list(finish.winners),
                                        "reason": finish.reason} \
        if finished and finish is not None else None
    return GameRecord(create.room_id, create.name, create.seed,
                      [tuple(p) for p in create.players],  # type: ignore[misc]
                      [(a.seat, a.action) for a in actions], result, 1800.0,
                      actions[-1].clocks, accounts=create.accounts, settings=create.settings)


def limit_notices(msgs: list[mpb.ServerMessage]) -> list[str]:
    assert not any(m.HasField("error") for m in msgs)  # a notice, never an Error
    return [m.notice.message for m in msgs
            if m.HasField("notice") and m.notice.code == mpb.NOTICE_CODE_ACTION_LIMIT_NEAR]


def results(msgs: list[mpb.ServerMessage]) -> list[tuple[list[int], str]]:
    """Each game result a member's snapshots and deltas carried."""
    found: list[tuple[list[int], str]] = []
    for m in msgs:
        headers = [op.set_header for op in m.delta.ops if op.HasField("set_header")] \
            if m.HasField("delta") else [m.snapshot.view.header] \
            if m.HasField("snapshot") else []
        found.extend((list(h.result.winners), h.result.reason) for h in headers
                     if h.HasField("result"))
    return found


def test_a_game_reaching_the_limit_ends_as_a_draw_logged_and_told_to_everyone() -> None:
    d = two_player_room(RoomConfig(max_game_actions=40))
    assert d.join(10, spectator=True).accepted
    for conn in (1, 2, 10):
        d.take(conn)
    rng = random.Random(3)
    play_until(d, action_warning_at(40) - 1, rng)
    assert not any(limit_notices(d.take(conn)) for conn in (1, 2, 10))
    play_until(d, action_warning_at(40), rng)
    warned = {conn: limit_notices(d.take(conn)) for conn in (1, 2, 10)}
    # Each player and the live spectator is warned once, in words.
    assert warned == {conn: ["this game has taken 36 actions: at the server's limit of 40 "
                             "it ends as a draw"] for conn in (1, 2, 10)}
    d.log.clear()
    play_until(d, 39, rng)
    assert not any(limit_notices(d.take(conn)) for conn in (1, 2, 10))  # (once)
    game = d.room.game
    assert game is not None and game.pending is not None
    d.act(seat_conn(d, game.pending.seat), 0)  # the 40th action: the game is a draw
    assert game.result is not None and game.result.winners == ()
    assert game.result.reason == REASON.format(40)
    appended = [op for op in d.log if isinstance(op, AppendAction)]
    assert [(op.seq, op.action) for op in appended[-2:]][1] == (41, ActionLimitDraw(40))
    assert appended[-2].seq == 40
    assert [op for op in d.log if isinstance(op, FinishGame)] == [
        FinishGame("r1", (), REASON.format(40))]
    # Players and spectators read why (the game's result in their views).
    for conn in (1, 2, 10):
        assert results(d.take(conn))[-1:] == [([], REASON.format(40))]
    assert d.room.finished and d.room.match_winner == -1


def test_the_draw_is_in_the_log_a_restart_and_the_engine_replay_it() -> None:
    d = two_player_room(RoomConfig(max_game_actions=25))
    rng = random.Random(5)
    while d.room.game is not None and d.room.game.result is None:
        game = d.room.game
        assert game.pending is not None
        d.act(seat_conn(d, game.pending.seat), rng.randrange(len(game.pending.options)))
    record = stored(d, finished=True)
    assert record.actions[-1][1] == ActionLimitDraw(25) and len(record.actions) == 26
    # The store's JSON keeps it.
    assert action_from_json(action_to_json(ActionLimitDraw(25))) == ActionLimitDraw(25)
    # Reloaded with another limit (raised, or none), the stored end stands.
    for limit in (25, 10_000, 0):
        again = recover(record, 50.0, RoomConfig(max_game_actions=limit))
        assert again.game is not None and again.game.result is not None
        assert again.game.result.reason == REASON.format(25) and again.finished
    # A replay of the finished game checks its log: the draw is its end.
    from server.replay import PUBLIC, Replay
    Replay(record, PUBLIC).check()
    # No action is taken once it is over.
    assert again.game is not None
    with pytest.raises(GameOverError):
        apply(again.game, 0, ActionLimitDraw(25))


def test_a_game_reloaded_past_a_lowered_limit_ends_as_a_draw_at_once_logged() -> None:
    d = two_player_room(RoomConfig(max_game_actions=0))  # 0: no limit
    play_until(d, 60, random.Random(7))
    record = stored(d)
    room = recover(record, 100.0, RoomConfig(max_game_actions=30))
    game = room.game
    assert game is not None and game.result is None and game.action_count == 60
    again = Driver(room, now=100.0)
    out = again.do(Tick())
    assert game.result is not None and game.result.reason == REASON.format(30)
    appended = [op for op in out.log if isinstance(op, AppendAction)]
    assert [(op.seq, op.action) for op in appended] == [(61, ActionLimitDraw(30))]
    assert FinishGame("r1", (), REASON.format(30)) in out.log
    # Its log with the draw reloads as the same finished game.
    again_record = stored(Driver(room, log=[*d.log, *out.log]), finished=True)
    back = recover(again_record, 200.0, RoomConfig(max_game_actions=30))
    assert back.game is not None and back.game.result == game.result


class Writes:
    def __init__(self) -> None:
        self.ops: list[Any] = []

    async def write(self, ops: Sequence[Any]) -> None:
        self.ops.extend(ops)


class Feeds:
    def apply(self, room_id: str, ops: list[FeedOp]) -> None:
        pass

    def close_room(self, room_id: str) -> None:
        raise AssertionError("the room doesn't fail")


async def test_the_room_task_stores_the_draw_its_first_tick_made() -> None:
    """A room's host handles a Tick as it is made (its wake-up times); a reloaded game past
    the limit ends in that Tick -- its records were dropped with the rest of that output."""
    d = two_player_room(RoomConfig(max_game_actions=0))
    play_until(d, 50, random.Random(9))
    room = recover(stored(d), trio.current_time(), RoomConfig(max_game_actions=20))
    writes = Writes()

    def deliver(sends: Sequence[tuple[ConnId, bytes]]) -> None:
        pass

    host = RoomHost(room, cast(StoreWriter, writes), Feeds(), deliver=deliver,
                    released=lambda host, conns: None, closed=lambda host: None,
                    alarms=Alarms(), stored=True)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(host.run)
        await trio.testing.wait_all_tasks_blocked()
        nursery.cancel_scope.cancel()
    assert [(op.seq, op.action) for op in writes.ops if isinstance(op, AppendAction)] == [
        (51, ActionLimitDraw(20))]
    assert FinishGame("r1", (), REASON.format(20)) in writes.ops


def test_in_a_match_the_game_drawn_at_the_limit_counts_as_a_draw() -> None:
    d = Driver(Room("m1", "match", 2, 0.0, RoomConfig(max_game_actions=30),
                    settings=RoomSettings(best_of=3)))
    assert d.join(1, deck="naya-pets").accepted and d.join(2, deck="golgari-grind").accepted
    rng = random.Random(2)
    while d.room.game is not None and d.room.game.result is None:
        game = d.room.game
        assert game.pending is not None
        d.act(seat_conn(d, game.pending.seat), rng.randrange(len(game.pending.options)))
    assert d.room.draws == 1 and d.room.wins == [0, 0]
    assert d.room.results == [(-1, REASON.format(30))]
    assert d.room.sideboarding and not d.room.finished  # game 2 follows
    match = [op for op in d.log if isinstance(op, PutMatch)][-1].match
    assert match.draws == 1


def _limits(argv: list[str]) -> RoomConfig:
    parser = argparse.ArgumentParser()
    add_serve_options(parser)
    return serve_limits(parser, parser.parse_args(argv)).room


def test_the_option_and_its_environment_variable(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv(GAME_ACTIONS_VARIABLE, raising=False)
    assert _limits([]).max_game_actions == 20_000
    assert _limits(["--max-game-actions", "500"]).max_game_actions == 500
    assert _limits(["--max-game-actions", "0"]).max_game_actions == 0
    monkeypatch.setenv(GAME_ACTIONS_VARIABLE, "3000")
    assert _limits([]).max_game_actions == 3000
    assert _limits(["--max-game-actions", "700"]).max_game_actions == 700  # the flag wins
    for bad_env in ("lots", "-5"):
        monkeypatch.setenv(GAME_ACTIONS_VARIABLE, bad_env)
        with pytest.raises(SystemExit):
            _limits([])
        # One line naming the variable and the flag that overrides it; no usage (which says
        # nothing about the environment).
        err = capsys.readouterr().err
        assert f": error: ${GAME_ACTIONS_VARIABLE}: " in err and "usage:" not in err, err
        assert err.endswith("(or give --max-game-actions)\n") and err.count("\n") == 1, err
    monkeypatch.delenv(GAME_ACTIONS_VARIABLE)
    with pytest.raises(SystemExit):
        _limits(["--max-game-actions", "-1"])


def test_the_action_reaching_the_limit_sends_no_decision_before_the_draw() -> None:
    """The room sent the next decision after the N-th action, then the draw: a bot that
    answered it at once got an error ('the game is over'; in a match 'sideboard for game
    2') and `manawire bots` counted the game as failed."""
    d = two_player_room(RoomConfig(max_game_actions=30))
    play_until(d, 29, random.Random(7))
    for conn in (1, 2):
        d.take(conn)
    game = d.room.game
    assert game is not None and game.pending is not None
    d.act(seat_conn(d, game.pending.seat), 0)  # the 30th: the draw follows at once
    assert game.result is not None
    for conn in (1, 2):
        got = d.take(conn)
        assert results(got)[-1:] == [([], REASON.format(30))]
        assert not [m for m in got if m.HasField("decision")], conn


def test_a_player_who_comes_back_and_a_late_spectator_are_told_of_the_limit_too() -> None:
    """The warning went out once: a player who reconnected past it, or a spectator who came
    in late, saw the game end in a draw with no word before (an attacker's finding)."""
    d = two_player_room(RoomConfig(max_game_actions=40))
    play_until(d, action_warning_at(40) + 1, random.Random(3))
    assert limit_notices(d.take(1)) and limit_notices(d.take(2))
    d.do(Disconnect(2))
    game = d.room.game
    assert game is not None
    # Back with the state id it had (nothing missed) and with none (a snapshot): told again.
    last = d.room.classes[1].stream.state_id
    for conn, state in ((9, last), (11, 0)):
        assert d.do(Reattach(conn, 4, "s2", "p2", state, "a2", WELCOME)).accepted
        told = limit_notices(d.take(conn))
        assert told == [f"this game has taken {game.action_count:,} actions: at the "
                        f"server's limit of 40 it ends as a draw"], (state, told)
    assert d.join(10, spectator=True).accepted  # a live spectator, late
    assert len(limit_notices(d.take(10))) == 1
    # Before the warning point nobody is told anything on joining.
    early = two_player_room(RoomConfig(max_game_actions=40))
    assert early.join(10, spectator=True).accepted
    assert not limit_notices(early.take(10))
