"""A client command starts at once: ``manawire play``, ``watch``, ``bots``, ``account`` ...
never import the server's app (its ``Limits`` are only serve's options' defaults; importing
it took ~0.6 s of CPU in every such process). ``serve --help`` still lists those options."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

#: The client commands' ``--help`` in one interpreter, then whether they imported the app,
#: then ``serve --help`` (which does) in the same interpreter: one process for both tests
#: (a process spends a second of CPU importing the server).
PROBE = """
import contextlib, io, json, sys
from server import cli
for argv in ({commands!r}):
    with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
        cli.main(argv)
imported = "server.app" in sys.modules
serve_help = io.StringIO()
with contextlib.redirect_stdout(serve_help), contextlib.suppress(SystemExit):
    cli.main(["serve", "--help"])
print(json.dumps({{"imported": imported, "serve_help": serve_help.getvalue()}}))
"""


@pytest.fixture(scope="module")
def probe() -> dict[str, object]:
    commands = (["play", "--help"], ["watch", "--help"], ["account", "--help"],
                ["bots", "--help"], ["--help"])
    done = subprocess.run([sys.executable, "-c", PROBE.format(commands=commands)],
                          capture_output=True, text=True, cwd=REPO, timeout=120, check=True)
    said: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return said


def test_client_commands_never_import_the_servers_app(probe: dict[str, object]) -> None:
    assert probe["imported"] is False


def test_serve_help_still_lists_the_limits(probe: dict[str, object]) -> None:
    said = probe["serve_help"]
    assert isinstance(said, str)
    assert "--max-rooms-per-address" in said and "--max-game-actions" in said
