"""``manawire backup``: a copy of a store taken while it is written (SQLite's online backup)
opens, passes SQLite's integrity check, is readable by its user only, and a server started
on it serves its games again (docs/operating.md, "Backups and moving to another host"). It
is made in a private directory, so a -wal, -journal or -shm file another user puts beside
DEST is never read into it, and a DEST in a directory others may write is refused."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import trio

import server.backup as backup_module
from server.backup import SIDE_FILES, BackupError, backup
from server.cli import main as cli_main
from server.store.records import CreateGame
from server.store.sqlite import Store
from server.store.writer import StoreWriter
from tests.test_serve_options import main_each

DECKS = (("Ann", "naya-pets", "s1"), ("Bob", "golgari-grind", "s2"))


def _game(n: int) -> CreateGame:
    return CreateGame(f"room{n:04d}", f"game {n}", n.to_bytes(32, "big"), DECKS, 600.0)


def _serve(data_dir: Path) -> tuple[str, str]:
    """Start ``manawire serve`` on ``data_dir``: its first line, and its log once stopped."""
    proc = subprocess.Popen([sys.executable, "-m", "server.cli", "serve", "--host", "127.0.0.1",
                             "--port", "0", "--data-dir", str(data_dir)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
    finally:
        proc.send_signal(signal.SIGTERM)
        _out, err = proc.communicate(timeout=60)
    return first, err


async def test_a_backup_taken_while_the_store_is_written_is_whole_private_and_served(
        tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    store = Store(tmp_path / "data" / "manawire.sqlite3")
    writer = StoreWriter(store, on_loop=False)
    written = 0
    copied = tmp_path / "copy.sqlite3"
    reached: dict[int, trio.Event] = {50: trio.Event(), 100: trio.Event()}
    try:
        async def write() -> None:
            nonlocal written
            while True:
                await writer.write([_game(written)])
                written += 1
                if written in reached:
                    reached[written].set()

        async with trio.open_nursery() as nursery:
            nursery.start_soon(write)
            await reached[50].wait()
            taken = await trio.to_thread.run_sync(backup, tmp_path / "data", copied)
            await reached[100].wait()  # written on after the copy
            nursery.cancel_scope.cancel()
    finally:
        writer.close()
        store.close()
    assert taken.path == copied and 50 <= taken.games < written
    assert taken.games == taken.in_play
    assert copied.stat().st_mode & 0o777 == 0o600
    db = sqlite3.connect(copied)
    try:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == taken.games
    finally:
        db.close()
    # Restored into an empty data directory, with the server stopped: its games come back.
    (tmp_path / "restored").mkdir()
    os.replace(copied, tmp_path / "restored" / "manawire.sqlite3")
    first, err = _serve(tmp_path / "restored")
    assert f"; {taken.games} games restored" in first, (first, err)
    assert "recovery failed" not in err and "could not recover" not in err, err


def test_the_command_prints_what_it_wrote_and_never_overwrites(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    store = Store(tmp_path / "data" / "manawire.sqlite3")
    store.apply([_game(1), _game(2)])
    (tmp_path / "dest").mkdir(mode=0o700)
    backup = ["backup", str(tmp_path / "data"), str(tmp_path / "dest")]
    try:  # (beside an open store: the server's; the three in one interpreter, in turn)
        done, again, missing = main_each([
            (backup, {}), (backup, {}),
            (["backup", str(tmp_path / "nowhere"), str(tmp_path / "x.sqlite3")], {})],
            timeout=60)
    finally:
        store.close()
    assert done.returncode == 0, done.stderr
    wrote = tmp_path / "dest" / "manawire.sqlite3"
    assert done.stdout.startswith(f"manawire backup: wrote {wrote} (")
    assert "mode 0600): 2 games (2 in play)" in done.stdout
    assert wrote.stat().st_mode & 0o777 == 0o600
    assert again.returncode == 1 and "already exists" in again.stderr
    assert "Traceback" not in again.stderr
    assert missing.returncode == 1 and "does not exist" in missing.stderr


def _foreign_wal(tmp_path: Path) -> bytes:
    """The -wal of another database, every page of it a frame: an attacker's tables."""
    path = tmp_path / "foreign-wal.sqlite3"
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA wal_autocheckpoint=0")
    db.execute("CREATE TABLE games(result, aborted)")
    db.executemany("INSERT INTO games VALUES (NULL, NULL)", [()] * 500)
    db.execute("CREATE TABLE pwned(note)")
    db.execute("INSERT INTO pwned VALUES ('attacker data')")
    db.commit()
    wal = Path(f"{path}-wal").read_bytes()  # (before the close checkpoints it)
    db.close()
    return wal


def _foreign_journal(tmp_path: Path) -> bytes:
    """A hot rollback journal of another database: rolled back, its pages are written in."""
    path = tmp_path / "foreign-journal.sqlite3"
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA synchronous=OFF")  # (its records count to the journal's end)
    db.execute("CREATE TABLE games(result, aborted, pad)")
    db.executemany("INSERT INTO games VALUES (NULL, NULL, 'pad')", [()] * 500)
    db.execute("CREATE TABLE pwned(note)")
    db.execute("INSERT INTO pwned VALUES ('attacker data')")
    db.execute("BEGIN IMMEDIATE")
    db.execute("UPDATE games SET pad = 'dap'")
    db.execute("UPDATE pwned SET note = 'changed'")
    journal = Path(f"{path}-journal").read_bytes()
    db.execute("ROLLBACK")
    db.close()
    return journal


