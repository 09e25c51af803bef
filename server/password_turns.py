"""Whose password check runs next: the turns of sign-ins and registrations at the server's
few password-hashing worker threads (:class:`server.sessions.SessionDesk`).

A password check is slow on purpose (Argon2id, ~0.27 s of CPU), so the server runs two at
once. Served in arrival order, a flood of made-up names from sixty addresses (each within
its own per-address rate) queued hundreds of checks, and a real user's sign-in from another
address waited 5-10 s or more behind them. Now:

* **Bounded.** At most ``most_waiting`` checks wait (about a second's worth); past it a
  check is refused at once (:class:`ChecksBusy`: the caller answers ``RATE_LIMITED``) rather
  than kept waiting for seconds, unless it outranks one already waiting, which is refused in
  its place.
* **Least used first.** The next check to run is that of the address whose password checks
  were used least lately -- the one whose ``standing`` (the tokens left in its bucket of
  checks, ``--password-checks-per-minute``) is highest, whole tokens compared, then in
  arrival order. A flooding address has used its burst; a real user's has not, so its
  sign-in runs next and, when the queue is full, takes the place of a flood's.
* **One at a time per address**, as before: another address's check never waits behind one
  address's queue.

Nothing here sleeps, reads a clock or does I/O (:class:`TurnQueue`); :class:`PasswordTurns`
runs it on trio. Nothing depends on the name or password: the turns tell nobody which names
exist.
"""

from __future__ import annotations

import enum
import math
from collections import deque
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass

import trio


class TurnState(enum.Enum):
    """Where a :class:`Turn` is."""

    WAITING = "waiting"  #: queued for a worker
    RUNNING = "running"  #: its check may run (holds a worker)
    REFUSED = "refused"  #: refused: the queue was full (at arrival, or pushed out later)
    DONE = "done"  #: finished, or left while waiting


@dataclass(eq=False, slots=True)
class Turn:
    """One password check's turn."""

    address: str
    #: Arrival order (ties in standing are served first come, first served).
    order: int
    state: TurnState = TurnState.WAITING

    @property
    def refused(self) -> bool:
        """Whether it was refused (at its arrival, or pushed out while waiting)."""
        return self.state is TurnState.REFUSED


class ChecksBusy(Exception):
    """A password check refused because the server has as many waiting as it serves within
    about a second, none of them from an address that used fewer checks lately."""


class TurnQueue:
    """Turns at ``workers`` worker threads: one running per address, at most
    ``most_waiting`` waiting, the next the one of the waiting address with the highest
    ``standing(address)`` (whole units; ties in arrival order). Every method returns the
    turns whose state it changed besides the one it was given, for the caller to wake."""

    __slots__ = ("_arrivals", "_running", "_waiting", "most_waiting", "standing", "workers")

    def __init__(self, workers: int, most_waiting: int,
                 standing: Callable[[str], float]) -> None:
        if workers < 1 or most_waiting < 0:
            raise ValueError(f"a queue of turns needs a worker and no negative number "
                             f"waiting (not {workers}, {most_waiting})")
        self.workers = workers
        self.most_waiting = most_waiting
        self.standing = standing
        self._arrivals = 0
        #: The waiting turns of each address, in arrival order (no empty deque is kept).
        self._waiting: dict[str, deque[Turn]] = {}
        #: The addresses whose check is running.
        self._running: set[str] = set()

    @property
    def waiting(self) -> int:
        """How many turns wait."""
        return sum(len(turns) for turns in self._waiting.values())

    @property
    def running(self) -> int:
        """How many checks run."""
        return len(self._running)

    def addresses(self) -> set[str]:
        """The addresses with a turn running or waiting (none once idle)."""
        return self._running | set(self._waiting)

    def _rank(self, address: str) -> int:
        return math.floor(self.standing(address))

    def arrive(self, address: str) -> tuple[Turn, list[Turn]]:
        """A check from ``address`` asks for a turn: it runs at once (RUNNING), waits
        (WAITING), or is refused (REFUSED). Returns it and the waiting turn it pushed out
        (now REFUSED), if any."""
        self._arrivals += 1
        turn = Turn(address, self._arrivals)
        self._waiting.setdefault(address, deque()).append(turn)
        changed = self._start()
        if self.waiting > self.most_waiting:
            worst = self._worst()
            assert worst is not None  # (some turn waits)
            self._remove(worst)
            worst.state = TurnState.REFUSED
            changed.append(worst)
        return turn, [t for t in changed if t is not turn]

    def finish(self, turn: Turn) -> list[Turn]:
        """``turn``'s check is over, or it no longer waits (its client went away): DONE.
        Returns the turns started in its place (now RUNNING)."""
        if turn.state is TurnState.RUNNING:
            self._running.discard(turn.address)
        elif turn.state is TurnState.WAITING:
            self._remove(turn)
        else:
            return []
        turn.state = TurnState.DONE
        return self._start()

    def _remove(self, turn: Turn) -> None:
        turns = self._waiting[turn.address]
        turns.remove(turn)
        if not turns:
            del self._waiting[turn.address]

    def _worst(self) -> Turn | None:
        """The waiting turn to refuse first: the latest of the lowest-standing address."""
        worst: tuple[int, int] | None = None
        found: Turn | None = None
        for address, turns in self._waiting.items():
            key = (self._rank(address), -turns[-1].order)
            if worst is None or key < worst:
                worst, found = key, turns[-1]
        return found

    def _start(self) -> list[Turn]:
        """Start the turns there are workers for; returns them."""
        started: list[Turn] = []
        while len(self._running) < self.workers:
            best: tuple[int, int] | None = None
            found: Turn | None = None
            for address, turns in self._waiting.items():
                if address in self._running:
                    continue
                key = (-self._rank(address), turns[0].order)
                if best is None or key < best:
                    best, found = key, turns[0]
            if found is None:
                break
            self._remove(found)
            self._running.add(found.address)
            found.state = TurnState.RUNNING
            started.append(found)
        return started


class PasswordTurns:
    """:class:`TurnQueue` on trio: ``async with turns.turn(address):`` holds a worker for
    one check, or raises :class:`ChecksBusy` (at once, or when pushed out while waiting)."""

    def __init__(self, workers: int, most_waiting: int,
                 standing: Callable[[str], float]) -> None:
        self.queue = TurnQueue(workers, most_waiting, standing)
        self._events: dict[Turn, trio.Event] = {}

    def _wake(self, turns: list[Turn]) -> None:
        for turn in turns:
            event = self._events.pop(turn, None)
            if event is not None:
                event.set()

    @asynccontextmanager
    async def turn(self, address: str) -> AsyncIterator[None]:
        turn, others = self.queue.arrive(address)
        self._wake(others)
        if turn.refused:
            raise ChecksBusy
        try:
            if turn.state is TurnState.WAITING:
                event = self._events[turn] = trio.Event()
                await event.wait()
                if turn.refused:
                    raise ChecksBusy
            yield
        finally:
            self._events.pop(turn, None)
            self._wake(self.queue.finish(turn))
