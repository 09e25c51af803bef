"""No decision lists more than ``MAX_OPTIONS`` ways of a choice whose ways multiply -- every
way to pay a cost from the mana pool (rule 601.2h), to divide an attacker's combat damage
(510.1c, 702.19b): past it the choice is asked in steps, which together reach every way
the whole list held; within it the decision is as before, and a game logged with a whole
answer where the steps are asked now still replays."""

from __future__ import annotations

import random

import pytest

from server.cards.mana import MANA_TYPES, ManaCost
from server.engine import apply, mana
from server.engine import game as game_module
from server.engine.actions import (
    AssignCombatDamage,
    CastSpell,
    ChooseTarget,
    ChooseX,
    DeclareAttacker,
    DeclareBlocker,
    FinishAttackers,
    FinishBlockers,
    PassPriority,
    PayMana,
    action_from_json,
    action_to_json,
)
from server.engine.combat import _divisions, pending_assignment
from server.engine.state import MAX_OPTIONS, DecisionKind, Game, GameObject, Step, Zone
from tests.engine.helpers import demo_game, pass_until, put

# -- paying a cost (601.2h) ---------------------------------------------------------------


def _reach_payments(pool: list[int], cost: ManaCost, prefix: tuple[int, ...] = ()
                    ) -> tuple[set[str], int]:
    """Every whole payment the steps reach from ``prefix``, and the most options a step
    listed."""
    found: set[str] = set()
    most = 0
    todo = [prefix]
    for _ in range(100_000):  # (bounded)
        if not todo:
            break
        steps = mana.payment_steps(pool, cost, todo.pop())
        most = max(most, len(steps))
        for spent, types in steps:
            if types == 0:
                found.add(spent)
            else:
                todo.append(tuple(spent.count(t) for t in MANA_TYPES[:types]))
    return found, most


_COSTS = ("{2}{R}", "{1}{R/G}{R/G}", "{W/U}{B/R}{3}", "{C}{4}", "{G}{G}{W/B}", "{R}{R}")


