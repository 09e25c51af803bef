"""The account ``manawire play`` plays as on each server, saved on this machine: a guest
account's token is the only way back to its seat, and a person who closed the terminal
mid-game (or lost it) had none. The same command, run again, takes the seat back.

One JSON file, ``accounts.json``, in ``$MANAWIRE_STATE_DIR``, else
``$XDG_STATE_HOME/manawire``, else ``~/.local/state/manawire``: for each server URL the
account's name and token. The directory is made readable by its owner only (0700) and the
file is written whole (0600) and then renamed into place, so a token never sits in a file
others can read and a crash never leaves half a file. A file that can't be read or written
is said once and otherwise ignored: the game goes on with a new guest.

Beside it, the same way: ``settings.json``, the terminal client's settings (where it stops
for priority, :mod:`client_sdk.stops`), and ``invites.json``, the invite codes of the
private rooms created from this machine (``invite`` says them after the terminal closed and
came back).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

STATE_ENV = "MANAWIRE_STATE_DIR"
FILE_NAME = "accounts.json"
#: The terminal client's settings (``{"priority_stops": "auto"}``), in the same directory.
SETTINGS_FILE = "settings.json"
#: Invite codes of the private rooms created from this machine, by server URL and room id
#: (``invite`` said "known to the terminal that created it" once the creator's terminal
#: closed and came back: the code was in its memory only).
INVITES_FILE = "invites.json"
#: Added to the server's key for the audience codes' entry of the invites file.
AUDIENCE_KEY = " audience"
#: The most invite codes kept for one server (the oldest go first).
INVITES_KEPT = 50


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


def _write(entries: Mapping[str, object], name: str = FILE_NAME) -> Path:
    folder = state_dir()
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    path = folder / name
    temporary = folder / f".{name}.{os.getpid()}"
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


def _read_object(name: str) -> dict[str, object]:
    try:
        raw = json.loads((state_dir() / name).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    if not isinstance(raw, dict):
        raise TypeError(f"{state_dir() / name} holds no JSON object")
    return raw


def load_setting(key: str, default: str) -> str:
    """A terminal setting saved on this machine (``default`` if none, or if the file can't
    be read: a setting is never worth stopping a game for)."""
    try:
        value = _read_object(SETTINGS_FILE).get(key, default)
    except (OSError, ValueError, TypeError):
        return default
    return value if isinstance(value, str) else default


def save_setting(key: str, value: str) -> Path:
    """Keep a terminal setting for the next games and runs. Raises ``OSError``,
    ``ValueError`` or ``TypeError`` if it can't."""
    settings = _read_object(SETTINGS_FILE)
    settings[key] = value
    return _write(settings, SETTINGS_FILE)


def load_invite(url: str, room_id: str, *, audience: bool = False) -> str:
    """The invite code of a room created from this machine on the server at ``url`` ("":
    not known, or the file can't be read); ``audience``: its audience code instead ("" too
    for a room kept before rooms had one)."""
    try:
        rooms = _read_object(INVITES_FILE).get(_key(url) + (AUDIENCE_KEY if audience else ""),
                                               {})
    except (OSError, ValueError, TypeError):
        return ""
    code = rooms.get(room_id, "") if isinstance(rooms, dict) else ""
    return code if isinstance(code, str) else ""


def save_invite(url: str, room_id: str, code: str, audience: str = "") -> Path:
    """Keep the invite code of a room just created, and its ``audience`` code (the file is
    the owner's only, 0600: an invite code lets anyone join or watch the room). Raises
    ``OSError``, ``ValueError`` or ``TypeError`` if it can't."""
    invites = _read_object(INVITES_FILE)
    for key, value in ((_key(url), code), (_key(url) + AUDIENCE_KEY, audience)):
        if not value:
            continue
        rooms = invites.get(key)
        kept = {k: v for k, v in rooms.items() if k != room_id} if isinstance(rooms, dict) \
            else {}
        kept[room_id] = value
        invites[key] = dict(list(kept.items())[-INVITES_KEPT:])
    return _write(invites, INVITES_FILE)
