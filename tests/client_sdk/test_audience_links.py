"""The terminal's invite words and links (new-user round HIGH): the watch command and link
carry the room's audience code -- it watches, never takes a seat -- and the seat ones the
players' invite code; a room known from before rooms had an audience code (none kept)
keeps its watch links on the invite code. The codes are kept per room for ``invite`` after
the terminal closed and came back."""

from __future__ import annotations

from pathlib import Path

import pytest

from client_sdk import saved
from client_sdk.board import Board
from client_sdk.invites import invite_text, invite_words
from client_sdk.mirror import Mirror

URL = "ws://127.0.0.1:8765"


def _lines(text: str, start: str) -> list[str]:
    """The lines of ``text`` from the one starting (stripped) with ``start`` on: that one
    and the browser line under it."""
    lines = [line.strip() for line in text.splitlines()]
    at = next(i for i, line in enumerate(lines) if line.startswith(start))
    return lines[at:at + 2]


def test_watch_links_carry_the_audience_code_and_seat_links_the_invite_code() -> None:
    text = invite_text(URL, "r1", "SEATCODE", False, audience="WATCHCODE")
    assert _lines(text, "anyone watches") == [
        f"anyone watches with:  manawire watch {URL} r1 --invite WATCHCODE",
        "or in a browser:  http://127.0.0.1:8765/#watch=r1&code=WATCHCODE"]
    assert _lines(text, "a friend joins") == [
        f"a friend joins with:  manawire play {URL} --room r1 --invite SEATCODE",
        "or in a browser:  http://127.0.0.1:8765/#join=r1&code=SEATCODE"]
    assert "#watch=r1&code=SEATCODE" not in text and "watch ws" in text
    full = invite_text(URL, "r1", "SEATCODE", False, seats_open=False, audience="WATCHCODE")
    assert "SEATCODE" not in full.split("every seat is taken.")[1]
    # A room made before rooms had an audience code: its invite code watches, as before.
    old = invite_text(URL, "r1", "SEATCODE", False)
    assert "#watch=r1&code=SEATCODE" in old


def test_invite_says_the_boards_audience_code_in_the_watch_links() -> None:
    board = Board(Mirror(), url=URL, account="host")
    board.room.room_id, board.room.private, board.room.seats = "r1", True, 2
    board.invite_code, board.audience_code = "SEATCODE", "WATCHCODE"
    words = invite_words(board)
    assert "#watch=r1&code=WATCHCODE" in words and "#join=r1&code=SEATCODE" in words
    assert "#watch=r1&code=SEATCODE" not in words


def test_the_audience_code_is_kept_beside_the_invite_code(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(saved.STATE_ENV, str(tmp_path / "state"))
    saved.save_invite("ws://a:1/", "r1", "code1", "watch1")
    saved.save_invite("ws://a:1", "r0", "code0")  # (a room kept before audience codes)
    assert saved.load_invite("ws://a:1", "r1") == "code1"
    assert saved.load_invite("ws://a:1/", "r1", audience=True) == "watch1"
    assert saved.load_invite("ws://a:1", "r0", audience=True) == ""
    assert saved.load_invite("ws://a:1", "r0") == "code0"
