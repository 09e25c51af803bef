"""What a start says it restored (an operator's report): "N games restored" counted the
finished rooms still lingering as games, and a game whose log no longer replays was logged
"could not recover room X", while README says `recovery failed`. The line now says
``N games restored (M in play, K finished and lingering; F could not be recovered)``, and
the log line of each failure says "recovery failed" with its incident."""

from __future__ import annotations

import re
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

from server.engine.actions import Concede, PassPriority
from server.store.records import AppendAction, CreateGame, FinishGame
from server.store.sqlite import Store

DECKS = (("Ann", "naya-pets", "s1"), ("Bob", "golgari-grind", "s2"))


def _game(room: str) -> CreateGame:
    return CreateGame(room, "t", room.encode().ljust(32, b"x"), DECKS, 600.0)


def test_a_start_says_what_it_restored_and_what_it_could_not(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    path = tmp_path / "data" / "manawire.sqlite3"
    store = Store(path)
    store.apply([_game("playing"), _game("over"), _game("unreadable"), _game("unplayable"),
                 AppendAction("over", 1, 0, Concede(), ()), FinishGame("over", (1,), "concede"),
                 AppendAction("unreadable", 1, 0, PassPriority(), ()),
                 # (passing priority before anyone kept a hand: its replay fails)
                 AppendAction("unplayable", 1, 1, PassPriority(), ())])
    store.close()
    with sqlite3.connect(path) as db:  # (an action a newer build wrote)
        db.execute("""UPDATE actions SET action = '{"type": "PassPriority", "new": 1}' """
                   "WHERE room_id = 'unreadable'")
    db.close()
    proc = subprocess.Popen([sys.executable, "-m", "server.cli", "serve", "--host", "127.0.0.1",
                             "--port", "0", "--data-dir", str(tmp_path / "data")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
    finally:
        proc.send_signal(signal.SIGTERM)
        _out, err = proc.communicate(timeout=60)
    assert ("; 2 games restored (1 in play, 1 finished and lingering; 2 could not be "
            "recovered)); open http://") in first, (first, err)
    # The restart harness's reading of the line still holds.
    found = re.search(r"(\d+) games? restored", first)
    assert found is not None and found.group(1) == "2"
    for room in ("unreadable", "unplayable"):
        failed = [line for line in err.splitlines() if f"room {room}" in line and "ERROR" in line]
        assert len(failed) == 1, err
        assert "recovery failed" in failed[0] and re.search(r"incident [0-9a-f]{12}", failed[0])
