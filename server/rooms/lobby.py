"""The lobby: creating, listing, finding and recovering rooms, within the server's limits --
and bringing back the rooms that stopped while the store couldn't be written, once it can."""

from __future__ import annotations

import hmac
import logging
import secrets
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, cast

import trio
import trio.lowlevel

from protocol.v1 import messages_pb2 as mpb
from server.incidents import new_incident
from server.rooms.alarms import Alarms
from server.rooms.commands import ConnId, Evict, Output
from server.rooms.pump import RoomGoneError, RoomHost, new_delayed_turns
from server.rooms.recovery import on_clock, recover, rematched
from server.rooms.relay import FeedSink
from server.rooms.room import Room, RoomConfig
from server.store.records import (
    AbortGame,
    CreateGame,
    FinishGame,
    GameRecord,
    RoomAddresses,
    RoomSettings,
    secret_hash,
)
from server.store.writer import StoreWriter

log = logging.getLogger("manawire.lobby")

#: Rooms one server hosts at most (started or not).
MAX_ROOMS = 2000
#: Seconds a room list may be old: ``ListRooms`` is answered from the last list built until
#: then, or until a room opens or closes. Building one walks every room (2.3 ms at 400 rooms,
#: ~11 ms at 2,000), and every connection may ask 20 times a second: rebuilt for each, a few
#: clients asking at that rate took the whole event loop from the games.
LISTING_SECONDS = 1.0
#: Seconds a new room is never closed for another one, even with nobody in it yet: the
#: players it was made for are being seated (a quick match's table, a rematch, the creator
#: of a ``CreateRoom`` with ``join``). Only rooms made faster than the cap every so many
#: seconds (400 a second at 2,000 rooms; --rooms-per-minute holds an address to one every
#: 2 s: 800 addresses) keep a full server full with rooms nobody is in.
CLOSE_GRACE_SECONDS = 5.0


class LobbyFullError(Exception):
    """The server hosts as many rooms as it may."""


