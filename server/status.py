"""What a running server is doing, told to its operator as one log line every few minutes
(``serve --status-seconds``, docs/limits.md "Limits"): the connections, rooms and games open
now, and the connections opened and actions played since the last line, e.g.

    status: 35 connections, 18 rooms (12 games in play); last 600 s: 120 connections
    opened, 1,234 actions

and, while the store can't be written (a full disk), the rooms stopped meanwhile: "18 rooms
(12 games in play), 3 rooms stopped (the store can't be written); last 600 s: ..."

Counting costs an addition per connection and per action; the gauges are read when the line
is made."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

import trio

log = logging.getLogger("manawire")

#: Seconds between two status lines by default.
STATUS_SECONDS = 600.0


@dataclass(frozen=True, slots=True)
class Gauges:
    """What is open now."""

    connections: int
    rooms: int
    playing: int
    #: Rooms stopped because the store couldn't be written (not among ``rooms``).
    stopped: int = 0


@dataclass(slots=True)
class Activity:
    """What happened since the last status line (and since the start: the totals, which
    :mod:`server.metrics` reports)."""

    connections: int = 0
    actions: int = 0
    #: Counted before the last status line (the totals add what came since).
    _connections_before: int = 0
    _actions_before: int = 0

    @property
    def connections_total(self) -> int:
        """Connections opened since the start."""
        return self._connections_before + self.connections

    @property
    def actions_total(self) -> int:
        """Actions played since the start."""
        return self._actions_before + self.actions

    def take(self, seconds: float, now: Gauges) -> str:
        """The status line for ``now`` and what happened in the last ``seconds``; the
        counts start over."""
        line = (f"status: {now.connections:,} connection{_s(now.connections)}, "
                f"{now.rooms:,} room{_s(now.rooms)} ({now.playing:,} "
                f"game{_s(now.playing)} in play)"
                + (f", {now.stopped:,} room{_s(now.stopped)} stopped (the store can't be "
                   f"written)" if now.stopped else "")
                + f"; last {seconds:.0f} s: "
                f"{self.connections:,} connection{_s(self.connections)} opened, "
                f"{self.actions:,} action{_s(self.actions)}")
        self._connections_before += self.connections
        self._actions_before += self.actions
        self.connections = self.actions = 0
        return line

    async def report(self, every: float, gauges: Callable[[], Gauges]) -> None:
        """Log a status line every ``every`` seconds (an INFO line), until cancelled."""
        while True:
            await trio.sleep(every)
            log.info("%s", self.take(every, gauges()))


def _s(n: int) -> str:
    return "" if n == 1 else "s"
