"""``manawire bench-engine`` (issue 17's engine goal): a tiny real run of our engine, the
summary's medians and ratios, the phase runner's deck reading, and the clear failures."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from server.benchengine import BENCH_DECK, ROOT, play_games, summary
from server.benchengine_phase import deck_cards
from tests.test_serve_options import main_each


def _manawire(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "server.cli", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, check=False)


def test_a_run_plays_every_game_to_its_end_and_reports_every_field() -> None:
    figures = play_games(BENCH_DECK.read_text(encoding="utf-8"), 2, 7)
    assert figures["engine"] == "manawire"
    assert figures["games"] == figures["completed"] == 2
    assert figures["actions"] > 100  # two whole games of random play
    assert figures["turns_mean"] >= 2
    assert figures["games_per_s"] > 0 and figures["actions_per_s"] > figures["games_per_s"]
    assert figures["actions_per_game"] == figures["actions"] / 2
    # deterministic from the seeds (architecture invariant 4): the same games again
    again = play_games(BENCH_DECK.read_text(encoding="utf-8"), 2, 7)
    assert (again["actions"], again["turns_mean"]) == (figures["actions"],
                                                       figures["turns_mean"])


def test_the_command_interleaves_runs_and_prints_a_summary_of_medians_last() -> None:
    done = _manawire("bench-engine", "--games", "1", "--runs", "2", "--cpu", "-1",
                     "--root", str(ROOT))
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(line.get("engine"), line.get("run")) for line in lines[:-1]] == [
        ("manawire", 0), (f"manawire@{ROOT}", 0), ("manawire", 1), (f"manawire@{ROOT}", 1)]
    last = lines[-1]
    assert last["summary"] is True and last["runs"] == 2
    assert set(last["medians"]) == {"manawire", f"manawire@{ROOT}"}
    # the same checkout twice plays the same games
    assert last["medians"]["manawire"]["actions_per_game"] == \
        last["medians"][f"manawire@{ROOT}"]["actions_per_game"]
    assert last[f"games_per_s_vs_manawire@{ROOT}"] > 0


def test_the_summary_gives_medians_and_our_ratio_to_each_other_engine() -> None:
    def run(games_per_s: float, actions_per_s: float) -> dict[str, float]:
        return {"games_per_s": games_per_s, "actions_per_s": actions_per_s,
                "actions_per_game": 800.0, "turns_mean": 30.0}

    result = summary({"manawire": [run(20, 16000), run(30, 24000), run(25, 20000)],
                      "phase": [run(1, 500), run(0.5, 250), run(2, 1000)]})
    assert result["medians"]["manawire"]["games_per_s"] == 25
    assert result["medians"]["phase"]["games_per_s"] == 1
    assert result["games_per_s_vs_phase"] == 25.0
    assert result["actions_per_s_vs_phase"] == 40.0


def test_the_phase_runner_reads_the_plain_deck_list(tmp_path: Path) -> None:
    assert len(deck_cards(BENCH_DECK)) == 60
    assert deck_cards(BENCH_DECK).count("Titanic Growth") == 4
    deck = tmp_path / "d.txt"
    deck.write_text("// a comment\n2 Shock\n\n1 Forest\nSideboard\n3 Cancel\n", encoding="utf-8")
    assert deck_cards(deck) == ["Shock", "Shock", "Forest"]


def test_a_phase_interpreter_without_phase_is_a_clear_failure() -> None:
    done = _manawire("bench-engine", "--games", "1", "--phase-games", "1", "--runs", "1",
                     "--cpu", "-1", "--phase-python", sys.executable)
    assert done.returncode == 1
    assert "phase failed" in done.stderr and "phase" in done.stderr


_BAD_ARGUMENTS = [
    (["--games", "0"], "must be at least 1"),
    (["--deck", "/nonexistent/deck.txt"], "no such file"),
    (["--root", "/tmp"], "not a Manawire checkout"),
    (["--cpu", "4096"], "not one of this machine's usable CPUs"),
]


@pytest.fixture(scope="module")
def bad_arguments() -> list[subprocess.CompletedProcess[str]]:
    """``manawire bench-engine`` with each of the bad arguments, in one interpreter."""
    return main_each([(["bench-engine", *args], {}) for args, _message in _BAD_ARGUMENTS],
                     cwd=ROOT)


@pytest.mark.parametrize("case", range(len(_BAD_ARGUMENTS)),
                         ids=[message for _args, message in _BAD_ARGUMENTS])
def test_bad_arguments_are_usage_errors(
        bad_arguments: list[subprocess.CompletedProcess[str]], case: int) -> None:
    done, (args, message) = bad_arguments[case], _BAD_ARGUMENTS[case]
    assert done.args == ["bench-engine", *args]
    assert done.returncode == 2, done.stderr
    assert message in done.stderr


def test_random_play_never_starts_a_declaration_over_while_it_can_do_anything_else() -> None:
    """A random player undoing its own attacks made games a quarter longer once attacks
    could be started over (1,084 actions a game instead of 876): the benchmark measured the
    policy. Random play (``manawire sim``, ``bench-engine``) never takes such an option
    while another is offered -- the same ones by name in the benchmark's runner, which also
    plays older checkouts."""
    import random

    from server.benchengine import UNDO_OPTIONS
    from server.engine.actions import ACTION_TYPES, FinishAttackers, ResetAttackers, ResetBlockers
    from server.sim import random_option

    assert UNDO_OPTIONS == {"ResetAttackers", "ResetBlockers", "CancelCast"} <= \
        set(ACTION_TYPES)
    rng = random.Random(1)
    options = (ResetAttackers(), FinishAttackers(), ResetBlockers())
    assert {random_option(rng, options) for _ in range(50)} == {FinishAttackers()}
    assert random_option(rng, (ResetBlockers(),)) == ResetBlockers()  # (nothing else)
