"""The values of the deck-list package: file formats, deck formats, entries, lists and errors.

A :class:`DeckList` is a file as parsed: its entries in the order of the file, each with the
printing (set code, collector number, MTGO catalogue id) it names, so that an export can
write them back. A :class:`Deck` is what a game needs (rule 103.2): the cards of the main
deck and of the sideboard (rule 100.4), in a deterministic order, and the canonical text it
is rebuilt from.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from enum import Enum

from server.cards import CardDef, DeckError

#: Deck lists arrive over the protocol: at most this many bytes of UTF-8 text.
MAX_DECK_BYTES = 32 * 1024
#: A deck list has at most this many lines (a 75-card list has under 100).
MAX_DECK_LINES = 1000
#: The count on one line (or one XML element) is 1 to this.
MAX_COUNT = 250
#: A server limit, not a rule (100.2a sets no maximum deck size): main deck and sideboard
#: together hold at most this many cards, so one submission cannot make a huge game.
MAX_DECK_CARDS = 1000
#: :class:`DeckListError` shows at most this many problems, then "… and N more".
SHOWN_PROBLEMS = 20


class FileFormat(Enum):
    """The deck-file formats read and written (values are the ``--to`` names)."""

    #: ``4 Shock`` lines, ``#``/``//`` comments, a ``Sideboard`` header or ``SB:`` lines.
    TEXT = "text"
    #: MTG Arena / Moxfield: ``About``/``Name``, ``Deck``, ``Sideboard``, ``4 Shock (M21) 159``.
    ARENA = "arena"
    #: MTGO ``.dek`` XML: ``<Deck><Cards Quantity=.. Sideboard=.. Name=.. /></Deck>``.
    MTGO = "mtgo"
    #: Cockatrice ``.cod`` XML: ``<cockatrice_deck><zone name="main"><card .../>``.
    COCKATRICE = "cockatrice"
    #: Forge ``.dck``: ``[metadata]`` ``Name=``, ``[Main]``, ``[Sideboard]``, ``4 Shock|M21``.
    FORGE = "forge"


class DeckFormat(Enum):
    """The deck construction rules of a room (rule 100.2)."""

    #: Rules 100.2a, 100.4a: at least 60 cards, at most four of any card other than basic
    #: lands (main deck and sideboard together), a sideboard of at most 15 cards.
    CONSTRUCTED = "constructed"
    #: Rules 100.2b, 100.4b: at least 40 cards, any number of copies, any sideboard.
    LIMITED = "limited"


class DeckListError(DeckError):
    """A deck list that cannot be used: every problem found, each naming its line."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        shown = self.problems[:SHOWN_PROBLEMS]
        rest = len(self.problems) - len(shown)
        super().__init__("\n".join(shown + ([f"… and {rest} more"] if rest > 0 else [])))


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of a deck list: ``count`` copies of ``card`` in a printing.

    ``set_code``/``number``: the set and collector number the file named (or the card's own
    printing, see :func:`complete`); ``mtgo_id``: MTGO's ``CatID``, "" if unknown.
    """

    count: int
    card: CardDef
    set_code: str = ""
    number: str = ""
    mtgo_id: str = ""


@dataclass(frozen=True, slots=True)
class DeckList:
    """A parsed deck file: its name and its main-deck and sideboard entries in file order.

    ``source`` (the format it was read from) takes no part in comparisons: the same deck
    read from two formats is equal.
    """

    name: str
    main: tuple[Entry, ...]
    sideboard: tuple[Entry, ...] = ()
    source: FileFormat = field(default=FileFormat.TEXT, compare=False)

    @property
    def main_count(self) -> int:
        return sum(e.count for e in self.main)

    @property
    def sideboard_count(self) -> int:
        return sum(e.count for e in self.sideboard)


@dataclass(frozen=True, slots=True)
class Deck:
    """A deck ready for a game (rule 103.2): the main deck and the sideboard kept outside
    the game (rule 400.11), and ``text``, the canonical form the game record stores
    (``resolve(deck.text, fmt)`` rebuilds an equal deck)."""

    name: str
    main: tuple[CardDef, ...]
    sideboard: tuple[CardDef, ...]
    text: str
    #: What the player should know of the list it was read from, though it may be played
    #: (a printing of another set named, :func:`server.decks.names.printing_note`); no part
    #: of the deck: not stored, not compared.
    notes: tuple[str, ...] = field(default=(), compare=False)


def complete(entry: Entry) -> Entry:
    """The entry with its printing filled from the card's own (MTGJSON ``setCode`` and
    ``number``) where the file left it out: no set (a number alone means nothing), or the
    card's own set without a number."""
    card = entry.card
    if not entry.set_code:
        return Entry(entry.count, card, card.set_code, card.number, entry.mtgo_id)
    if not entry.number and entry.set_code == card.set_code:
        return Entry(entry.count, card, entry.set_code, card.number, entry.mtgo_id)
    return entry


#: The characters that set or override the direction of the text around them (Unicode
#: bidirectional controls): in a name or a quoted line they would turn a message around.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                          "\u2066\u2067\u2068\u2069")


def clean_name(name: str) -> str:
    """A deck name on one line: control characters and direction overrides dropped,
    whitespace runs made one space."""
    kept = "".join(ch for ch in name if ch not in BIDI_CONTROLS
                   and (unicodedata.category(ch) != "Cc" or ch.isspace()))
    return " ".join(kept.split())


def quoted(text: str, limit: int = 80) -> str:
    """``text`` in single quotes for a message, cut to ``limit`` characters; a control
    character or direction override in it is shown as its code (``\\u202e``), so the
    message reads as written and the player sees what is in the line."""
    cut = text[:limit]
    shown = "".join(f"\\u{ord(ch):04x}" if ch in BIDI_CONTROLS
                    or unicodedata.category(ch) == "Cc" else ch for ch in cut)
    return f"'{shown}…'" if len(text) > limit else f"'{shown}'"
