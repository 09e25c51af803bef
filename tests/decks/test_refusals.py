"""Deck lists that are refused, each problem naming its line (or element) and its reason in
plain words (no rule number: those are in the test names and docstrings), all problems at
once: unreadable lines and files, unknown cards, and the construction rules of constructed
(rules 100.2a, 100.4a) and limited (rules 100.2b, 100.4b) play and of ante (rule 407.3)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server import cards
from server.cards import DeckError
from server.decks import Deck, DeckFormat, DeckListError, check, parse, resolve
from server.decks.builder import SUGGESTED
from server.decks.model import MAX_DECK_BYTES, clean_name
from server.decks.names import POOL_NOTE, pool_note
from server.decks.parse import read

C, L = DeckFormat.CONSTRUCTED, DeckFormat.LIMITED


def problems(text: str, fmt: DeckFormat = C, **kwargs: bool) -> list[str]:
    with pytest.raises(DeckListError) as info:
        resolve(text, fmt, **kwargs)
    return info.value.problems


def only(text: str, fmt: DeckFormat = C) -> str:
    found = problems(text, fmt)
    assert len(found) == 1, found
    return found[0]


FILLER = "56 Mountain\n"  # with "4 Shock": a legal 60-card constructed deck


@pytest.mark.parametrize(("text", "problem"), [
    ("4 Shock\n0 Mountain\n56 Mountain\n",
     "line 2: a count is a whole number from 1 to 250, got '0'"),
    ("4 Shock\n251 Mountain\n" + FILLER,
     "line 2: a count is a whole number from 1 to 250, got '251'"),
    ("4 Shock\n-2 Mountain\n" + FILLER,
     "line 2: a count is a whole number from 1 to 250, got '-2'"),
    ("4 Shock\n" + FILLER + "Shock four\n",
     "line 3: expected '<count> <card name>', got 'Shock four'"),
    ("4 Shock\n" + FILLER + "4\n", "line 3: expected '<count> <card name>', got '4'"),
    ("4 Shock\n" + FILLER + "# ramp\n\n1 Forest\n1 Forest\n4 Black Lotus\n",
     "line 7: unknown or unsupported card 'Black Lotus'"),
    ("[Main]\n4 Shock|M21|zz\n" + FILLER,
     "line 2: expected an art index or a [collector number] after the set, got 'zz'"),
    ("[metadata]\nName Burn\n[Main]\n4 Shock\n" + FILLER,
     "line 2: expected '<key>=<value>' in [metadata], got 'Name Burn'"),
])
def test_malformed_lines_are_refused_naming_the_line(text: str, problem: str) -> None:
    assert only(text) == problem


def test_a_direction_override_in_a_line_is_shown_as_its_code_not_obeyed() -> None:
    """A right-to-left override (U+202E) quoted as is turned the rest of the message
    around in the player's client; it is shown as its code now, and a deck's name loses
    it."""
    assert only("4 Shock\n52 Mountain\n4 Sh\u202eock\n") == (
        "line 3: unknown or unsupported card 'Sh\\u202eock' -- did you mean 'Shock'?")
    assert clean_name("Burn \u202eevil\u2066") == "Burn evil"


def test_a_typo_gets_the_card_it_was_meant_to_be_for_the_first_few_unknown_names() -> None:
    """A new user's 'Shok', 'Forests' and 'Primal Might.' were refused with no hint; and a
    line with its count last ('Wildwood Scourge x4') wasn't read."""
    problems = read("4 Shok\n20 Forests\n4 Primal Might.\nWildwood Scourge x4\n"
                    "4 Lightning Bolt\n").problems
    assert problems == [
        "line 1: unknown or unsupported card 'Shok' -- did you mean 'Shock'?",
        "line 2: unknown or unsupported card 'Forests' -- did you mean 'Forest'?",
        "line 3: unknown or unsupported card 'Primal Might.' -- did you mean 'Primal Might'?",
        "line 5: unknown or unsupported card 'Lightning Bolt'"]
    assert pool_note(problems) == POOL_NOTE and not pool_note(["line 1: a count is ..."])
    # Suggestions take time: a list of unknown names gets them for its first few only.
    many = read("".join(f"1 Shok{i}\n" for i in range(SUGGESTED + 3))).problems
    assert sum("did you mean" in p for p in many) == SUGGESTED


def test_an_unknown_card_still_counts_toward_the_deck_size() -> None:
    """60 cards named, one of them unknown: only the unknown card is a problem (100.2a)."""
    assert only("4 Shock\n52 Mountain\n4 Lightning Bolt\n") == (
        "line 3: unknown or unsupported card 'Lightning Bolt'")