def _plants(tmp_path: Path, which: str) -> dict[str, bytes]:
    """What the attacker puts beside DEST: ``which`` side file, or all three."""
    every = {"-wal": _foreign_wal(tmp_path), "-journal": _foreign_journal(tmp_path),
             "-shm": b"\xff" * 32768}
    return every if which == "all" else {which: every[which]}


def _source(tmp_path: Path) -> tuple[Path, list[str]]:
    """A data directory whose store holds two games; the store's dump (its every row)."""
    (tmp_path / "data").mkdir()
    store = Store(tmp_path / "data" / "manawire.sqlite3")
    try:
        store.apply([_game(1), _game(2)])
    finally:
        store.close()
    db = sqlite3.connect(tmp_path / "data" / "manawire.sqlite3")
    try:
        return tmp_path / "data", list(db.iterdump())
    finally:
        db.close()


def _dump_restored(copy: Path, tmp_path: Path) -> list[str]:
    """The dump of ``copy`` as restored: alone, in an empty directory."""
    (tmp_path / "restored").mkdir()
    restored = tmp_path / "restored" / "manawire.sqlite3"
    shutil.copyfile(copy, restored)
    db = sqlite3.connect(restored)
    try:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return list(db.iterdump())
    finally:
        db.close()


def _on_the_copy(monkeypatch: pytest.MonkeyPatch, act: Callable[[], object]) -> None:
    """Run ``act()`` once the backup has copied the store's pages and before its next step on
    the copy (making it a rollback-journal database: where SQLite reads a -wal or a hot
    -journal), as an attacker watching for the file would."""
    connect = sqlite3.connect

    class Watched(sqlite3.Connection):
        done = False

        def execute(self, *args: Any) -> sqlite3.Cursor:
            if not Watched.done:
                Watched.done = True
                act()
            return super().execute(*args)

    def watched(database: Any, *args: Any, **kwargs: Any) -> sqlite3.Connection:
        if kwargs.get("uri"):  # (the store's, read-only)
            db: sqlite3.Connection = connect(database, *args, **kwargs)
        else:
            db = connect(database, *args, factory=Watched, **kwargs)
        return db

    monkeypatch.setattr(sqlite3, "connect", watched)


@pytest.mark.parametrize("which", ["-wal", "-journal", "-shm", "all"])
def test_side_files_planted_beside_dest_during_the_copy_are_never_read_into_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, which: str) -> None:
    data, dump = _source(tmp_path)
    (tmp_path / "dest").mkdir(mode=0o700)
    dest = tmp_path / "dest" / "backup.sqlite3"
    plants = _plants(tmp_path, which)

    def plant() -> None:
        for suffix, content in plants.items():
            Path(f"{dest}{suffix}").write_bytes(content)

    _on_the_copy(monkeypatch, plant)
    taken = backup(data, dest)
    monkeypatch.undo()
    assert (taken.path, taken.games, taken.in_play) == (dest, 2, 2)
    assert dest.read_bytes()[18:20] == b"\x01\x01"  # a rollback-journal database, not WAL
    st = dest.stat()
    assert (st.st_mode & 0o777, st.st_nlink) == (0o600, 1)
    assert _dump_restored(dest, tmp_path) == dump  # the store's tables and rows, only
    left = sorted(p.name for p in (tmp_path / "dest").iterdir())
    assert left == sorted([dest.name, *(f"{dest.name}{suffix}" for suffix in plants)])
    for suffix, content in plants.items():  # (theirs, as they put them)
        assert Path(f"{dest}{suffix}").read_bytes() == content


