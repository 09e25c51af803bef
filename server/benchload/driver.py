"""The load drivers of ``manawire bench-server``, each run in a process of its own (pinned
to its own CPU, away from the server): a game driver, an echo driver and an idle driver.

**Game driver** (:func:`drive_games`). ``rooms`` tables of two connections each, written
directly on the protocol (no SDK mirror, no view hashes: cheap enough for thousands of
connections on one core). Each connection says ``Hello`` (a new guest; ``batched`` unless
told not to). A table's first connection creates a room, both join it as players (``deck``
empty: the server's demo deck), and whoever receives a ``Decision`` answers it with a random
option (seeded per table): at once (closed loop) or, with ``pace`` A > 0, at the table's
next slot of a schedule of A actions per second (each game's first slot at a random phase
within a period; a table behind schedule acts as soon as its decision comes, never catching
up by more than one slot). With ``head_start`` H, a paced table first answers a random 0 to
H of its first game's decisions at once (untimed), and counts as started -- the warmup
waits for every table -- only then. When the game ends (a ``set_header`` op with ``result``), both
leave and the table opens a new room with the same connections, so every table stays busy.
With ``best_of`` 3 or 5 each room hosts a match instead: after each game both players keep
their decks (``SubmitDeck``) and play the next in the same room, until its ``MatchState``
says the match is over.
A table whose request is refused, times out or whose connection drops starts over on two
new connections; all of it is counted (``errors`` by ``ErrorCode`` name, ``failures`` by
kind), nothing waits unbounded.

Figures count only the measuring window: after every table's first game started and a
warmup of ``warmup`` s, for ``seconds`` s (``acts_sent`` in it; ``acts_unanswered_at_end``
and ``oldest_unanswered_ms``: the Acts still waiting for their delta when it closed, which
the latencies can't include). An **action** is an ``Act`` whose ``Delta`` came
back: its latency is from sending the ``Act`` to receiving the first ``Delta`` on that
connection whose ``state_id`` is newer than the ``Act``'s ``expected_state_id``. Bytes are
WebSocket payload bytes received by the driver (``wire_bytes`` adds the frame headers of
server frames: 2, 4 or 10 bytes); ``frames`` are WebSocket messages received, ``messages``
the ``ServerMessage``s in them (more than frames when the server batches). Server CPU% is
utime+stime of the server's pid over the window (``/proc/PID/stat``; 100 = one core), its
RSS is ``VmRSS`` at the end of the window; the driver's own CPU% is measured the same way,
and ``other_cpu_pct`` is what every other process kept busy meanwhile (``/proc/stat``, all
CPUs: a noisy neighbour shows there).

**Fan-out** (``watched``: issue "spectator streams never slow a game"). Table 0 is room X,
watched by the spectators of another process (:mod:`server.benchload.watchers`), and is not
measured; every other table (room Y ...) is. Table 0 writes each room it opens to
``room_file`` for them, and the warmup waits until they have all joined (``ready_file``).
X's own actions are counted (``watched_actions_per_s``) beside Y's.

The echo and idle drivers are in :mod:`server.benchload.baselines`.
"""

from __future__ import annotations

import gc
import random
import resource
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import trio
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.trio.client import ClientConnection, connect

from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from server.benchload.procs import (
    CLOCK_TICKS,
    CpuMeter,
    machine_busy_ticks,
    percentile,
    raise_nofile,
    read_text,
    rss_kb,
    write_atomically,
)
from server.gctune import GcMonitor

PROTOCOL_VERSION = 1
#: Seconds one request (Hello, CreateRoom, JoinRoom) may wait for its answer.
REQUEST_TIMEOUT = 15.0
#: Seconds a WebSocket opening handshake may take.
CONNECT_TIMEOUT = 15.0
#: Seconds a game may take to start once both players joined.
START_TIMEOUT = 30.0
#: A game that made no action for this long is abandoned (counted as ``stalled``).
STALL_SECONDS = 30.0
#: Pause before a table starts over after a failure.
RETRY_PAUSE = 0.5
#: Handshakes (and hellos) in flight at once.
OPENING = 32
#: Largest server frame accepted (a snapshot is a few KiB; a batch may hold several).
MAX_FRAME = 16 * 1024 * 1024


