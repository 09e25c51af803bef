"""The built wheel is all an installed server has (deploy/Dockerfile installs one), so it must
hold every file the packages read at run time (card data, demo decks) or ship (py.typed, stubs,
.proto).

Takes the run's wheel (built once, from a copy of the project's files:
tests/packaging/wheel_build.py), compares its file list with the source packages, installs it
into a clean virtual environment (dependencies from the package index) and plays a game of
the test environment's SDK bots against that environment's ``manawire serve``, started
outside the repository so that nothing comes from the source tree.
"""

from __future__ import annotations

import fnmatch
import json
import re
import signal
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import trio

from client_sdk.bots import Summary, run_bot_games
from tests.packaging.wheel_build import GIVEN_COMMIT, ROOT, Wheel, clean_env

#: Bounds of each step; a normal run takes well under a minute all told.
VENV_SECONDS = 120.0
INSTALL_SECONDS = 300.0  # the wheel's dependencies come from the package index
PROBE_SECONDS = 60.0
STARTUP_SECONDS = 30.0
GAME_SECONDS = 120.0
STOP_SECONDS = 30.0


@dataclass(frozen=True)
class Installed:
    venv: Path
    env: dict[str, str]

    def bin(self, name: str) -> Path:
        return self.venv / "bin" / name


def _run(cmd: list[str], timeout: float, cwd: Path, env: dict[str, str] | None = None
         ) -> subprocess.CompletedProcess[str]:
    """Run ``cmd`` to the end (killed after ``timeout`` seconds); fail with its output unless
    it exits with 0."""
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout, check=False)
    assert done.returncode == 0, (f"{cmd} exited with {done.returncode}\n"
                                  f"stdout:\n{done.stdout}\nstderr:\n{done.stderr}")
    return done


def _package_patterns() -> list[str]:
    """The package name patterns of ``[tool.setuptools.packages.find]``."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns: list[str] = config["tool"]["setuptools"]["packages"]["find"]["include"]
    return patterns


def _package_files(sources: tuple[str, ...]) -> list[str]:
    """The source files that belong to a package the wheel ships (any folder under a package
    is one: namespace packages), Markdown aside (for readers of the repository)."""
    patterns = _package_patterns()

    def shipped(name: str) -> bool:
        package = ".".join(name.split("/")[:-1])
        return (bool(package) and not name.endswith(".md")
                and any(fnmatch.fnmatchcase(package, p) for p in patterns))

    return [n for n in sources if shipped(n)]


@pytest.fixture(scope="module")
def installed(wheel: Wheel, tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """A fresh virtual environment (no system site packages) with the wheel installed.

    It gets no pip of its own (installing one, ``ensurepip``, took ~10 s): this
    environment's pip installs into it with ``--python``, which runs pip under the new
    environment's interpreter, as its own pip would."""
    base = tmp_path_factory.mktemp("venv")
    venv = base / "venv"
    env = clean_env()
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], VENV_SECONDS, cwd=base,
         env=env)
    result = Installed(venv, env)
    _run([sys.executable, "-m", "pip", "--python", str(result.bin("python")), "install",
          "--disable-pip-version-check", str(wheel.path)], INSTALL_SECONDS, cwd=base, env=env)
    return result


def test_wheel_has_every_file_of_the_packages(wheel: Wheel) -> None:
    expected = _package_files(wheel.sources)
    data = [n for n in expected if not n.endswith(".py")]
    # What the server reads at run time is among them (else this test would prove nothing).
    assert any(n.startswith("server/cards/data/decks/") and n.endswith(".txt") for n in data)
    assert any(n.startswith("server/cards/data/") and n.endswith(".json") for n in data)
    missing = sorted(set(expected) - wheel.files)
    assert not missing, ("files of the packages missing from the wheel (see "
                         f"[tool.setuptools.package-data] in pyproject.toml): {missing}")
    tops = {n.split("/")[0] for n in expected}
    strays = sorted(n for n in wheel.files
                    if n.split("/")[0] not in tops and ".dist-info/" not in n)
    assert not strays, f"the wheel has files outside the packages: {strays}"


