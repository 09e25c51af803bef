"""``--soak`` reaches the long tests (tests/soak.py): they read it as they are imported, on
every pytest-xdist worker, and without it they play their sample."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.soak import SOAK_ENV

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(("flags", "expect"), [([], 1), (["--soak"], 2)],
                         ids=["sample", "soak"])
def test_the_soak_flag_sets_the_size_each_worker_reads_at_import(flags: list[str],
                                                                  expect: int) -> None:
    env = {k: v for k, v in os.environ.items() if k != SOAK_ENV}
    env["SOAK_PROBE_EXPECT"] = str(expect)
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=",
         "-n", "1", *flags, "tests/soak_probe.py"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 passed" in run.stdout, run.stdout
