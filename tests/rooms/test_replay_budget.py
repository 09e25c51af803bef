"""The replays' share of the event loop (:class:`server.rooms.replaying.ReplayBudget`):
together at most ``share`` of the time, one at a time, in turn -- so replays played as fast
as possible can't hold up the games (architecture: no client can stall another room)."""

from __future__ import annotations

import pytest
import trio
import trio.testing

from server.rooms.replaying import ReplayBudget


class WorkClock:
    """The budget's work clock, moved by hand: a turn's work takes what a test says."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def test_replays_together_take_at_most_their_share_of_the_time_in_turn(
        autojump_clock: trio.testing.MockClock) -> None:
    work = WorkClock()
    budget = ReplayBudget(share=0.25, burst=0.01, work_clock=work)
    order: list[int] = []
    start = trio.current_time()

    async def replay(n: int) -> None:
        for _ in range(40):
            async with budget.turn():
                order.append(n)
                work.now += 0.002  # a slice of 2 ms of work
            await trio.lowlevel.checkpoint()

    async with trio.open_nursery() as nursery:
        for n in range(6):
            nursery.start_soon(replay, n)
    elapsed = trio.current_time() - start
    assert budget.spent == pytest.approx(6 * 40 * 0.002)
    # 0.48 s of work at a quarter of the time: ~1.9 s (less the first burst and the last
    # slice, charged once it is done).
    assert elapsed >= (budget.spent - 0.01 - 0.002) / 0.25 - 1e-9
    assert elapsed <= (budget.spent + 0.002) / 0.25 + 0.01
    # In turn: no replay works twice before every other has had its turn.
    for window in range(0, len(order) - 6, 6):
        assert sorted(order[window:window + 6]) == list(range(6)), order[window:window + 6]


async def test_a_lone_replay_after_a_quiet_spell_works_at_once_up_to_the_burst(
        autojump_clock: trio.testing.MockClock) -> None:
    work = WorkClock()
    budget = ReplayBudget(share=0.25, burst=0.01, work_clock=work)
    start = trio.current_time()
    for _ in range(5):
        async with budget.turn():
            work.now += 0.002
    assert trio.current_time() == start  # 10 ms of work: within the burst, no wait
    async with budget.turn():  # the bucket is empty: the next turn waits for a refill
        work.now += 0.002
    async with budget.turn():
        pass
    assert trio.current_time() - start == pytest.approx(0.002 / 0.25)


def test_a_budget_needs_a_share_of_the_time_and_a_burst() -> None:
    for share, burst in ((0.0, 0.01), (1.5, 0.01), (0.25, 0.0)):
        with pytest.raises(ValueError, match="share"):
            ReplayBudget(share=share, burst=burst)
