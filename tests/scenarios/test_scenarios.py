"""Run every rules scenario under tests/scenarios (format: tests/scenarios/README.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.scenarios import Scenario, run_scenario
from tests.scenarios.every import every_scenario

HERE = Path(__file__).parent
SCENARIOS = list(every_scenario())


@pytest.mark.parametrize(
    "scenario", SCENARIOS,
    ids=[f"{s.path.relative_to(HERE)}#{s.index}-{'-'.join(s.rules)}" for s in SCENARIOS],
)
def test_scenario(scenario: Scenario) -> None:
    run_scenario(scenario)
