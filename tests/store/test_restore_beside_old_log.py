"""A backup restored beside the replaced store's ``-wal`` file (docs/operating.md, "Backups and
moving to another host"): an operator removed a killed server's store, copied a backup in,
and started the server -- which read the old store's log into the backup as SQLite opened
it, and then refused the now damaged file as "not a usable store", blaming the backup. A
database in rollback-journal mode (as backups are made) with a log beside it is refused
before anything opens it, saying which file to move; a store in WAL mode with its own log
(a server killed with commits not yet checkpointed) starts as before."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from server.backup import backup
from server.store import Store
from server.store.files import StorePermissionError, check_store_place
from tests.store.test_backup import _game


def _killed_store(data_dir: Path) -> tuple[Path, Store]:
    """A store in WAL mode whose log holds commits not checkpointed (as a server killed
    with ``kill -9`` leaves it); the store, open (close it to end the test: that
    checkpoints the log)."""
    data_dir.mkdir(mode=0o700)
    path = data_dir / "manawire.sqlite3"
    store = Store(path)
    store.apply([_game(n) for n in range(1, 40)])  # (commits: in the log, not the file)
    assert Path(f"{path}-wal").stat().st_size > 0
    return path, store


def test_a_backup_restored_beside_the_old_stores_log_is_refused_and_left_whole(
        tmp_path: Path) -> None:
    path, held = _killed_store(tmp_path / "data")
    try:
        (tmp_path / "backups").mkdir(mode=0o700)
        taken = backup(tmp_path / "data", tmp_path / "backups")
        old_log = Path(f"{path}-wal").read_bytes()
    finally:
        held.close()
    # The operator's restore: the old store removed, the backup copied in, the log left.
    (tmp_path / "R").mkdir(mode=0o700)
    restored = tmp_path / "R" / "manawire.sqlite3"
    shutil.copyfile(taken.path, restored)
    Path(f"{restored}-wal").write_bytes(old_log)
    before = restored.read_bytes()
    with pytest.raises(StorePermissionError) as refused:
        check_store_place(restored)
    said = str(refused.value)
    assert said.startswith(f"{restored} is a database in rollback-journal mode, as "
                           f"`manawire backup` makes them, but a write-ahead log is beside "
                           f"it (manawire.sqlite3-wal, {len(old_log):,} bytes)")
    assert "Move manawire.sqlite3-wal (and manawire.sqlite3-shm, if there) out of" in said
    done = subprocess.run([sys.executable, "-m", "server.cli", "serve", "--host",
                           "127.0.0.1", "--port", "0", "--data-dir", str(tmp_path / "R")],
                          check=False, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "a write-ahead log is beside it" in done.stderr, done.stderr
    assert restored.read_bytes() == before  # never opened: the backup is whole
    # Moved away as told: the backup is served, its games all there.
    Path(f"{restored}-wal").unlink()
    check_store_place(restored)
    store = Store(restored)
    try:
        names = [f"room{n:04d}" for n in range(1, 40)]
        assert [store.load_game(name).room_id for name in names] == names
    finally:
        store.close()


def test_a_killed_servers_own_log_is_not_refused(tmp_path: Path) -> None:
    path, held = _killed_store(tmp_path / "data")
    try:
        check_store_place(path)  # (WAL mode: the log is its own, commits to keep)
    finally:
        held.close()
