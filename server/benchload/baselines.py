"""The baselines of ``manawire bench-server``, each run in a process of its own: the echo
server and its driver, and the idle-connections driver. They share the game driver's
helpers (:mod:`server.benchload.driver`) and its figures' definitions.

**Echo driver** (:func:`drive_echo`): ``connections`` connections to a bare echo server
(:func:`echo_serve`); each sends a payload of ``size`` bytes on a schedule so that all
together send ``rate`` messages per second, one at a time, and measures the round trip
(send to echo received). ``rate`` 0: closed loop, each sends again as soon as its echo came
(the most the bare library serves: ``bench-server --echo-max``).

**Engine baseline** (:func:`run_engine`): the rules engine alone, in its own process on the
server's CPU, playing random games on the decks of the served games (the engine's own
``manawire sim --no-encode`` games) for as long as the driver's window; served games per
second over these give goal 1's ratio (``served_vs_engine``).

**Idle driver** (:func:`drive_idle`): opens ``connections`` connections that stay silent,
then each says ``Hello`` (a guest) and stays idle; the server's RSS before (after a few
warm-up connections, so first-use costs don't count), with them silent and welcomed.
"""

from __future__ import annotations

import os
import random
import time
from collections import Counter
from dataclasses import dataclass
from functools import partial

import trio
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from server.benchload.driver import (
    MAX_FRAME,
    OPENING,
    REQUEST_TIMEOUT,
    Window,
    client,
    error_name,
    freeze_setup,
    hello,
    latency_figures,
)
from server.benchload.procs import raise_nofile, rss_kb


# ---- echo baseline
@dataclass
class EchoConfig:
    url: str
    connections: int
    rate: float
    size: int
    seconds: float
    warmup: float
    server_pid: int
    seed: int = 1
    setup_timeout: float = 60.0


async def drive_echo(cfg: EchoConfig) -> dict[str, object]:
    """Round trips to an echo server at ``rate`` messages/s over ``connections``."""
    raise_nofile()
    latencies: list[float] = []
    failures: Counter[str] = Counter()
    measuring = False
    ready = trio.Event()
    opened = 0
    opening = trio.CapacityLimiter(OPENING)
    payload = random.Random(cfg.seed).randbytes(max(1, cfg.size))
    period = cfg.connections / cfg.rate if cfg.rate > 0 else 0.0  # 0: closed loop
    sent = 0

    async def one(index: int, nursery: trio.Nursery) -> None:
        nonlocal opened, sent
        rng = random.Random(cfg.seed * 1_000_003 + index)
        try:
            async with opening:
                ws = await client(cfg.url).connect(nursery)
        except (OSError, InvalidHandshake, TimeoutError):
            failures["connection"] += 1
            return
        opened += 1
        if opened >= cfg.connections:
            ready.set()
        await ready.wait()
        due = trio.current_time() + rng.random() * period
        try:
            while True:
                if period:
                    await trio.sleep_until(due)
                t = time.perf_counter()
                await ws.send(payload)
                with trio.fail_after(REQUEST_TIMEOUT):
                    await ws.recv(decode=False)
                if measuring:
                    latencies.append(time.perf_counter() - t)
                    sent += 1
                due = max(due + period, trio.current_time() - period)
        except (ConnectionClosed, trio.TooSlowError):
            failures["connection"] += 1

    async with trio.open_nursery() as nursery:
        for i in range(cfg.connections):
            nursery.start_soon(one, i, nursery)
        with trio.move_on_after(cfg.setup_timeout):
            await ready.wait()
        ready.set()
        freeze_setup()
        await trio.sleep(cfg.warmup)
        window = Window(cfg.server_pid)
        measuring = True
        await trio.sleep(cfg.seconds)
        measuring = False
        figures = window.close()
        nursery.cancel_scope.cancel()
    return {"echo_rate": round(sent / figures["window_s"], 1), "echo_size": cfg.size,
            "echo_connections": opened, **latency_figures(latencies, "echo_"),
            "echo_server_cpu_pct": figures["server_cpu_pct"],
            "echo_driver_cpu_pct": figures["driver_cpu_pct"],
            "echo_other_cpu_pct": figures["other_cpu_pct"],
            "echo_driver_gc_ms": figures["driver_gc_ms"],
            "echo_driver_gc_longest_ms": figures["driver_gc_longest_ms"],
            "echo_failures": dict(failures)}


async def echo_serve(port: int) -> None:
    """A bare websockets.trio echo server on 127.0.0.1, until SIGTERM or SIGINT."""
    import signal

    from websockets.trio.server import ServerConnection, serve

    raise_nofile()

    async def handler(ws: ServerConnection) -> None:
        try:
            async for message in ws:
                await ws.send(message)
        except ConnectionClosed:
            pass

    with trio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(partial(serve, handler, port, host="127.0.0.1",
                                       compression=None, max_size=MAX_FRAME))
            async for _ in signals:
                break
            nursery.cancel_scope.cancel()


