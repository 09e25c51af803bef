"""Which build of the server runs: its version and the git commit it was built from, with
``+dirty`` when a tracked file differed from that commit (docs/commands.md, "Command line":
``manawire --version``; also the start's log line, the ``manawire_build_info`` metric and
``/healthz``).

- **From a checkout** (``server/`` at the top of a git work tree) git says it, asked once
  per process.
- **From an installed wheel** (``pip install .``, deploy/Dockerfile) the wheel build wrote
  it beside this module, :data:`BUILD_FILE` (``setup.py``): ``$MANAWIRE_COMMIT`` if set --
  the Docker build's ``--build-arg MANAWIRE_COMMIT=...``, whose context has no ``.git`` --
  else what git said about the checkout built from.
- Otherwise it is ``unknown``. Nothing here ever stops the server: a missing git, a tree git
  won't read (another user's: "dubious ownership"), a slow one (5 s) all mean ``unknown``.

Standard library only, and nothing of the package at import: ``setup.py`` runs this file by
path (``python3 server/build.py`` prints the checkout's commit, for ``--build-arg``)."""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

#: Written into the wheel beside this module by ``setup.py``: one line, the commit.
BUILD_FILE = "_build.txt"
#: The variable a wheel build takes the commit from first (the Docker build's argument).
COMMIT_VARIABLE = "MANAWIRE_COMMIT"
UNKNOWN = "unknown"
#: What a commit may look like (it becomes a metric's label and a log line's words).
COMMIT_SHAPE = re.compile(r"[0-9A-Za-z][0-9A-Za-z._+-]{0,63}")
#: Hex digits of a commit shown (as ``git rev-parse --short=12``, without its lengthening).
SHORT = 12
GIT_SECONDS = 5.0


def _git(root: Path, *args: str) -> str:
    # GIT_OPTIONAL_LOCKS=0: `git status` never writes the index (another git command may be
    # using it); LC_ALL=C: its words are never translated.
    env = {**os.environ, "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C"}
    done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True,
                          timeout=GIT_SECONDS, env=env, stdin=subprocess.DEVNULL, check=True)
    return done.stdout.strip()


def git_commit(root: Path) -> str:
    """The commit checked out at ``root`` (its first :data:`SHORT` hex digits), ``+dirty``
    if a tracked file differs from it; "" unless ``root`` is the top of a git work tree git
    will read (a directory inside another checkout -- a virtual environment's
    site-packages under a checkout -- is not)."""
    try:
        top = _git(root, "rev-parse", "--show-toplevel")
        if not top or Path(top).resolve() != root.resolve():
            return ""
        head = _git(root, "rev-parse", "--verify", "HEAD")[:SHORT]
        changed = _git(root, "status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.SubprocessError, ValueError):
        return ""
    return f"{head}+dirty" if changed else head


#: A commit given as git's hex digits, then anything (``+dirty``).
_HEX_COMMIT = re.compile(rf"([0-9a-f]{{{SHORT}}})[0-9a-f]*(.*)", re.ASCII)


def short(commit: str) -> str:
    """``commit`` as a checkout shows it: a longer hex commit (``MANAWIRE_COMMIT=$(git
    rev-parse HEAD)``'s 40 digits) cut to :data:`SHORT` digits, what follows them kept
    (``+dirty``); any other commit as given."""
    match = _HEX_COMMIT.fullmatch(commit)
    return match.group(1) + match.group(2) if match else commit


def written_commit(here: Path) -> str:
    """The commit a wheel build wrote into ``here`` (the package's directory), "" if none
    (or one of another shape); a hex one as :func:`short` shows it."""
    try:
        text = (here / BUILD_FILE).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return ""
    return short(text) if COMMIT_SHAPE.fullmatch(text) else ""


def wheel_commit(environ: Mapping[str, str], root: Path) -> str:
    """The commit a wheel built from ``root`` names: :data:`COMMIT_VARIABLE` of
    ``environ`` if set, else :func:`git_commit`'s word on ``root``; "" if neither.
    SystemExit (the build stops, saying why) for a given commit not of
    :data:`COMMIT_SHAPE`."""
    given = environ.get(COMMIT_VARIABLE, "").strip()
    if given and not COMMIT_SHAPE.fullmatch(given):
        raise SystemExit(f"{COMMIT_VARIABLE}={given!r}: not a commit (letters, digits and "
                         f". _ + -, at most 64)")
    return given or git_commit(root)


def write_build_file(build_lib: Path, environ: Mapping[str, str], root: Path) -> Path | None:
    """What ``setup.py`` adds to a wheel built from ``root``: :data:`BUILD_FILE` in
    ``build_lib``'s ``server/``, the line :func:`wheel_commit` says; no file (None) where
    it says nothing."""
    commit = wheel_commit(environ, root)
    if not commit:
        return None
    target = build_lib / "server" / BUILD_FILE
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(f"{commit}\n", encoding="utf-8")
    return target


@functools.cache
def commit() -> str:
    """The commit this server was built from (see the module), or ``unknown``."""
    here = Path(__file__).resolve().parent
    return git_commit(here.parent) or written_commit(here) or UNKNOWN


def describe() -> str:
    """The build as people read it: ``0.1.0 (commit 75de63e9a6b9)``, ``0.1.0 (commit
    75de63e9a6b9+dirty)``, ``0.1.0 (commit unknown)``."""
    import server

    return f"{server.__version__} (commit {commit()})"


if __name__ == "__main__":  # python3 server/build.py: the checkout's commit, for --build-arg
    print(git_commit(Path(__file__).resolve().parents[1]) or UNKNOWN)
    sys.exit(0)
