"""server.ratelimit: the token bucket and the per-connection message policy, on a fake clock."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from server.ratelimit import (
    CLOSE_POLICY_VIOLATION,
    AddressBuckets,
    MessageLimiter,
    TokenBucket,
    Verdict,
)

A, R, C = Verdict.ALLOW, Verdict.REFUSE, Verdict.CLOSE
T0 = 1000.0  # an arbitrary start on the fake monotonic clock


# ---- TokenBucket
def test_bucket_starts_full_and_allows_exactly_burst_at_once() -> None:
    bucket = TokenBucket(rate=20.0, burst=60)
    assert [bucket.take(T0) for _ in range(61)] == [True] * 60 + [False]
    assert bucket.tokens(T0) == 0.0


def test_refill_arithmetic() -> None:
    bucket = TokenBucket(rate=4.0, burst=10)
    for _ in range(10):
        assert bucket.take(T0)
    assert bucket.tokens(T0 + 0.125) == pytest.approx(0.5)
    assert not bucket.take(T0 + 0.125)  # half a token is not a token
    assert bucket.tokens(T0 + 0.25) == pytest.approx(1.0)
    assert bucket.take(T0 + 0.25)
    assert bucket.tokens(T0 + 0.25) == pytest.approx(0.0, abs=1e-9)
    assert bucket.tokens(T0 + 1.25) == pytest.approx(4.0)
    assert bucket.tokens(T0 + 100.0) == 10.0  # capped at burst
    assert [bucket.take(T0 + 100.0) for _ in range(11)] == [True] * 10 + [False]


def test_clock_going_back_refills_nothing() -> None:
    bucket = TokenBucket(rate=1.0, burst=1)
    assert bucket.take(T0)
    assert not bucket.take(T0 - 5.0)
    assert not bucket.take(T0 + 0.5)  # the clock was not moved back to T0 - 5
    assert bucket.take(T0 + 1.0)


@pytest.mark.parametrize(("rate", "burst"), [(20.0, 60), (20.0, 1), (3.0, 1), (7.0, 2),
                                             (0.1, 1), (1000.0, 1)])
def test_sending_at_exactly_the_rate_is_never_refused(rate: float, burst: int) -> None:
    bucket = TokenBucket(rate, burst)
    for i in range(5000):
        assert bucket.take(T0 + i / rate), i


@pytest.mark.parametrize(("rate", "burst"), [(0.0, 1), (-1.0, 1), (math.inf, 1),
                                             (math.nan, 1), (1.0, 0), (1.0, -3)])
def test_bucket_rejects_bad_parameters(rate: float, burst: int) -> None:
    with pytest.raises(ValueError, match="must be"):
        TokenBucket(rate, burst)


def _allowed_bound_holds(rate: float, burst: int, times: list[float],
                         allowed: list[bool]) -> None:
    """Over every run of consecutive messages, allowed <= burst + rate * elapsed."""
    for i in range(len(times)):
        count = 0
        for j in range(i, len(times)):
            count += allowed[j]
            assert count <= burst + rate * (times[j] - times[i]) + 1e-6, (i, j)


@settings(max_examples=300, deadline=None)
@given(rate=st.floats(0.05, 500.0), burst=st.integers(1, 80),
       gaps=st.lists(st.floats(0.0, 2.0), min_size=1, max_size=150))
def test_property_never_more_than_burst_plus_rate_times_elapsed(
        rate: float, burst: int, gaps: list[float]) -> None:
    bucket = TokenBucket(rate, burst)
    times = list(itertools.accumulate(gaps, initial=T0))[1:]
    allowed = [bucket.take(t) for t in times]
    _allowed_bound_holds(rate, burst, times, allowed)


@settings(max_examples=300, deadline=None)
@given(rate=st.floats(0.05, 500.0), burst=st.integers(1, 80),
       gaps=st.lists(st.floats(0.0, 2.0), min_size=1, max_size=150))
def test_property_a_client_within_its_budget_is_never_refused(
        rate: float, burst: int, gaps: list[float]) -> None:
    """The converse: a client that only sends when the bound leaves room is always allowed
    (the bucket never refuses a message it could have allowed)."""
    bucket = TokenBucket(rate, burst)
    sent: list[float] = []
    for t in itertools.accumulate(gaps, initial=T0):
        # Sending at t keeps every run ending at t within burst + rate * elapsed (with a
        # margin, so that float rounding in the check can't decide it)?
        if all(len(sent) - i + 1 <= burst + rate * (t - s) - 1e-6
               for i, s in enumerate(sent)):
            assert bucket.take(t)
            sent.append(t)


# ---- MessageLimiter
def test_suggested_close_code_is_policy_violation() -> None:
    assert CLOSE_POLICY_VIOLATION == 1008  # RFC 6455


def test_a_thousand_messages_at_once() -> None:
    limiter = MessageLimiter(20.0, 60, 200)
    verdicts = [limiter.check(T0) for _ in range(1000)]
    assert verdicts == [A] * 60 + [R] * 199 + [C] * 741
    assert limiter.closed


def test_close_is_final() -> None:
    limiter = MessageLimiter(1.0, 1, 2)
    assert [limiter.check(T0) for _ in range(3)] == [A, R, C]
    assert limiter.check(T0 + 1e6) is C  # even after a long idle


def test_steady_rate_is_never_refused() -> None:
    limiter = MessageLimiter(20.0, 60, 200)
    for i in range(20 * 600):  # ten minutes at exactly 20 per second
        assert limiter.check(T0 + i / 20) is A
    # ... and neither is a full burst on top, once the bucket has refilled.
    t = T0 + 700.0
    assert [limiter.check(t) for _ in range(60)] == [A] * 60


def test_recovery_after_idle() -> None:
    limiter = MessageLimiter(20.0, 60, 200)
    assert [limiter.check(T0) for _ in range(100)] == [A] * 60 + [R] * 40
    assert limiter.strikes(T0) == 40.0
    # 3 s later: the bucket is full again (60 / 20 s), 37 strikes are still standing.
    t = T0 + 3.0
    assert limiter.strikes(t) == pytest.approx(37.0)
    assert [limiter.check(t) for _ in range(61)] == [A] * 60 + [R]
    assert limiter.strikes(t) == pytest.approx(38.0)
    # After 38 s of quiet every strike is forgiven: a fresh flood gets the full allowance.
    t += 38.0
    assert limiter.strikes(t) == 0.0
    assert [limiter.check(t) for _ in range(260)] == [A] * 60 + [R] * 199 + [C]


def test_allowed_messages_do_not_reset_strikes() -> None:
    """A flood at 10x the rate gets an allowed message every 1/rate seconds; it is closed
    all the same (a policy that reset strikes on every allowed message never would)."""
    limiter = MessageLimiter(20.0, 60, 200)
    verdicts = []
    for i in itertools.count():
        verdict = limiter.check(T0 + i / 200)
        verdicts.append(verdict)
        if verdict is C:
            break
    assert verdicts[:60] == [A] * 60
    assert A in verdicts[60:]  # it was allowed a message now and then
    # The bucket runs dry after 1/3 s (200t = 60 + 20t); strikes then grow at 180 - 1 per
    # second, so about 1.1 s later the 200th net strike closes it: 199 refusals plus the
    # one or two forgiven meanwhile.
    assert 199 < verdicts.count(R) <= 202
    assert 1.3 < len(verdicts) / 200 < 1.6


def test_slightly_over_the_rate_is_forgiven() -> None:
    """Over the rate by less than the forgiveness (1 per second): refused now and then, but
    never closed."""
    limiter = MessageLimiter(20.0, 60, 200)
    verdicts = [limiter.check(T0 + i / 20.5) for i in range(20 * 3600)]  # an hour
    assert C not in verdicts
    assert R in verdicts


def test_forgiveness_is_configurable() -> None:
    limiter = MessageLimiter(1.0, 1, 3, forgive_per_second=0.5)
    assert [limiter.check(T0) for _ in range(3)] == [A, R, R]  # 2 strikes
    assert limiter.strikes(T0 + 2.0) == pytest.approx(1.0)
    assert limiter.check(T0 + 2.0) is A  # a token came back
    assert limiter.check(T0 + 2.0) is R  # 2 strikes
    assert limiter.check(T0 + 2.0) is C  # 3


@pytest.mark.parametrize("kwargs", [{"strikes": 0}, {"rate": 0.0}, {"burst": 0},
                                    {"forgive_per_second": 0.0}])
def test_limiter_rejects_bad_parameters(kwargs: dict[str, float]) -> None:
    args: dict[str, float] = {"rate": 20.0, "burst": 60, "strikes": 200}
    args.update(kwargs)
    forgive = args.pop("forgive_per_second", 1.0)
    with pytest.raises(ValueError, match="must be"):
        MessageLimiter(args["rate"], int(args["burst"]), int(args["strikes"]),
                       forgive_per_second=forgive)


@settings(max_examples=300, deadline=None)
@given(rate=st.floats(0.5, 100.0), burst=st.integers(1, 20), strikes=st.integers(1, 30),
       forgive=st.floats(0.1, 10.0),
       gaps=st.lists(st.floats(0.0, 0.5), min_size=1, max_size=200))
def test_property_policy_matches_its_definition(rate: float, burst: int, strikes: int,
                                                forgive: float, gaps: list[float]) -> None:
    """Against a brute-force reading of the docstring: a token bucket decides ALLOW; the
    n-th over-limit message is CLOSE iff (n - k + 1) - forgive * (t_n - t_k) >= strikes for
    some k <= n; CLOSE is final."""
    limiter = MessageLimiter(rate, burst, strikes, forgive_per_second=forgive)
    bucket = TokenBucket(rate, burst)
    over: list[float] = []  # times of the over-limit messages so far
    closed = False
    for t in itertools.accumulate(gaps, initial=T0):
        verdict = limiter.check(t)
        if closed:
            assert verdict is C
            continue
        if bucket.take(t):
            assert verdict is A
            continue
        over.append(t)
        n = len(over)
        worst = max((n - k) - forgive * (t - over[k]) for k in range(n))
        assume(abs(worst - strikes) > 1e-6)  # float rounding may decide a tie either way
        expected = C if worst >= strikes else R
        assert verdict is expected
        closed = verdict is C


def test_refunded_messages_never_run_the_bucket_dry() -> None:
    """An action the room applied gives its token back: a bot playing as fast as its game
    goes (thousands of actions at once) is never refused; a flood of useless ones is."""
    limiter = MessageLimiter(rate=20, burst=60, strikes=200)
    for _ in range(5000):
        assert limiter.check(0.0) is Verdict.ALLOW
        limiter.refund()
    verdicts = [limiter.check(0.0) for _ in range(100)]
    assert verdicts.count(Verdict.ALLOW) == 60 and verdicts[-1] is Verdict.REFUSE


def test_a_refund_never_fills_the_bucket_past_its_burst() -> None:
    bucket = TokenBucket(rate=1, burst=3)
    for _ in range(10):
        bucket.give_back()
    assert [bucket.take(0.0) for _ in range(4)] == [True, True, True, False]


def test_address_buckets_make_one_per_address_and_forget_the_full_ones() -> None:
    buckets = AddressBuckets(1.0, 2)
    first = buckets.bucket("203.0.113.5", 0.0)
    assert first.take(0.0) and first.take(0.0) and not first.take(0.0)
    assert buckets.bucket("203.0.113.5", 0.5) is first  # the same address: its bucket
    assert buckets.bucket("198.51.100.7", 0.5) is not first and len(buckets) == 2
    buckets.forget_full(0.5)  # the new one is full: forgotten; the spent one is kept
    assert len(buckets) == 1 and buckets.bucket("203.0.113.5", 0.5) is first
    buckets.forget_full(2.5)  # refilled by now
    assert len(buckets) == 0
