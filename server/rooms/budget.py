"""A share of the event loop's time for work nobody waits for (:class:`WorkBudget`): the
delayed spectator tiers' (:mod:`server.rooms.pump`, the rooms taking :class:`Turns`) and the
replays' (:class:`server.rooms.replaying.ReplayBudget`)."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from typing import Protocol

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

    def full_at(self) -> float:
        """When the bucket is full again, as of its last refill (:meth:`ready_at`)."""
        refilled = trio.current_time() if self._refilled is None else self._refilled
        return refilled + max(0.0, self.burst - self._tokens) / self.share

    def charge(self, seconds: float) -> None:
        """``seconds`` of work were done."""
        self._tokens -= seconds
        self.spent += seconds


class Waiter(Protocol):
    """What takes :class:`Turns`: a room's host (hashable by identity)."""

    def turn_came(self) -> None:
        """It is this room's turn now (never waits)."""


class Turns:
    """The rooms whose delayed tiers have work due, served one at a time in the order they
    asked (first come, first served) within one :class:`WorkBudget`. Rooms waiting for the
    same budget once all woke at the same moment, and the same one or two of them always
    found it ready: the others' tiers showed nothing while any of those had work."""

    def __init__(self, budget: WorkBudget) -> None:
        self.budget = budget
        self._queue: deque[Waiter] = deque()
        self._waiting: set[Waiter] = set()

    def ask(self, room: Waiter) -> None:
        """``room`` has work due: it waits for its turn (once in the queue)."""
        if room not in self._waiting:
            self._waiting.add(room)
            self._queue.append(room)

    def leave(self, room: Waiter) -> None:
        """``room`` has no work due any more, had its turn, or is gone: it leaves the queue
        (to ask again at its back); if it had the turn, the next room has it."""
        if room not in self._waiting:
            return
        self._waiting.discard(room)
        queue = self._queue
        if queue[0] is room:
            queue.popleft()
            if queue:
                queue[0].turn_came()
        else:
            queue.remove(room)

    def has_turn(self, room: Waiter) -> bool:
        """Whether it is ``room``'s turn."""
        return bool(self._queue) and self._queue[0] is room
