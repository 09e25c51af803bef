"""``manawire check-games`` copies the store into the temporary directory (``$TMPDIR``): a
copy as large as the store. It checks that file system's free space first and refuses,
saying how much it needs and where, instead of filling it (``/tmp`` is often the root's file
system, or RAM) and failing half-way with "database or disk is full"."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import NamedTuple

import pytest

from server.check_games import SPACE_MARGIN, check_games
from server.cli import main
from tests.rooms.test_replay_other_rules import _store


class Usage(NamedTuple):
    total: int
    used: int
    free: int


def test_a_store_whose_copy_doesnt_fit_in_tmpdir_is_refused_before_anything_is_copied(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    data.mkdir()
    _store(data / "manawire.sqlite3")
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp))
    monkeypatch.setattr("tempfile.tempdir", None)  # (read $TMPDIR again)
    asked: list[Path] = []
    real = shutil.disk_usage

    def disk_usage(path: str | Path) -> Usage:
        asked.append(Path(path))
        return Usage(10**9, 10**9 - SPACE_MARGIN, SPACE_MARGIN)  # (the copy: no room)

    monkeypatch.setattr(shutil, "disk_usage", disk_usage)
    assert main(["check-games", str(data)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("manawire check-games: the store's copy needs ")
    assert f"in {temp}, which has 64.0 MiB free: point TMPDIR at a directory with room" in err
    assert asked == [temp]
    assert list(temp.iterdir()) == []  # nothing copied, nothing left
    monkeypatch.setattr(shutil, "disk_usage", real)
    checked = check_games(data)  # with room: as ever
    assert checked.verdicts and list(temp.iterdir()) == []
