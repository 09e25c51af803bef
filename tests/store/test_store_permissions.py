"""The store's files are readable by their user only (docs/commands.md: created 0600; they hold
the secret seeds of games in progress and the password hashes). An operator's server
started on an existing 0644 store without a word, and its -wal and -shm files took the
same 0644."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from server.store import Store
from server.store.files import StorePermissionError, restrict_store_files


def _mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


def _loose_store(data_dir: Path) -> Path:
    data_dir.mkdir()
    path = data_dir / "manawire.sqlite3"
    Store(path).close()
    os.chmod(path, 0o644)
    for suffix in ("-wal", "-shm"):  # left by a crash, with the mode SQLite gave them
        Path(f"{path}{suffix}").touch(0o644)
        os.chmod(f"{path}{suffix}", 0o644)
    return path


def test_a_server_started_on_a_store_others_may_read_makes_it_0600_and_says_so(
        tmp_path: Path) -> None:
    path = _loose_store(tmp_path / "data")
    proc = subprocess.Popen([sys.executable, "-m", "server.cli", "serve", "--host", "127.0.0.1",
                             "--port", "0", "--data-dir", str(tmp_path / "data")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().startswith("manawire listening on ")
        for suffix in ("", "-wal", "-shm"):
            assert _mode(Path(f"{path}{suffix}")) == 0o600, suffix
    finally:
        proc.send_signal(signal.SIGTERM)
        _out, err = proc.communicate(timeout=60)
    told = [line for line in err.splitlines() if "made the store's files" in line]
    assert len(told) == 1, err
    assert "manawire.sqlite3 (was 0644)" in told[0] and "-wal (was 0644)" in told[0]
    assert restrict_store_files(path) == []  # started again: nothing to change


def test_a_store_this_user_does_not_own_is_refused_with_what_to_do(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _loose_store(tmp_path / "data")
    owner = path.stat().st_uid
    monkeypatch.setattr(os, "geteuid", lambda: owner + 1)
    with pytest.raises(StorePermissionError) as refused:
        restrict_store_files(path)
    assert "readable by other users (mode 0644)" in str(refused.value)
    assert f"chmod 600 {path}" in str(refused.value)
    assert _mode(path) == 0o644  # (untouched)


def test_a_store_that_cannot_be_changed_stops_the_start_plainly(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from server.cli import ServeStartError, open_store

    path = _loose_store(tmp_path / "data")

    def refuse(file: object, mode: int) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "chmod", refuse)
    with pytest.raises(ServeStartError, match="could not be made 0600: Operation not "
                                              "permitted"):
        open_store(path, "process")


def test_a_store_whose_directory_anyone_may_write_is_refused(tmp_path: Path) -> None:
    """SQLite reads whatever -journal or -wal lies beside a database when it opens it (a hot
    journal is rolled back into it): in a directory every user may write, one could put their
    accounts and password hashes into the store. The start is refused, saying what to do."""
    from server.cli import ServeStartError, open_store

    path = _loose_store(tmp_path / "data")
    os.chmod(tmp_path / "data", 0o777)
    with pytest.raises(ServeStartError, match=r"writable by every user \(mode 0777\).*"
                                              r"chmod 700"):
        open_store(path, "process")
    os.chmod(tmp_path / "data", 0o1777)  # (sticky: others still create files there)
    with pytest.raises(ServeStartError, match="writable by every user"):
        open_store(path, "process")


@pytest.mark.skipif(os.geteuid() != 0, reason="needs to give a file to another user (root)")
def test_a_journal_another_user_put_beside_the_store_is_refused(tmp_path: Path) -> None:
    from server.cli import ServeStartError, open_store

    path = _loose_store(tmp_path / "data")
    journal = Path(f"{path}-journal")
    journal.write_bytes(b"not ours")
    os.chown(journal, 4242, -1)
    with pytest.raises(ServeStartError, match=r"-journal belongs to user 4242.*move it away"):
        open_store(path, "process")
    assert journal.read_bytes() == b"not ours"  # (left for the operator to look at)


def test_a_new_data_directory_is_made_for_this_user_only(tmp_path: Path) -> None:
    from server.cli import lock_data_dir

    fd = lock_data_dir(tmp_path / "fresh" / "data")
    os.close(fd)
    assert _mode(tmp_path / "fresh" / "data") == 0o700
