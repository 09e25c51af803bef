"""How ``manawire play`` says a refused deck: the problems, then the server's note on the
cards it supports on a line of its own -- at the end of the first line, a terminal of 120
columns wrapped it before its closing bracket: "... and a few others" then ")" alone (found
by a new player)."""

from __future__ import annotations

import pytest

from client_sdk.cli import run_command, split_note
from client_sdk.client import ServerError
from protocol.v1 import messages_pb2 as mpb

NOTE = "(this server supports the cards of Core Set 2021 (M21) and a few others)"


def test_a_closing_note_in_brackets_is_split_off() -> None:
    assert split_note(f"1 problem(s) {NOTE}") == ("1 problem(s)", NOTE)
    assert split_note("no note here") == ("no note here", "")
    assert split_note("(all of it)") == ("(all of it)", "")
    assert split_note("unbalanced)") == ("unbalanced)", "")
    # A bracket closing a word is no note: a refusal without the server's note printed a
    # stray "(s)" on a line of its own (new player, round 9).
    assert split_note("1 problem(s)") == ("1 problem(s)", "")
    assert split_note(f"2 problem(s){NOTE}") == (f"2 problem(s){NOTE}", "")


def test_a_refused_decks_note_follows_its_problems(capsys: pytest.CaptureFixture[str]) -> None:
    async def refused() -> int:
        raise ServerError(mpb.ERROR_CODE_INVALID_DECK,
                          f"the deck can't be played in constructed: 1 problem(s) {NOTE}",
                          ["line 1: unknown or unsupported card 'Shokc' -- did you mean "
                           "'Shock'?"])

    assert run_command("play", refused) == 1
    assert capsys.readouterr().err.splitlines() == [
        "manawire play: the deck can't be played in constructed: 1 problem(s)",
        "  line 1: unknown or unsupported card 'Shokc' -- did you mean 'Shock'?",
        NOTE]


def test_a_refusal_without_a_note_is_said_whole(capsys: pytest.CaptureFixture[str]) -> None:
    async def refused() -> int:
        raise ServerError(mpb.ERROR_CODE_INVALID_DECK,
                          "the deck can't be played in constructed: 1 problem(s)",
                          ["a constructed deck has at least 60 cards in its main deck, got 40"])

    assert run_command("play", refused) == 1
    assert capsys.readouterr().err.splitlines() == [
        "manawire play: the deck can't be played in constructed: 1 problem(s)",
        "  a constructed deck has at least 60 cards in its main deck, got 40"]
