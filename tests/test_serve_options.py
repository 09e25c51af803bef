"""``manawire serve``'s flags: the limits reach :class:`~server.app.Limits` (docs/limits.md,
"Limits"); a bad port, a data directory that is a file or another server's, a taken port --
and ``account`` with the server down or no password: a plain message and a non-zero exit,
never a traceback."""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from server.app import Limits
from server.cli import lock_data_dir
from server.serve_options import add_serve_options, serve_limits


def _limits(*args: str) -> Limits:
    parser = argparse.ArgumentParser(prog="manawire serve")
    add_serve_options(parser)
    return serve_limits(parser, parser.parse_args(list(args)))


def test_every_limit_flag_sets_its_limit() -> None:
    limits = _limits("--max-replays", "9", "--max-replays-per-address", "2",
                     "--max-rooms-per-address", "5", "--password-check-burst", "3",
                     "--room-burst", "7", "--rooms-per-minute", "1.5",
                     "--outbox-bytes", "65536", "--hello-seconds", "4.5")
    assert (limits.max_replays, limits.max_replays_per_address, limits.max_rooms_per_address,
            limits.password_check_burst, limits.room_burst, limits.rooms_per_minute,
            limits.outbox_bytes, limits.hello_seconds) == (9, 2, 5, 3, 7, 1.5, 65536, 4.5)


def test_the_rate_of_rooms_made_defaults_to_a_burst_of_60_then_30_a_minute() -> None:
    limits = _limits()
    assert (limits.room_burst, limits.rooms_per_minute) == (60, 30.0)


@pytest.mark.parametrize("flag", ["--max-replays", "--max-replays-per-address",
                                  "--room-burst", "--outbox-bytes"])
