"""The quick-match desk: a connection's ``QuickMatch`` and ``CancelQuickMatch`` from its queue
to its seat (protocol/README.md, "Quick match").

:class:`~server.rooms.matchmaking.MatchQueues` only keeps the queues; this desk is the part
with effects: it checks the deck before a player is queued, answers ``MatchQueue``, creates a
complete table's room and seats its players through the same join a ``JoinRoom`` makes, and
remembers each queue's unstarted rooms so that a seat a player dropped out of is filled
before any new table is opened. It is the :class:`server.app.App`'s, which owns the
connections and hands in what seating needs (the room-settling join and the deck check)
rather than the desk reaching back into it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import TYPE_CHECKING, TypeAlias

import trio

from protocol.v1 import messages_pb2 as mpb
from server.decks import Deck, DeckFormat
from server.rooms import commands as cmd
from server.rooms import session as req
from server.rooms.commands import ConnId
from server.rooms.lobby import Lobby, LobbyFullError
from server.rooms.matchmaking import MatchQueues, QueueEntry, QueueKey
from server.rooms.pump import RoomHost
from server.rooms.room import FORMAT_WIRE
from server.rooms.session import error_bytes
from server.store.records import RoomSettings
from server.store.writer import StoreClosedError, StoreUnwritableError, StoreWriter

if TYPE_CHECKING:
    from server.app import _Connection
    from server.refusals import Notes
    #: Check a deck spec against a format: (playable, the deck; None: a demo deck).
    DeckCheck: TypeAlias = Callable[[_Connection, int, str, DeckFormat],
                                    Awaitable[tuple[bool, Deck | None]]]
    #: Hand a join to a room and record its answer (None: the room is gone).
    Settle: TypeAlias = Callable[[_Connection, RoomHost, cmd.Join],
                                 Awaitable[cmd.Output | None]]


class QuickMatchDesk:
    """The quick-match queues, and the quick-match rooms still waiting for their players."""

    def __init__(self, lobby: Lobby, writer: StoreWriter, conns: Mapping[ConnId, _Connection],
                 *, deck: DeckCheck, settle: Settle, refusals: Notes | None = None,
                 refusal: Callable[[Iterable[str]], tuple[int, str] | None] =
                 lambda _addresses: None,
                 made_for: Callable[[str, Iterable[str]], None] = lambda _r, _a: None,
                 rooms_made: Callable[[Iterable[str]], None] = lambda _a: None,
                 ) -> None:
        """``refusal``: why no room may be made for a player at an address, and its error
        code (None: it may -- the per-address room limit and rate of rooms made, checked
        as it queues and again as its table is made); ``made_for``: a room a player was
        seated in counts against its address (room id, addresses); ``rooms_made``: a
        table's room was made for players at these addresses (each one's rate: taken only
        once it is)."""
        self._refusal = refusal
        self._made_for = made_for
        self._rooms_made = rooms_made
        self.lobby = lobby
        #: Where a table refused for want of room on the server is noted, one refusal per
        #: player, for the operator's log (server.refusals).
        self.refusals = refusals
        self.writer = writer
        self.conns = conns
        self._deck = deck
        self._settle = settle
        self.queues = MatchQueues()
        #: Quick-match rooms by queue, until their game starts (see _open_match).
        self._rooms: dict[QueueKey, set[str]] = {}

    def _queue_reply(self, rid: int, key: QueueKey, queued: bool) -> bytes:
        fmt, seats = key
        return mpb.ServerMessage(request_id=rid, match_queue=mpb.MatchQueue(
            queued=queued, format=FORMAT_WIRE[fmt], seats=seats,
            waiting=self.queues.waiting(key))).SerializeToString()

    async def queue(self, conn: _Connection, rid: int, request: req.QuickMatch) -> None:
        """``QuickMatch``: queue ``conn`` (or seat it in a room a player dropped out of)."""
        if conn.busy(rid):
            return
        if refused := self._refusal([conn.address]):
            if self.refusals is not None:
                self.refusals.note("room", conn.address)
            conn.reply(error_bytes(*refused, rid))
            return
        ok, deck = await self._deck(conn, rid, request.deck, request.format)
        if not ok:
            return
        key = (request.format, request.seats)
        entry = QueueEntry(conn.conn_id, rid, deck)
        conn.queued = key
        waiting = self._open_match(key)
        # Seating runs in this connection's task, but it is everyone's: shielded, so this
        # connection closing (taken over, dropped) can't stop it halfway -- the players
        # after it, taken out of the queue already, were left unseated and unanswered,
        # stuck "queued". (Each room's answer has its own deadline: _settle.)
        with trio.CancelScope(shield=True):
            if waiting is not None:  # a quick-match room a player dropped out of: fill it
                conn.reply(self._queue_reply(rid, key, True))
                await self._seat_one(waiting, entry)
                return
            table = self.queues.add(key, entry)
            conn.reply(self._queue_reply(rid, key, True))
            if table is not None:
                await self._seat_table(key, table)

    def _open_match(self, key: QueueKey) -> RoomHost | None:
        """An unstarted quick-match room of ``key`` with a free seat (one of its players
        dropped before the game started), if any."""
        rooms = self._rooms.get(key, set())
        for room_id in sorted(rooms):
            host = self.lobby.hosts.get(room_id)
            if host is None or host.room.game is not None:
                rooms.discard(room_id)
            elif any(m is None for m in host.room.seats):
                return host
        return None

    def cancel(self, conn: _Connection, rid: int) -> None:
        """``CancelQuickMatch``: take ``conn`` out of its queue."""
        key = conn.queued
        if key is None or not self.queues.remove(conn.conn_id):
            conn.reply(error_bytes(mpb.ERROR_CODE_NOT_READY, "not in the quick-match queue",
                                   rid))
            return
        conn.queued = None
        conn.reply(self._queue_reply(rid, key, False))

    def dropped(self, conn: _Connection) -> None:
        """``conn``'s connection ended: it leaves its queue (nothing of it is resumed)."""
        if conn.queued is not None:
            self.queues.remove(conn.conn_id)

    def room_closed(self, room_id: str) -> None:
        """A room closed: it is no quick-match room waiting for players any more."""
        for rooms in self._rooms.values():
            rooms.discard(room_id)

    async def _seat_table(self, key: QueueKey, table: list[QueueEntry]) -> None:
        """Enough players wait: create their room and seat each (a player who left the
        queue meanwhile is skipped, and so is one whose address may have no room made for
        it now -- it is told why, and leaves the queue; the others are put back in front
        of the queue)."""
        fmt, seats = key
        live = [e for e in table if e.conn in self.conns]
        # (checked as each queued, but its address may have made rooms since: another
        # connection's, another table's)
        for entry in list(live):
            conn = self.conns[entry.conn]
            if refused := self._refusal([conn.address]):
                live.remove(entry)
                conn.queued = None
                if self.refusals is not None:
                    self.refusals.note("room", conn.address)
                conn.reply(error_bytes(*refused, entry.rid))
        if len(live) < seats:
            for entry in reversed(live):
                again = self.queues.add(key, entry, front=True)
                if again is not None:
                    await self._seat_table(key, again)
            return
        try:
            host = self.lobby.create(f"quick match ({fmt.value})", seats, 0,
                                     RoomSettings(format=fmt.value))
        except LobbyFullError as exc:
            for entry in live:
                conn = self.conns[entry.conn]
                conn.queued = None
                if self.refusals is not None:
                    self.refusals.note("full", conn.address)
                conn.reply(error_bytes(mpb.ERROR_CODE_LIMIT_REACHED, str(exc), entry.rid))
            return
        self._rooms_made(self.conns[e.conn].address for e in live)
        self._rooms.setdefault(key, set()).add(host.room_id)
        for entry in live:  # in queue order: the first queued takes seat 0
            await self._seat_one(host, entry)

    async def _seat_one(self, host: RoomHost, entry: QueueEntry) -> None:
        conn = self.conns.get(entry.conn)
        if conn is None or conn.record is None:
            return
        record = conn.record
        try:
            out = await self._settle(conn, host, cmd.Join(
                conn.conn_id, entry.rid, record.session_id, record.name, False, entry.deck,
                record.account.account_id))
        finally:
            conn.queued = None
        if out is not None and out.accepted:
            self._made_for(host.room_id, [conn.address])
            # (A store that can't be written -- logged once -- loses the place, not the
            # seat: the players after this one are seated all the same.)
            with contextlib.suppress(StoreClosedError, StoreUnwritableError):
                await self.writer.write([record.row()])
