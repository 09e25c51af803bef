"""Durable storage of games: seed, players and the action log (SQLite by default)."""

from server.store.sqlite import GameRecord, Store

__all__ = ["GameRecord", "Store"]
