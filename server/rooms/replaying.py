"""One connection's replay session: the trio task that plays a :class:`~server.replay.Replay`
to its client (protocol/README.md, "Replays").

It runs in the connection's own nursery, off every room's pump, and never holds up the event
loop for long: all its work -- building the game and the view, each action played, seeks,
snapshots -- comes in slices of at most :data:`SLICE_SECONDS` of work between checkpoints,
the longest piece that can't be cut being one call of the engine (creating the game, one
action; :mod:`server.replay`). All of a server's replays share one
:class:`ReplayBudget`: one slice at a time, in turn, and together at most
:data:`REPLAY_SHARE` of the event loop's time, so no number of replays slows the games
much (60 replays played as fast as possible from one address held a game's actions up
for seconds before). Its messages go through the connection's
outbox like a room's (invariant 7), but a replay only ever fills half of it: while the
client is behind it waits (a replay is never the reason a client is disconnected for being
slow), and the answers to the client's requests always find room.
"""

from __future__ import annotations

import math
import time
from collections.abc import AsyncIterator, Callable, Generator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TypeVar

import trio

from protocol.v1 import messages_pb2 as mpb
from server.replay import Replay, ReplayError
from server.rooms.budget import WorkBudget
from server.rooms.session import error_bytes

#: Most seconds of replay work between two checkpoints of the event loop.
SLICE_SECONDS = 0.002
#: How often a replay waiting for its client's outbox to drain looks again.
DRAIN_POLL_SECONDS = 0.01
#: Controls a connection may have waiting for its replay.
MAX_PENDING_CONTROLS = 16
#: The share of the event loop's time all replays together may take over time.
REPLAY_SHARE = 0.25
#: Seconds of replay work allowed at once after a quiet spell.
REPLAY_BURST = 0.01

_T = TypeVar("_T")


class ReplayBudget:
    """The event loop's time a server's replays share: they work one at a time, in turn
    (a fair lock), and together at most ``share`` of the time -- a
    :class:`~server.rooms.budget.WorkBudget` holding at most ``burst``. A replay whose turn
    comes while the budget is spent waits for it, the others behind it."""

    def __init__(self, share: float = REPLAY_SHARE, burst: float = REPLAY_BURST, *,
                 work_clock: Callable[[], float] = time.perf_counter) -> None:
        self._bucket = WorkBudget(share, burst, work_clock=work_clock)
        self._lock = trio.Lock()

    @property
    def spent(self) -> float:
        """Work seconds charged so far (for tests and diagnostics)."""
        return self._bucket.spent

    def address_budget(self, share: float, burst: float) -> WorkBudget:
        """A budget of one client address's own (timed with this one's clock), for
        :meth:`turn`."""
        return WorkBudget(share, burst, work_clock=self._bucket.work_clock)

    @asynccontextmanager
    async def turn(self, mine: WorkBudget | None = None) -> AsyncIterator[None]:
        """Wait for this replay's turn and the budget, then time the work done inside (it
        must not wait for anything: the others wait for it). ``mine``: its client address's
        budget too (:meth:`address_budget`), charged the same work -- while it is spent the
        replay waits outside the queue, the other addresses' replays taking their turns."""
        bucket = self._bucket
        if mine is not None:
            ready = mine.ready_at()
            if ready > trio.current_time():
                await trio.sleep_until(ready)
                mine.ready_at()  # (refilled to now)
        async with self._lock:
            ready = bucket.ready_at()
            if ready > trio.current_time():
                await trio.sleep_until(ready)
                bucket.ready_at()  # (refilled to now)
            began = bucket.work_clock()
            try:
                yield
            finally:
                spent = bucket.work_clock() - began
                bucket.charge(spent)
                if mine is not None:
                    mine.charge(spent)


@dataclass(frozen=True, slots=True)
class Control:
    """One request to the replay: ``command`` is ``play``, ``pause``, ``seek_action``,
    ``seek_turn``, ``speed`` or ``snapshot`` (a RequestSnapshot), with its value."""

    rid: int
    command: str
    value: float = 0.0


