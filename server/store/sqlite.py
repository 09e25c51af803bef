"""The embedded default store: one SQLite file under the data directory.

A room writes each action here before any delta about it leaves the server (architecture
invariant 6), so a game can be rebuilt bit for bit with :func:`server.engine.replay`.
The seed is a server-side secret: it is stored here and never sent to a client.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from server.engine.actions import Action, action_from_json, action_to_json

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    room_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    seed BLOB NOT NULL,
    players TEXT NOT NULL,          -- JSON list of [display name, deck name]
    created REAL NOT NULL,
    result TEXT                     -- JSON {"winners": [...], "reason": ...} once over
);
CREATE TABLE IF NOT EXISTS actions (
    room_id TEXT NOT NULL REFERENCES games(room_id),
    seq INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,           -- JSON, see server.engine.actions.action_to_json
    PRIMARY KEY (room_id, seq)
);
"""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """Everything needed to replay a stored game."""

    room_id: str
    name: str
    seed: bytes
    players: list[tuple[str, str]]
    actions: list[tuple[int, Action]]
    result: dict[str, object] | None


class Store:
    """Action log and game records in one SQLite database file."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), isolation_level=None)
        # WAL + synchronous=NORMAL: each commit survives a crash of the server process.
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        """Close the database."""
        self._db.close()

    def create_game(self, room_id: str, name: str, seed: bytes,
                    players: list[tuple[str, str]]) -> None:
        """Record a game that has just started."""
        self._db.execute(
            "INSERT INTO games (room_id, name, seed, players, created) VALUES (?, ?, ?, ?, ?)",
            (room_id, name, seed, json.dumps(players), time.time()),
        )

    def append_action(self, room_id: str, seq: int, seat: int, action: Action) -> None:
        """Durably log action number ``seq`` (1-based) of a game."""
        self._db.execute(
            "INSERT INTO actions (room_id, seq, seat, action) VALUES (?, ?, ?, ?)",
            (room_id, seq, seat, json.dumps(action_to_json(action), sort_keys=True)),
        )

    def finish_game(self, room_id: str, winners: tuple[int, ...], reason: str) -> None:
        """Record a game's result (rule 104)."""
        self._db.execute(
            "UPDATE games SET result = ? WHERE room_id = ?",
            (json.dumps({"winners": list(winners), "reason": reason}), room_id),
        )

    def load_game(self, room_id: str) -> GameRecord:
        """The stored record of a game (KeyError if unknown)."""
        row = self._db.execute(
            "SELECT name, seed, players, result FROM games WHERE room_id = ?", (room_id,)
        ).fetchone()
        if row is None:
            raise KeyError(room_id)
        actions = [
            (seat, action_from_json(json.loads(text)))
            for seat, text in self._db.execute(
                "SELECT seat, action FROM actions WHERE room_id = ? ORDER BY seq", (room_id,)
            )
        ]
        players = [(str(n), str(d)) for n, d in json.loads(row[2])]
        result = json.loads(row[3]) if row[3] else None
        return GameRecord(room_id, row[0], bytes(row[1]), players, actions, result)
