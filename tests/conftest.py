"""Test-suite options.

``--soak`` (or the environment variable ``MANAWIRE_SOAK=1``; ``make soak``): play the long
randomized tests in full (the 1,000-game random soak, more property examples, more kills of
the restart test; see ``tests/soak.py``). Without it each plays a fixed sample (the same
seeds every run), so the default run stays fast.

Every test keeps ``manawire play``'s saved accounts (:mod:`client_sdk.saved`) in a
directory of its own, never the user's: a test's guest never plays as another's.

Bytecode: where ``PYTHONDONTWRITEBYTECODE`` is set (containers often set it, so that no
``__pycache__`` is left in the tree), every pytest-xdist worker rewrote and compiled every
test module from source (collection: 12 s of CPU each, 5 s with compiled files) and every
server or client the tests start compiled the server's modules again (0.9 s of CPU a start,
0.6 s). The suite writes its compiled files outside the tree instead, in a directory of the
user's own (``$XDG_CACHE_HOME/manawire/pycache``, else ``~/.cache/...``;
``PYTHONPYCACHEPREFIX``), for the workers and every process they start.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from client_sdk.saved import STATE_ENV
from tests.soak import SOAK_ENV, soaking


def _compiled_files_outside_the_tree() -> None:
    if not sys.dont_write_bytecode or sys.pycache_prefix:
        return  # (compiled files are written already, or elsewhere by choice)
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    prefix = cache / "manawire" / "pycache"
    try:
        prefix.mkdir(mode=0o700, parents=True, exist_ok=True)
        mine = prefix.stat().st_uid == os.getuid() and os.access(prefix, os.W_OK)
    except OSError:
        return
    if mine:  # (this process's next imports, then the workers and what they start)
        sys.pycache_prefix = str(prefix)
        sys.dont_write_bytecode = False
        os.environ["PYTHONPYCACHEPREFIX"] = str(prefix)
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


_compiled_files_outside_the_tree()


@pytest.fixture(autouse=True)
def _saved_accounts_apart(tmp_path_factory: pytest.TempPathFactory,
                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(STATE_ENV, str(tmp_path_factory.mktemp("state")))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--soak", action="store_true", default=False,
                     help="play the long randomized tests in full (the 1,000-game random "
                          f"soak, ...: tests/soak.py); same as {SOAK_ENV}=1")


#: The longest tests outside tests/browser, run first (in this order; then the rest, as
#: collected). pytest-xdist's work stealing gives each worker a contiguous share of the
#: collection: the first worker's starts with the browser tests (~350 s of its time), and
#: these, collected after them, were run last -- one worker alone for their 20-25 s at the
#: end of a clean clone's `make test` (a per-test timeline of one run).
RUN_FIRST = (
    "tests/e2e/test_restart.py::test_sigkill_at_random_moments_loses_no_acknowledged_action",
    "tests/e2e/test_restart.py::test_sigterm_mid_game_exits_by_itself_with_1012_and_the_games_go_on",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """:data:`RUN_FIRST` first (a stable sort: every other test keeps its place)."""
    first = {nodeid: rank for rank, nodeid in enumerate(RUN_FIRST)}
    items.sort(key=lambda item: first.get(item.nodeid, len(first)))


def pytest_configure(config: pytest.Config) -> None:
    # Before collection: test modules read the switch as they are imported (and
    # pytest-xdist's workers inherit the environment of the process that starts them).
    if config.getoption("--soak"):
        os.environ[SOAK_ENV] = "1"


@pytest.fixture
def soak() -> bool:
    """Whether the full soak was asked for (``--soak`` or ``MANAWIRE_SOAK=1``)."""
    return soaking()
