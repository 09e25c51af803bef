"""The build's identity survives into an installed wheel (an operator's review: every build
said ``manawire 0.1.0``): the wheel build writes ``server/_build.txt`` (``setup.py``, by
:func:`server.build.write_build_file`) -- the commit ``$MANAWIRE_COMMIT`` names (the Docker
build's ``--build-arg``, whose context has no ``.git``), else the one checked out where the
build runs -- and the installed server, with no git to ask, says it (``manawire --version``,
the metrics, /healthz).

One real wheel, the run's (tests/packaging/wheel_build.py: built from a copy of the
project's files, given a commit), proves that the file lands in the wheel and that the
server unpacked from it, where no checkout is, reads it. Which commit a build writes, if any,
is :func:`server.build.write_build_file`'s decision alone (``setup.py`` only calls it): it is
asked here directly, for each way a build is run (a build was ~20 s of CPU a case)."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from server import build
from tests.packaging.wheel_build import GIVEN_COMMIT, Wheel, clean_env


def _version_of(where: Path) -> str:
    """What ``manawire --version`` says from the files in ``where`` alone (an unpacked
    wheel, outside any checkout)."""
    env = {**clean_env(), "PYTHONPATH": str(where)}
    done = subprocess.run([sys.executable, "-c", "import sys\nfrom server.cli import main\n"
                           "sys.exit(main(['--version']))"], cwd=where, env=env,
                          capture_output=True, text=True, timeout=60, check=True)
    return done.stdout


def test_a_wheel_carries_the_commit_its_build_was_given(wheel: Wheel, tmp_path: Path) -> None:
    """``--build-arg MANAWIRE_COMMIT=$(git rev-parse HEAD)``: the wheel keeps the 40
    digits it was given; the server shows 12, as from a checkout (an operator's review).
    Without the file it says its commit is unknown."""
    import server

    assert GIVEN_COMMIT.endswith("+dirty") and len(GIVEN_COMMIT.split("+")[0]) == 40
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel.path) as archive:
        assert archive.read("server/_build.txt").decode() == f"{GIVEN_COMMIT}\n"
        archive.extractall(site)
    assert _version_of(site) == \
        f"manawire {server.__version__} (commit {GIVEN_COMMIT[:12]}+dirty)\n"
    (site / "server" / build.BUILD_FILE).unlink()  # (a wheel built from no checkout)
    assert _version_of(site) == f"manawire {server.__version__} (commit unknown)\n"


@pytest.fixture
def plain(tmp_path: Path) -> Path:
    """A copy of a project with no ``.git`` (the Docker build's context)."""
    root = tmp_path / "plain"
    (root / "server").mkdir(parents=True)
    (root / "server" / "x.py").write_text("x = 1\n")
    return root


def _checkout(root: Path) -> str:
    """Make ``root`` a git checkout of its files; its commit."""
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"}
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "build"]):
        subprocess.run(["git", "-C", str(root), *args], check=True, env=env,
                       capture_output=True, timeout=120)
    return subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], check=True,
                          capture_output=True, text=True, timeout=120).stdout.strip()


@pytest.mark.parametrize(("commit", "shown"), [
    ("0123456789ab", "0123456789ab"),
    ("0123456789ab+dirty", "0123456789ab+dirty"),
    (" 0123456789ab\n", "0123456789ab"),  # (as a shell may pass it)
    (GIVEN_COMMIT, f"{GIVEN_COMMIT[:12]}+dirty"),
], ids=["short", "dirty", "spaced", "full"])
def test_a_build_writes_the_commit_it_was_given(tmp_path: Path, plain: Path, commit: str,
                                                shown: str) -> None:
    lib = tmp_path / "lib"
    written = build.write_build_file(lib, {build.COMMIT_VARIABLE: commit}, plain)
    assert written == lib / "server" / build.BUILD_FILE
    assert written.read_text(encoding="utf-8") == f"{commit.strip()}\n"
    assert build.written_commit(lib / "server") == shown


def test_a_build_in_a_checkout_writes_its_commit_unless_one_is_given(
        tmp_path: Path, plain: Path) -> None:
    head = _checkout(plain)
    lib = tmp_path / "lib"
    written = build.write_build_file(lib, {"PATH": os.environ["PATH"]}, plain)
    assert written is not None and written.read_text(encoding="utf-8") == f"{head[:12]}\n"
    assert build.write_build_file(lib, {build.COMMIT_VARIABLE: "v1.2"}, plain) == written
    assert written.read_text(encoding="utf-8") == "v1.2\n"


def test_a_build_from_no_checkout_writes_nothing(tmp_path: Path, plain: Path) -> None:
    lib = tmp_path / "lib"
    assert build.write_build_file(lib, {build.COMMIT_VARIABLE: "  "}, plain) is None
    assert not lib.exists()
    assert build.written_commit(lib / "server") == ""  # (the server: "commit unknown")


def test_a_commit_that_is_no_commit_stops_the_build(tmp_path: Path, plain: Path) -> None:
    lib = tmp_path / "lib"
    with pytest.raises(SystemExit) as stopped:
        build.write_build_file(lib, {build.COMMIT_VARIABLE: "abc; rm -rf /"}, plain)
    assert str(stopped.value.code).startswith("MANAWIRE_COMMIT='abc; rm -rf /': not a commit")
    assert not lib.exists()
