"""The relay: serves every room's spectator feeds (:mod:`server.rooms.fanout`) off the game
path (architecture, "Surviving faults": no number of watchers slows a game).

A room's pump only appends each spectator message once per view class; this one task does
the rest. When something new was published it wakes the writers of the watchers it is due
to -- at most :attr:`wake_batch` per scheduler round, yielding between rounds, so the
writers' sends are spread over time and a player's delta never waits behind a thousand
spectators' sends -- and then sleeps until its next flush, at most once per
:attr:`flush_seconds` (spectators see the game up to that much later; players never wait).
Each woken writer takes everything due to its connection as one frame.

It also bounds memory: after each round a feed forgets what all its watchers have taken;
a watcher more than the feed's bound behind is evicted (closed 1013, like any client too
slow for its outbox; it resumes and the room sends it what it missed or a snapshot).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import trio

from server.rooms.commands import ConnId, FeedOp
from server.rooms.fanout import Fanout


class FeedSink(Protocol):
    """Where a room's pump hands its feed operations (:class:`Relay`, or a router that
    also serves relay processes: :class:`server.relay.host.FeedRouter`)."""

    def apply(self, room_id: str, ops: list[FeedOp]) -> None:
        """A room's feed operations, in order."""

    def close_room(self, room_id: str) -> None:
        """The room failed: its feeds end at once."""


class Relay:
    """The spectator relay of one server process (its feeds, and the task serving them)."""

    def __init__(self, wake: Callable[[ConnId], bool], evict: Callable[[ConnId], None], *,
                 flush_seconds: float = 0.1, wake_batch: int = 8,
                 max_messages: int = 4096) -> None:
        if flush_seconds < 0 or wake_batch < 1:
            raise ValueError("the relay's flush interval must be >= 0 and its wake batch >= 1")
        self.fanout = Fanout(max_messages)
        self.flush_seconds = flush_seconds
        self.wake_batch = wake_batch
        self._wake = wake
        self._evict = evict
        self._news = trio.Event()
        #: Writers woken and spectators evicted so far (for tests and metrics).
        self.woken = 0
        self.evicted = 0

    def apply(self, room_id: str, ops: list[FeedOp]) -> None:
        """A room's feed operations (after its direct sends were queued)."""
        if ops:
            self.fanout.apply(room_id, ops)
            self._news.set()

    def news(self) -> None:
        """Something was published or watched: serve it at the next flush."""
        self._news.set()

    def take(self, conn: ConnId, batched: bool) -> list[bytes]:
        """Everything due to ``conn``, as frames (called by its writer when woken)."""
        return self.fanout.take(conn, batched)

    def drop(self, conn: ConnId) -> None:
        """The connection is gone."""
        self.fanout.drop(conn)

    def close_room(self, room_id: str) -> None:
        """The room failed: its feeds end at once (its members were told directly)."""
        self.fanout.close_room(room_id)

    async def run(self) -> None:
        """Serve the feeds until cancelled."""
        while True:
            await self._news.wait()
            self._news = trio.Event()
            started = trio.current_time()
            due = self.fanout.due()
            for n, watch in enumerate(due, start=1):
                if not watch.woken and self.fanout.watches.get(watch.conn) is watch:
                    if self._wake(watch.conn):
                        watch.woken = True
                        self.woken += 1
                    else:
                        self.fanout.drop(watch.conn)
                if n % self.wake_batch == 0:
                    await trio.lowlevel.checkpoint()
            for conn in self.fanout.trim():
                self.evicted += 1
                self._evict(conn)
            await trio.sleep_until(started + self.flush_seconds)
