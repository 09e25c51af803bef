"""The command line when whoever reads its output stops early (``manawire replay ... | head``):
it stops quietly, without a traceback."""

from __future__ import annotations

import subprocess
import sys


def test_a_reader_that_stops_early_gets_no_traceback() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "server.cli", "sealed", "--set", "M21",
                             "--seed", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None
    proc.stdout.close()  # before it writes anything: its first write finds no reader
    try:
        _out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert b"Traceback" not in err and b"BrokenPipeError" not in err, err.decode()
    assert proc.returncode == 1
