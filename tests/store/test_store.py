"""The store: batched writes on the writer thread, durability before the caller goes on,
one bad batch failing alone, schema migration, sessions stored as token hashes."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest
import trio

from server.bench_store import bench_store
from server.engine.actions import Concede, PassPriority
from server.store.records import (
    AbortGame,
    AppendAction,
    CreateGame,
    FinishGame,
    MatchRecord,
    PutMatch,
    PutSession,
)
from server.store.sqlite import Store
from server.store.writer import StoreClosedError, StoreWriter


def _game(room: str) -> CreateGame:
    return CreateGame(room, "t", b"\x01" * 32, (("Ann", "naya-pets", "s1"),
                                                 ("Bob", "golgari-grind", "s2")), 60.0)


async def test_invariant_6_many_rooms_writes_are_committed_together_and_durable_on_return(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path / "db.sqlite3")
    writer = StoreWriter(store)
    try:
        await writer.write([_game(f"r{i}") for i in range(10)])

        async def room(i: int) -> None:
            for seq in range(1, 21):
                await writer.write([AppendAction(f"r{i}", seq, seq % 2, PassPriority(),
                                                 (50.0, 60.0))])
                # Durable on return: a second connection sees the row already.
                other = sqlite3.connect(tmp_path / "db.sqlite3")
                count = other.execute("SELECT COUNT(*) FROM actions WHERE room_id = ?",
                                      (f"r{i}",)).fetchone()[0]
                other.close()
                assert count == seq

        async with trio.open_nursery() as nursery:
            for i in range(10):
                nursery.start_soon(room, i)
        assert writer.batches == 201 and writer.commits < writer.batches  # grouped
    finally:
        writer.close()
    record = store.load_game("r3")
    assert len(record.actions) == 20 and record.clocks == (50.0, 60.0)
    assert record.players[1] == ("Bob", "golgari-grind", "s2")
    assert len(store.unfinished_games()) == 10
    store.close()


async def test_a_failing_batch_fails_alone(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite3")
    writer = StoreWriter(store)
    try:
        await writer.write([_game("a")])
        duplicate = AppendAction("a", 1, 0, PassPriority(), ())
        await writer.write([duplicate])
        results: dict[str, BaseException | None] = {}

        async def put(key: str, op: AppendAction) -> None:
            try:
                await writer.write([op])
                results[key] = None
            except sqlite3.IntegrityError as exc:
                results[key] = exc

        async with trio.open_nursery() as nursery:
            nursery.start_soon(put, "bad", duplicate)
            nursery.start_soon(put, "good", AppendAction("a", 2, 1, Concede(), ()))
        assert isinstance(results["bad"], sqlite3.IntegrityError) and results["good"] is None
        assert [a for _s, a in store.load_game("a").actions] == [PassPriority(), Concede()]
    finally:
        writer.close()
    with pytest.raises(StoreClosedError):
        await writer.write([_game("b")])
    store.close()


@pytest.mark.parametrize("inline", [False, True])
async def test_write_soon_is_committed_in_order_without_a_waiter_and_a_failure_is_logged(
    tmp_path: Path, inline: bool, caplog: pytest.LogCaptureFixture,
) -> None:
    """A spectator's place is written without waiting (StoreWriter.write_soon): in queue
    order with the waited writes around it, so a later row is never overwritten by an
    earlier one; a failing batch is logged and fails nothing else; closed: refused."""
    store = Store(tmp_path / "db.sqlite3")
    writer = StoreWriter(store, inline=inline)
    try:
        await writer.write([_game("a")])
        writer.write_soon([PutSession("s1", b"h" * 32, "Ann", "a")])
        writer.write_soon([AppendAction("a", 1, 0, PassPriority(), ())])
        writer.write_soon([AppendAction("a", 1, 0, PassPriority(), ())])  # a duplicate
        writer.write_soon([PutSession("s1", b"h" * 32, "Ann", None)])
        await writer.write([AppendAction("a", 2, 1, Concede(), ())])  # after all of them
        assert [(r.session_id, r.room_id) for r in store.sessions()] == [("s1", None)]
        assert [a for _s, a in store.load_game("a").actions] == [PassPriority(), Concede()]
        assert "could not be written" in caplog.text
    finally:
        writer.close()
    with pytest.raises(StoreClosedError):
        writer.write_soon([_game("b")])
    store.close()


def test_finished_games_are_not_reloaded_and_sessions_keep_only_token_hashes(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path / "db.sqlite3")
    store.apply([_game("a"), _game("b"), FinishGame("a", (0,), "conceded"),
                 PutSession("s1", b"h" * 32, "Ann", "b")])
    assert [r.room_id for r in store.unfinished_games()] == ["b"]
    rows = store.sessions()
    assert [(r.session_id, r.token_hash, r.room_id) for r in rows] == [("s1", b"h" * 32, "b")]
    store.apply([PutSession("s1", b"k" * 32, "Ann", None)])  # a rotated token replaces it
    assert [r.token_hash for r in store.sessions()] == [b"k" * 32]
    store.close()


def test_a_database_of_the_first_schema_is_migrated(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE games (room_id TEXT PRIMARY KEY, name TEXT NOT NULL, seed BLOB NOT NULL,
                            players TEXT NOT NULL, created REAL NOT NULL, result TEXT);
        CREATE TABLE actions (room_id TEXT NOT NULL, seq INTEGER NOT NULL,
                              seat INTEGER NOT NULL, action TEXT NOT NULL,
                              PRIMARY KEY (room_id, seq));
    """)
    db.execute("INSERT INTO games VALUES ('g', 'old', x'00', ?, 0, NULL)",
               (json.dumps([["Ann", "naya-pets"], ["Bob", "golgari-grind"]]),))
    db.execute("INSERT INTO actions VALUES ('g', 1, 0, ?)",
               (json.dumps({"type": "PassPriority"}),))
    db.commit()
    db.close()
    store = Store(path)
    record = store.load_game("g")
    assert record.players[0] == ("Ann", "naya-pets", "") and record.clock_seconds == 1800
    assert record.actions == [(0, PassPriority())] and record.clocks is None
    # (a game stored before matches: a single game, chosen at random, state ids from 1)
    assert record.match_id == "" and record.game_number == 1 and record.chooser is None
    assert record.state_base == 1 and record.settings.best_of == 1
    store.close()


