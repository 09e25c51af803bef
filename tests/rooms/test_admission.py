"""The spectators' join turns (server.rooms.admission): round the rooms, a few per
scheduler round while the loop has time to spare, one per interval while it is busy."""

from __future__ import annotations

import itertools

import pytest
import trio
import trio.testing

from server.rooms.admission import LoadMeter, WatchGate


class _Rounds(trio.abc.Instrument):
    """Counts scheduler rounds (trio waits for I/O once per round)."""

    def __init__(self) -> None:
        self.count = 0

    def before_io_wait(self, timeout: float) -> None:
        self.count += 1


async def _queue(nursery: trio.Nursery, gate: WatchGate, who: list[tuple[str, int]],
                 admitted: list[tuple[str, int, float, int]], rounds: _Rounds
                 ) -> trio.Event:
    """Queue ``who`` at ``gate`` in this order; each records (room, n, time, round) when
    let in. The event is set when all are in."""
    everyone = trio.Event()
    for room_id, n in who:
        async def wait(room_id: str = room_id, n: int = n) -> None:
            await gate.admit(room_id)
            admitted.append((room_id, n, trio.current_time(), rounds.count))
            if len(admitted) == len(who):
                everyone.set()
        nursery.start_soon(wait)
        await trio.testing.wait_all_tasks_blocked()  # queued in this order
    return everyone


async def test_turns_go_round_the_rooms_a_crowd_never_queues_another_rooms_spectator() -> None:
    gate = WatchGate(lambda: 0.0, at_once=1)
    rounds = _Rounds()
    admitted: list[tuple[str, int, float, int]] = []
    async with trio.open_nursery() as nursery:
        who = [("a", i) for i in range(6)] + [("b", 0), ("c", 0)]
        everyone = await _queue(nursery, gate, who, admitted, rounds)
        nursery.start_soon(gate.run)
        with trio.fail_after(5):
            await everyone.wait()
        nursery.cancel_scope.cancel()
    order = [(room, n) for room, n, _t, _r in admitted]
    # Room a's first, then b's and c's in their turn, not after all of a's crowd.
    assert order == [("a", 0), ("b", 0), ("c", 0), ("a", 1), ("a", 2), ("a", 3), ("a", 4),
                     ("a", 5)]
    assert gate.waiting == 0


async def test_while_the_loop_has_time_to_spare_a_few_are_let_in_per_round() -> None:
    gate = WatchGate(lambda: 0.0, at_once=4)
    rounds = _Rounds()
    trio.lowlevel.add_instrument(rounds)
    admitted: list[tuple[str, int, float, int]] = []
    try:
        async with trio.open_nursery() as nursery:
            who = [("a", i) for i in range(10)]
            everyone = await _queue(nursery, gate, who, admitted, rounds)
            nursery.start_soon(gate.run)
            with trio.fail_after(5):
                await everyone.wait()
            nursery.cancel_scope.cancel()
    finally:
        trio.lowlevel.remove_instrument(rounds)
    per_round: dict[int, list[int]] = {}
    for _room, n, _t, round_ in admitted:
        per_round.setdefault(round_, []).append(n)
    groups = [sorted(per_round[r]) for r in sorted(per_round)]
    # At most four a round, in the order they came (trio runs a round's tasks in any order).
    assert [n for group in groups for n in group] == list(range(10))
    assert max(len(group) for group in groups) <= 4 and len(groups) >= 3


async def test_while_the_loop_is_busy_one_is_let_in_per_interval_and_none_refused(
    autojump_clock: trio.testing.MockClock
) -> None:
    gate = WatchGate(lambda: 1.0, busy_interval=0.004)
    rounds = _Rounds()
    admitted: list[tuple[str, int, float, int]] = []
    async with trio.open_nursery() as nursery:
        who = [("a", i) for i in range(5)] + [("b", 0)]
        everyone = await _queue(nursery, gate, who, admitted, rounds)
        nursery.start_soon(gate.run)
        with trio.fail_after(5):
            await everyone.wait()
        nursery.cancel_scope.cancel()
    times = [t for _room, _n, t, _r in admitted]
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert all(gap >= 0.004 - 1e-9 for gap in gaps), gaps
    assert [(room, n) for room, n, _t, _r in admitted][:2] == [("a", 0), ("b", 0)]


