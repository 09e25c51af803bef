"""Test-suite options.

``--soak`` (or the environment variable ``MANAWIRE_SOAK=1``; ``make soak``): play the full
random-game soak of ``tests/engine/test_simulation.py`` (1,000 games). Without it the same
test plays a fixed sample of those games (the first tenth of each batch, the same seeds
every run), so the default run stays fast.

Every test keeps ``manawire play``'s saved accounts (:mod:`client_sdk.saved`) in a
directory of its own, never the user's: a test's guest never plays as another's.
"""

from __future__ import annotations

import os

import pytest

from client_sdk.saved import STATE_ENV

SOAK_ENV = "MANAWIRE_SOAK"


@pytest.fixture(autouse=True)
def _saved_accounts_apart(tmp_path_factory: pytest.TempPathFactory,
                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(STATE_ENV, str(tmp_path_factory.mktemp("state")))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--soak", action="store_true", default=False,
                     help="play the full 1,000-game random soak (tests/engine/"
                          f"test_simulation.py); same as {SOAK_ENV}=1")


@pytest.fixture
def soak(request: pytest.FixtureRequest) -> bool:
    """Whether the full soak was asked for (``--soak`` or ``MANAWIRE_SOAK=1``)."""
    return bool(request.config.getoption("--soak")) or \
        os.environ.get(SOAK_ENV, "") not in ("", "0")
