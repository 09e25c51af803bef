"""The replay desk: a connection's ``ReplayRequest`` and ``ReplayControl`` (protocol/README.md,
"Replays").

Who may replay what is :func:`server.replay.replay_problem`'s to say, and playing a stored game
to one client is :class:`~server.rooms.replaying.ReplayRunner`'s; this desk sits between the
connection and them: it refuses a busy connection, loads the stored game off the event loop,
counts the replays running on the server (:attr:`Limits.max_replays
<server.app.Limits.max_replays>`), gives them one :class:`~server.rooms.replaying.ReplayBudget`
of the event loop's time to share, and starts each in its connection's own nursery, off every
room's pump. It is the :class:`server.app.App`'s.

What a security tester's long games (34,000 actions) cost is bounded here too: each game's
log is played and checked once, what that found kept (:attr:`ReplayDesk._checked`, within
:data:`CHECKED_BYTES`), so later starts of it play none of it first; each client address's
replays take at most :data:`ADDRESS_SHARE` of the event loop's time (a
:class:`~server.rooms.budget.WorkBudget` each, as deck checks do: past it, its replays wait
and its new ones are refused ``RATE_LIMITED``); and a server playing all the replays it may
ends the one whose client has been quiet longest, :data:`QUIET_SECONDS` at least, to start a
new one (:meth:`ReplayDesk._make_room`) -- slow replays from many addresses held every place
for ever.
"""

from __future__ import annotations

import functools
import logging
import time
from array import array
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import trio

from protocol.v1 import messages_pb2 as mpb
from server.incidents import new_incident
from server.replay import (
    PUBLIC,
    Replay,
    ReplayError,
    access_problem,
    hidden_from,
    replay_problem,
)
from server.rooms import session as req
from server.rooms.budget import WorkBudget
from server.rooms.replaying import Control, ReplayBudget, ReplayRunner
from server.rooms.session import error_bytes
from server.store import GameRecord, Store

log = logging.getLogger("manawire")

if TYPE_CHECKING:
    from server.app import _Connection
    from server.rooms.room import Room
    from server.sessions import _SessionRecord