def test_a_dest_made_by_someone_else_during_the_copy_is_never_written_over(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data, _dump = _source(tmp_path)
    (tmp_path / "dest").mkdir(mode=0o700)
    dest = tmp_path / "dest" / "backup.sqlite3"
    _on_the_copy(monkeypatch, lambda: dest.write_bytes(b"theirs"))
    with pytest.raises(BackupError, match="already exists"):
        backup(data, dest)
    assert dest.read_bytes() == b"theirs"
    assert [p.name for p in (tmp_path / "dest").iterdir()] == [dest.name]  # nothing left


@pytest.mark.parametrize("suffix", ["", *SIDE_FILES])
def test_a_dest_or_its_side_files_already_there_are_refused(tmp_path: Path,
                                                            suffix: str) -> None:
    data, _dump = _source(tmp_path)
    (tmp_path / "dest").mkdir(mode=0o700)
    dest = tmp_path / "dest" / "backup.sqlite3"
    Path(f"{dest}{suffix}").write_bytes(_foreign_wal(tmp_path) if suffix == "-wal" else b"x")
    with pytest.raises(BackupError, match="already exists"):
        backup(data, dest)
    assert [p.name for p in (tmp_path / "dest").iterdir()] == [f"{dest.name}{suffix}"]


#: Modes of a directory that other users may write.
_SHARED_MODES = [0o1777, 0o777, 0o770, 0o730, 0o702]


@dataclass
class Shared:
    """A store (``data``), a directory of each of :data:`_SHARED_MODES`, and what ``manawire
    backup`` said asked to write into each (all asked of one interpreter: :func:`main_each`;
    each ``manawire`` process spends a second of CPU importing the server)."""

    data: Path
    dirs: dict[int, Path]
    said: dict[int, subprocess.CompletedProcess[str]]


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Shared:
    tmp = tmp_path_factory.mktemp("shared")
    data, _dump = _source(tmp)
    dirs = {}
    for mode in _SHARED_MODES:
        dirs[mode] = tmp / f"shared-{mode:o}"
        dirs[mode].mkdir()
        dirs[mode].chmod(mode)
    said = main_each([(["backup", str(data), str(dirs[mode] / "backup.sqlite3")], {})
                      for mode in _SHARED_MODES], timeout=60)
    return Shared(data, dirs, dict(zip(_SHARED_MODES, said, strict=True)))


@pytest.mark.parametrize("mode", _SHARED_MODES, ids=oct)
def test_a_directory_other_users_may_write_is_refused(shared: Shared, mode: int) -> None:
    data, dir_ = shared.data, shared.dirs[mode]
    assert dir_.stat().st_mode & 0o7777 == mode
    with pytest.raises(BackupError, match="writable by other users") as refused:
        backup(data, dir_ / "backup.sqlite3")
    assert "choose a directory only you can write" in str(refused.value)
    with pytest.raises(BackupError, match="writable by other users"):
        backup(data, dir_)  # (a directory: shared/manawire.sqlite3)
    assert list(dir_.iterdir()) == []
    done = shared.said[mode]
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"manawire backup: {dir_} is writable by other users "
                                  f"(mode {mode:04o}): ")
    assert list(dir_.iterdir()) == []


_HANGING_BACKUP = """
import sys, time
from pathlib import Path
import server.backup as b
def hang(source, made):
    made.write_bytes(b"a partial copy")
    print("copying", flush=True)
    time.sleep(120)
    return 0, 0
b._copy = hang
b.backup(Path(sys.argv[1]), Path(sys.argv[2]))
"""


def _hanging_backup(data: Path, dest: Path) -> subprocess.Popen[str]:
    """``manawire backup`` of ``data`` to ``dest`` stopped in the middle of its copy."""
    proc = subprocess.Popen([sys.executable, "-c", _HANGING_BACKUP, str(data), str(dest)],
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline() == "copying\n"
    return proc


def test_a_killed_backups_private_directory_is_removed_by_the_next_unless_still_running(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    data, _dump = _source(tmp_path)
    dest = tmp_path / "dest"
    dest.mkdir(mode=0o700)
    running = _hanging_backup(data, dest / "first.sqlite3")
    try:
        [left] = [p.name for p in dest.iterdir()]
        assert left.startswith(".manawire-backup-")
        monkeypatch.setattr(backup_module, "STALE_SECONDS", 0.0)
        # Still running (its directory is locked): another backup beside it leaves it alone.
        assert backup(data, dest / "second.sqlite3").swept == ()
        assert (dest / left / "manawire.sqlite3").read_bytes() == b"a partial copy"
    finally:
        running.kill()  # kill -9
        running.communicate(timeout=60)
    monkeypatch.setattr(backup_module, "STALE_SECONDS", 60.0)
    # Killed an instant ago: too young to tell from a backup that has not locked it yet.
    assert backup(data, dest / "third.sqlite3").swept == ()
    assert (dest / left).is_dir()
    monkeypatch.setattr(backup_module, "STALE_SECONDS", 0.0)
    mine = dest / ".manawire-backup-notes"  # a file of that name, and a link: not ours
    mine.write_text("keep")
    (dest / ".manawire-backup-link").symlink_to(tmp_path / "data")
    argv = ["backup", str(data), str(dest / "fourth.sqlite3")]
    assert cli_main(argv) == 0
    printed = capsys.readouterr().out
    assert printed.endswith(f"manawire backup: removed 1 private directory that killed "
                            f"backups left in {dest}: {left}\n")
    assert sorted(p.name for p in dest.iterdir()) == [
        ".manawire-backup-link", ".manawire-backup-notes", "fourth.sqlite3",
        "second.sqlite3", "third.sqlite3"]
    assert (tmp_path / "data" / "manawire.sqlite3").is_file()


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to make another user's directory")
def test_a_directory_of_another_user_is_never_swept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data, _dump = _source(tmp_path)
    dest = tmp_path / "dest"
    dest.mkdir(mode=0o700)
    theirs = dest / ".manawire-backup-theirs"
    theirs.mkdir()
    os.chown(theirs, 12345, 12345)
    monkeypatch.setattr(backup_module, "STALE_SECONDS", 0.0)
    assert backup(data, dest / "b.sqlite3").swept == ()
    assert theirs.is_dir()
