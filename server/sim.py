"""In-process simulation: random players play whole games against the pure engine.

``manawire sim`` uses this to measure engine throughput and to shake out rules bugs: every
game must end without an exception, without a decision that has no options (stuck) and
within an action budget (no infinite loop).
"""

from __future__ import annotations

import json
import random
import time
import traceback
from dataclasses import asdict, dataclass, field

from server.cards import demo_deck, demo_deck_names
from server.engine import PlayerSetup, apply, new_game

#: A game still running after this many actions counts as an infinite loop.
ACTION_BUDGET = 50_000


@dataclass(slots=True)
class SimReport:
    """What ``manawire sim`` prints, as one JSON line."""

    games: int = 0
    players: int = 2
    completed: int = 0
    errors: int = 0
    stuck: int = 0
    actions: int = 0
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)

    @property
    def actions_per_second(self) -> float:
        """Engine throughput: actions applied per second of wall time."""
        return self.actions / self.seconds if self.seconds else 0.0

    def to_json(self) -> str:
        """One JSON line with the figures (failures abbreviated to the first five)."""
        data = asdict(self)
        data["seconds"] = round(self.seconds, 3)
        data["actions_per_second"] = round(self.actions_per_second, 1)
        data["failures"] = self.failures[:5]
        return json.dumps(data)


def play_random_game(seed: int, players: int, decks: list[str]) -> tuple[int, str | None]:
    """Play one game with uniformly random legal choices: (actions, failure or None)."""
    rng = random.Random(seed)
    setups = [PlayerSetup(f"bot{i}", demo_deck(rng.choice(decks))) for i in range(players)]
    game = new_game(seed.to_bytes(16, "big"), setups)
    for n in range(ACTION_BUDGET):
        if game.result is not None:
            return n, None
        decision = game.pending
        if decision is None or not decision.options:
            return n, f"seed {seed}: stuck at turn {game.turn} {game.step.name}: {decision}"
        apply(game, decision.seat, rng.choice(decision.options))
    return ACTION_BUDGET, f"seed {seed}: no result after {ACTION_BUDGET} actions"


def simulate(games: int, seed: int, players: int = 2,
             decks: list[str] | None = None) -> SimReport:
    """Play ``games`` random games with seeds ``seed``, ``seed + 1``, ..."""
    chosen = decks or demo_deck_names()
    report = SimReport(games=games, players=players)
    start = time.perf_counter()
    for i in range(games):
        try:
            actions, failure = play_random_game(seed + i, players, chosen)
        except Exception as exc:
            report.errors += 1
            report.failures.append(f"seed {seed + i}: {exc!r}\n{traceback.format_exc()}")
            continue
        report.actions += actions
        if failure is None:
            report.completed += 1
        else:
            report.stuck += 1
            report.failures.append(failure)
    report.seconds = time.perf_counter() - start
    return report
