"""Store writes: one writer thread, group commit -- or, while that thread has nothing in
hand, a commit right on the event loop.

Rooms hand their :data:`~server.store.sqlite.StoreOp` lists to :meth:`StoreWriter.write`
and wait for the commit before sending anything about them (invariant 6: an action is
durable before any delta about it leaves). The thread takes every batch queued meanwhile and
commits them in one transaction, so under load many rooms share one commit; the event loop
only queues a batch and is woken once it is durable.

Handing a batch to the thread and being woken costs more than the commit itself when the
load is light: two thread switches, each waiting for the interpreter lock, which the event
loop holds for up to the switch interval (5 ms). At 1,000 rooms paced at a human rate, a
write took 0.27 ms at the median and 2.1 ms at p99 through the thread; committed on the
event loop, 0.08 and 0.13 ms. So a batch is committed on the event loop when the thread has
no waited batch in hand (queued or being committed: every earlier write is durable, so the
order of writes is kept), nobody else is using the store, and either the loop used less
than :data:`LOOP_BUSY` of its core lately or the thread's commits have been grouping little
(fewer than :data:`GROUPING` waited batches a commit): a saturated loop gains from group
commit only when many rooms write at once (at 50 rooms playing as fast as they can); with
two rooms saturating it, each thread commit held 1.03 batches, and committing on the loop
instead raised their actions/s by 14% -- with the default durability only, where a commit
writes the log without syncing it (``"power"`` syncs every commit: always the thread).

A spectator's place (:meth:`StoreWriter.write_place`) is written a little later, only in its
latest version and sixteen at a time, in transactions of their own: a crowd following a
game into its next room leaves and joins within milliseconds, and writing each of those
rows as it came took the thread ~10 us a row of the CPU the event loop needs (a server
pinned to one core shares it between both) while the games went on.

A store that can't be written (a full disk, a disk I/O error, a read-only file system:
:mod:`server.store.health`) fails each write with :class:`StoreUnwritableError` and nothing
else: the condition is logged once (and reminded), shown by :attr:`StoreWriter.writes`, and
while it lasts a write is tried every :data:`PROBE_SECONDS` (:meth:`StoreWriter.watch_health`)
so the server learns that writing works again even when nobody asks it to write. Once it
does, the writer calls the hooks given to :meth:`StoreWriter.when_writable` on the event
loop (the lobby brings back the rooms that stopped meanwhile).
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import trio

from server.loopclock import LoopClock
from server.store.health import Condition, StoreUnwritableError, cant_write
from server.store.records import DropSession, PutSession, StoreOp
from server.store.sqlite import Checkpointer, Store

#: Batches committed in one transaction at most (bounds one transaction's size).
MAX_GROUP = 256
#: Seconds a spectator's place may wait to be written (:meth:`StoreWriter.write_place`):
#: the moves of a crowd within this time are written together, each session's only once.
PLACE_SECONDS = 0.1
#: Places written in one transaction at most: the thread shares the event loop's CPU, and a
#: crowd's thousand rows at once would hold it for ~10 ms; between chunks it takes the
#: waited batches queued meanwhile, which wait for one chunk at most (16 rows: ~0.15 ms of
#: the thread's CPU; 64 took 0.56 ms at the median and up to 5 ms with 1,000 spectators
#: following a closed-loop game from room to room).
MAX_PLACES = 16
#: Seconds between the checkpoints of the store's log, made on a thread of their own.
CHECKPOINT_SECONDS = 1.0
#: Frames (pages) of log past which the writer starts it over between two commits (32 MB
#: at SQLite's 4 KB pages; ~6 ms, every few seconds under a heavy load): under a steady
#: stream of commits the background checkpoints never find the log fully copied, which is
#: when SQLite would start it over by itself.
MAX_LOG_FRAMES = 8_192
#: The event loop's share of a core (:attr:`StoreWriter.loop_load`) from which a write goes
#: to the thread even when it has nothing in hand: under a load that saturates the loop,
#: group commit saves more than the thread switches cost (at 50 rooms playing as fast as
#: they can, committing on the loop whenever the thread was idle cost 14% of the actions).
LOOP_BUSY = 0.8
#: Waited batches a thread commit held (:attr:`StoreWriter.grouping`, a moving average) from
#: which a busy loop leaves its writes to the thread: below it, group commit saves less
#: than handing a batch to the thread costs.
GROUPING = 1.5
#: While a busy loop commits its writes itself for lack of grouping, every PROBE_EVERY-th
#: goes to the thread anyway, so :attr:`StoreWriter.grouping` follows a load that changes
#: (the writes queued behind the probe show how many rooms write at once).
PROBE_EVERY = 64
#: Seconds between two samples of the event loop's load (:meth:`StoreWriter.watch_load`)
#: while it works; while it idles they slow down (:class:`server.loopclock.LoopClock`).
LOAD_SECONDS = 0.01
#: Seconds :attr:`StoreWriter.loop_load` is averaged over.
LOAD_SMOOTH_SECONDS = 0.1
#: Seconds between two probes of a store that can't be written (:meth:`StoreWriter.watch_health`).
PROBE_SECONDS = 2.0
#: Queued to have the thread write the places pending in :data:`PLACE_SECONDS`.
_PLACES = "places"

log = logging.getLogger("manawire.store")

__all__ = ["StoreClosedError", "StoreUnwritableError", "StoreWriter"]


class StoreClosedError(RuntimeError):
    """The writer was closed; nothing more can be written."""


@dataclass(eq=False)
class _Batch:
    ops: Sequence[StoreOp]
    #: The event loop to wake once the batch is durable (None: nobody waits for it).
    token: trio.lowlevel.TrioToken | None
    done: trio.Event = field(default_factory=trio.Event)
    error: BaseException | None = None


class StoreWriter:
    """Performs store writes on a dedicated thread (or on the event loop while the thread
    has nothing in hand and the loop isn't busy); :meth:`write` waits for durability."""

    def __init__(self, store: Store, *, inline: bool = False,
                 on_loop: bool | None = None,
                 checkpoint_seconds: float = CHECKPOINT_SECONDS,
                 max_log_frames: int = MAX_LOG_FRAMES) -> None:
        """``inline``: write on the calling thread instead (deterministic tests with trio's
        autojump clock, which would see a thread's work as idle time and jump ahead); the
        commits then checkpoint the log as SQLite does by itself.

        Otherwise the log is checkpointed every ``checkpoint_seconds`` on a thread of its
        own, never inside a commit: SQLite's automatic checkpoint made one commit in about
        a second take ~20 ms (copying the log into the database and syncing both), and
        every room's action waited behind it -- the paced benchmark's whole p99. Past
        ``max_log_frames`` the writer starts the log over between two commits.

        ``on_loop``: commit a write on the event loop while the thread has none in hand
        (module docstring); by default with the ``"process"`` durability only."""
        self.store = store
        self.inline = inline
        self.on_loop = store.durability == "process" if on_loop is None else on_loop
        #: Held by whoever commits (the thread, or the event loop for a write of its own):
        #: the places the thread takes are committed before a newer row of theirs can be.
        self._commit_lock = threading.Lock()
        #: Waited batches queued for the thread or being committed by it (changed under
        #: ``_count_lock``; read without it on the event loop: a stale count only sends a
        #: batch to the thread).
        self._in_hand = 0
        self._count_lock = threading.Lock()
        #: The event loop thread's share of a core lately (a moving average, kept by
        #: :meth:`watch_load`; 0 while that doesn't run).
        self.loop_load = 0.0
        #: Waited batches per thread commit lately (a moving average kept by the thread;
        #: it starts high, so a loop that becomes busy tries the thread first).
        self.grouping = float(GROUPING) + 1.0
        self._probe = 0
        self._queue: queue.SimpleQueue[_Batch | str | None] = queue.SimpleQueue()
        #: Spectators' places not written yet, by session id (the latest row of each).
        self._places: dict[str, PutSession] = {}
        self._places_lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="manawire-store", daemon=True)
        self._closed = False
        #: Transactions committed and batches written (for benchmarks and tests); of the
        #: commits, those made on the event loop.
        self.commits = 0
        self.batches = 0
        self.loop_commits = 0
        #: Seconds spent committing, all commits together (metrics: with :attr:`commits`,
        #: the mean commit's time; changed under ``_commit_lock``, or inline).
        self.commit_seconds = 0.0
        #: Background checkpoints made, and logs the writer started over.
        self.checkpoints = 0
        self.restarts = 0
        self.checkpoint_seconds = checkpoint_seconds
        self.max_log_frames = max_log_frames
        self._log_full = threading.Event()
        self._stop_checkpoints = threading.Event()
        self._checkpoint_thread: threading.Thread | None = None
        #: Whether writes work (:mod:`server.store.health`): failed writes, since when and
        #: why; and the same for the background checkpoints.
        self.writes = Condition("writes", "writing works")
        self.checkpoint_state = Condition("checkpoints", "checkpoints work")
        #: Writes tried so far (the probes go when none was since the last probe's turn).
        self._tried = 0
        #: Called on the event loop once writes work again after failing (when_writable).
        self._writable_hooks: list[Callable[[], None]] = []
        if not inline:
            self._thread.start()
            checkpointer = store.checkpoint_elsewhere()
            if checkpointer is not None:
                self._checkpoint_thread = threading.Thread(
                    target=self._checkpoints, args=(checkpointer,),
                    name="manawire-checkpoint", daemon=True)
                self._checkpoint_thread.start()

    async def write(self, ops: Sequence[StoreOp]) -> None:
        """Commit ``ops`` (in order, all or nothing); return once they are durable.
        Raises :class:`StoreUnwritableError` if the store can't be written now (nothing was
        written), what else the database raised, or :class:`StoreClosedError`."""
        if not ops:
            return
        if self._closed:
            raise StoreClosedError("the store is closed")
        if self._places:  # a place pending for a session these ops write goes before them
            ops = [*self._claim_places(ops), *ops]
        self._tried += 1
        if self.inline:
            began = time.perf_counter()
            try:
                self.store.apply(ops)
            except sqlite3.Error as exc:
                raise self._failed(exc) from exc
            self.writes.succeeded()
            self.commit_seconds += time.perf_counter() - began
            self.commits += 1
            self.batches += 1
            await trio.lowlevel.checkpoint()
            return
        # (A log grown past its limit: to the thread, which starts it over after the commit.)
        try:
            if self.on_loop and self._in_hand == 0 and not self._log_full.is_set() and \
                    self._loop_may_commit() and self._commit_on_loop(ops):
                return  # (no yield: the room goes on to send what the write let out)
        except sqlite3.Error as exc:
            raise self._failed(exc) from exc
        batch = _Batch(ops, trio.lowlevel.current_trio_token())
        with self._count_lock:
            self._in_hand += 1
        self._queue.put(batch)
        await batch.done.wait()
        if batch.error is not None:
            if cant_write(batch.error):  # (the thread noted it)
                raise StoreUnwritableError(str(batch.error)) from batch.error
            raise batch.error

    async def write_when_possible(self, ops: Sequence[StoreOp], what: str,
                                  retry_seconds: float = PROBE_SECONDS) -> None:
        """:meth:`write` ``ops`` (``what`` they record, for the log), waiting as long as the
        store can't be written and trying again every ``retry_seconds``: for a record that
        must not be lost while the server runs (a failed room's end). Other failures, and a
        writer closed meanwhile, are logged, not raised."""
        said = False
        while True:
            try:
                await self.write(ops)
            except StoreUnwritableError as exc:
                if not said:
                    said = True
                    log.warning("store: %s can't be recorded now (%s); it is recorded once "
                                "writing works again", what, exc.reason)
                await trio.sleep(retry_seconds)
                continue
            except StoreClosedError:
                log.warning("store: %s was not recorded: the store closed first", what)
            except Exception:
                log.exception("store: %s could not be recorded", what)
            else:
                if said:
                    log.warning("store: %s is recorded now", what)
            return

    def _failed(self, exc: sqlite3.Error) -> sqlite3.Error:
        """Note a failed write; what to raise for it."""
        if not cant_write(exc):
            return exc
        self.writes.failed(exc)
        return StoreUnwritableError(str(exc))

    @property
    def writable(self) -> bool:
        """Whether the last write worked (or none failed since)."""
        return not self.writes.down

    def when_writable(self, hook: Callable[[], None]) -> None:
        """Call ``hook`` (on the event loop, from :meth:`watch_health`; it must not raise
        nor wait) each time writes work again after failing: the condition
        (:attr:`writes`) ended, whoever's write or probe ended it."""
        self._writable_hooks.append(hook)

    async def watch_health(self, probe_seconds: float = PROBE_SECONDS) -> None:
        """While writes fail (:attr:`writes`), try one every ``probe_seconds`` when nobody
        else did -- a write that changes nothing (:meth:`Store.probe
        <server.store.sqlite.Store.probe>`) -- so the server sees writing work again, and
        says so, without waiting for a client; then call the :meth:`when_writable` hooks
        (within ``probe_seconds`` of the condition's end). Run it as a task of the event
        loop that writes; it runs until cancelled."""
        tried = self._tried
        # The failures counted when the hooks were last called: more since, and writes
        # work now -- writing works again (even if it failed and worked again between two
        # looks).
        seen = self.writes.failures
        while True:
            await trio.sleep(probe_seconds)
            if self._closed:
                continue
            # (A write someone else tried meanwhile tells as much as a probe would.)
            if self.writes.down and self._tried == tried:
                try:
                    if self.inline:
                        self._probe_write()
                    else:
                        await trio.to_thread.run_sync(self._probe_write)
                except sqlite3.Error as exc:
                    self._failed(exc)
            tried = self._tried
            if not self.writes.down and self.writes.failures != seen:
                seen = self.writes.failures
                self._call_writable_hooks()

    def _call_writable_hooks(self) -> None:
        for hook in list(self._writable_hooks):
            try:
                hook()
            except Exception:  # (the watch goes on: it is the server's only one)
                log.exception("store: a hook for writing working again failed")

    def _probe_write(self) -> None:
        with self._commit_lock:
            self.store.probe()
        self.writes.succeeded()

    @property
    def waiting(self) -> int:
        """Writes waiting for the thread to make them durable now (their rooms wait)."""
        return self._in_hand

    async def watch_load(self) -> None:
        """Keep :attr:`loop_load`: the calling (event loop) thread's CPU time over wall time,
        sampled every :data:`LOAD_SECONDS` (less often while the loop idles), a moving
        average over about a tenth of a second. Run it as a
        task of the event loop that writes; it runs until cancelled (and returns at once if
        the writer never commits on the loop)."""
        if self.inline or not self.on_loop:
            return
        clock = LoopClock(LOAD_SECONDS, smooth_seconds=LOAD_SMOOTH_SECONDS)
        while True:
            await trio.sleep(clock.sleep)
            clock.tick()
            self.loop_load = clock.load

    def _loop_may_commit(self) -> bool:
        """Whether a write the thread could take at once is better committed on the loop:
        the loop isn't busy, or the thread's commits have been grouping too little to be
        worth the hand-off (all but every :data:`PROBE_EVERY`-th such write)."""
        if self.loop_load < LOOP_BUSY:
            return True
        if self.grouping >= GROUPING:
            return False
        self._probe += 1
        if self._probe < PROBE_EVERY:
            return True
        self._probe = 0
        return False

    def _commit_on_loop(self, ops: Sequence[StoreOp]) -> bool:
        """Commit ``ops`` here, unless the thread is committing or another thread uses the
        store (False: nothing was written). Raises what the database raised."""
        if not self._commit_lock.acquire(blocking=False):
            return False
        try:
            began = time.perf_counter()
            if not self.store.apply_unless_busy(ops):
                return False
            self.writes.succeeded()
            self.commit_seconds += time.perf_counter() - began
            self.commits += 1
            self.batches += 1
            self.loop_commits += 1
        finally:
            self._commit_lock.release()
        return True

    def write_place(self, row: PutSession) -> None:
        """Write a spectator's session row within :data:`PLACE_SECONDS`, without waiting;
        a later row of the same session written meanwhile replaces it (only the latest
        place matters: a crash loses at most that much of a spectator's moves, and it just
        joins again). A write of the same session's row through :meth:`write` keeps the
        order: the pending place is committed before it. A failure is logged. Raises
        :class:`StoreClosedError` once closed."""
        if self._closed:
            raise StoreClosedError("the store is closed")
        if self.inline:
            group = [_Batch([row], None)]
            self._tried += 1
            with self._commit_lock:
                self._commit(group)
            self._settle(group)
            return
        with self._places_lock:
            first = not self._places
            self._places[row.session_id] = row
        if first:
            self._queue.put(_PLACES)

    def _claim_places(self, ops: Sequence[StoreOp]) -> list[PutSession]:
        """Take the pending places of the sessions ``ops`` write (they go first)."""
        with self._places_lock:
            return [row for op in ops if isinstance(op, PutSession | DropSession)
                    if (row := self._places.pop(op.session_id, None)) is not None]

    def _take_places(self, limit: int) -> tuple[list[_Batch], bool]:
        """The first ``limit`` pending places as a batch, and whether more are pending."""
        with self._places_lock:
            places = self._places
            rows = [places.pop(key) for key in list(itertools.islice(places, limit))]
            more = bool(places)
        return ([_Batch(rows, None)] if rows else []), more

    def close(self) -> None:
        """Commit everything queued, then stop the threads (blocks until they have)."""
        if not self._closed:
            self._closed = True
            if not self.inline:
                self._queue.put(None)
                self._thread.join()
            self._stop_checkpoints.set()
            if self._checkpoint_thread is not None:
                self._checkpoint_thread.join()

    def _checkpoints(self, checkpointer: Checkpointer) -> None:
        """The checkpoint thread: copy the log into the database every second, beside the
        commits; ask the writer to start the log over once it has grown past the limit.
        (Not at idle priority: tried, the paced p99 rose to 22 and 29 ms in 2 runs -- a
        thread preempted while holding the interpreter lock holds the event loop up; those
        runs predate keeping the bench drivers' own pauses out of the figures.)"""
        try:
            while not self._stop_checkpoints.wait(self.checkpoint_seconds):
                try:
                    frames = checkpointer.passive()
                except sqlite3.Error as exc:  # (said once, and when they work again)
                    self.checkpoint_state.failed(exc)
                    continue
                self.checkpoint_state.succeeded()
                self.checkpoints += 1
                if frames > self.max_log_frames:
                    self._log_full.set()
        finally:
            checkpointer.close()

    def _run(self) -> None:
        stop = False
        due: float | None = None  # when the pending places are to be written
        while not stop:
            group: list[_Batch] = []
            try:
                item = self._queue.get(timeout=None if due is None else
                                       max(0.0, due - time.monotonic()))
                while True:
                    if item is None:
                        stop = True
                        break
                    if isinstance(item, _Batch):
                        group.append(item)
                    elif due is None:  # places: written in PLACE_SECONDS
                        due = time.monotonic() + PLACE_SECONDS
                    if len(group) >= MAX_GROUP:
                        break
                    item = self._queue.get_nowait()
            except queue.Empty:
                pass
            if group:
                with self._commit_lock:
                    self._commit(group)
                self.grouping += 0.2 * (len(group) - self.grouping)  # (before the wake-ups)
                self._settle(group)
            if stop or (due is not None and time.monotonic() >= due):
                # Places go in a transaction of their own, after the waited batches taken
                # with them (which are older than any place still pending for their
                # sessions: see _claim_places) -- a room's action never waits for a chunk
                # of places taken with it, only for one being committed as it comes.
                with self._commit_lock:  # (places taken and committed under it: see write)
                    places, more = self._take_places(len(self._places) if stop
                                                     else MAX_PLACES)
                    if places:
                        self._commit(places)
                if places:
                    self._settle(places)
                due = due if more and not stop else None  # (more: the next chunk, after
                # the waited batches queued meanwhile)
            if self._log_full.is_set():
                self._restart_log()

    def _restart_log(self) -> None:
        self._log_full.clear()
        try:
            self.store.restart_log()
        except sqlite3.Error as exc:
            if cant_write(exc):  # (the checkpoints and writes say so)
                log.debug("store: the log could not be started over: %s", exc)
            else:
                log.exception("store: the log could not be started over (tried again later)")
            return
        self.restarts += 1

    def _commit(self, group: list[_Batch]) -> None:
        began = time.perf_counter()
        try:
            self.store.apply([op for batch in group for op in batch.ops])
            self.writes.succeeded()
        except Exception:
            # One bad batch must not fail the others: retry each alone to find it.
            for batch in group:
                try:
                    self.store.apply(batch.ops)
                    self.writes.succeeded()
                except Exception as exc:
                    batch.error = exc
                    if cant_write(exc):
                        self.writes.failed(exc)
        self.commit_seconds += time.perf_counter() - began
        self.commits += 1
        self.batches += len(group)

    def _settle(self, group: list[_Batch]) -> None:
        """After a commit (and out of the commit lock, so a woken room can commit on the
        loop at once): count its waited batches out of hand and wake their writers."""
        waited = sum(batch.token is not None for batch in group)
        if waited:
            with self._count_lock:
                self._in_hand -= waited
        for batch in group:
            if batch.token is None:  # a place: nobody waits; a failure is only logged
                if batch.error is not None and cant_write(batch.error):
                    log.debug("store: %d record(s) nobody waited for could not be written: "
                              "%s", len(batch.ops), batch.error)  # (said once: writes)
                elif batch.error is not None:
                    log.error("store: %d record(s) nobody waited for could not be written",
                              len(batch.ops), exc_info=batch.error)
                continue
            # (RunFinishedError: the event loop is gone at shutdown; nobody waits any more)
            with contextlib.suppress(trio.RunFinishedError):
                batch.token.run_sync_soon(batch.done.set)
