"""Fixtures of the terminal client's tests."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.e2e.restart_harness import ServerProcess
from tests.terminal.pty_driver import REPO


@pytest.fixture
async def fresh_server(tmp_path: Path) -> AsyncIterator[ServerProcess]:
    """A ``manawire serve`` of the test's own (one it restarts, or whose rooms it counts),
    stopped after it."""
    # (Its computer players -- ``play --bot`` -- answer at once: a whole game is played.)
    served = ServerProcess(tmp_path / "server", args=("--computer-seconds", "0.02"))
    try:
        await served.start()
        yield served
    finally:
        await served.aclose()


@dataclass(frozen=True)
class Served:
    url: str


@pytest.fixture(scope="module")
def module_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """One server for a module's tests that need no fresh one (a start costs seconds): each
    of them plays as accounts and in rooms of its own (its saved accounts are in its own
    state directory, tests/conftest.py)."""
    base = tmp_path_factory.mktemp("shared-server")
    with (base / "server.log").open("wb") as log:
        proc = subprocess.Popen([sys.executable, "-m", "server.cli", "serve", "--host",
                                 "127.0.0.1", "--port", "0", "--data-dir", str(base / "data"),
                                 "--computer-seconds", "0.02"],
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=log,
                                cwd=REPO, text=True)
        try:
            assert proc.stdout is not None
            line = proc.stdout.readline()
            assert line.startswith("manawire listening on ws://"), \
                (line, (base / "server.log").read_text(errors="replace")[-2000:])
            yield Served(line.split()[3])
        finally:
            proc.kill()
            proc.communicate(timeout=60)