#: The slowest a replay plays (actions a second) for the actions it plays to count as its
#: client's activity (ReplayRunner.heard): one at 0.01 (an action every 100 s) held a
#: server's place for hours with no one watching.
ACTIVE_SPEED = 0.1

#: Seconds a replay paused (or at its end) waits for a control before it ends by itself
#: (ReplayEnded{stopped}, request_id 0): a paused replay held its place among the server's
#: replays, and its address's, for ever.
IDLE_SECONDS = 600.0


class ReplayRunner:
    """Plays one replay to one connection, under the client's control."""

    def __init__(self, room_id: str, build: Callable[[], Replay],
                 send: Callable[[bytes], object], has_room: Callable[[], bool], *, rid: int,
                 speed: float, playing: bool,
                 start_action: int | None = None, start_turn: int | None = None,
                 budget: ReplayBudget | None = None, address_budget: WorkBudget | None = None,
                 checked: Callable[[Sequence[int] | ReplayError], None] | None = None) -> None:
        self.room_id = room_id
        #: The work time this replay shares with the server's others, and with its client
        #: address's other replays (:meth:`ReplayBudget.turn`).
        self._budget = budget or ReplayBudget(share=1.0)
        self._address_budget = address_budget
        #: Told what checking the game's log found (:meth:`Replay.index_steps`): where its
        #: turns start, or why this build can't replay it (GAME_OVER).
        self._checked = checked
        #: When it was last active (trio's clock): its start, the latest control it took,
        #: or the latest action it played to its client (at :data:`ACTIVE_SPEED` or
        #: faster). A replay paused (or at its end, or whose client doesn't read what it is
        #: sent, or crawling slower) that nobody steers is the quiet one
        #: (ReplayDesk._make_room); a control dropped (too many waiting) doesn't count.
        self.heard = trio.current_time()
        self._build = build
        self._send = send
        self._has_room = has_room
        self._rid = rid
        self.speed = speed
        self.playing = playing
        self._start = (start_action, start_turn)
        self.replay: Replay | None = None
        self._controls_in, self._controls = trio.open_memory_channel[Control](
            MAX_PENDING_CONTROLS)
        self._scope = trio.CancelScope()
        self._stopped: int | None = None
        self.done = False

    # ---- called by the connection's reader
    @property
    def request_id(self) -> int:
        """The id of the request that started the replay."""
        return self._rid

    def control(self, control: Control) -> bool:
        """Queue a control for the replay (False: too many are waiting)."""
        try:
            self._controls_in.send_nowait(control)
        except trio.WouldBlock:
            return False
        self.heard = trio.current_time()
        return True

    def stop(self, rid: int) -> None:
        """End the replay now; ReplayEnded{stopped} answers request ``rid``."""
        self._stopped = rid
        self._scope.cancel()

    def end(self, code: int, message: str) -> None:
        """End the replay now, by the server: an ``Error`` (``code``, request_id 0) says
        why, then ``ReplayEnded{stopped}`` (request_id 0)."""
        if not self.done and self._stopped is None:
            self._send(error_bytes(code, message, 0))
            self.stop(0)

    # ---- the task
    async def run(self) -> None:
        """Prepare, send the starting point, then play under control until stopped."""
        try:
            with self._scope:
                await self._run()
        finally:
            self.done = True
            if self._stopped is not None:
                action = self.replay.position if self.replay is not None else 0
                self._send(mpb.ServerMessage(request_id=self._stopped, replay_ended=(
                    mpb.ReplayEnded(room_id=self.room_id, action=action, stopped=True))
                ).SerializeToString())

    async def _run(self) -> None:
        try:
            async with self._budget.turn(self._address_budget):
                replay = self.replay = self._build()  # (the game is made in _work below)
            await self._work(replay.index_steps())
        except ReplayError as exc:
            if self._checked is not None and exc.code == mpb.ERROR_CODE_GAME_OVER:
                self._checked(exc)  # (this build can't replay the game: said so again)
            self._send(error_bytes(exc.code, exc.message, self._rid))
            self._scope.cancel()  # the replay never started: the connection is free again
            return
        if self._checked is not None and replay.checked is not None:
            self._checked(replay.checked)
        try:
            start_action, start_turn = self._start
            if start_turn is not None:
                start_action = replay.turn_start(start_turn)
            await self._work(replay.seek_steps(start_action or 0))
        except ReplayError as exc:
            self._send(error_bytes(exc.code, exc.message, self._rid))
            self._scope.cancel()  # the replay never started: the connection is free again
            return
        snapshot = await self._work(replay.snapshot_steps())
        self._send(self._status(self._rid))
        self._send(snapshot)
        due = trio.current_time()
        while True:
            try:  # controls first, even when playing as fast as possible
                control = self._controls.receive_nowait()
            except trio.WouldBlock:
                pass
            else:
                await self._handle(replay, control)
                due = trio.current_time()
                continue
            if self.playing and not replay.at_end:
                if self.speed > 0:
                    due = max(due + 1.0 / self.speed, trio.current_time())
                    waited: Control | None = None
                    with trio.move_on_at(due):
                        waited = await self._controls.receive()
                    if waited is not None:
                        await self._handle(replay, waited)
                        due = trio.current_time()
                        continue
                if not self._has_room():  # the client is behind: let it catch up
                    await trio.sleep(DRAIN_POLL_SECONDS)
                    continue
                frame = await self._work(replay.step_steps())
                if not 0 < self.speed < ACTIVE_SPEED:  # (played to a client reading it)
                    self.heard = trio.current_time()
                if frame.message is not None:
                    self._send(frame.message)
                if replay.at_end:
                    self.playing = False
                    self._send(mpb.ServerMessage(replay_ended=mpb.ReplayEnded(
                        room_id=replay.room_id, action=replay.position)).SerializeToString())
            else:
                idle: Control | None = None
                with trio.move_on_after(IDLE_SECONDS):
                    idle = await self._controls.receive()
                if idle is None:
                    # Paused (or at the end) and left so: the replay's place on the server
                    # (its limits: per address, in all) is given back.
                    self.stop(0)
                    return
                await self._handle(replay, idle)
                due = trio.current_time()

    async def _handle(self, replay: Replay, control: Control) -> None:
        command, value = control.command, control.value
        try:
            if command == "play":
                self.playing = not replay.at_end
            elif command == "pause":
                self.playing = False
            elif command == "speed":
                self.speed = value
            elif command == "snapshot":
                self._send(await self._work(replay.snapshot_steps(control.rid)))
                return
            elif command in ("seek_action", "seek_turn"):
                target = replay.turn_start(int(value)) if command == "seek_turn" \
                    else int(value)
                await self._work(replay.seek_steps(target))
                snapshot = await self._work(replay.snapshot_steps())
                self._send(self._status(control.rid))
                self._send(snapshot)
                return
            else:  # pragma: no cover - the session validates commands
                self._send(error_bytes(mpb.ERROR_CODE_INVALID_ARGUMENT, f"unknown {command}",
                                       control.rid))
                return
        except ReplayError as exc:
            self._send(error_bytes(exc.code, exc.message, control.rid))
            return
        self._send(self._status(control.rid))

    async def _work(self, steps: Generator[None, None, _T]) -> _T:
        """Run ``steps`` in slices of :data:`SLICE_SECONDS` of work (a slice ends at the
        first yield past it), each in its turn of the budget -- a checkpoint between two
        slices, however few steps; what ``steps`` returns."""
        while True:
            async with self._budget.turn(self._address_budget):
                began = time.perf_counter()
                try:
                    while True:
                        next(steps)
                        if time.perf_counter() - began >= SLICE_SECONDS:
                            break
                except StopIteration as done:
                    result: _T = done.value
                    return result

    def _status(self, rid: int) -> bytes:
        replay = self.replay
        assert replay is not None
        return mpb.ServerMessage(request_id=rid, replay_status=mpb.ReplayStatus(
            room_id=replay.room_id, viewer=replay.viewer, action=replay.position,
            actions=replay.actions, turn=replay.turn, turns=replay.turns,
            state_id=replay.state_id, playing=self.playing,
            speed=self.speed if math.isfinite(self.speed) else 0.0)).SerializeToString()
