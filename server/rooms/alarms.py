"""Every room's wake-up time, kept by one task for all rooms.

A room wakes up by itself when a player's time bank runs out (they lose the game), when a
finished room's linger time ends, or when a sideboarding or a delayed spectator tier is due.
Its task used to wait for its next command under a cancel scope with that deadline: entering
and leaving the scope cost about 15-20 us per wait, at every action of every room (every
room has a clock, and its deadline moves with each change of priority). Now a room waits
without a deadline and tells :class:`Alarms` its wake-up time; the alarms task sleeps until
the earliest one and queues a :class:`~server.rooms.commands.Tick` for each room whose time
has come. Setting a wake-up is a dictionary write and a heap push.
"""

from __future__ import annotations

import heapq
import itertools
import math
from typing import Protocol

import trio


class Wakeable(Protocol):
    """What the alarms wake: a room's host (hashable by identity)."""

    def wake(self) -> None:
        """Queue a Tick for the room (never waits)."""


class Alarms:
    """Wake-up times of many rooms, and the task (:meth:`run`) that keeps them."""

    def __init__(self) -> None:
        #: Each room's current wake-up time (rooms without one are absent).
        self._due: dict[Wakeable, float] = {}
        #: (time, order, room): a room's entry is current while its time is ``_due``'s;
        #: older ones are skipped when they come up, and dropped when the heap is rebuilt.
        self._heap: list[tuple[float, int, Wakeable]] = []
        self._order = itertools.count()
        #: The alarms task's sleep, while it sleeps (its deadline: the earliest entry).
        self._scope: trio.CancelScope | None = None

    @property
    def waiting(self) -> int:
        """Rooms with a wake-up time. (Not ``__len__``: empty alarms must not be falsy.)"""
        return len(self._due)

    def set(self, room: Wakeable, when: float) -> None:
        """``room`` wakes at ``when`` (trio time; ``math.inf``: never), instead of at any time
        set before."""
        due = self._due
        if when == math.inf:
            due.pop(room, None)
            return
        if due.get(room) == when:
            return
        due[room] = when
        heap = self._heap
        if len(heap) > 2 * len(due) + 64:  # mostly entries gone stale: start afresh
            self._rebuild()
        else:
            heapq.heappush(heap, (when, next(self._order), room))
        scope = self._scope
        if scope is not None and when < scope.deadline:
            scope.deadline = when

    def forget(self, room: Wakeable) -> None:
        """``room`` is gone: it never wakes, and nothing here refers to it any more (the
        heap is rebuilt from the current times: a closed room leaves memory)."""
        self._due.pop(room, None)
        if any(entry[2] is room for entry in self._heap):
            self._rebuild()

    def _rebuild(self) -> None:
        self._heap[:] = [(t, next(self._order), r) for r, t in self._due.items()]
        heapq.heapify(self._heap)

    async def run(self) -> None:
        """Until cancelled: sleep until the earliest wake-up time, then wake every room
        whose time has come (each once; a room sets its next time when it has handled the
        Tick)."""
        heap = self._heap
        while True:
            with trio.CancelScope(deadline=heap[0][0] if heap else math.inf) as scope:
                self._scope = scope
                await trio.sleep_forever()
            self._scope = None
            self._wake_due(trio.current_time())

    def _wake_due(self, now: float) -> None:
        # (a function of its own: no room stays referred to by the task's frame)
        heap, due = self._heap, self._due
        while heap and heap[0][0] <= now:
            when, _, room = heapq.heappop(heap)
            if due.get(room) == when:
                del due[room]
                room.wake()
