"""Every rules scenario under tests/scenarios, loaded once a process.

Parsing the 2,237 documents costs 0.7 s of CPU; ``tests/scenarios/test_scenarios.py`` and
``tests/view/test_scenario_streams.py`` each parsed them as they were collected, in every
pytest-xdist worker. The scenarios are frozen and no run changes one.
"""

from __future__ import annotations

import functools
from pathlib import Path

from server.scenarios import Scenario, load_scenarios

HERE = Path(__file__).parent


@functools.cache
def every_scenario() -> tuple[Scenario, ...]:
    """Every scenario of every file under tests/scenarios (recursively), in file order."""
    return tuple(load_scenarios([HERE]))
