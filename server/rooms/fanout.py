"""Spectator fan-out: each room's spectator view classes as shared, encoded feeds (sans-I/O).

A room never sends a spectator message per spectator. It *publishes* each message once per
view class (:class:`~server.rooms.commands.Publish`: tier 0 the live public view, n the
room's n-th delayed tier) and says which connections watch which class
(:class:`~server.rooms.commands.StartWatching`, with the messages that connection needs
first -- its snapshot, or the deltas it missed) and which stop
(:class:`~server.rooms.commands.StopWatching`), in order, in ``Output.feed``.
:class:`Fanout` keeps every class's recent messages once, in a :class:`Feed` shared by all
its watchers, and each watcher's place in it; publishing costs the same with 0 or 10,000
watchers.

The :class:`server.rooms.relay.Relay` task serves the watchers off the game path: at most
once per flush interval it wakes the writers of the watchers with something new, a few at
a time, and each writer :meth:`Fanout.take`\\ s everything due to it as one batched frame
(the bytes are joined once per feed range and shared by every watcher at that place).

Nothing is dropped silently: a feed keeps at most ``max_messages`` messages; a watcher that
falls further behind than that is evicted (the relay closes its connection with 1013; it
resumes and gets what it missed, or a snapshot, from the room).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import assert_never

from protocol.v1 import messages_pb2 as mpb
from server.rooms.commands import ConnId, FeedOp, Publish, StartWatching, StopWatching
from server.rooms.session import error_bytes
from server.transport.batch import MAX_BATCH_BYTES, batch_entry

#: A feed's key: (room id, tier).
FeedKey = tuple[str, int]


@dataclass(eq=False, slots=True)
class Feed:
    """One view class's stream: its last messages, each also as a ServerBatch entry."""

    key: FeedKey
    #: Sequence number of ``messages[0]`` (the first message ever published is 0).
    base: int = 0
    messages: list[bytes] = field(default_factory=list)
    entries: list[bytes] = field(default_factory=list)
    watchers: dict[ConnId, Watch] = field(default_factory=dict)
    #: Batched frames already joined for a range (start, end), shared by its watchers.
    joined: dict[tuple[int, int], list[bytes]] = field(default_factory=dict)

    @property
    def end(self) -> int:
        """The sequence number the next published message gets."""
        return self.base + len(self.messages)

    def frames(self, start: int, end: int, batched: bool) -> list[bytes]:
        """Messages ``start`` to ``end`` as frames: ServerBatch frames of at most
        :data:`MAX_BATCH_BYTES` (joined once per range), or one message per frame."""
        lo, hi = start - self.base, end - self.base
        if not batched:
            return self.messages[lo:hi]
        cached = self.joined.get((start, end))
        if cached is None:
            cached = join_entries(self.entries[lo:hi])
            self.joined[(start, end)] = cached
        return cached


def join_entries(entries: list[bytes]) -> list[bytes]:
    """ServerBatch entries as frames of at most :data:`MAX_BATCH_BYTES` (a larger entry
    goes alone in its own frame)."""
    frames: list[bytes] = []
    parts: list[bytes] = []
    size = 0
    for entry in entries:
        if parts and size + len(entry) > MAX_BATCH_BYTES:
            frames.append(b"".join(parts))
            parts, size = [], 0
        parts.append(entry)
        size += len(entry)
    if parts:
        frames.append(b"".join(parts))
    return frames


@dataclass(eq=False, slots=True)
class Watch:
    """One connection's place in one feed."""

    conn: ConnId
    feed: Feed
    #: The next message of the feed to send it.
    cursor: int
    #: Messages for this connection alone, sent before the feed's (a snapshot, missed deltas).
    first: list[bytes] = field(default_factory=list)
    #: Stop once the cursor reaches this (the room closed: everything up to its last word).
    until: int | None = None
    #: Its writer was woken and hasn't taken its messages yet.
    woken: bool = False

    def due(self) -> bool:
        """Whether something waits for this connection."""
        end = self.feed.end if self.until is None else self.until
        return bool(self.first) or self.cursor < end


def superseded(first: list[bytes]) -> list[bytes]:
    """For each reply among a replaced watch's unsent first messages -- a snapshot that
    answers a ``RequestSnapshot`` (it carries the request's id) -- a short error with that
    id: the client's next snapshot request superseded it before it was sent (a spectator
    asking again within one flush), and every request is answered. Only a short error
    stays queued, however often a client asks without reading."""
    answers = []
    for data in first:
        request_id = mpb.ServerMessage.FromString(data).request_id
        if request_id:
            answers.append(error_bytes(
                mpb.ERROR_CODE_RATE_LIMITED, "a later RequestSnapshot superseded this one "
                "before its snapshot was sent: the later one's snapshot follows", request_id))
    return answers


