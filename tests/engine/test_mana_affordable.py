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
from hypothesis import given, settings
from hypothesis import strategies as st

from server.cards.mana import MANA_TYPES, ManaCost
from server.engine import mana
from server.engine.actions import CastSpell
from server.engine.mana import Potential, affordable, can_pay
from server.scenarios.loading import Scenario
from server.scenarios.position import Run


def _every_combination(potential: Potential, cost: ManaCost) -> bool:
    """The old search, the reference: every combination of the sources' choices."""
    for combo in product(*potential.choices):
        pool = list(potential.fixed)
        for m in combo:
            for symbol in m:
                pool[MANA_TYPES.index(symbol)] += 1
        if can_pay(pool, cost):
            return True
    return False


_COLOURS = st.sampled_from(MANA_TYPES)
_CHOICE = st.one_of(
    # a two-colour land, a land of any colour (five kinds), a "for each" source (GG or RR)
    st.lists(_COLOURS, min_size=2, max_size=2, unique=True).map(tuple),
    st.just(("W", "U", "B", "R", "G")),
    st.integers(0, 3).map(lambda n: ("G" * n, "R" * n)),
)
_HYBRID = st.lists(st.sampled_from(MANA_TYPES[:5]), min_size=2, max_size=2, unique=True)


@settings(max_examples=300, deadline=None)
@given(fixed=st.lists(st.integers(0, 2), min_size=6, max_size=6),
       choices=st.lists(_CHOICE, max_size=7),
       generic=st.integers(0, 6),
       symbols=st.lists(st.integers(0, 2), min_size=6, max_size=6),
       hybrid=st.lists(_HYBRID, max_size=2))
def test_601_2g_affordable_answers_as_every_combination_of_choices_does(
        fixed: list[int], choices: list[tuple[str, ...]], generic: int, symbols: list[int],
        hybrid: list[list[str]]) -> None:
    potential = Potential(tuple(fixed), tuple(choices))
    cost = ManaCost(generic, (symbols[0], symbols[1], symbols[2], symbols[3], symbols[4],
                              symbols[5]), 0, tuple((h[0], h[1]) for h in hybrid))
    assert affordable(potential, cost) == _every_combination(potential, cost)


@pytest.fixture
def pay_checks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts :func:`can_pay` calls from :mod:`server.engine.mana` (``[n]``), failing at the
    thousandth: trying combination after combination fails at once, not after hours."""
    calls = [0]
    real = mana.can_pay

    def counted(pool: list[int], cost: ManaCost) -> bool:
        calls[0] += 1
        assert calls[0] < 1_000, "tried combination after combination"
        return real(pool, cost)

    monkeypatch.setattr(mana, "can_pay", counted)
    return calls


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
