"""Crash and restart harness: the real server as a subprocess, bot games over loopback
WebSockets, and the server killed (SIGKILL) or stopped (SIGTERM) at random moments.

What it does (:func:`run_restart_harness`):

1. Starts ``python -m server.cli serve`` on a free loopback port with a fresh data directory
   and waits for its "manawire listening on" line.
2. Sets up ``games`` rooms at once (2 players; every third game 3 players; games 0, 3, ... a
   spectator too) with SDK clients, and plays them with random bots.
3. Meanwhile, ``kills`` times, while a game is going on: waits a random delay (seeded) after
   the server came up, signals it (SIGKILL, or SIGTERM), waits for the process to end, checks
   the store and starts the server again on the same port and data directory. The clients
   resume by themselves. A pace gate keeps the games from outrunning the kills (between two
   restarts a game takes at most its quota of actions, spread over the mean delay), and while
   kills remain, the last game going on is followed by a new one, so every kill lands
   mid-game. A raw WebSocket session watches each stop's close code (1012 for SIGTERM).
4. When every game is over for all of its clients (or a client gave up), closes the clients,
   stops the server with SIGTERM and checks every game against its final stored log
   (:func:`check_game`).

"Zero acknowledged actions lost" is checked this way: every Snapshot and Delta a client
*accepted* (applied to its mirror with a matching view hash) is a state ``(state_id,
view_hash)`` of its view class. The final stored record is replayed by the server's own code
(:func:`server.rooms.recovery.recover`, with a history long enough to keep every delta), which
gives each view class's whole sequence of states. Every state a client accepted must be in that
sequence with the same hash, in order, ending at the final state; its final mirror must equal
``encode_view(project(game, viewer))`` of the replayed game. A state the client accepted that the
final log does not produce would be an acknowledged action lost (or changed) by a crash.

Run a long version with ``python -m tests.e2e.restart_harness --kills 300 --games 6``: it prints
one JSON line of figures (:class:`Report`) and exits 1 unless every check passed
(``--replace-failed`` keeps a long run's load when a client has to give up on a game).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from functools import partial
from itertools import pairwise
from pathlib import Path
from typing import IO

import trio
from websockets.exceptions import ConnectionClosed
from websockets.trio.client import connect as ws_connect

from client_sdk import Client, Mirror
from client_sdk.client import RECONNECT_FOR, ConnectionLostError
from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from server.cards import demo_deck_names
from server.rooms.recovery import recover
from server.rooms.room import Room, RoomConfig
from server.store import GameRecord, Store
from server.view import SPECTATOR, project
from server.view.encode import encode_view

REPO = Path(__file__).resolve().parents[2]
CLOSE_SERVICE_RESTART = 1012
_LISTENING = re.compile(rb"manawire listening on [^\n]*\n")
_RESTORED = re.compile(rb"(\d+) games? restored")
_PORT = re.compile(rb"ws://127\.0\.0\.1:(\d+)")
#: Rough actions of a random-bot game by players (``manawire sim``: about 1400 for 2, 3500 for
#: 3); only used to size the pace gate's quota.
_EXPECTED_ACTIONS_PER_SEAT2 = 350
#: Each game is paced to last about 1 / _SPREAD times the kill schedule.
_SPREAD = 0.8


class ServerStartError(Exception):
    """The server process did not come up."""


class ServerProcess:
    """``python -m server.cli serve`` on 127.0.0.1:``port``, started again and again on the
    same port and data directory. Its stderr (the log) goes to ``data_dir/server.log``."""

    def __init__(self, data_dir: Path, port: int | None = None,
                 args: Sequence[str] = ()) -> None:
        self.data_dir = data_dir
        #: 0 until the first start, which lets the system pick (``--port 0``): a port
        #: that was free a moment ago may be another process's by the time it binds.
        self.port = port or 0
        self.args = tuple(args)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.log_path = data_dir / "server.log"
        self._log: IO[bytes] | None = self.log_path.open("ab")
        self.proc: trio.Process | None = None
        #: Unfinished games each start said it restored (-1: it didn't say); each stop's
        #: signal and exit code.
        self.restored: list[int] = []
        self.stops: list[tuple[str, int]] = []
        #: Stops where the process did not exit by itself in time (and was killed).
        self.forced = 0

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def store_path(self) -> Path:
        return self.data_dir / "manawire.sqlite3"

    async def start(self, within: float = 60.0) -> None:
        """Start the server and return once it listens (:class:`ServerStartError` if it
        exits first; TooSlowError after ``within`` seconds)."""
        assert self.proc is None and self._log is not None
        cmd = [sys.executable, "-m", "server.cli", "serve", "--host", "127.0.0.1",
               "--port", str(self.port), "--data-dir", str(self.data_dir), *self.args]
        proc = await trio.lowlevel.open_process(cmd, stdout=subprocess.PIPE,
                                                stderr=self._log, cwd=REPO)
        self.proc = proc
        assert proc.stdout is not None
        seen = b""
        with trio.fail_after(within):
            while (found := _LISTENING.search(seen)) is None:
                chunk = await proc.stdout.receive_some(4096)
                if not chunk:
                    code = await proc.wait()
                    await proc.stdout.aclose()
                    self.proc = None
                    raise ServerStartError(f"server exited with {code} before listening: "
                                           f"{seen!r}; log tail: {self.log_tail()}")
                seen += chunk
        if not self.port:  # (the next starts take the same port: the clients come back)
            bound = _PORT.search(found.group(0))
            if bound is None:
                raise ServerStartError(f"no ws://127.0.0.1:PORT in {found.group(0)!r}")
            self.port = int(bound.group(1))
        restored = _RESTORED.search(found.group(0))
        self.restored.append(int(restored.group(1)) if restored else -1)

    async def stop(self, sig: signal.Signals, grace: float = 30.0) -> int:
        """Send ``sig`` and wait for the process to end (killed if it takes longer than
        ``grace`` seconds, counted in :attr:`forced`). Returns its exit code."""
        proc = self.proc
        assert proc is not None
        proc.send_signal(sig)
        code: int | None = None
        with trio.move_on_after(grace):
            code = await proc.wait()
        if code is None:
            self.forced += 1
            proc.kill()
            code = await proc.wait()
        if proc.stdout is not None:
            await proc.stdout.aclose()
        self.proc = None
        self.stops.append((sig.name, code))
        return code

    async def aclose(self) -> None:
        """Kill the process if it still runs (never leaves one behind), close the log."""
        with trio.CancelScope(shield=True):
            proc = self.proc
            if proc is not None:
                if proc.returncode is None:
                    proc.kill()
                await proc.wait()
                if proc.stdout is not None:
                    await proc.stdout.aclose()
                self.proc = None
        if self._log is not None:
            self._log.close()
            self._log = None

    def log_tail(self, lines: int = 20) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])


# ---- clients that record what they accepted
class RecordingMirror(Mirror):
    """A mirror that keeps every state it accepted: ``(state_id, view_hash)`` of each snapshot
    and delta that applied with a matching hash, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.accepted: list[tuple[int, bytes]] = []

    def load_snapshot(self, snapshot: pb.Snapshot) -> None:
        super().load_snapshot(snapshot)
        self.accepted.append((snapshot.state_id, bytes(snapshot.view_hash)))

    def apply_delta(self, delta: pb.Delta) -> None:
        super().apply_delta(delta)
        self.accepted.append((delta.state_id, bytes(delta.view_hash)))


