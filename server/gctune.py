"""The garbage collector of a serving process: measured pauses and the tuning ``serve`` uses.

Under load the cyclic garbage collector sets the server's latency tail: a full collection
traverses every tracked object of every room and connection. ``manawire serve`` therefore

- freezes what exists once the program is loaded (:func:`freeze_startup`: the modules,
  the card pool), so no collection ever traverses it again -- before any game is reloaded
  from the store, so a finished game's cycles can still be collected;
- makes young collections rarer (``--gc-threshold``, the first generation's threshold):
  most of an action's temporary containers are then freed by reference counting before any
  collection sees them, and fewer survive into the old generations whose collections are
  the long pauses;
- also collects on a clock (:func:`collect_on_a_clock`, ``--gc-young-seconds``,
  ``--gc-full-seconds``): the young and middle generations every few milliseconds, the old
  one every few minutes, since Python's own triggers let the young generation grow unseen
  and then collect the old one every few seconds;
- and measures every collection (:class:`GcMonitor`): count, total and longest pause per
  generation, logged when the server stops and printed by ``manawire bench-server``.
"""

from __future__ import annotations

import gc
import json
import time
from dataclasses import dataclass, field

from server.loopclock import IDLE_SECONDS, LoopClock

#: The first generation's threshold ``serve`` sets by default (Python's own is 700).
DEFAULT_THRESHOLD = 10_000
#: Seconds between the young collections ``serve`` makes on a clock by default (0: none).
#: Each survivor is traversed once whatever the interval (total collector time the same at
#: 50 closed-loop rooms, ~495 ms in 8 s either way), so a shorter one only splits the work
#: into smaller pauses: at 1,000 paced rooms 5 ms gave a p99 of 2.88 ms against 3.22 ms for
#: 10 ms (medians of 6 interleaved runs, 5 of 6 pairs better), 20 ms 3.36 ms (3 runs).
DEFAULT_YOUNG_SECONDS = 0.005
#: Seconds between the full collections ``serve`` makes on a clock by default.
DEFAULT_FULL_SECONDS = 600.0
#: The old generation's threshold while collections run on a clock: never by Python.
FULL_OFF = 1 << 30


@dataclass(slots=True)
class _Generation:
    collections: int = 0
    total_s: float = 0.0
    longest_s: float = 0.0
    #: Unreachable objects found (cyclic garbage).
    collected: int = 0


@dataclass(slots=True)
class GcMonitor:
    """Times every collection through :data:`gc.callbacks` (install with :meth:`start`)."""

    generations: list[_Generation] = field(
        default_factory=lambda: [_Generation() for _ in range(3)])
    _began: float = 0.0

    def start(self) -> None:
        """Begin timing collections (until :meth:`stop`)."""
        if self._callback not in gc.callbacks:
            gc.callbacks.append(self._callback)

    def stop(self) -> None:
        """Stop timing collections."""
        if self._callback in gc.callbacks:
            gc.callbacks.remove(self._callback)

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        now = time.perf_counter()
        if phase == "start":
            self._began = now
            return
        pause = now - self._began
        generation = self.generations[info["generation"]]
        generation.collections += 1
        generation.total_s += pause
        generation.longest_s = max(generation.longest_s, pause)
        generation.collected += info["collected"]

    def summary(self) -> dict[str, object]:
        """The figures so far, JSON-ready: per generation, collections, total and longest
        pause in ms and the garbage objects found; and the longest pause of any."""
        out: dict[str, object] = {}
        for n, g in enumerate(self.generations):
            out[f"gen{n}"] = {"collections": g.collections,
                              "total_ms": round(g.total_s * 1000, 1),
                              "longest_ms": round(g.longest_s * 1000, 2),
                              "collected": g.collected}
        out["longest_ms"] = round(max(g.longest_s for g in self.generations) * 1000, 2)
        return out

    def line(self) -> str:
        """:meth:`summary` as one JSON line (``manawire bench-server`` reads it)."""
        return "gc " + json.dumps(self.summary(), sort_keys=True)


async def collect_on_a_clock(interval: float, full_interval: float,
                             idle_interval: float = IDLE_SECONDS) -> None:
    """Collect the young and middle generations together every ``interval`` seconds, and
    everything every ``full_interval`` seconds, until cancelled; Python's own full
    collections are turned off meanwhile. While the event loop idles the young collections
    slow down, up to every ``idle_interval`` seconds (:class:`server.loopclock.LoopClock`:
    every 5 ms an idle server spent a few percent of a core on them).

    Python starts a young collection when allocations minus deallocations pass the first
    threshold -- so while old objects die as fast as new ones are made (a server's
    connections renew their waiting coroutines with every message), the count stays low and
    the young generation grows unseen: 130,000 objects and 160 ms pauses at 1,000 rooms. On
    a clock, each collection finds only what the last ``interval`` made.

    Most of what survives one tick lives on for seconds (a connection's waiting
    coroutines, until its next message; a game's new objects, rule 400.7) and is not
    cyclic garbage: reference counting frees it. So a tick's survivors go straight to the
    old generation (a collection of generation 1 takes generation 0 with it) instead of
    being traversed a second time, ten ticks' worth at once, in a collection of the middle
    generation: at 1,000 paced rooms those took 3.3 ms at the median and up to 25 ms (the
    cost is one cache miss per reference from a young object into a 350 MB heap), and
    collecting both generations each tick cut the action's p99 from 6.6 to 4.5 ms and the
    server's CPU from 47 to 42% (medians of 3 interleaved runs of ``bench-server --rooms
    1000 --pace 0.5 --head-start 150``). Python would then collect the old generation
    whenever it grew by a quarter -- a pause over every object of every room (0.7 s at
    1,000 rooms) every few seconds -- so the full collection runs on its own, slower clock
    instead; cyclic garbage that lived past a tick waits for it.

    The server makes next to no cyclic garbage as it plays (the ``gc`` line's ``collected``:
    none at 50 closed-loop rooms or 1,000 paced ones; ``tests/view/test_cyclic_garbage.py``
    keeps the engine and the view pipeline free of it), so the young collections find none:
    at 1,000 paced rooms (10 ms ticks) each took ~0.21 ms, ~6% of the server's busy time
    (5.5% at 50 closed-loop rooms). Freezing the young generation on the clock instead
    (:func:`gc.freeze`, a list splice; unfreezing for the full collection) was measured: 2%
    more actions/s at 50 closed-loop rooms, but at 1,000 paced rooms a p99 of 3.6-5.8 ms
    against 2.8-3.3 ms and a p99.9 of 9-15 ms against 4-7 ms (6 interleaved pairs of runs,
    no long task step or collection to explain it), so the collector stays."""
    import trio

    first, second, third = gc.get_threshold()
    gc.set_threshold(first, second, FULL_OFF)
    clock = LoopClock(interval, idle_interval)
    try:
        full_due = trio.current_time() + full_interval
        while True:
            await trio.sleep(clock.sleep)
            clock.tick()
            if trio.current_time() >= full_due:
                gc.collect(2)
                full_due = trio.current_time() + full_interval
            else:
                gc.collect(1)
    finally:
        gc.set_threshold(first, second, third)


def set_threshold(threshold: int) -> None:
    """Set the first generation's threshold (0: collection off), keeping the others."""
    _, second, third = gc.get_threshold()
    gc.set_threshold(threshold, second, third)


def freeze_startup() -> None:
    """Collect once, then move every object that exists now to the permanent generation:
    collections never traverse it again (objects in it are still freed by reference
    counting as usual; only cycles among them would stay)."""
    gc.collect()
    gc.freeze()
