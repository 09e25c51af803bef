"""Per-connection message rate limiting: pure arithmetic on a clock the caller passes in.

Nothing here sleeps, reads a clock or does I/O: every method takes ``now`` (seconds on a
monotonic clock, e.g. :func:`trio.current_time`), so the policy is tested with a fake clock.

The policy (docs/limits.md, "Limits"), for :class:`MessageLimiter` ``(rate, burst, strikes,
forgive_per_second=1.0)``:

* **Rate.** Every client message takes one token from a bucket that holds at most ``burst``
  tokens, starts full and refills continuously at ``rate`` tokens per second. A message that
  finds a token is :attr:`Verdict.ALLOW`-ed. Hence over *any* interval of ``T`` seconds at
  most ``burst + rate * T`` messages are allowed, and a client that never sends more than
  that is never refused (in particular, one sending steadily at ``rate`` or slower).
* **Refusal.** A message that finds the bucket empty is :attr:`Verdict.REFUSE`-d: the caller
  answers it with an error and drops it. Refused messages don't take tokens.
* **Strikes.** Every refused message adds one strike; strikes are forgiven continuously at
  ``forgive_per_second`` (never below zero). Allowed messages do *not* reset them: a flood
  at ten times the rate still gets one message allowed every ``1 / rate`` seconds, and
  resetting on those would mean it is never closed. The over-limit message that brings the
  strikes to ``strikes`` is answered :attr:`Verdict.CLOSE` instead of REFUSE (the caller
  closes the connection, suggested code :data:`CLOSE_POLICY_VIOLATION`), and so is every
  check after it. Equivalently: the ``n``-th over-limit message gets CLOSE iff for some
  ``k <= n``, ``(n - k + 1) - forgive_per_second * (t_n - t_k) >= strikes``, where ``t_i``
  is the time of the ``i``-th over-limit message.

* **Refund.** :meth:`MessageLimiter.refund` gives the token of an allowed message back
  when that message did useful work the client could not have sent sooner (the server
  calls it for an action its room applied), so the bound above counts only the messages
  that were not refunded.

So 1,000 messages at once get ``burst`` ALLOW, then ``strikes - 1`` REFUSE, then CLOSE. A
client refused at an average of ``R > forgive_per_second`` messages per second is closed
after about ``strikes / (R - forgive_per_second)`` seconds; one that goes quiet gets its
bucket back after ``burst / rate`` seconds and its strikes back after
``strikes / forgive_per_second`` seconds.
"""

from __future__ import annotations

import enum
import math

#: RFC 6455 "policy violation": the suggested close code for :attr:`Verdict.CLOSE`.
CLOSE_POLICY_VIOLATION = 1008

#: Token arithmetic slack, so that a client sending at exactly ``rate`` (whose refills sum
#: to 0.9999999999999999 of a token in floating point) is not refused. A token taken with
#: this slack leaves the bucket slightly negative, so the slack never accumulates: over a
#: whole run at most ``_SLACK`` extra tokens are ever granted.
_SLACK = 1e-9


def _check_rate(name: str, value: float) -> None:
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"{name} must be a positive finite number, not {value!r}")


