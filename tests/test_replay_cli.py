"""``manawire replay``: the operator's offline replay of a stored game, per action."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from server.cli import main
from server.replay import EVERY_HAND, OMNISCIENT, PUBLIC, Replay
from server.store import Store
from tests.rooms.test_replay_app import store_game


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    store = Store(tmp_path / "manawire.sqlite3")
    store_game(store, "done", ("a", "b"))
    store_game(store, "running", ("a", "b"), finish=False)
    store.close()
    return tmp_path


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(("perspective", "viewer"), [("0", 0), ("public", PUBLIC),
                                                     ("hands", EVERY_HAND),
                                                     ("all", OMNISCIENT)])
def test_json_lines_give_every_action_with_the_replayed_view_hash(
        data_dir: Path, capsys: pytest.CaptureFixture[str], perspective: str,
        viewer: int) -> None:
    code, out, _ = _run(capsys, "replay", "done", "--as", perspective, "--data-dir",
                        str(data_dir), "--format", "json")
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    store = Store(data_dir / "manawire.sqlite3")
    record = store.load_game("done")
    replay = Replay(record, viewer)
    store.close()
    assert lines[0]["snapshot"] and lines[0]["state_id"] == 1
    assert lines[0]["view_hash"] == replay.view_hash.hex()
    frames = list(replay.frames())
    assert [ln["action"] for ln in lines[1:]] == list(range(1, len(frames) + 1))
    assert [(ln["state_id"], ln["view_hash"], ln["turn"]) for ln in lines[1:]] == [
        (f.state_id, f.view_hash.hex(), f.turn) for f in frames]
    assert lines[-1]["kind"] == "Concede"
    # The game's end, in the same words as the clients' (client_sdk.describe).
    result = record.result or {}
    assert result["winners"] and lines[-1]["events"][-1].endswith(f" won ({result['reason']})")


def test_text_starts_at_an_action_or_a_turn(data_dir: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "replay", "done", "--as", "1", "--data-dir", str(data_dir),
                        "--at", "30")
    assert code == 0
    lines = out.splitlines()
    # The players named by the seat numbers --as takes (the terminal counts from 1).
    assert lines[0].startswith("game done as seat 1 (P1): ")
    assert lines[0].endswith("players: seat 0 P0, seat 1 P1")
    assert "snapshot after action 30" in lines[1]
    # The board it starts from, in the terminal's words (it printed only its state id
    # and hash, found by a caster), seats numbered as --as takes them.
    first = next(n for n, line in enumerate(lines) if line.startswith("#"))
    board = "\n".join(lines[2:first])
    assert "P0 seat 0  life " in board and "P1 seat 1  life " in board, board
    assert "hand:" in board and "Stack" in board  # (seat 1's own hand)
    assert lines[first].startswith("#31 turn ") and " seat 0 (P0) " in out
    assert "drew a card" in out
    # How the game ended in words (it printed a Python dict), the winner named.
    store = Store(data_dir / "manawire.sqlite3")
    result = store.load_game("done").result or {}
    store.close()
    assert lines[-1] == f"Game over: P0 won ({result['reason']})", lines[-1]
    code, out, _ = _run(capsys, "replay", "done", "--as", "public", "--data-dir",
                        str(data_dir), "--turn", "2")
    assert code == 0 and "(turn 2)" in out.splitlines()[1]
    assert "hand:" not in out.split("\n#", 1)[0]  # (the spectators' board: no hand)


def test_refusals(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "replay", "running", "--as", "0", "--data-dir", str(data_dir))
    assert code == 1 and "not finished" in err
    code, _, err = _run(capsys, "replay", "nope", "--as", "0", "--data-dir", str(data_dir))
    assert code == 2 and "no game" in err
    code, _, err = _run(capsys, "replay", "done", "--as", "me", "--data-dir", str(data_dir))
    assert code == 2
    code, _, err = _run(capsys, "replay", "done", "--as", "5", "--data-dir", str(data_dir))
    assert code == 1 and "seats" in err
    code, _, err = _run(capsys, "replay", "done", "--as", "0", "--data-dir", str(data_dir),
                        "--turn", "999")
    assert code == 1 and "turns" in err
    code, _, err = _run(capsys, "replay", "done", "--as", "0", "--data-dir",
                        str(data_dir / "nowhere"))
    assert code == 2 and "no store" in err
