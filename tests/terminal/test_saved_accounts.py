"""``manawire play``'s saved accounts (:mod:`client_sdk.saved`): one per server, readable by
their owner only, written whole; a file that isn't theirs is refused, not guessed at."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from client_sdk import saved


def test_an_account_is_saved_per_server_for_its_owner_only(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    folder = tmp_path / "state" / "manawire"
    monkeypatch.setenv(saved.STATE_ENV, str(folder))
    assert saved.load("ws://a:1") is None  # (no file yet)
    path = saved.save("ws://a:1/", saved.SavedAccount("Ann#0001", "t1"))
    saved.save("ws://b:2", saved.SavedAccount("Bob#0002", "t2"))
    assert path == folder / saved.FILE_NAME
    assert saved.load("ws://a:1") == saved.SavedAccount("Ann#0001", "t1")  # (URL as typed)
    assert saved.load("ws://b:2/") == saved.SavedAccount("Bob#0002", "t2")
    saved.save("ws://a:1", saved.SavedAccount("Ann#0003", "t3"))  # a new guest replaces it
    assert saved.load("ws://a:1") == saved.SavedAccount("Ann#0003", "t3")
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [p.name for p in folder.iterdir()] == [saved.FILE_NAME]  # (no temporary left)


def test_the_state_directory_follows_xdg_else_home(monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: Path) -> None:
    monkeypatch.delenv(saved.STATE_ENV)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    assert saved.state_dir() == tmp_path / "manawire"
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert saved.state_dir() == tmp_path / "home" / ".local" / "state" / "manawire"


def test_a_file_that_holds_no_accounts_is_refused(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(saved.STATE_ENV, str(tmp_path))
    (tmp_path / saved.FILE_NAME).write_text("[1, 2]")
    with pytest.raises(TypeError, match="holds no saved accounts"):
        saved.load("ws://a:1")
    (tmp_path / saved.FILE_NAME).write_text("{not json")
    with pytest.raises(ValueError, match="Expecting"):
        saved.save("ws://a:1", saved.SavedAccount("Ann#0001", "t1"))
