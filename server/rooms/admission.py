"""When a spectator's join is taken: games first, and an audience never in one burst.

A spectator's join costs the server's one event loop about 200-270 us (the room's answer,
its snapshot, the session's row; see ``bench-server --join-cost``), and a stream's audience
asks all at once: a thousand spectators following a game into its next room. Let in as fast
as they ask, they would take a share of the core from every game being played, and those
games' actions would wait behind them. So every spectator join first waits here, in
:meth:`WatchGate.admit`, for its turn:

- Turns go round the rooms that have spectators waiting, in the order each room's came: a
  crowd joining one room never queues a spectator of another room behind all of it.
- While the loop has time to spare (:class:`LoadMeter`: busy less than :data:`BUSY` of the
  last :data:`WINDOW` seconds), up to :data:`AT_ONCE` joins are let in per scheduler round,
  so a crowd's joins interleave with the games' actions instead of all running in one round.
- While it is busy, one join is let in every :data:`BUSY_INTERVAL` seconds (250 a second;
  ``serve --spectator-join-interval``):
  spectators' joins then take at most about 6% of the core and the games keep the rest. An
  audience takes longer to follow a game into its next room on a saturated server, and is
  never refused for it.

A player's join never waits here: seats are not spectators.

The meter costs the loop about a microsecond a round, so it is installed only while
spectators wait for their turn (and :data:`METER_LINGER` seconds after): until it has
measured a whole window, the loop counts as busy.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

import trio

#: The loop counts as busy above this fraction of :data:`WINDOW` spent running tasks.
BUSY = 0.8
#: Seconds over which the loop's load is measured.
WINDOW = 0.25
#: Seconds between spectators' joins let in while the loop is busy.
BUSY_INTERVAL = 0.004
#: Spectators' joins let in per scheduler round while the loop is not busy.
AT_ONCE = 4
#: Seconds the meter stays installed after the last spectator got its turn.
METER_LINGER = 2.0


class LoadMeter(trio.abc.Instrument):
    """How busy the event loop is: the share of wall time not spent waiting for I/O (trio
    waits for I/O once per scheduler round, and only blocks there when no task can run).
    Its hooks run once per round, not per task step (about a microsecond a round)."""

    def __init__(self, window: float = WINDOW,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.window = window
        self._clock = clock
        #: Seconds the loop has spent waiting for I/O since the meter was made.
        self.idle = 0.0
        self._waiting_since = 0.0
        self._mark = (clock(), 0.0)
        self._load: float | None = None

    def before_io_wait(self, timeout: float) -> None:
        self._waiting_since = self._clock()

    def after_io_wait(self, timeout: float) -> None:
        now = self._clock()
        self.idle += now - self._waiting_since
        since, idle = self._mark
        if now - since >= self.window:
            self._load = max(0.0, 1.0 - (self.idle - idle) / (now - since))
            self._mark = (now, self.idle)

    def load(self) -> float | None:
        """The busy share of the last completed window (0 to 1); None before the first."""
        return self._load


class WatchGate:
    """Spectators' joins wait here for their turn (see the module's docstring). Run
    :meth:`run` in a nursery. ``load``: the event loop's busy share, for tests (by
    default a :class:`LoadMeter`, installed while spectators wait); ``busy_interval`` 0:
    joins are never paced (and the loop never metered)."""

    def __init__(self, load: Callable[[], float] | None = None, *, busy: float = BUSY,
                 busy_interval: float = BUSY_INTERVAL, at_once: int = AT_ONCE,
                 meter_linger: float = METER_LINGER) -> None:
        self._given_load = load
        self.busy = busy
        self.busy_interval = busy_interval
        self.at_once = at_once
        self.meter_linger = meter_linger
        #: The meter while it is installed.
        self.meter: LoadMeter | None = None
        #: Who waits, per room, in order; the rooms in the order their turns come.
        self._queues: dict[str, deque[trio.Event]] = {}
        self._waiting = trio.Event()

    @property
    def waiting(self) -> int:
        """Spectators waiting for their turn."""
        return sum(len(q) for q in self._queues.values())

    async def admit(self, room_id: str) -> None:
        """Return when this spectator's join to ``room_id`` may go ahead. A caller
        cancelled meanwhile leaves the queue."""
        turn = trio.Event()
        self._queues.setdefault(room_id, deque()).append(turn)
        self._waiting.set()
        try:
            await turn.wait()
        except BaseException:
            queue = self._queues.get(room_id)
            if queue is not None and turn in queue:
                queue.remove(turn)
                if not queue:
                    del self._queues[room_id]
            raise

    def _busy(self) -> bool:
        """Whether the loop is busy (not known yet counts as busy; never with no
        ``busy_interval``: joins not paced)."""
        if self.busy_interval <= 0:
            return False
        if self._given_load is not None:
            return self._given_load() >= self.busy
        if self.meter is None:
            self.meter = LoadMeter()
            trio.lowlevel.add_instrument(self.meter)
        load = self.meter.load()
        return load is None or load >= self.busy

    def _let_in(self) -> None:
        """Give the next turn: the first waiting of the room whose turn it is, which then
        goes to the back of the rotation if more of its spectators wait."""
        room_id = next(iter(self._queues))
        queue = self._queues.pop(room_id)
        queue.popleft().set()
        if queue:
            self._queues[room_id] = queue

    def _remove_meter(self) -> None:
        if self.meter is not None:
            trio.lowlevel.remove_instrument(self.meter)
            self.meter = None

    async def run(self) -> None:
        """Give the turns, until cancelled."""
        try:
            while True:
                if not self._queues:
                    self._waiting = trio.Event()
                    if self.meter is None:
                        await self._waiting.wait()
                        continue
                    with trio.move_on_after(self.meter_linger) as linger:
                        await self._waiting.wait()
                    if linger.cancelled_caught:
                        self._remove_meter()
                    continue
                if self._busy():
                    self._let_in()
                    await trio.sleep(self.busy_interval)
                    continue
                for _ in range(self.at_once):
                    if not self._queues:
                        break
                    self._let_in()
                await trio.lowlevel.checkpoint()
        finally:
            self._remove_meter()
