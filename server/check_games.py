"""``manawire check-games DATA_DIR``: whether this build plays every stored game as it was
played (docs/operating.md, "Upgrades").

A start replays each game in play from its log with the code it runs, and a replay of a
finished game does too: a rules fix that changes how a game plays out aborts that game at the
start (a failed recovery) and has its replay refused. Run by the build you mean to upgrade
to, before the upgrade, this says which games that would be -- the games in play it would
abort, the finished games whose replay it would refuse -- so the upgrade can wait for them.

It only reads the store: it works on a copy taken with SQLite's online backup API (as
``manawire backup`` does) in a private temporary directory, so it is safe beside a running
server, and a store an older build wrote is brought up to this build's schema in the copy
only. The copy is as large as the store (its pages, the write-ahead log's included): the
temporary directory's file system (``$TMPDIR``, else ``/tmp``) must have that much free,
which is checked first -- a store that doesn't fit is refused, saying how much it needs and
where, rather than filling that file system (``/tmp`` is often the root's, or RAM)."""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from server.store.files import STORE_NAME


class CheckError(Exception):
    """The store could not be read (or copied); the message says why."""


#: Room kept free on the temporary directory's file system besides the copy (its
#: schema upgrade, the journal of that upgrade), and what others there need.
SPACE_MARGIN = 64 * 1024 * 1024


def _mib(size: int) -> str:
    return f"{size / (1024 * 1024):,.1f} MiB"


def check_room(directory: Path, needed: int) -> None:
    """:class:`CheckError` unless ``directory``'s file system has room for a copy of
    ``needed`` bytes (and :data:`SPACE_MARGIN`)."""
    free = shutil.disk_usage(directory).free
    if free < needed + SPACE_MARGIN:
        raise CheckError(
            f"the store's copy needs {_mib(needed)} (and {_mib(SPACE_MARGIN)} to spare) in "
            f"{directory}, which has {_mib(free)} free: point TMPDIR at a directory with "
            f"room (TMPDIR=/var/tmp manawire check-games ...), or free some")


@dataclass(frozen=True, slots=True)
class Verdict:
    """One stored game: whether this build plays its log as it was played."""

    room_id: str
    #: Still in play (a start reloads it), or finished (kept for replays).
    in_play: bool
    #: Why this build plays it otherwise ("" if it plays it as it was played).
    problem: str = ""


@dataclass(frozen=True, slots=True)
class Checked:
    """What :func:`check_games` found."""

    verdicts: tuple[Verdict, ...]
    #: Games a fault aborted before (never reloaded, never replayed): not checked.
    aborted: int

    @property
    def differing(self) -> tuple[Verdict, ...]:
        return tuple(v for v in self.verdicts if v.problem)


def check_games(data_dir: Path) -> Checked:
    """Play every stored game of ``data_dir``'s store (but the aborted ones) with this build's
    rules, on a copy of the store; what each came to."""
    from server.replay import PUBLIC, Replay, ReplayError
    from server.store.sqlite import Store

    source = data_dir / STORE_NAME
    if not source.is_file():
        raise CheckError(f"{source} does not exist: DATA_DIR is the directory `manawire "
                         f"serve --data-dir` was given")
    temp = Path(tempfile.gettempdir())
    with tempfile.TemporaryDirectory(prefix="manawire-check-") as private:  # (0700)
        copy = Path(private) / STORE_NAME
        try:
            src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)
            try:
                # The copy's size: every page of the store as a reader sees it (the
                # write-ahead log's included), before anything is written.
                (pages,), = src.execute("PRAGMA page_count").fetchall()
                (page_size,), = src.execute("PRAGMA page_size").fetchall()
                check_room(temp, int(pages) * int(page_size))
                dst = sqlite3.connect(copy)
                try:
                    try:
                        src.backup(dst)  # one consistent read, whatever a server commits
                    except sqlite3.OperationalError as exc:  # (the store grew meanwhile)
                        raise CheckError(f"can't copy {source} into {temp}: {exc} (the "
                                         f"copy needs about the store's size free there: "
                                         f"point TMPDIR at a directory with room)") from None
                    rows = dst.execute(
                        "SELECT room_id, result IS NULL, aborted IS NOT NULL FROM games "
                        "ORDER BY created, room_id").fetchall()
                finally:
                    dst.close()
            finally:
                src.close()
        except sqlite3.Error as exc:
            raise CheckError(f"can't read {source}: {exc}") from None
        verdicts: list[Verdict] = []
        aborted = 0
        store = Store(copy)
        try:
            for room_id, in_play, was_aborted in rows:
                if was_aborted:
                    aborted += 1
                    continue
                problem = ""
                try:
                    Replay(store.load_game(str(room_id)), PUBLIC, start=False).check()
                except ReplayError as exc:
                    problem = exc.why
                except ValueError as exc:  # (an action this build can't read)
                    problem = f"its log holds an action this build can't read ({exc})"
                except Exception as exc:  # (a start would abort it likewise)
                    problem = f"playing its log raised {type(exc).__name__}: {exc}"
                verdicts.append(Verdict(str(room_id), bool(in_play), problem))
        finally:
            store.close()
    return Checked(tuple(verdicts), aborted)


def register(sub: Any) -> None:
    """Add the ``check-games`` subcommand to the ``manawire`` parser."""
    cmd = sub.add_parser("check-games", help="whether this build plays every stored game as "
                         "it was played (before an upgrade: the games it would abort or not "
                         "replay); reads a copy of the store, safe while the server runs")
    cmd.add_argument("data_dir", metavar="DATA_DIR", type=Path,
                     help="the server's --data-dir")
    cmd.set_defaults(check_games_main=main)


def main(args: argparse.Namespace) -> int:
    """Run ``manawire check-games``: 0 if this build plays every game as it was played, 1 if
    not (each such game named, with why), 2 if the store can't be read."""
    try:
        checked = check_games(args.data_dir)
    except CheckError as exc:
        print(f"manawire check-games: {exc}", file=sys.stderr)
        return 2
    verdicts = checked.verdicts
    in_play = sum(v.in_play for v in verdicts)
    differing = checked.differing
    print(f"manawire check-games: {len(verdicts):,} game{'' if len(verdicts) == 1 else 's'} "
          f"({in_play:,} in play, {len(verdicts) - in_play:,} finished; {checked.aborted:,} "
          f"aborted before, not checked): this build plays "
          f"{len(verdicts) - len(differing):,} as they were played, {len(differing):,} "
          f"otherwise", flush=True)
    for v in differing:
        what = "in play: a start of this build would abort it" if v.in_play else \
            "finished: this build would refuse to replay it"
        print(f"  {v.room_id} ({what}): {v.problem}", flush=True)
    return 1 if differing else 0
