"""A share of the event loop's time for work nobody waits for (:class:`WorkBudget`): the
delayed spectator tiers' (:mod:`server.rooms.pump`) and the replays'
(:class:`server.rooms.replaying.ReplayBudget`)."""

from __future__ import annotations

import time
from collections.abc import Callable

import trio


class WorkBudget:
    """A token bucket of work seconds, refilled at ``share`` per second of trio's clock and
    holding at most ``burst``. It never waits: :meth:`ready_at` says when work may go on,
    and the work done is :meth:`charge`d after it (timed with ``work_clock``)."""

    def __init__(self, share: float, burst: float, *,
                 work_clock: Callable[[], float] = time.perf_counter) -> None:
        if not (0 < share <= 1 and burst > 0):
            raise ValueError(f"a work budget needs 0 < share <= 1 and burst > 0, not "
                             f"{share!r}, {burst!r}")
        self.share = share
        self.burst = burst
        #: What the work is timed with (a test's own clock).
        self.work_clock = work_clock
        self._tokens = burst
        self._refilled: float | None = None
        #: Work seconds charged so far (for tests and diagnostics).
        self.spent = 0.0

    def ready_at(self) -> float:
        """When work may be done (now, or when the bucket is no longer in debt)."""
        now = trio.current_time()
        if self._refilled is not None:
            self._tokens = min(self.burst, self._tokens + (now - self._refilled) * self.share)
        self._refilled = now
        return now if self._tokens >= 0 else now - self._tokens / self.share

    def charge(self, seconds: float) -> None:
        """``seconds`` of work were done."""
        self._tokens -= seconds
        self.spent += seconds
