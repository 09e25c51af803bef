"""``manawire --version`` and the one version number: the package's (pyproject.toml) is the
server's (``server.__version__``, which ``Welcome.server_version`` and the metrics'
``manawire_build_info`` report)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

import server
from server.cli import main

ROOT = Path(__file__).resolve().parents[1]


def test_version_prints_the_servers_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"manawire {server.__version__}\n"


def test_the_package_and_the_server_have_one_version() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["version"] == server.__version__
