"""Crash safety end to end (issue 12): the real server process, bot games over loopback
WebSockets, and the server killed with SIGKILL at random moments (or stopped with SIGTERM)
and restarted on the same port and store while the games go on.

The harness (tests/e2e/restart_harness.py) plays the games and checks each one against its
final stored log, replayed by the server's own recovery: every state (state id, view hash) a
client accepted is one the log produces, in order, ending at the final state with the result;
every final mirror equals the server's projection for its viewer; no client needed a resync.
The default run kills the server 6 times, ``--soak`` (``tests/soak.py``) 40 times;
``python -m tests.e2e.restart_harness --kills 300`` runs a long version.
"""

from __future__ import annotations

import signal
from collections.abc import Callable, Sequence
from pathlib import Path

import trio

from client_sdk import Client
from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from server.decks import DeckFormat, resolve
from server.store import Store
from tests.e2e.restart_harness import (
    CLOSE_SERVICE_RESTART,
    Report,
    ServerProcess,
    run_restart_harness,
)
from tests.rooms.test_matches import REGISTERED, SIDEBOARDED
from tests.soak import depth

#: Kill points of the run; deltas its server keeps per view class for resumes.
KILLS = depth(6, soak=40)
HISTORY = 1


def _assert_every_game_went_on_intact(report: Report) -> None:
    figures = report.to_json()
    assert not report.timed_out, figures
    assert report.failures == [], figures
    assert report.games >= 2, figures
    assert report.completed == report.games, figures  # every client saw its game's result
    assert report.failed_games == 0, figures
    assert report.lost_actions == 0, figures  # no accepted state the final log lacks
    assert report.mismatched_views == 0, figures  # final mirrors == server projections
    assert report.resyncs == 0, figures  # no hash mismatch, no gap
    assert report.server_errors == 0, figures
    assert report.restore_mismatches == 0, figures  # each restart restored every game
    assert report.forced_stops == 0, figures
    assert report.resumes > 0, figures
    assert report.actions > 0 and report.actions <= report.acts_sent, figures


async def test_sigkill_at_random_moments_loses_no_acknowledged_action(tmp_path: Path) -> None:
    # 20 kills took about 50 s alone; the bound leaves room for a suite run on every core
    # (make test's pytest-xdist workers outnumber the cores) on a noisy machine.
    play_seconds = 120 + 6 * KILLS
    with trio.fail_after(play_seconds + 30):
        # (a delta history of 1, so that a resume that missed more gets a snapshot instead)
        report = await run_restart_harness(tmp_path, kills=KILLS, games=3, seed=12,
                                           delays=(0.05, 1.5), history=HISTORY,
                                           play_seconds=play_seconds)
    print(report.to_json())
    _assert_every_game_went_on_intact(report)
    assert report.kills == KILLS
    assert report.exit_codes == [("SIGKILL", -signal.SIGKILL)] * KILLS + [("SIGTERM", 0)]
    assert report.observer_close_codes == [None] * KILLS  # killed: no close frame
    assert max(report.restored) >= 1
    assert report.clients >= 8  # 2 + 2 + 3 players and a spectator


async def test_sigterm_mid_game_exits_by_itself_with_1012_and_the_games_go_on(
    tmp_path: Path,
) -> None:
    with trio.fail_after(120):
        report = await run_restart_harness(tmp_path, kills=2, games=2, seed=7,
                                           sig=signal.SIGTERM, delays=(0.3, 0.8),
                                           play_seconds=100)
    print(report.to_json())
    _assert_every_game_went_on_intact(report)
    assert report.kills == 2
    # Each stop: the process exited by itself (not killed after the bound) with code 0.
    assert report.exit_codes == [("SIGTERM", 0)] * 3
    # A raw session connected at each stop was closed with 1012, and so was every client
    # that was connected at a stop: each that noticed a drop. (A game can end before the
    # first stop; its bots then read nothing more and notice none -- the likely cause of 2
    # failures in 19 runs of the stricter check, where 3 of 5 clients saw 1012 and the 5
    # resumed 6 times in all.)
    assert report.observer_close_codes == [CLOSE_SERVICE_RESTART] * 2
    dropped = {name: codes for name, (codes, _resumes) in report.client_drops.items() if codes}
    assert dropped and all(CLOSE_SERVICE_RESTART in codes for codes in dropped.values()), \
        report.client_drops
    assert report.clients_saw_1012 == len(dropped)
    # The games were stopped mid-game and restored.
    assert report.restored[0] == 0 and report.restored[1] >= 1


async def _until(client: Client, done: Callable[[], bool]) -> None:
    """Process ``client``'s messages (resuming after a drop) until ``done()``."""
    while not done():
        await client.next_message()


