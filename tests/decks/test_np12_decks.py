"""What new player round 12 met bringing a deck: a blank line before the lands that made
them a sideboard, said nowhere (rules 100.2a, 100.4a), and a demo deck's name typed with a
space (``dimir mill``) refused as an unreadable line."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
import trio.testing

from protocol.v1 import messages_pb2 as mpb
from server.cards import demo_deck_names
from server.decks import DeckFormat, DeckListError, demo_named, resolve
from server.decks.cli import main
from tests.rooms.test_app_memory import running_app
from tests.rooms.test_app_rooms import Peer

C, L = DeckFormat.CONSTRUCTED, DeckFormat.LIMITED

#: The player's list (/tmp/np12/twoblock.txt): 45 spells and lands, a blank line, 15 more.
SPELLS = "".join(f"4 {name}\n" for name in (
    "Shock", "Scorching Dragonfire", "Volcanic Geyser", "Goblin Arsonist", "Bolt Hound",
    "Onakke Ogre", "Heartfire Immolator", "Hobblefiend", "Pitchburn Devils"))
TWO_BLOCKS = SPELLS + "9 Mountain\n\n15 Mountain\n"
#: What the refusal says of the block after the blank line (line 11), in plain words.
BLANK = ("the 15 cards after the blank line at line 11 were read as the sideboard (a blank "
         "line before a last block of 15 cards or fewer starts the sideboard); to play them "
         "in the main deck, remove that blank line -- the main deck would then have 60 cards")


def problems(text: str, fmt: DeckFormat = C) -> list[str]:
    with pytest.raises(DeckListError) as info:
        resolve(text, fmt)
    return info.value.problems


def test_a_main_deck_short_of_60_says_the_block_after_a_blank_line_was_the_sideboard() -> None:
    """Rule 100.2a (60 cards) and 100.4a: the list's last block after a blank line was read
    as its sideboard, as MTGO's text export writes one; the refusal said only "at least 60
    cards ..., got 45" under a box holding 60. It says which cards, where, and what to do --
    and not "a limited room takes a deck of 40 or more", which pointed the player away."""
    assert problems(TWO_BLOCKS) == [
        "a constructed deck has at least 60 cards in its main deck, got 45", BLANK]
    # Blank lines of their own (two, or blanks holding spaces): the last one before the block.
    spaced = SPELLS + "9 Mountain\n\n \n15 Mountain\n"
    assert problems(spaced)[1].startswith("the 15 cards after the blank line at line 12 ")
    # Without the blank line, the deck is whole; with a "Sideboard" line, nothing is guessed
    # and nothing is said of a blank line.
    assert resolve(SPELLS + "9 Mountain\n15 Mountain\n", C).main
    headed = SPELLS + "9 Mountain\n\nSideboard\n15 Mountain\n"
    assert problems(headed) == [
        "a constructed deck has at least 60 cards in its main deck, got 45 -- a limited room "
        "takes a deck of 40 or more"]
    # A main deck big enough: the sideboard read so is the list's own (MTGO's export).
    assert resolve(SPELLS + "24 Mountain\n\n1 Mountain\n", C).sideboard


def test_one_card_after_the_blank_line_and_a_limited_deck() -> None:
    """A sideboard of one card is "1 card"; a limited deck (rule 100.2b: 40 cards) short of
    its minimum says so too -- only where the block made it short."""
    one = "39 Mountain\n1 Shock\n\n1 Mountain\n"
    assert resolve(one, L).main  # 40: a limited deck, its sideboard its own
    assert problems(one)[1].startswith("the 1 card after the blank line at line 3 were read")


def test_deck_check_says_it_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``manawire deck check`` printed "sideboard: 15 cards" and the size problem alone."""
    path = tmp_path / "twoblock.txt"
    path.write_text(TWO_BLOCKS)
    assert main(["deck", "check", str(path)]) == 1
    assert capsys.readouterr().out.splitlines()[1:] == [
        "main deck: 45 cards, sideboard: 15 cards",
        "a constructed deck has at least 60 cards in its main deck, got 45", BLANK]


async def test_the_refusal_a_client_gets_says_it(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    """What reaches the browser and ``manawire play`` (Error.details, each shown as it is:
    tests/terminal/test_cli_errors.py, web/test/deck.test.ts)."""
    async with running_app(tmp_path) as app:
        ann = Peer(app, "ann")
        await ann.hello()
        reply = await ann.call(create_room=mpb.CreateRoom(
            name="t", join=True, deck=TWO_BLOCKS, computers=1, seats=2, private=True))
        assert reply.error.code == mpb.ERROR_CODE_INVALID_DECK
        assert BLANK in reply.error.details
        await trio.sleep(60)
        reply = await ann.call(create_room=mpb.CreateRoom(
            name="t", join=True, deck="Dimir Mill", computers=1, seats=2, private=True))
        assert reply.WhichOneof("body") == "room_created", reply
        ann.pump()
        joined = [m for m in ann.got if m.WhichOneof("body") == "joined"]
        assert joined and joined[0].joined.deck_name == "dimir-mill"
        assert joined[0].joined.demo_deck


@pytest.mark.parametrize("typed", ["dimir mill", "Dimir-Mill ", "dimir_mill", "DIMIR MILL",
                                   "  dimir -  mill\n", "dimirmill"])
def test_a_demo_decks_name_is_taken_up_to_case_blanks_underscores_and_hyphens(
        typed: str) -> None:
    """"dimir mill" got only "line 1: expected '<count> <card name>', got 'dimir mill'"."""
    assert demo_named(typed) == "dimir-mill"
    assert resolve(typed, C) == resolve("dimir-mill", C)


def test_the_demo_decks_names_are_each_their_own_up_to_those() -> None:
    loose = {n.replace("-", "").casefold() for n in demo_deck_names()}
    assert len(loose) == len(demo_deck_names())
    assert demo_named("dimir mill\n4 Shock") is None
    assert demo_named("") is None and demo_named(" - ") is None


@pytest.mark.parametrize(("typed", "meant"), [
    ("dimir mil", "dimir-mill"), ("dimir-mil", "dimir-mill"), ("Izet Spells", "izzet-spells"),
    ("rakdos", "rakdos-aggro"), ("simic", "simic-draw")])
def test_a_name_close_to_a_demo_decks_is_asked_about(typed: str, meant: str) -> None:
    assert problems(typed) == [
        f"line 1: expected '<count> <card name>', got '{typed}' -- did you mean the demo "
        f"deck '{meant}'?"]


def test_a_one_line_text_like_no_demo_deck_lists_their_names() -> None:
    """Where else would a player find them: the lobby's deck box is where the refusal is."""
    assert problems("mono red") == [
        "line 1: expected '<count> <card name>', got 'mono red' -- or name a demo deck: "
        + ", ".join(demo_deck_names())]
    # A list of more lines, or a card line, is a list: no word of demo decks.
    assert problems("mono red\n4 Shock\n56 Mountain\n") == [
        "line 1: expected '<count> <card name>', got 'mono red'"]
    assert problems("4 Shok")[0] == (
        "line 1: unknown or unsupported card 'Shok' -- did you mean 'Shock'?")