class RefusedError(Exception):
    """The server answered a request with an Error (counted by the reader)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


class BrokenTableError(Exception):
    """A table's connection closed, or its game stalled."""


def decode_frame(data: bytes, batched: bool) -> Sequence[mpb.ServerMessage]:
    """The server messages of one WebSocket frame: a ``ServerBatch``'s messages on a
    batched connection (``Welcome.batched``), else the frame's one ``ServerMessage``."""
    if batched:
        batch = mpb.ServerBatch()
        batch.ParseFromString(data)
        return batch.messages
    msg = mpb.ServerMessage()
    msg.ParseFromString(data)
    return (msg,)


def header_bytes(size: int) -> int:
    """The header of an unmasked (server to client) WebSocket frame of ``size`` bytes."""
    return 2 if size < 126 else 4 if size < 65536 else 10


def error_name(code: int) -> str:
    try:
        return mpb.ErrorCode.Name(code)
    except ValueError:
        return f"ERROR_CODE_{code}"


def client(url: str) -> connect:
    return connect(url, compression=None, max_size=MAX_FRAME, open_timeout=CONNECT_TIMEOUT,
                   proxy=None, ping_interval=None, user_agent_header=None)


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def freeze_setup() -> None:
    """Before the warmup: collect once, freeze what the driver holds then (its connections,
    tables, buffers) and turn the collector off until the window closes. A driver's
    collection holds up every act in flight, and its delay would be timed as the server's
    latency: one full collection of a driver took 41 ms at 2,000 connections, and that
    pause was a paced run's p99; frozen, collections still took up to 44 ms. (Not at the
    window's start: the acts the collection held up would burst into the window.) The
    window reports any collection in it (``driver_gc_ms``). Meanwhile the driver keeps the
    cyclic garbage it makes: its RSS grew ~55 KB/s closed loop at 10 rooms (2.3 MB in a
    40 s window)."""
    gc.collect()
    gc.freeze()
    gc.disable()


class Window:
    """The measuring window: server and driver CPU from its start to its end, what else
    kept the machine busy meanwhile (other processes: a noisy neighbour), and the driver's
    own garbage-collector pauses (every act in flight during one is timed that much late:
    the driver's latency, not the server's: see :func:`freeze_setup`)."""

    def __init__(self, server_pid: int) -> None:
        self.gc = GcMonitor()
        self.gc.start()
        self.server = CpuMeter(server_pid)
        self.cpu = _cpu_seconds()
        self.machine = machine_busy_ticks()
        self.wall = time.perf_counter()

    def close(self) -> dict[str, float]:
        wall = time.perf_counter() - self.wall
        server = self.server.percent()
        driver = round(100.0 * (_cpu_seconds() - self.cpu) / wall, 1)
        machine = 100.0 * (machine_busy_ticks() - self.machine) / CLOCK_TICKS / wall
        self.gc.stop()
        gc.enable()
        gcs = self.gc.generations
        return {"window_s": round(wall, 3), "server_cpu_pct": server,
                "server_rss_kb": rss_kb(self.server.pid), "driver_cpu_pct": driver,
                "other_cpu_pct": round(max(0.0, machine - server - driver), 1),
                "driver_gc_ms": round(1000 * sum(g.total_s for g in gcs), 2),
                "driver_gc_longest_ms": round(1000 * max(g.longest_s for g in gcs), 2)}


