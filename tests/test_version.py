"""``manawire --version`` and the one version number: the package's (pyproject.toml) is the
server's (``server.__version__``, which ``Welcome.server_version`` and the metrics'
``manawire_build_info`` report).

An operator's review: every build said ``manawire 0.1.0``, whatever commit it ran. The build
names its git commit too (``server.build``), ``+dirty`` when a tracked file differs from it;
git's absence, or a tree it won't read, says ``unknown`` and never stops anything.
(tests/packaging/test_build_id.py: the commit an installed wheel carries.)"""

from __future__ import annotations

import os
import re
import subprocess
import tomllib
from pathlib import Path

import pytest

import server
from server import build
from server.cli import main

ROOT = Path(__file__).resolve().parents[1]


def test_version_prints_the_servers_version_and_commit(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert out == f"manawire {server.__version__} (commit {build.commit()})\n"
    assert re.fullmatch(r"manawire \S+ \(commit ([0-9a-f]{12}(\+dirty)?|unknown)\)\n", out)


def test_the_package_and_the_server_have_one_version() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["version"] == server.__version__


def _git(root: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"}
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True,
                          check=True, env=env).stdout.strip()


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    root = tmp_path / "checkout"
    (root / "server").mkdir(parents=True)
    (root / "server" / "x.py").write_text("x = 1\n")
    _git(root, "init", "-q")
    _git(root, "add", "server/x.py")
    _git(root, "commit", "-q", "-m", "one")
    return root


def test_a_checkout_says_its_commit_and_whether_a_tracked_file_differs(checkout: Path) -> None:
    head = _git(checkout, "rev-parse", "HEAD")
    assert build.git_commit(checkout) == head[:12]
    (checkout / "notes.txt").write_text("untracked\n")  # (not part of the build)
    assert build.git_commit(checkout) == head[:12]
    (checkout / "server" / "x.py").write_text("x = 2\n")
    assert build.git_commit(checkout) == f"{head[:12]}+dirty"


def test_only_the_top_of_a_work_tree_is_a_checkout(checkout: Path, tmp_path: Path) -> None:
    """A package under a checkout's directory that isn't the checkout's (a virtual
    environment's site-packages in it) is not that commit's build."""
    assert build.git_commit(checkout / "server") == ""
    plain = tmp_path / "plain"
    plain.mkdir()
    assert build.git_commit(plain) == ""


def test_without_git_the_commit_is_unknown_and_nothing_fails(
        checkout: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    assert build.git_commit(checkout) == ""


def test_an_installed_build_reads_the_commit_its_wheel_build_wrote(tmp_path: Path) -> None:
    assert build.written_commit(tmp_path) == ""
    (tmp_path / build.BUILD_FILE).write_text("0123456789ab+dirty\n")
    assert build.written_commit(tmp_path) == "0123456789ab+dirty"
    (tmp_path / build.BUILD_FILE).write_text("not a commit {}\n")
    assert build.written_commit(tmp_path) == ""


def test_a_full_hex_commit_given_to_the_build_shows_as_a_checkout_shows_it(
        tmp_path: Path) -> None:
    """``MANAWIRE_COMMIT=$(git rev-parse HEAD)``: 40 digits, shown as 12 (as a checkout
    shows its commit), ``+dirty`` kept; a commit of another shape as given."""
    full = "0123456789abcdef0123456789abcdef01234567"
    for written, shown in [(full, "0123456789ab"), (f"{full}+dirty", "0123456789ab+dirty"),
                           ("0123456789ab", "0123456789ab"), ("v0.1.0-rc1", "v0.1.0-rc1"),
                           ("0123abc", "0123abc")]:
        (tmp_path / build.BUILD_FILE).write_text(written + "\n", encoding="utf-8")
        assert build.written_commit(tmp_path) == shown


def test_this_checkouts_server_names_this_checkouts_commit() -> None:
    if not build.git_commit(ROOT):
        pytest.skip("not run from a git checkout git will read")
    build.commit.cache_clear()  # (asked once per process: this tree may have moved since)
    assert build.commit() == build.git_commit(ROOT)
    assert build.describe() == f"{server.__version__} (commit {build.commit()})"
