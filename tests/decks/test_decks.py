"""Deck lists in every format: reading, name matching, export round trips, canonical storage
and :func:`server.decks.resolve` (rules 100.2a, 100.2b, 100.4a, 100.4b, 103.2, 201.2)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.cards import CardDef, card, card_pool, demo_deck, demo_deck_names
from server.decks import (
    Deck,
    DeckFormat,
    DeckList,
    Entry,
    FileFormat,
    canonical,
    complete,
    detect_format,
    export,
    parse,
    resolve,
    to_deck,
)
from server.decks.model import clean_name

FILES = Path(__file__).parent / "files"
SAMPLES = {"gruul.txt": FileFormat.TEXT, "gruul-arena.txt": FileFormat.ARENA,
           "gruul.dek": FileFormat.MTGO, "gruul.cod": FileFormat.COCKATRICE,
           "gruul.dck": FileFormat.FORGE}
#: Formats that hold a printing (set code and collector number) of their own.
PRINTED = (FileFormat.ARENA, FileFormat.COCKATRICE, FileFormat.FORGE)
GRUUL_MAIN = [(4, "Chandra's Magmutt"), (4, "Heartfire Immolator"), (4, "Pridemalkin"),
              (4, "Fierce Empath"), (3, "Sabertooth Mauler"), (3, "Ornery Dilophosaur"),
              (2, "Garruk's Gorehorn"), (4, "Shock"), (4, "Scorching Dragonfire"),
              (2, "Titanic Growth"), (2, "Thrill of Possibility"), (4, "Rugged Highlands"),
              (10, "Mountain"), (10, "Forest")]
GRUUL_SIDE = [(3, "Run Afoul"), (2, "Heroic Intervention"), (2, "Soul Sear"),
              (3, "Thrashing Brontodon"), (2, "Volcanic Geyser"), (3, "Ranger's Guile")]


def sample(name: str) -> DeckList:
    return parse((FILES / name).read_text(encoding="utf-8"), filename=name)


def held(deck: DeckList, fmt: FileFormat) -> DeckList:
    """What reading back an export of ``deck`` in ``fmt`` gives: the printings only a
    printing format holds (else the card's own), the CatID only MTGO, the name all but MTGO."""
    def entry(e: Entry) -> Entry:
        printed = fmt in PRINTED
        return complete(Entry(e.count, e.card, e.set_code if printed else "",
                              e.number if printed else "",
                              e.mtgo_id if fmt is FileFormat.MTGO else ""))
    return DeckList("" if fmt is FileFormat.MTGO else deck.name,
                    tuple(map(entry, deck.main)), tuple(map(entry, deck.sideboard)))


def cards(entries: tuple[Entry, ...]) -> list[tuple[int, str]]:
    return [(e.count, e.card.name) for e in entries]


# -- reading every format --------------------------------------------------------------------

@pytest.mark.parametrize(("name", "fmt"), SAMPLES.items())
def test_each_sample_file_is_detected_and_read(name: str, fmt: FileFormat) -> None:
    text = (FILES / name).read_text(encoding="utf-8")
    assert detect_format(text) is fmt
    deck = sample(name)
    assert deck.source is fmt
    assert cards(deck.main) == GRUUL_MAIN
    assert cards(deck.sideboard) == GRUUL_SIDE
    assert deck.name == ("gruul" if fmt in (FileFormat.TEXT, FileFormat.MTGO) else "Gruul Stompy")


@pytest.mark.parametrize("name", SAMPLES)
def test_every_sample_has_the_m21_printings(name: str) -> None:
    """Set code and collector number come from the file or, where it has none, from the
    card's MTGJSON data (``setCode``, ``number``)."""
    deck = sample(name)
    for e in (*deck.main, *deck.sideboard):
        assert (e.set_code, e.number) == ("M21", e.card.number) and e.number
    assert next(e for e in deck.main if e.card.name == "Shock").number == "159"


def test_mtgo_keeps_catids_and_forge_drops_its_art_index() -> None:
    mtgo = sample("gruul.dek")
    assert mtgo.main[0].mtgo_id == "900137"
    assert parse(export(mtgo, FileFormat.MTGO)) == held(mtgo, FileFormat.MTGO)
    assert 'CatID="900137"' in export(mtgo, FileFormat.MTGO)
    forge = sample("gruul.dck")
    assert forge.main[0] == Entry(4, card("Chandra's Magmutt"), "M21", "137")


def test_a_plain_sideboard_header_in_a_list_with_a_forge_printing_line_is_the_sideboard(
) -> None:
    """``4 Shock|M20`` makes a list Forge's, whose sections are ``[Sideboard]``: a plain
    ``Sideboard`` line after it read as a card line ("expected '<count> <card name>', got
    'Sideboard'"), the sideboard's cards going to the main deck (a new player's list)."""
    deck = parse("4 Shock|M20\n56 Mountain\n\nSideboard\n3 Heartfire Immolator\n")
    assert [(e.count, e.card.name) for e in deck.main] == [(4, "Shock"), (56, "Mountain")]
    assert [(e.count, e.card.name) for e in deck.sideboard] == [(3, "Heartfire Immolator")]
    assert deck.source is FileFormat.FORGE


@pytest.mark.parametrize("source", SAMPLES)
@pytest.mark.parametrize("fmt", list(FileFormat))
def test_sample_round_trips_through_every_format(source: str, fmt: FileFormat) -> None:
    deck = sample(source)
    text = export(deck, fmt)
    back = parse(text)
    assert back.source is fmt
    assert back == held(deck, fmt)
    assert export(back, fmt) == export(held(deck, fmt), fmt)


def test_plain_text_forms() -> None:
    """``4x``, ``SB:`` lines, a ``Sideboard:`` header in any case, comments anywhere."""
    deck = parse("// Burn\n4x Shock # the best\n\n56 Mountain\nSIDEBOARD:\n2 Opt\nSB: 1 Duress\n")
    assert cards(deck.main) == [(4, "Shock"), (56, "Mountain")]
    assert cards(deck.sideboard) == [(2, "Opt"), (1, "Duress")]
    assert deck.source is FileFormat.TEXT


def test_mtgo_text_export_a_blank_line_then_the_sideboard() -> None:
    """MTGO's text export (and Arena's older one) has no Sideboard header: the main deck, a
    blank line, the sideboard. It was read as one 64-card main deck (found by a new user).
    Only two blocks that look so are split: a list grouped by card type stays whole."""
    mtgo = "20 Mountain\n20 Shock\n\n2 Opt\n1 Duress\n"
    deck = parse(mtgo)
    assert cards(deck.main) == [(20, "Mountain"), (20, "Shock")]
    assert cards(deck.sideboard) == [(2, "Opt"), (1, "Duress")]
    grouped = "20 Shock\n\n20 Opt\n\n20 Mountain\n"
    assert not parse(grouped).sideboard
    assert not parse("20 Shock\n\n40 Mountain\n").sideboard  # spells, then lands
    assert not parse("39 Mountain\n\n1 Shock\n").sideboard  # not a deck on its own
    # A header or an SB: line says where the sideboard is: nothing is guessed.
    assert cards(parse("40 Mountain\n\n2 Opt\nSB: 1 Duress\n").main) == [
        (40, "Mountain"), (2, "Opt")]


def test_arena_forms() -> None:
    """Moxfield's foil mark, a set without a number, a lowercase set, a non-default printing."""
    deck = parse("Deck\n4 Shock (m21) 159 *F*\n4 Splinter (ICE)\n4 Plains (M20) 331\n"
                 "4 Plains (M21)\n")
    assert deck.source is FileFormat.ARENA
    assert [(e.set_code, e.number) for e in deck.main] == [
        ("M21", "159"), ("ICE", ""), ("M20", "331"), ("M21", "260")]


def test_detection_uses_the_file_name_only_as_a_hint() -> None:
    assert detect_format("4 Shock\n", "burn.dck") is FileFormat.FORGE
    assert detect_format("4 Shock\n", "burn.txt") is FileFormat.TEXT
    assert detect_format("<foo/>", "burn.cod") is FileFormat.COCKATRICE
    assert detect_format("\ufeff<?xml version='1.0'?><Deck/>") is FileFormat.MTGO
    assert detect_format("[Main]\n4 Shock\n", "burn.dek") is FileFormat.FORGE


# -- names (rule 201.2) ----------------------------------------------------------------------

@pytest.mark.parametrize(("written", "name"), [
    ("shock", "Shock"),
    ("CHANDRA'S MAGMUTT", "Chandra's Magmutt"),
    ("Chandra\u2019s Magmutt", "Chandra's Magmutt"),
    ("T\u00e9feri\u2019s Prot\u00e9g\u00e9", "Teferi's Protege"),
    ("Te\u0301feri's Protege", "Teferi's Protege"),
    ("azusa,  lost but seeking", "Azusa, Lost but Seeking"),
    ("Shock // Jolt", "Shock"),
])
def test_201_2_names_match_case_and_diacritics_insensitively(written: str, name: str) -> None:
    assert parse(f"4 {written}\n").main[0].card.name == name


def test_names_match_only_supported_real_cards() -> None:
    assert all(n in card_pool() for n in ("Shock", "Forest"))
    with pytest.raises(ValueError, match="unknown or unsupported card 'Test Aura'"):
        parse("4 Test Aura\n")


# -- round trips with hypothesis -------------------------------------------------------------

POOL: list[CardDef] = [card_pool()[n] for n in sorted(card_pool())]
#: Made once: a strategy hashes its elements for its label, and a card's hash goes through
#: every field of its definition (~2.5 s of CPU in this module when each entry made its own).
CARDS = st.sampled_from(POOL)
NAMES = st.text(st.characters(categories=("L", "N", "P", "S", "Zs")), max_size=30).map(
    clean_name)
PRINTINGS = st.one_of(
    st.just(("", "")),
    st.tuples(st.from_regex(r"[A-Z0-9]{2,5}", fullmatch=True),
              st.one_of(st.just(""), st.from_regex(r"\u2605?[0-9]{1,3}[a-z]?", fullmatch=True))))


@st.composite
def entries(draw: st.DrawFn, printings: bool) -> Entry:
    definition = draw(CARDS)
    set_code, number = draw(PRINTINGS) if printings else ("", "")
    return complete(Entry(draw(st.integers(1, 250)), definition, set_code, number))


def decks(printings: bool) -> st.SearchStrategy[DeckList]:
    return st.builds(DeckList, NAMES, st.lists(entries(printings), min_size=1, max_size=12)
                     .map(tuple), st.lists(entries(printings), max_size=6).map(tuple))


@settings(max_examples=150, deadline=None)
@given(decks(printings=False), st.sampled_from(list(FileFormat)))
def test_round_trip_of_decks_from_the_pool(deck: DeckList, fmt: FileFormat) -> None:
    """parse(export(d, f)) == d: same cards, counts, sections, printings (and name, which
    MTGO files lack)."""
    back = parse(export(deck, fmt))
    assert back == (DeckList("", deck.main, deck.sideboard) if fmt is FileFormat.MTGO
                    else deck)


@settings(max_examples=150, deadline=None)
@given(decks(printings=True), st.sampled_from(list(FileFormat)))
def test_round_trip_keeps_any_printing_a_format_holds(deck: DeckList, fmt: FileFormat) -> None:
    assert parse(export(deck, fmt)) == held(deck, fmt)


@settings(max_examples=100, deadline=None)
@given(decks(printings=True))
def test_canonical_form_is_a_fixed_point(deck: DeckList) -> None:
    text = canonical(deck)
    again = parse(text)
    assert canonical(again) == text
    assert to_deck(again) == to_deck(deck)
    assert canonical(to_deck(deck)) == text


# -- canonical form and resolve (rule 103.2) -------------------------------------------------

def test_canonical_splits_more_copies_than_a_line_holds() -> None:
    """Limited (rule 100.2b) has no copy limit; one line holds at most 250."""
    deck = parse("200 Forest\n200 Forest\n")
    assert canonical(deck) == "250 Forest\n150 Forest\n"
    assert resolve(canonical(deck), DeckFormat.LIMITED) == to_deck(deck)


def test_canonical_adds_up_copies_in_order_of_first_appearance() -> None:
    deck = parse("Name  Burn\n2 Shock\n20 Mountain\n2 Shock (M21) 159\nSB: 1 Opt\n1 Opt\n")
    # An ``SB:`` line puts one card in the sideboard; the next line is the main deck's again.
    assert canonical(deck) == "Name Burn\n4 Shock\n20 Mountain\n1 Opt\n\nSideboard\n1 Opt\n"
    built = to_deck(deck)
    assert [c.name for c in built.main] == ["Shock"] * 4 + ["Mountain"] * 20 + ["Opt"]
    assert [c.name for c in built.sideboard] == ["Opt"]


@pytest.mark.parametrize("name", demo_deck_names())
@pytest.mark.parametrize("fmt", list(DeckFormat))
def test_demo_decks_resolve_as_before(name: str, fmt: DeckFormat) -> None:
    """A demo deck is 60 cards (rule 100.2a, so also >= 40 for 100.2b); its cards come in
    the order :func:`demo_deck` gives, so games recorded with a demo deck's name replay."""
    deck = resolve(name, fmt)
    assert deck.name == name
    assert deck.main == tuple(demo_deck(name))
    assert deck.sideboard == ()
    assert resolve(deck.text, fmt) == deck
    assert resolve(f"  {name}\n", fmt) == deck


@pytest.mark.parametrize("name", SAMPLES)
def test_resolve_rebuilds_an_equal_deck_from_its_text(name: str) -> None:
    text = (FILES / name).read_text(encoding="utf-8")
    deck = resolve(text, DeckFormat.CONSTRUCTED)
    assert isinstance(deck, Deck)
    assert (len(deck.main), len(deck.sideboard)) == (60, 15)
    assert deck.text == canonical(deck)
    assert resolve(deck.text, DeckFormat.CONSTRUCTED) == deck
    assert resolve(deck.text, DeckFormat.LIMITED) == deck


def test_resolved_deck_is_frozen() -> None:
    deck = resolve(demo_deck_names()[0], DeckFormat.CONSTRUCTED)
    with pytest.raises(AttributeError):
        deck.name = "other"  # type: ignore[misc]
