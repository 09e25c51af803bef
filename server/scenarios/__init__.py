"""Declarative rules scenarios: set up a position, script every choice, assert the outcome.

The format is documented in ``tests/scenarios/README.md``. A scenario runs in *strict* mode:
each script step must answer the decision that is actually pending (the right seat, one of the
legal options); anything unexpected fails the scenario with a message saying what was pending.
Used by ``manawire scenario PATH...`` and by the test suite.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from server.scenarios.expect import check_expectations, check_start_rejected
from server.scenarios.loading import (
    Scenario,
    ScenarioError,
    ScenarioFailure,
    StartRejected,
    load_scenarios,
)
from server.scenarios.position import Run
from server.scenarios.steps import do_step

__all__ = [
    "Scenario",
    "ScenarioError",
    "ScenarioFailure",
    "load_scenarios",
    "run_all",
    "run_scenario",
]


def run_scenario(scenario: Scenario) -> None:
    """Run one scenario; raises :class:`ScenarioFailure` or :class:`ScenarioError`."""
    try:
        run = Run(scenario)
    except StartRejected as rejected:  # rule 103 refused: nothing to script or check
        check_start_rejected(scenario, rejected.reason)
        return
    for index, step in enumerate(scenario.data.get("script", []) or []):
        if not isinstance(step, dict):
            raise run.error(f"step {index + 1}: a step is a mapping, got {step!r}")
        do_step(run, step, index)
    if "expect" in scenario.data:
        check_expectations(run, scenario.data["expect"])


def run_all(paths: Sequence[Path]) -> tuple[int, list[str]]:
    """Run every scenario under ``paths``: (number passed, failure messages)."""
    passed, failures = 0, []
    for scenario in load_scenarios(paths):
        try:
            run_scenario(scenario)
        except (ScenarioFailure, ScenarioError) as exc:
            failures.append(str(exc))
        else:
            passed += 1
    return passed, failures