def test_test_cards_and_planes_are_not_deck_cards() -> None:
    """Test-only cards are never legal; planes belong in a planar deck (rules 311.1, 901.3)."""
    test_card = sorted(cards.test_card_pool())[0]
    assert only(f"4 {test_card}\n" + FILLER) == (
        f"line 1: unknown or unsupported card '{test_card}'")
    assert only("1 Gavony\n4 Shock\n" + FILLER) == (
        "line 1: unknown or unsupported card 'Gavony' (a plane: planes belong in a planar "
        "deck)")


def test_commander_and_companion_sections_are_refused() -> None:
    found = problems("Commander\n1 Shock\n\nCompanion\n1 Opt\n\nDeck\n4 Shock\n" + FILLER)
    assert found == [
        "line 1: a Commander section: the Commander variant is not played on this "
        "server",
        "line 4: a Companion section: companions are not supported; list the "
        "card in the Sideboard instead"]
    assert only("[Commander]\n1 Shock\n[Main]\n4 Shock\n" + FILLER) == (
        "line 1: the Forge section '[Commander]' is not supported (only [metadata], [Main] "
        "and [Sideboard])")


# -- files ------------------------------------------------------------------------------------

def test_empty_file_is_refused() -> None:
    assert only("") == "the deck list is empty"
    assert only(" \n\t\n") == "the deck list is empty"
    assert only("# just a comment\nSideboard\n") == "the deck list names no cards"


def test_oversized_text_is_refused_before_it_is_read() -> None:
    text = "4 Shock\n" + "56 Mountain\n" * 3000
    assert len(text.encode()) > MAX_DECK_BYTES
    assert only(text) == (f"the deck list is {len(text.encode())} bytes long; at most 32768 "
                          "bytes (32 KiB) are accepted")


@pytest.mark.parametrize("newline", ["\n", "\r", "\r\n", "\u2028", "\x0b"])
def test_more_than_1000_lines_are_refused_before_they_are_read(newline: str) -> None:
    text = f"1 x{newline}" * 1500
    assert only(text) == "the deck list has 1500 lines; at most 1000 are accepted"


@pytest.mark.parametrize("text", [
    "9" * 5000 + " Shock",  # int() refuses over 4,300 digits: a problem, never a crash
    '<Deck><Cards Quantity="' + "9" * 5000 + '" Sideboard="false" Name="Shock" /></Deck>',
    "4 " + "\ufdfa" * 5000,  # a name NFKD would blow up eighteenfold: unknown at once
])
def test_absurd_counts_and_names_are_problems_not_crashes(text: str) -> None:
    assert problems(text)


#: Lines that made a backtracking pattern take quadratic time (seconds for 32 KiB, on the
#: server's event loop): every pattern must stay linear on them.
_BLANKS = " " * 30_000


@pytest.mark.parametrize("text", [
    "1 a" + _BLANKS + "b",  # an Arena printing: name, blanks, "(SET)"
    "1" + _BLANKS + "x",  # a Forge card line: count, blanks, name, "|"
    "1\t" + "\t " * 15_000 + "x (M21",  # an Arena mark: blanks before "("
    "sb:" + _BLANKS + "1",
    "1 " + "a " * 15_000,
], ids=["printing", "forge-mark", "arena-mark", "sideboard-prefix", "words"])
def test_blank_runs_are_refused_in_linear_time(text: str) -> None:
    assert problems(text)


def test_xml_not_well_formed_names_line_and_column() -> None:
    text = '<Deck>\n  <Cards Quantity="4" Name="Shock">\n</Deck>\n'
    assert only(text) == "line 3, column 3: the XML is not well-formed: mismatched tag"


def test_xml_entity_declarations_are_refused_safely() -> None:
    """Billion laughs: nested entity definitions would expand to gigabytes."""
    levels = "".join(f'  <!ENTITY l{i} "{f"&l{i - 1};" * 10}">\n' for i in range(1, 10))
    text = (f'<?xml version="1.0"?>\n<!DOCTYPE Deck [\n  <!ENTITY l0 "lol">\n{levels}]>\n'
            '<Deck><Cards Quantity="4" Name="&l9;" /></Deck>\n')
    # Refused at the declaration: the entities are never expanded (an expansion would take
    # gigabytes of memory; this returns at once).
    assert only(text) == ("line 2: a document type declaration or entity is refused (deck "
                          "files have none, and entities can expand without bound)")


def test_xml_external_entities_are_refused() -> None:
    text = ('<?xml version="1.0"?>\n<!DOCTYPE cockatrice_deck SYSTEM "file:///etc/passwd">\n'
            '<cockatrice_deck version="1"/>\n')
    assert "line 2: a document type declaration or entity is refused" in only(text)