def test_a_count_limit_below_one_is_a_usage_error(
        flag: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        _limits(flag, "0")
    assert exited.value.code == 2
    assert f"{flag} must be at least 1" in capsys.readouterr().err


@pytest.mark.parametrize("flag", ["--clock-seconds", "--send-timeout", "--hello-seconds",
                                  "--messages-per-second",
                                  "--guests-per-minute", "--password-checks-per-minute",
                                  "--login-window", "--rooms-per-minute"])
def test_a_time_or_rate_that_must_be_positive_names_the_one_flag_given(
        flag: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``--send-timeout 0`` was told "--clock-seconds, --send-timeout, ... must be positive",
    naming five flags; ``--login-window 0`` was taken, counting no failed sign-in (the
    lockout off without a word)."""
    with pytest.raises(SystemExit) as exited:
        _limits(flag, "0")
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert err.rstrip().endswith(f"error: {flag} must be positive"), err


_CLASH_SAID = [
    (("--port", "24618", "--metrics-port", "24618"), "--metrics-port is 24618, as is --port"),
    (("--port", "24618", "--relays", "2", "--relay-port", "24617"),
     "relay 1's port (--relay-port + 1) is 24618, as is --port"),
    (("--port", "0", "--metrics-port", "24620", "--relays", "2", "--relay-port", "24619"),
     "relay 1's port (--relay-port + 1) is 24620, as is --metrics-port"),
]
_CLASHES = [args for args, _said in _CLASH_SAID]

#: Runs ``manawire`` (:func:`server.cli.main`) on each command of ``sys.argv[1]`` (JSON:
#: [argv, {variable: value, or None to unset}]) in this one interpreter, as ``python -m
#: server.cli`` would, each with its own environment changes, standard output and error
#: (the log's handler too: made again by each); prints each one's exit code, output and
#: error (with the traceback of anything it raised).
_MAIN_EACH = r"""
import contextlib, io, json, logging, os, sys, traceback
from server.cli import main
said = []
for argv, changes in json.loads(sys.argv[1]):
    before = {name: os.environ.get(name) for name in changes}
    for name, value in changes.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code
        except BaseException:
            traceback.print_exc()
            code = None
    root = logging.getLogger()
    for handler in root.handlers[:]:
        root.removeHandler(handler)
    for name, value in before.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    said.append([code, out.getvalue(), err.getvalue()])
print(json.dumps(said))
"""


def main_each(commands: list[tuple[list[str], dict[str, str | None]]], *,
              timeout: float = 120, cwd: Path | None = None
              ) -> list[subprocess.CompletedProcess[str]]:
    """``manawire ARGV`` for each (argv, environment changes) of ``commands``, in one
    interpreter: what each exited with (-1: it raised), printed and said on stderr. (Each
    ``manawire`` process spends a second of CPU importing the server before it parses its
    arguments.)"""
    done = subprocess.run([sys.executable, "-c", _MAIN_EACH, json.dumps(commands)],
                          capture_output=True, text=True, timeout=timeout, check=False,
                          stdin=subprocess.DEVNULL, cwd=cwd)
    assert done.returncode == 0, done.stderr
    answers = json.loads(done.stdout.splitlines()[-1])
    return [subprocess.CompletedProcess(argv, -1 if code is None else code, out, err)
            for (argv, _changes), (code, out, err) in zip(commands, answers, strict=True)]


@dataclass
class Usage:
    """The usage errors of the commands below, asked of one interpreter (:func:`main_each`)."""

    tmp: Path
    answers: dict[tuple[str, ...], subprocess.CompletedProcess[str]]

    def said(self, argv: list[str]) -> subprocess.CompletedProcess[str]:
        return self.answers[tuple(argv)]


def _usage_argvs(tmp: Path) -> list[list[str]]:
    serve = ["serve", "--host", "127.0.0.1"]
    return [*([*serve, *args, "--data-dir", str(tmp / f"data-{i}")]
              for i, args in enumerate(_CLASHES)),
            [*serve, "--port", "99999"], [*serve, "--metrics-port", "70000"],
            [*serve, "--relays", "2", "--relay-port", "65535"],
            ["bots", "--timeout", "0"], ["bots", "--url", "http://x"]]


@pytest.fixture(scope="module")
def usage(asked: Asked) -> Usage:
    return asked.usage


@pytest.mark.parametrize(("args", "said"), _CLASH_SAID)
def test_two_of_the_servers_own_listeners_on_one_port_are_refused_up_front(
        usage: Usage, args: tuple[str, ...], said: str) -> None:
    """An operator's --metrics-port equal to --port was told "can't listen on ...: Address
    already in use", as if another program held it."""
    data = usage.tmp / f"data-{_CLASHES.index(args)}"
    done = usage.said(["serve", "--host", "127.0.0.1", *args, "--data-dir", str(data)])
    assert done.returncode == 2, done.stderr
    assert done.stderr.rstrip().endswith(
        f"error: {said}: each of the server's listeners needs a port of its own")
    assert not data.exists()  # (nothing made)


def test_one_port_on_two_addresses_is_no_clash() -> None:
    from server.cli import _port_clash

    assert _port_clash([("--port", "10.0.0.1", 9000),
                        ("--metrics-port", "127.0.0.1", 9000)]) == ""
    assert _port_clash([("--port", "0.0.0.0", 9000),
                        ("--metrics-port", "127.0.0.1", 9000)]) != ""
    assert _port_clash([("--port", "127.0.0.1", 0), ("--relay-port", "127.0.0.1", 0)]) == ""


@dataclass
class Refused:
    """What ``manawire serve`` said where it can't start (all asked of one interpreter,
    :func:`main_each`, each in a data directory of its own): a data directory another
    server holds (``held``), a port another process listens on (``taken_port``, its port),
    a file for a data directory, a relay port another process listens on (``taken_relay``),
    a damaged store."""

    tmp: Path
    port: int
    relay_port: int
    held: subprocess.CompletedProcess[str]
    taken_port: subprocess.CompletedProcess[str]
    file: subprocess.CompletedProcess[str]
    taken_relay: subprocess.CompletedProcess[str]
    damaged: subprocess.CompletedProcess[str]


@dataclass
class Asked:
    """What ``manawire`` said to the usage errors (:class:`Usage`), where serve can't start
    (:class:`Refused`), and ``account`` with the server down or no password given: all
    asked of one interpreter (:func:`main_each`), the usage errors first."""

    usage: Usage
    refused: Refused
    down: subprocess.CompletedProcess[str]
    no_password: subprocess.CompletedProcess[str]


@pytest.fixture(scope="module")
def asked(tmp_path_factory: pytest.TempPathFactory) -> Asked:
    usage_tmp = tmp_path_factory.mktemp("usage")
    usage_argvs = _usage_argvs(usage_tmp)
    tmp = tmp_path_factory.mktemp("refused")
    (tmp / "file").write_text("not a directory")
    (tmp / "bad").mkdir()
    (tmp / "bad" / "manawire.sqlite3").write_bytes(b"not a database at all" * 100)
    serve = ["serve", "--host", "127.0.0.1"]
    with socket.socket() as taken, socket.socket() as taken_relay, socket.socket() as closed:
        for sock in (taken, taken_relay):
            sock.bind(("127.0.0.1", 0))
            sock.listen()
        port, relay_port = taken.getsockname()[1], taken_relay.getsockname()[1]
        closed.bind(("127.0.0.1", 0))
        down_port = closed.getsockname()[1]  # bound, never listening: connections are refused
        unset: dict[str, str | None] = {"MANAWIRE_PASSWORD": None}
        lock = lock_data_dir(tmp / "held")
        try:
            answers = main_each([
                *((argv, {}) for argv in usage_argvs),
                *((argv, {}) for argv in (
                    [*serve, "--port", "0", "--data-dir", str(tmp / "held")],
                    [*serve, "--port", str(port), "--data-dir", str(tmp / "data")],
                    [*serve, "--port", "0", "--data-dir", str(tmp / "file")],
                    [*serve, "--port", "0", "--data-dir", str(tmp / "relayed"), "--relays",
                     "1", "--relay-port", str(relay_port)],
                    [*serve, "--port", "0", "--data-dir", str(tmp / "bad")])),
                (["account", "--url", f"ws://127.0.0.1:{down_port}"], unset),
                (["account", "--url", f"ws://127.0.0.1:{down_port}", "--login", "Zedd"],
                 unset)])
        finally:
            os.close(lock)
    usage_answers = answers[:len(usage_argvs)]
    held, taken_port, file, taken_relay_port, damaged, down, no_password = \
        answers[len(usage_argvs):]
    return Asked(Usage(usage_tmp, {tuple(argv): done for argv, done in
                                   zip(usage_argvs, usage_answers, strict=True)}),
                 Refused(tmp, port, relay_port, held, taken_port, file, taken_relay_port,
                         damaged),
                 down, no_password)


@pytest.fixture(scope="module")
def refused(asked: Asked) -> Refused:
    return asked.refused


def _serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "server.cli", "serve", "--host", "127.0.0.1",
                           *args], capture_output=True, text=True, timeout=60, check=False)


