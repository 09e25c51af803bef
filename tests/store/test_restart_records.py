"""What the store keeps so that a restart forgets nothing of a finished room and its rematch
(tests/rooms/test_restart_finished_rooms.py plays them through the app): who left the room
after its game ended (``SeatLeft.after_end``), the room a rematch's room rematches
(``RoomSettings.rematch_of``), and the client addresses a room in play counts against
(``RoomAddresses``, dropped once its game -- match -- is over). A data directory of the
schema before them loads as it was."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from server.engine.actions import PassPriority
from server.store.records import (
    AbortGame,
    AppendAction,
    CreateGame,
    FinishGame,
    MatchRecord,
    PutMatch,
    RoomAddresses,
    RoomSettings,
    SeatLeft,
)
from server.store.sqlite import Store


def _game(room: str, settings: RoomSettings | None = None, match_id: str = "") -> CreateGame:
    return CreateGame(room, "t", b"\x01" * 32, (("Ann", "naya-pets", "s1"),
                                                 ("Bob", "golgari-grind", "s2")), 60.0,
                      settings=settings or RoomSettings(), match_id=match_id)


def test_who_left_the_room_after_its_game_ended_comes_back_in_the_order_they_left(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path / "db.sqlite3")
    store.apply([_game("g"), AppendAction("g", 1, 0, PassPriority(), (60.0, 60.0)),
                 SeatLeft("g", 0), FinishGame("g", (1,), "conceded")])
    store.apply([SeatLeft("g", 1, after_end=True)])
    record = store.load_game("g")
    store.close()
    assert record.left == (0, 1) and record.left_after_end == (1,)


def test_a_rematchs_room_names_the_room_it_rematches() -> None:
    settings = RoomSettings(rematch_of="old1", best_of=3)
    assert RoomSettings.from_json(settings.to_json()) == settings
    assert RoomSettings.from_json(RoomSettings().to_json()).rematch_of == ""


def test_addresses_written_after_the_game_ended_are_not_kept(tmp_path: Path) -> None:
    """A quick match's late seat is stored apart from the room's records: written after the
    game's end (which dropped the row), it counted the finished room again after a restart
    (review)."""
    store = Store(tmp_path / "db.sqlite3")
    store.apply([_game("z"), RoomAddresses("z", ("10.0.0.1",)), FinishGame("z", (1,), "c")])
    store.apply([RoomAddresses("z", ("10.0.0.1", "10.0.0.2"))])
    store.apply([_game("q"), AbortGame("q", "failed"), RoomAddresses("q", ("10.0.0.3",))])
    store.apply([RoomAddresses("nowhere", ("10.0.0.4",))])
    assert store.room_addresses({"z", "q", "nowhere"}) == {}
    store.close()


def test_the_addresses_of_a_room_in_play_are_kept_until_it_is_over(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite3")
    store.apply([_game("a"), RoomAddresses("a", ("10.0.0.1", "10.0.0.2")),
                 _game("b"), RoomAddresses("b", ("10.0.0.3",)),
                 _game("m", match_id="m"), RoomAddresses("m", ("10.0.0.4",)),
                 _game("x"), RoomAddresses("x", ("10.0.0.5",))])
    store.apply([RoomAddresses("b", ("10.0.0.3", "10.0.0.6"))])  # (a late seat: all again)
    assert store.room_addresses({"a", "b", "m", "x"}) == {
        "a": ("10.0.0.1", "10.0.0.2"), "b": ("10.0.0.3", "10.0.0.6"), "m": ("10.0.0.4",),
        "x": ("10.0.0.5",)}
    # A single game over, a room aborted: counted no more. A match's first game over: the
    # match goes on, so does its count -- until the match is over.
    store.apply([FinishGame("a", (0,), "conceded"), AbortGame("x", "boom"),
                 FinishGame("m", (0,), "conceded")])
    assert set(store.room_addresses({"a", "b", "m", "x"})) == {"b", "m"}
    store.apply([PutMatch(MatchRecord("m", 3, ("naya-pets",) * 2, ("naya-pets",) * 2,
                                      ("m",), winner=0, reason="conceded"))])
    assert set(store.room_addresses({"b", "m"})) == {"b"}
    # A room no start reloaded is forgotten (the rows of the others are kept).
    assert store.room_addresses(set()) == {}
    assert store.room_addresses({"b"}) == {}
    store.close()


def test_a_data_directory_of_the_schema_before_loads_and_takes_the_new_records(
    tmp_path: Path,
) -> None:
    path = tmp_path / "db.sqlite3"
    old_settings = json.loads(RoomSettings(best_of=1).to_json())
    del old_settings["rematch_of"]
    db = sqlite3.connect(path)  # the games table as the build before made it, no addresses
    db.executescript("""
        CREATE TABLE games (room_id TEXT PRIMARY KEY, name TEXT NOT NULL, seed BLOB NOT NULL,
            players TEXT NOT NULL, created REAL NOT NULL, result TEXT, aborted TEXT,
            clock_seconds REAL NOT NULL DEFAULT 1800, finished REAL, accounts TEXT,
            settings TEXT, match_id TEXT, game_number INTEGER, chooser INTEGER,
            state_base INTEGER, left_seats TEXT);
    """)
    db.execute("INSERT INTO games (room_id, name, seed, players, created, settings, "
               "left_seats) VALUES ('g', 'old', x'00', ?, 0, ?, '1')",
               (json.dumps([["Ann", "naya-pets", "s1"], ["Bob", "golgari-grind", "s2"]]),
                json.dumps(old_settings)))
    db.commit()
    db.close()
    store = Store(path)
    record = store.load_game("g")
    assert record.left == (1,) and record.left_after_end == ()
    assert record.settings.rematch_of == ""
    store.apply([SeatLeft("g", 0, after_end=True), RoomAddresses("g", ("10.0.0.1",))])
    assert store.load_game("g").left_after_end == (0,)
    assert store.room_addresses({"g"}) == {"g": ("10.0.0.1",)}
    store.close()
