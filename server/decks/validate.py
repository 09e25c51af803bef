"""Deck construction rules of a room's format (rule 100), checked all at once.

- Constructed (rule 100.2a): at least 60 cards in the main deck; the deck and sideboard
  together hold at most four of any card, counted by English name, other than basic land
  cards (a card reading "A deck can have any number of cards named ..." lifts the limit for
  itself, rule 101.1 -- the card wins). Rule 100.4a: a sideboard of at most 15 cards.
- Limited (rule 100.2b): at least 40 cards in the main deck, any number of copies; rule
  100.4b: the sideboard is every other card of the player's pool, any number.
- Both: ante cards ("Remove this card from your deck before playing if you're not playing
  for ante") are legal in a deck or sideboard only when playing for ante (rule 407.3). The
  engine's :func:`server.engine.game.new_game` refuses such a deck too
  (:func:`server.engine.ante.validate_ante_cards`); this check, with the same test
  (:func:`server.engine.ante.is_ante_card`), refuses it when it is submitted, with the
  line-level problems, instead of when the game starts. Planes (rule 901.3) and test-only
  cards are never found by name (:mod:`server.decks.names`), and an empty deck is short.
- A server limit, not a rule: at most :data:`MAX_DECK_CARDS` cards in all.
- A main deck too small whose sideboard was read from a plain list's last block after a
  blank line (no ``Sideboard`` header, :mod:`server.decks.parse_text`) says so, and how to
  keep those cards in the main deck: a player who pasted a blank line before the lands saw
  "at least 60 cards ..., got 45" under a box that visibly held 60 (a new player's review).
"""

from __future__ import annotations

from collections import Counter
from typing import assert_never

from server.cards import CardDef
from server.decks.builder import Parsed
from server.decks.model import MAX_DECK_CARDS, DeckFormat, DeckList
from server.engine.ante import is_ante_card

#: Rule 100.2a: copies of a card allowed in a constructed deck and sideboard together.
MAX_COPIES = 4
MIN_MAIN = {DeckFormat.CONSTRUCTED: 60, DeckFormat.LIMITED: 40}  # rules 100.2a, 100.2b
MAX_CONSTRUCTED_SIDEBOARD = 15  # rule 100.4a
_ANY_NUMBER = "A deck can have any number of cards named"


def unlimited_copies(card: CardDef) -> bool:
    """Rule 100.2a: basic land cards are exempt from the four-copy limit, and so is a card
    whose own text allows any number of it (rule 101.1)."""
    return "Basic" in card.supertypes or _ANY_NUMBER in card.rules_text


def blank_line_sideboard(blank: tuple[int, int], main: int, side: int) -> str:
    """What a too-small main deck's player should know when its sideboard was read from
    the last block after a blank line (``blank``: that line's number and the block's first
    line's, :attr:`server.decks.builder.Parsed.sideboard_after_blank`), ``main`` and
    ``side`` cards in each."""
    cards = f"{side} card{'' if side == 1 else 's'}"
    return (f"the {cards} after the blank line at line {blank[0]} were read as the "
            "sideboard (a blank line before a last block of 15 cards or fewer starts the "
            "sideboard); to play them in the main deck, remove that blank line -- the main "
            f"deck would then have {main + side} cards")


def deck_problems(deck: DeckList, fmt: DeckFormat, *, ante: bool = False,
                  unknown_main: int = 0, unknown_sideboard: int = 0,
                  sideboard_after_blank: tuple[int, int] | None = None) -> list[str]:
    """Every way ``deck`` breaks the rules of ``fmt`` (and of ante, rule 407.3), as
    messages in plain words (the rule numbers are in the comments, not the messages).
    ``unknown_main``/``unknown_sideboard``: copies named by lines whose card was not found,
    counted in the deck's size. ``sideboard_after_blank``: where the sideboard was read from
    a block after a blank line (:func:`blank_line_sideboard`), said after a main deck too
    small."""
    main = deck.main_count + unknown_main
    side = deck.sideboard_count + unknown_sideboard
    problems: list[str] = []
    if main < MIN_MAIN[fmt] and sideboard_after_blank is not None and side > 0:
        blank_note: list[str] = [blank_line_sideboard(sideboard_after_blank, main, side)]
    else:
        blank_note = []
    match fmt:
        case DeckFormat.CONSTRUCTED:
            if main < MIN_MAIN[fmt]:
                # A deck long enough for limited (100.2b) is pointed there: a player with
                # a 40-card sealed deck otherwise can't tell what would take it -- unless
                # the cards it lacks were read as the sideboard (the blank line is said).
                hint = (f" -- a limited room takes a deck of {MIN_MAIN[DeckFormat.LIMITED]} "
                        "or more" if main >= MIN_MAIN[DeckFormat.LIMITED] and not blank_note
                        else "")
                problems.append(f"a constructed deck has at least {MIN_MAIN[fmt]} cards in "
                                f"its main deck, got {main}{hint}")  # rule 100.2a
                problems += blank_note
            if side > MAX_CONSTRUCTED_SIDEBOARD:
                problems.append(f"a constructed sideboard has at most "
                                f"{MAX_CONSTRUCTED_SIDEBOARD} cards, got {side}")  # 100.4a
            copies: Counter[str] = Counter()
            cards: dict[str, CardDef] = {}
            for entry in (*deck.main, *deck.sideboard):
                copies[entry.card.name] += entry.count
                cards.setdefault(entry.card.name, entry.card)
            for name, card in cards.items():
                if copies[name] > MAX_COPIES and not unlimited_copies(card):
                    problems.append(f"at most {MAX_COPIES} copies of '{name}' in a constructed "
                                    "deck and its sideboard together, other than basic lands, "
                                    f"got {copies[name]}")  # rule 100.2a
        case DeckFormat.LIMITED:
            if main < MIN_MAIN[fmt]:
                problems.append(f"a limited deck has at least {MIN_MAIN[fmt]} cards in its "
                                f"main deck, got {main}")  # rule 100.2b
                problems += blank_note
        case _:
            assert_never(fmt)
    if main + side > MAX_DECK_CARDS:
        problems.append(f"this server takes at most {MAX_DECK_CARDS} cards in a deck and its "
                        f"sideboard together, got {main + side}")
    if not ante:
        seen: set[str] = set()
        for entry in (*deck.main, *deck.sideboard):
            if is_ante_card(entry.card) and entry.card.name not in seen:
                seen.add(entry.card.name)
                problems.append(f"'{entry.card.name}' is legal in a deck or sideboard only "
                                "when playing for ante")  # rule 407.3
    return problems


def parsed_problems(parsed: Parsed, fmt: DeckFormat, *, ante: bool = False) -> list[str]:
    """Every problem of a deck list as read (:class:`~server.decks.builder.Parsed`): its
    lines' own, then the deck's against ``fmt`` (:func:`deck_problems`) when it names any
    card -- what a room refuses and what ``manawire deck check`` prints, the same."""
    problems = list(parsed.problems)
    deck = parsed.deck
    if deck.main or deck.sideboard or parsed.unknown_main or parsed.unknown_sideboard:
        problems += deck_problems(deck, fmt, ante=ante, unknown_main=parsed.unknown_main,
                                  unknown_sideboard=parsed.unknown_sideboard,
                                  sideboard_after_blank=parsed.sideboard_after_blank)
    return problems