def test_a_data_dir_another_server_holds_is_refused_and_left_alone(refused: Refused) -> None:
    """Two servers on one store would each append the same games' actions: the second one
    stopped with a UNIQUE constraint and the game was aborted for good. The first holds a
    lock on the directory; the second says so and exits, writing nothing."""
    done = refused.held
    assert done.returncode == 1, done.stderr
    assert "is in use by another manawire serve" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (refused.tmp / "held" / "manawire.sqlite3").exists()


def test_a_taken_port_and_a_file_as_data_dir_are_said_plainly(refused: Refused,
                                                              usage: Usage) -> None:
    done, port = refused.taken_port, refused.port
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert f"can't listen on 127.0.0.1:{port}: Address already in use" in done.stderr
    assert done.stdout == ""  # (no `gc {...}` line: a failed start has no figures)
    done = refused.file
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert "is not a directory" in done.stderr
    done = usage.said(["serve", "--host", "127.0.0.1", "--port", "99999"])
    assert done.returncode == 2
    assert "--port, --relay-port and --metrics-port are 0-65535" in done.stderr
    done = usage.said(["serve", "--host", "127.0.0.1", "--metrics-port", "70000"])
    assert done.returncode == 2
    assert "--port, --relay-port and --metrics-port are 0-65535" in done.stderr


def test_account_says_plainly_when_the_server_is_down_or_no_password_is_given(
        asked: Asked) -> None:
    done = asked.down
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert "manawire account: can't connect to the server" in done.stderr
    done = asked.no_password  # (its standard input empty, no terminal)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert "no password: set MANAWIRE_PASSWORD" in done.stderr


def test_a_relay_that_cannot_listen_stops_the_server_before_its_port_opens(
        refused: Refused) -> None:
    """The server said it was listening (and took clients) for the second before the relay
    whose port was taken stopped it; relays now start first."""
    done, relay_port = refused.taken_relay, refused.relay_port
    assert done.returncode == 1, done.stderr
    assert "manawire listening" not in done.stdout
    assert f"relay 0 could not start listening on 127.0.0.1, port {relay_port}" in done.stderr
    assert "Traceback" not in done.stderr.split("manawire serve: relay 0")[-1]