async def _play_first(clients: Sequence[Client], done: Callable[[], bool]) -> None:
    """Both players answer their decisions with their first option until ``done()``."""
    async with trio.open_nursery() as nursery:
        async def one(client: Client) -> None:
            while not done():
                if client.my_decision is not None:
                    await client.act(0)
                else:
                    await client.next_message()
            nursery.cancel_scope.cancel()

        for client in clients:
            nursery.start_soon(one, client)


def _phase(client: Client) -> int:
    return client.match.phase if client.match is not None else 0


async def test_a_match_survives_sigkill_between_games_and_during_game_2(tmp_path: Path) -> None:
    """Rules 100.6a, 100.4, 103.1 across restarts: the score, which game is played, who has
    sideboarded and with what come back after a SIGKILL, and the match plays on to its end."""
    server = ServerProcess(tmp_path / "data")
    try:
        with trio.fail_after(150):
            await server.start()
            async with Client.connect(server.url, "Ann") as ann, \
                    Client.connect(server.url, "Bob") as bob:
                room = await ann.create_room("bo3", best_of=3)
                await ann.join(room.room_id, deck=REGISTERED)
                await bob.join(room.room_id)
                await _until(ann, lambda: ann.mirror.ready)
                await ann.concede()  # game 1 to Bob
                await _until(bob, lambda: _phase(bob) == mpb.MATCH_PHASE_SIDEBOARDING)
                await _until(ann, lambda: _phase(ann) == mpb.MATCH_PHASE_SIDEBOARDING)
                accepted = await ann.submit_deck(SIDEBOARDED)
                assert accepted.game_number == 2
                await server.stop(signal.SIGKILL)  # between games
                await server.start()
                assert server.restored[-1] == 1
                await _until(ann, lambda: ann.resumes == 1)
                await _until(bob, lambda: bob.resumes == 1)
                await _until(bob, lambda: bob.match is not None
                             and list(bob.match.ready) == [True, False])
                assert bob.match is not None and list(bob.match.wins) == [0, 1]
                assert bob.match.game_number == 2
                await bob.keep_deck()  # game 2 starts, with Ann's sideboarded deck
                game2 = f"{room.room_id}.2"
                await _until(ann, lambda: ann.match is not None
                             and ann.match.phase == mpb.MATCH_PHASE_PLAYING
                             and ann.match.game_id == game2 and ann.mirror.ready
                             and not ann.mirror.game_over)
                # Ann lost game 1: she chooses who plays first (rule 103.1).
                assert ann.mirror.header.pending.seat == 0
                first_of_game2 = ann.mirror.state_id
                await _play_first([ann, bob], lambda: ann.mirror.header.phase
                                  == pb.GAME_PHASE_PLAYING)
                await server.stop(signal.SIGKILL)  # during game 2
                await server.start()
                assert server.restored[-1] == 1
                await _until(ann, lambda: ann.resumes == 2)
                await _until(bob, lambda: bob.resumes == 2)
                await _until(ann, lambda: ann.match is not None
                             and ann.match.game_id == game2)
                assert ann.match is not None and list(ann.match.wins) == [0, 1]
                assert ann.mirror.state_id > first_of_game2
                await bob.concede()  # game 2 to Ann: 1-1
                for client in (ann, bob):
                    await _until(client, lambda c=client: _phase(c)  # type: ignore[misc]
                                 == mpb.MATCH_PHASE_SIDEBOARDING)
                await ann.keep_deck()
                await bob.keep_deck()
                await _until(ann, lambda: ann.match is not None
                             and ann.match.game_number == 3 and ann.mirror.ready
                             and not ann.mirror.game_over)
                await ann.concede()  # game 3 to Bob: he wins the match 2-1
                for client in (ann, bob):
                    await _until(client, lambda c=client: c.finished)  # type: ignore[misc]
                    assert client.match is not None and client.match.winner == 1
                    assert list(client.match.wins) == [1, 2]
                    assert client.errors == [] and client.resyncs == 0
            await server.stop(signal.SIGTERM)
    finally:
        await server.aclose()
    store = Store(server.store_path)
    try:
        match = store.load_match(room.room_id)
        assert match.games == (room.room_id, f"{room.room_id}.2", f"{room.room_id}.3")
        assert match.wins == (1, 2) and match.winner == 1
        sideboarded = resolve(SIDEBOARDED, DeckFormat.CONSTRUCTED).text
        assert store.load_game(f"{room.room_id}.2").players[0][1] == sideboarded
        assert store.load_game(f"{room.room_id}.3").players[0][1] == sideboarded
    finally:
        store.close()
