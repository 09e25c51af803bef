"""``manawire backup``: a copy of a store taken while it is written (SQLite's online backup)
opens, passes SQLite's integrity check, is readable by its user only, and a server started
on it serves its games again (README.md, "Backups and moving to another host")."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import trio

from server.backup import backup
from server.store.records import CreateGame
from server.store.sqlite import Store
from server.store.writer import StoreWriter

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
    (tmp_path / "dest").mkdir()

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "server.cli", "backup",
                               str(tmp_path / "data"), str(tmp_path / "dest")],
                              check=False, capture_output=True, text=True, timeout=60)

    try:
        done = run()  # (beside an open store: the server's)
    finally:
        store.close()
    assert done.returncode == 0, done.stderr
    wrote = tmp_path / "dest" / "manawire.sqlite3"
    assert done.stdout.startswith(f"manawire backup: wrote {wrote} (")
    assert "mode 0600): 2 games (2 in play)" in done.stdout
    assert wrote.stat().st_mode & 0o777 == 0o600
    again = run()
    assert again.returncode == 1 and "already exists" in again.stderr
    assert "Traceback" not in again.stderr
    missing = subprocess.run([sys.executable, "-m", "server.cli", "backup",
                              str(tmp_path / "nowhere"), str(tmp_path / "x.sqlite3")],
                             check=False, capture_output=True, text=True, timeout=60)
    assert missing.returncode == 1 and "does not exist" in missing.stderr
