"""``manawire bench-store``: what logging an action costs the event loop, on each of the
store's write paths.

``inline`` is the first path: each room commits its action with one SQLite insert on the
event loop. ``thread``: rooms hand their writes to :class:`~server.store.writer.StoreWriter`
and wait until its thread has committed them (group commit). ``server`` is the server's path
now: the thread, except while it has nothing in hand and the event loop used less than
``LOOP_BUSY`` of its core lately (:meth:`StoreWriter.watch_load`), when the room commits on
the event loop itself. Each runs ``rooms`` concurrent rooms logging ``actions`` actions each
(yielding between two, as a room does between two commands), into a fresh database; the
figures are the event-loop thread's CPU time per action (``time.thread_time``, what every
other room waits for), wall time per action, transactions, and the commits made on the
event loop. Runs rotate between the paths; the last line gives medians and ratios (each
path's against ``inline``).
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

Mode = Literal["inline", "thread", "server"]
MODES: tuple[Mode, ...] = ("inline", "thread", "server")


async def _run(mode: Mode, path: Path, rooms: int, actions: int,
               durability: Durability) -> dict[str, object]:
    store = Store(path, durability)
    writer = StoreWriter(store, inline=mode == "inline", on_loop=mode == "server")
    try:
        for r in range(rooms):
            store.apply([CreateGame(f"r{r}", "bench", b"\0" * 32, (("a", "d", "s"),), 60.0)])

        async def room(r: int) -> None:
            for seq in range(1, actions + 1):
                op = AppendAction(f"r{r}", seq, 0, PassPriority(), (60.0,))
                if mode == "inline":
                    store.apply([op])  # the first path: one commit on the event loop
                else:
                    await writer.write([op])
                await trio.lowlevel.checkpoint()

        cpu, wall = time.thread_time(), time.perf_counter()
        async with trio.open_nursery() as nursery:
            nursery.start_soon(writer.watch_load)  # (returns at once but for "server")
            async with trio.open_nursery() as tables:
                for r in range(rooms):
                    tables.start_soon(room, r)
            nursery.cancel_scope.cancel()
        cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
    finally:
        writer.close()
        store.close()
    n = rooms * actions
    return {"mode": mode, "rooms": rooms, "actions": n,
            "loop_cpu_us_per_action": round(cpu / n * 1e6, 2),
            "wall_us_per_action": round(wall / n * 1e6, 2),
            "transactions": n if mode == "inline" else writer.commits,
            "loop_commits": n if mode == "inline" else writer.loop_commits}


def bench_store(rooms: int, actions: int, runs: int, durability: Durability) -> list[str]:
    """Alternate ``runs`` runs of each path; JSON lines, the summary last."""
    lines: list[str] = []
    results: dict[Mode, list[dict[str, object]]] = {mode: [] for mode in MODES}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(runs):
            for mode in MODES[i % 3:] + MODES[:i % 3]:
                path = Path(tmp) / f"{mode}-{i}.sqlite3"
                got = trio.run(_run, mode, path, rooms, actions, durability)
                results[mode].append(got)
                lines.append(json.dumps({"run": i, **got}))

    def median(mode: Mode, key: str) -> float:
        return statistics.median(float(str(r[key])) for r in results[mode])

    summary: dict[str, object] = {"summary": True, "rooms": rooms, "runs": runs,
                                  "durability": durability}
    for key in ("loop_cpu_us_per_action", "wall_us_per_action"):
        before = median("inline", key)
        summary[f"inline_{key}"] = before
        for mode in MODES[1:]:
            after = median(mode, key)
            summary[f"{mode}_{key}"] = after
            summary[f"{mode}_{key}_ratio"] = round(before / after, 2) if after else None
    for mode in MODES[1:]:
        summary[f"{mode}_actions_per_transaction"] = round(
            median(mode, "actions") / max(1.0, median(mode, "transactions")), 1)
    summary["server_loop_commits"] = median("server", "loop_commits")
    lines.append(json.dumps(summary))
    return lines