def _match(room: str, games: tuple[str, ...], **fields: object) -> PutMatch:
    return PutMatch(MatchRecord(room, 3, ("naya-pets", "golgari-grind"),
                                ("naya-pets", "golgari-grind"), games,
                                **fields))  # type: ignore[arg-type]


def test_a_match_is_stored_with_its_games_and_reloaded_by_its_latest_game(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path / "db.sqlite3")
    game1 = replace(_game("m"), match_id="m")
    game2 = replace(_game("m.2"), match_id="m", game_number=2, chooser=0, state_base=40)
    store.apply([game1, _match("m", ("m",), wins=(0, 0), choosers=(1,)),
                 FinishGame("m", (1,), "conceded"),
                 _match("m", ("m",), wins=(0, 1), choosers=(1,), results=((1, "conceded"),),
                        ready=(True, False))])
    # Between games: the last (finished) game comes back with its match.
    [record] = store.unfinished_games()
    assert record.room_id == "m" and record.match is not None
    assert record.match.wins == (0, 1) and record.match.ready == (True, False)
    store.apply([game2, _match("m", ("m", "m.2"), wins=(0, 1), choosers=(1, 0),
                               results=((1, "conceded"),), ready=(False, False))])
    [record] = store.unfinished_games()
    assert (record.room_id, record.match_id, record.game_number) == ("m.2", "m", 2)
    assert record.chooser == 0 and record.state_base == 40
    assert record.match is not None and record.match.games == ("m", "m.2")
    # A failure during game 2 aborts the match and game 2; game 1 stays replayable.
    store.apply([AbortGame("m", "boom")])
    assert store.unfinished_games() == []
    assert store.load_game("m").aborted is None and store.load_game("m.2").aborted == "boom"
    assert store.load_match("m").aborted == "boom"
    # A finished match lingers like a finished game, then is not reloaded.
    store.apply([replace(_game("n"), match_id="n"),
                 _match("n", ("n",), wins=(2, 0), winner=0, reason="Ann won 2 of 2 games"),
                 FinishGame("n", (0,), "conceded")])
    assert [r.room_id for r in store.unfinished_games(finished_within=60)] == ["n"]
    assert store.unfinished_games() == []
    assert store.load_match("n").winner == 0
    with pytest.raises(KeyError):
        store.load_match("nope")
    store.close()


def test_bench_store_prints_runs_and_a_summary() -> None:
    lines = [json.loads(line) for line in bench_store(2, 5, 1, "process")]
    assert [line.get("mode") for line in lines[:2]] == ["inline", "thread"]
    summary = lines[-1]
    assert summary["summary"] is True
    assert summary["inline_loop_cpu_us_per_action"] > 0
    assert summary["thread_loop_cpu_us_per_action"] > 0
