"""What the server's log and the terminal's screen leave out: the records ordinary
disconnects make (found by a multiplayer probe: a client stopped for a minute logged
'keepalive ping failed' with a traceback in the server's log, and 'unexpected internal
error' with one over a watcher's screen)."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosedError
from websockets.frames import Close

from server.logs import LEVEL_VARIABLE, ordinary_disconnects

ROOT = Path(__file__).resolve().parents[1]


def _record(name: str, msg: str, exc: BaseException | None) -> logging.LogRecord:
    return logging.LogRecord(name, logging.ERROR, __file__, 1, msg, (),
                             (type(exc), exc, None) if exc is not None else None)


def test_a_keepalive_timeout_closing_a_silent_client_is_no_error_line() -> None:
    timeout = ConnectionClosedError(None, Close(1011, "keepalive ping timeout"))
    assert not ordinary_disconnects(_record("websockets.server", "keepalive ping failed",
                                            timeout))
    # Anything else is logged as ever: another failure of the keepalive, another record.
    assert ordinary_disconnects(_record("websockets.server", "keepalive ping failed",
                                        RuntimeError("bug")))
    assert ordinary_disconnects(_record("websockets.server", "unexpected internal error",
                                        timeout))
    assert ordinary_disconnects(_record("manawire", "keepalive ping failed", timeout))


def test_the_terminal_clients_send_library_log_records_nowhere() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "from client_sdk.cli import screen_logs; screen_logs(); "
         "import logging; logging.getLogger('websockets.client').error('over the screen')"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    # (without it, Python's last-resort handler prints it)
    done = subprocess.run(
        [sys.executable, "-c", "import logging; "
         "logging.getLogger('websockets.client').error('over the screen')"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
    assert "over the screen" in done.stderr


# ---- how much it says: serve --log-level (an operator's review: there was no way to choose)

def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != LEVEL_VARIABLE}
    return {**env, **extra}


def _serve_briefly(data_dir: Path, *flags: str, env: dict[str, str] | None = None,
                   while_up: Callable[[subprocess.Popen[str]], None] | None = None) -> str:
    """Start ``manawire serve`` with ``flags``, wait until it listens (and run
    ``while_up``), stop it with SIGTERM; its standard error."""
    proc = subprocess.Popen([sys.executable, "-m", "server.cli", "serve", "--port", "0",
                             "--data-dir", str(data_dir), *flags],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env if env is not None else _env())
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("manawire listening on "), line + proc.communicate()[1]
        if while_up is not None:
            while_up(proc)
    finally:
        proc.send_signal(signal.SIGTERM)
        _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    return err


def _levels(err: str) -> set[str]:
    """The levels of the log lines (``date time LEVEL message``)."""
    return {fields[2] for line in err.splitlines()
            if len(fields := line.split(" ", 3)) > 2 and fields[2].isupper()}


def test_serve_logs_info_and_up_by_default(tmp_path: Path) -> None:
    err = _serve_briefly(tmp_path / "data")
    assert "INFO" in _levels(err) and " INFO manawire " in err, err


def test_a_stop_by_sigterm_ends_the_log_with_a_stopped_line(tmp_path: Path) -> None:
    """An operator's review: the log said "SIGTERM: stopping ..." and nothing once it had
    stopped (whether the store took the last writes)."""
    lines = _serve_briefly(tmp_path / "data").splitlines()
    assert " INFO SIGTERM: stopping " in lines[-2], lines
    assert lines[-1].endswith(" INFO stopped: every write is committed to the "
                              "store; games go on after a restart"), lines


def test_serve_log_level_warning_leaves_the_info_lines_out(tmp_path: Path) -> None:
    err = _serve_briefly(tmp_path / "data", "--log-level", "WARNING")
    assert _levels(err) <= {"WARNING", "ERROR", "CRITICAL"}, err
    err = _serve_briefly(tmp_path / "data", env=_env(**{LEVEL_VARIABLE: "error"}))
    assert "INFO" not in _levels(err), err
    # (the flag over the variable)
    err = _serve_briefly(tmp_path / "data", "--log-level", "info",
                         env=_env(**{LEVEL_VARIABLE: "error"}))
    assert "INFO" in _levels(err), err


def test_serve_refuses_a_log_level_that_is_none_saying_which_are() -> None:
    done = subprocess.run([sys.executable, "-m", "server.cli", "serve", "--log-level",
                           "verbose"], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          check=False, env=_env())
    assert done.returncode == 2
    assert ("argument --log-level: 'verbose' is not a log level: give one of debug, info, "
            "warning, error") in done.stderr
    done = subprocess.run([sys.executable, "-m", "server.cli", "serve"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, check=False,
                          env=_env(**{LEVEL_VARIABLE: "loud"}))
    assert done.returncode == 2
    assert f"${LEVEL_VARIABLE}: 'loud' is not a log level" in done.stderr


def test_debug_shows_the_servers_debug_records_but_no_line_per_connection() -> None:
    script = ("import logging\nfrom server import logs\nlogs.configure(level='debug')\n"
              "logging.getLogger('manawire').debug('ours')\n"
              "logging.getLogger('websockets.server').info('a connection')\n"
              "logging.getLogger('websockets.server').warning('theirs')\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, check=True, env=_env())
    assert " DEBUG ours" in done.stderr and " WARNING theirs" in done.stderr
    assert "a connection" not in done.stderr


def test_the_relays_log_from_the_servers_level(tmp_path: Path) -> None:
    """The relay processes configure their log themselves: they inherit the level through
    the environment serve gives them."""
    seen: list[str] = []

    def relays_level(proc: subprocess.Popen[str]) -> None:
        children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
        if not children.exists():
            pytest.skip("no /proc/PID/task/PID/children here")
        for pid in children.read_text().split():
            environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
            seen.extend(v.decode().partition("=")[2] for v in environ
                        if v.startswith(f"{LEVEL_VARIABLE}=".encode()))

    _serve_briefly(tmp_path / "data", "--relays", "1", "--log-level", "error",
                   while_up=relays_level)
    assert seen == ["error"]
