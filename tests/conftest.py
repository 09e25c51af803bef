"""Test-suite options.

``--soak`` (or the environment variable ``MANAWIRE_SOAK=1``; ``make soak``): play the long
randomized tests in full (the 1,000-game random soak, more property examples, more kills of
the restart test; see ``tests/soak.py``). Without it each plays a fixed sample (the same
seeds every run), so the default run stays fast.

Every test keeps ``manawire play``'s saved accounts (:mod:`client_sdk.saved`) in a
directory of its own, never the user's: a test's guest never plays as another's.
"""

from __future__ import annotations

import os

import pytest

from client_sdk.saved import STATE_ENV
from tests.soak import SOAK_ENV, soaking


@pytest.fixture(autouse=True)
def _saved_accounts_apart(tmp_path_factory: pytest.TempPathFactory,
                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(STATE_ENV, str(tmp_path_factory.mktemp("state")))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--soak", action="store_true", default=False,
                     help="play the long randomized tests in full (the 1,000-game random "
                          f"soak, ...: tests/soak.py); same as {SOAK_ENV}=1")


def pytest_configure(config: pytest.Config) -> None:
    # Before collection: test modules read the switch as they are imported (and
    # pytest-xdist's workers inherit the environment of the process that starts them).
    if config.getoption("--soak"):
        os.environ[SOAK_ENV] = "1"


@pytest.fixture
def soak() -> bool:
    """Whether the full soak was asked for (``--soak`` or ``MANAWIRE_SOAK=1``)."""
    return soaking()
