"""A stored game replayed by a build whose rules play its log otherwise (docs/operating.md,
"Upgrades"): an action not legal any more, the same actions to another end, a log that no
longer finishes the game, an action type this build can't read. The replay is refused in
words before anything of it is shown -- over the protocol (the connection goes on) and by
``manawire replay`` -- never a game that didn't happen, never an internal error; and a fault
in one replay ends that replay only (an incident of kind ``replay``)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Generator
from pathlib import Path

import pytest
import trio

from protocol.v1 import messages_pb2 as mpb
from server import incidents
from server.cli import main
from server.replay import PUBLIC, Replay, ReplayError
from server.store import Store
from tests.rooms.test_app_memory import running_app
from tests.rooms.test_replay_app import _client, _replay, _until, store_game

#: Each way a later build may play a stored game otherwise, and what the refusal says.
TAMPERED = {
    # An action missing from the log: the next ones are played where they weren't legal.
    "illegal": ("DELETE FROM actions WHERE room_id = 'illegal' AND seq = "
                "(SELECT MIN(seq) FROM actions WHERE room_id = 'illegal' AND seq > 3)",
                "is not legal at that point under this build's rules"),
    # The concession is the other seat's: the same kind of end, another winner.
    "otherwise": ("UPDATE games SET result = json_set(result, '$.winners', json('[1]')) "
                  "WHERE room_id = 'otherwise'",
                  "end it otherwise under this build's rules"),
    # The last action (the concession) gone: the log leaves the game going on.
    "unfinished": ("DELETE FROM actions WHERE room_id = 'unfinished' AND seq = "
                   "(SELECT MAX(seq) FROM actions WHERE room_id = 'unfinished')",
                   "don't finish it under this build's rules"),
    # An action type a later build added.
    "unreadable": ("UPDATE actions SET action = '{\"type\": \"FutureAction\"}' "
                   "WHERE room_id = 'unreadable' AND seq = "
                   "(SELECT MIN(seq) FROM actions WHERE room_id = 'unreadable')",
                   "its log holds an action this build can't read"),
}


def _store(path: Path, accounts: tuple[str, str] = ("a", "b")) -> None:
    """Each game of :data:`TAMPERED` (played and stored, then changed as a later build's
    rules would see it), and an untouched one, ``good``."""
    store = Store(path)
    try:
        for room_id in ("good", *TAMPERED):
            store_game(store, room_id, accounts)
            # (seat 1 concedes: seat 0 won, as "otherwise" changes)
            assert json.loads(json.dumps(store.load_game(room_id).result))["winners"] == [0]
    finally:
        store.close()
    db = sqlite3.connect(path)
    try:
        for sql, _said in TAMPERED.values():
            assert db.execute(sql).rowcount == 1
        db.commit()
    finally:
        db.close()


@pytest.mark.parametrize("room_id", [r for r in TAMPERED if r != "unreadable"])
def test_a_log_this_builds_rules_play_otherwise_is_refused_before_anything_is_shown(
        tmp_path: Path, room_id: str) -> None:
    _store(tmp_path / "manawire.sqlite3")
    store = Store(tmp_path / "manawire.sqlite3")
    try:
        record = store.load_game(room_id)
        good = store.load_game("good")
    finally:
        store.close()
    replay = Replay(record, PUBLIC)
    with pytest.raises(ReplayError) as refused:
        replay.check()
    assert refused.value.code == mpb.ERROR_CODE_GAME_OVER
    assert refused.value.message.startswith(
        f"game {room_id} was played by a build whose rules differ from this one's: ")
    assert TAMPERED[room_id][1] in refused.value.message
    assert refused.value.message.endswith("so this build can't replay it (the build that "
                                          "played it can)")
    Replay(good, PUBLIC).check()  # (the same game untouched: replayed)


async def test_over_the_protocol_the_refusal_is_said_and_the_connection_goes_on(
        tmp_path: Path) -> None:
    _store(tmp_path / "db.sqlite3")  # (the store running_app opens: left by another build)
    with trio.fail_after(60):  # (a connection closed on a fault would leave a request unanswered)
        await _refusals_said(tmp_path)


async def _refusals_said(tmp_path: Path) -> None:
    async with running_app(tmp_path) as app:
        eve, _eve_id = await _client(app, "Eve")
        for room_id, (_sql, said) in TAMPERED.items():
            reply = await eve.request(**_replay(room_id=room_id, public=True))
            assert reply.error.code == mpb.ERROR_CODE_GAME_OVER, (room_id, reply)
            assert said in reply.error.message and not reply.error.incident_id
        # Nothing failed: the same connection replays the untouched game.
        status = await eve.request(**_replay(room_id="good", public=True, paused=True))
        assert status.WhichOneof("body") == "replay_status", status
        assert (await _until(eve, "snapshot")).snapshot.state_id >= 1


async def test_a_fault_in_a_replay_ends_that_replay_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with trio.fail_after(60):  # (a connection closed on a fault would leave a request unanswered)
        await _fault_ends_the_replay(tmp_path, monkeypatch)


async def _fault_ends_the_replay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with running_app(tmp_path) as app:
        ann, ann_id = await _client(app, "Ann")
        _bob, bob_id = await _client(app, "Bob")
        store_game(app.store, "g", (ann_id, bob_id))
        before = incidents.totals()["replay"]

        def broken(self: Replay) -> Generator[None, None, None]:
            raise RuntimeError("a bug in replaying")
            yield

        with monkeypatch.context() as patch:
            patch.setattr(Replay, "index_steps", broken)
            reply = await ann.request(**_replay(room_id="g", seat=0))
        assert reply.error.code == mpb.ERROR_CODE_INTERNAL
        assert reply.error.incident_id and reply.error.incident_id in reply.error.message
        assert incidents.totals()["replay"] == before + 1
        status = await ann.request(**_replay(room_id="g", seat=0, paused=True))
        assert status.WhichOneof("body") == "replay_status", status


@pytest.mark.parametrize("room_id", list(TAMPERED))
def test_manawire_replay_says_why_it_cant(tmp_path: Path, room_id: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    _store(tmp_path / "manawire.sqlite3")
    code = main(["replay", room_id, "--as", "public", "--data-dir", str(tmp_path)])
    out, err = capsys.readouterr()
    assert code == 1 and out == ""
    assert err.startswith(f"game {room_id} was played by a build whose rules differ from "
                          f"this one's: ")
    assert TAMPERED[room_id][1] in err and "Traceback" not in err
    assert main(["replay", "good", "--as", "public", "--data-dir", str(tmp_path)]) == 0
