"""Writing a deck list in every supported file format.

Each entry is written with its printing; where the entry names none, the card's own printing
(MTGJSON ``setCode`` and ``number``, :func:`server.decks.model.complete`) is written, so an
exported file is complete. What each format can hold:

- plain text: counts, names, the name line and the ``Sideboard`` section -- no printings;
- Arena: everything but MTGO's catalogue id;
- MTGO ``.dek``: counts, names, the sideboard flag and ``CatID`` (``0`` when unknown) -- no
  deck name, no set code or collector number (MTGO's own attributes only);
- Cockatrice ``.cod`` and Forge ``.dck``: everything but MTGO's catalogue id.

Reading an export back gives the same deck (``parse(export(d, f)) == d``) up to what the
format cannot hold.
"""

from __future__ import annotations

from typing import assert_never
from xml.sax.saxutils import escape

from server.decks.model import DeckList, Entry, FileFormat, complete

_ATTR = {'"': "&quot;", "\n": "&#10;", "\r": "&#13;", "\t": "&#9;"}


def export(deck: DeckList, file_format: FileFormat) -> str:
    """``deck`` written in ``file_format`` (a text ending in a newline)."""
    match file_format:
        case FileFormat.TEXT:
            return _text(deck)
        case FileFormat.ARENA:
            return _arena(deck)
        case FileFormat.MTGO:
            return _mtgo(deck)
        case FileFormat.COCKATRICE:
            return _cockatrice(deck)
        case FileFormat.FORGE:
            return _forge(deck)
        case _:
            assert_never(file_format)


def _attr(value: str) -> str:
    return f'"{escape(value, _ATTR)}"'


def _text(deck: DeckList) -> str:
    lines = [f"Name {deck.name}"] if deck.name else []
    lines += [f"{e.count} {e.card.name}" for e in deck.main]
    if deck.sideboard:
        lines += ["", "Sideboard", *(f"{e.count} {e.card.name}" for e in deck.sideboard)]
    return "\n".join(lines) + "\n"


def _arena_line(entry: Entry) -> str:
    e = complete(entry)
    if not e.set_code:
        return f"{e.count} {e.card.name}"
    return f"{e.count} {e.card.name} ({e.set_code})" + (f" {e.number}" if e.number else "")


def _arena(deck: DeckList) -> str:
    lines = ["About", f"Name {deck.name}", ""] if deck.name else []
    lines += ["Deck", *(_arena_line(e) for e in deck.main)]
    if deck.sideboard:
        lines += ["", "Sideboard", *(_arena_line(e) for e in deck.sideboard)]
    return "\n".join(lines) + "\n"


def _mtgo(deck: DeckList) -> str:
    lines = ['<?xml version="1.0" encoding="utf-8"?>',
             '<Deck xmlns:xsd="http://www.w3.org/2001/XMLSchema" '
             'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">',
             "  <NetDeckID>0</NetDeckID>",
             "  <PreconstructedDeckID>0</PreconstructedDeckID>"]
    for side, entries in (("false", deck.main), ("true", deck.sideboard)):
        lines += [f"  <Cards CatID={_attr(e.mtgo_id or '0')} Quantity={_attr(str(e.count))} "
                  f"Sideboard={_attr(side)} Name={_attr(e.card.name)} Annotation=\"0\" />"
                  for e in entries]
    return "\n".join([*lines, "</Deck>"]) + "\n"


def _cockatrice_card(entry: Entry) -> str:
    e = complete(entry)
    printing = (f" setShortName={_attr(e.set_code)}" if e.set_code else "") + (
        f" collectorNumber={_attr(e.number)}" if e.number else "")
    return f"        <card number={_attr(str(e.count))} name={_attr(e.card.name)}{printing}/>"


def _cockatrice(deck: DeckList) -> str:
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             '<cockatrice_deck version="1">',
             f"    <deckname>{escape(deck.name)}</deckname>",
             "    <comments></comments>"]
    for zone, entries in (("main", deck.main), ("side", deck.sideboard)):
        if entries or zone == "main":
            lines += [f'    <zone name="{zone}">', *(_cockatrice_card(e) for e in entries),
                      "    </zone>"]
    return "\n".join([*lines, "</cockatrice_deck>"]) + "\n"


def _forge_line(entry: Entry) -> str:
    e = complete(entry)
    line = f"{e.count} {e.card.name}"
    if e.set_code:
        line += f"|{e.set_code}" + (f"|[{e.number}]" if e.number else "")
    return line


def _forge(deck: DeckList) -> str:
    lines = ["[metadata]", f"Name={deck.name}", "[Main]", *(_forge_line(e) for e in deck.main)]
    if deck.sideboard:
        lines += ["[Sideboard]", *(_forge_line(e) for e in deck.sideboard)]
    return "\n".join(lines) + "\n"