@dataclass
class GameConfig:
    """What :func:`drive_games` is told (JSON from the orchestrating process)."""

    url: str
    rooms: int
    seconds: float
    warmup: float
    server_pid: int
    pace: float = 0.0
    batch: bool = True
    seed: int = 1
    deck: str = ""
    setup_timeout: float = 60.0
    #: Table 0 is the watched room X (not measured): its room id is written to
    #: ``room_file`` for the spectators' process, and the warmup starts when that process
    #: has written ``ready_file`` (see :mod:`server.benchload.watchers`).
    watched: bool = False
    room_file: str = ""
    ready_file: str = ""
    #: Each room hosts a match of this many games at most (3 or 5; 1: a single game).
    #: Between games both players keep their decks (SubmitDeck keep); the room, its
    #: seats and its spectators stay for the whole match.
    best_of: int = 1
    #: Paced: each table answers the first H decisions of its first game at once, H drawn
    #: from 0..head_start, untimed, before the warmup (so the window samples games at
    #: every stage of their first head_start actions, not only their first few actions).
    head_start: int = 0


@dataclass
class Stats:
    """What the game driver counts (frames, bytes and actions only while measuring)."""

    measuring: bool = False
    actions: int = 0
    latencies: list[float] = field(default_factory=list)
    frames: int = 0
    messages: int = 0
    payload_bytes: int = 0
    wire_bytes: int = 0
    games_started: int = 0
    games_completed: int = 0
    acts_sent: int = 0
    connections: int = 0
    batched_connections: int = 0
    #: Error messages from the server, by code name (any phase).
    errors: Counter[str] = field(default_factory=Counter)
    #: The first error message of each code: what it said (its text, 200 characters).
    error_examples: dict[str, str] = field(default_factory=dict)
    #: Table failures by kind (any phase).
    failures: Counter[str] = field(default_factory=Counter)
    #: LeaveRoom answered NOT_READY: the room had closed by itself (not an error).
    leave_noops: int = 0
    #: Fan-out: the watched room's own actions.
    watched_actions: int = 0
    #: Fan-out: rooms room X's table opened, games it started and finished there (the
    #: whole run, as the spectators' joins are counted: they join once per room).
    watched_rooms: int = 0
    watched_games_started: int = 0
    watched_games: int = 0
    #: Paced: decisions answered at once in the tables' head starts (before the warmup).
    head_start_actions: int = 0

    def error(self, error: mpb.Error) -> None:
        """Count an error message from the server (and keep the first of its code)."""
        name = error_name(error.code)
        self.errors[name] += 1
        self.error_examples.setdefault(name, error.message[:200])


