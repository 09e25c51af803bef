"""The store's files readable by their user only (README.md, "Command line": the store is
mode 0600): they hold every game's secret seed, which orders the libraries of games in
progress, and the password hashes. A store copied in, restored, or made by an older build
may be readable by every user of the host (0644), and SQLite gives its ``-wal`` and ``-shm``
files the database file's permissions."""

from __future__ import annotations

import os
import stat
from pathlib import Path

#: The store's file in a data directory (``manawire serve --data-dir``).
STORE_NAME = "manawire.sqlite3"
#: What the store's files may allow: read and write for their owner, nothing for others.
MODE = 0o600
#: The files of a store at ``path``: the database, its write-ahead log and shared memory.
SUFFIXES = ("", "-wal", "-shm")


class StorePermissionError(Exception):
    """A store file others may read that this user can't make 0600 (not its owner, or the
    change failed); its message says which and what to do."""


def store_files(path: Path) -> list[Path]:
    """The files of the store at ``path`` that exist (the database, ``-wal``, ``-shm``)."""
    return [p for p in (Path(f"{path}{suffix}") for suffix in SUFFIXES) if p.exists()]


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
