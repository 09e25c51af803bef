"""Store I/O off the event loop: one writer thread, group commit.

Rooms hand their :data:`~server.store.sqlite.StoreOp` lists to :meth:`StoreWriter.write`
and wait for the commit before sending anything about them (invariant 6: an action is
durable before any delta about it leaves). The thread takes every batch queued meanwhile and
commits them in one transaction, so under load many rooms share one commit; the event loop
only queues a batch and is woken once it is durable.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field

import trio

from server.store.records import StoreOp
from server.store.sqlite import Store

#: Batches committed in one transaction at most (bounds one transaction's size).
MAX_GROUP = 256

log = logging.getLogger("manawire.store")


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
    """Performs store writes on a dedicated thread; :meth:`write` waits for durability."""

    def __init__(self, store: Store, *, inline: bool = False) -> None:
        """``inline``: write on the calling thread instead (deterministic tests with trio's
        autojump clock, which would see a thread's work as idle time and jump ahead)."""
        self.store = store
        self.inline = inline
        self._queue: queue.SimpleQueue[_Batch | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="manawire-store", daemon=True)
        self._closed = False
        #: Transactions committed and batches written (for benchmarks and tests).
        self.commits = 0
        self.batches = 0
        if not inline:
            self._thread.start()

    async def write(self, ops: Sequence[StoreOp]) -> None:
        """Commit ``ops`` (in order, all or nothing); return once they are durable.
        Raises what the database raised, or :class:`StoreClosedError`."""
        if not ops:
            return
        if self._closed:
            raise StoreClosedError("the store is closed")
        if self.inline:
            self.store.apply(ops)
            self.commits += 1
            self.batches += 1
            await trio.lowlevel.checkpoint()
            return
        batch = _Batch(ops, trio.lowlevel.current_trio_token())
        self._queue.put(batch)
        await batch.done.wait()
        if batch.error is not None:
            raise batch.error

    def write_soon(self, ops: Sequence[StoreOp]) -> None:
        """Queue ``ops`` to be committed after everything queued before them, without
        waiting: for records whose loss in a crash costs nothing a client can't redo (a
        spectator's place in a room: it joins again). A failure is logged. Raises
        :class:`StoreClosedError` once closed."""
        if not ops:
            return
        if self._closed:
            raise StoreClosedError("the store is closed")
        batch = _Batch(ops, None)
        if self.inline:
            self._commit([batch])
        else:
            self._queue.put(batch)

    def close(self) -> None:
        """Commit everything queued, then stop the thread (blocks until it has)."""
        if not self._closed:
            self._closed = True
            if not self.inline:
                self._queue.put(None)
                self._thread.join()

    def _run(self) -> None:
        stop = False
        while not stop:
            first = self._queue.get()
            if first is None:
                break
            group = [first]
            while len(group) < MAX_GROUP:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                group.append(more)
            self._commit(group)

    def _commit(self, group: list[_Batch]) -> None:
        try:
            self.store.apply([op for batch in group for op in batch.ops])
        except Exception:
            # One bad batch must not fail the others: retry each alone to find it.
            for batch in group:
                try:
                    self.store.apply(batch.ops)
                except Exception as exc:
                    batch.error = exc
        self.commits += 1
        self.batches += len(group)
        for batch in group:
            if batch.token is None:  # write_soon: nobody waits; a failure is only logged
                if batch.error is not None:
                    log.error("store: %d record(s) nobody waited for could not be written",
                              len(batch.ops), exc_info=batch.error)
                continue
            # (RunFinishedError: the event loop is gone at shutdown; nobody waits any more)
            with contextlib.suppress(trio.RunFinishedError):
                batch.token.run_sync_soon(batch.done.set)