class Conn:
    """One bot connection: a reader task folds what the server pushes into the table."""

    def __init__(self, ws: ClientConnection, batched: bool, table: Table) -> None:
        self.ws = ws
        self.batched = batched
        self.table = table
        self.stats = table.driver.stats
        self.state_id = 0
        #: perf_counter() when the Act awaiting its Delta was sent (0.0: none), and the
        #: state it was sent at.
        self.act_at = 0.0
        self.act_state = 0
        self.closed = False
        self._rid = 1  # 1 was the Hello
        self._waiting = 0
        self._reply: mpb.ServerMessage | None = None
        self._answered = trio.Event()
        #: The latest LeaveRoom's request id (its refusal comes before any later answer).
        self._leave = 0
        #: The table's game this connection's latest snapshot was of: what it reads after
        #: counts for that game only. (Its reader may be behind the other connection's: a
        #: late delta ending the game before counted as the end of the next one, the table
        #: left that game as it began, and its players' actions were refused, "the room
        #: closed" and "join a room first".)
        self.game = -1

    async def send(self, msg: mpb.ClientMessage) -> None:
        await self.ws.send(msg.SerializeToString())

    async def request(self, msg: mpb.ClientMessage) -> mpb.ServerMessage:
        """Send a request and wait (bounded) for its answer; RefusedError on an Error."""
        self._rid += 1
        msg.request_id = self._waiting = self._rid
        self._reply = None
        self._answered = trio.Event()
        await self.send(msg)
        with trio.fail_after(REQUEST_TIMEOUT):
            await self._answered.wait()
        reply = self._reply
        self._waiting = 0
        if reply is None:
            raise BrokenTableError("connection closed")
        if reply.HasField("error"):
            raise RefusedError(error_name(reply.error.code))
        return reply

    async def leave(self) -> None:
        """LeaveRoom (no answer when accepted; NOT_READY if the room closed already)."""
        self._rid += 1
        self._leave = self._rid
        await self.send(mpb.ClientMessage(request_id=self._rid, leave_room=mpb.LeaveRoom()))

    async def read(self) -> None:
        """Process frames until the connection closes (then mark the table broken)."""
        try:
            await self._read()
        except ConnectionClosed:
            pass
        except Exception as exc:  # an undecodable frame: count it, drop the connection
            self.stats.failures[f"reader_{type(exc).__name__}"] += 1
            with trio.move_on_after(1):
                await self.ws.aclose()
        finally:
            self.closed = True
            self._answered.set()
            if self in self.table.conns:  # (not one the table dropped already)
                self.table.broken()

    async def _read(self) -> None:
        ws = self.ws
        stats = self.stats
        table = self.table
        batched = self.batched
        while True:
            data = await ws.recv(decode=False)
            now = time.perf_counter()
            msgs = decode_frame(data, batched)
            measured = stats.measuring and table.measured
            if measured:
                size = len(data)
                stats.frames += 1
                stats.messages += len(msgs)
                stats.payload_bytes += size
                stats.wire_bytes += size + header_bytes(size)
            decision: mpb.ServerMessage | None = None
            for msg in msgs:
                body = msg.WhichOneof("body")
                if body == "delta":
                    delta = msg.delta
                    sid = delta.state_id
                    self.state_id = sid
                    table.progress = now  # the game moved (a head start's untimed acts too)
                    if self.act_at and sid > self.act_state:
                        if measured:
                            stats.actions += 1
                            stats.latencies.append(now - self.act_at)
                        elif stats.measuring:
                            stats.watched_actions += 1
                        self.act_at = 0.0
                    if self.game == table.game:
                        for op in delta.ops:
                            if op.HasField("set_header") and op.set_header.HasField("result"):
                                table.over.set()
                elif body == "decision":
                    decision = msg
                elif body == "match_state":
                    table.match_phase(msg.match_state)
                elif body == "snapshot":
                    self.state_id = msg.snapshot.state_id
                    self.act_at = 0.0  # a new game (or view): no Act of the old one is timed
                    self.game = table.game
                    table.start()
                elif body == "error":
                    rid = msg.request_id
                    if self._leave and rid == self._leave and \
                            msg.error.code == mpb.ERROR_CODE_NOT_READY:
                        stats.leave_noops += 1
                    else:
                        stats.error(msg.error)
                        if rid == 0:
                            self.act_at = 0.0  # an Act (request id 0) was refused: untimed
                rid = msg.request_id
                if rid and rid == self._waiting:
                    self._reply = msg
                    self._answered.set()
            if decision is not None and self.game == table.game:
                await table.decided(self, decision.decision)


