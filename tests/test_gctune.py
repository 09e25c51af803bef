"""The serving process's garbage-collector tuning and pause figures (server.gctune)."""

from __future__ import annotations

import gc
import json
from collections.abc import Iterator

import pytest

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
