"""The replay desk: a connection's ``ReplayRequest`` and ``ReplayControl`` (protocol/README.md,
"Replays").

Who may replay what is :func:`server.replay.replay_problem`'s to say, and playing a stored game
to one client is :class:`~server.rooms.replaying.ReplayRunner`'s; this desk sits between the
connection and them: it refuses a busy connection, loads the stored game off the event loop,
counts the replays running on the server (:attr:`Limits.max_replays
<server.app.Limits.max_replays>`), gives them one :class:`~server.rooms.replaying.ReplayBudget`
of the event loop's time to share, and starts each in its connection's own nursery, off every
room's pump. It is the :class:`server.app.App`'s.
"""

from __future__ import annotations

import functools
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING

import trio

from protocol.v1 import messages_pb2 as mpb
from server.incidents import new_incident
from server.replay import Replay, access_problem, replay_problem
from server.rooms import session as req
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

    async def start(self, conn: _Connection, record: _SessionRecord, rid: int,
                    request: req.StartReplay) -> None:
        """Check who may replay what (:func:`server.replay.replay_problem`), then play the
        stored game to this connection in a task of its own, off every room's pump."""
        if conn.busy(rid):
            return
        if self.running >= self.max_replays:
            conn.reply(error_bytes(mpb.ERROR_CODE_LIMIT_REACHED,
                                   f"this server plays at most {_replays(self.max_replays)} "
                                   f"at once: try again later", rid))
            return
        address = conn.address
        if self.by_address.get(address, 0) >= self.max_per_address:
            conn.reply(error_bytes(mpb.ERROR_CODE_LIMIT_REACHED,
                                   f"one client address plays at most "
                                   f"{_replays(self.max_per_address)} at once: stop one "
                                   f"first", rid))
            return
        self._take(address)  # counted from now, so replays loading together can't overshoot
        started = False
        try:
            started = await self._start(conn, record, rid, request)
        finally:
            if not started:
                self._give_back(address)

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

    async def _start(self, conn: _Connection, record: _SessionRecord, rid: int,
                     request: req.StartReplay) -> bool:
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
        if header is None:
            # A later game of a match not played yet: answered as its first game would be to
            # someone who may not replay that room (not "not found": that would say how
            # far the match has come).
            header = first_header
            # (A delayed tier's audience is told what it would be of a game still being
            # played -- "not yet" -- so it learns nothing of how far the match has come.)
            problem = None if header is None else access_problem(
                header, account, request.viewer, request.invite_code, now=0.0)
            conn.reply(error_bytes(problem.code, problem.message, rid) if problem is not None
                       else error_bytes(mpb.ERROR_CODE_ROOM_NOT_FOUND,
                                        f"no stored game {request.room_id!r}", rid))
            return False
        room_id, _, number = request.room_id.partition(".")
        live = self.live_room(room_id)
        game_number = int(number) if number.isdigit() else 1
        problem = replay_problem(
            header, account, request.viewer, request.invite_code, time.time(),
            showing=None if live is None else lambda tier: live.tier_showing(tier, game_number))
        if problem is not None:
            conn.reply(error_bytes(problem.code, problem.message, rid))
            return False
        stored = self._finished.get(request.room_id)
        if stored is None:
            try:
                stored = await self._load(request.room_id, actions=True)
            except ValueError as exc:  # (an action type or field this build doesn't know)
                conn.reply(error_bytes(
                    mpb.ERROR_CODE_GAME_OVER,
                    f"game {request.room_id} was played by a build whose rules differ from "
                    f"this one's: its log holds an action this build can't read ({exc}), so "
                    f"this build can't replay it (the build that played it can)", rid))
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
        runner = ReplayRunner(
            request.room_id, lambda: Replay(stored, request.viewer, start=False), conn.reply,
            remote_room or (lambda: send.statistics().current_buffer_used < half), rid=rid,
            speed=request.speed, playing=not request.paused,
            start_action=request.start_action, start_turn=request.start_turn,
            budget=self.budget)
        conn.replay = runner
        conn.nursery.start_soon(self._run, conn, runner, name="replay")
        return True

    async def _load(self, room_id: str, *, actions: bool) -> GameRecord | None:
        """A stored game's record (None: no such game), read on a worker thread: SQLite off
        the event loop (the store's writer may hold its lock)."""
        try:
            async with self._loading:
                return await trio.to_thread.run_sync(
                    functools.partial(self.store.load_game, room_id, actions=actions))
        except KeyError:
            return None

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


def _replays(count: int) -> str:
    return f"{count} replay" if count == 1 else f"{count} replays"