@pytest.mark.parametrize("seed", range(8))
def test_601_2h_payment_steps_reach_exactly_every_way_to_pay(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(seed)
    for _ in range(40):
        pool = [rng.randint(0, 4) for _ in MANA_TYPES]
        text = rng.choice(_COSTS) + f"{{{rng.randint(0, sum(pool))}}}"
        cost = ManaCost.parse(text)
        every = set(mana.payments(pool, cost))
        assert mana.payment_count(tuple(pool), cost) >= len(every)
        if not cost.hybrid:
            assert mana.payment_count(tuple(pool), cost) == len(every)
        with monkeypatch.context() as m:
            m.setattr(mana, "MAX_OPTIONS", 0)  # always asked in steps
            stepped, most = _reach_payments(pool, cost)
        assert stepped == every, (pool, text)
        assert most <= 5  # one option per amount of one type


def test_601_2h_within_the_bound_every_way_is_listed_as_before() -> None:
    pool, cost = [0, 0, 2, 3, 0, 1], ManaCost.parse("{2}{R}")
    ways = mana.payments(pool, cost)
    assert len(ways) <= MAX_OPTIONS
    assert mana.payment_steps(pool, cost) == [(w, 0) for w in ways]


def test_601_2h_seventy_two_mana_of_six_types_pays_an_x_spell_in_small_steps() -> None:
    """The attacker's case: 12 of each type, {X}{R}{R} with X 35 -- 177,463 ways were
    177,464 options of one decision. Each step lists one option per amount of one type;
    random walks through the steps end in ways to pay."""
    pool, cost = [12] * 6, ManaCost.parse("{35}{R}{R}")
    assert mana.payment_count(tuple(pool), cost) == 177_463
    rng = random.Random(3)
    for _ in range(50):
        prefix: tuple[int, ...] = ()
        for _step in range(len(MANA_TYPES)):
            steps = mana.payment_steps(pool, cost, prefix)
            assert 1 < len(steps) <= 13
            spent, types = rng.choice(steps)
            if not types:
                assert mana.is_payment(pool, cost, spent)
                break
            prefix = tuple(spent.count(t) for t in MANA_TYPES[:types])
        else:
            raise AssertionError("no whole payment after a step per type")
    mana._payments.cache_clear()
    mana.payments([4] * 6, ManaCost.parse("{10}"))  # 2,226 ways: listed, not kept
    assert mana._payments.cache_info().currsize == 0


def test_601_2h_every_way_of_a_bigger_pool_is_reached() -> None:
    pool, cost = [3, 3, 3, 3, 3, 3], ManaCost.parse("{6}{R}{G/W}")
    every = set(mana.payments(pool, cost))
    assert len(every) > MAX_OPTIONS
    found, most = _reach_payments(pool, cost)
    assert found == every and most <= 4


def _geyser(pool: str) -> tuple[Game, int]:
    """Volcanic Geyser ({X}{R}{R}) in hand in a main phase, ``pool`` floating."""
    game = demo_game()
    pass_until(game, Step.PRECOMBAT_MAIN, turn=1)
    seat = game.active
    geyser = put(game, seat, "Volcanic Geyser", Zone.HAND)
    game.player(seat).mana_pool = [pool.count(t) for t in MANA_TYPES]
    game_module._advance(game, [])
    apply(game, seat, CastSpell(geyser.id))
    x = (len(pool) - 2) // 2
    apply(game, seat, ChooseX(x))
    assert game.pending is not None
    target = next(a for a in game.pending.options
                  if isinstance(a, ChooseTarget) and a.player == 1 - seat)
    apply(game, seat, target)
    assert game.pending is not None and game.pending.kind is DecisionKind.PAY_MANA
    return game, seat


def test_601_2h_big_pool_pay_mana_decision_is_bounded_and_steps_finish_the_cast() -> None:
    game, seat = _geyser("".join(t * 12 for t in MANA_TYPES))
    life = game.player(1 - seat).life
    for _ in range(len(MANA_TYPES)):  # (one step per mana type at most)
        pending = game.pending
        assert pending is not None and len(pending.options) <= 14  # 0..12 of a type, Cancel
        if pending.kind is not DecisionKind.PAY_MANA:
            break
        pays = [o for o in pending.options if isinstance(o, PayMana)]
        assert pays, pending.options
        apply(game, seat, pays[-1])
    assert game.casting is None and game.mana_prefix is None  # cast: X 35 on the stack
    assert sum(game.player(seat).mana_pool) == 72 - 37
    assert game.stack
    while game.stack:
        pending = game.pending
        assert pending is not None
        apply(game, pending.seat, pending.options[0])  # (passes: the spell resolves)
    assert game.player(1 - seat).life == life - 35


def test_601_2h_logged_whole_payment_still_applies_where_steps_are_asked() -> None:
    game, seat = _geyser("".join(t * 12 for t in MANA_TYPES))
    pending = game.pending
    assert pending is not None
    whole = PayMana("W" * 12 + "U" * 12 + "B" * 11 + "RR")
    assert whole not in pending.options
    logged = action_from_json({"type": "PayMana", "mana": whole.mana})  # an old log's
    assert action_to_json(logged) == {"type": "PayMana", "mana": whole.mana}
    apply(game, seat, logged)
    assert game.casting is None
    assert game.player(seat).mana_pool == [0, 0, 1, 10, 12, 12]


def test_601_2h_a_payment_that_does_not_pay_is_still_refused() -> None:
    from server.engine.errors import IllegalActionError
    game, seat = _geyser("".join(t * 12 for t in MANA_TYPES))
    with pytest.raises(IllegalActionError):
        apply(game, seat, PayMana("W" * 12 + "U" * 12 + "B" * 12 + "C"))  # no {R}{R}
    with pytest.raises(IllegalActionError):
        apply(game, seat, PayMana("W" * 10))  # too little
    assert game.casting is not None


# -- dividing combat damage (510.1c, 702.19b) -----------------------------------------------


def _blocked(power: int, blockers: int, *, trample: bool = False
             ) -> tuple[Game, GameObject, list[GameObject]]:
    """An attacker of ``power`` blocked by ``blockers`` Walking Corpses (2/2), its damage to
    divide (the combat damage step's decision pending)."""
    game = demo_game()
    pass_until(game, Step.UPKEEP, turn=2)
    seat = 1 - game.active
    attacker = put(game, seat, "Colossal Dreadmaw" if trample else "Onakke Ogre",
                   Zone.BATTLEFIELD)
    attacker.counters["+1/+1"] = power - attacker.power
    corpses = [put(game, 1 - seat, "Walking Corpse", Zone.BATTLEFIELD)
               for _ in range(blockers)]
    pass_until(game, Step.BEGINNING_OF_COMBAT, turn=3)
    apply(game, seat, PassPriority())
    apply(game, 1 - seat, PassPriority())
    apply(game, seat, DeclareAttacker(attacker.id, 1 - seat))
    apply(game, seat, FinishAttackers())
    apply(game, seat, PassPriority())
    apply(game, 1 - seat, PassPriority())
    for corpse in corpses:
        apply(game, 1 - seat, DeclareBlocker(corpse.id, attacker.id))
    apply(game, 1 - seat, FinishBlockers())
    apply(game, seat, PassPriority())
    apply(game, 1 - seat, PassPriority())
    pending = game.pending
    assert pending is not None and pending.kind is DecisionKind.ASSIGN_COMBAT_DAMAGE
    assert attacker.power == power and attacker.has("Trample") == trample
    return game, attacker, corpses


def _reach_divisions(game: Game) -> tuple[set[tuple[tuple[str, int], ...]], int]:
    """Every whole division the steps reach, and the most options a step listed."""
    found: set[tuple[tuple[str, int], ...]] = set()
    most = 0
    todo: list[tuple[tuple[str, int], ...]] = [()]
    for _ in range(100_000):  # (bounded)
        if not todo:
            break
        prefix = todo.pop()
        attacker = next(iter(game.combat.blocked_by))
        game.combat.dividing = {attacker: prefix} if prefix else {}
        pending = pending_assignment(game)
        if pending is None:  # one way left: taken without asking
            found.add(game.combat.assignments.pop(attacker))
            continue
        most = max(most, len(pending[1]))
        for option in pending[1]:
            assert isinstance(option, AssignCombatDamage)
            if option.partial:
                todo.append(option.assignments)
            else:
                found.add(option.assignments)
    game.combat.dividing = {}
    return found, most


def _every_division(game: Game, attacker: GameObject, bears: list[GameObject],
                    trample: bool) -> set[tuple[tuple[str, int], ...]]:
    recipients = [b.id for b in bears] + ([""] if trample else [])
    out = set()
    for split in _divisions(attacker.power, len(recipients)):
        if trample and split[-1] > 0 and any(n < 2 for n in split[:-1]):
            continue  # rule 702.19b
        out.add(tuple(zip(recipients, split, strict=True)))
    return out


def test_510_1c_power_twenty_among_eight_blockers_is_asked_one_blocker_at_a_time() -> None:
    """The attacker's case: 888,030 options in one decision."""
    game, attacker, bears = _blocked(20, 8)
    pending = pending_assignment(game)
    assert pending is not None and len(pending[1]) == 21  # 0..20 to the first Corpse
    assert all(isinstance(o, AssignCombatDamage) and o.partial for o in pending[1])
    seat = attacker.controller
    for amount in (3, 0, 5, 2, 4, 1, 2):  # one step per blocker but the last
        d = game.pending
        assert d is not None and d.kind is DecisionKind.ASSIGN_COMBAT_DAMAGE
        assert len(d.options) <= MAX_OPTIONS
        option = next(o for o in d.options if isinstance(o, AssignCombatDamage)
                      and o.assignments[-1][1] == amount)
        apply(game, seat, option)
    dead = [b for b in bears if b.id not in game.objects]
    assert len(dead) == 6  # 3, 5, 2, 4, 2 and the last one's 3: lethal to six 2/2s
    assert game.combat.damage_dealt


@pytest.mark.parametrize(("power", "blockers", "trample"),
                         [(9, 3, False), (10, 3, True), (12, 4, True), (7, 5, False),
                          (6, 2, True)])
def test_510_1c_702_19b_division_steps_reach_exactly_every_division(
        power: int, blockers: int, trample: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    import server.engine.combat as combat_module
    monkeypatch.setattr(combat_module, "MAX_OPTIONS", 0)  # always asked in steps
    game, attacker, bears = _blocked(power, blockers, trample=trample)
    found, most = _reach_divisions(game)
    assert found == _every_division(game, attacker, bears, trample)
    assert most <= power + 1


def test_510_1c_within_the_bound_one_decision_lists_every_division_as_before() -> None:
    game, attacker, bears = _blocked(7, 2)
    pending = pending_assignment(game)
    assert pending is not None
    assert set(o.assignments for o in pending[1] if isinstance(o, AssignCombatDamage)) == \
        _every_division(game, attacker, bears, False)
    assert not any(isinstance(o, AssignCombatDamage) and o.partial for o in pending[1])


def test_510_1c_logged_whole_division_still_applies_where_steps_are_asked() -> None:
    game, attacker, bears = _blocked(20, 8)
    split = (3, 3, 3, 3, 2, 2, 2, 2)
    logged = action_from_json(action_to_json(AssignCombatDamage(
        attacker.id, tuple((b.id, n) for b, n in zip(bears, split, strict=True)))))
    assert isinstance(logged, AssignCombatDamage)
    assert action_to_json(logged) == {"type": "AssignCombatDamage", "attacker_id": attacker.id,
                                      "assignments": logged.assignments}  # (as logged before)
    pending = game.pending
    assert pending is not None and logged not in pending.options
    apply(game, attacker.controller, logged)
    assert all(b.id not in game.objects for b in bears)


def test_510_1c_a_division_of_the_wrong_total_is_still_refused() -> None:
    from server.engine.errors import IllegalActionError
    game, attacker, bears = _blocked(20, 8)
    with pytest.raises(IllegalActionError):
        apply(game, attacker.controller, AssignCombatDamage(
            attacker.id, tuple((b.id, 3) for b in bears)))  # 24, not 20
    with pytest.raises(IllegalActionError):  # a step not offered: more than there is
        apply(game, attacker.controller, AssignCombatDamage(
            attacker.id, ((bears[0].id, 21),), partial=True))
    # A whole division against the step already taken for the attacker (3 to the first):
    # the answer is to the pending decision alone (code review).
    first = next(o for o in game.pending.options if isinstance(o, AssignCombatDamage)
                 and o.assignments == ((bears[0].id, 3),)) if game.pending else None
    assert first is not None
    apply(game, attacker.controller, first)
    with pytest.raises(IllegalActionError):
        apply(game, attacker.controller, AssignCombatDamage(
            attacker.id, tuple((b.id, n) for b, n in zip(bears, (2, 4, 3, 3, 2, 2, 2, 2),
                                                          strict=True))))


def test_702_19b_trampler_steps_offer_the_player_damage_only_after_lethal_to_all() -> None:
    game, attacker, bears = _blocked(14, 4, trample=True)
    pending = pending_assignment(game)
    assert pending is not None and all(
        isinstance(o, AssignCombatDamage) and o.partial for o in pending[1])
    found, most = _reach_divisions(game)
    assert most <= 15
    assert found == _every_division(game, attacker, bears, True)
    assert any(n > 0 for d in found for r, n in d if r == "")


def test_118_12a_an_unless_cost_from_a_big_pool_is_paid_in_steps_too() -> None:
    """"Counter ... unless its controller pays {30}" with 12 mana of each type floating:
    42,000-odd ways, asked a type at a time; the payment completes."""
    from server.engine.state import Choice
    game, seat = _geyser("".join(t * 12 for t in MANA_TYPES))
    pending = game.pending
    assert pending is not None
    apply(game, seat, PayMana("W" * 12 + "U" * 12 + "B" * 11 + "RR"))  # (whole, as logged)
    spell = game.stack[-1]
    game.player(seat).mana_pool = [12] * 6
    game.choices.append(Choice(DecisionKind.PAY_MANA, seat, [spell], optional=True,
                               unless_cost=ManaCost.parse("{30}")))
    game_module._advance(game, [])
    assert mana.payment_count((12,) * 6, ManaCost.parse("{30}")) > 40_000
    for _ in range(len(MANA_TYPES)):
        pending = game.pending
        assert pending is not None and len(pending.options) <= 14  # 0..12 of a type, Decline
        if pending.kind is not DecisionKind.PAY_MANA:
            break
        apply(game, seat, next(o for o in pending.options if isinstance(o, PayMana)))
    assert not game.choices and spell in game.stack
    assert sum(game.player(seat).mana_pool) == 72 - 30


def test_601_2h_each_step_names_the_type_it_asks_not_the_forced_ones_after_it() -> None:
    """30 {W}, 30 {B} and 12 colorless paying {40}: the first step asks how much {W}. Past
    it, {U} has one possible amount (none) and was counted into the step's ``types`` -- so
    every option's last type was {U}, and all 31 read "Spend no {U}" (a code review's
    finding). Each option's last type is now the one asked, and the options differ in it."""
    pool = [30, 0, 30, 0, 0, 12]
    cost = ManaCost(40)
    steps = mana.payment_steps(pool, cost)
    assert len(steps) > MAX_OPTIONS // 4
    asked = {types for _mana, types in steps}
    assert asked == {1}, asked  # {W}, the first type with a choice
    assert len({m.count("W") for m, _types in steps}) == len(steps)