@dataclass
class Served:
    """A server in a new data directory, with two relays: what it printed first."""

    data_dir: Path
    lines: list[str]

    @property
    def url(self) -> str:
        return self.lines[0].split()[3]  # manawire listening on ws://...


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """One server for the tests below (each its own account): a server start is seconds."""
    data_dir = tmp_path_factory.mktemp("served") / "data"
    proc = subprocess.Popen(
        [sys.executable, "-m", "server.cli", "serve", "--host", "127.0.0.1", "--port", "0",
         "--data-dir", str(data_dir), "--relays", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        yield Served(data_dir, [proc.stdout.readline() for _ in range(2)])
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=60)


def test_every_relay_address_is_printed_as_a_url(served: Served) -> None:
    lines = served.lines
    assert lines[0].startswith("manawire listening on ws://127.0.0.1:"), lines
    urls = lines[1].removeprefix("manawire relays listening on ").split(" (")[0].split(", ")
    assert len(urls) == 2 and all(u.startswith("ws://127.0.0.1:") for u in urls), lines


@pytest.mark.parametrize("flag", ["--messages-per-second", "--clock-seconds",
                                  "--spectator-flush-seconds", "--linger-seconds", "--grace",
                                  "--rooms-per-minute"])
@pytest.mark.parametrize("value", ["nan", "inf"])
def test_a_number_option_that_is_not_finite_is_a_usage_error(
        flag: str, value: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``nan`` and ``inf`` parse as floats: they reached the server, which closed every
    connection with 1011 (a rate of nan), dropped every CreateRoom (a clock of nan) or
    stopped (a flush time of nan)."""
    parser = argparse.ArgumentParser(prog="manawire serve")
    add_serve_options(parser)
    with pytest.raises(SystemExit) as exited:
        parser.parse_args([flag, value])
    assert exited.value.code == 2
    assert f"argument {flag}: must be a finite number, got '{value}'" in capsys.readouterr().err


def test_relays_past_port_65535_and_bad_bots_arguments_are_usage_errors(usage: Usage) -> None:
    done = usage.said(["serve", "--host", "127.0.0.1", "--relays", "2", "--relay-port",
                       "65535"])
    assert done.returncode == 2 and "usage: manawire serve" in done.stderr
    assert "--relays 2 from --relay-port 65535 go past port 65535" in done.stderr
    for args, words in ((["--timeout", "0"], "--timeout must be a positive number"),
                        (["--url", "http://x"], "--url http://x: not a WebSocket URL")):
        done = usage.said(["bots", *args])
        assert done.returncode == 2 and words in done.stderr, done.stderr
        assert "usage: manawire bots" in done.stderr


def test_a_damaged_store_is_said_plainly_and_a_new_one_is_for_its_user_only(
        refused: Refused, served: Served) -> None:
    done = refused.damaged
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert "manawire.sqlite3 is not a usable store: file is not a database" in done.stderr
    # A new store (the served one's, made by it) holds every game's secret seed and the
    # password hashes: 0600.
    assert served.lines[0].startswith("manawire listening on ")
    assert (served.data_dir / "manawire.sqlite3").stat().st_mode & 0o777 == 0o600


def test_account_takes_its_token_from_the_environment_out_of_the_process_list(
        served: Served) -> None:
    """``account --token T`` showed the secret to every user's ``ps``; as ``play`` and
    ``watch`` do, ``account`` (and ``bots --join``) read ``$MANAWIRE_TOKEN`` instead."""

    def account(*commands: tuple[list[str], str]) -> list[dict[str, object]]:
        """``manawire account`` with each (arguments, token), in one interpreter:
        ``$MANAWIRE_TOKEN`` set to the token, or unset where it is ""."""
        said = main_each([(["account", "--url", served.url, *args],
                           {"MANAWIRE_TOKEN": token or None}) for args, token in commands],
                         timeout=60)
        for done in said:
            assert done.returncode == 0, done.stderr
        return [dict(json.loads(done.stdout)) for done in said]

    (guest,) = account((["--name", "Ann"], ""))
    assert isinstance(guest["token"], str)
    same, revoked = account(([], guest["token"]), (["--revoke"], guest["token"]))
    assert same["account_id"] == guest["account_id"]
    assert revoked["account_id"] == guest["account_id"]
    assert revoked["token"] != guest["token"]
