"""Durable storage of games: seed, players, the action log and sessions (SQLite by default).

``server.store.records`` holds the plain records (no database), so the sans-I/O rooms can
build writes without importing a database driver; :class:`Store` (``server.store.sqlite``)
is imported only when used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from server.store.records import GameRecord

if TYPE_CHECKING:
    from server.store.sqlite import Store

__all__ = ["GameRecord", "Store"]


def __getattr__(name: str) -> object:
    if name == "Store":
        from server.store.sqlite import Store

        return Store
    raise AttributeError(name)
