"""``manawire bench-store``: what logging an action costs the event loop, before and after
store I/O moved to the writer thread.

``inline`` is the old path: each room commits its action with one SQLite insert on the event
loop. ``thread`` is the server's path now: rooms hand their writes to
:class:`~server.store.writer.StoreWriter` and wait until the thread has committed them
(group commit). Both run ``rooms`` concurrent rooms logging ``actions`` actions each, into a
fresh database; the figures are the event-loop thread's CPU time per action
(``time.thread_time``, what every other room waits for), wall time per action, and
transactions. Runs alternate between the two paths; the last line gives medians and ratios.
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Literal

import trio

from server.engine.actions import PassPriority
from server.store.records import AppendAction, CreateGame
from server.store.sqlite import Durability, Store
from server.store.writer import StoreWriter

Mode = Literal["inline", "thread"]


async def _run(mode: Mode, path: Path, rooms: int, actions: int,
               durability: Durability) -> dict[str, object]:
    store = Store(path, durability)
    writer = StoreWriter(store, inline=mode == "inline")
    try:
        for r in range(rooms):
            store.apply([CreateGame(f"r{r}", "bench", b"\0" * 32, (("a", "d", "s"),), 60.0)])

        async def room(r: int) -> None:
            for seq in range(1, actions + 1):
                op = AppendAction(f"r{r}", seq, 0, PassPriority(), (60.0,))
                if mode == "inline":
                    store.apply([op])  # the old path: one commit on the event loop
                    await trio.lowlevel.checkpoint()
                else:
                    await writer.write([op])

        cpu, wall = time.thread_time(), time.perf_counter()
        async with trio.open_nursery() as nursery:
            for r in range(rooms):
                nursery.start_soon(room, r)
        cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
    finally:
        writer.close()
        store.close()
    n = rooms * actions
    return {"mode": mode, "rooms": rooms, "actions": n,
            "loop_cpu_us_per_action": round(cpu / n * 1e6, 2),
            "wall_us_per_action": round(wall / n * 1e6, 2),
            "transactions": writer.commits if mode == "thread" else n}


def bench_store(rooms: int, actions: int, runs: int, durability: Durability) -> list[str]:
    """Alternate ``runs`` runs of each path; JSON lines, the summary last."""
    lines: list[str] = []
    results: dict[Mode, list[dict[str, object]]] = {"inline": [], "thread": []}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(runs):
            for mode in (("inline", "thread") if i % 2 == 0 else ("thread", "inline")):
                path = Path(tmp) / f"{mode}-{i}.sqlite3"
                got = trio.run(_run, mode, path, rooms, actions, durability)
                results[mode].append(got)
                lines.append(json.dumps({"run": i, **got}))

    def median(mode: Mode, key: str) -> float:
        return statistics.median(float(str(r[key])) for r in results[mode])

    summary: dict[str, object] = {"summary": True, "rooms": rooms, "runs": runs,
                                  "durability": durability}
    for key in ("loop_cpu_us_per_action", "wall_us_per_action"):
        before, after = median("inline", key), median("thread", key)
        summary[f"inline_{key}"] = before
        summary[f"thread_{key}"] = after
        summary[f"{key}_ratio"] = round(before / after, 2) if after else None
    summary["thread_actions_per_transaction"] = round(
        median("thread", "actions") / max(1.0, median("thread", "transactions")), 1)
    lines.append(json.dumps(summary))
    return lines
