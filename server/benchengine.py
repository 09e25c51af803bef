"""``manawire bench-engine``: the rules engine's speed against another engine's, same deck,
same machine, same run.

Each run plays ``--games`` two-player games of uniformly random legal choices (never a
"start over" of a declaration: :func:`server.sim.random_option`) with the same
deck on both seats, in a fresh process pinned to one CPU, and measures the process's CPU time
(``time.process_time``: the machine's other load doesn't count against either engine). The
engines' runs are interleaved (ours, theirs, ours, theirs, ...) so slow phases of a noisy
machine hit both alike, and the summary gives the medians and their ratio.

The other engine is `phase-python <https://pypi.org/project/phase-python/>`_ (the Python
bindings of the Rust engine phase.rs), run by ``--phase-python PYTHON``: an interpreter with
``phase-python`` installed (``make bench-engine`` makes one in ``.venv-phase``). Its runner,
``server/benchengine_phase.py``, is a standalone script (that interpreter needn't have
Manawire installed); it builds phase's card data from the same MTGJSON set file our cards come
from. ``--root DIR`` adds another Manawire checkout (an older commit), interleaved too.

The engines' games differ in shape: phase pays mana automatically and declares all attackers
in one action, Manawire offers each mana ability and each attacker as its own choice, so the
same game takes Manawire more actions. ``games_per_s`` is the comparable figure; the report
shows actions and turns per game beside it.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: "Start over" options, by name: an undo of the deciding player's own declaration so far
#: (508.1, 509.1) or of a cast begun (``CancelCast``), which changes nothing in the game but
#: lengthens it. A random player never takes them while anything else is offered
#: (server.sim.random_option); tests/engine/test_cancel_cast.py takes them on purpose.
UNDO_OPTIONS = frozenset({"ResetAttackers", "ResetBlockers", "CancelCast"})
#: Shortcuts (732.2a), by name: one option standing for several others (paying a cost
#: automatically). This benchmark's random player never takes them, so it plays the games
#: an older checkout, which hasn't them, plays; ``manawire sim`` does (it looks for bugs).
SHORTCUT_OPTIONS = frozenset({"PayAutomatically"})
_NOT_TAKEN = UNDO_OPTIONS | SHORTCUT_OPTIONS
#: A game still running after this many actions is reported as unfinished.
ACTION_BUDGET = 50_000
#: Seconds a runner process may take before it is killed (and the benchmark fails).
RUN_TIMEOUT = 1800.0
ROOT = Path(__file__).resolve().parent.parent
PHASE_RUNNER = Path(__file__).resolve().parent / "benchengine_phase.py"
SET_FILE = Path(__file__).resolve().parent / "cards" / "data" / "sets" / "M21.json"
#: The deck of issue 17's engine goal: a simple M21 list in three colours.
BENCH_DECK = Path(__file__).resolve().parent / "cards" / "data" / "bench" / "m21-simple.txt"


def play_games(deck_text: str, games: int, seed: int) -> dict[str, Any]:
    """Play ``games`` random two-player games (seeds ``seed``, ``seed + 1``, ...) with the
    deck list ``deck_text`` on both seats; the figures of one run, timed in CPU seconds."""
    from server.decks import DeckFormat, resolve
    from server.engine import PlayerSetup, apply, new_game

    deck = resolve(deck_text, DeckFormat.LIMITED)
    actions = turns = completed = 0
    start = time.process_time()
    for game_seed in range(seed, seed + games):
        rng = random.Random(game_seed)
        game = new_game(game_seed.to_bytes(16, "big"),
                        [PlayerSetup(f"bot{i}", deck.main) for i in range(2)])
        for _ in range(ACTION_BUDGET):
            if game.result is not None:
                completed += 1
                break
            decision = game.pending
            if decision is None:
                break
            # (--root plays an older checkout with this function: its options are named,
            # not imported, as server.sim.random_option filters them)
            options = [o for o in decision.options if type(o).__name__ not in _NOT_TAKEN]
            apply(game, decision.seat, rng.choice(options or decision.options))
            actions += 1
        turns += game.turn
    cpu = time.process_time() - start
    return run_figures("manawire", games, completed=completed, actions=actions, turns=turns,
                       cpu=cpu)


def run_figures(engine: str, games: int, *, completed: int, actions: int, turns: int,
                cpu: float) -> dict[str, Any]:
    """One run's JSON line (the phase runner prints the same fields)."""
    return {"engine": engine, "games": games, "completed": completed, "actions": actions,
            "cpu_s": round(cpu, 3), "games_per_s": round(games / cpu, 3) if cpu else 0.0,
            "actions_per_s": round(actions / cpu, 1) if cpu else 0.0,
            "actions_per_game": round(actions / games, 1) if games else 0.0,
            "turns_mean": round(turns / games, 2) if games else 0.0}


