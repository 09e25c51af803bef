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
from dataclasses import dataclass
from pathlib import Path

import pytest
import trio
import trio.testing
from websockets.exceptions import ConnectionClosedError
from websockets.frames import Close

from server.logs import LEVEL_VARIABLE, ordinary_disconnects
from tests.test_serve_options import main_each

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


@pytest.fixture(scope="module")
def default_log(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The standard error of a ``manawire serve`` with no log flag nor variable, started and
    stopped by SIGTERM: one run for the two tests that read it."""
    return _serve_briefly(tmp_path_factory.mktemp("default-log") / "data")


def test_serve_logs_info_and_up_by_default(default_log: str) -> None:
    err = default_log
    assert "INFO" in _levels(err) and " INFO manawire " in err, err


def test_a_stop_by_sigterm_ends_the_log_with_a_stopped_line(default_log: str) -> None:
    """An operator's review: the log said "SIGTERM: stopping ..." and nothing once it had
    stopped (whether the store took the last writes)."""
    lines = default_log.splitlines()
    assert " INFO SIGTERM: stopping " in lines[-2], lines
    assert lines[-1].endswith(" INFO stopped: every write is committed to the "
                              "store; games go on after a restart"), lines


@dataclass
class WarningLog:
    """A ``manawire serve --relays 1 --log-level WARNING`` started and stopped: its standard
    error, and the level its relay processes were given (None: no /proc to ask)."""

    err: str
    relays: list[str] | None


@pytest.fixture(scope="module")
def warning_log(tmp_path_factory: pytest.TempPathFactory) -> WarningLog:
    """One run for the two tests that read it (a server start is seconds of CPU)."""
    seen: list[str] | None = None

    def relays_level(proc: subprocess.Popen[str]) -> None:
        nonlocal seen
        children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
        if not children.exists():
            return
        seen = []
        for pid in children.read_text().split():
            environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
            seen.extend(v.decode().partition("=")[2] for v in environ
                        if v.startswith(f"{LEVEL_VARIABLE}=".encode()))

    err = _serve_briefly(tmp_path_factory.mktemp("warning-log") / "data", "--relays", "1",
                         "--log-level", "WARNING", while_up=relays_level)
    return WarningLog(err, seen)


def test_serve_log_level_warning_leaves_the_info_lines_out(warning_log: WarningLog,
                                                           tmp_path: Path) -> None:
    err = warning_log.err  # (its relay's lines too)
    assert _levels(err) <= {"WARNING", "ERROR", "CRITICAL"}, err
    err = _serve_briefly(tmp_path / "data", env=_env(**{LEVEL_VARIABLE: "error"}))
    assert "INFO" not in _levels(err), err
    # (the flag over the variable)
    err = _serve_briefly(tmp_path / "data", "--log-level", "info",
                         env=_env(**{LEVEL_VARIABLE: "error"}))
    assert "INFO" in _levels(err), err


def test_serve_refuses_a_log_level_that_is_none_saying_which_are() -> None:
    flag, variable = main_each([(["serve", "--log-level", "verbose"], {LEVEL_VARIABLE: None}),
                                (["serve"], {LEVEL_VARIABLE: "loud"})], cwd=ROOT)
    done = flag
    assert done.returncode == 2
    assert ("argument --log-level: 'verbose' is not a log level: give one of debug, info, "
            "warning, error") in done.stderr
    done = variable
    assert done.returncode == 2
    assert f"${LEVEL_VARIABLE}: 'loud' is not a log level" in done.stderr
    # The variable's error is its one line: the options' usage says nothing about it.
    assert "usage:" in flag.stderr and "usage:" not in done.stderr, done.stderr


def test_debug_shows_the_servers_debug_records_but_no_line_per_connection() -> None:
    script = ("import logging\nfrom server import logs\nlogs.configure(level='debug')\n"
              "logging.getLogger('manawire').debug('ours')\n"
              "logging.getLogger('websockets.server').info('a connection')\n"
              "logging.getLogger('websockets.server').warning('theirs')\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, check=True, env=_env())
    assert " DEBUG ours" in done.stderr and " WARNING theirs" in done.stderr
    assert "a connection" not in done.stderr


def test_the_relays_log_from_the_servers_level(warning_log: WarningLog) -> None:
    """The relay processes configure their log themselves: they inherit the level through
    the environment serve gives them (the flag's, as serve reads it)."""
    if warning_log.relays is None:
        pytest.skip("no /proc/PID/task/PID/children here")
    assert warning_log.relays == ["warning"]


# ---- what the server did: rooms, games and connections (an operator's review: 4 bot
# games, a private room, a registration, 7 failed sign-ins, a wrong invite code and a bad
# token made 3 lines, none about a room or a game)

async def test_a_session_logs_its_rooms_games_and_connections_and_none_of_its_secrets(
        tmp_path: Path, autojump_clock: trio.testing.MockClock,
        caplog: pytest.LogCaptureFixture) -> None:
    from protocol.v1 import messages_pb2 as mpb
    from tests.rooms.test_accounts import _connect, _create, _join
    from tests.rooms.test_app_memory import running_app

    caplog.set_level(logging.DEBUG)
    async with running_app(tmp_path) as app:
        ann, welcome = await _connect(app, "ann")
        token = welcome.welcome.account_token
        await ann.request(register=mpb.Register(name="Ann", password="correct horse"))
        for _ in range(3):
            await _connect(app, login=("Ann", "wrong horse"))
        ann, login = await _connect(app, login=("Ann", "correct horse"))  # (ann's place)
        new_token = (login.resumed.welcome if login.HasField("resumed")
                     else login.welcome).account_token
        await _connect(app, token=token + "x")  # a refused token
        bob, _w = await _connect(app, "bob")
        created = await _create(ann, private=True)
        room_id, code = created.room.room_id, created.invite_code
        assert (await _join(bob, room_id, code="wrong")).error.code == \
            mpb.ERROR_CODE_ROOM_NOT_FOUND  # (a private room: as if none)
        assert (await _join(ann, room_id, code=code)).joined.seat == 0
        assert (await _join(bob, room_id, code=code)).joined.seat == 1
        await trio.testing.wait_all_tasks_blocked()
        names = [m.name for m in app.lobby.hosts[room_id].room.seats if m is not None]
        await bob.to_server.send(mpb.ClientMessage(
            request_id=7, concede=mpb.ConcedeGame()).SerializeToString())
        await trio.sleep(3600)  # (the finished room lingers, then closes)
        assert room_id not in app.lobby.hosts
        await bob.to_server.aclose()  # (the client closes)
        await trio.testing.wait_all_tasks_blocked()
    said = [r.getMessage() for r in caplog.records]
    assert (f"room {room_id} created: 2 seats, constructed, best of 1, private" in said), said
    assert f"room {room_id}: game 1 started: {names[0]!r}, {names[1]!r}" in said
    ended = [line for line in said if line.startswith(f"room {room_id}: game 1 ended: ")]
    assert len(ended) == 1 and ended[0].startswith(
        f"room {room_id}: game 1 ended: {names[0]!r} won ("), ended
    assert f"room {room_id} closed: its game is over" in said
    opened = [line for line in said if line.startswith("connection ") and " opened from " in line]
    assert len(opened) >= 7
    assert [line for line in said if line.startswith("connection ") and " closed " in line]
    refused = [line for line in said if line.startswith("connection ") and " refused: " in line]
    assert len([line for line in refused if "ERROR_CODE_UNAUTHENTICATED" in line]) == 4
    assert [line for line in refused if "ERROR_CODE_ROOM_NOT_FOUND (no room '" in line
            and "(a private room takes its invite code)" in line]
    # Nothing per action, nor per message.
    assert not [line for line in said if "action" in line.lower() and "room" not in line]
    secrets = [token, new_token, "correct horse", "wrong horse", code]
    logged = caplog.text + "".join(repr(r.args) for r in caplog.records)
    assert all(s and s not in logged for s in secrets)
