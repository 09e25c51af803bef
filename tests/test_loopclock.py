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


def test_a_working_loops_clock_is_quick_again_once_its_average_share_is_past_the_line() -> None:
    fake = Fake()
    c = clock(fake)
    for _ in range(6):
        fake.spend(c.sleep, 0.0)
        c.tick()
    assert c.sleep == IDLE_SECONDS
    fake.spend(c.sleep, 0.5)  # working: a 0.1 s interval at half a core
    assert c.tick() == 0.005 and c.load > IDLE_SHARE


def test_a_loop_working_in_bursts_keeps_its_clock_quick() -> None:
    """Games go in bursts: of four 5 ms intervals one holds an action (40% of a core), the
    others none -- 10% on average. Each interval alone looked idle, and the clock slowed
    down at 100 paced rooms (a third of the collections), at 500 too (15% fewer)."""
    fake = Fake()
    c = clock(fake)
    for _ in range(40):  # working steadily first
        fake.spend(c.sleep, 0.5)
        c.tick()
    sleeps = []
    for n in range(400):  # 2 s of bursts
        fake.spend(c.sleep, 0.4 if n % 4 == 0 else 0.0)
        sleeps.append(c.tick())
    assert set(sleeps) == {0.005}, sorted(set(sleeps))
    # Then idle: within half a second the average is under the line, and the clock slows.
    for _ in range(100):
        fake.spend(c.sleep, 0.0)
        c.tick()
        if c.sleep == IDLE_SECONDS:
            break
    assert c.sleep == IDLE_SECONDS and fake.now < 2.0 + 0.6 + 0.2


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