class Lobby:
    """All rooms of this server. Each room's pump task runs in the lobby's nursery."""

    def __init__(self, writer: StoreWriter, nursery: trio.Nursery, relay: FeedSink,
                 *, deliver: Callable[[Sequence[tuple[ConnId, bytes]]], None],
                 released: Callable[[RoomHost, list[ConnId]], None],
                 closed: Callable[[RoomHost], None],
                 placed: Callable[[ConnId, str], bool] | None = None,
                 config: RoomConfig | None = None, max_rooms: int = MAX_ROOMS,
                 resumed: Callable[[RoomHost], None] | None = None) -> None:
        """``closed``: a room is over; ``resumed``: a room that had stopped is back
        (:meth:`resume_stopped`), its new host given."""
        self.writer = writer
        #: Whether a connection is (being let) in a room: a room's StartWatching holds only
        #: then (None: always; see RoomHost).
        self._placed = placed
        self.nursery = nursery
        self.relay = relay
        self.config = config or RoomConfig()
        self.max_rooms = max_rooms
        self.hosts: dict[str, RoomHost] = {}
        #: Rooms asked to close for a new room (they count no more): finished ones, and
        #: unstarted ones nobody was in (:func:`room_to_close`).
        self._evicting: set[str] = set()
        #: When each room this lobby created was made (:data:`CLOSE_GRACE_SECONDS`, and
        #: the oldest unstarted room closes first).
        self._made_at: dict[str, float] = {}
        #: The rooms closed unstarted for new ones, newest last (at most ``max_rooms``):
        #: their settings, to tell a later join naming one what became of it
        #: (:meth:`closed_for_room`).
        self._closed_for_room: dict[str, RoomSettings] = {}
        self._deliver = deliver
        self._released = released
        self._closed = closed
        self._resumed = resumed
        #: Rooms stopped because the store couldn't be written (their last hosts, by room
        #: id): their games are stored as of their last stored action, and come back once
        #: the store can be written (:meth:`resume_stopped`).
        self.stopped: dict[str, RoomHost] = {}
        self._resuming = False
        self._stopping = False
        #: The last room list built (serialized ServerMessage) and when (LISTING_SECONDS).
        self._listing: tuple[float, bytes] | None = None
        #: Every room's wake-up time, and the task that wakes them.
        self.alarms = Alarms()
        nursery.start_soon(self.alarms.run, name="room-alarms")
        #: The turns, and the share of the event loop, every room's delayed spectator tiers
        #: have together.
        self.delayed_turns = new_delayed_turns()
        #: The client addresses a room counts against (``--max-rooms-per-address``), given
        #: by whoever keeps them (:class:`server.create_desk.CreateDesk`): stored with its
        #: first game's start, so that it counts against them after a restart too.
        self.room_addresses: Callable[[str], Iterable[str]] = lambda _room_id: ()
        #: The addresses each reloaded room counts against, as stored (:meth:`recover`),
        #: until the keeper takes them.
        self.recovered_addresses: dict[str, tuple[str, ...]] = {}

    @property
    def rooms(self) -> dict[str, Room]:
        """Every live room by id (read-only use)."""
        return {room_id: host.room for room_id, host in self.hosts.items()}

    def create(self, name: str, seats: int, clock_seconds: int = 0,
               settings: RoomSettings | None = None, *, keep: str = "") -> RoomHost:
        """Create a room and start its task (``keep``: a room not to close for it). A full
        server closes a room for it (:func:`room_to_close`), or raises
        :class:`LobbyFullError`."""
        now = trio.current_time()
        while len(self.hosts) - len(self._evicting) >= self.max_rooms:
            # A room whose game is over only lingers for its last views, and one whose game
            # hasn't started with nobody in it only waits: the oldest such room closes for
            # the new one (more than one if the server is over its cap: a room someone
            # entered as it was to close stayed). Lingering rooms filled the cap before (two
            # guests creating and conceding games kept every new game out), and then rooms
            # created and left (125 addresses' 16 waiting rooms each, made again every
            # --idle-room-seconds, with no connection open, kept every new game out).
            victim = room_to_close((h.room for h in self.hosts.values()
                                    if h.room_id not in self._evicting and h.room_id != keep),
                                   self._made_at, now)
            if victim is None:
                raise LobbyFullError(
                    f"the server hosts its maximum of {self.max_rooms} rooms; try again later")
            self._close_for_room(self.hosts[victim.room_id])
        room = Room(secrets.token_hex(6), name, seats, now, self.config,
                    clock_seconds=clock_seconds, settings=settings)
        self._made_at[room.room_id] = now
        shown = room.settings  # (never its invite code: only the code's hash is kept)
        described = (f"{seats} seat{'' if seats == 1 else 's'}, {shown.format}, best of "
                     f"{room.best_of}, {'private' if shown.private else 'public'}"
                     f"{f', {clock_seconds} s clocks' if clock_seconds else ''}")
        # At DEBUG now; at INFO once its first game starts (_GameLog): a room closed before
        # any game started (created and left, over and over: two INFO lines a cycle, 1,280
        # lines a second from one address) says nothing at INFO.
        log.debug("room %s created: %s", room.room_id, described)
        return self._host(room, described=described)

    def _close_for_room(self, host: RoomHost) -> None:
        """Close ``host``'s room for a new one (:func:`room_to_close` chose it): it counts no
        more from now, and leaves the lobby once its task has closed it."""
        self._evicting.add(host.room_id)
        if host.room.finished:  # (it closes as its task takes the Evict, telling its members)
            host.notify(Evict())
            return
        # Unstarted, nobody in it now -- but a join may have been handed to its task
        # already, not yet handled: the room decides as it takes the Evict, in turn
        # (Room.handle), and the ticket's settle sees what it decided.
        try:
            ticket = host.submit(Evict())
        except RoomGoneError:
            return  # (it is closing anyway)
        ticket.settle = lambda out: self._evicted_unstarted(host, out)

    def _evicted_unstarted(self, host: RoomHost, out: Output | None) -> None:
        """``host``'s room took the Evict :meth:`_close_for_room` gave its unstarted room
        (``out``: its output; None: the room ended first). Closed: a later join naming it is
        told why (:meth:`closed_for_room`). Someone came in first: it stays open and counts
        again (a join and a new room at the same instant: the server is over its cap by one
        room until the next new room closes two)."""
        if out is None:
            return
        if not out.closed:
            self._evicting.discard(host.room_id)
            return
        self._closed_for_room[host.room_id] = host.room.settings
        while len(self._closed_for_room) > max(self.max_rooms, 1):
            del self._closed_for_room[next(iter(self._closed_for_room))]

    def closed_for_room(self, room_id: str, account_id: str = "", invite_code: str = "") -> str:
        """Why room ``room_id``, no longer here, closed, for a join naming it: it had not
        started and nobody was in it when the server, full, needed room for a new one (""
        if that isn't known of it, or it was private and this join shows neither its invite
        or audience code nor the account that created it or a seat was reserved for: to them
        it stays no room, as a made-up id)."""
        settings = self._closed_for_room.get(room_id)
        if settings is None:
            return ""
        if settings.private:
            known = bool(account_id) and (
                account_id == settings.creator
                or any(account_id == a for a, _n in settings.reserved))
            presented = secret_hash(invite_code) if invite_code else b""
            invited = bool(presented) and any(
                bool(kept) and hmac.compare_digest(presented, kept)
                for kept in (settings.invite_hash, settings.audience_hash))
            if not (known or invited):
                return ""
        return (f"room {room_id!r} was closed before its game started: the server was full "
                f"and nobody was in it; create a new room")

    def _host(self, room: Room, *, stored: bool = False, described: str = "") -> RoomHost:
        # (the room's writes, seen on their way to the store: a line when a game starts or
        # ends -- never one per action)
        writer = cast(StoreWriter, _GameLog(self.writer, room, described,
                                            self.room_addresses))
        host = RoomHost(room, writer, self.relay, deliver=self._deliver,
                        released=self._released, closed=self._on_closed,
                        alarms=self.alarms, delayed_turns=self.delayed_turns,
                        placed=self._placed, stopped=self._on_stopped, stored=stored)
        self.hosts[room.room_id] = host
        self._listing = None
        self.nursery.start_soon(host.run, name=f"room-{room.room_id}")
        return host

    def _on_closed(self, host: RoomHost) -> None:
        evicted = host.room_id in self._evicting
        # (a room in which no game ever started, closed for a new one too: DEBUG, as its
        # creation was -- rooms created and left make a line each at the rate they are made)
        log.log(logging.INFO if host.room.game is not None or host.failed is not None
                else logging.DEBUG,
                "room %s closed: %s", host.room_id, _why_closed(host, evicted))
        self._evicting.discard(host.room_id)
        if self.hosts.get(host.room_id) is host:
            del self.hosts[host.room_id]
            self._made_at.pop(host.room_id, None)
            self._listing = None
        self._closed(host)

    def _on_stopped(self, host: RoomHost) -> None:
        """``host``'s room stopped: its last action couldn't be stored (RoomHost._unstored).
        It is no longer listed nor joined; its game, stored, comes back once the store can
        be written (:meth:`resume_stopped`). Meanwhile it still counts for its creator, and
        its players' sessions keep their place in it (a resume after it is back takes the
        seat back)."""
        self._evicting.discard(host.room_id)
        if self.hosts.get(host.room_id) is host:
            del self.hosts[host.room_id]
            self._made_at.pop(host.room_id, None)
            self._listing = None
        self.stopped[host.room_id] = host

    def wake_stopped(self) -> None:
        """The store can be written again (:meth:`StoreWriter.when_writable
        <server.store.writer.StoreWriter.when_writable>`): bring the stopped rooms back, in
        a task of the lobby's."""
        if self.stopped and not self._resuming and not self._stopping:
            self.nursery.start_soon(self.resume_stopped, name="resume-stopped-rooms")

    async def resume_stopped(self) -> int:
        """Bring back the rooms that stopped because the store couldn't be written
        (:meth:`_on_stopped`): each rebuilt from its stored record as a start rebuilds it
        (:func:`~server.rooms.recovery.recover`: its game as last stored, its seats all
        away until their players come back), its timers started now, and hosted again --
        one at a time, the other rooms playing in between. A room of which nothing is
        stored, or whose game was aborted meanwhile, is over (``closed``); one whose rebuild
        fails is aborted and logged, as at a start. It stops when writes fail again (the
        rooms left come back the next time they work) or the server stops (they are stored:
        the next start reloads them). Returns the rooms brought back."""
        if self._resuming:
            return 0
        self._resuming = True
        back = 0
        try:
            while self.stopped and self.writer.writable and not self._stopping:
                room_id = next(iter(self.stopped))
                old = self.stopped.pop(room_id)
                room = await self._rebuild(room_id)
                if self._stopping:
                    break  # (stored: the next start reloads it)
                if room is None:
                    self._on_closed(old)
                    continue
                room.restart_timers(trio.current_time())
                host = self._host(room, stored=True)
                back += 1
                log.warning("room %s is back: the store can be written again (its game as "
                            "last stored, action %d)", room_id,
                            room.game.action_count if room.game is not None else 0)
                if self._resumed is not None:
                    self._resumed(host)
                await trio.lowlevel.checkpoint()  # (the others play between two rebuilds)
        finally:
            self._resuming = False
        return back

    async def _rebuild(self, room_id: str) -> Room | None:
        """A stopped room rebuilt from the store (None: nothing to rebuild, or it failed:
        then its game is aborted -- recorded as soon as the store can -- and logged)."""
        store = self.writer.store
        try:
            if self.writer.inline:  # (tests: a thread's wait would jump an autojump clock)
                record = store.unfinished_game(room_id)
            else:  # (a long game's log takes a while to read: not on the event loop)
                record = await trio.to_thread.run_sync(store.unfinished_game, room_id)
            if record is None:
                log.warning("room %s is not back: nothing of its game is stored (or it was "
                            "aborted)", room_id)
                return None
            return recover(record, trio.current_time(), self.config, wall_now=time.time())
        except Exception as exc:
            incident = new_incident("recovery")
            log.exception("recovery failed: could not bring back room %s from its stored "
                          "actions (incident %s); its game is aborted", room_id, incident)
            self.nursery.start_soon(
                self.writer.write_when_possible,
                [AbortGame(room_id, f"incident {incident}: recovery failed: {exc!r}")],
                f"room {room_id}'s failed recovery (incident {incident})")
            return None

    def recover(self, records: list[GameRecord]) -> int:
        """Recreate the rooms of unfinished stored games (see
        :func:`~server.rooms.recovery.recover`); a game that can't be rebuilt is marked
        aborted and logged. Returns the rooms recovered."""
        rooms = []
        # The event loop's clock and the wall clock read together: a stored action's wall
        # time is placed on the room's clock by their difference (a delayed tier holds it
        # from when it was stored), so it must not grow as the reloading goes on.
        now, wall_now = trio.current_time(), time.time()
        recovered: list[tuple[GameRecord, Room]] = []
        for record in records:
            try:
                room = recover(record, now, self.config, wall_now=wall_now)
                rooms.append(room)
                recovered.append((record, room))
            except Exception as exc:
                incident = new_incident("recovery")
                log.exception("recovery failed: could not recover room %s from its "
                              "stored actions (incident %s); its game is aborted",
                              record.room_id, incident)
                self.writer.store.apply([AbortGame(record.room_id,
                                                   f"incident {incident}: recovery failed: "
                                                   f"{exc!r}")])
        # Reloading them all took a while (109 s for 1,129 games), before anyone could
        # connect: their clocks, sideboarding and away seats start only now.
        _link_rematches(recovered, now, wall_now)
        served = trio.current_time()
        for room in rooms:
            room.restart_timers(served)
            self._host(room, stored=True)
            log.info("%s", restored_line(room))
        self.recovered_addresses = self.writer.store.room_addresses(set(self.hosts))
        return len(rooms)

    def stop(self) -> None:
        """The server is stopping: freeze every room (their games are stored; the stopped
        ones stay stopped)."""
        self._stopping = True
        for host in list(self.hosts.values()):
            host.stop()

    def listing(self) -> mpb.RoomList:
        """Every public room, oldest first (private rooms are never listed), but a rematch
        whose old room's list entry doesn't show that room's end yet (:meth:`_held_back`)."""
        held: dict[str, bool] = {}  # (each room's answer once: a chain is walked once)
        return mpb.RoomList(rooms=[host.room.listed_info() for host in self.hosts.values()
                                   if not host.room.settings.private
                                   and not self._held_back(host.room, held)])

    def _held_back(self, room: Room, held: dict[str, bool]) -> bool:
        """Whether ``room`` is a rematch whose old room (or its old room's, and so on) is
        still listed as its delayed tiers show it, short of its end: a rematch with the same
        players, listed at once, would tell those tiers' spectators that the game -- or the
        match, and so who won it -- was over before their view shows it. ``held``: the
        answers found so far in this listing, by room id -- walking each rematch's chain
        again cost the square of its length, and one player rematching the computer made a
        chain of hundreds (attacker round 10: a listing took a second)."""
        chain: list[tuple[Room, Room]] = []  # (a rematch, its old room), newest first
        answer = False
        for _ in range(len(self.hosts)):  # (a chain of rematches is never longer)
            if room.room_id in held:
                answer = held[room.room_id]
                break
            old_host = self.hosts.get(room.settings.rematch_of) \
                if room.settings.rematch_of else None
            if old_host is None:
                break
            chain.append((room, old_host.room))
            room = old_host.room
        for rematch, old in reversed(chain):
            answer = answer or (old.finished and old.delayed_only
                                and not old.listed_info().finished)
            held[rematch.room_id] = answer
        return answer

    def listing_message(self) -> bytes:
        """The room list as a serialized ``ServerMessage`` (no request id): built again
        only when a room opened or closed since, or once it is :data:`LISTING_SECONDS`
        old (a room's players, score and spectators show that late at most)."""
        now = trio.current_time()
        cached = self._listing
        if cached is None or now - cached[0] >= LISTING_SECONDS:
            data = mpb.ServerMessage(room_list=self.listing()).SerializeToString()
            cached = self._listing = (now, data)
        return cached[1]


