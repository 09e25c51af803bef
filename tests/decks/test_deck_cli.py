"""``manawire deck check`` and ``manawire deck convert`` (rules 100.2a, 100.2b, 100.4a)."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from server.decks import FileFormat, parse
from server.decks.cli import main, register

FILES = Path(__file__).parent / "files"


def test_check_prints_format_counts_and_ok(capsys: pytest.CaptureFixture[str]) -> None:
    path = FILES / "gruul.dek"
    assert main(["deck", "check", str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"{path}: MTGO .dek deck 'gruul', constructed",
        "main deck: 60 cards, sideboard: 15 cards",
        "OK"]


def test_check_lists_every_problem_and_exits_1(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("5 Shock\n50 Mountain\n4 Black Lotus\nSideboard\n16 Island\n")
    assert main(["deck", "check", str(path)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"{path}: plain text deck 'bad', constructed",
        "main deck: 59 cards, sideboard: 16 cards",
        "line 3: unknown or unsupported card 'Black Lotus'",
        "a constructed deck has at least 60 cards in its main deck, got 59 -- a limited room "
        "takes a deck of 40 or more",
        "a constructed sideboard has at most 15 cards, got 16",
        "at most 4 copies of 'Shock' in a constructed deck and its sideboard together, other "
        "than basic lands, got 5",
        "(this server supports the cards of Core Set 2021 (M21) and a few others)"]


def test_check_in_limited(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "sealed.dck"
    path.write_text("[metadata]\nName=Sealed\n[Main]\n6 Shock|M21\n34 Mountain\n")
    assert main(["deck", "check", str(path), "--format", "limited"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == f"{path}: Forge .dck deck 'Sealed', limited"
    assert main(["deck", "check", str(path)]) == 1


@pytest.mark.parametrize("fmt", list(FileFormat))
def test_convert_prints_the_deck_in_another_format(
        fmt: FileFormat, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "convert", str(FILES / "gruul.cod"), "--to", fmt.value]) == 0
    back = parse(capsys.readouterr().out)
    original = parse((FILES / "gruul.cod").read_text())
    assert back.source is fmt
    assert [(e.count, e.card.name) for e in back.main] == [
        (e.count, e.card.name) for e in original.main]
    assert back.sideboard == original.sideboard


def test_convert_refuses_an_unreadable_deck(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "broken.cod"
    path.write_text("<cockatrice_deck><zone name='main'>")
    assert main(["deck", "convert", str(path), "--to", "text"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "the XML is not well-formed" in captured.err


def test_unreadable_files_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "check", str(tmp_path / "missing.txt")]) == 2
    assert "cannot read" in capsys.readouterr().err
    latin = tmp_path / "latin.txt"
    latin.write_bytes(b"4 Tef\xe9ri\n")
    assert main(["deck", "check", str(latin)]) == 2
    assert "is not UTF-8" in capsys.readouterr().err


def test_register_adds_deck_to_another_parser() -> None:
    parser = argparse.ArgumentParser(prog="manawire")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("serve")
    register(sub)
    args = parser.parse_args(["deck", "convert", "x.dek", "--to", "forge"])
    assert (args.command, args.deck_command, args.to) == ("deck", "convert", "forge")
    assert callable(args.deck_main)
    with pytest.raises(SystemExit):
        parser.parse_args(["deck", "convert", "x.dek", "--to", "yaml"])


def test_a_printing_of_another_set_is_played_with_a_note(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An Arena line naming another set, ``4 Shock (M20) 999``, was taken without a word:
    the card is the same in every set (201.2) and the server plays its own printing, which
    the check says -- the list is no less playable for it. Its own printing says nothing."""
    path = tmp_path / "arena.txt"
    path.write_text("4 Shock (M20) 999\n56 Mountain (M21) 271\n")
    assert main(["deck", "check", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[2:] == [
        "OK",
        "note: line 1 names Shock's M20 printing: this server plays its M21 printing, the "
        "same card (a printing never changes the game)"]
    path.write_text("[Main]\n4 Shock|M20\n4 Opt|XLN|[65]\n52 Mountain|M21\n")
    assert main(["deck", "check", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[2:] == [
        "OK",
        "note: lines 2 and 3 name printings of other sets (M20, XLN): this server plays its "
        "own printing of each card (M21), the same cards (a printing never changes the game)"]
