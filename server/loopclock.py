"""The clock of the event loop's housekeeping -- the collector's young collections
(:func:`server.gctune.collect_on_a_clock`, every 5 ms) and the store's load samples
(:meth:`server.store.writer.StoreWriter.watch_load`, every 10 ms): quick while the loop works,
slowing down while it only waits.

At their quick rates the two woke an idle server 300 times a second, 5% of a core for a
server with no game at all (its process's CPU over 10 s, and ``strace -c``: 190 waits a
second). Under load they must stay quick (a young collection every 5 ms keeps each pause
short: see :data:`server.gctune.DEFAULT_YOUNG_SECONDS`); while the loop is idle there is
nothing to collect and no load to follow. So each tick measures the share of a core the loop
thread used since the last one, averaged over about :data:`SMOOTH_SECONDS` (a server with games
going works in bursts: most 5 ms between two actions are idle, and at 500 paced rooms, 37% of a
core, a clock going by each interval alone slowed down all the same -- 15% fewer collections),
and while that is under :data:`IDLE_SHARE` the next sleep is twice the last, up to
:data:`IDLE_SECONDS`; once the loop works again the clock is back at the quick rate.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

import trio

#: The share of a core under which the loop counts as idle: above what the quick ticks
#: themselves cost (about 5% together), below what a server with games going spends. At
#: 15% (and each interval's share alone, see above), a server of 100 rooms of players at 0.5
#: actions/s (10-12%) made a third of the collections, and its action-to-delta p99 rose from
#: 4.5 to 5.6 ms (medians of 3 runs interleaved with the quick clock's).
IDLE_SHARE = 0.08
#: Seconds the share a tick compares with :data:`IDLE_SHARE` is averaged over (a moving
#: average, each interval weighted by its length).
SMOOTH_SECONDS = 0.2
#: The longest sleep an idle loop's clock slows to: a server that starts working again is
#: found within it (and what it made meanwhile collected in one young collection).
IDLE_SECONDS = 0.1


class LoopClock:
    """Sleeps of ``seconds`` while the loop works; doubling up to ``idle_seconds`` while it
    idles. Call :meth:`tick` after each sleep. Measures with ``cpu`` (the calling thread's
    CPU time) over ``now`` (trio's clock: under a test's autojump clock a waiting loop is
    idle, as it would be)."""

    def __init__(self, seconds: float, idle_seconds: float = IDLE_SECONDS, *,
                 smooth_seconds: float = SMOOTH_SECONDS,
                 cpu: Callable[[], float] = time.thread_time,
                 now: Callable[[], float] = trio.current_time) -> None:
        self.seconds = seconds
        self.idle_seconds = max(seconds, idle_seconds)
        #: How long to sleep next.
        self.sleep = seconds
        #: The share of a core the thread used between the last two ticks.
        self.share = 0.0
        #: That share averaged over about ``smooth_seconds`` (each interval weighted by
        #: its length).
        self.load = 0.0
        self.smooth_seconds = smooth_seconds
        #: Seconds between the last two ticks.
        self.elapsed = 0.0
        self._cpu = cpu
        self._now = now
        self._last = (cpu(), now())

    def tick(self) -> float:
        """Measure the thread's share of a core since the last tick (and its average); the
        next sleep."""
        cpu, now = self._cpu(), self._now()
        last_cpu, last_now = self._last
        self._last = (cpu, now)
        self.elapsed = now - last_now
        self.share = (cpu - last_cpu) / self.elapsed if self.elapsed > 0 else 1.0
        weight = 1.0 - math.exp(-self.elapsed / self.smooth_seconds) if self.elapsed > 0 else 1.0
        self.load += weight * (self.share - self.load)
        if self.load < IDLE_SHARE:
            self.sleep = min(self.idle_seconds, 2 * self.sleep)
        else:
            self.sleep = self.seconds
        return self.sleep