class Table:
    """Two connections playing one room after another."""

    def __init__(self, index: int, driver: GameDriver) -> None:
        self.index = index
        self.driver = driver
        cfg = driver.cfg
        self.rng = random.Random(cfg.seed * 1_000_003 + index)
        self.conns: list[Conn] = []
        self.game = 0
        self.started = trio.Event()
        self.over = trio.Event()
        #: Set when the room says the match is between games or over (best_of > 1).
        self.between = trio.Event()
        self.match_over = False
        self.progress = time.perf_counter()
        self.ever_started = False
        #: Counted in the figures (all tables but the watched room X of a fan-out run).
        self.measured = not (cfg.watched and index == 0)
        #: The room of the current game.
        self.room_id = ""
        #: Paced: decisions still to answer at once before pacing (GameConfig.head_start).
        self.head_left = self.rng.randint(0, cfg.head_start) if cfg.pace > 0 else 0
        self._decisions_in, self._decisions = trio.open_memory_channel[
            tuple[int, Conn, pb.Decision]](8)

    # ---- called by the readers
    def start(self) -> None:
        self.progress = time.perf_counter()
        self.started.set()
        if not self.ever_started:
            self.ever_started = True
            if not self.head_left:
                self.driver.table_started()

    def _head_done(self) -> None:
        """The head start is over (or the game ended before it was): this table is ready."""
        if self.head_left:
            self.head_left = 0
            self.driver.table_started()

    def broken(self) -> None:
        self.over.set()
        self.started.set()
        self.between.set()

    def match_phase(self, state: mpb.MatchState) -> None:
        if state.phase in (mpb.MATCH_PHASE_SIDEBOARDING, mpb.MATCH_PHASE_OVER):
            self.match_over = state.phase == mpb.MATCH_PHASE_OVER
            self.between.set()

    async def decided(self, conn: Conn, decision: pb.Decision) -> None:
        if not decision.options:
            self.driver.stats.failures["empty_decision"] += 1
            await conn.send(mpb.ClientMessage(concede=mpb.ConcedeGame()))
            return
        if self.driver.cfg.pace <= 0:
            await self.act(conn, decision)
            return
        if self.head_left:
            self.driver.stats.head_start_actions += 1
            if self.head_left == 1:
                self._head_done()
            else:
                self.head_left -= 1
            await self.act(conn, decision, timed=False)
            return
        try:
            self._decisions_in.send_nowait((self.game, conn, decision))
        except trio.WouldBlock:
            self.driver.stats.failures["decisions_queued"] += 1

    async def act(self, conn: Conn, decision: pb.Decision, *, timed: bool = True) -> None:
        index = self.rng.randrange(len(decision.options))
        if timed:
            conn.act_at = time.perf_counter()
            conn.act_state = decision.state_id
            if self.driver.stats.measuring and self.measured:
                self.driver.stats.acts_sent += 1
        await conn.send(mpb.ClientMessage(act=mpb.Act(
            prompt_id=decision.prompt_id, option_index=index,
            expected_state_id=decision.state_id)))

    # ---- the table's own tasks
    async def pacer(self) -> None:
        """Paced mode: answer each decision at this table's next slot."""
        period = 1.0 / self.driver.cfg.pace
        due = 0.0
        scheduled = 0  # the game the schedule is for
        async for game, conn, decision in self._decisions:
            if game != self.game or conn.closed:
                continue
            if scheduled != game:  # a new game: its first slot at a random phase
                scheduled = game
                due = trio.current_time() + self.rng.random() * period
            await trio.sleep_until(due)
            if game != self.game or conn.closed:
                continue
            try:
                await self.act(conn, decision)
            except ConnectionClosed:
                continue
            # The next slot. A table running late is never more than one slot behind:
            # it catches up by one quick action at most, never in a burst.
            due = max(due + period, trio.current_time())

    async def run(self) -> None:
        """Play games until cancelled; start over on new connections after a failure."""
        stats = self.driver.stats
        if self.driver.cfg.pace > 0:
            self.driver.nursery.start_soon(self.pacer)
        while True:
            try:
                if len(self.conns) < 2 or any(c.closed for c in self.conns):
                    await self._reconnect()
                await self._play()
                continue
            except RefusedError as exc:
                stats.failures[f"refused_{exc.code.removeprefix('ERROR_CODE_').lower()}"] += 1
            except trio.TooSlowError:
                stats.failures["timeout"] += 1
            except BrokenTableError as exc:
                stats.failures[str(exc)] += 1
            except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError):
                stats.failures["connection"] += 1
            await self._drop()
            await trio.sleep(RETRY_PAUSE)

    async def _drop(self) -> None:
        conns, self.conns = self.conns, []
        for conn in conns:
            conn.closed = True
            with trio.move_on_after(1):
                await conn.ws.aclose()

    async def _reconnect(self) -> None:
        await self._drop()
        for seat in range(2):  # one by one: a failure leaves the first in conns, to drop
            self.conns.append(await self.driver.open(self, seat))

    async def _play(self) -> None:
        stats = self.driver.stats
        a, b = self.conns
        self.game += 1
        self.started = trio.Event()
        self.over = trio.Event()
        best_of = self.driver.cfg.best_of
        created = await a.request(mpb.ClientMessage(create_room=mpb.CreateRoom(
            name=f"bench-{self.index}", seats=2, best_of=best_of if best_of > 1 else 0)))
        room_id = created.room_created.room.room_id
        self.room_id = room_id
        if not self.measured:
            stats.watched_rooms += 1
            if self.driver.cfg.room_file:  # room X: tell the watchers
                write_atomically(self.driver.cfg.room_file, room_id + "\n")
        deck = self.driver.cfg.deck
        for conn in (a, b):
            await conn.request(mpb.ClientMessage(join_room=mpb.JoinRoom(
                room_id=room_id, role=mpb.ROLE_PLAYER, deck=deck)))
        while True:  # each game of the room (of its match)
            await self._play_game()
            self._head_done()  # (a game shorter than the head start)
            if best_of <= 1:
                break
            with trio.fail_after(START_TIMEOUT):
                await self.between.wait()
            self._check()
            if self.match_over:
                break
            self.game += 1  # (a decision of the game that ended is stale now)
            self.started = trio.Event()
            self.over = trio.Event()
            for conn in (a, b):
                await conn.request(mpb.ClientMessage(submit_deck=mpb.SubmitDeck(keep=True)))
        for conn in (a, b):
            await conn.leave()

    async def _play_game(self) -> None:
        """Wait for the room's game to start and to end (its actions are the readers')."""
        stats = self.driver.stats
        with trio.fail_after(START_TIMEOUT):
            await self.started.wait()
        self._check()
        # What the room said between the games before this one (each player's readiness)
        # is stale now: the next "between" is this game's end.
        self.between = trio.Event()
        if stats.measuring and self.measured:
            stats.games_started += 1
        if not self.measured:
            stats.watched_games_started += 1
        while not self.over.is_set():
            with trio.move_on_after(STALL_SECONDS / 3):
                await self.over.wait()
            if not self.over.is_set() and \
                    time.perf_counter() - self.progress > STALL_SECONDS:
                raise BrokenTableError("stalled")
        self._check()
        if stats.measuring and self.measured:
            stats.games_completed += 1
        if not self.measured:
            stats.watched_games += 1

    def _check(self) -> None:
        if any(c.closed for c in self.conns):
            raise BrokenTableError("connection_closed")


