"""What the server's per-address limits refused, told to the operator (docs/limits.md, "Limits").

Each refusal is answered to its client (``HTTP 503``, close 1008) and was otherwise silent:
an operator saw nothing of a flood. :class:`Refusals` counts them by kind and client address,
and :meth:`Refusals.report` logs one line a minute at most -- only a minute in which
something was refused -- with the few addresses refused most (to block at a firewall). A
flood of refusals makes one line, never one per refusal, and the table of addresses is
bounded."""

from __future__ import annotations

import logging
from collections import Counter
from typing import Literal, Protocol, get_args

import trio

log = logging.getLogger("manawire")

#: What a limit refused: connections over the per-address cap (at the TCP accept, or the
#: WebSocket handshake), plain HTTP requests over theirs, clients closed for flooding,
#: rooms over a room limit (an account's, an address's), new guests over the address's
#: rate, clients closed for falling behind (a send that outlasted ``--send-timeout``, a
#: full outbox, a spectator too far behind its feed), deck lists over the address's share of
#: the time spent checking them (server.deck_checks), rooms naming more accounts (reserved
#: seats, tiers) than the address's rate of name lookups (server.create_desk), new rooms
#: refused because the server holds ``--max-rooms`` (a room created, or a quick-match
#: table: one per player), sign-ins refused unchecked after too many failures with that name
#: (``--login-failures``: password guessing), and sign-ins and registrations over the
#: address's rate of password checks (``--password-checks-per-minute``), and spectators
#: turned away by a room that holds ``--max-spectators`` already, and connections closed
#: for saying nothing in time (no handshake request within its 3 s, no ``Hello`` or
#: ``Resume`` within ``--hello-seconds``: a flood of them was seen nowhere). A relay
#: process's own refusals (its connection and HTTP caps, its clients that fall behind) are
#: told to the server over its link and counted here too.
Kind = Literal["connection", "http", "flood", "room", "guest", "slow", "deck", "lookup",
               "full", "login", "password", "spectators", "silent"]
#: Every kind, in order.
KINDS: tuple[Kind, ...] = get_args(Kind)
_BY_NAME: dict[str, Kind] = {kind: kind for kind in KINDS}


def kind_named(name: str) -> Kind | None:
    """The kind called ``name`` (None: no kind is)."""
    return _BY_NAME.get(name)


class Notes(Protocol):
    """Where a limit notes what it refused: :class:`Refusals`, or a relay process's link."""

    def note(self, kind: Kind, address: str) -> None:
        """A limit refused a client at ``address``."""

_WORDS: dict[Kind, tuple[str, str]] = {
    "connection": ("connection", "refused over the per-address cap"),
    "http": ("page request", "refused over the per-address cap"),
    "flood": ("client", "closed for flooding past the message rate"),
    "room": ("new room", "refused over a room limit"),
    "guest": ("new guest", "refused over the per-address rate"),
    "slow": ("client", "closed for falling behind what it was sent (1013)"),
    "deck": ("deck list", "refused over the per-address checking time"),
    "lookup": ("room", "refused over the per-address rate of account-name lookups"),
    "full": ("new room", "refused: the server holds --max-rooms rooms"),
    "login": ("sign-in", "refused after too many failed sign-ins with its name"),
    "password": ("sign-in or registration", "refused over the per-address rate of "
                 "password checks"),
    "spectators": ("spectator", "refused: the room holds --max-spectators"),
    "silent": ("connection", "closed for saying nothing in time (no handshake in 3 s, or "
               "no Hello or Resume within --hello-seconds)"),
}
#: Seconds between two report lines at most.
REPORT_SECONDS = 60.0
#: Addresses named per kind in a line.
NAMED = 3
#: Distinct (kind, address) pairs counted one by one between two reports; past it a
#: refusal counts for its kind only ("other addresses").
MAX_KEYS = 10_000


class Refusals:
    """Refusals since the last report, by kind and client address."""

    def __init__(self) -> None:
        self._by_address: Counter[tuple[Kind, str]] = Counter()
        self._other: Counter[Kind] = Counter()
        #: Every refusal since the start, by kind (never reset: server.metrics).
        self.totals: Counter[Kind] = Counter()

    def note(self, kind: Kind, address: str) -> None:
        """A limit refused a client at ``address``."""
        self.totals[kind] += 1
        key = (kind, address)
        if key in self._by_address or len(self._by_address) < MAX_KEYS:
            self._by_address[key] += 1
        else:
            self._other[kind] += 1

    def take(self, seconds: float) -> str | None:
        """One line for the refusals counted since the last call (None: none), the count
        starting over; ``seconds``: how long that was."""
        if not self._by_address and not self._other:
            return None
        parts = []
        for kind, (noun, verb) in _WORDS.items():
            addresses = Counter({a: n for (k, a), n in self._by_address.items() if k == kind})
            total = sum(addresses.values()) + self._other[kind]
            if not total:
                continue
            named = ", ".join(f"{a}: {n:,}" for a, n in addresses.most_common(NAMED))
            more = len(addresses) - min(len(addresses), NAMED)
            if more or self._other[kind]:
                named += ", other addresses" if named else "addresses not counted"
            parts.append(f"{total:,} {noun}{'' if total == 1 else 's'} {verb} "
                         f"({named}; {len(addresses):,} address"
                         f"{'' if len(addresses) == 1 else 'es'})")
        self._by_address.clear()
        self._other.clear()
        return f"limits, last {seconds:.0f} s: " + "; ".join(parts)

    async def report(self, every: float = REPORT_SECONDS) -> None:
        """Log :meth:`take`'s line every ``every`` seconds when there is one, until
        cancelled."""
        while True:
            await trio.sleep(every)
            line = self.take(every)
            if line is not None:
                log.warning("%s", line)
