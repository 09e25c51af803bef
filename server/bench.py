"""``manawire bench-protocol``: what the server does per view class after every action --
find what changed, build the delta's ops and events, hash and serialize it -- measured over
random in-process games, exactly as a room calls it (:meth:`Room._broadcast`).

Prints one JSON line: median and 90th-percentile delta bytes, median snapshot bytes, their
ratio, and microseconds per view class to build and serialize a delta. These are figures to
compare against the protocol budget (architecture.md), never assertions.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from dataclasses import dataclass, field

from server.cards import demo_deck, demo_deck_names
from server.engine import PlayerSetup, apply, new_game
from server.view import SPECTATOR
from server.view.stream import ViewStream
from server.view.track import GameTracker

#: Take a snapshot's size every this many actions.
SNAPSHOT_EVERY = 25


@dataclass(slots=True)
class BenchReport:
    """The measurements of one run."""

    games: int = 0
    players: int = 2
    actions: int = 0
    delta_bytes: list[int] = field(default_factory=list)
    snapshot_bytes: list[int] = field(default_factory=list)
    delta_us: list[float] = field(default_factory=list)
    #: The view class's own work, and the tracker's once per action (shared by the classes).
    class_us: list[float] = field(default_factory=list)
    shared_us: list[float] = field(default_factory=list)

    def to_json(self) -> str:
        """One JSON line of figures (medians, and the 90th percentile where it helps)."""
        def pct(values: list[float], q: float) -> float:
            """The ``q``-th decile (fractional: 2.5 is the first quartile)."""
            if len(values) < 2:
                return 0.0
            return statistics.quantiles(values, n=40)[round(q * 4) - 1]

        median_delta = statistics.median(self.delta_bytes) if self.delta_bytes else 0
        median_snapshot = statistics.median(self.snapshot_bytes) if self.snapshot_bytes else 0
        return json.dumps({
            "games": self.games,
            "players": self.players,
            "actions": self.actions,
            "deltas": len(self.delta_bytes),
            "median_delta_bytes": median_delta,
            "p90_delta_bytes": round(pct([float(b) for b in self.delta_bytes], 9), 1),
            "median_snapshot_bytes": median_snapshot,
            "delta_to_snapshot_ratio": round(median_delta / median_snapshot, 4)
            if median_snapshot else 0.0,
            "median_delta_us_per_view_class": round(statistics.median(self.delta_us), 1)
            if self.delta_us else 0.0,
            # The costs are bimodal (deltas of priority passes, deltas that rebuild objects):
            # the quartiles show where the median sits between the two.
            "q1_delta_us_per_view_class": round(pct(self.delta_us, 2.5), 1),
            "q3_delta_us_per_view_class": round(pct(self.delta_us, 7.5), 1),
            "p90_delta_us_per_view_class": round(pct(self.delta_us, 9), 1),
            "median_class_only_us": round(statistics.median(self.class_us), 1)
            if self.class_us else 0.0,
            "median_tracker_us_per_action": round(statistics.median(self.shared_us), 1)
            if self.shared_us else 0.0,
        })


def bench_protocol(games: int, seed: int, players: int = 2) -> BenchReport:
    """Play ``games`` random games; after every action advance each view class's stream."""
    report = BenchReport(games=games, players=players)
    decks = demo_deck_names()
    for g in range(games):
        rng = random.Random(seed + g)
        setups = [PlayerSetup(f"p{i}", demo_deck(rng.choice(decks))) for i in range(players)]
        game = new_game((seed + g).to_bytes(16, "big"), setups)
        streams = [ViewStream.start(game, v) for v in [*range(players), SPECTATOR]]
        tracker = GameTracker()
        tracker.step(game)
        while game.result is None:
            decision = game.pending
            assert decision is not None
            action = rng.choice(decision.options)
            events = apply(game, decision.seat, action)
            report.actions += 1
            start = time.perf_counter()
            changes = tracker.step(game, action)  # shared by the view classes
            shared = time.perf_counter() - start
            report.shared_us.append(shared * 1e6)
            for stream in streams:
                start = time.perf_counter()
                data = stream.advance(game, changes, events)  # as a room does
                elapsed = time.perf_counter() - start
                if data is not None:
                    # This class's own work plus its share of the tracker's.
                    report.delta_us.append((elapsed + shared / len(streams)) * 1e6)
                    report.class_us.append(elapsed * 1e6)
                    report.delta_bytes.append(len(data))
            if report.actions % SNAPSHOT_EVERY == 0:
                report.snapshot_bytes += [len(s.snapshot("bench")) for s in streams]
    return report