# ---- engine baseline
@dataclass
class EngineConfig:
    #: Each seat's demo deck.
    decks: list[str]
    seconds: float
    warmup: float
    seed: int = 1


def run_engine(cfg: EngineConfig) -> dict[str, object]:
    """The engine's in-process actions/s on ``cfg.decks``: whole random games
    (:func:`server.sim.play_game` without the view pipeline: what ``manawire sim --no-encode``
    plays), seeds from ``cfg.seed`` on, first for ``warmup`` seconds unmeasured, then for
    ``seconds`` (the last game is played to its end and counted). As in ``sim``, the timing
    leaves out the rebuild of priority options that checks the engine's own."""
    from server.sim import SimOptions, play_game

    options = SimOptions(encode=False)
    seed = cfg.seed
    clock = time.perf_counter_ns
    start = clock()
    while clock() - start < cfg.warmup * 1e9:
        play_game(seed, cfg.decks, options)
        seed += 1
    games = actions = busy_ns = 0
    start = clock()
    while not games or clock() - start < cfg.seconds * 1e9:  # one game at least
        began = clock()
        outcome = play_game(seed, cfg.decks, options)
        busy_ns += clock() - began - outcome.measure_ns
        if outcome.failure is not None:
            return {"error": f"the engine's game of seed {seed} failed: {outcome.failure}"}
        games += 1
        actions += outcome.actions
        seed += 1
    return {"engine_decks": "+".join(cfg.decks), "engine_games": games,
            "engine_actions": actions,
            "engine_actions_per_s": round(actions / (busy_ns / 1e9), 1) if busy_ns else 0.0}


# ---- idle connections
@dataclass
class IdleConfig:
    url: str
    connections: int
    server_pid: int
    settle: float = 3.0
    batch: bool = True
    setup_timeout: float = 120.0


async def drive_idle(cfg: IdleConfig) -> dict[str, object]:
    """Open ``connections`` idle connections and read the server's RSS: fresh, after a few
    warm-up connections (first-use costs), with all of them open but silent (the WebSocket
    alone), and once each has said Hello (a guest: the session and account too)."""
    raise_nofile()
    opening = trio.CapacityLimiter(OPENING)
    failures: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    welcomed = 0

    async def one(index: int, nursery: trio.Nursery, opened: trio.Event,
                  speak: trio.Event, done: trio.Event) -> None:
        nonlocal welcomed
        try:
            async with opening:
                ws = await client(cfg.url).connect(nursery)
            opened.set()
            await speak.wait()
            async with opening:
                reply = await hello(ws, f"idle{index}", cfg.batch)
            if reply.HasField("error"):
                errors[error_name(reply.error.code)] += 1
            else:
                welcomed += 1
        except (OSError, InvalidHandshake, TimeoutError, ConnectionClosed, trio.TooSlowError):
            failures["connection"] += 1
        finally:
            opened.set()
            done.set()

    async def wait_all(events: list[trio.Event]) -> None:
        with trio.move_on_after(cfg.setup_timeout):
            for event in events:
                await event.wait()

    async def group(count: int, first: int, nursery: trio.Nursery
                    ) -> tuple[list[trio.Event], trio.Event, list[trio.Event]]:
        opened = [trio.Event() for _ in range(count)]
        done = [trio.Event() for _ in range(count)]
        speak = trio.Event()
        for i in range(count):
            nursery.start_soon(one, first + i, nursery, opened[i], speak, done[i])
        return opened, speak, done

    pid = cfg.server_pid
    warm = min(50, max(1, cfg.connections // 20))
    async with trio.open_nursery() as nursery:
        await trio.sleep(cfg.settle)
        fresh = rss_kb(pid)
        _opened, speak, done = await group(warm, 0, nursery)
        speak.set()
        await wait_all(done)
        await trio.sleep(cfg.settle)
        before = rss_kb(pid)
        warm_welcomed = welcomed
        t0 = time.perf_counter()
        opened, speak, done = await group(cfg.connections, warm, nursery)
        await wait_all(opened)
        await trio.sleep(cfg.settle)
        silent = rss_kb(pid)
        speak.set()
        await wait_all(done)
        opened_s = time.perf_counter() - t0
        await trio.sleep(cfg.settle)
        after = rss_kb(pid)
        driver_rss = rss_kb(os.getpid())
        nursery.cancel_scope.cancel()
    # Per connection that said Hello and was welcomed (a failed one holds less).
    n = max(welcomed - warm_welcomed, 1)
    return {"connections": cfg.connections, "warm_connections": warm,
            "welcomed": welcomed - warm_welcomed, "rss_fresh_kb": fresh,
            "rss_before_kb": before, "rss_silent_kb": silent, "rss_after_kb": after,
            "kb_per_connection": round((after - before) / n, 2),
            "kb_per_silent_connection": round((silent - before) / n, 2),
            "kb_per_hello": round((after - silent) / n, 2),
            "kb_per_connection_from_fresh": round((after - fresh) / (n + warm), 2),
            "open_s": round(opened_s, 2), "driver_rss_kb": driver_rss,
            "errors": dict(errors), "failures": dict(failures)}
