"""The spectators of a fan-out run of ``manawire bench-server``, in a process of their own.

They must not share the game driver's process: a thousand connections' reads there would
slow the driver's own answers and so Y's measured latency, which is the server's figure.
The game driver writes room X's id to ``room_file`` each time table 0 opens a room; this
process polls it and every spectator (``Hello``, then ``LeaveRoom`` + ``JoinRoom`` as a
spectator) follows X into each new room. When each spectator has joined once, it writes
``ready_file``; the game driver waits for it before its warmup, so the connection storm is
over before anything is measured. It then counts for ``warmup`` + ``seconds`` (its window
is the last ``seconds``, as the game driver's) and prints its figures as one JSON line.

It runs at ``nice`` 10 beside the driver: the audience's reading happens on the viewers'
machines in real life, and must not delay the driver's answers, which are what is measured.
To stay light it decodes only small frames (under :data:`DECODE_BELOW` bytes: replies to
its requests, where an error would be); the big ones are the feed's batches of deltas,
counted and not decoded.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections import Counter
from dataclasses import dataclass, field

import trio
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.trio.client import ClientConnection

from protocol.v1 import messages_pb2 as mpb
from server.benchload.driver import (
    OPENING,
    RETRY_PAUSE,
    Window,
    client,
    decode_frame,
    error_name,
    hello,
)
from server.benchload.procs import raise_nofile, read_text, write_atomically

#: Frames at least this long are feed batches: counted, not decoded.
DECODE_BELOW = 1024
#: How often the room file is read, seconds.
POLL_SECONDS = 0.02
#: A join that came after room X's game ended (the table moved on): counted, not an error.
LATE = (mpb.ERROR_CODE_ROOM_NOT_FOUND, mpb.ERROR_CODE_GAME_OVER)


@dataclass
class WatchConfig:
    """What :func:`drive_watchers` is told (JSON from the orchestrating process)."""

    url: str
    spectators: int
    room_file: str
    ready_file: str
    seconds: float
    warmup: float
    server_pid: int
    batch: bool = True
    setup_timeout: float = 60.0
    #: Niceness of this process: the audience's own reading (on viewers' machines in real
    #: life) yields the shared CPU to the driver, whose answers are what is measured.
    nice: int = 10
    #: Run under SCHED_IDLE instead (Linux): only on CPU time nothing else wants.
    idle: bool = False


@dataclass
class WatchStats:
    measuring: bool = False
    frames: int = 0
    bytes: int = 0
    joins: int = 0
    #: Joins sent in the window (a join-cost run divides the server's CPU by them).
    window_joins: int = 0
    late_joins: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    failures: Counter[str] = field(default_factory=Counter)


class Target:
    """Room X as the game driver last wrote it; a new room wakes every follower."""

    def __init__(self) -> None:
        self.room_id = ""
        self.opened = 0
        self.changed = trio.Event()

    async def poll(self, path: str) -> None:
        while True:
            room_id = read_text(path).strip()
            if room_id and room_id != self.room_id:
                self.room_id = room_id
                self.opened += 1
                self.changed.set()
                self.changed = trio.Event()
            await trio.sleep(POLL_SECONDS)


class Watchers:
    def __init__(self, cfg: WatchConfig, nursery: trio.Nursery) -> None:
        self.cfg = cfg
        self.nursery = nursery
        self.stats = WatchStats()
        self.target = Target()
        self.opening = trio.CapacityLimiter(OPENING)
        self.joined_once: set[int] = set()
        self.all_joined = trio.Event()

    async def watch(self, index: int) -> None:
        """One spectator: follows X's rooms; starts over on a new connection if dropped."""
        stats = self.stats
        while True:
            try:
                async with self.opening:
                    ws = await client(self.cfg.url).connect(self.nursery)
                async with ws:
                    reply = await hello(ws, f"watcher{index}", self.cfg.batch)
                    if reply.HasField("error"):
                        stats.errors[error_name(reply.error.code)] += 1
                        await trio.sleep(RETRY_PAUSE)
                        continue
                    await self._spectate(ws, index, reply.welcome.batched)
            except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError):
                pass
            stats.failures["spectator_connection"] += 1
            await trio.sleep(RETRY_PAUSE)

    async def _spectate(self, ws: ClientConnection, index: int, batched: bool) -> None:
        async with trio.open_nursery() as nursery:
            async def reader() -> None:
                with contextlib.suppress(ConnectionClosed):
                    await self._read(ws, batched)
                nursery.cancel_scope.cancel()

            nursery.start_soon(reader)
            with contextlib.suppress(ConnectionClosed):
                await self._follow(ws, index)
            nursery.cancel_scope.cancel()

    async def _follow(self, ws: ClientConnection, index: int) -> None:
        joined = 0
        rid = 1
        while True:
            target = self.target
            if target.opened == joined:
                await target.changed.wait()
                continue
            joined = target.opened
            for body in (mpb.ClientMessage(leave_room=mpb.LeaveRoom()),
                         mpb.ClientMessage(join_room=mpb.JoinRoom(
                             room_id=target.room_id, role=mpb.ROLE_SPECTATOR))):
                rid += 1
                body.request_id = rid
                await ws.send(body.SerializeToString())
            self.stats.joins += 1
            if self.stats.measuring:
                self.stats.window_joins += 1
            self.joined_once.add(index)
            if len(self.joined_once) >= self.cfg.spectators:
                self.all_joined.set()

    async def _read(self, ws: ClientConnection, batched: bool) -> None:
        stats = self.stats
        while True:
            data = await ws.recv(decode=False)
            if stats.measuring:
                stats.frames += 1
                stats.bytes += len(data)
            if len(data) < DECODE_BELOW:
                for msg in decode_frame(data, batched):
                    if msg.WhichOneof("body") != "error":
                        continue
                    if msg.error.code in LATE:
                        stats.late_joins += 1
                    elif msg.error.code != mpb.ERROR_CODE_NOT_READY:  # (a LeaveRoom outside)
                        stats.errors[f"spectator_{error_name(msg.error.code)}"] += 1