class GameDriver:
    """The tables and what they share."""

    def __init__(self, cfg: GameConfig, nursery: trio.Nursery) -> None:
        self.cfg = cfg
        self.nursery = nursery
        self.stats = Stats()
        self.opening = trio.CapacityLimiter(OPENING)
        self.all_started = trio.Event()
        self._started = 0

    @property
    def started_tables(self) -> int:
        """Tables whose first game has started."""
        return self._started

    def table_started(self) -> None:
        self._started += 1
        if self._started >= self.cfg.rooms:
            self.all_started.set()

    async def open(self, table: Table, seat: int) -> Conn:
        """A new connection that said Hello (a new guest), its reader running."""
        stats = self.stats
        async with self.opening:
            ws = await client(self.cfg.url).connect(self.nursery)
            try:
                reply = await hello(ws, f"bench{table.index}-{seat}", self.cfg.batch)
            except BaseException:
                with trio.move_on_after(1) as scope:
                    scope.shield = True
                    await ws.aclose()
                raise
        if reply.HasField("error"):
            stats.error(reply.error)
            with trio.move_on_after(1):
                await ws.aclose()
            raise RefusedError(error_name(reply.error.code))
        welcome = reply.resumed.welcome if reply.HasField("resumed") else reply.welcome
        stats.connections += 1
        stats.batched_connections += int(welcome.batched)
        conn = Conn(ws, welcome.batched, table)
        self.nursery.start_soon(conn.read)
        return conn


async def hello(ws: ClientConnection, name: str, batched: bool) -> mpb.ServerMessage:
    """Say Hello as a new guest and return the answer (a Welcome, or an Error)."""
    hello = mpb.Hello(protocol_version=PROTOCOL_VERSION, display_name=name, batched=batched)
    await ws.send(mpb.ClientMessage(request_id=1, hello=hello).SerializeToString())
    with trio.fail_after(REQUEST_TIMEOUT):
        return mpb.ServerMessage.FromString(await ws.recv(decode=False))