class StrandedError(Exception):
    """A resume succeeded but gave this client no place (``Resumed`` without ``joined``)
    although it was in a room whose result it had not seen."""


class HarnessClient(Client):
    """The SDK client, recording accepted states, the close code of every drop it noticed,
    and refusing to go on silently after a resume that lost its room."""

    def __init__(self, url: str, name: str, nursery: trio.Nursery, *,
                 reconnect: bool = True, token: str = "", batched: bool = True,
                 reconnect_for: float = RECONNECT_FOR) -> None:
        super().__init__(url, name, nursery, reconnect=reconnect, token=token,
                         batched=batched, reconnect_for=reconnect_for)
        self.recorder = RecordingMirror()
        self.mirror = self.recorder
        self.close_codes: list[int | None] = []

    def _resumable(self, exc: ConnectionClosed) -> bool:
        self.close_codes.append(exc.rcvd.code if exc.rcvd is not None else None)
        return super()._resumable(exc)

    async def _resume(self) -> None:
        room = self.room_id
        await super()._resume()  # (a Resumed without joined leaves room_id None)
        if room is not None and self.room_id is None and not self.mirror.game_over:
            raise StrandedError(f"resumed into no room (room {room}, mirror at state "
                                f"{self.mirror.state_id}, game not over for this client)")


