"""Fixtures of the terminal client's tests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.restart_harness import ServerProcess


@pytest.fixture
async def fresh_server(tmp_path: Path) -> AsyncIterator[ServerProcess]:
    """A ``manawire serve`` of the test's own (one it restarts, or whose rooms it counts or
    rematches), stopped after it."""
    # (Its computer players -- ``play --bot`` -- answer at once: a whole game is played.)
    served = ServerProcess(tmp_path / "server", args=("--computer-seconds", "0.02"))
    try:
        await served.start()
        yield served
    finally:
        await served.aclose()
