"""A client command starts at once: ``manawire play``, ``watch``, ``bots``, ``account`` ...
never import the server's app (its ``Limits`` are only serve's options' defaults; importing
it took ~0.6 s of CPU in every such process). ``serve --help`` still lists those options."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

PROBE = """
import contextlib, io, sys
from server import cli
for argv in ({commands!r}):
    with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
        cli.main(argv)
print("server.app" in sys.modules)
"""


def _imports_the_app(*commands: list[str]) -> bool:
    done = subprocess.run([sys.executable, "-c", PROBE.format(commands=commands)],
                          capture_output=True, text=True, cwd=REPO, timeout=120, check=True)
    return done.stdout.strip().splitlines()[-1] == "True"


def test_client_commands_never_import_the_servers_app() -> None:
    assert not _imports_the_app(["play", "--help"], ["watch", "--help"],
                                ["account", "--help"], ["bots", "--help"], ["--help"])


def test_serve_help_still_lists_the_limits() -> None:
    done = subprocess.run([sys.executable, "-m", "server.cli", "serve", "--help"],
                          capture_output=True, text=True, cwd=REPO, timeout=120, check=True)
    assert "--max-rooms-per-address" in done.stdout and "--max-game-actions" in done.stdout
