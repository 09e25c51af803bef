"""The account ``manawire play`` plays as on each server, saved on this machine: a guest
account's token is the only way back to its seat, and a person who closed the terminal
mid-game (or lost it) had none. The same command, run again, takes the seat back.

One JSON file, ``accounts.json``, in ``$MANAWIRE_STATE_DIR``, else
``$XDG_STATE_HOME/manawire``, else ``~/.local/state/manawire``: for each server URL the
account's name and token. The directory is made readable by its owner only (0700) and the
file is written whole (0600) and then renamed into place, so a token never sits in a file
others can read and a crash never leaves half a file. A file that can't be read or written
is said once and otherwise ignored: the game goes on with a new guest.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

STATE_ENV = "MANAWIRE_STATE_DIR"
FILE_NAME = "accounts.json"


@dataclass(frozen=True, slots=True)
class SavedAccount:
    name: str
    token: str


def state_dir() -> Path:
    """Where the saved accounts are kept."""
    given = os.environ.get(STATE_ENV)
    if given:
        return Path(given)
    xdg = os.environ.get("XDG_STATE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".local" / "state") / "manawire"


def _key(url: str) -> str:
    return url.strip().rstrip("/")


def _read(path: Path) -> dict[str, dict[str, str]]:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    if not isinstance(raw, dict):
        raise TypeError(f"{path} holds no saved accounts")
    return {url: entry for url, entry in raw.items()
            if isinstance(entry, dict) and isinstance(entry.get("token"), str)}


def load(url: str) -> SavedAccount | None:
    """The account saved for the server at ``url`` (None: none). Raises ``OSError``,
    ``ValueError`` or ``TypeError`` if the file can't be read."""
    entry = _read(state_dir() / FILE_NAME).get(_key(url))
    if entry is None or not entry["token"]:
        return None
    return SavedAccount(str(entry.get("name", "")), entry["token"])


def _write(entries: dict[str, dict[str, str]]) -> Path:
    folder = state_dir()
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    path = folder / FILE_NAME
    temporary = folder / f".{FILE_NAME}.{os.getpid()}"
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            json.dump(entries, file, indent=1, sort_keys=True)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return path


def save(url: str, account: SavedAccount) -> Path:
    """Keep ``account`` as the one to play as on the server at ``url`` (replacing any);
    returns the file. Raises ``OSError``, ``ValueError`` or ``TypeError`` if it can't."""
    path = state_dir() / FILE_NAME
    entries = _read(path)
    entries[_key(url)] = {"name": account.name, "token": account.token}
    return _write(entries)
