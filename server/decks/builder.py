"""What every parser shares: collecting entries and problems, line by line.

Parsers never stop at the first problem: each line (or XML element) is checked and every
problem is kept, so a player sees all of them at once. The number of copies a line names is
kept even when its card is unknown, so that deck-size checks (rules 100.2a, 100.2b) count
what the player meant rather than what was understood.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from server.cards import CardDef
from server.decks.model import MAX_COUNT, DeckList, Entry, FileFormat, clean_name, complete, quoted
from server.decks.names import find_card, printing_note, unknown_card

#: Unknown names a list gets a suggestion for ("did you mean"), the first ones only.
SUGGESTED = 5
_DIGITS = re.compile(r"\d{1,6}")  # longer can't be a count (and int() refuses 4,300+)
#: Printings every format can write back; anything else is dropped (the card's own printing
#: is used instead): printings are cosmetic and never change a game.
_SET_CODE = re.compile(r"[A-Z0-9_]{1,10}")
_NUMBER = re.compile(r"[^\s()\[\]|*]{1,16}")
_MTGO_ID = re.compile(r"\d{1,12}")


def _kept(pattern: re.Pattern[str], value: str) -> str:
    return value if pattern.fullmatch(value) else ""


@dataclass(slots=True)
class Parsed:
    """A parse: the deck as understood, the problems found, and the copies named by lines
    whose card is unknown (main deck, sideboard)."""

    deck: DeckList
    problems: list[str]
    unknown_main: int = 0
    unknown_sideboard: int = 0
    #: What the player should know of a list that may be played anyway: lines naming a
    #: printing of another set (:func:`server.decks.names.printing_note`).
    notes: list[str] = field(default_factory=list)
    #: Where a plain list's sideboard was read from a last block after a blank line, with no
    #: ``Sideboard`` header (:func:`server.decks.parse_text.parse_lines`): the blank line's
    #: number and the block's first line's; None if it wasn't.
    sideboard_after_blank: tuple[int, int] | None = None


@dataclass(slots=True)
class Builder:
    """Collects a deck list's name, entries and problems as a parser reads it."""

    source: FileFormat
    name: str = ""
    main: list[Entry] = field(default_factory=list)
    sideboard: list[Entry] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    unknown_main: int = 0
    unknown_sideboard: int = 0
    #: Lines naming a card nobody supports.
    unknown: int = 0
    #: Whether any line named a card (known or not, well-formed or not).
    saw_card: bool = False
    #: Lines naming a printing of a set other than the card's own (``4 Shock (M20) 999``):
    #: where, the set named, the card.
    other_printings: list[tuple[str, str, CardDef]] = field(default_factory=list)

    def problem(self, message: str) -> None:
        self.problems.append(message)

    def count(self, where: str, text: str) -> int | None:
        """The count ``text`` gives (1 to :data:`MAX_COUNT`), or None with a problem."""
        value = text.strip()
        if _DIGITS.fullmatch(value) and 1 <= int(value) <= MAX_COUNT:
            return int(value)
        self.problem(f"{where}: a count is a whole number from 1 to {MAX_COUNT}, "
                     f"got {quoted(value)}")
        return None

    def add(self, where: str, count: int | None, name: str, *, sideboard: bool,
            set_code: str = "", number: str = "", mtgo_id: str = "",
            alternative: str = "") -> None:
        """Add ``count`` copies of the card ``name`` (or, if it is unknown, ``alternative``)
        in the printing given, or note the problem."""
        self.saw_card = True
        name = name.strip()
        if not name:
            self.problem(f"{where}: a card without a name")
            return
        card = find_card(name)
        if card is None and alternative:
            card = find_card(alternative)
        if card is None:
            # (Suggestions cost ~1 ms a name: only for the first few of a list.)
            self.unknown += 1
            self.problem(unknown_card(where, name, suggest=self.unknown <= SUGGESTED))
            if count is not None and sideboard:
                self.unknown_sideboard += count
            elif count is not None:
                self.unknown_main += count
            return
        if count is None:
            return
        set_code = _kept(_SET_CODE, set_code.strip().upper())
        if set_code and card.set_code and set_code != card.set_code:
            self.other_printings.append((where, set_code, card))
        entry = complete(Entry(count, card, set_code,
                               _kept(_NUMBER, number.strip()) if set_code else "",
                               _kept(_MTGO_ID, mtgo_id.strip())))
        (self.sideboard if sideboard else self.main).append(entry)

    def set_name(self, where: str, name: str) -> None:
        if self.name:
            self.problem(f"{where}: the deck is named twice")
        self.name = clean_name(name)

    def result(self) -> Parsed:
        if not self.saw_card and not self.problems:
            self.problem("the deck list names no cards")
        deck = DeckList(self.name, tuple(self.main), tuple(self.sideboard), self.source)
        note = printing_note(self.other_printings)
        return Parsed(deck, self.problems, self.unknown_main, self.unknown_sideboard,
                      [note] if note else [])
