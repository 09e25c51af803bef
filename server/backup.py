"""``manawire backup DATA_DIR DEST``: a consistent copy of a store, taken while the server
runs (docs/operating.md, "Backups and moving to another host").

SQLite's online backup API (the standard library's :meth:`sqlite3.Connection.backup`) copies
the database as one transaction saw it, whatever the server commits meanwhile; copying the
file with ``cp`` beside a running server can copy a torn database or leave out what is still
in its ``-wal`` file. The copy is created readable by its user only (mode 0600: the store
holds the secret seeds of games in progress and the password hashes).

SQLite opens a database's ``-wal``, ``-shm`` and ``-journal`` files by name, creating them if
missing but taking them as they are if not, and reads them with the database: a ``-wal`` or
hot ``-journal`` that someone else put beside the copy becomes part of it (their tables,
their password hashes). So the copy is made, converted to a rollback journal (not WAL mode),
checked and synced in a private directory (mode 0700) made beside ``DEST`` -- on its
filesystem -- and, every connection to it closed, hard-linked to ``DEST`` (which never
overwrites); and ``DEST``'s directory must not be writable by other users, who could plant
such files beside it (for whoever opens it there later).

A backup holds a lock (``flock``) on its private directory until it has removed it. One that
was killed (``kill -9``, the machine's OOM killer, a cron timeout) leaves its directory -- a
partial copy of the store, as big as the store -- behind; the next backup beside it removes
every such directory that is ours, a minute old and no longer locked (:func:`_sweep`), and
says so."""

from __future__ import annotations

import argparse
import fcntl
import os
import shutil
import sqlite3
import stat
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from server.store.files import STORE_NAME

# The files SQLite opens beside a database, by the database's name.
SIDE_FILES = ("-wal", "-shm", "-journal")

#: The name of a backup's private directory begins so (``tempfile.mkdtemp`` ends it).
PRIVATE_PREFIX = ".manawire-backup-"

#: A private directory this many seconds old that no backup holds the lock of was left by
#: a killed backup. (A backup locks its directory just after making it: the age only keeps
#: a sweep from taking one made an instant ago and not locked yet.)
STALE_SECONDS = 60.0


class BackupError(Exception):
    """A backup that could not be taken; its message says why."""


@dataclass(frozen=True)
class Backup:
    """What :func:`backup` wrote."""

    path: Path
    size: int
    games: int
    in_play: int
    #: The private directories of killed backups removed from beside ``path`` first.
    swept: tuple[str, ...] = ()


def backup(data_dir: Path, dest: Path) -> Backup:
    """Copy the store of ``data_dir`` to ``dest`` (a new file; or, an existing directory,
    ``dest/manawire.sqlite3``), created 0600, with SQLite's online backup: safe while a
    server writes the store. Raises :class:`BackupError` saying why it can't (among others:
    ``dest`` exists, or its directory is writable by other users)."""
    source = data_dir / STORE_NAME
    if not source.is_file():
        raise BackupError(f"{source} does not exist: DATA_DIR is the directory `manawire "
                          f"serve --data-dir` was given")
    if dest.is_dir():
        dest = dest / STORE_NAME
    parent = dest.parent
    _check_private(parent, dest)
    swept = _sweep(parent)
    for suffix in ("", *SIDE_FILES):
        if os.path.lexists(f"{dest}{suffix}"):
            raise BackupError(f"{dest}{suffix} already exists: give a new file (a backup "
                              f"never writes over another, nor beside SQLite files of "
                              f"another database)")
    try:
        # 0700, ours, on DEST's filesystem: no one else can put a file SQLite would read
        # beside the copy while it is made.
        private = Path(tempfile.mkdtemp(prefix=PRIVATE_PREFIX, dir=parent))
    except OSError as exc:
        raise BackupError(f"can't create a private directory in {parent} for the copy: "
                          f"{exc.strerror or exc}") from None
    lock: int | None = None
    try:
        # Ours until it is removed: a sweep by another backup leaves it (_sweep).
        lock = os.open(private, os.O_RDONLY | os.O_DIRECTORY)
        fcntl.flock(lock, fcntl.LOCK_EX)
        made = private / STORE_NAME
        games, in_play = _make(source, made)
        try:
            os.link(made, dest)  # never over a file: fails if DEST exists by now
        except FileExistsError:
            raise BackupError(f"{dest} already exists: give a new file (a backup never "
                              f"writes over another)") from None
        except OSError as exc:
            raise BackupError(f"can't create {dest}: {exc.strerror or exc} (a backup is "
                              f"made beside DEST and hard-linked to it: DEST's filesystem "
                              f"must support hard links)") from None
        _fsync_dir(parent)
        size = os.stat(made).st_size
    finally:
        shutil.rmtree(private, ignore_errors=True)
        if lock is not None:
            os.close(lock)
    return Backup(dest, size, games, in_play, swept)


