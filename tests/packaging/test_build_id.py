"""The build's identity survives into an installed wheel (an operator's review: every build
said ``manawire 0.1.0``): the wheel build writes ``server/_build.txt`` (``setup.py``) -- the
commit ``$MANAWIRE_COMMIT`` names (the Docker build's ``--build-arg``, whose context has no
``.git``), else the one checked out where the build runs -- and the installed server, with
no git to ask, says it (``manawire --version``, the metrics, /healthz).

Each wheel is built from a copy of the project's files, without build isolation (the test
environment's setuptools: no package index needed), and unpacked where no checkout is."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.packaging.test_wheel import ROOT, _clean_env, _source_files

BUILD_SECONDS = 300.0


def _copy(into: Path) -> Path:
    for name in _source_files():
        (into / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, into / name)
    return into


def _wheel(src: Path, out: Path, commit: str | None) -> subprocess.CompletedProcess[str]:
    env = _clean_env()
    env.pop("MANAWIRE_COMMIT", None)
    if commit is not None:
        env["MANAWIRE_COMMIT"] = commit
    return subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                           "--no-build-isolation", "--disable-pip-version-check", "-q",
                           "-w", str(out), str(src)], cwd=src.parent, env=env,
                          capture_output=True, text=True, timeout=BUILD_SECONDS, check=False)


def _version_of(wheel: Path, where: Path) -> str:
    """What ``manawire --version`` says from the wheel's files alone (unpacked into
    ``where``, outside any checkout)."""
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(where)
    env = {**_clean_env(), "PYTHONPATH": str(where)}
    done = subprocess.run([sys.executable, "-c", "import sys\nfrom server.cli import main\n"
                           "sys.exit(main(['--version']))"], cwd=where, env=env,
                          capture_output=True, text=True, timeout=60, check=True)
    return done.stdout


@pytest.mark.parametrize("commit", ["0123456789ab", "0123456789ab+dirty"])
def test_a_wheel_carries_the_commit_its_build_was_given(tmp_path: Path, commit: str) -> None:
    import server

    src = _copy(tmp_path / "src")
    built = _wheel(src, tmp_path / "dist", commit)
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        assert archive.read("server/_build.txt").decode() == f"{commit}\n"
    assert _version_of(wheel, tmp_path / "site") == \
        f"manawire {server.__version__} (commit {commit})\n"


def test_a_full_commit_given_to_the_build_shows_as_12_digits(tmp_path: Path) -> None:
    """``--build-arg MANAWIRE_COMMIT=$(git rev-parse HEAD)``: the wheel keeps the 40
    digits it was given; the server shows 12, as from a checkout (an operator's review)."""
    import server

    full = "0123456789abcdef0123456789abcdef01234567+dirty"
    src = _copy(tmp_path / "src")
    built = _wheel(src, tmp_path / "dist", full)
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    assert _version_of(wheel, tmp_path / "site") == \
        f"manawire {server.__version__} (commit 0123456789ab+dirty)\n"


def test_a_wheel_built_in_a_checkout_carries_its_commit(tmp_path: Path) -> None:
    src = _copy(tmp_path / "src")
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"}
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "build"]):
        subprocess.run(["git", "-C", str(src), *args], check=True, env=env,
                       capture_output=True, timeout=120)
    head = subprocess.run(["git", "-C", str(src), "rev-parse", "HEAD"], check=True,
                          capture_output=True, text=True).stdout.strip()
    built = _wheel(src, tmp_path / "dist", None)
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        assert archive.read("server/_build.txt").decode() == f"{head[:12]}\n"
    assert _version_of(wheel, tmp_path / "site").endswith(f"(commit {head[:12]})\n")


def test_a_wheel_built_from_no_checkout_says_its_commit_is_unknown(tmp_path: Path) -> None:
    src = _copy(tmp_path / "src")
    built = _wheel(src, tmp_path / "dist", None)
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        assert "server/_build.txt" not in archive.namelist()
    assert _version_of(wheel, tmp_path / "site").endswith("(commit unknown)\n")


def test_a_commit_that_is_no_commit_stops_the_build(tmp_path: Path) -> None:
    src = _copy(tmp_path / "src")
    built = _wheel(src, tmp_path / "dist", "abc; rm -rf /")
    assert built.returncode != 0
    assert "MANAWIRE_COMMIT='abc; rm -rf /': not a commit" in built.stderr + built.stdout