def _check_count(name: str, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be an integer >= 1, not {value!r}")


class TokenBucket:
    """At most ``burst`` tokens, refilled continuously at ``rate`` tokens per second; it
    starts full (the clock starts at the first call). A ``now`` earlier than a previous one
    refills nothing (and doesn't move the bucket's clock back)."""

    __slots__ = ("_last", "_tokens", "burst", "rate")

    def __init__(self, rate: float, burst: int) -> None:
        _check_rate("rate", rate)
        _check_count("burst", burst)
        self.rate = float(rate)
        self.burst = burst
        self._tokens = float(burst)
        self._last: float | None = None

    def _refill(self, now: float) -> None:
        if self._last is None:
            self._last = now
        elif now > self._last:
            self._tokens = min(float(self.burst),
                               self._tokens + (now - self._last) * self.rate)
            self._last = now

    def tokens(self, now: float) -> float:
        """The tokens available at ``now`` (refilling up to then, taking none)."""
        self._refill(now)
        return max(0.0, self._tokens)

    def take(self, now: float) -> bool:
        """Take one token if one is available at ``now``; whether one was."""
        self._refill(now)
        if self._tokens >= 1.0 - _SLACK:
            self._tokens -= 1.0
            return True
        return False

    def give_back(self) -> None:
        """Return one token taken earlier (never above ``burst``)."""
        self._tokens = min(float(self.burst), self._tokens + 1.0)


class AddressBuckets:
    """A :class:`TokenBucket` of ``rate`` and ``burst`` per client address, made at its
    first use; the buckets full again are forgotten (:meth:`forget_full`, and by
    :meth:`bucket` itself as their number doubles), so the table holds only the addresses
    still being limited."""

    __slots__ = ("_buckets", "_prune_at", "burst", "rate")

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self._buckets: dict[str, TokenBucket] = {}
        self._prune_at = 1024

    def bucket(self, address: str, now: float) -> TokenBucket:
        """The bucket of ``address`` (a new, full one the first time)."""
        found = self._buckets.get(address)
        if found is None:
            if len(self._buckets) >= self._prune_at:
                self.forget_full(now)
                self._prune_at = max(1024, 2 * len(self._buckets))
            found = self._buckets[address] = TokenBucket(self.rate, self.burst)
        return found

    def forget_full(self, now: float) -> None:
        """Forget the buckets full again at ``now`` (nothing to remember of them)."""
        for address, bucket in list(self._buckets.items()):
            if bucket.tokens(now) >= bucket.burst:
                del self._buckets[address]

    def __len__(self) -> int:
        return len(self._buckets)


class Verdict(enum.Enum):
    """What to do with one client message (see :class:`MessageLimiter`)."""

    ALLOW = "allow"  #: handle it
    REFUSE = "refuse"  #: over the rate: answer it with an error and drop it
    CLOSE = "close"  #: sustained abuse: close the connection (1008), handle nothing more


class MessageLimiter:
    """One connection's message rate limit; the policy is in this module's docstring.

    ``rate`` (messages per second, > 0), ``burst`` (>= 1) and ``strikes`` (>= 1) are
    ``Limits.messages_per_second``, ``Limits.message_burst`` and ``Limits.rate_strikes``;
    ``forgive_per_second`` (> 0) is how fast strikes are forgiven.
    """

    __slots__ = ("_bucket", "_strikes", "_struck_at", "closed", "forgive_per_second",
                 "strike_limit")

    def __init__(self, rate: float, burst: int, strikes: int, *,
                 forgive_per_second: float = 1.0) -> None:
        _check_count("strikes", strikes)
        _check_rate("forgive_per_second", forgive_per_second)
        self._bucket = TokenBucket(rate, burst)
        self.strike_limit = strikes
        self.forgive_per_second = float(forgive_per_second)
        self._strikes = 0.0
        self._struck_at: float | None = None  # when the strikes were last added
        self.closed = False  # CLOSE was returned; it is returned from now on

    def strikes(self, now: float) -> float:
        """The strikes standing at ``now`` (after forgiveness)."""
        if self._struck_at is None or now <= self._struck_at:
            return self._strikes
        return max(0.0, self._strikes - (now - self._struck_at) * self.forgive_per_second)

    def refund(self) -> None:
        """The last allowed message did useful work the client could not have sent any
        sooner (an action the room applied: a game gives each player a decision only as
        fast as it goes): it gives its token back, so playing as fast as a game goes is
        never limited, while messages that do nothing (refused actions, lobby requests)
        are."""
        self._bucket.give_back()

    def check(self, now: float) -> Verdict:
        """The verdict on one message arriving at ``now``."""
        if self.closed:
            return Verdict.CLOSE
        if self._bucket.take(now):
            return Verdict.ALLOW
        self._strikes = self.strikes(now) + 1.0
        self._struck_at = now if self._struck_at is None else max(self._struck_at, now)
        if self._strikes >= self.strike_limit:
            self.closed = True
            return Verdict.CLOSE
        return Verdict.REFUSE
