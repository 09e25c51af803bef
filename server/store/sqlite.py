"""The embedded default store: one SQLite file under the data directory.

A room writes each action here before any delta about it leaves the server (architecture
invariant 6), so a game can be rebuilt bit for bit with :func:`server.engine.replay` and an
unfinished game is reloaded when the server starts again. The seed is a server-side secret:
it is stored here and never sent to a client. Resume tokens are stored only as their
SHA-256 hashes.

Writes are described by the small records of :mod:`server.store.records`
(:data:`StoreOp`): a room, being sans-I/O, only *returns* them;
:class:`server.store.writer.StoreWriter` performs them on its own thread, many rooms'
writes in one transaction (or on the event loop while that thread has nothing to do).

Durability (``durability``): ``"process"`` (the default: WAL with ``synchronous=NORMAL``)
makes every commit survive a crash of the server process but not a power loss, which may
lose the last commits before a checkpoint (the file stays consistent); ``"power"``
(``synchronous=FULL``) syncs the log on every commit, so a commit also survives a power loss,
at the cost of one fsync per transaction.
"""

from __future__ import annotations

import contextlib
import functools
import json
import sqlite3
import threading
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Literal, assert_never

from server.engine.actions import Action, action_from_json, action_to_json
from server.store.records import (
    AbortGame,
    AccountRow,
    AppendAction,
    CreateGame,
    DropAccount,
    DropSession,
    DropTokens,
    FinishGame,
    GameRecord,
    MatchRecord,
    PutAccount,
    PutMatch,
    PutSession,
    PutToken,
    RoomAddresses,
    RoomSettings,
    SeatLeft,
    SeenAccount,
    SessionRow,
    StoreOp,
)

Durability = Literal["process", "power"]