async def test_a_spectator_that_goes_while_waiting_leaves_the_queue(
    autojump_clock: trio.testing.MockClock
) -> None:
    gate = WatchGate(lambda: 1.0, busy_interval=0.01)
    admitted: list[str] = []

    async def wait(name: str, scope: trio.CancelScope | None = None) -> None:
        with scope or trio.CancelScope():
            await gate.admit("a")
            admitted.append(name)
            if len(admitted) == 2:
                two_in.set()

    gone = trio.CancelScope()
    two_in = trio.Event()
    async with trio.open_nursery() as nursery:
        for name in ("first", "gone", "third"):
            nursery.start_soon(wait, name, gone if name == "gone" else None)
            await trio.testing.wait_all_tasks_blocked()
        assert gate.waiting == 3
        gone.cancel()
        await trio.testing.wait_all_tasks_blocked()
        assert gate.waiting == 2
        start = trio.current_time()
        nursery.start_soon(gate.run)
        with trio.fail_after(5):
            await two_in.wait()
        # The second turn went to the third spectator: none was spent on the one gone.
        assert trio.current_time() - start < 0.02
        nursery.cancel_scope.cancel()
    assert admitted == ["first", "third"] and gate.waiting == 0


def test_the_load_meter_is_the_share_of_each_window_not_spent_waiting_for_io() -> None:
    now = [100.0]
    meter = LoadMeter(window=0.25, clock=lambda: now[0])

    def round_(running: float, waiting: float) -> None:
        """One scheduler round: tasks run, then the loop waits for I/O."""
        now[0] += running
        meter.before_io_wait(0)
        now[0] += waiting
        meter.after_io_wait(0)

    assert meter.load() is None  # no window measured yet
    for _ in range(10):
        round_(0.001, 0.009)  # 10% busy
    assert meter.load() is None  # 0.1 s: the window isn't over
    for _ in range(20):
        round_(0.001, 0.009)
    load = meter.load()
    assert load is not None and abs(load - 0.1) < 0.01
    for _ in range(60):
        round_(0.0095, 0.0005)  # 95% busy: a window of only these says so
    load = meter.load()
    assert load is not None and abs(load - 0.95) < 0.01


async def test_trio_drives_the_meter_once_a_round() -> None:
    meter = LoadMeter(window=0.01)
    trio.lowlevel.add_instrument(meter)
    try:
        await trio.sleep(0.05)  # the loop waits for I/O: it is idle
    finally:
        trio.lowlevel.remove_instrument(meter)
    load = meter.load()
    assert meter.idle >= 0.04 and load is not None and load < 0.5


async def test_the_meter_is_in_the_loop_only_while_spectators_wait_and_a_while_after(
    autojump_clock: trio.testing.MockClock
) -> None:
    gate = WatchGate(meter_linger=1.0)
    metered: list[bool] = []

    async def wait() -> None:
        await gate.admit("a")
        metered.append(gate.meter is not None)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(gate.run)
        await trio.testing.wait_all_tasks_blocked()
        assert gate.meter is None  # nobody waits: the loop pays nothing
        for _ in range(3):
            nursery.start_soon(wait)
        await trio.sleep(0.5)
        assert metered == [True, True, True]
        meter = gate.meter
        assert meter is not None  # still there, within its linger
        await trio.sleep(1.0)
        assert gate.meter is None
        with pytest.raises(KeyError):
            trio.lowlevel.remove_instrument(meter)  # taken out of the loop
        nursery.cancel_scope.cancel()


async def test_with_no_busy_interval_joins_are_never_paced_nor_the_loop_metered() -> None:
    gate = WatchGate(busy_interval=0)
    assert not gate._busy() and gate.meter is None


async def test_until_the_meter_has_measured_a_window_the_loop_counts_as_busy() -> None:
    gate = WatchGate()
    assert gate._busy()  # just installed: not known yet, so busy
    meter = gate.meter
    assert meter is not None and meter.load() is None
    gate._remove_meter()
    with pytest.raises(KeyError):
        trio.lowlevel.remove_instrument(meter)