def test_installed_packages_come_from_the_environment(installed: Installed, wheel: Wheel,
                                                      tmp_path: Path) -> None:
    config = (installed.venv / "pyvenv.cfg").read_text(encoding="utf-8")
    assert "include-system-site-packages = false" in config
    probe = ("import json, client_sdk, protocol, server, server.cards, server.cli\n"
             "from server import build\n"
             "print(json.dumps({'files': [m.__file__ for m in (client_sdk, protocol, server, "
             "server.cards, server.cli)], 'decks': server.cards.demo_deck_names(), "
             "'build': build.describe()}))")
    done = _run([str(installed.bin("python")), "-c", probe], PROBE_SECONDS, cwd=tmp_path,
                env=installed.env)
    report = json.loads(done.stdout)
    venv = installed.venv.resolve()
    for file in report["files"]:
        assert Path(file).resolve().is_relative_to(venv), f"{file} is not from {venv}"
    decks = sorted(Path(n).stem for n in wheel.sources
                   if n.startswith("server/cards/data/decks/") and n.endswith(".txt"))
    assert report["decks"] == decks
    # The installed server, with no git to ask, says the commit its wheel's build was given
    # (tests/packaging/test_build_id.py), as a checkout shows one (12 hex digits).
    assert report["build"].endswith(f" (commit {GIVEN_COMMIT[:12]}+dirty)"), report


async def _drain(stream: trio.abc.ReceiveStream | None, into: bytearray) -> None:
    assert stream is not None
    async with stream:
        while chunk := await stream.receive_some():
            into += chunk


async def _listening_port(out: bytearray, proc: trio.Process) -> int:
    """The port the server says it listens on (it was started with ``--port 0``: a port
    free a moment before may be another process's by the time it binds); TooSlowError
    after STARTUP_SECONDS."""
    with trio.fail_after(STARTUP_SECONDS):
        while proc.returncode is None:
            found = re.search(rb"listening on ws://127\.0\.0\.1:(\d+)", out)
            if found:
                return int(found.group(1))
            await trio.sleep(0.1)
    raise AssertionError(f"the server exited with {proc.returncode} before listening")


async def _stop(proc: trio.Process) -> int:
    """SIGTERM, then wait up to STOP_SECONDS for the exit (SIGKILL after that); the exit
    code."""
    code: int | None = None
    with trio.CancelScope(shield=True):
        if proc.returncode is None:
            proc.send_signal(signal.SIGTERM)
        with trio.move_on_after(STOP_SECONDS):
            code = await proc.wait()
        if code is None:
            proc.kill()
            code = await proc.wait()
    assert code is not None  # (a shielded scope is never cancelled)
    return code


def _output(out: bytearray, err: bytearray) -> str:
    return (f"server stdout:\n{out.decode(errors='replace')}\n"
            f"server stderr:\n{err.decode(errors='replace')}")


def _alarming(err: str) -> Iterator[str]:
    """Lines of the server's stderr that are not INFO log lines (tracebacks, warnings,
    WARNING and ERROR records)."""
    for line in err.splitlines():
        fields = line.split(" ", 3)
        if len(fields) < 3 or fields[2] != "INFO":
            yield line


async def test_installed_server_plays_a_game_and_stops_cleanly(
    installed: Installed, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    port = 0
    data_dir = tmp_path / "data"
    cmd = [str(installed.bin("manawire")), "serve", "--host", "127.0.0.1", "--port", "0",
           "--data-dir", str(data_dir)]
    out, err = bytearray(), bytearray()
    summary: Summary | None = None
    code: int | None = None
    try:
        async with trio.open_nursery() as nursery:
            proc = await trio.lowlevel.open_process(
                cmd, cwd=tmp_path, env=installed.env, stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            nursery.start_soon(_drain, proc.stdout, out)
            nursery.start_soon(_drain, proc.stderr, err)
            try:
                port = await _listening_port(out, proc)
                # The test environment's SDK bots (never raises: failures are counted).
                summary = await run_bot_games(f"ws://127.0.0.1:{port}", 1, 2, seed=1,
                                              game_seconds=GAME_SECONDS)
            finally:
                code = await _stop(proc)
    except Exception as exc:
        exc.add_note(_output(out, err))
        raise
    bots = capsys.readouterr().out
    assert summary is not None
    assert (summary.completed, summary.errors) == (1, 0), f"{summary}\n{bots}\n{_output(out, err)}"
    assert summary.actions > 0
    assert code == 0, f"the server exited with {code} after SIGTERM\n{_output(out, err)}"
    assert f"listening on ws://127.0.0.1:{port}" in out.decode(), _output(out, err)
    alarming = list(_alarming(err.decode(errors="replace")))
    assert not alarming, f"the server's stderr: {alarming}\n{_output(out, err)}"
    assert (data_dir / "manawire.sqlite3").is_file()
