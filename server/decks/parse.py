"""Reading a deck list in any supported format, detected from its content.

Detection: a document starting with ``<`` is XML -- MTGO's when its root element is
``Deck``, Cockatrice's when it is ``cockatrice_deck`` (otherwise the file name's extension,
``.dek`` or ``.cod``, decides which reader reports the wrong root). Other text is Forge's
when it has a Forge section header (``[Main]``, ...) or a ``4 Shock|M21`` line; Arena's
when it has an Arena header (``Deck``, ``About``, ...) or a printing (``4 Shock (M21)
159``); otherwise Forge's if the file name ends in ``.dck``, else plain text.
"""

from __future__ import annotations

import re
from pathlib import PurePath
from typing import assert_never

from server.decks.builder import Parsed
from server.decks.model import (
    MAX_DECK_BYTES,
    MAX_DECK_LINES,
    DeckList,
    DeckListError,
    FileFormat,
    clean_name,
)
from server.decks.parse_text import ARENA_MARK, FORGE_MARK, parse_forge, parse_lines
from server.decks.parse_xml import parse_xml

_ROOT = re.compile(r"<([A-Za-z_][\w.:-]*)")
_EXTENSIONS = {".dek": FileFormat.MTGO, ".cod": FileFormat.COCKATRICE,
               ".dck": FileFormat.FORGE}


def _extension(filename: str | None) -> FileFormat | None:
    return _EXTENSIONS.get(PurePath(filename).suffix.casefold()) if filename else None


def detect_format(text: str, filename: str | None = None) -> FileFormat:
    """The format ``text`` is written in (see the module docstring); ``filename``, if
    given, is only a hint for content that does not tell."""
    body = text.lstrip("\ufeff \t\r\n")
    hint = _extension(filename)
    if body.startswith("<"):
        root = _ROOT.search(body)
        tag = root[1].rpartition(":")[2] if root else ""
        if tag == "Deck":
            return FileFormat.MTGO
        if tag == "cockatrice_deck":
            return FileFormat.COCKATRICE
        return hint if hint in (FileFormat.MTGO, FileFormat.COCKATRICE) else FileFormat.MTGO
    if FORGE_MARK.search(body):
        return FileFormat.FORGE
    if ARENA_MARK.search(body):
        return FileFormat.ARENA
    return FileFormat.FORGE if hint is FileFormat.FORGE else FileFormat.TEXT


def too_large(text: str) -> str | None:
    """The problem with a deck list over :data:`MAX_DECK_BYTES` of UTF-8 or
    :data:`MAX_DECK_LINES` lines, if it is (checked before any parsing, so no submission
    costs the server more than a deck list of that size)."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_DECK_BYTES:
        return (f"the deck list is {size} bytes long; at most {MAX_DECK_BYTES} bytes "
                f"({MAX_DECK_BYTES // 1024} KiB) are accepted")
    lines = len(text.splitlines())  # every line break Python knows, not only "\n"
    if lines > MAX_DECK_LINES:
        return f"the deck list has {lines} lines; at most {MAX_DECK_LINES} are accepted"
    return None


def read(text: str, *, filename: str | None = None,
         file_format: FileFormat | None = None) -> Parsed:
    """Parse without raising: the deck as understood and every problem found."""
    fmt = file_format or detect_format(text, filename)
    problem = too_large(text)
    if problem is None and not text.strip(" \t\r\n\ufeff"):
        problem = "the deck list is empty"
    if problem is not None:
        return Parsed(DeckList("", (), (), fmt), [problem])
    body = text.removeprefix("\ufeff")
    match fmt:
        case FileFormat.TEXT | FileFormat.ARENA:
            parsed = parse_lines(body)
        case FileFormat.FORGE:
            parsed = parse_forge(body)
        case FileFormat.MTGO | FileFormat.COCKATRICE:
            parsed = parse_xml(body, fmt)
        case _:
            assert_never(fmt)
    deck = parsed.deck
    if not deck.name and filename:  # MTGO files have no name; a file's name is the deck's
        deck = DeckList(clean_name(PurePath(filename).stem), deck.main, deck.sideboard,
                        deck.source)
    if file_format is not None:
        deck = DeckList(deck.name, deck.main, deck.sideboard, file_format)
    parsed.deck = deck
    return parsed


def parse(text: str, *, filename: str | None = None,
          file_format: FileFormat | None = None) -> DeckList:
    """The deck list ``text`` holds, in the format detected (or ``file_format``), each card
    matched against the supported cards (:func:`server.decks.names.find_card`). Deck
    construction rules are not checked here (see :func:`server.decks.check`).

    Raises :class:`DeckListError` with every problem found, each naming its line.
    """
    parsed = read(text, filename=filename, file_format=file_format)
    if parsed.problems:
        raise DeckListError(parsed.problems)
    return parsed.deck
