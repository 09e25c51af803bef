"""The serving process's garbage-collector tuning and pause figures (server.gctune)."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest
import trio
import trio.testing

from server import gctune


@pytest.fixture
def restore_gc() -> Iterator[None]:
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


def test_the_monitor_times_every_collection_by_generation() -> None:
    monitor = gctune.GcMonitor()
    monitor.start()
    monitor.start()  # installed once
    try:
        gc.collect(0)
        gc.collect(2)
        gc.collect(2)
    finally:
        monitor.stop()
    gc.collect(2)  # not counted: stopped
    line = monitor.line()
    assert line.startswith("gc ")
    summary = json.loads(line[3:])
    assert summary == monitor.summary()
    assert summary["gen2"]["collections"] == 2
    assert summary["gen0"]["collections"] >= 1
    assert 0 < summary["gen2"]["longest_ms"] <= summary["longest_ms"]
    assert summary["gen2"]["total_ms"] >= summary["gen2"]["longest_ms"] - 0.1

def test_freezing_start_up_leaves_it_out_of_every_collection(restore_gc: None) -> None:
    before = len(gc.get_objects())
    gctune.freeze_startup()
    assert gc.get_freeze_count() >= before * 0.9
    assert len(gc.get_objects()) < before * 0.1  # what a collection would still traverse
    gctune.set_threshold(12_345)
    assert gc.get_threshold()[0] == 12_345


async def test_collections_on_a_clock_young_and_middle_together_full_then_python_s_own_again(
    restore_gc: None, autojump_clock: trio.testing.MockClock,
) -> None:
    """``serve --gc-young-seconds 0.01 --gc-full-seconds S``: a young collection every
    0.01 s of the young and middle generations together, everything every S seconds --
    and no full collection by Python's own trigger meanwhile; its thresholds come back
    after."""
    gc.set_threshold(700, 10, 10)
    seen: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            seen.append(info["generation"])

    gc.callbacks.append(count)
    try:
        async with trio.open_nursery() as nursery:
            # (No slowing down while the loop idles, as it does here: see the next test.)
            nursery.start_soon(gctune.collect_on_a_clock, 0.01, 0.5, 0.01)
            await trio.sleep(0.001)
            assert gc.get_threshold() == (700, 10, gctune.FULL_OFF)
            await trio.sleep(1.0)
            nursery.cancel_scope.cancel()
    finally:
        gc.callbacks.remove(count)
    assert gc.get_threshold() == (700, 10, 10)
    # 100 ticks in 1 s: two of them full collections (at 0.5 s and 1.0 s), the others of
    # the young and middle generations. (Allocation may add a few collections of Python's
    # own, never a full one, and a middle one only every tenth of its own.)
    assert seen.count(2) == 2
    assert 95 <= seen.count(1) <= 105
    assert seen.count(0) < 30  # (a young collection alone every tick made about 90)


async def test_the_young_collections_slow_down_while_the_loop_idles_and_not_while_it_works(
    restore_gc: None, autojump_clock: trio.testing.MockClock,
) -> None:
    """Every 5 ms woke an idle server 200 times a second for nothing: while the loop idles
    the clock slows, doubling up to every 0.1 s; once the loop works it is quick again."""
    gc.set_threshold(700, 10, 10)
    seen: list[float] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] == 1:
            seen.append(trio.current_time())

    def busy_for(seconds: float) -> None:  # the loop thread's CPU
        end = time.thread_time() + seconds
        while time.thread_time() < end:
            sum(range(1_000))

    gc.callbacks.append(count)
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(gctune.collect_on_a_clock, 0.005, 600.0)
            start = trio.current_time()
            await trio.sleep(2.0)  # idle: the clock slows to every 0.1 s
            idle = [t for t in seen if t >= start + 1.0]
            # Working: 2 ms of CPU every 5 ms of the clock (40% of a core).
            work = trio.current_time()
            while trio.current_time() < work + 1.0:
                busy_for(0.002)
                await trio.sleep(0.005)
            working = [t for t in seen if t >= work + 0.2]
            nursery.cancel_scope.cancel()
    finally:
        gc.callbacks.remove(count)
    assert 8 <= len(idle) <= 12, idle  # every 0.1 s over the idle loop's last second
    assert len(working) >= 100, len(working)  # every 5 ms (the loop's own sleeps: 160)


@pytest.mark.parametrize(("args", "message"), [
    (["--gc-young-seconds", "-1"], "--gc-young-seconds must not be negative"),
    (["--gc-full-seconds", "0"], "--gc-full-seconds must be positive"),
    (["--gc-threshold", "0"], "--gc-threshold must be at least 1"),
])
def test_bad_collector_settings_are_usage_errors(args: list[str], message: str) -> None:
    done = subprocess.run([sys.executable, "-m", "server.cli", "serve", "--port", "0", *args],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert message in done.stderr
