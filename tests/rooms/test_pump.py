"""The room task (server/rooms/pump.py) around a stand-in room: how it takes the commands
queued for it. One already waiting is taken without a yield, a few in a row at most, and
never ahead of the room's wake-up time (a clock that ran out is handled before anything
queued after it); a room waiting for commands is woken by the shared alarms."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import cast

import trio
import trio.lowlevel
import trio.testing

from server.rooms.alarms import Alarms
from server.rooms.budget import Turns, WorkBudget
from server.rooms.commands import Command, ConnId, FeedOp, Leave, Output, ShowDelayed, Tick
from server.rooms.pump import QUEUED_AT_ONCE, RoomHost
from server.rooms.room import Room
from server.store.writer import StoreWriter


class StandIn:
    """Records each command it handles; its wake-up time is what the test sets."""

    room_id = "r"

    def __init__(self) -> None:
        self.handled: list[str] = []
        #: The wake-up time each command's output asks for (by default: none).
        self.wake_after: dict[int, float] = {}

    def handle(self, command: Command, now: float) -> Output:
        if isinstance(command, Leave):
            self.handled.append(f"leave{command.conn}")
            return Output(wake_at=self.wake_after.get(command.conn, math.inf))
        assert isinstance(command, Tick)
        self.handled.append("tick")
        return Output()


class NoFeeds:
    def apply(self, room_id: str, ops: list[FeedOp]) -> None:
        assert not ops

    def close_room(self, room_id: str) -> None:
        raise AssertionError("no room fails here")


class WorkClock:
    """The work done so far, in seconds (the budget's work clock in these tests)."""

    def __init__(self) -> None:
        self.done = 0.0

    def __call__(self) -> float:
        return self.done


class Tiers(StandIn):
    """A room whose delayed tiers have ``backlog`` actions due; each ShowDelayed plays one,
    taking a millisecond of ``work``."""

    def __init__(self, backlog: int, work: WorkClock) -> None:
        super().__init__()
        self.backlog = backlog
        self.work = work

    def handle(self, command: Command, now: float) -> Output:
        if isinstance(command, ShowDelayed):
            assert self.backlog > 0
            self.backlog -= 1
            self.work.done += 0.001
            self.handled.append("show")
        else:
            super().handle(command, now)
        return Output(delayed_at=0.0 if self.backlog else math.inf)


def _host(room: StandIn, alarms: Alarms | None = None,
          budget: WorkBudget | Turns | None = None) -> RoomHost:
    def deliver(sends: Sequence[tuple[ConnId, bytes]]) -> None:
        raise AssertionError("nothing is sent")

    return RoomHost(cast(Room, room), cast(StoreWriter, None), NoFeeds(), deliver=deliver,
                    released=lambda host, conns: None, closed=lambda host: None,
                    alarms=alarms or Alarms(),
                    delayed_turns=Turns(budget) if isinstance(budget, WorkBudget) else budget)


async def test_commands_queued_together_are_taken_a_few_in_a_row_then_others_run() -> None:
    room = StandIn()
    host = _host(room)
    count = 10 * QUEUED_AT_ONCE
    seen: list[int] = []  # commands handled so far, each time another task got to run

    async def other_task() -> None:
        for _ in range(1000):
            seen.append(len(room.handled))
            if len(room.handled) > count:
                return
            await trio.lowlevel.checkpoint()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(host.run)
        await trio.testing.wait_all_tasks_blocked()
        assert room.handled == ["tick"]  # (the one a room starts with)
        for conn in range(count):  # all at once: nothing runs between them
            host.notify(Leave(conn, 0))
        nursery.start_soon(other_task)
        with trio.fail_after(5):
            await trio.testing.wait_all_tasks_blocked()
        nursery.cancel_scope.cancel()
    assert room.handled == ["tick"] + [f"leave{c}" for c in range(count)]
    steps = [b - a for a, b in itertools.pairwise(seen) if b != a]
    # The one its wait returned, and up to QUEUED_AT_ONCE more taken at once; in one
    # round each task runs once, the room before or after the other task.
    assert steps and max(steps) <= 2 * (1 + QUEUED_AT_ONCE), seen
    assert max(steps) > 1  # (queued ones were taken without a wait)


async def test_a_wake_up_time_that_has_come_goes_before_the_commands_queued_after_it(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """Rule of the room's clocks: a player whose time ran out loses on time before any
    action queued after that moment is applied -- a queued command never jumps the
    wake-up (its Tick)."""
    room = StandIn()
    host = _host(room)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(host.run)
        await trio.testing.wait_all_tasks_blocked()
        room.wake_after[0] = trio.current_time()  # handling command 0 makes a wake-up due
        for conn in range(3):
            host.notify(Leave(conn, 0))
        await trio.testing.wait_all_tasks_blocked()
        nursery.cancel_scope.cancel()
    assert room.handled == ["tick", "leave0", "tick", "leave1", "leave2"]


async def test_a_waiting_room_is_woken_by_the_alarms_at_its_wake_up_time(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """A room that waits for commands (with no deadline of its own) gets a Tick from the
    shared alarms when its wake-up time comes -- and none before."""
    room = StandIn()
    alarms = Alarms()
    host = _host(room, alarms)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(alarms.run)
        nursery.start_soon(host.run)
        await trio.testing.wait_all_tasks_blocked()
        due = trio.current_time() + 30
        room.wake_after[0] = due
        host.notify(Leave(0, 0))
        await trio.sleep(29)
        assert room.handled == ["tick", "leave0"]
        await trio.sleep(2)
        assert room.handled == ["tick", "leave0", "tick"]
        assert trio.current_time() >= due
        nursery.cancel_scope.cancel()


async def test_a_command_that_ends_a_wait_after_the_wake_up_time_goes_after_its_tick(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """The wake-up time passes while the room waits and a command comes before the alarms
    have woken it: the Tick is handled first, then the command (the command isn't lost)."""
    room = StandIn()
    host = _host(room)  # alarms that never run: only the room's own check is left
    async with trio.open_nursery() as nursery:
        nursery.start_soon(host.run)
        await trio.testing.wait_all_tasks_blocked()
        room.wake_after[0] = trio.current_time() + 5
        host.notify(Leave(0, 0))
        await trio.testing.wait_all_tasks_blocked()
        autojump_clock.jump(10)  # the wake-up time passes unseen
        host.notify(Leave(1, 0))
        await trio.testing.wait_all_tasks_blocked()
        nursery.cancel_scope.cancel()
    assert room.handled == ["tick", "leave0", "tick", "leave1"]


async def test_delayed_tiers_work_only_when_nothing_waits_within_their_share_of_the_loop(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """A room's delayed tiers (ShowDelayed) had all their due actions played at once and
    held every other game up for seconds. Now the host plays them only when no command
    waits, and all rooms' tiers together within a quarter of the event loop's time: 1 ms of
    work each, so about 250 a second."""
    work = WorkClock()
    room = Tiers(1000, work)
    alarms = Alarms()
    host = _host(room, alarms, WorkBudget(0.25, 0.01, work_clock=work))
    async with trio.open_nursery() as nursery:
        nursery.start_soon(alarms.run)
        nursery.start_soon(host.run)
        await trio.sleep(1.0)
        shown = room.handled.count("show")
        assert 250 <= shown <= 270, shown  # 0.25 s of work a second, and the 10 ms burst
        host.notify(Leave(1, 0))
        await trio.testing.wait_all_tasks_blocked()
        assert "leave1" in room.handled  # a command goes first: it waits for no budget
        await trio.sleep(3.0)
        assert room.backlog == 0 and room.handled.count("show") == 1000
        nursery.cancel_scope.cancel()


async def test_rooms_waiting_for_the_tiers_budget_take_turns(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """Rooms waiting for the shared budget all woke at the same moment, and the same one or
    two always found it ready (3 rooms for 20 s: 2,483, 2,524 and 3 actions shown). They
    take turns now, first come, first served."""
    work = WorkClock()
    rooms = [Tiers(10_000, work) for _ in range(4)]
    alarms = Alarms()
    turns = Turns(WorkBudget(0.25, 0.01, work_clock=work))
    hosts = [_host(room, alarms, turns) for room in rooms]
    async with trio.open_nursery() as nursery:
        nursery.start_soon(alarms.run)
        for host in hosts:
            nursery.start_soon(host.run)
        await trio.sleep(8.0)
        shown = [room.handled.count("show") for room in rooms]
        assert 1990 <= sum(shown) <= 2020, shown  # a quarter of 8 s, 1 ms each
        assert max(shown) - min(shown) <= 2, shown  # in turn
        nursery.cancel_scope.cancel()