class ReplayDesk:
    """Starts and steers the replays of this server's connections."""

    def __init__(self, store: Store, *, max_replays: int, outbox_size: int,
                 max_per_address: int = 4,
                 live_room: Callable[[str], Room | None] = lambda room_id: None) -> None:
        self.store = store
        #: The live room of that id (None: none), asked whether its delayed tiers have shown
        #: a game yet (:meth:`Room.tier_showing`).
        self.live_room = live_room
        self.max_replays = max_replays
        self.max_per_address = max_per_address
        self.outbox_size = outbox_size
        #: Replays running (or being loaded) now, on the server and per client address.
        self.running = 0
        self.by_address: dict[str, int] = {}
        #: Stored games are loaded one at a time: decoding a game's log is Python work on a
        #: worker thread, and many at once took the interpreter lock from the event loop
        #: (a game's actions waited 0.4 s while 60 replays started together).
        self._loading = trio.CapacityLimiter(1)
        #: The event loop's time all replays share (a quarter of it at most, in turn).
        self.budget = ReplayBudget()
        #: The finished games replayed last, whole (a finished game never changes): starting
        #: and stopping replays of one long game reads and decodes its log once.
        self._finished: OrderedDict[str, GameRecord] = OrderedDict()
        #: What checking each game's log found (:meth:`Replay.index_steps`), the latest used
        #: last: where its turns start (an array of 4-byte positions), or why this build
        #: can't replay it -- at most :data:`CHECKED_BYTES` of them (:func:`_checked_bytes`).
        #: A start of a game checked before plays none of its log before its first
        #: ReplayStatus (a 34,000-action game's pass took seconds of every start).
        self._checked: OrderedDict[str, array[int] | ReplayError] = OrderedDict()
        self._checked_bytes = 0
        #: Each client address's share of the replays' work (:meth:`_address`).
        self._addresses: dict[str, WorkBudget] = {}
        #: The replays running, by their client address (to end the quietest: _make_room).
        self._active: dict[ReplayRunner, str] = {}

    async def start(self, conn: _Connection, record: _SessionRecord, rid: int,
                    request: req.StartReplay) -> None:
        """Check who may replay what (:func:`server.replay.replay_problem`), then play the
        stored game to this connection in a task of its own, off every room's pump."""
        if conn.busy(rid):
            return
        address = conn.address
        if self._over_share(conn, address, rid):
            return
        if self._full(conn, address, rid, evict=False):
            return
        # Whether the game is there and the account may replay it, before any replay is
        # ended to make room for it: a refused request (an unknown game, a forbidden view)
        # ends nobody's replay.
        header = await self._admit(conn, record, rid, request)
        if header is None or conn.busy(rid):
            return
        if self._full(conn, address, rid, evict=True):
            return
        self._take(address)  # counted from now, so replays loading together can't overshoot
        started = False
        try:
            started = await self._start(conn, rid, request)
        finally:
            if not started:
                self._give_back(address)

    def _full(self, conn: _Connection, address: str, rid: int, *, evict: bool) -> bool:
        """Whether the address, or the server, plays all the replays it may (then the
        client is told so). ``evict``: a request that will start (its game is there and
        the account may see it) ends the quietest replay to make room
        (:meth:`_make_room`); else only whether one could be is asked."""
        if self.by_address.get(address, 0) >= self.max_per_address:
            conn.reply(error_bytes(mpb.ERROR_CODE_LIMIT_REACHED,
                                   f"one client address plays at most "
                                   f"{_replays(self.max_per_address)} at once: stop one "
                                   f"first", rid))
            return True
        # (the address's own limit first: a request it refuses ends nobody's replay)
        if self.running >= self.max_replays and \
                not (self._make_room() if evict else self._quietest() is not None):
            conn.reply(error_bytes(mpb.ERROR_CODE_LIMIT_REACHED,
                                   f"this server plays at most {_replays(self.max_replays)} "
                                   f"at once: try again later", rid))
            return True
        return False

    def _address(self, address: str) -> WorkBudget:
        """The client address's budget: all its replays' work (their starts' checks of the
        log, each action, seeks; reading a log from the store), at most
        :data:`ADDRESS_SHARE` of the event loop's time over time."""
        budget = self._addresses.get(address)
        if budget is None:
            if len(self._addresses) >= ADDRESSES_KEPT:
                now = trio.current_time()
                for known, kept in list(self._addresses.items()):
                    kept.ready_at()
                    if kept.full_at() <= now and known not in self.by_address:
                        del self._addresses[known]
            budget = self._addresses[address] = self.budget.address_budget(ADDRESS_SHARE,
                                                                           ADDRESS_BURST)
        return budget

    def _over_share(self, conn: _Connection, address: str, rid: int) -> bool:
        """Whether ``address``'s replays have taken more than their share (then its
        client is told when to try again)."""
        wait = self._address(address).ready_at() - trio.current_time()
        if wait > 0:
            conn.reply(error_bytes(mpb.ERROR_CODE_RATE_LIMITED,
                                   f"replays from your address have taken their share of the "
                                   f"server's time: try again in {max(wait, 0.1):.1f} s", rid))
        return wait > 0

    def _quietest(self) -> ReplayRunner | None:
        """The replay whose client has been quiet longest, if for :data:`QUIET_SECONDS` at
        least (None: none has). Quiet: no frame sent (paused, at its end, or its client not
        reading) and no ReplayControl taken (:attr:`ReplayRunner.heard`)."""
        now = trio.current_time()
        quietest = min((r for r in self._active if not r.done),
                       key=lambda r: r.heard, default=None)
        if quietest is None or now - quietest.heard < QUIET_SECONDS:
            return None
        return quietest

    def _make_room(self) -> bool:
        """The server plays as many replays as it may: end the one whose client has been
        quiet longest (:meth:`_quietest`) to make room for a new one (True: one was
        ended)."""
        quietest = self._quietest()
        if quietest is None:
            return False
        quiet = trio.current_time() - quietest.heard
        self._give_back(self._active.pop(quietest))
        quietest.end(mpb.ERROR_CODE_LIMIT_REACHED,
                     f"your replay of {quietest.room_id} was ended to make room for another "
                     f"viewer's: the server plays at most {_replays(self.max_replays)} at once, "
                     f"and yours had been paused with no ReplayControl for {quiet / 60:.0f} "
                     f"minutes (send ReplayRequest to start it again)")
        log.info("replay of %s ended to make room (quiet %.0f s)", quietest.room_id, quiet)
        return True

    def _take(self, address: str) -> None:
        self.running += 1
        self.by_address[address] = self.by_address.get(address, 0) + 1

    def _give_back(self, address: str) -> None:
        self.running -= 1
        left = self.by_address[address] - 1
        if left:
            self.by_address[address] = left
        else:
            del self.by_address[address]

    async def _admit(self, conn: _Connection, record: _SessionRecord, rid: int,
                     request: req.StartReplay) -> GameRecord | None:
        """The stored game's record (without its actions) if it is there and the account
        may replay it as asked, now (None: the client was told why not)."""
        account = record.account.account_id
        # Who may replay it is asked of the game's record alone, before its action log is
        # read (a long game's log takes half a second to read and decode: a stranger's
        # refused requests cost next to nothing), and before whether it has finished (a
        # stranger learns nothing of how far a game has come).
        header = await self._load(request.room_id, actions=False)
        first = request.room_id.rpartition(".")[0]
        # A later game of a match: its first game's record is read whether or not this one
        # is stored, so the time the answer takes doesn't say whether game n has started.
        first_header = await self._load(first, actions=False) if first else None
        # A private room's games are no games to a stranger without the code: answered as
        # an id nothing has (the same words), after the same reads.
        if header is not None and hidden_from(header, account, request.viewer,
                                              request.invite_code):
            header = first_header = None
        if first_header is not None and hidden_from(first_header, account, request.viewer,
                                                    request.invite_code):
            first_header = None
        if header is None:
            # A later game of a match not played yet: answered as its first game would be to
            # someone who may not replay that room (not "not found": that would say how
            # far the match has come).
            header = first_header
            # (A delayed tier's audience is told what it would be of a game still being
            # played -- "not yet" -- so it learns nothing of how far the match has come.)
            problem = None if header is None else access_problem(
                header, account, request.viewer, request.invite_code, now=0.0,
                match_open=await self._match_open(header, account, request.viewer))
            conn.reply(error_bytes(problem.code, problem.message, rid) if problem is not None
                       else error_bytes(mpb.ERROR_CODE_ROOM_NOT_FOUND,
                                        f"no stored game {request.room_id!r}", rid))
            return None
        room_id, _, number = request.room_id.partition(".")
        live = self.live_room(room_id)
        game_number = int(number) if number.isdigit() else 1
        problem = replay_problem(
            header, account, request.viewer, request.invite_code, time.time(),
            showing=None if live is None else lambda tier: live.tier_showing(tier, game_number),
            match_open=await self._match_open(header, account, request.viewer))
        if problem is not None:
            conn.reply(error_bytes(problem.code, problem.message, rid))
            return None
        checked = self._checked.get(request.room_id)
        if isinstance(checked, ReplayError):  # (refused before: not played again)
            self._checked.move_to_end(request.room_id)
            conn.reply(error_bytes(checked.code, checked.message, rid))
            return None
        return header

    async def _start(self, conn: _Connection, rid: int, request: req.StartReplay) -> bool:
        """Load the game admitted (:meth:`_admit`) and start its replay (False: it can't
        be, and the client was told why)."""
        address = conn.address
        checked = self._checked.get(request.room_id)
        if checked is not None:
            self._checked.move_to_end(request.room_id)
            if isinstance(checked, ReplayError):  # (found meanwhile)
                conn.reply(error_bytes(checked.code, checked.message, rid))
                return False
        stored = self._finished.get(request.room_id)
        if stored is None:
            try:
                stored = await self._load(request.room_id, actions=True, address=address)
            except _OverShare:
                self._over_share(conn, address, rid)
                return False
            except ValueError as exc:  # (an action type or field this build doesn't know)
                refusal = ReplayError(
                    mpb.ERROR_CODE_GAME_OVER,
                    f"game {request.room_id} was played by a build whose rules differ from "
                    f"this one's: its log holds an action this build can't read ({exc}), so "
                    f"this build can't replay it (the build that played it can)")
                self._check_found(request.room_id, refusal)
                conn.reply(error_bytes(refusal.code, refusal.message, rid))
                return False
            if stored is None:  # (gone since: a store never forgets a finished game)
                conn.reply(error_bytes(mpb.ERROR_CODE_ROOM_NOT_FOUND,
                                       f"no stored game {request.room_id!r}", rid))
                return False
            self._finished[request.room_id] = stored
            while len(self._finished) > FINISHED_KEPT:
                del self._finished[next(iter(self._finished))]
        else:
            self._finished.move_to_end(request.room_id)
        if conn.nursery is None or conn.busy(rid):
            return False
        half = max(1, self.outbox_size // 2)
        send = conn.send
        # A relay's client has no outbox here: its link says when it is backed up.
        remote_room: Callable[[], bool] | None = getattr(conn.sock, "has_room", None)
        known = checked if checked is not None and not isinstance(checked, ReplayError) \
            else None
        runner = ReplayRunner(
            request.room_id,
            lambda: Replay(stored, request.viewer, start=False, checked=known), conn.reply,
            remote_room or (lambda: send.statistics().current_buffer_used < half), rid=rid,
            speed=request.speed, playing=not request.paused,
            start_action=request.start_action, start_turn=request.start_turn,
            budget=self.budget, address_budget=self._address(address),
            checked=None if known is not None
            else functools.partial(self._check_found, request.room_id))
        conn.replay = runner
        self._active[runner] = address
        conn.nursery.start_soon(self._run, conn, runner, name="replay")
        return True

    async def _match_open(self, header: GameRecord, account: str, viewer: int) -> bool:
        """Whether ``header``'s game is one of a match still being played (its players may
        then replay only what they saw live: :func:`server.replay.access_problem`): asked of
        the live room if it is there, else of the stored match record (read off the event
        loop). A game of a match whose record can't be found counts as open (refusing more
        than needed, never less)."""
        match_id = header.match_id
        accounts = header.accounts
        if not match_id or viewer == PUBLIC or not account or account not in accounts or (
                0 <= viewer < len(accounts) and accounts[viewer] == account):
            # Asked only where it can change the answer (a player, for more than their own
            # seat's view or the public one): a stranger's refusal reads nothing more.
            return False
        live = self.live_room(match_id)
        if live is not None:
            return not live.finished
        try:
            async with self._loading:
                match = await trio.to_thread.run_sync(self.store.load_match, match_id)
        except KeyError:
            return True
        return match.winner is None and match.aborted is None

    def _check_found(self, room_id: str, found: Sequence[int] | ReplayError) -> None:
        """Keep what checking a game's log found (:attr:`_checked`), the least recently
        used forgotten past :data:`CHECKED_BYTES`."""
        kept: array[int] | ReplayError = found if isinstance(found, ReplayError) \
            else array("I", found)
        old = self._checked.pop(room_id, None)
        if old is not None:
            self._checked_bytes -= _checked_bytes(old)
        self._checked[room_id] = kept
        self._checked_bytes += _checked_bytes(kept)
        while self._checked_bytes > CHECKED_BYTES and self._checked:
            _, gone = self._checked.popitem(last=False)
            self._checked_bytes -= _checked_bytes(gone)

    async def _load(self, room_id: str, *, actions: bool,
                    address: str | None = None) -> GameRecord | None:
        """A stored game's record (None: no such game), read on a worker thread: SQLite off
        the event loop (the store's writer may hold its lock). ``address``: charged the
        thread's time (decoding a long log is seconds of Python work)."""
        try:
            async with self._loading:
                # Asked again in its turn: the address's other starts, loading before this
                # one, may have spent its share meanwhile (four at once would each pass).
                if address is not None and \
                        self._address(address).ready_at() > trio.current_time():
                    raise _OverShare
                record, spent = await trio.to_thread.run_sync(
                    functools.partial(_timed_load, self.store, room_id, actions))
        except KeyError:
            return None
        if address is not None:
            self._address(address).charge(spent)
        return record

    async def _run(self, conn: _Connection, runner: ReplayRunner) -> None:
        try:
            await runner.run()
        except Exception:
            # A fault in replaying one game ends that replay only (architecture, "Surviving
            # faults"): its viewer is told, the connection and its other work go on.
            incident = new_incident("replay")
            log.exception("replay of %s for connection %d failed (incident %s)",
                          runner.room_id, conn.conn_id, incident)
            conn.reply(error_bytes(mpb.ERROR_CODE_INTERNAL,
                                   f"the replay of {runner.room_id} failed (incident "
                                   f"{incident})", runner.request_id, incident_id=incident))
        finally:
            if self._active.pop(runner, None) is not None:  # (not ended to make room)
                self._give_back(conn.address)
            if conn.replay is runner:
                conn.replay = None

    @staticmethod
    def control(conn: _Connection, rid: int, request: req.ControlReplay) -> None:
        """``ReplayControl`` (and a RequestSnapshot or LeaveRoom during a replay): hand it to
        the connection's replay."""
        runner = conn.replay
        if runner is None or runner.done:
            conn.reply(error_bytes(mpb.ERROR_CODE_NOT_READY,
                                   "no replay is running: send ReplayRequest first", rid))
        elif request.command == "stop":
            conn.replay = None  # back in the lobby at once
            runner.stop(rid)
        elif not runner.control(Control(rid, request.command, request.value)):
            conn.reply(error_bytes(mpb.ERROR_CODE_RATE_LIMITED,
                                   "too many replay controls waiting: this one was dropped",
                                   rid))


#: Finished games kept whole for replays started again (see ReplayDesk._finished).
FINISHED_KEPT = 4
#: The most bytes of checked logs' verdicts kept (see ReplayDesk._checked): 4 bytes a turn
#: (a game of a few hundred actions: ~20 turns, ~200 bytes; 4 MiB: thousands of games).
CHECKED_BYTES = 4 * 1024 * 1024
#: The share of the event loop's time one client address's replays may take over time (all
#: replays together: REPLAY_SHARE, a quarter), and the most at once (seconds of work).
ADDRESS_SHARE = 0.1
ADDRESS_BURST = 2.0
#: Addresses whose replay budgets are kept, past which the refilled idle ones are forgotten.
ADDRESSES_KEPT = 4096
#: With the server playing all the replays it may, a new one ends the replay whose client has
#: been quiet longest -- if that is this long (ReplayDesk._make_room).
QUIET_SECONDS = 120.0


class _OverShare(Exception):
    """The client address's replays have taken more than their share."""


def _checked_bytes(kept: array[int] | ReplayError) -> int:
    """About what a checked log's verdict takes in memory."""
    if isinstance(kept, ReplayError):
        return 200 + len(kept.message) * 2
    return 100 + kept.itemsize * len(kept)


def _timed_load(store: Store, room_id: str, actions: bool) -> tuple[GameRecord, float]:
    """A stored game's record, read on a worker thread, and the thread's CPU seconds."""
    began = time.thread_time()
    record = store.load_game(room_id, actions=actions)
    return record, time.thread_time() - began


def _replays(count: int) -> str:
    return f"{count} replay" if count == 1 else f"{count} replays"