def test_xml_with_the_wrong_root_element_is_refused() -> None:
    assert only('<?xml version="1.0"?>\n<html><body/></html>\n') == (
        "line 2: expected the root element <Deck> (MTGO .dek) or <cockatrice_deck> (Cockatrice "
        ".cod), got <html>")


def test_mtgo_elements_are_refused_naming_their_line() -> None:
    text = ('<Deck>\n  <NetDeckID>0</NetDeckID>\n'
            '  <Cards CatID="1" Quantity="four" Sideboard="false" Name="Shock" />\n'
            '  <Cards Quantity="4" Sideboard="false" />\n'
            '  <Cards Quantity="4" Sideboard="maybe" Name="Shock" />\n'
            '  <Deckname>Burn</Deckname>\n'
            '  <Cards Quantity="4" Name="Black Lotus" />\n'
            '  <Cards Quantity="60" Name="Mountain" />\n</Deck>\n')
    assert problems(text) == [
        "line 3: a count is a whole number from 1 to 250, got 'four'",
        "line 4: a card without a name",
        "line 5: Sideboard is 'true' or 'false', got 'maybe'",
        "line 6: unexpected element <Deckname> in an MTGO deck (expected <Cards>)",
        "line 7: unknown or unsupported card 'Black Lotus'"]


def test_cockatrice_elements_are_refused_naming_their_line() -> None:
    text = ('<cockatrice_deck version="1">\n  <deckname>Burn</deckname>\n'
            '  <zone name="maybe"><card number="1" name="Shock"/></zone>\n'
            '  <zone name="main">\n    <card number="60" name="Mountain"/>\n'
            '    <card number="x" name="Shock"/>\n    <note/>\n  </zone>\n'
            '  <zone name="tokens"><card number="1" name="Goblin"/></zone>\n'
            '</cockatrice_deck>\n')
    assert problems(text) == [
        "line 3: unknown zone 'maybe' (expected 'main' or 'side')",
        "line 6: a count is a whole number from 1 to 250, got 'x'",
        "line 7: unexpected element <note> in a zone (expected <card>)"]


# -- construction rules -----------------------------------------------------------------------

def test_100_2a_constructed_deck_of_59_cards_is_refused_and_pointed_to_limited() -> None:
    """A deck of 40-59 cards is refused for constructed (100.2a) but is long enough for a
    limited room (100.2b): the refusal says so. A shorter one isn't pointed anywhere."""
    assert only("4 Shock\n55 Mountain\n") == (
        "a constructed deck has at least 60 cards in its main deck, got 59 -- a limited "
        "room takes a deck of 40 or more")
    assert only("4 Shock\n35 Mountain\n") == (
        "a constructed deck has at least 60 cards in its main deck, got 39")


def test_100_2a_five_copies_are_refused_counting_the_sideboard() -> None:
    expected = ("at most 4 copies of 'Shock' in a constructed deck and its sideboard "
                "together, other than basic lands, got 5")
    assert only("5 Shock\n55 Mountain\n") == expected
    assert only("3 Shock\n57 Mountain\nSideboard\n2 shock\n") == expected


def test_100_2a_basic_lands_have_no_copy_limit() -> None:
    assert len(resolve("30 Forest\n30 Mountain\nSideboard\n15 Forest\n", C).main) == 60


def test_100_4a_constructed_sideboard_of_16_cards_is_refused() -> None:
    assert only("4 Shock\n56 Mountain\nSideboard\n4 Opt\n12 Island\n") == (
        "a constructed sideboard has at most 15 cards, got 16")


def test_100_2b_limited_deck_of_39_cards_is_refused() -> None:
    assert only("4 Shock\n35 Mountain\n", L) == (
        "a limited deck has at least 40 cards in its main deck, got 39")


def test_100_2b_100_4b_limited_has_no_copy_limit_and_any_sideboard() -> None:
    deck = resolve("7 Shock\n33 Mountain\nSideboard\n9 Opt\n30 Island\n", L)
    assert (len(deck.main), len(deck.sideboard)) == (40, 39)
    assert only("7 Shock\n53 Mountain\n") == (
        "at most 4 copies of 'Shock' in a constructed deck and its sideboard together, other "
        "than basic lands, got 7")


def test_407_3_ante_cards_only_when_playing_for_ante() -> None:
    """The engine refuses them too (new_game, AnteError): refused here when submitted."""
    text = "1 Contract from Below\n59 Swamp\n"
    assert only(text) == ("'Contract from Below' is legal in a deck or sideboard only when "
                          "playing for ante")
    assert only("60 Swamp\nSideboard\n1 Contract from Below\n", L).endswith("for ante")
    assert len(resolve(text, C, ante=True).main) == 60


