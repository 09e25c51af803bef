"""Reading the deck lists clients send (``JoinRoom``, ``QuickMatch``, ``SubmitDeck``) within
a share of the event loop's time: :class:`DeckChecks`.

A deck list is read and checked on the event loop when short (a 75-card MTGO file, ~4 KiB,
takes about a millisecond) and on a worker thread when long; but a 1,000-line list of names
the server doesn't know takes ~10 ms even short, and a worker thread takes the interpreter
lock from the loop all the same. A security tester's 60 connections from one address, each
sending such a list to ``QuickMatch`` under the message rate, brought a neighbouring game from
508 actions a second to 0.7. So each check is timed and charged:

- to its client address's budget (:data:`ADDRESS_SHARE` of the loop's time, up to
  :data:`ADDRESS_BURST` at once): an address in debt is refused at once, ``RATE_LIMITED``
  with the seconds to wait -- nothing it sent is kept, it sends the list again;
- to the server's budget (:data:`SERVER_SHARE`, :data:`SERVER_BURST`), which every check
  waits for in turn: many addresses together take no more of the loop than that.

A real deck list costs about a millisecond, so an address may check ~20 a second, and a burst
of 100 at once; the server ~100 a second. A check is timed in the CPU seconds of the thread
that reads it (the event loop's, or the worker's: the interpreter lock it held), never in wall
time: on a busy machine a list waiting for a core cost honest clients their budget (five lists
in a row, a second apart, were refused once in four runs of a test on a loaded 2-core box).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import trio

from server.decks import Deck, DeckFormat, resolve_as_read
from server.decks.names import warm as warm_names
from server.rooms.budget import WorkBudget

#: Deck lists up to this long are checked on the event loop (a 75-card MTGO file: ~4 KiB);
#: longer ones on a worker thread, one at a time.
INLINE_DECK_BYTES = 12 * 1024
#: The share of the event loop's time one client address's deck checks may take, and the
#: most they may take at once (seconds of work).
ADDRESS_SHARE = 0.02
ADDRESS_BURST = 0.1
#: The share all deck checks together may take, and the most at once.
SERVER_SHARE = 0.1
SERVER_BURST = 0.25
#: Addresses whose budgets are kept, past which the ones that have refilled are forgotten.
ADDRESSES_KEPT = 4096


class DeckCheckRefused(Exception):
    """This client address's deck checks are over its budget: try again in ``wait``
    seconds."""

    def __init__(self, wait: float) -> None:
        super().__init__(f"deck lists from your address take too long to check: send it "
                         f"again in {max(wait, 0.1):.1f} s")
        self.wait = wait


class DeckChecks:
    """Reads deck lists within per-address and server budgets (see the module docstring)."""

    def __init__(self, *, address_share: float = ADDRESS_SHARE,
                 address_burst: float = ADDRESS_BURST, server_share: float = SERVER_SHARE,
                 server_burst: float = SERVER_BURST,
                 work_clock: Callable[[], float] = time.thread_time) -> None:
        self._address_share, self._address_burst = address_share, address_burst
        self._work_clock = work_clock
        # The card pool and the names' index are built at the first use (~0.1-0.2 s): now,
        # not charged to the first client whose list is read after a start.
        warm_names()
        self._server = WorkBudget(server_share, server_burst, work_clock=work_clock)
        self._turn = trio.Lock()  # (fair: checks take turns in the order they came)
        self._threads = trio.CapacityLimiter(1)
        self._addresses: dict[str, WorkBudget] = {}

    async def read(self, address: str, spec: str, fmt: DeckFormat
                   ) -> tuple[Deck | None, tuple[str, ...]]:
        """:func:`server.decks.resolve_as_read` of ``spec`` for a client at ``address``;
        :class:`DeckCheckRefused` if that address's budget is spent."""
        mine = self._address(address)
        wait = mine.ready_at() - trio.current_time()
        if wait > 0:
            raise DeckCheckRefused(wait)
        async with self._turn:
            ready = self._server.ready_at()
            if ready > trio.current_time():
                await trio.sleep_until(ready)
                self._server.ready_at()  # (refilled to now)
            # Asked again in its turn: the address's other lists, waiting before this one,
            # may have spent its share meanwhile (sixty at once would each pass above).
            wait = mine.ready_at() - trio.current_time()
            if wait > 0:
                raise DeckCheckRefused(wait)
            if len(spec.encode()) <= INLINE_DECK_BYTES:
                began = self._work_clock()
                result = resolve_as_read(spec, fmt)
                spent = self._work_clock() - began
            else:
                async with self._threads:
                    result, spent = await trio.to_thread.run_sync(_timed, spec, fmt)
            self._server.charge(spent)
            mine.charge(spent)
        return result

    def _address(self, address: str) -> WorkBudget:
        budget = self._addresses.get(address)
        if budget is None:
            if len(self._addresses) >= ADDRESSES_KEPT:
                self._forget_refilled()
            budget = WorkBudget(self._address_share, self._address_burst,
                                work_clock=self._work_clock)
            self._addresses[address] = budget
        return budget

    def _forget_refilled(self) -> None:
        """Drop the budgets that are full again (nothing to remember of those addresses)."""
        now = trio.current_time()
        for address, budget in list(self._addresses.items()):
            budget.ready_at()
            if budget.full_at() <= now:
                del self._addresses[address]


def _timed(spec: str, fmt: DeckFormat) -> tuple[tuple[Deck | None, tuple[str, ...]], float]:
    """Read a deck list on a worker thread; what it found and the thread's CPU seconds (the
    interpreter lock it held, taken from the event loop)."""
    began = time.thread_time()
    result = resolve_as_read(spec, fmt)
    return result, time.thread_time() - began
