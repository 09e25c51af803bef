"""Quick-match queues: players waiting for opponents of the same deck format and table size.

Pure bookkeeping (no I/O): :meth:`MatchQueues.add` says when a table is complete; the caller
creates the room and seats its players.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from server.decks import Deck, DeckFormat
from server.rooms.commands import ConnId

QueueKey = tuple[DeckFormat, int]


@dataclass(frozen=True, slots=True)
class QueueEntry:
    """A queued connection: the request id its Joined answers, and its checked deck (None:
    a demo deck)."""

    conn: ConnId
    rid: int
    deck: Deck | None


class MatchQueues:
    """One first-come, first-served queue per (format, seats)."""

    def __init__(self) -> None:
        self._queues: dict[QueueKey, deque[QueueEntry]] = {}
        self._where: dict[ConnId, QueueKey] = {}

    def add(self, key: QueueKey, entry: QueueEntry, *, front: bool = False
            ) -> list[QueueEntry] | None:
        """Queue ``entry`` (at the front: put back after a table fell apart). Returns the
        players of a complete table (taken out of the queue), or None."""
        queue = self._queues.setdefault(key, deque())
        if front:
            queue.appendleft(entry)
        else:
            queue.append(entry)
        self._where[entry.conn] = key
        _fmt, seats = key
        if len(queue) < seats:
            return None
        table = [queue.popleft() for _ in range(seats)]
        for taken in table:
            del self._where[taken.conn]
        if not queue:
            del self._queues[key]
        return table

    def remove(self, conn: ConnId) -> bool:
        """Take ``conn`` out of its queue (False: it wasn't queued)."""
        key = self._where.pop(conn, None)
        if key is None:
            return False
        queue = self._queues[key]
        for entry in queue:
            if entry.conn == conn:
                queue.remove(entry)
                break
        if not queue:
            del self._queues[key]
        return True

    def waiting(self, key: QueueKey) -> int:
        """How many wait in the queue ``key``."""
        return len(self._queues.get(key, ()))
