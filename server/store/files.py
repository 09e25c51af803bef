"""The store's files readable by their user only (docs/commands.md, "Command line": the store is
mode 0600): they hold every game's secret seed, which orders the libraries of games in
progress, and the password hashes. A store copied in, restored, or made by an older build
may be readable by every user of the host (0644), and SQLite gives its ``-wal`` and ``-shm``
files the database file's permissions.

SQLite also *reads* whatever ``-wal`` or ``-journal`` file lies beside a database when it
opens it, whoever wrote it: a hot journal is rolled back into the database, a log's frames
read as its pages. So every file of the store must be this user's, and its directory
writable by nobody else (:func:`check_store_place`): another user able to put such a file
there could put their accounts and password hashes in the store."""

from __future__ import annotations

import os
import stat
from pathlib import Path

#: The store's file in a data directory (``manawire serve --data-dir``).
STORE_NAME = "manawire.sqlite3"
#: What the store's files may allow: read and write for their owner, nothing for others.
MODE = 0o600
#: The files of a store at ``path``: the database, its write-ahead log and shared memory,
#: and a rollback journal (a store restored from a backup, which is in that mode).
SUFFIXES = ("", "-wal", "-shm", "-journal")


class StorePermissionError(Exception):
    """A store file others may read that this user can't make 0600 (not its owner, or the
    change failed); its message says which and what to do."""


def store_files(path: Path) -> list[Path]:
    """The files of the store at ``path`` that exist (the database, ``-wal``, ``-shm``,
    ``-journal``)."""
    return [p for p in (Path(f"{path}{suffix}") for suffix in SUFFIXES) if p.exists()]


def store_sizes(path: Path) -> dict[str, int]:
    """The bytes of the store's database file and of its write-ahead log (``database``,
    ``wal``; 0 for one that isn't there): a ``stat`` of each, cheap enough for every
    scrape (``manawire_store_size_bytes``)."""
    sizes = {}
    for kind, suffix in (("database", ""), ("wal", "-wal")):
        try:
            sizes[kind] = os.stat(f"{path}{suffix}").st_size
        except OSError:  # (none yet, or an in-memory store)
            sizes[kind] = 0
    return sizes


def check_store_place(path: Path) -> None:
    """Raise :class:`StorePermissionError` if another user could have put data in the store
    at ``path`` (module docstring): its directory writable by others, or a file of it (the
    database, ``-wal``, ``-shm``, ``-journal``) that belongs to another user -- or if a
    ``-wal`` file beside it can't be its own (:func:`_check_own_log`)."""
    _check_own_log(path)
    folder = path.parent
    mode = stat.S_IMODE(folder.stat().st_mode)
    if mode & stat.S_IWOTH:
        raise StorePermissionError(
            f"{folder} is writable by every user (mode {mode:04o}): one could put a -journal "
            f"or -wal file beside {path.name}, which SQLite would read into the store (their "
            f"accounts and password hashes in it). Run `chmod 700 {folder}`, or use a "
            f"--data-dir only this user can write")
    me = os.geteuid()
    for file in store_files(path):
        owner = file.stat().st_uid
        if owner != me:
            raise StorePermissionError(
                f"{file} belongs to user {owner}, not to this one ({me}): SQLite reads a "
                f"store's -wal and -journal files whoever wrote them, so the server uses a "
                f"store only this user owns. If it is yours, `chown` it to the user that "
                f"runs the server; if you don't know where it came from, move it away")


def restrict_store_files(path: Path) -> list[tuple[Path, int]]:
    """Make every file of the store at ``path`` readable and writable by its owner only
    (:data:`MODE`) where it allows more; returns each file changed with its former mode.
    Raises :class:`StorePermissionError` for one this user doesn't own or can't change.
    (A group or others bit in a file's mode is what it allowed more: the owner's own bits
    are left alone.)"""
    changed: list[tuple[Path, int]] = []
    for file in store_files(path):
        st = file.stat()
        mode = stat.S_IMODE(st.st_mode)
        if not mode & 0o077:
            continue
        if st.st_uid != os.geteuid():
            raise StorePermissionError(
                f"{file} is readable by other users (mode {mode:04o}) and belongs to user "
                f"{st.st_uid}, not to this one ({os.geteuid()}), so the server can't make it "
                f"{MODE:04o}: it holds the secret seeds of games in progress and the password "
                f"hashes. Run `chmod 600 {file}` as its owner, or run the server as that user")
        try:
            os.chmod(file, MODE)
        except OSError as exc:
            raise StorePermissionError(
                f"{file} is readable by other users (mode {mode:04o}) and could not be made "
                f"{MODE:04o}: {exc.strerror or exc}. It holds the secret seeds of games in "
                f"progress and the password hashes: `chmod 600` it, then start again") from None
        changed.append((file, mode))
    return changed


def _check_own_log(path: Path) -> None:
    """Refuse a database in rollback-journal mode with a write-ahead log beside it.

    A store the server wrote is in WAL mode: its header says so (bytes 18 and 19 are 2), and
    its ``-wal`` file may hold commits not yet copied into it. A backup (``manawire backup``)
    is in rollback-journal mode (1 and 1) and never had a log: one beside it was left by the
    store it replaced -- restored over a stopped server's store without moving that store's
    ``-wal`` away -- and SQLite would read that log's pages into the backup as it opens it,
    damaging it for good (docs/operating.md, "Backups and moving to another host")."""
    wal = Path(f"{path}-wal")
    try:
        size = wal.stat().st_size
        with path.open("rb") as db:
            header = db.read(20)
    except OSError:
        return  # no log (or no database yet): nothing to check
    if size and len(header) == 20 and header[:16] == b"SQLite format 3\x00" \
            and header[18:20] == b"\x01\x01":
        raise StorePermissionError(
            f"{path} is a database in rollback-journal mode, as `manawire backup` makes "
            f"them, but a write-ahead log is beside it ({wal.name}, {size:,} bytes): it "
            f"belongs to the store this file replaced, and SQLite would read it into this "
            f"one as it opens it and damage it. Move {wal.name} (and {path.name}-shm, if "
            f"there) out of {path.parent} -- they are not part of the restored store -- and "
            f"start again")
