"""The command line when whoever reads its output stops early (``manawire replay ... | head``):
it stops quietly, without a traceback."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from server import cli


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


def test_a_broken_pipe_inside_a_nursery_ends_as_quietly(monkeypatch: pytest.MonkeyPatch) -> None:
    """A trio nursery's task that wrote to a closed pipe raises its BrokenPipeError in an
    exception group; ``main`` ends quietly then too (and anything else still raises)."""
    def piped(_argv: list[str] | None) -> int:
        raise ExceptionGroup("nursery", [BrokenPipeError()])

    def failed(_argv: list[str] | None) -> int:
        raise ExceptionGroup("nursery", [BrokenPipeError(), KeyError("x")])

    saved = os.dup(sys.stdout.fileno())  # main points standard output at /dev/null
    try:
        monkeypatch.setattr(cli, "_main", piped)
        assert cli.main([]) == 1
        monkeypatch.setattr(cli, "_main", failed)
        with pytest.raises(ExceptionGroup) as raised:
            cli.main([])
        assert raised.group_contains(KeyError) and not raised.group_contains(BrokenPipeError)
    finally:
        os.dup2(saved, sys.stdout.fileno())
        os.close(saved)