class Fanout:
    """Every room's spectator feeds and who watches which (no I/O, no clock)."""

    def __init__(self, max_messages: int = 4096) -> None:
        if max_messages < 1:
            raise ValueError(f"a feed keeps at least 1 message, not {max_messages}")
        self.max_messages = max_messages
        self.feeds: dict[FeedKey, Feed] = {}
        self.watches: dict[ConnId, Watch] = {}
        #: Feeds published to (or watched anew) since :meth:`due` last looked.
        self._dirty: dict[FeedKey, Feed] = {}

    # ---- what rooms say
    def apply(self, room_id: str, ops: list[FeedOp]) -> None:
        """Carry out a room's feed operations, in order (a watch starts after what was
        published before it: its first messages cover that)."""
        for op in ops:
            if isinstance(op, Publish):
                self.publish((room_id, op.tier), op.data)
            elif isinstance(op, StartWatching):
                self.watch(op.conn, (room_id, op.tier), op.first)
            elif isinstance(op, StopWatching):
                self.unwatch(op.conn, op.drain, room_id)
            else:
                assert_never(op)

    def publish(self, key: FeedKey, data: bytes) -> None:
        """Append a message to a class's feed (nothing is kept for a class nobody watches)."""
        feed = self.feeds.get(key)
        if feed is None:
            return
        feed.messages.append(data)
        feed.entries.append(batch_entry(data))
        self._dirty[key] = feed

    def watch(self, conn: ConnId, key: FeedKey, first: Sequence[bytes]) -> None:
        """``conn`` follows the feed ``key`` from now on, after ``first``. Replaces what it
        followed before (a resync: the new snapshot supersedes what it was still owed --
        but a reply still owed in the same feed is answered: :func:`superseded`)."""
        old = self.watches.get(conn)
        answers = superseded(old.first) if old is not None and old.feed.key == key else []
        self.unwatch(conn, drain=False)
        feed = self.feeds.get(key)
        if feed is None:
            feed = self.feeds[key] = Feed(key)
        watch = Watch(conn, feed, feed.end, [*answers, *first])
        feed.watchers[conn] = watch
        self.watches[conn] = watch
        self._dirty[key] = feed

    def unwatch(self, conn: ConnId, drain: bool, room_id: str | None = None) -> None:
        """``conn`` stops following its feed: at once, or (``drain``) after every message
        published so far. With ``room_id``, only a feed of that room (a spectator that
        already watches another room's keeps it)."""
        watch = self.watches.get(conn)
        if watch is None or (room_id is not None and watch.feed.key[0] != room_id):
            return
        if drain and watch.due():
            watch.until = watch.feed.end
            return
        self._remove(watch)

    def drop(self, conn: ConnId) -> None:
        """The connection is gone."""
        self.unwatch(conn, drain=False)

    def close_room(self, room_id: str) -> list[ConnId]:
        """The room failed: forget its feeds at once. Returns their watchers."""
        gone: list[ConnId] = []
        for key in [k for k in self.feeds if k[0] == room_id]:
            feed = self.feeds.pop(key)
            self._dirty.pop(key, None)
            for conn in feed.watchers:
                self.watches.pop(conn, None)
                gone.append(conn)
        return gone

    # ---- what the relay and the writers do
    def due(self) -> list[Watch]:
        """The watchers with something new since the last call that aren't woken yet."""
        out: list[Watch] = []
        dirty, self._dirty = self._dirty, {}
        for feed in dirty.values():
            out.extend(w for w in feed.watchers.values() if not w.woken and w.due())
        return out

    def take(self, conn: ConnId, batched: bool) -> list[bytes]:
        """Everything due to ``conn`` now, as frames (ServerBatch frames if ``batched``);
        it is no longer woken. A watcher that was draining stops once it has it all."""
        watch = self.watches.get(conn)
        if watch is None:
            return []
        watch.woken = False
        feed = watch.feed
        end = feed.end if watch.until is None else watch.until
        frames = join_entries([batch_entry(d) for d in watch.first]) if batched and \
            watch.first else list(watch.first)
        watch.first = []
        if watch.cursor < end:
            frames.extend(feed.frames(watch.cursor, end, batched))
            watch.cursor = end
        if watch.until is not None and watch.cursor >= watch.until:
            self._remove(watch)
        return frames

    def trim(self) -> list[ConnId]:
        """Forget what every watcher of a feed has taken and shared joins of past ranges;
        returns the watchers that fell more than ``max_messages`` behind (evict them)."""
        evicted: list[ConnId] = []
        for key, feed in list(self.feeds.items()):
            limit = feed.end - self.max_messages
            for watch in [w for w in feed.watchers.values() if w.cursor < limit]:
                evicted.append(watch.conn)
                self._remove(watch)
            if key not in self.feeds:
                continue
            low = min((w.cursor for w in feed.watchers.values()), default=feed.end)
            if low > feed.base:
                cut = low - feed.base
                del feed.messages[:cut]
                del feed.entries[:cut]
                feed.base = low
            feed.joined.clear()
        return evicted

    def _remove(self, watch: Watch) -> None:
        feed = watch.feed
        if feed.watchers.get(watch.conn) is watch:
            del feed.watchers[watch.conn]
        if self.watches.get(watch.conn) is watch:
            del self.watches[watch.conn]
        if not feed.watchers and self.feeds.get(feed.key) is feed:
            del self.feeds[feed.key]
            self._dirty.pop(feed.key, None)