async def drive_watchers(cfg: WatchConfig) -> dict[str, object]:
    """Run the spectators and return their figures (see the module docstring)."""
    raise_nofile()
    if cfg.nice:
        os.nice(cfg.nice)
    if cfg.idle:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    async with trio.open_nursery() as nursery:
        w = Watchers(cfg, nursery)
        nursery.start_soon(w.target.poll, cfg.room_file)
        for i in range(cfg.spectators):
            nursery.start_soon(w.watch, i)
        t0 = time.perf_counter()
        with trio.move_on_after(cfg.setup_timeout):
            await w.all_joined.wait()
        setup = time.perf_counter() - t0
        write_atomically(cfg.ready_file, "ready\n")
        await trio.sleep(cfg.warmup)
        window = Window(cfg.server_pid)
        w.stats.measuring = True
        await trio.sleep(cfg.seconds)
        w.stats.measuring = False
        figures = window.close()
        nursery.cancel_scope.cancel()
    secs = figures["window_s"]
    stats = w.stats
    return {
        "spectators_joined": len(w.joined_once),
        "spectator_setup_s": round(setup, 2),
        "spectator_frames_per_s": round(stats.frames / secs, 1),
        "spectator_bytes_per_s": round(stats.bytes / secs, 1),
        "spectator_joins": stats.joins,
        "spectator_window_joins": stats.window_joins,
        "spectator_window_s": secs,
        "spectator_window_server_cpu_pct": figures["server_cpu_pct"],
        "spectator_late_joins": stats.late_joins,
        "spectator_errors": dict(stats.errors),
        "spectator_failures": dict(stats.failures),
        "watchers_cpu_pct": figures["driver_cpu_pct"],
    }