def latency_figures(latencies: list[float], prefix: str = "") -> dict[str, float | None]:
    """p50, p99 and p99.9 in ms (None without samples)."""
    s = sorted(latencies)
    if not s:
        return {f"{prefix}{q}_ms": None for q in ("p50", "p99", "p999")}
    return {f"{prefix}p50_ms": round(1000 * percentile(s, 0.50), 3),
            f"{prefix}p99_ms": round(1000 * percentile(s, 0.99), 3),
            f"{prefix}p999_ms": round(1000 * percentile(s, 0.999), 3)}


async def drive_games(cfg: GameConfig) -> dict[str, object]:
    """Run the game load and return its figures (see the module docstring)."""
    raise_nofile()
    t0 = time.perf_counter()
    async with trio.open_nursery() as nursery:
        driver = GameDriver(cfg, nursery)
        stats = driver.stats
        tables = [Table(i, driver) for i in range(cfg.rooms)]
        for table in tables:
            nursery.start_soon(table.run)
        with trio.move_on_after(cfg.setup_timeout):
            await driver.all_started.wait()
            while cfg.ready_file:  # until the spectators have all joined room X
                if read_text(cfg.ready_file):
                    break
                await trio.sleep(0.02)
        setup = time.perf_counter() - t0
        seated = driver.started_tables
        freeze_setup()
        await trio.sleep(cfg.warmup)
        window = Window(cfg.server_pid)
        stats.measuring = True
        await trio.sleep(cfg.seconds)
        stats.measuring = False
        figures = window.close()
        now = time.perf_counter()
        # Acts still waiting for their delta (not in the latencies: an overloaded server
        # shows here).
        waiting = [now - c.act_at for t in tables if t.measured
                   for c in t.conns if c.act_at and not c.closed]
        nursery.cancel_scope.cancel()
    secs = figures["window_s"]
    n = stats.actions

    def per_action(total: float, digits: int = 1) -> float | None:
        return round(total / n, digits) if n else None

    result: dict[str, object] = {
        "batched": stats.connections > 0 and stats.batched_connections == stats.connections,
        "actions": stats.actions,
        "acts_sent": stats.acts_sent,
        "acts_unanswered_at_end": len(waiting),
        "oldest_unanswered_ms": round(1000 * max(waiting, default=0.0), 1),
        "actions_per_s": round(stats.actions / secs, 1),
        **latency_figures(stats.latencies),
        "server_cpu_pct": figures["server_cpu_pct"],
        "server_rss_kb": figures["server_rss_kb"],
        "driver_cpu_pct": figures["driver_cpu_pct"],
        "other_cpu_pct": figures["other_cpu_pct"],
        "driver_gc_ms": figures["driver_gc_ms"],
        "driver_gc_longest_ms": figures["driver_gc_longest_ms"],
        "bytes_per_action": per_action(stats.payload_bytes),
        "wire_bytes_per_action": per_action(stats.wire_bytes),
        "messages_per_action": per_action(stats.messages, 3),
        "frames_per_action": per_action(stats.frames, 3),
        "frames_per_s": round(stats.frames / secs, 1),
        "mean_frame_bytes": round(stats.payload_bytes / max(stats.frames, 1), 1),
        "games_started": stats.games_started,
        "games_completed": stats.games_completed,
        "errors": dict(stats.errors),
        "error_examples": stats.error_examples,
        "failures": dict(stats.failures),
        "leave_noops": stats.leave_noops,
        "connections": stats.connections,
        "rooms_seated": seated,
        "setup_s": round(setup, 2),
        "window_s": secs,
    }
    if cfg.head_start:
        result["head_start_actions"] = stats.head_start_actions
    if cfg.watched:
        result["watched_actions_per_s"] = round(stats.watched_actions / secs, 1)
        result["watched_rooms"] = stats.watched_rooms
        result["watched_games_started"] = stats.watched_games_started
        result["watched_games"] = stats.watched_games
    return result