async def connect_client(stack: AsyncExitStack, url: str, name: str) -> HarnessClient:
    """A connected :class:`HarnessClient`, closed when ``stack`` closes."""
    client = await stack.enter_async_context(HarnessClient.connect(url, name))
    assert isinstance(client, HarnessClient)
    return client


# ---- games
@dataclass(eq=False)
class GameRun:
    """One game the harness plays: its room, clients and progress."""

    index: int
    seats: int
    spectator: bool
    decks: tuple[str, ...]
    #: Actions this game may take per server up-period (the pace gate), counted from the
    #: up-period it was set up in.
    quota: int
    first_cycle: int = 0
    room_id: str = ""
    players: list[HarnessClient] = field(default_factory=list)
    watcher: HarnessClient | None = None
    #: Acts the bots sent (some may be lost in a crash before the server logged them).
    acts: int = 0
    setup_attempts: int = 0
    failures: list[str] = field(default_factory=list)
    #: The kind of each client failure (``resume_refused``, ``stranded``, exception name).
    kinds: list[str] = field(default_factory=list)

    def viewers(self) -> list[tuple[int, HarnessClient]]:
        out = list(enumerate(self.players))
        if self.watcher is not None:
            out.append((SPECTATOR, self.watcher))
        return out


class Pace:
    """Keeps the games from outrunning the kill schedule: in each server up-period a game
    may take at most its quota of actions, at most ``quota / mean_live`` per second."""

    def __init__(self, mean_live: float) -> None:
        self.mean_live = mean_live
        self.cycles = 0  # up-periods that ended
        self.up_since: float | None = None
        self.released = False
        self._changed = trio.Event()

    def _notify(self) -> None:
        self._changed.set()
        self._changed = trio.Event()

    def up(self) -> None:
        self.up_since = trio.current_time()
        self._notify()

    def down(self) -> None:
        if self.up_since is not None:
            self.cycles += 1
            self.up_since = None
            self._notify()

    def release(self) -> None:
        """No more kills: no more pacing."""
        self.released = True
        self._notify()

    async def wait(self, done: int, quota: int, since: int) -> None:
        """Until a game set up in up-period ``since`` that has taken ``done`` actions may
        take one more."""
        while not self.released:
            need = done + 1 - quota * (self.cycles - since)
            if need <= 0:
                return
            changed = self._changed
            if need <= quota and self.up_since is not None:
                ready = self.up_since + need * self.mean_live / quota
                if trio.current_time() >= ready:
                    return
                with trio.move_on_at(ready):
                    await changed.wait()
            else:
                await changed.wait()


def failure_kind(exc: Exception) -> str:
    """A short name for why a client gave up."""
    if isinstance(exc, ConnectionLostError) and "resume refused" in str(exc):
        return "resume_refused"
    if isinstance(exc, StrandedError):
        return "stranded"
    return type(exc).__name__


async def _play(run: GameRun, client: HarnessClient, rng: random.Random, pace: Pace) -> None:
    """A random bot (as client_sdk.bots.RandomBot), paced by ``pace``."""
    while not client.mirror.game_over:
        if client.my_decision is None:
            await client.next_message()
            continue
        await pace.wait(run.acts, run.quota, run.first_cycle)
        decision = client.my_decision
        if decision is None:
            continue
        await client.act(rng.randrange(len(decision.options)))
        run.acts += 1


