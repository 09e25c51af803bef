"""Whether the store can be written: a full disk, a disk I/O error, a read-only file system.

SQLite answers a write it can't make with :class:`sqlite3.OperationalError` ("database or
disk is full", "disk I/O error", "attempt to write a readonly database"). Such a failure is
a condition of the server, not of the write that met it: the store's writer
(:class:`server.store.writer.StoreWriter`) turns it into :class:`StoreUnwritableError`,
which the connections and rooms answer in words (docs/operating.md, "Restarts and crashes": "A
store that can't be written"), and keeps the condition here -- logged once when it begins
(a reminder every :data:`REMIND_SECONDS` while it lasts) and once when writing works again,
shown by ``/healthz`` and the metrics. Nothing already stored is touched: SQLite rolls the
failed transaction back.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable

log = logging.getLogger("manawire.store")

#: Seconds between two reminders in the log that a condition lasts.
REMIND_SECONDS = 60.0
#: Seconds without a failure after which an attempt that works ends the condition: on a
#: full disk a small write may still fit (a page of the log free again) while the next
#: larger one fails -- a server whose writes worked one in two was said to recover and
#: fail again every few milliseconds.
SETTLE_SECONDS = 10.0

#: SQLite's primary result codes of a write the storage refused: SQLITE_PERM (3),
#: SQLITE_READONLY (8), SQLITE_IOERR (10), SQLITE_FULL (13), SQLITE_CANTOPEN (14).
_CODES = frozenset({3, 8, 10, 13, 14})
#: Their messages (an error raised without a result code: the sqlite3 module's own, a test's).
_WORDS = ("disk is full", "disk i/o error", "readonly database", "read-only file system",
          "unable to open database file", "access permission denied")


def cant_write(exc: BaseException) -> bool:
    """Whether ``exc`` says the store's storage refused a write (not a fault of the write)."""
    if isinstance(exc, StoreUnwritableError):
        return True
    if not isinstance(exc, sqlite3.OperationalError):
        return False
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int) and code & 0xFF in _CODES:
        return True
    text = str(exc).lower()
    return any(words in text for words in _WORDS)


class StoreUnwritableError(sqlite3.OperationalError):
    """A write was refused because the store can't be written now (:func:`cant_write`);
    ``reason`` is SQLite's words ("database or disk is full"). Nothing was written."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"the store can't be written: {reason}")
        self.reason = reason


class Condition:
    """A condition of the store that comes and goes (its writes failing; its checkpoints
    failing): logged once when it begins or its reason changes, reminded every
    ``remind_seconds`` while it lasts, and logged once when it ends: by an attempt that
    works ``settle_seconds`` after the last that failed. Thread-safe (the writer's and the
    checkpoint threads report here, and the event loop)."""

    def __init__(self, failing: str, again: str, *, remind_seconds: float = REMIND_SECONDS,
                 settle_seconds: float = SETTLE_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """``failing``: what fails ("writes", "checkpoints"), in the log lines; ``again``:
        what the log says when it works again."""
        self.failing = failing
        self.again = again
        self.remind_seconds = remind_seconds
        self.settle_seconds = settle_seconds
        self.clock = clock
        self._lock = threading.Lock()
        #: The condition holds: the last attempt failed (read without the lock: a stale
        #: value only delays a log line or a probe's answer).
        self.down = False
        #: SQLite's words for the last failure ("" while none holds).
        self.reason = ""
        #: When the condition began (clock()), when the log last said it, and when an
        #: attempt last failed.
        self.since = 0.0
        self._said = 0.0
        self._last = 0.0
        #: Failures since the server started, and since the condition began.
        self.failures = 0
        self._failures_now = 0

    def failed(self, exc: BaseException) -> None:
        """An attempt failed with ``exc``: log it if the condition begins (or its reason
        changed, or a reminder is due)."""
        reason = exc.reason if isinstance(exc, StoreUnwritableError) else str(exc)
        with self._lock:
            now = self._last = self.clock()
            self.failures += 1
            if not self.down or reason != self.reason:
                if not self.down:
                    self.since, self._failures_now = now, 0
                self.down, self.reason, self._said = True, reason, now
                self._failures_now += 1
                log.error("store: %s fail: %s (%s); nothing stored is lost, and this is "
                          "said again every %g s while it lasts", self.failing, reason,
                          type(exc).__name__, self.remind_seconds)
                return
            self._failures_now += 1
            if now - self._said < self.remind_seconds:
                return
            self._said = now
            log.error("store: %s still fail: %s, for %.0f s (%d failed meanwhile)",
                      self.failing, reason, now - self.since, self._failures_now)

    def succeeded(self) -> None:
        """An attempt worked: log that the condition ended, if it held."""
        if not self.down:  # (the usual case: no lock)
            return
        with self._lock:
            if not self.down or self.clock() - self._last < self.settle_seconds:
                return
            self.down = False
            log.warning("store: %s again, after %.0f s of %s (%d failed meanwhile)",
                        self.again, self.clock() - self.since, self.reason,
                        self._failures_now)
            self.reason = ""

    def describe(self) -> str:
        """One line saying the condition, "" if it doesn't hold."""
        with self._lock:
            if not self.down:
                return ""
            return f"store {self.failing} fail for {self.clock() - self.since:.0f} s: " \
                   f"{self.reason}"
