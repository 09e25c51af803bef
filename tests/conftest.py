"""Test-suite options.

``--soak`` (or the environment variable ``MANAWIRE_SOAK=1``; ``make soak``): play the full
random-game soak of ``tests/engine/test_simulation.py`` (1,000 games). Without it the same
test plays a fixed sample of those games (the first tenth of each batch, the same seeds
every run), so the default run stays fast.
"""

from __future__ import annotations

import os

import pytest

SOAK_ENV = "MANAWIRE_SOAK"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--soak", action="store_true", default=False,
                     help="play the full 1,000-game random soak (tests/engine/"
                          f"test_simulation.py); same as {SOAK_ENV}=1")


@pytest.fixture
def soak(request: pytest.FixtureRequest) -> bool:
    """Whether the full soak was asked for (``--soak`` or ``MANAWIRE_SOAK=1``)."""
    return bool(request.config.getoption("--soak")) or \
        os.environ.get(SOAK_ENV, "") not in ("", "0")
