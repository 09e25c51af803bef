"""The rooms' shared wake-ups (server/rooms/alarms.py): one task wakes each room when its
latest wake-up time comes, once; a later time replaces an earlier one, ``inf`` and
``forget`` cancel it, and a time set while the task sleeps shortens its sleep."""

from __future__ import annotations

import gc
import math
import weakref

import trio
import trio.testing

from server.rooms.alarms import Alarms


class Room:
    """Records the times it was woken at."""

    def __init__(self) -> None:
        self.woken: list[float] = []

    def wake(self) -> None:
        self.woken.append(trio.current_time())


async def test_each_room_wakes_once_at_its_latest_time(
        autojump_clock: trio.testing.MockClock) -> None:
    alarms = Alarms()
    a, b, c, d = Room(), Room(), Room(), Room()
    start = trio.current_time()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(alarms.run)
        alarms.set(a, start + 5)
        alarms.set(b, start + 3)
        alarms.set(b, start + 7)  # replaces 3
        alarms.set(c, start + 4)
        alarms.set(c, math.inf)  # never
        alarms.set(d, start + 2)
        alarms.forget(d)
        await trio.sleep(20)
        nursery.cancel_scope.cancel()
    assert a.woken == [start + 5]
    assert b.woken == [start + 7]
    assert c.woken == [] and d.woken == []
    assert alarms.waiting == 0


async def test_an_earlier_time_set_while_the_task_sleeps_wakes_it_sooner(
        autojump_clock: trio.testing.MockClock) -> None:
    alarms = Alarms()
    late, soon = Room(), Room()
    start = trio.current_time()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(alarms.run)
        alarms.set(late, start + 100)
        await trio.sleep(1)  # the task sleeps until start + 100
        alarms.set(soon, start + 2)
        await trio.sleep(5)
        assert soon.woken == [start + 2] and late.woken == []
        alarms.set(soon, start + 8)  # woken rooms set their next time
        await trio.sleep(200)
        nursery.cancel_scope.cancel()
    assert soon.woken == [start + 2, start + 8] and late.woken == [start + 100]


async def test_stale_entries_are_dropped_and_the_current_times_still_wake(
        autojump_clock: trio.testing.MockClock) -> None:
    """A room's time moves at every action: thousands of settings for a few rooms keep the
    heap small (it is rebuilt from the current times) and wake each room at its last."""
    alarms = Alarms()
    rooms = [Room() for _ in range(3)]
    start = trio.current_time()
    for step in range(5000):
        room = rooms[step % 3]
        alarms.set(room, start + 10 + step / 1000)
        assert len(alarms._heap) <= 2 * len(rooms) + 64 + 1
    async with trio.open_nursery() as nursery:
        nursery.start_soon(alarms.run)
        await trio.sleep(30)
        nursery.cancel_scope.cancel()
    assert [r.woken for r in rooms] == [[start + 10 + s / 1000] for s in (4998, 4999, 4997)]


async def test_a_forgotten_room_is_never_woken_and_not_kept_in_memory() -> None:
    alarms = Alarms()
    gone, kept = Room(), Room()
    start = trio.current_time()
    alarms.set(gone, start + 5)
    alarms.set(gone, start + 6)
    alarms.set(kept, start + 7)
    ref = weakref.ref(gone)
    alarms.forget(gone)
    del gone
    gc.collect()
    assert ref() is None
    assert alarms.waiting == 1 and [entry[2] for entry in alarms._heap] == [kept]
