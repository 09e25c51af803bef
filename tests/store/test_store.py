"""The store: batched writes on the writer thread (or on the event loop while the thread has
nothing in hand), durability before the caller goes on, one bad batch failing alone, schema
migration, sessions stored as token hashes."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import pytest
import trio

from server.bench_store import bench_store
from server.engine.actions import Concede, PassPriority
from server.store import writer as writer_module
from server.store.records import (
    AbortGame,
    AppendAction,
    CreateGame,
    FinishGame,
    MatchRecord,
    PutMatch,
    PutSession,
    SeatLeft,
    StoreOp,
)
from server.store.sqlite import Store
from server.store.writer import (
    GROUPING,
    LOOP_BUSY,
    MAX_PLACES,
    PROBE_EVERY,
    StoreClosedError,
    StoreWriter,
)


def _game(room: str) -> CreateGame:
    return CreateGame(room, "t", b"\x01" * 32, (("Ann", "naya-pets", "s1"),
                                                 ("Bob", "golgari-grind", "s2")), 60.0)


async def test_invariant_6_many_rooms_writes_are_committed_together_and_durable_on_return(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path / "db.sqlite3")
    writer = StoreWriter(store, on_loop=False)
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


class _SpyStore(Store):
    """A store that keeps what each commit applied, can hold the writer thread in a commit
    (:meth:`hold`) until released, and refuses a commit that writes session ``refuse``."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.applied: list[list[StoreOp]] = []
        self.refuse = ""
        self._gate: threading.Event | None = None
        self._held = threading.Event()

    async def hold(self, writer: StoreWriter) -> threading.Event:
        """Have the writer thread wait inside its next commit; set the event to let it go."""
        gate = self._gate = threading.Event()
        trio.lowlevel.spawn_system_task(writer.write, [_game("held")])
        await trio.to_thread.run_sync(self._held.wait, 10)
        return gate

    def apply(self, ops: Sequence[StoreOp]) -> None:
        gate, self._gate = self._gate, None
        if gate is not None:
            self._held.set()
            gate.wait(10)
        if any(isinstance(op, PutSession) and op.session_id == self.refuse for op in ops):
            raise sqlite3.IntegrityError("refused")
        super().apply(ops)
        self.applied.append(list(ops))

    def apply_unless_busy(self, ops: Sequence[StoreOp]) -> bool:
        if self._gate is not None:  # the held write is the thread's
            return False
        done = super().apply_unless_busy(ops)
        if done:
            self.applied.append(list(ops))
        return done

    def places(self) -> list[list[PutSession]]:
        """The commits that wrote a session row, each as its session rows."""
        commits = [[op for op in ops if isinstance(op, PutSession)] for ops in self.applied]
        return [rows for rows in commits if rows]


def _place(session: str, room: str | None) -> PutSession:
    return PutSession(session, session.encode().ljust(32, b"h"), "Ann", room)


def _rooms(store: Store) -> dict[str, str | None]:
    return {r.session_id: r.room_id for r in store.sessions()}


async def _until(check: Callable[[], bool]) -> None:
    for _ in range(500):  # the writer thread: at most 5 s of real time
        if check():
            return
        await trio.sleep(0.01)
    raise AssertionError("the writer thread never got there")


async def test_spectators_places_are_written_unwaited_latest_only_in_one_commit(
    tmp_path: Path,
) -> None:
    """A crowd moving between rooms (StoreWriter.write_place): nobody waits; each session's
    latest place is written once, in one commit for the moves made meanwhile, within
    PLACE_SECONDS of the first; closed: refused."""
    store = _SpyStore(tmp_path / "db.sqlite3")
    writer = StoreWriter(store, on_loop=False)
    try:
        gate = await store.hold(writer)
        for move in range(5):  # 10 spectators leave a room and join the next, 5 times over
            for n in range(10):
                writer.write_place(_place(f"s{n}", None))
                writer.write_place(_place(f"s{n}", f"room{move}"))
        gate.set()
        await _until(lambda: _rooms(store) == {f"s{n}": "room4" for n in range(10)})
        assert store.places() == [[_place(f"s{n}", "room4") for n in range(10)]]
        writer.write_place(_place("s0", "room5"))  # no other write: still written
        await _until(lambda: _rooms(store)["s0"] == "room5")
    finally:
        writer.close()
    with pytest.raises(StoreClosedError):
        writer.write_place(_place("s1", "a"))
    store.close()