def nobody_in(room: Room) -> bool:
    """Whether ``room``'s game hasn't started and no one is in it: no player seated (the
    computers the server runs are nobody), no spectator -- its creator may be connected, but
    isn't in it. (A player who drops before the start frees the seat.)"""
    return room.game is None and not room.spectators and all(
        m is None or room.is_computer(m.seat) for m in room.seats)


def room_to_close(rooms: Iterable[Room], made_at: Mapping[str, float], now: float
                  ) -> Room | None:
    """Which of ``rooms`` closes for a new room on a full server (None: none may):

    1. a room whose game (of a match, the match) is over, lingering for its last views --
       the one over longest ago;
    2. then a room whose game hasn't started with nobody in it (:func:`nobody_in`), made
       (``made_at``, by room id) at least :data:`CLOSE_GRACE_SECONDS` before ``now`` -- the
       oldest: a host may make a room for invited players and leave, but while the server
       is full a room nobody is in holds a game out;
    3. last, a finished room whose delayed spectator tiers still show its game (closing
       it cuts their view short).

    A game in play, or a room with someone in it, never closes for another."""
    best: tuple[int, float] | None = None
    chosen: Room | None = None
    for room in rooms:
        if room.finished:
            key = (2 if room.still_shown else 0, room.finished_at or 0.0)
        elif nobody_in(room):
            made = made_at.get(room.room_id, 0.0)
            if now - made < CLOSE_GRACE_SECONDS:
                continue
            key = (1, made)
        else:
            continue
        if best is None or key < best:
            best, chosen = key, room
    return chosen


