"""``manawire check-games DATA_DIR``: before an upgrade, which stored games the new build plays
otherwise (docs/operating.md, "Upgrades") -- games in play a start would abort, finished games whose
replay it would refuse -- read from a copy of the store, the store itself left as it was."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from server.check_games import check_games
from server.cli import main
from server.store import Store
from tests.rooms.test_replay_app import store_game
from tests.rooms.test_replay_other_rules import TAMPERED, _store


def _tampered_in_play(path: Path) -> None:
    """A game in play whose log a later build's rules play otherwise (an action gone)."""
    store = Store(path)
    try:
        store_game(store, "in-play", ("a", "b"), finish=False)
        store_game(store, "in-play-ok", ("a", "b"), finish=False, seed=6)
    finally:
        store.close()
    db = sqlite3.connect(path)
    try:
        db.execute("DELETE FROM actions WHERE room_id = 'in-play' AND seq = (SELECT MIN(seq) "
                   "FROM actions WHERE room_id = 'in-play' AND seq > 3)")
        db.execute("UPDATE games SET aborted = 'incident x' WHERE room_id = 'unreadable'")
        db.commit()
    finally:
        db.close()


def test_it_names_each_game_played_otherwise_and_why_and_leaves_the_store_alone(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "manawire.sqlite3"
    _store(path)
    _tampered_in_play(path)
    before = path.read_bytes()
    checked = check_games(tmp_path)
    assert checked.aborted == 1  # ("unreadable", aborted before: not checked)
    verdicts = {v.room_id: v for v in checked.verdicts}
    assert set(verdicts) == {"good", "illegal", "otherwise", "unfinished", "in-play",
                             "in-play-ok"}
    assert [v.room_id for v in checked.differing] == ["illegal", "otherwise", "unfinished",
                                                      "in-play"]
    for room_id in ("illegal", "otherwise", "unfinished"):
        assert TAMPERED[room_id][1] in verdicts[room_id].problem
        assert not verdicts[room_id].in_play
    assert verdicts["in-play"].in_play and "is not legal at that point under this build's " \
        "rules" in verdicts["in-play"].problem
    assert verdicts["good"].problem == verdicts["in-play-ok"].problem == ""
    assert main(["check-games", str(tmp_path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == ("manawire check-games: 6 games (2 in play, 4 finished; 1 aborted "
                      "before, not checked): this build plays 2 as they were played, 4 "
                      "otherwise")
    assert out[1].startswith("  illegal (finished: this build would refuse to replay it): "
                             "its action ")
    assert out[4].startswith("  in-play (in play: a start of this build would abort it): "
                             "its action ")
    assert len(out) == 5
    assert path.read_bytes() == before  # (read from a copy)


def test_a_store_whose_games_all_play_as_played_exits_0_and_no_store_exits_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = Store(tmp_path / "manawire.sqlite3")
    try:
        store_game(store, "done", ("a", "b"))
    finally:
        store.close()
    assert main(["check-games", str(tmp_path)]) == 0
    assert capsys.readouterr().out.endswith("this build plays 1 as they were played, 0 "
                                            "otherwise\n")
    assert main(["check-games", str(tmp_path / "nowhere")]) == 2
    assert "does not exist" in capsys.readouterr().err
