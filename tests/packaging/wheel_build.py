"""The project's wheel, built once per test run for every packaging test that reads one
(``tests/packaging/conftest.py``'s ``wheel``): a build is ~20 s of CPU, and it was made seven
times (test_wheel.py once, test_build_id.py six times).

It is built from a copy of the project's files (a copy, so that a stale ``build/`` of the
work tree can neither hide a missing file nor be left behind), in an isolated build
environment (pyproject.toml's ``[build-system]``, from the package index), with the commit
:data:`GIVEN_COMMIT` given to it as the Docker build gives one (``$MANAWIRE_COMMIT``).

pytest-xdist's workers are processes of their own: the first to need the wheel builds it in
the run's directory (their base directories' parent), holding a lock; the others wait on the
lock and take it. Nothing changes the wheel once built (its readers unpack or install it)."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUILD_SECONDS = 300.0  # the isolated build environment comes from the package index
#: What the shared wheel's build is given (``--build-arg MANAWIRE_COMMIT=$(git rev-parse
#: HEAD)`` of a dirty tree): 40 hex digits, ``+dirty``.
GIVEN_COMMIT = "0123456789abcdef0123456789abcdef01234567+dirty"
#: What a source walk skips when the project is not a git work tree (caches, build output).
_NOT_SOURCE = {".git", ".venv", "build", "dist", "var", "__pycache__", ".mypy_cache",
               ".ruff_cache", ".pytest_cache", ".hypothesis"}
#: Variables that would let a subprocess import something other than the installed wheel.
_IMPORT_VARIABLES = ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONUSERBASE",
                     "VIRTUAL_ENV")


@dataclass(frozen=True)
class Wheel:
    path: Path
    #: The wheel's file names, and the project's (relative to ROOT, as in the wheel: "/").
    files: frozenset[str]
    sources: tuple[str, ...]


def clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in _IMPORT_VARIABLES}


def source_files() -> list[str]:
    """The project's files: those git has or would add (tracked or new and not ignored, and
    still there); without git, every file but caches and build output."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT, capture_output=True, timeout=60, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        found = []
        for folder, dirs, files in os.walk(ROOT):
            dirs[:] = [d for d in dirs if d not in _NOT_SOURCE and not d.endswith(".egg-info")]
            rel = Path(folder).relative_to(ROOT)
            found += [(rel / f).as_posix() for f in files if not f.endswith(".pyc")]
        return sorted(found)
    names = (n for n in listed.decode().split("\0") if n)
    return sorted(n for n in names if (ROOT / n).is_file())


def _build(base: Path) -> None:
    """Copy the project's files to ``base/src`` and build its wheel into ``base/dist``;
    ``base/sources.json`` (the files copied) is written last: the mark of a finished build."""
    src, out = base / "src", base / "dist"
    shutil.rmtree(src, ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    sources = source_files()
    for name in sources:
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, src / name)
    env = {**clean_env(), "MANAWIRE_COMMIT": GIVEN_COMMIT}
    cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--disable-pip-version-check",
           "-w", str(out), str(src)]
    done = subprocess.run(cmd, cwd=base, env=env, capture_output=True, text=True,
                          timeout=BUILD_SECONDS, check=False)
    assert done.returncode == 0, (f"{cmd} exited with {done.returncode}\n"
                                  f"stdout:\n{done.stdout}\nstderr:\n{done.stderr}")
    (base / "sources.json").write_text(json.dumps(sources), encoding="utf-8")


def shared_wheel(tmp_path_factory: pytest.TempPathFactory) -> Wheel:
    """The run's wheel: built by the first process that asks, under a lock."""
    run = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        run = run.parent  # (each worker's base directory is in the run's)
    base = run / "manawire-wheel"
    base.mkdir(exist_ok=True)
    with (base / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (base / "sources.json").is_file():
            _build(base)
        sources = tuple(json.loads((base / "sources.json").read_text(encoding="utf-8")))
    (path,) = (base / "dist").glob("*.whl")
    with zipfile.ZipFile(path) as archive:
        files = frozenset(archive.namelist())
    return Wheel(path, files, sources)
