"""Whether a cost can be paid from the mana a player has and what their sources could add
(601.2g-h, 106.4, 107.4e): :func:`server.engine.mana.affordable` folds sources of several
kinds of mana in one at a time, keeping only the distinct pools the cost could use -- the
same answers as trying every combination of choices, without doubling the work per
two-colour land (a security tester's 21 Dismal Backwaters and a white spell held every
priority decision 9 s)."""

from __future__ import annotations

from itertools import product
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from server.cards.mana import MANA_TYPES, ManaCost
from server.engine import mana
from server.engine.actions import CastSpell
from server.engine.mana import Potential, affordable, can_pay
from server.scenarios.loading import Scenario
from server.scenarios.position import Run


def _every_combination(potential: Potential, cost: ManaCost) -> bool:
    """The old search, the reference: every combination of the sources' choices (and the
    mana abilities that turn mana into other mana, 601.2g, from each). Each pool is tried
    once: many combinations add up to the same pool, and trying the converters' mana
    abilities from a pool is a search of its own."""
    tried: set[tuple[int, ...]] = set()
    for combo in product(*potential.choices):
        pool = list(potential.fixed)
        for m in combo:
            for symbol in m:
                pool[MANA_TYPES.index(symbol)] += 1
        if tuple(pool) in tried:
            continue  # (the same answer as the same pool before)
        tried.add(tuple(pool))
        if can_pay(pool, cost) or (potential.converters
                                   and mana._converted(pool, cost, potential.converters)):
            return True
    return False


_COLOURS = st.sampled_from(MANA_TYPES)
_CHOICE = st.one_of(
    # a two-colour land, a land of any colour (five kinds), a "for each" source (GG or RR),
    # and (for the uneven branch) a source of one mana or two
    st.lists(_COLOURS, min_size=2, max_size=2, unique=True).map(tuple),
    st.just(("W", "U", "B", "R", "G")),
    st.integers(0, 3).map(lambda n: ("G" * n, "R" * n)),
    st.just(("C", "WU")),
)
#: Prismite's "{2}: Add one mana of any color" (605.1a), and one paid with {U}.
_CONVERTERS = st.sampled_from([
    (), ((ManaCost(2), ("W", "U", "B", "R", "G")),),
    ((ManaCost(0, (0, 1, 0, 0, 0, 0)), ("W",)),)])
_HYBRID = st.lists(st.sampled_from(MANA_TYPES[:5]), min_size=2, max_size=2, unique=True)
#: The most coloured, colorless and hybrid symbols a cost has in an example with converters.
CONVERTED_SYMBOLS = 4


@settings(max_examples=150, deadline=None)
@given(fixed=st.lists(st.integers(0, 2), min_size=6, max_size=6),
       choices=st.lists(_CHOICE, max_size=4),
       generic=st.integers(0, 6),
       symbols=st.lists(st.integers(0, 2), min_size=6, max_size=6),
       hybrid=st.lists(_HYBRID, max_size=2),
       converters=_CONVERTERS)
def test_601_2g_affordable_answers_as_every_combination_of_choices_does(
        *, fixed: list[int], choices: list[tuple[str, ...]], generic: int, symbols: list[int],
        hybrid: list[list[str]], converters: tuple[mana.Converter, ...]) -> None:
    # With converters the reference's search (every combination, then the converters'
    # activations from each pool) grows with the cost's symbols: a cost of a dozen took
    # minutes in a rare example. A few symbols reach every kind of case.
    assume(not converters or sum(symbols) + len(hybrid) <= CONVERTED_SYMBOLS)
    potential = Potential(tuple(fixed), tuple(choices), converters)
    cost = ManaCost(generic, (symbols[0], symbols[1], symbols[2], symbols[3], symbols[4],
                              symbols[5]), 0, tuple((h[0], h[1]) for h in hybrid))
    assert affordable(potential, cost) == _every_combination(potential, cost)


def _count_pay_checks(monkeypatch: pytest.MonkeyPatch, limit: int) -> list[int]:
    """Counts :func:`can_pay` calls from :mod:`server.engine.mana` (``[n]``), failing at
    ``limit``: trying combination after combination fails at once, not after hours."""
    calls = [0]
    real = mana.can_pay

    def counted(pool: list[int], cost: ManaCost) -> bool:
        calls[0] += 1
        assert calls[0] < limit, "tried combination after combination"
        return real(pool, cost)

    monkeypatch.setattr(mana, "can_pay", counted)
    return calls


@pytest.fixture
def pay_checks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """:func:`_count_pay_checks`, failing at the thousandth."""
    return _count_pay_checks(monkeypatch, 1_000)


def test_601_2g_forty_two_colour_lands_cost_no_more_than_a_few_pools(
        pay_checks: list[int]) -> None:
    """40 lands of {U} or {B}, a {1}{W} cost they can't pay: a few pools tried, not 2^40."""
    lands = Potential((0,) * 6, (("U", "B"),) * 40)
    assert not affordable(lands, ManaCost.parse("{1}{W}"))
    assert affordable(lands, ManaCost.parse("{U}{U}{B}{B}{30}"))
    assert not affordable(lands, ManaCost.parse("{U}{U}{B}{B}{37}"))
    assert pay_checks[0] < 100


def test_601_2a_a_priority_decision_with_many_two_colour_lands_is_built(
        pay_checks: list[int]) -> None:
    """The security tester's board: 30 Dismal Backwaters untapped, Alpine Watchdog ({2}{W})
    in hand: the first priority decision is built (it took minutes), without the Watchdog."""
    doc = {"name": "thirty duals", "rules": ["601.2a"], "setup": {"players": [
        {"hand": ["Alpine Watchdog"], "battlefield": ["Dismal Backwater"] * 30}, {}]}}
    run = Run(Scenario("thirty duals", ("601.2a",), Path(__file__), 0, doc))
    pending = run.game.pending
    assert pending is not None and pending.seat == 0
    assert not any(isinstance(a, CastSpell) for a in pending.options)


def test_605_1a_a_prismite_and_many_sources_of_several_kinds_cost_few_pools(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Prismite ({2}: one mana of any colour, as often as it is paid), eight sources of any
    colour and eight of {U} or {B}: 8 {W} and 4 more made of the eight others -- 12 {W} at
    most (a code review's case, ten {W} unpayable then, took 44 s): a few pools tried."""
    # (Its search of what to turn into {W} tries a pool at each activation: some 1,200.)
    pay_checks = _count_pay_checks(monkeypatch, 5_000)
    prismite = ((ManaCost(2), ("W", "U", "B", "R", "G")),)
    sources = Potential((0,) * 6, (("W", "U", "B", "R", "G"),) * 8 + (("U", "B"),) * 8, prismite)
    assert not affordable(sources, ManaCost(0, (13, 0, 0, 0, 0, 0)))
    assert affordable(sources, ManaCost(0, (12, 0, 0, 0, 0, 0)))
    assert not affordable(sources, ManaCost(0, (0, 0, 0, 0, 0, 1)))  # ({C}: none makes it)
    assert pay_checks[0] < 5_000