def test_server_limit_on_the_number_of_cards() -> None:
    text = "".join(f"250 {land}\n" for land in ("Forest", "Island", "Swamp", "Mountain"))
    assert only(text + "1 Plains\n", L) == (
        "this server takes at most 1000 cards in a deck and its sideboard together, got 1001")


# -- every problem at once --------------------------------------------------------------------

def test_all_problems_are_listed_at_once() -> None:
    text = ("0 Shock\nShock four\n5 Opt\n4 Black Lotus\n20 Island\n"
            "Sideboard\n16 Island\n1 Contract from Below\n")
    found = problems(text)
    assert found == [
        "line 1: a count is a whole number from 1 to 250, got '0'",
        "line 2: expected '<count> <card name>', got 'Shock four'",
        "line 4: unknown or unsupported card 'Black Lotus'",
        "a constructed deck has at least 60 cards in its main deck, got 29",
        "a constructed sideboard has at most 15 cards, got 17",
        "at most 4 copies of 'Opt' in a constructed deck and its sideboard together, other "
        "than basic lands, got 5",
        "'Contract from Below' is legal in a deck or sideboard only when playing for ante"]
    with pytest.raises(DeckListError) as info:
        check(text, C)
    assert str(info.value) == "\n".join(found)


def test_error_message_shows_twenty_problems_then_how_many_more() -> None:
    text = "".join(f"{i} Nonsense Card {i}\n" for i in range(1, 26))
    with pytest.raises(DeckListError) as info:
        parse(text)
    error = info.value
    assert isinstance(error, DeckError) and isinstance(error, ValueError)
    assert len(error.problems) == 25
    lines = str(error).split("\n")
    assert len(lines) == 21
    assert lines[0] == "line 1: unknown or unsupported card 'Nonsense Card 1'"
    assert lines[-1] == "… and 5 more"


def test_long_lines_are_cut_in_messages() -> None:
    problem = only("4 Shock\n" + FILLER + "x" * 500 + "\n")
    assert problem.startswith("line 3: expected '<count> <card name>', got 'xxx")
    assert problem.endswith("…'") and len(problem) < 150


# -- anything else ----------------------------------------------------------------------------

SAMPLE_TEXTS = [p.read_text(encoding="utf-8")
                for p in sorted((Path(__file__).parent / "files").iterdir())]


def resolves_or_refuses(text: str) -> None:
    try:
        deck = resolve(text, C)
    except DeckListError as exc:
        assert exc.problems and all(isinstance(p, str) and p for p in exc.problems)
    else:
        assert isinstance(deck, Deck)
        assert resolve(deck.text, C) == deck


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(codec="utf-8"), max_size=300))
def test_any_text_gives_a_deck_or_a_deck_list_error(text: str) -> None:
    resolves_or_refuses(text)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(SAMPLE_TEXTS), st.data())
def test_damaged_sample_files_give_a_deck_or_a_deck_list_error(text: str,
                                                               data: st.DataObject) -> None:
    """A sample cut short, or with a stretch deleted or replaced by random text."""
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    filler = data.draw(st.text(st.sampled_from('<>/="\' |[]()#&;!?x4 \n'), max_size=8))
    resolves_or_refuses(text[:start] + filler + text[end:])


def test_a_printing_of_another_set_is_no_problem_but_the_deck_says_it() -> None:
    """``4 Shock (M20) 999`` was accepted without a word: the deck a game gets carries a
    note (the server plays its own printing), and a list refused for something else still
    reads whole -- the printing is not a problem."""
    deck = resolve("4 Shock (M20) 999\n" + FILLER, C)
    assert deck.notes == ("line 1 names Shock's M20 printing: this server plays its M21 "
                          "printing, the same card (a printing never changes the game)",)
    assert deck == resolve("4 Shock\n" + FILLER, C)  # (the same deck: notes aren't compared)
    assert resolve("4 Shock (M21) 159\n" + FILLER, C).notes == ()
    assert only("4 Shock (M20) 999\n50 Mountain\n") == (
        "a constructed deck has at least 60 cards in its main deck, got 54 -- a limited "
        "room takes a deck of 40 or more")


def test_a_refusal_is_plain_words_without_rule_numbers() -> None:
    """Player-facing words carry no rule numbers ("... in its main deck (rule 100.2a), got
    59"): the rules are cited in the code and the tests, not to the player."""
    text = ("Commander\n1 Shock\n\nDeck\n5 Opt\n1 Gavony\n20 Island\nSideboard\n16 Island\n"
            "1 Contract from Below\n")
    found = problems(text)
    assert len(found) == 6 and not [p for p in found if re.search(r"\d{3}\.\d", p)], found
    assert not [p for p in problems("40 Island\n1 Contract from Below\n", L)
                if re.search(r"\d{3}\.\d", p)]
