"""Crash safety end to end (issue 12): the real server process, bot games over loopback
WebSockets, and the server killed with SIGKILL at random moments (or stopped with SIGTERM)
and restarted on the same port and store while the games go on.

The harness (tests/e2e/restart_harness.py) plays the games and checks each one against its
final stored log, replayed by the server's own recovery: every state (state id, view hash) a
client accepted is one the log produces, in order, ending at the final state with the result;
every final mirror equals the server's projection for its viewer; no client needed a resync.
``python -m tests.e2e.restart_harness --kills 300`` runs a long version.
"""

from __future__ import annotations

import signal
from pathlib import Path

import trio

from tests.e2e.restart_harness import CLOSE_SERVICE_RESTART, Report, run_restart_harness

#: Kill points of the default run; deltas its server keeps per view class for resumes.
KILLS = 20
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
    with trio.fail_after(170):
        # (a delta history of 1, so that a resume that missed more gets a snapshot instead)
        report = await run_restart_harness(tmp_path, kills=KILLS, games=3, seed=12,
                                           delays=(0.05, 1.5), history=HISTORY,
                                           play_seconds=150)
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
    # A raw session connected at each stop was closed with 1012, and so was every client.
    assert report.observer_close_codes == [CLOSE_SERVICE_RESTART] * 2
    assert report.clients_saw_1012 == report.clients
    # The games were stopped mid-game and restored.
    assert report.restored[0] == 0 and report.restored[1] >= 1
