"""A countered spell is said to be countered (rule 701.6a; 2009: 701.5a), by what, and for
"counter ... unless its controller pays {N}" (118.12a) the cost and whether its controller
declined it or couldn't pay (118.3): a new player saw only "Your Shock moved from the stack to
your graveyard" after Miscast resolved."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from server.engine.events import Countered, ZoneChanged
from server.engine.state import Zone
from server.scenarios import Scenario
from server.scenarios.position import Run
from server.scenarios.steps import do_step


def _run(pool: str, script: list[dict[str, Any]]) -> Run:
    data = {"setup": {"players": [{"mana_pool": pool, "hand": ["Shock"]},
                                  {"mana_pool": "UUU", "hand": ["Miscast", "Cancel"]}]},
            "script": script}
    run = Run(Scenario("countered", (), Path("countered.yaml"), 1, data))
    for index, step in enumerate(script):
        do_step(run, step, index)
    return run


_MISCAST: list[dict[str, Any]] = [
    {"cast": "Shock"}, {"target_player": 1}, {"pay": "R"}, {"pass": 1}, {"cast": "Miscast"},
    {"target": "Shock"}, {"pay": True}, {"pass": 2}]


def _shock_and(run: Run) -> tuple[Countered, str]:
    countered = [e for e in run.last_events if isinstance(e, Countered)]
    assert len(countered) == 1
    moved = [e for e in run.last_events if isinstance(e, ZoneChanged)
             and e.old_id == countered[0].object_id]
    assert moved and moved[0].to_zone is Zone.GRAVEYARD and moved[0].card.name == "Shock"
    assert run.last_events.index(countered[0]) < run.last_events.index(moved[0])
    return countered[0], moved[0].card.name


def test_701_6a_118_3_a_spell_whose_controller_cant_pay_is_countered_by_miscast() -> None:
    run = _run("RR", _MISCAST)
    event, _name = _shock_and(run)
    assert event.controller == 0 and event.unless_cost == "{3}" and not event.declined
    miscast = [e for e in run.last_events if isinstance(e, ZoneChanged)
               and e.card.name == "Miscast"]
    assert miscast and miscast[0].old_id == event.by_id


def test_701_6a_118_12a_a_spell_whose_controller_declines_to_pay_is_countered() -> None:
    run = _run("RRRR", [*_MISCAST, {"decline": True, "seat": 0}])
    event, _name = _shock_and(run)
    assert event.controller == 0 and event.unless_cost == "{3}" and event.declined
    assert event.by_id  # Miscast, still resolving as its controller declined


def test_701_6a_a_plain_counterspell_names_no_cost() -> None:
    script: list[dict[str, Any]] = [
        {"cast": "Shock"}, {"target_player": 1}, {"pay": "R"}, {"pass": 1}, {"cast": "Cancel"},
        {"target": "Shock"}, {"pay": True}, {"pass": 2}]
    run = _run("R", script)
    event, _name = _shock_and(run)
    assert (event.unless_cost, event.declined) == ("", False) and event.by_id


def test_118_12a_a_paid_cost_counters_nothing() -> None:
    run = _run("RRRR", [*_MISCAST, {"pay": "RRR", "seat": 0}])
    assert not [e for e in run.last_events if isinstance(e, Countered)]