def _sweep(parent: Path) -> tuple[str, ...]:
    """Remove the private directories that killed backups left in ``parent`` (a directory
    only we may write, :func:`_check_private`): ours, :data:`STALE_SECONDS` old, and not
    locked by a backup running now. Their names, in order."""
    removed: list[str] = []
    now = time.time()
    try:
        entries = sorted(os.scandir(parent), key=lambda e: e.name)
    except OSError:
        return ()
    for entry in entries:
        if not entry.name.startswith(PRIVATE_PREFIX):
            continue
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() \
                or now - st.st_ctime < STALE_SECONDS:
            continue
        try:
            fd = os.open(entry.path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue  # a backup running now
        try:
            shutil.rmtree(entry.path, ignore_errors=True)
        finally:
            os.close(fd)
        if not os.path.lexists(entry.path):
            removed.append(entry.name)
    return tuple(removed)


def _check_private(parent: Path, dest: Path) -> None:
    """Refuse a ``dest`` whose directory other users may write."""
    try:
        mode = os.stat(parent).st_mode
    except OSError as exc:
        raise BackupError(f"can't use {parent} for {dest.name}: {exc.strerror or exc}") from None
    if not stat.S_ISDIR(mode):
        raise BackupError(f"{parent} is not a directory")
    if mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise BackupError(
            f"{parent} is writable by other users (mode {stat.S_IMODE(mode):04o}): one of "
            f"them could put a -journal or -wal file beside {dest.name}, which SQLite would "
            f"read into it when it is opened there (their accounts and data in your backup); "
            f"choose a directory only you can write, e.g. `mkdir -m 700 ~/backups`")


def _make(source: Path, made: Path) -> tuple[int, int]:
    """Back ``source`` up into the new file ``made`` (in a private directory), whole on disk:
    a rollback-journal database, checked, 0600, synced, every connection to it closed. The
    copy's games, and those of them in play."""
    try:
        # Created here, 0600, before SQLite writes a byte of it.
        os.close(os.open(made, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except OSError as exc:
        raise BackupError(f"can't create {made}: {exc.strerror or exc}") from None
    games, in_play = _copy(source, made)
    os.chmod(made, 0o600)
    fd = os.open(made, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    return games, in_play


def _fsync_dir(path: Path) -> None:
    """Make a new name in directory ``path`` durable (where the platform can)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


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
            # The copy's header says WAL mode, as the store's does: made a rollback-journal
            # database, one file, whole, that no -wal file is read with.
            mode = dst.execute("PRAGMA journal_mode=DELETE").fetchone()[0]
            if str(mode).lower() != "delete":
                raise BackupError(f"the copy of {source} could not be taken out of WAL mode "
                                  f"({mode})")
            ok = dst.execute("PRAGMA integrity_check").fetchone()[0]
            if ok != "ok":
                raise BackupError(f"the copy of {source} fails SQLite's integrity check "
                                  f"({ok}): is {source} damaged?")
            games, in_play = dst.execute(
                "SELECT COUNT(*), COALESCE(SUM(result IS NULL AND aborted IS NULL), 0) "
                "FROM games").fetchone()
        finally:
            dst.close()
    except sqlite3.Error as exc:
        raise BackupError(f"backing {source} up failed: {exc}") from None
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
    if done.swept:
        print(f"manawire backup: removed {len(done.swept)} private "
              f"director{'y' if len(done.swept) == 1 else 'ies'} that killed backups left "
              f"in {done.path.parent}: {', '.join(done.swept)}", flush=True)
    return 0
