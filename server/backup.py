"""``manawire backup DATA_DIR DEST``: a consistent copy of a store, taken while the server
runs (README.md, "Backups and moving to another host").

SQLite's online backup API (the standard library's :meth:`sqlite3.Connection.backup`) copies
the database as one transaction saw it, whatever the server commits meanwhile; copying the
file with ``cp`` beside a running server can copy a torn database or leave out what is still
in its ``-wal`` file. The copy is created readable by its user only (mode 0600: the store
holds the secret seeds of games in progress and the password hashes)."""

from __future__ import annotations

import argparse
import contextlib
import os
import sqlite3
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from server.store.files import STORE_NAME


class BackupError(Exception):
    """A backup that could not be taken; its message says why."""


@dataclass(frozen=True)
class Backup:
    """What :func:`backup` wrote."""

    path: Path
    size: int
    games: int
    in_play: int


def backup(data_dir: Path, dest: Path) -> Backup:
    """Copy the store of ``data_dir`` to ``dest`` (a new file; or, an existing directory,
    ``dest/manawire.sqlite3``), created 0600, with SQLite's online backup: safe while a
    server writes the store. Raises :class:`BackupError` saying why it can't."""
    source = data_dir / STORE_NAME
    if not source.is_file():
        raise BackupError(f"{source} does not exist: DATA_DIR is the directory `manawire "
                          f"serve --data-dir` was given")
    if dest.is_dir():
        dest = dest / STORE_NAME
    if dest.exists() or Path(f"{dest}-wal").exists():
        raise BackupError(f"{dest} already exists: give a new file (a backup never writes "
                          f"over another)")
    try:
        # Created here, 0600, before SQLite writes a byte of it (its -wal, if any, takes the
        # file's permissions).
        os.close(os.open(dest, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except OSError as exc:
        raise BackupError(f"can't create {dest}: {exc.strerror or exc}") from None
    try:
        games, in_play = _copy(source, dest)
    except BaseException:
        for leftover in (dest, Path(f"{dest}-wal"), Path(f"{dest}-shm")):
            with contextlib.suppress(OSError):
                leftover.unlink()
        raise
    return Backup(dest, dest.stat().st_size, games, in_play)


def _copy(source: Path, dest: Path) -> tuple[int, int]:
    """Back ``source`` up into ``dest``; the copy's games, and those of them in play."""
    try:
        # Read-only: the backup never writes the server's store (nor makes its -wal or -shm
        # files as another user).
        src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise BackupError(f"can't open {source}: {exc}") from None
    try:
        dst = sqlite3.connect(str(dest))
        try:
            src.backup(dst)  # every page in one step: one consistent read of the store
            dst.execute("PRAGMA journal_mode=DELETE")  # one file, whole, to copy and move
            ok = dst.execute("PRAGMA integrity_check").fetchone()[0]
            if ok != "ok":
                raise BackupError(f"the copy in {dest} fails SQLite's integrity check "
                                  f"({ok}): is {source} damaged?")
            games, in_play = dst.execute(
                "SELECT COUNT(*), COALESCE(SUM(result IS NULL AND aborted IS NULL), 0) "
                "FROM games").fetchone()
        finally:
            dst.close()
    except sqlite3.Error as exc:
        raise BackupError(f"backing {source} up to {dest} failed: {exc}") from None
    finally:
        src.close()
    return int(games), int(in_play)


def register(sub: Any) -> None:
    """Add the ``backup`` subcommand to the ``manawire`` parser."""
    cmd = sub.add_parser("backup", help="copy the store to a file, safely while the server "
                         "runs (the copy readable by you only)")
    cmd.add_argument("data_dir", metavar="DATA_DIR", type=Path,
                     help="the server's --data-dir")
    cmd.add_argument("dest", metavar="DEST", type=Path,
                     help="a new file (or a directory: DEST/manawire.sqlite3)")
    cmd.set_defaults(backup_main=main)


def main(args: argparse.Namespace) -> int:
    """Run ``manawire backup``: print what it wrote, or why it couldn't (exit 1)."""
    try:
        done = backup(args.data_dir, args.dest)
    except BackupError as exc:
        print(f"manawire backup: {exc}", file=sys.stderr)
        return 1
    print(f"manawire backup: wrote {done.path} ({done.size:,} bytes, mode 0600): {done.games:,} "
          f"game{'' if done.games == 1 else 's'} ({done.in_play:,} in play); restore it only "
          f"with the server stopped, as {STORE_NAME} in an empty data directory", flush=True)
    return 0
