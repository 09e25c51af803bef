"""Incidents: failures the server survives by ending only what failed (architecture, "Surviving
faults") -- a room whose state machine raised, a connection whose handling raised, a stored
game that could not be reloaded. Each gets a random id, logged with the error and told to
whoever it affected, so an operator can find the one in the other; and each is counted by
kind since the start (``manawire_incidents_total``, docs/limits.md, "Monitoring"), something to
alert on."""

from __future__ import annotations

import secrets
from collections import Counter
from typing import Literal, get_args

#: What failed: a room (it closes, its members told), a connection (closed with 1011), a
#: stored game a start could not reload (it is aborted), a replay (it ends, its viewer told;
#: the connection goes on), a read-only question a room was asked (``ExplainCard``: its
#: asker told, the game goes on).
Kind = Literal["room", "connection", "recovery", "replay", "query"]
KINDS: tuple[Kind, ...] = get_args(Kind)

_totals: Counter[Kind] = Counter()


def new_incident(kind: Kind) -> str:
    """A fresh incident id (12 hex digits) for a failure of ``kind``, counted."""
    _totals[kind] += 1
    return secrets.token_hex(6)


def totals() -> dict[Kind, int]:
    """Incidents of each kind since the process started."""
    return {kind: _totals[kind] for kind in KINDS}