def _link_rematches(recovered: list[tuple[GameRecord, Room]], now: float,
                    wall_now: float) -> None:
    """Reloaded rematches' old rooms, reloaded too (finished, lingering), say where their
    rematch is again (:func:`~server.rooms.recovery.rematched`): a rematch's room names
    its old room in its settings (``rematch_of``), stored once its game started."""
    by_id = {room.room_id: room for _record, room in recovered}
    for record, room in recovered:
        old = by_id.get(room.settings.rematch_of)
        if old is not None:
            # (its first game's start: after the rematch was agreed, never before)
            first = record.earlier[0] if record.earlier else record
            rematched(old, room.room_id, on_clock(first.created, now, wall_now))


def restored_line(room: Room) -> str:
    """The log's line for a room a start reloaded (docs/operating.md, "Restarts and
    crashes"): its id, its game (and match), turn, where its play stands, and its seats'
    names -- as the ``game started`` line names them -- never a code or token:
    ``room 1dbccbb908cf restored: game 1, turn 7, in play: 'Ann', 'bob#9702'``."""
    game = room.game
    what = f"game {room.game_number}" + (
        f" of a best of {room.best_of} ({'-'.join(map(str, room.wins))})"
        if room.best_of > 1 else "")
    if game is not None:
        what += f", turn {game.turn}"
    if game is None:
        state = "not started"
    elif game.result is None:
        state = "in play"
    elif room.finished:
        state = "over, lingering"
    else:
        state = "between games (sideboarding)"
    seats = ", ".join(
        f"seat {n}" if m is None else repr(m.name) + (" (left)" if m.left else "")
        for n, m in enumerate(room.seats))
    return f"room {room.room_id} restored: {what}, {state}: {seats}"


