"""Run only by tests/test_soak.py (its name keeps the default collection away): checks, at
import time as the long tests read it, that the soak switch is what the run asked for."""

from __future__ import annotations

import os

from tests.soak import depth

SIZE = depth(1, soak=2)


def test_the_size_read_at_import_is_the_one_asked_for() -> None:
    assert int(os.environ["SOAK_PROBE_EXPECT"]) == SIZE