async def _watch(client: HarnessClient) -> None:
    while not client.mirror.game_over:
        await client.next_message()


async def _run_game(run: GameRun, pace: Pace, rng: random.Random) -> None:
    """Play one set-up game to its end; a client that fails ends the game (recorded)."""
    async with trio.open_nursery() as nursery:

        async def guard(client: HarnessClient, body: Callable[[], Awaitable[None]]) -> None:
            try:
                await body()
            except Exception as exc:
                run.failures.append(f"game {run.index} {client.name}: {exc!r}")
                run.kinds.append(failure_kind(exc))
                nursery.cancel_scope.cancel()

        for client in run.players:
            nursery.start_soon(guard, client, partial(
                _play, run, client, random.Random(rng.getrandbits(64)), pace))
        if run.watcher is not None:
            nursery.start_soon(guard, run.watcher, partial(_watch, run.watcher))


async def _setup(stack: AsyncExitStack, url: str, run: GameRun) -> None:
    host = await connect_client(stack, url, f"g{run.index}-p0")
    room = await host.create_room(f"restart-{run.index}", seats=run.seats)
    run.room_id = room.room_id
    if run.spectator:
        run.watcher = await connect_client(stack, url, f"g{run.index}-spec")
        joined = await run.watcher.join(room.room_id, spectator=True)
        assert joined.seat == SPECTATOR
    for seat in range(run.seats):
        client = host if seat == 0 else await connect_client(stack, url,
                                                              f"g{run.index}-p{seat}")
        joined = await client.join(room.room_id, deck=run.decks[seat])
        assert joined.seat == seat, (joined, seat)
        run.players.append(client)


#: Attempts to set a game up (a kill during the setup of a replacement game spoils it), and
#: the seconds one attempt may take.
SETUP_ATTEMPTS = 20
SETUP_SECONDS = 20.0


async def _game(url: str, run: GameRun, pace: Pace, rng: random.Random,
                ready: Callable[[], None]) -> None:
    """Set ``run`` up with fresh clients (again, if a kill spoiled it) and play it; its
    clients are closed when it ends."""
    last: BaseException | None = None
    for attempt in range(1, SETUP_ATTEMPTS + 1):
        run.setup_attempts = attempt
        # The setup's deadline, lifted once it is done (a scope around the clients: their
        # nurseries nest inside it). A lobby request whose reply a kill lost can wait forever:
        # the SDK resumes inside next_message and nothing comes for a session in no room.
        with trio.CancelScope(deadline=trio.current_time() + SETUP_SECONDS) as scope:
            async with AsyncExitStack() as stack:
                try:
                    await _setup(stack, url, run)
                except Exception as exc:  # (any: a kill may interrupt any step of it)
                    last = exc
                else:
                    scope.deadline = math.inf
                    run.first_cycle = pace.cycles
                    ready()
                    await _run_game(run, pace, rng)
                    return
        if scope.cancelled_caught:
            last = TimeoutError(f"setup took over {SETUP_SECONDS} s")
        run.room_id, run.watcher = "", None
        run.players.clear()
        await trio.sleep(0.1 * attempt)
    run.failures.append(f"game {run.index}: setup failed {SETUP_ATTEMPTS} times: {last!r}")
    run.kinds.append("setup")


# ---- the disruptor
@dataclass
class _Observed:
    code: int | None = None