class _GameLog:
    """The store's writer as a room's task sees it: the same writer, and an INFO line once
    the store has a game's start or end (its records say so): which room and game, its
    players, its winners and why. The records of each write are looked at by their type
    only; nothing is logged per action. The write of the room's first game's start also
    stores the client addresses the room counts against (:class:`RoomAddresses`)."""

    def __init__(self, writer: StoreWriter, room: Room, described: str = "",
                 addresses: Callable[[str], Iterable[str]] = lambda _room_id: ()) -> None:
        self._writer = writer
        self._room = room
        #: What the room's creation line says, said at INFO when its first game starts
        #: ("": said already, or a room recovered: its game started before).
        self._described = described
        self._addresses = addresses

    def _players(self) -> list[str]:
        """The names the seats are taken with, by seat."""
        return [repr(m.name) if m is not None else f"seat {n}"
                for n, m in enumerate(self._room.seats)]

    async def write(self, ops: Sequence[Any]) -> None:
        room_id = self._room.room_id
        if any(type(op) is CreateGame and op.room_id == room_id for op in ops):
            addresses = tuple(self._addresses(room_id))
            if addresses:  # (with the room's first game: stored together)
                ops = [*ops, RoomAddresses(room_id, addresses)]
        await self._writer.write(ops)
        for op in ops:
            kind = type(op)
            if kind is CreateGame:
                if self._described:
                    log.info("room %s created: %s", self._room.room_id, self._described)
                    self._described = ""
                log.info("room %s: game %d started: %s", self._room.room_id,
                         op.game_number, ", ".join(self._players()))
            elif kind is FinishGame:
                players = self._players()
                winners = [players[s] if s < len(players) else f"seat {s}"
                           for s in op.winners]
                log.info("room %s: game %d ended: %s (%s)", self._room.room_id,
                         self._room.game_number,
                         f"{', '.join(winners)} won" if winners else "a draw",
                         op.reason)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._writer, name)


def _why_closed(host: RoomHost, evicted: bool) -> str:
    """Why ``host``'s room closed, for the log (its members were told in words of their
    own)."""
    room = host.room
    if host.failed == "unstored":
        return "its game's start couldn't be stored (the store can't be written)"
    if host.failed is not None:
        return f"it failed (incident {host.failed})"
    if evicted:
        return ("the server needed room for new games (its game was over)" if room.finished
                else "the server needed room for new games (its game hadn't started and "
                     "nobody was in it)")
    if room.finished:
        return "its game is over"
    if room.game is None:
        return "no game started in it (nobody joined in time, or its creator left)"
    return "its game ended"