#: How many action rows one INSERT writes: the largest that fits (six variables a row;
#: SQLite allows 32,766 since 3.32, 999 before), then fewer -- a few statement shapes only,
#: so the statement cache keeps them all.
_INSERT_SIZES = (256, 64, 16, 4, 1)
#: The variables of one action row.
_ACTION_COLUMNS = 6

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    room_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    seed BLOB NOT NULL,
    players TEXT NOT NULL,          -- JSON list of [display name, deck name, session id]
    created REAL NOT NULL,
    result TEXT,                    -- JSON {"winners": [...], "reason": ...} once over
    aborted TEXT,                   -- the traceback, if the room failed (never reloaded)
    clock_seconds REAL NOT NULL DEFAULT 1800,
    finished REAL,                  -- when the result was recorded (time.time())
    accounts TEXT,                  -- JSON list: each seat's account id
    settings TEXT,                  -- JSON RoomSettings (privacy, spectating, format, seats)
    match_id TEXT,                  -- a game of a match of several games: its room's id
    game_number INTEGER,            -- 1-based, in its match
    chooser INTEGER,                -- who chose the starting player (103.1; NULL: random)
    state_base INTEGER,             -- the view classes' first state id (NULL: 1)
    left_seats TEXT,                -- seats whose players left the running game (or the
                                    -- room after it ended): "2,0"
    left_after_end TEXT             -- of those, who left the room after it ended: "1"
);
CREATE TABLE IF NOT EXISTS matches (
    room_id TEXT PRIMARY KEY,       -- the room; its games are room_id, room_id.2, ...
    best_of INTEGER NOT NULL,
    created REAL NOT NULL,
    games TEXT NOT NULL,            -- JSON list of the game ids, in order
    wins TEXT NOT NULL,             -- JSON list: games won by each seat
    draws INTEGER NOT NULL,
    state TEXT NOT NULL,            -- JSON: registered and current decks, choosers, each
                                    -- game's result, who is ready between games
    winner INTEGER,                 -- once over: the seat that won, -1 a drawn match
    reason TEXT,                    -- once over: why it ended
    finished REAL,                  -- when it ended (time.time())
    aborted TEXT                    -- the room failed (never reloaded)
);
CREATE TABLE IF NOT EXISTS actions (
    room_id TEXT NOT NULL REFERENCES games(room_id),
    seq INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,           -- JSON, see server.engine.actions.action_to_json
    clocks TEXT,                    -- JSON list: each seat's time bank (s) after the action
    at REAL,                        -- when it was stored (time.time()): after a restart, a
                                    -- delayed tier shows it that long after, as it would have
    PRIMARY KEY (room_id, seq)
);
CREATE TABLE IF NOT EXISTS sessions (
    session_id TEXT PRIMARY KEY,
    token_hash BLOB NOT NULL UNIQUE, -- SHA-256 of the current resume token, never the token
    prev_hash BLOB,                 -- SHA-256 of the token last presented (valid until the
                                    -- current one is first used: a crash never strands one)
    name TEXT NOT NULL,
    room_id TEXT,                   -- the room the session is a member of, if any
    updated REAL NOT NULL,
    account_id TEXT                 -- whose session it is
);
CREATE TABLE IF NOT EXISTS accounts (
    account_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,  -- the name's unique form (server.accounts.name_key)
    registered INTEGER NOT NULL,    -- 0: a guest
    password_hash TEXT,             -- Argon2id (registered accounts only)
    created REAL NOT NULL,
    last_seen REAL                  -- last Hello or Resume with it (NULL: created then)
);
CREATE TABLE IF NOT EXISTS account_tokens (
    token_hash BLOB PRIMARY KEY,    -- SHA-256 of an account token, never the token
    account_id TEXT NOT NULL REFERENCES accounts(account_id),
    created REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS account_tokens_by_account ON account_tokens(account_id);
CREATE TABLE IF NOT EXISTS room_addresses (
    room_id TEXT PRIMARY KEY,       -- a room whose game is in play (a match's: its room id)
    addresses TEXT NOT NULL         -- JSON list: the client addresses it counts against
                                    -- (--max-rooms-per-address); dropped once it is over
);
"""

#: Columns added after the first release, for databases made by it.
_MIGRATIONS = (
    ("games", "aborted", "TEXT"),
    ("games", "clock_seconds", "REAL NOT NULL DEFAULT 1800"),
    ("actions", "clocks", "TEXT"),
    ("games", "finished", "REAL"),
    ("sessions", "prev_hash", "BLOB"),
    ("games", "accounts", "TEXT"),
    ("games", "settings", "TEXT"),
    ("sessions", "account_id", "TEXT"),
    ("games", "match_id", "TEXT"),
    ("games", "game_number", "INTEGER"),
    ("games", "chooser", "INTEGER"),
    ("games", "state_base", "INTEGER"),
    ("accounts", "last_seen", "REAL"),
    ("actions", "at", "REAL"),
    ("games", "left_seats", "TEXT"),
    ("games", "left_after_end", "TEXT"),
)


#: A game's action log as read: its actions (seat, action) in order, when each was taken, and
#: the last clocks logged.
_Log = tuple[list[tuple[int, Action]], list[float], tuple[float, ...] | None]

class Store:
    """Action log, game records and sessions in one SQLite database file.

    One connection, used by one thread at a time (the lock makes that so: the writer thread
    writes, and the server thread too while that one is idle (:meth:`apply_unless_busy`,
    which never waits); the server thread reads at start-up, a replay's loading on a worker
    thread, and tests read afterwards).
    """

    def __init__(self, path: Path | str, durability: Durability = "process") -> None:
        self.path = Path(path)
        self.durability = durability
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        if durability == "process":
            self._db.execute("PRAGMA synchronous=NORMAL")
        elif durability == "power":
            self._db.execute("PRAGMA synchronous=FULL")
        else:
            assert_never(durability)
        self._db.executescript(_SCHEMA)
        for table, column, decl in _MIGRATIONS:
            have = {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}
            if column not in have:
                self._db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {decl}")

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()

    # ---- checkpoints (the writer's: server.store.writer)
    def checkpoint_elsewhere(self) -> Checkpointer | None:
        """Stop checkpointing the write-ahead log in the commits (SQLite's automatic
        checkpoint: every ~1,000 pages, a commit also copies the log into the database and
        syncs both, ~20 ms here, while every room's write waits behind it) and return a
        :class:`Checkpointer` on a connection of its own to do it from another thread.
        None for an in-memory database (no log)."""
        if str(self.path) == ":memory:":
            return None
        with self._lock:
            self._db.execute("PRAGMA wal_autocheckpoint=0")
        return Checkpointer(self.path)

    def restart_log(self) -> None:
        """Checkpoint what is left of the log and have the next commit write it from its
        start again (~6 ms after a background checkpoint: the file keeps its size; emptying
        it too took ~50 ms). Waits for a checkpoint in progress elsewhere; the caller is the
        only writer."""
        with self._lock:
            self._db.execute("PRAGMA wal_checkpoint(RESTART)")

    # ---- writing
    def apply(self, ops: Sequence[StoreOp]) -> None:
        """Perform ``ops`` in order in one transaction (all or nothing)."""
        if not ops:
            return
        with self._lock:
            self._apply(ops)

    def apply_unless_busy(self, ops: Sequence[StoreOp]) -> bool:
        """Perform ``ops`` as :meth:`apply` does if no other thread is using the store (a
        replay being loaded, the writer thread); False, without waiting, if one is."""
        if not self._lock.acquire(blocking=False):
            return False
        try:
            self._apply(ops)
        finally:
            self._lock.release()
        return True

    def _apply(self, ops: Sequence[StoreOp]) -> None:
        if ops:
            db = self._db
            db.execute("BEGIN")
            try:
                actions: list[AppendAction] = []
                for op in ops:
                    if isinstance(op, AppendAction):
                        actions.append(op)  # consecutive actions: one INSERT
                        continue
                    if actions:
                        self._append_actions(actions)
                        actions = []
                    self._perform(op)
                if actions:
                    self._append_actions(actions)
                db.execute("COMMIT")
            except BaseException:
                # SQLite may have rolled it back itself (a full disk, an I/O error): then
                # there is nothing to roll back, and the error to tell is the first one.
                if db.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        db.execute("ROLLBACK")
                raise

    def probe(self) -> None:
        """Make a write that changes nothing (the database header's ``user_version``, set
        to what it is): whether the store can be written now (raises what SQLite raised;
        :meth:`server.store.writer.StoreWriter.watch_health`)."""
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                version = int(db.execute("PRAGMA user_version").fetchone()[0])
                db.execute(f"PRAGMA user_version = {version}")
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        db.execute("ROLLBACK")
                raise

    def _append_actions(self, ops: Sequence[AppendAction]) -> None:
        """Insert the actions' rows with one statement per :data:`_ROWS_PER_INSERT` rows,
        not ``executemany``: the sqlite3 module lets go of the interpreter lock around each
        statement's step, and a thread that wants it back while the event loop's thread runs
        Python waits up to the switch interval (5 ms). The writer thread takes over the
        commits exactly when the loop is busy: 256 rows, one step each, took 0.9 s, and
        every room waiting for that commit waited as long (one room of eight players and
        four delayed tiers held a game elsewhere up 1.8 s)."""
        at = time.time()  # (when stored: never before the action was played)
        rows = [v for op in ops for v in (
            op.room_id, op.seq, op.seat, json.dumps(action_to_json(op.action), sort_keys=True),
            json.dumps([round(c, 3) for c in op.clocks]), at)]
        most = self._db.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER) // _ACTION_COLUMNS
        start, left = 0, len(ops)
        while left:
            count = next(n for n in _INSERT_SIZES if n <= min(left, most))
            self._db.execute(_insert_actions(count), rows[start * _ACTION_COLUMNS:
                                                          (start + count) * _ACTION_COLUMNS])
            start, left = start + count, left - count

    def _perform(self, op: StoreOp) -> None:
        db = self._db
        if isinstance(op, AppendAction):
            self._append_actions([op])
        elif isinstance(op, CreateGame):
            db.execute(
                "INSERT INTO games (room_id, name, seed, players, created, clock_seconds, "
                "accounts, settings, match_id, game_number, chooser, state_base) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (op.room_id, op.name, op.seed, json.dumps([list(p) for p in op.players]),
                 time.time(), op.clock_seconds, json.dumps(list(op.accounts)),
                 op.settings.to_json(), op.match_id or None, op.game_number, op.chooser,
                 op.state_base))
        elif isinstance(op, FinishGame):
            db.execute("UPDATE games SET result = ?, finished = ? WHERE room_id = ?",
                       (json.dumps({"winners": list(op.winners), "reason": op.reason}),
                        time.time(), op.room_id))
            # A single game's room is over: it counts against no address any more (a
            # match's is once the match is: PutMatch).
            db.execute("DELETE FROM room_addresses WHERE room_id = ? AND EXISTS (SELECT 1 "
                       "FROM games WHERE room_id = ? AND match_id IS NULL)",
                       (op.room_id, op.room_id))
        elif isinstance(op, AbortGame):
            # The room's game -- of a match, the unfinished one (its finished games stay
            # replayable) -- and the match (named by its room or by one of its games).
            db.execute("UPDATE games SET aborted = ? WHERE (room_id = ? AND (match_id IS NULL "
                       "OR result IS NULL)) OR (match_id = ? AND result IS NULL)",
                       (op.traceback, op.room_id, op.room_id))
            db.execute("UPDATE matches SET aborted = ? WHERE room_id = ? OR room_id = "
                       "(SELECT match_id FROM games WHERE room_id = ?)",
                       (op.traceback, op.room_id, op.room_id))
            db.execute("DELETE FROM room_addresses WHERE room_id = ? OR room_id = "
                       "(SELECT match_id FROM games WHERE room_id = ?)", (op.room_id, op.room_id))
        elif isinstance(op, PutMatch):
            m = op.match
            db.execute(
                "INSERT INTO matches (room_id, best_of, created, games, wins, draws, state, "
                "winner, reason, finished) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(room_id) DO UPDATE SET games = excluded.games, "
                "wins = excluded.wins, draws = excluded.draws, state = excluded.state, "
                "winner = excluded.winner, reason = excluded.reason, "
                "finished = COALESCE(matches.finished, excluded.finished)",
                (m.room_id, m.best_of, time.time(), json.dumps(list(m.games)),
                 json.dumps(list(m.wins)), m.draws, m.state_json(), m.winner,
                 m.reason or None, time.time() if m.winner is not None else None))
            if m.winner is not None:  # over: its room counts against no address any more
                db.execute("DELETE FROM room_addresses WHERE room_id = ?", (m.room_id,))
        elif isinstance(op, PutSession):
            db.execute(
                "INSERT INTO sessions (session_id, token_hash, name, room_id, updated, "
                "prev_hash, account_id) VALUES (?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(session_id) DO UPDATE SET "
                "token_hash = excluded.token_hash, room_id = excluded.room_id, "
                "updated = excluded.updated, prev_hash = excluded.prev_hash, "
                "name = excluded.name",
                (op.session_id, op.token_hash, op.name, op.room_id, time.time(),
                 op.prev_hash, op.account_id))
        elif isinstance(op, DropSession):
            db.execute("DELETE FROM sessions WHERE session_id = ?", (op.session_id,))
        elif isinstance(op, PutAccount):
            db.execute(
                "INSERT INTO accounts (account_id, name, name_key, registered, password_hash, "
                "created) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(account_id) DO UPDATE SET "
                "name = excluded.name, name_key = excluded.name_key, "
                "registered = excluded.registered, password_hash = excluded.password_hash",
                (op.account_id, op.name, op.name_key, int(op.registered),
                 op.password_hash or None, time.time()))
        elif isinstance(op, PutToken):
            db.execute("INSERT INTO account_tokens (token_hash, account_id, created) "
                       "VALUES (?, ?, ?)", (op.token_hash, op.account_id, time.time()))
        elif isinstance(op, DropTokens):
            db.execute("DELETE FROM account_tokens WHERE account_id = ?", (op.account_id,))
        elif isinstance(op, SeatLeft):
            db.execute("UPDATE games SET left_seats = COALESCE(left_seats || ',', '') || ? "
                       "WHERE room_id = ?", (str(op.seat), op.room_id))
            if op.after_end:
                db.execute("UPDATE games SET left_after_end = "
                           "COALESCE(left_after_end || ',', '') || ? WHERE room_id = ?",
                           (str(op.seat), op.room_id))
        elif isinstance(op, RoomAddresses):
            # Only while the room's game (match) is in play: a quick match's late seat is
            # written apart from the room's own records, and may come after its end (which
            # dropped the row) -- a restart then counted the finished room again.
            db.execute("INSERT INTO room_addresses (room_id, addresses) SELECT ?, ? "
                       "WHERE EXISTS (SELECT 1 FROM games WHERE (room_id = ? OR match_id = ?) "
                       "AND result IS NULL AND aborted IS NULL) OR EXISTS (SELECT 1 FROM "
                       "matches WHERE room_id = ? AND winner IS NULL AND aborted IS NULL) "
                       "ON CONFLICT(room_id) DO UPDATE SET addresses = excluded.addresses",
                       (op.room_id, json.dumps(sorted(op.addresses)), op.room_id, op.room_id,
                        op.room_id))
        elif isinstance(op, SeenAccount):
            db.execute("UPDATE accounts SET last_seen = ? WHERE account_id = ?",
                       (op.when, op.account_id))
        elif isinstance(op, DropAccount):
            db.execute("DELETE FROM account_tokens WHERE account_id = ?", (op.account_id,))
            db.execute("DELETE FROM sessions WHERE account_id = ?", (op.account_id,))
            db.execute("DELETE FROM accounts WHERE account_id = ?", (op.account_id,))
        else:
            assert_never(op)

    # ---- reading
    def load_game(self, room_id: str, *, actions: bool = True) -> GameRecord:
        """The stored record of a game (KeyError if unknown); ``actions=False``: without its
        action log (a game's settings, players and result, read at once).

        A file store reads the action log on a connection of its own, without the lock the
        writer takes for every room's commits: a long game's log (tens of thousands of
        actions, half a second to read) never holds up the rooms' writes (WAL lets a reader
        and the writer work at once)."""
        log: _Log = ([], [], None)
        with self._lock:
            row = self._db.execute(
                "SELECT name, seed, players, result, aborted, clock_seconds, accounts, "
                "settings, match_id, game_number, chooser, state_base, created, left_seats, "
                "finished, left_after_end FROM games WHERE room_id = ?", (room_id,)).fetchone()
            if row is None:
                raise KeyError(room_id)
            if actions and str(self.path) == ":memory:":
                log = self._read_actions(self._db, room_id)
        if actions and str(self.path) != ":memory:":
            reader = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True)
            try:
                log = self._read_actions(reader, room_id)
            finally:
                reader.close()
        played, times, clocks = log
        players = [(str(p[0]), str(p[1]), str(p[2]) if len(p) > 2 else "")
                   for p in json.loads(row[2])]
        result = json.loads(row[3]) if row[3] else None
        accounts = tuple(str(a) for a in json.loads(row[6])) if row[6] else \
            ("",) * len(players)
        return GameRecord(room_id, row[0], bytes(row[1]), players, played, result,
                          float(row[5]), clocks, row[4], accounts,
                          RoomSettings.from_json(row[7]), row[8] or "", int(row[9] or 1),
                          None if row[10] is None else int(row[10]), int(row[11] or 1),
                          created=float(row[12]), action_times=tuple(times),
                          left=_seats(row[13]), left_after_end=_seats(row[15]),
                          finished=None if row[14] is None else float(row[14]))

    @staticmethod
    def _read_actions(db: sqlite3.Connection, room_id: str) -> _Log:
        """A game's actions in order, when each was taken, and the last clocks logged."""
        actions: list[tuple[int, Action]] = []
        times: list[float] = []
        clocks: tuple[float, ...] | None = None
        for seat, text, clock_text, at in db.execute(
                "SELECT seat, action, clocks, at FROM actions WHERE room_id = ? "
                "ORDER BY seq", (room_id,)):
            actions.append((int(seat), action_from_json(json.loads(text))))
            times.append(float(at) if at is not None else 0.0)
            if clock_text:
                clocks = tuple(float(c) for c in json.loads(clock_text))
        return actions, times, clocks

    def load_match(self, room_id: str) -> MatchRecord:
        """The stored record of a room's match of several games (KeyError if none)."""
        with self._lock:
            row = self._db.execute(
                "SELECT best_of, games, wins, draws, state, winner, reason, aborted "
                "FROM matches WHERE room_id = ?", (room_id,)).fetchone()
        if row is None:
            raise KeyError(room_id)
        state = json.loads(row[4])
        return MatchRecord(
            room_id, int(row[0]), tuple(str(d) for d in state["registered"]),
            tuple(str(d) for d in state["decks"]), tuple(str(g) for g in json.loads(row[1])),
            tuple(int(w) for w in json.loads(row[2])), int(row[3]),
            tuple(int(c) for c in state["choosers"]),
            tuple((int(w), str(r)) for w, r in state["results"]),
            tuple(bool(r) for r in state["ready"]),
            None if row[5] is None else int(row[5]), row[6] or "", row[7])

    def unfinished_games(self, finished_within: float = 0.0, *,
                         unreadable: list[tuple[str, str]] | None = None) -> list[GameRecord]:
        """Every room to reload, oldest first: each stored single game that was not
        aborted and has not ended, or ended less than ``finished_within`` seconds ago (its
        room still lingers); and for each such match of several games, its latest game
        (being played, or finished: then the match is between games or lingers) with the
        match record in :attr:`GameRecord.match` -- and, if the room has a tier delayed by
        seconds, the match's earlier games in :attr:`GameRecord.earlier`. With
        ``unreadable``, a room whose records can't be read (a damaged row, an action a
        newer build wrote) is left out and listed there as (room id, the error) instead of
        raising: one such room mustn't keep the others from being served."""
        cutoff = time.time() - finished_within
        with self._lock:
            rows = self._db.execute(
                "SELECT room_id, created, 0 FROM games WHERE aborted IS NULL "
                "AND match_id IS NULL AND (result IS NULL OR (? > 0 AND finished > ?)) "
                "UNION ALL SELECT room_id, created, 1 FROM matches WHERE aborted IS NULL "
                "AND (winner IS NULL OR (? > 0 AND finished > ?)) ORDER BY 2",
                (finished_within, cutoff, finished_within, cutoff)).fetchall()
        records = []
        for room_id, _created, is_match in rows:
            try:
                record = self._room_record(room_id, is_match=bool(is_match))
            except Exception as exc:
                if unreadable is None:
                    raise
                unreadable.append((room_id, repr(exc)))
                continue
            if record is not None:
                records.append(record)
        return records

    def unfinished_game(self, room_id: str) -> GameRecord | None:
        """The record to reload room ``room_id`` from, as :meth:`unfinished_games` reads it
        at a start (a match's latest game, with the match), whether its game has ended or
        not; None if nothing of the room is stored (its first game's start never was) or
        its game (or match) was aborted. For a room that stopped because the store could
        not be written, brought back once it can (:meth:`Lobby.resume_stopped
        <server.rooms.lobby.Lobby.resume_stopped>`)."""
        with self._lock:
            match = self._db.execute("SELECT aborted FROM matches WHERE room_id = ?",
                                     (room_id,)).fetchone()
            game = None if match is not None else self._db.execute(
                "SELECT aborted FROM games WHERE room_id = ? AND match_id IS NULL",
                (room_id,)).fetchone()
        row = match if match is not None else game
        if row is None or row[0] is not None:
            return None
        return self._room_record(room_id, is_match=match is not None)

    def _room_record(self, room_id: str, *, is_match: bool) -> GameRecord | None:
        """A room's record to reload (:meth:`unfinished_games`; None: nothing to)."""
        if not is_match:
            return self.load_game(room_id)
        match = self.load_match(room_id)
        if not match.games:
            return None
        game = self.load_game(match.games[-1])
        if game.aborted is not None:
            return None
        delayed = any(t.delay_seconds > 0 for t in game.settings.tiers)
        earlier = tuple(self.load_game(g) for g in match.games[:-1]) if delayed else ()
        return replace(game, match=match, earlier=earlier)

    def failed_recoveries(self) -> int:
        """Rooms aborted as failed recoveries (their reason says ``recovery failed``), since
        the store began: a start that compares the count before and after reloading learns
        how many it could not recover."""
        with self._lock:
            row = self._db.execute(
                "SELECT (SELECT COUNT(*) FROM games WHERE match_id IS NULL "
                "AND aborted LIKE '%recovery failed%') + (SELECT COUNT(*) FROM matches "
                "WHERE aborted LIKE '%recovery failed%')").fetchone()
        return int(row[0])

    def sessions(self) -> list[SessionRow]:
        """Every stored session."""
        with self._lock:
            rows = self._db.execute(
                "SELECT session_id, token_hash, name, room_id, prev_hash, account_id "
                "FROM sessions").fetchall()
        return [SessionRow(r[0], bytes(r[1]), r[2], r[3], bytes(r[4] or b""), r[5] or "")
                for r in rows]

    def accounts(self) -> tuple[list[AccountRow], list[tuple[bytes, str]]]:
        """Every stored account, and every valid token hash with its account id."""
        with self._lock:
            rows = self._db.execute(
                "SELECT account_id, name, registered, password_hash, "
                "COALESCE(last_seen, created) FROM accounts").fetchall()
            tokens = self._db.execute(
                "SELECT token_hash, account_id FROM account_tokens").fetchall()
        return ([AccountRow(r[0], r[1], bool(r[2]), r[3] or "", float(r[4])) for r in rows],
                [(bytes(t), str(a)) for t, a in tokens])

    def room_addresses(self, live: set[str]) -> dict[str, tuple[str, ...]]:
        """The client addresses each of the ``live`` rooms counts against (see
        :class:`~server.store.records.RoomAddresses`); the rows of every other room -- one
        no start reloaded -- are dropped (call once, as the rooms are reloaded)."""
        with self._lock:
            rows = self._db.execute("SELECT room_id, addresses FROM room_addresses").fetchall()
            gone = [(room_id,) for room_id, _a in rows if room_id not in live]
            self._db.executemany("DELETE FROM room_addresses WHERE room_id = ?", gone)
        return {str(room_id): tuple(str(a) for a in json.loads(addresses))
                for room_id, addresses in rows if room_id in live}

    def prune_sessions(self, keep_rooms: set[str], older_than: float) -> int:
        """Forget sessions in none of ``keep_rooms`` not updated for ``older_than`` seconds."""
        cutoff = time.time() - older_than
        with self._lock:
            rows = self._db.execute(
                "SELECT session_id, room_id FROM sessions WHERE updated < ?",
                (cutoff,)).fetchall()
            gone = [(sid,) for sid, room in rows if room not in keep_rooms]
            self._db.executemany("DELETE FROM sessions WHERE session_id = ?", gone)
        return len(gone)


class Checkpointer:
    """Checkpoints a store's write-ahead log from a thread of its own, beside the writer
    (SQLite lets one checkpoint run while a writer commits)."""

    def __init__(self, path: Path) -> None:
        self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)

    def passive(self) -> int:
        """Copy into the database every frame of the log committed so far, and sync it;
        return the frames the log holds (a log is only started over once it is fully copied
        when a write begins, so under a steady stream of commits it keeps growing: see
        :meth:`Store.restart_log`)."""
        _busy, frames, _copied = self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        return int(frames)

    def close(self) -> None:
        self._db.close()


def _seats(text: str | None) -> tuple[int, ...]:
    """Seats stored as "2,0" (None: none)."""
    return tuple(int(n) for n in (text or "").split(",") if n)


@functools.cache
def _insert_actions(rows: int) -> str:
    """The INSERT of ``rows`` action rows."""
    return ("INSERT INTO actions (room_id, seq, seat, action, clocks, at) VALUES "
            + ", ".join(["(?, ?, ?, ?, ?, ?)"] * rows))
