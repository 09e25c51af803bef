"""What the server's log and the terminal's screen leave out: the records ordinary
disconnects make (found by a multiplayer probe: a client stopped for a minute logged
'keepalive ping failed' with a traceback in the server's log, and 'unexpected internal
error' with one over a watcher's screen)."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path

from websockets.exceptions import ConnectionClosedError
from websockets.frames import Close

from server.logs import ordinary_disconnects

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