async def test_a_pending_place_goes_before_a_waited_write_of_its_session_only(
    tmp_path: Path,
) -> None:
    """A place pending when a waited write of the same session comes is committed first, so
    the later row is never overwritten by the earlier; other sessions' places still wait."""
    store = _SpyStore(tmp_path / "db.sqlite3")
    writer = StoreWriter(store, on_loop=False)
    try:
        gate = await store.hold(writer)
        writer.write_place(_place("s1", "a"))
        writer.write_place(_place("s2", "a"))
        gate.set()
        await writer.write([_place("s1", None)])  # s1 sat down elsewhere, say
        assert store.places()[0] == [_place("s1", "a"), _place("s1", None)]
        await _until(lambda: _rooms(store) == {"s1": None, "s2": "a"})
        assert store.places()[1:] == [[_place("s2", "a")]]
    finally:
        writer.close()
    store.close()


async def test_a_waited_write_is_never_committed_with_places_and_waits_for_one_chunk_at_most(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A room's write taken with places that are due goes in a transaction of its own
    first; the places follow in chunks of MAX_PLACES rows (so a write queued meanwhile waits
    for one chunk at most, never for the whole crowd's rows)."""
    monkeypatch.setattr(writer_module, "PLACE_SECONDS", 0.0)  # places due as they come
    store = _SpyStore(tmp_path / "db.sqlite3")
    writer = StoreWriter(store, on_loop=False)
    crowd = MAX_PLACES + 4
    try:
        gate = await store.hold(writer)
        for n in range(crowd):
            writer.write_place(_place(f"s{n}", "a"))
        async with trio.open_nursery() as nursery:
            nursery.start_soon(writer.write, [_game("room")])  # queued behind the places
            await trio.sleep(0.05)
            gate.set()
        await _until(lambda: len(_rooms(store)) == crowd)
        assert store.applied[:2] == [[_game("held")], [_game("room")]]
        assert [len(rows) for rows in store.places()] == [MAX_PLACES, 4]
    finally:
        writer.close()
    store.close()


async def test_places_pending_at_close_are_written_and_a_failure_is_logged_alone(
    tmp_path: Path, caplog: pytest.LogCaptureFixture,
) -> None:
    """Closing the writer commits the places still pending; a commit of places that fails
    is logged (nobody waits for it) and every other write still succeeds."""
    store = _SpyStore(tmp_path / "db.sqlite3")
    store.refuse = "bad"
    writer = StoreWriter(store, on_loop=False)
    gate = await store.hold(writer)
    writer.write_place(_place("bad", "a"))
    gate.set()
    await _until(lambda: "could not be written" in caplog.text)
    await writer.write([_game("b")])
    writer.write_place(_place("s1", "b"))
    writer.close()
    assert _rooms(store) == {"s1": "b"}
    assert [r.room_id for r in store.unfinished_games()] == ["held", "b"]
    store.close()


async def test_inline_places_are_written_at_once(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite3")
    writer = StoreWriter(store, inline=True)
    writer.write_place(_place("s1", "a"))
    assert _rooms(store) == {"s1": "a"}
    writer.close()
    store.close()


@pytest.mark.parametrize("variables", [32_766, 999, 15])
def test_a_commit_of_many_actions_writes_them_all_in_order_whatever_sqlites_limit(
        tmp_path: Path, variables: int) -> None:
    """Action rows go in a few multi-row INSERTs (not ``executemany``, which let go of the
    interpreter lock at every row); a SQLite allowing fewer variables gets smaller ones."""
    store = Store(tmp_path / "db.sqlite3")
    try:
        store._db.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, variables)
        actions = [AppendAction(room, seq, seq % 2, PassPriority(), (float(seq), 1.5))
                   for seq in range(1, 338) for room in ("a", "b")]
        store.apply([_game("a"), _game("b"), *actions])
        for room in ("a", "b"):
            record = store.load_game(room)
            assert [seat for seat, _action in record.actions] == \
                [seq % 2 for seq in range(1, 338)]
    finally:
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
    # (nor the times of its actions, nor who left: none known)
    assert record.action_times == (0.0,) and record.left == ()
    store.close()


def test_who_left_a_game_and_when_each_action_was_stored_come_back(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite3")
    before = time.time()
    store.apply([_game("g"), AppendAction("g", 1, 0, PassPriority(), (60.0, 60.0)),
                 SeatLeft("g", 1), AppendAction("g", 2, 0, PassPriority(), (60.0, 60.0))])
    store.apply([SeatLeft("g", 0)])
    after = time.time()
    [record] = store.unfinished_games()
    store.close()
    assert record.left == (1, 0)
    assert len(record.action_times) == 2
    assert all(before <= at <= after for at in record.action_times)


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


def _log_frames(path: Path) -> int:
    """The frames in a store's write-ahead log (a passive checkpoint copies none it can't)."""
    with sqlite3.connect(str(path), isolation_level=None) as db:
        return int(db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[1])


async def test_the_log_is_checkpointed_beside_the_commits_never_in_them(
    tmp_path: Path,
) -> None:
    """SQLite's automatic checkpoint is off on the writer's connection (a commit that also
    copied the log and synced it held every room's write back ~20 ms once a second); the
    writer's checkpoint thread copies the log instead, and closing stops it."""
    store = Store(tmp_path / "db.sqlite3")
    writer = StoreWriter(store, checkpoint_seconds=0.05)
    try:
        assert store._db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
        for i in range(20):
            await writer.write([_game(f"r{i}")])
        await _until(lambda: writer.checkpoints >= 2)
    finally:
        writer.close()
    assert writer._checkpoint_thread is not None and not writer._checkpoint_thread.is_alive()
    assert len(store.unfinished_games()) == 20
    store.close()


async def test_a_log_grown_past_its_limit_is_started_over_by_the_writer_between_commits(
    tmp_path: Path,
) -> None:
    """Under a steady stream of commits the background checkpoints never find the log fully
    copied (when SQLite would start it over): past ``max_log_frames`` the writer starts it
    over, again and again, and the log stays bounded. (Bounded in writes, not time: on a
    loaded machine the checkpoint thread may wake late, and 400 writes once saw only one
    restart, the log then 202 frames long.)"""
    path = tmp_path / "db.sqlite3"
    store = Store(path)
    writer = StoreWriter(store, checkpoint_seconds=0.02, max_log_frames=20)
    try:
        for i in range(5_000):
            await writer.write([_game(f"r{i}")])
            if writer.restarts >= 2:
                break
            await trio.sleep(0.001)
        assert writer.restarts >= 2
        assert _log_frames(path) < 200  # what was written since the last start over
    finally:
        writer.close()
    assert len(store.unfinished_games()) >= 1
    store.close()


def test_an_inline_writer_leaves_checkpoints_to_sqlite(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite3")
    writer = StoreWriter(store, inline=True)
    assert store._db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 1000
    assert writer._checkpoint_thread is None
    writer.close()
    store.close()


async def test_invariant_6_a_write_while_the_thread_has_none_in_hand_commits_on_the_loop(
    tmp_path: Path,
) -> None:
    """With the thread idle, a write commits on the event loop: durable on return (another
    connection sees it) without a thread switch and without yielding."""
    path = tmp_path / "db.sqlite3"
    store = Store(path)
    writer = StoreWriter(store)
    assert writer.on_loop
    try:
        await writer.write([_game("r")])
        with trio.testing.assert_no_checkpoints():
            await writer.write([AppendAction("r", 1, 0, PassPriority(), ())])
        other = sqlite3.connect(path)
        assert other.execute("SELECT COUNT(*) FROM actions").fetchone()[0] == 1
        other.close()
        assert (writer.loop_commits, writer.commits, writer.batches) == (2, 2, 2)
    finally:
        writer.close()
    store.close()


async def test_a_write_while_the_thread_commits_goes_after_it_through_the_thread(
    tmp_path: Path,
) -> None:
    """While the thread has a write in hand, a new write is queued behind it (writes keep
    their order: a session's rows, a room's actions), and its caller waits for the thread."""
    store = _SpyStore(tmp_path / "db.sqlite3")
    writer = StoreWriter(store)
    try:
        gate = await store.hold(writer)
        done = trio.Event()

        async def write() -> None:
            await writer.write([_place("s1", "b")])
            done.set()

        async with trio.open_nursery() as nursery:
            nursery.start_soon(write)
            await trio.sleep(0.05)
            assert not done.is_set() and writer.loop_commits == 0
            gate.set()
        assert [ops[0] for ops in store.applied] == [_game("held"), _place("s1", "b")]
        assert writer.loop_commits == 0
        await writer.write([_place("s1", "c")])  # the thread is idle again: on the loop
        assert writer.loop_commits == 1 and _rooms(store) == {"s1": "c"}
    finally:
        writer.close()
    store.close()


async def test_a_write_while_another_thread_reads_the_store_waits_on_the_thread_not_the_loop(
    tmp_path: Path,
) -> None:
    """A replay being loaded (another thread holding the store) never blocks the event
    loop: the write goes to the thread, which waits for the store."""
    store = Store(tmp_path / "db.sqlite3")
    writer = StoreWriter(store)
    try:
        await writer.write([_game("r")])
        store._lock.acquire()
        try:
            with trio.move_on_after(0.1) as waited:  # the loop is free meanwhile
                await writer.write([_game("s")])
            assert waited.cancelled_caught
        finally:
            store._lock.release()
        await _until(lambda: len(store.unfinished_games()) == 2)
        assert writer.loop_commits == 1
    finally:
        writer.close()
    store.close()


def test_a_store_that_syncs_every_commit_writes_only_on_the_thread(tmp_path: Path) -> None:
    """With ``durability="power"`` every commit syncs the log (milliseconds on a disk):
    never on the event loop."""
    store = Store(tmp_path / "db.sqlite3", durability="power")
    writer = StoreWriter(store)
    assert not writer.on_loop
    writer.close()
    store.close()


async def test_a_busy_event_loop_keeps_group_commit_through_the_thread(tmp_path: Path) -> None:
    """A loop that used LOOP_BUSY of its core lately hands even a lone write to the thread
    (under a saturating load group commit saves more than the thread switches cost)."""
    store = Store(tmp_path / "db.sqlite3")
    writer = StoreWriter(store)
    try:
        writer.loop_load = LOOP_BUSY
        await writer.write([_game("busy")])
        assert (writer.loop_commits, writer.commits) == (0, 1)
        writer.loop_load = LOOP_BUSY - 0.1
        await writer.write([_game("calm")])
        assert (writer.loop_commits, writer.commits) == (1, 2)
    finally:
        writer.close()
    assert len(store.unfinished_games()) == 2
    store.close()


async def test_a_busy_loop_commits_itself_while_the_thread_groups_little_and_probes_it(
    tmp_path: Path,
) -> None:
    """Busy, but the thread's commits held about one batch each (two rooms saturating the
    loop): the loop commits its writes itself, all but every PROBE_EVERY-th, which goes to
    the thread; the thread's grouping is measured on what it commits (several rooms' writes
    queued at once raise it back, and the loop leaves its writes to the thread again)."""
    store = _SpyStore(tmp_path / "db.sqlite3")
    writer = StoreWriter(store)
    try:
        writer.loop_load = 1.0
        writer.grouping = 1.0  # lone batches lately
        for n in range(PROBE_EVERY - 1):
            await writer.write([_game(f"loop{n}")])
        assert (writer.loop_commits, writer.commits) == (PROBE_EVERY - 1, PROBE_EVERY - 1)
        await writer.write([_game("probe")])  # the probe: through the thread
        assert (writer.loop_commits, writer.commits) == (PROBE_EVERY - 1, PROBE_EVERY)
        assert writer.grouping == pytest.approx(1.0)
        gate = await store.hold(writer)  # the thread busy: 5 rooms' writes queue together
        async with trio.open_nursery() as nursery:
            for n in range(5):
                nursery.start_soon(writer.write, [_game(f"room{n}")])
            await trio.sleep(0.05)
            gate.set()
        assert [len(ops) for ops in store.applied[-2:]] == [1, 5]  # held, then the five
        assert writer.grouping >= GROUPING
        commits = writer.loop_commits
        await writer.write([_game("grouped")])  # busy and grouping: through the thread
        assert writer.loop_commits == commits
    finally:
        writer.close()
    store.close()


#: Wall seconds the loop-load test's busy phase may last, waiting for its share of a core.
BUSY_WALL_LIMIT_S = 30.0


async def test_the_loop_load_follows_the_event_loop_threads_cpu_use(tmp_path: Path) -> None:
    """watch_load: the loop thread's CPU over wall time, a moving average -- high while the
    loop computes, low again once it only waits."""
    store = Store(tmp_path / "db.sqlite3")
    writer = StoreWriter(store)
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(writer.watch_load)
            # Busy: compute, letting the sampler run, until the thread has had 0.4 s of a
            # core (0.4 s on an idle machine; longer on a loaded one, where the thread gets
            # a part of a core -- once a suite beside eight helpers gave it nothing at all
            # for 0.4 s of wall time, and the average had nothing to follow).
            end = trio.current_time() + BUSY_WALL_LIMIT_S
            cpu, wall = time.thread_time(), time.perf_counter()
            while time.thread_time() - cpu < 0.4 and trio.current_time() < end:
                sum(range(20_000))
                await trio.lowlevel.checkpoint()
            # (the share of a core this thread got: all of it on an idle machine, less on
            # a loaded one)
            share = (time.thread_time() - cpu) / (time.perf_counter() - wall)
            busy = writer.loop_load
            # Waiting, it falls by a tenth a sample and settles to what the waiting loop
            # itself spends (its own wake-ups: under a percent of a core on an idle machine,
            # a few percent on a loaded one, where each wake-up costs more). Let it settle
            # (a second: 100 samples, when the average's memory is about 10), then measure
            # what the thread really spent while it only waited, and compare.
            await trio.sleep(1.0)
            cpu, wall = time.thread_time(), time.perf_counter()
            await trio.sleep(0.5)
            idle_share = (time.thread_time() - cpu) / (time.perf_counter() - wall)
            idle = writer.loop_load
            nursery.cancel_scope.cancel()
        # Busy, it is the share of a core the thread got; waiting, the share it spent -- far
        # below busy, and far below LOOP_BUSY, so a waiting loop is never taken for busy.
        assert abs(busy - share) < 0.25, (busy, share)
        assert abs(idle - idle_share) < 0.1, (idle, idle_share)
        assert idle < min(0.5 * busy, LOOP_BUSY / 4), (idle, busy)
    finally:
        writer.close()
    store.close()