async def _observe(url: str, seen: _Observed,
                   task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
    """A raw WebSocket session (Hello, then only listening): the close code it gets."""
    async with ws_connect(url, compression=None) as ws:
        await ws.send(mpb.ClientMessage(request_id=1, hello=mpb.Hello(
            protocol_version=1, display_name="observer")).SerializeToString())
        await ws.recv()
        task_status.started()
        try:
            while True:
                await ws.recv()
        except ConnectionClosed as exc:
            seen.code = exc.rcvd.code if exc.rcvd is not None else None


class _Harness:
    """The shared state of one run: the server, the pace, every game played."""

    def __init__(self, server: ServerProcess, *, kills: int, sig: signal.Signals,
                 delays: tuple[float, float], replace: bool, rng: random.Random) -> None:
        self.server = server
        self.kills = kills
        self.sig = sig
        self.delays = delays
        self.replace = replace
        self.pace = Pace((delays[0] + delays[1]) / 2)
        self.rng = rng
        self.kill_rng = random.Random(rng.getrandbits(64))  # delays apart from the games
        self.names = demo_deck_names()
        self.runs: list[GameRun] = []
        self.live = 0  # game slots still playing
        self.killing = True
        self.kills_done = 0
        self.observed: list[int | None] = []
        self.kill_phase_end = 0.0
        #: Unfinished games in the store after each stop (each restart must restore them);
        #: each stored log's length at the last stop, and every time one got shorter.
        self.unfinished: list[int] = []
        self.log_lengths: dict[str, int] = {}
        self.log_shrinks: list[str] = []

    def new_run(self) -> GameRun:
        """Game i: 3 players if i % 3 == 2, else 2 (and a spectator if i % 3 == 0)."""
        index = len(self.runs)
        seats = 3 if index % 3 == 2 else 2
        expected = _EXPECTED_ACTIONS_PER_SEAT2 * seats * seats
        quota = max(3, math.ceil(expected * _SPREAD / max(1, self.kills)))
        run = GameRun(index, seats, index % 3 == 0,
                      tuple(self.rng.choice(self.names) for _ in range(seats)), quota)
        self.runs.append(run)
        return run

    async def slot(self, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED
                   ) -> None:
        """One game after another while kills go on: a new one if this was the last game
        going on (so every kill lands mid-game) or, with ``replace``, if a client gave up on
        it. Reports started once its first game is set up."""
        self.live += 1
        started = False

        def ready() -> None:
            nonlocal started
            if not started:
                started = True
                task_status.started()

        try:
            while True:
                run = self.new_run()
                await _game(self.server.url, run, self.pace,
                            random.Random(self.rng.getrandbits(64)), ready)
                again = self.live == 1 or (bool(run.failures) and self.replace)
                if not (self.killing and again):
                    break
        finally:
            self.live -= 1

    async def disrupt(self) -> None:
        """Signal the server ``kills`` times at random moments while games go on,
        restarting it each time."""
        server, pace = self.server, self.pace
        try:
            while self.kills_done < self.kills and self.live:
                seen = _Observed()
                with trio.fail_after(self.delays[1] + 60):
                    async with trio.open_nursery() as nursery:
                        await nursery.start(_observe, server.url, seen)
                        await trio.sleep(self.kill_rng.uniform(*self.delays))
                        if not self.live:
                            nursery.cancel_scope.cancel()
                            return
                        pace.down()
                        await server.stop(self.sig)
                        self.kills_done += 1
                        # (the nursery ends once the observer has seen its connection end)
                self.observed.append(seen.code)
                self._inspect_store()
                await server.start()
                pace.up()
        finally:
            self.killing = False
            self.kill_phase_end = trio.current_time()
            pace.release()

    def _inspect_store(self) -> None:
        """With the server down: how many games a restart must restore, and whether any
        game's stored log got shorter (a committed action lost)."""
        store = Store(self.server.store_path)
        try:
            # The server also restores games finished within its linger time.
            records = store.unfinished_games(finished_within=RoomConfig().linger_seconds)
        finally:
            store.close()
        self.unfinished.append(len(records))
        for record in records:
            before = self.log_lengths.get(record.room_id, 0)
            if len(record.actions) < before:
                self.log_shrinks.append(f"game {record.room_id}: stored log went from "
                                        f"{before} to {len(record.actions)} actions")
            self.log_lengths[record.room_id] = len(record.actions)


# ---- checking against the final stored log
@dataclass
class GameCheck:
    """What :func:`check_game` found for one game."""

    actions: int
    completed: bool
    lost: int
    mismatched: int
    problems: list[str]


def server_states(record: GameRecord) -> tuple[Room, dict[int, dict[int, bytes]]]:
    """Replay ``record`` with the server's own recovery (every delta kept): the room, and
    each view class's states ``state_id -> view_hash`` from its first snapshot on."""
    config = RoomConfig(history=len(record.actions) + 1)
    final = recover(record, 0.0, config)
    start = recover(dataclasses.replace(record, actions=[], clocks=None), 0.0, config)
    states: dict[int, dict[int, bytes]] = {}
    for viewer, cls in final.classes.items():
        first = mpb.ServerMessage.FromString(
            start.classes[viewer].stream.snapshot(record.room_id)).snapshot
        seq = {first.state_id: bytes(first.view_hash)}
        for _prev, _state, data in cls.history:
            delta = mpb.ServerMessage.FromString(data).delta
            seq[delta.state_id] = bytes(delta.view_hash)
        assert len(seq) == cls.stream.state_id, "the replay kept every delta"
        states[viewer] = seq
    return final, states


def check_game(record: GameRecord, run: GameRun) -> GameCheck:
    """Every client's accepted states against the replay of the final stored log; for a game
    no client gave up on, also that each client reached the result and its final mirror
    equals the server's projection for its viewer."""
    room, states = server_states(record)
    game = room.game
    assert game is not None
    failed = bool(run.failures)
    problems: list[str] = []
    if record.aborted:
        problems.append(f"game {run.index} aborted: {record.aborted[:300]}")
    if game.result is None or record.result is None:
        if not failed:
            problems.append(f"game {run.index}: no result in the stored log")
    elif list(game.result.winners) != record.result.get("winners"):
        problems.append(f"game {run.index}: replayed winners {game.result.winners} != stored "
                        f"{record.result}")
    lost = mismatched = 0
    completed = not problems and not failed
    for viewer, client in run.viewers():
        seq = states[viewer]
        last = max(seq)
        accepted = client.recorder.accepted
        bad = [(s, h.hex()[:12]) for s, h in accepted if seq.get(s) != h]
        lost += len(bad)
        if bad:
            problems.append(f"game {run.index} {client.name}: accepted {len(bad)} states the "
                            f"final log does not produce: {bad[:3]} (log ends at {last})")
        if any(b[0] < a[0] for a, b in pairwise(accepted)):
            problems.append(f"game {run.index} {client.name}: accepted states out of order")
        if failed:
            continue
        if not (accepted and accepted[-1] == (last, seq[last]) and client.mirror.game_over):
            completed = False
            problems.append(f"game {run.index} {client.name}: ended at state "
                            f"{client.mirror.state_id} of {last}, result seen: "
                            f"{client.mirror.game_over}")
        if client.mirror.view() != encode_view(project(game, viewer)):
            mismatched += 1
            problems.append(f"game {run.index} {client.name}: mirror != projection")
    return GameCheck(len(record.actions), completed, lost, mismatched, problems)


# ---- the whole run
@dataclass
class Report:
    """The figures of one harness run."""

    #: Kill points: times the server was signalled while a game was going on.
    kills: int = 0
    signal: str = "SIGKILL"
    #: Games played (set up); games every client saw the result of, consistent with the log.
    games: int = 0
    completed: int = 0
    #: Games a client gave up on, and why (``resume_refused``, ``stranded``, ...).
    failed_games: int = 0
    failure_kinds: dict[str, int] = field(default_factory=dict)
    #: Actions in the final stored logs; acts the bots sent.
    actions: int = 0
    acts_sent: int = 0
    clients: int = 0
    resumes: int = 0
    missed_deltas_resent: int = 0
    snapshot_resumes: int = 0
    resyncs: int = 0
    #: Accepted states the final log doesn't produce; clients whose mirror != projection.
    lost_actions: int = 0
    mismatched_views: int = 0
    #: Error messages the server pushed to clients (request id 0).
    server_errors: int = 0
    #: Clients that saw close code 1012 at least once; the observer's close code per stop.
    clients_saw_1012: int = 0
    observer_close_codes: list[int | None] = field(default_factory=list)
    #: Every client's noticed drops, by client: the close code each carried (None: no close
    #: frame received), and the client's resumes -- to tell, when a client saw no 1012,
    #: whether it noticed no drop at all or a drop without the close frame.
    client_drops: dict[str, tuple[list[int | None], int]] = field(default_factory=dict)
    #: Unfinished games each server start restored; restarts that restored a number other
    #: than the unfinished games in the store; exit code of every stop.
    restored: list[int] = field(default_factory=list)
    restore_mismatches: int = 0
    exit_codes: list[tuple[str, int]] = field(default_factory=list)
    forced_stops: int = 0
    #: Stored unfinished games that belong to no game played (a spoiled setup's).
    orphan_games: int = 0
    timed_out: bool = False
    #: Seconds from the first game set up to the last kill; the whole run.
    kill_phase_seconds: float = 0.0
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return (self.completed == self.games > 0 and self.lost_actions == 0
                and self.mismatched_views == 0 and self.resyncs == 0 and not self.timed_out
                and self.forced_stops == 0 and self.restore_mismatches == 0
                and not self.failures)

    def to_json(self) -> str:
        """One JSON line (the lists summarized)."""
        data = dataclasses.asdict(self)
        data["seconds"] = round(self.seconds, 1)
        data["kill_phase_seconds"] = round(self.kill_phase_seconds, 1)
        data["restored"] = {"starts": len(self.restored), "max": max(self.restored, default=0)}
        data["exit_codes"] = dict(Counter(f"{s}:{c}" for s, c in self.exit_codes))
        data["observer_close_codes"] = dict(Counter(str(c) for c in self.observer_close_codes))
        data["failures"] = self.failures[:8]
        data["ok"] = self.ok
        return json.dumps(data)


async def run_restart_harness(data_dir: Path, *, kills: int = 20, games: int = 4,
                              seed: int = 1, delays: tuple[float, float] = (0.05, 1.5),
                              sig: signal.Signals = signal.SIGKILL, replace: bool = False,
                              history: int | None = None,
                              play_seconds: float | None = None) -> Report:
    """Play ``games`` bot games at once against a server subprocess signalled ``kills``
    times at random moments (``delays`` seconds after it came up; seeded by ``seed``),
    restarting it each time, then check every game against its final stored log.

    ``replace``: a game a client gave up on is replaced by a new one while kills go on (so a
    long run keeps its load). ``history``: the server's ``--history`` (deltas each view class
    keeps for resuming clients; a client that missed more resumes with a snapshot).
    ``play_seconds`` bounds the setup and play (default: generous for the schedule); a
    timeout is reported, not raised."""
    began = time.perf_counter()
    rng = random.Random(seed)
    report = Report(signal=sig.name)
    if play_seconds is None:
        play_seconds = 120.0 + kills * (delays[1] + 4.0) + games * 20.0
    server = ServerProcess(data_dir, args=("--history", str(history)) if history else ())
    harness = _Harness(server, kills=kills, sig=sig, delays=delays, replace=replace, rng=rng)
    try:
        await server.start()
        harness.pace.up()
        kills_from = trio.current_time()
        with trio.move_on_after(play_seconds) as play:
            async with trio.open_nursery() as nursery:
                for _ in range(games):
                    await nursery.start(harness.slot)
                kills_from = trio.current_time()
                nursery.start_soon(harness.disrupt)
        report.kill_phase_seconds = max(0.0, harness.kill_phase_end - kills_from)
        report.timed_out = play.cancelled_caught
        if report.timed_out:
            report.failures.append(f"timed out after {play_seconds:.0f} s")
        if server.proc is not None:
            await server.stop(signal.SIGTERM)
    finally:
        await server.aclose()
    report.kills = harness.kills_done
    report.observer_close_codes = harness.observed
    report.restored = server.restored
    report.restore_mismatches = sum(
        1 for want, got in zip(harness.unfinished, server.restored[1:], strict=False)
        if got >= 0 and want != got)
    report.exit_codes = server.stops
    report.forced_stops = server.forced
    report.failures.extend(harness.log_shrinks)
    _tally(report, harness.runs, server.store_path)
    report.seconds = time.perf_counter() - began
    return report


def _tally(report: Report, runs: list[GameRun], store_path: Path) -> None:
    kinds: Counter[str] = Counter()
    store = Store(store_path)
    try:
        for run in runs:
            report.failures.extend(run.failures)
            kinds.update(run.kinds)
            report.acts_sent += run.acts
            if not run.room_id:
                continue
            report.games += 1
            report.failed_games += bool(run.failures)
            for _viewer, client in run.viewers():
                report.clients += 1
                report.resumes += client.resumes
                report.missed_deltas_resent += client.missed_deltas
                report.snapshot_resumes += client.resume_snapshots
                report.resyncs += client.resyncs
                report.server_errors += len(client.errors)
                report.clients_saw_1012 += CLOSE_SERVICE_RESTART in client.close_codes
                report.client_drops[f"game {run.index} {client.name}"] = (
                    list(client.close_codes), client.resumes)
                report.failures.extend(
                    f"game {run.index} {client.name}: server error {e.message}"
                    for e in client.errors)
            check = check_game(store.load_game(run.room_id), run)
            report.actions += check.actions
            report.completed += check.completed
            report.lost_actions += check.lost
            report.mismatched_views += check.mismatched
            report.failures.extend(check.problems)
        played = {run.room_id for run in runs}
        report.orphan_games = sum(1 for r in store.unfinished_games()
                                  if r.room_id not in played)
    finally:
        store.close()
    report.failure_kinds = dict(kinds)


def main(argv: list[str] | None = None) -> int:
    """``python -m tests.e2e.restart_harness``: one long run, one JSON line of figures."""
    parser = argparse.ArgumentParser(prog="python -m tests.e2e.restart_harness",
                                     description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument("--kills", type=int, default=20, help="kill points (default 20)")
    parser.add_argument("--games", type=int, default=4, help="games at once (default 4)")
    parser.add_argument("--seed", type=int, default=1, help="seed of delays and bots")
    parser.add_argument("--min-delay", type=float, default=0.05,
                        help="shortest time the server runs before a kill (default 0.05 s)")
    parser.add_argument("--max-delay", type=float, default=1.5,
                        help="longest time the server runs before a kill (default 1.5 s)")
    parser.add_argument("--signal", choices=["kill", "term"], default="kill",
                        help="SIGKILL (default) or SIGTERM")
    parser.add_argument("--history", type=int, default=None,
                        help="the server's --history (default: the server's default)")
    parser.add_argument("--replace-failed", action="store_true",
                        help="replace a game a client gave up on while kills go on")
    parser.add_argument("--timeout", type=float, default=None,
                        help="seconds allowed for setup and play (default: from the schedule)")
    parser.add_argument("--data-dir", type=Path, default=None,
                        help="keep the store and server log here (default: a temporary dir)")
    args = parser.parse_args(argv)
    if args.kills < 0 or args.games < 1 or not 0 < args.min_delay <= args.max_delay:
        parser.error("need --kills >= 0, --games >= 1 and 0 < --min-delay <= --max-delay")
    sig = signal.SIGKILL if args.signal == "kill" else signal.SIGTERM

    def run(data_dir: Path) -> Report:
        return trio.run(partial(run_restart_harness, data_dir, kills=args.kills,
                                games=args.games, seed=args.seed,
                                delays=(args.min_delay, args.max_delay), sig=sig,
                                replace=args.replace_failed, history=args.history,
                                play_seconds=args.timeout))

    if args.data_dir is not None:
        report = run(args.data_dir)
    else:
        with tempfile.TemporaryDirectory(prefix="manawire-restart-") as tmp:
            report = run(Path(tmp))
    print(report.to_json(), flush=True)
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
