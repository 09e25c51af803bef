"""The event loop's housekeeping clock (server/loopclock.py): quick while the loop works,
slowing down while it idles."""

from __future__ import annotations

from server.loopclock import IDLE_SECONDS, IDLE_SHARE, LoopClock


class Fake:
    """A thread's CPU clock and a wall clock the test moves."""

    def __init__(self) -> None:
        self.cpu = 0.0
        self.now = 0.0

    def spend(self, wall: float, share: float) -> None:
        self.now += wall
        self.cpu += wall * share


def clock(fake: Fake, seconds: float = 0.005) -> LoopClock:
    return LoopClock(seconds, cpu=lambda: fake.cpu, now=lambda: fake.now)


def test_an_idle_loops_clock_doubles_its_sleep_up_to_the_idle_seconds() -> None:
    fake = Fake()
    c = clock(fake)
    sleeps = []
    for _ in range(8):
        fake.spend(c.sleep, 0.01)
        sleeps.append(c.tick())
    assert sleeps == [0.01, 0.02, 0.04, 0.08, IDLE_SECONDS, IDLE_SECONDS, IDLE_SECONDS,
                      IDLE_SECONDS]
    assert abs(c.share - 0.01) < 1e-9 and abs(c.elapsed - IDLE_SECONDS) < 1e-9


def test_a_working_loops_clock_is_quick_again_at_its_first_tick() -> None:
    fake = Fake()
    c = clock(fake)
    for _ in range(6):
        fake.spend(c.sleep, 0.0)
        c.tick()
    assert c.sleep == IDLE_SECONDS
    fake.spend(c.sleep, IDLE_SHARE)  # at the line: working
    assert c.tick() == 0.005
    fake.spend(c.sleep, IDLE_SHARE * 0.99)  # just under it: idle
    assert c.tick() == 0.01


def test_no_time_between_two_ticks_counts_as_working() -> None:
    """(A clock that didn't move -- an autojump clock while the loop runs -- can't tell.)"""
    fake = Fake()
    c = clock(fake)
    fake.spend(0.0, 0.0)
    assert c.tick() == 0.005 and c.share == 1.0


def test_the_idle_sleep_is_never_shorter_than_the_quick_one() -> None:
    fake = Fake()
    c = LoopClock(0.5, idle_seconds=0.1, cpu=lambda: fake.cpu, now=lambda: fake.now)
    fake.spend(0.5, 0.0)
    assert c.tick() == 0.5