@dataclass(frozen=True, slots=True)
class Target:
    """An engine to run: its label and the command that prints one run's JSON line."""

    label: str
    command: tuple[str, ...]
    cwd: Path


def targets(deck: Path, games: int, seed: int, *, phase_python: str | None,
            roots: Sequence[Path], phase_games: int) -> list[Target]:
    """This checkout, each ``--root`` checkout, then phase (if asked for: ``phase_games``
    games a run, as it is some 30 times slower)."""
    out = []
    for i, root in enumerate([ROOT, *roots]):
        label = "manawire" if i == 0 else f"manawire@{root}"
        # This file runs by path, so an older checkout without it is measured too.
        out.append(Target(label, (sys.executable, str(Path(__file__).resolve()), str(deck),
                                  str(games), str(seed)), root))
    if phase_python is not None:
        out.append(Target("phase", (phase_python, str(PHASE_RUNNER), str(SET_FILE), str(deck),
                                    str(phase_games), str(seed)), ROOT))
    return out


def run_target(target: Target, cpu: int) -> dict[str, Any]:
    """Run one target once (pinned to ``cpu`` unless it is -1); its JSON line, labelled."""
    env = dict(os.environ, PYTHONPATH=str(target.cwd), PYTHONHASHSEED="0")
    done = subprocess.run(target.command, check=False, cwd=target.cwd, env=env, capture_output=True,
                          text=True, timeout=RUN_TIMEOUT,
                          preexec_fn=(lambda: os.sched_setaffinity(0, {cpu}))
                          if cpu >= 0 else None)
    if done.returncode != 0:
        raise RuntimeError(f"{target.label} failed (exit {done.returncode}):\n"
                           f"{done.stderr.strip()[-2000:]}")
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if not lines:
        raise RuntimeError(f"{target.label} printed no result:\n{done.stdout[-2000:]}")
    figures: dict[str, Any] = json.loads(lines[-1])
    figures["engine"] = target.label
    return figures


def summary(results: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """Medians per engine and, against each other engine, the ratio of our median
    games/s (and actions/s) to theirs."""
    out: dict[str, Any] = {"summary": True, "runs": max(len(r) for r in results.values())}
    medians = {label: {key: statistics.median(float(r[key]) for r in runs)
                       for key in ("games_per_s", "actions_per_s", "actions_per_game",
                                   "turns_mean")}
               for label, runs in results.items()}
    out["medians"] = {label: {k: round(v, 3) for k, v in m.items()}
                      for label, m in medians.items()}
    ours = medians["manawire"]
    for label, theirs in medians.items():
        if label != "manawire" and theirs["games_per_s"]:
            out[f"games_per_s_vs_{label}"] = round(ours["games_per_s"] / theirs["games_per_s"], 2)
            out[f"actions_per_s_vs_{label}"] = round(
                ours["actions_per_s"] / theirs["actions_per_s"], 2)
    return out


def bench_engine(deck: Path, games: int, seed: int, *, runs: int, cpu: int,
                 phase_python: str | None, roots: Sequence[Path], phase_games: int) -> int:
    """Run every target ``runs`` times, interleaved, printing each run's line and the
    summary last. Every run of a target plays the same seeds."""
    every = targets(deck.resolve(), games, seed, phase_python=phase_python,
                    roots=[r.resolve() for r in roots], phase_games=phase_games)
    results: dict[str, list[dict[str, Any]]] = {t.label: [] for t in every}
    for run in range(runs):
        for target in every:
            figures = run_target(target, cpu)
            figures["run"] = run
            results[target.label].append(figures)
            print(json.dumps(figures), flush=True)
    print(json.dumps(summary(results)), flush=True)
    return 0


def main(argv: Sequence[str]) -> int:
    """The runner of one run: ``python server/benchengine.py DECK_FILE GAMES SEED``, with
    ``PYTHONPATH`` the checkout to measure."""
    deck, games, seed = argv
    print(json.dumps(play_games(Path(deck).read_text(encoding="utf-8"), int(games),
                                int(seed))), flush=True)
    return 0


if __name__ == "__main__":
    # Run by path: the checkout on PYTHONPATH is measured, not this file's directory.
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent]
    sys.exit(main(sys.argv[1:]))
