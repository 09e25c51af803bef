"""Line-based deck lists: plain text, MTG Arena / Moxfield exports and Forge ``.dck`` files.

Plain text and Arena share one reader: ``4 Shock``, ``4x Shock`` or ``Shock x4`` lines,
whole-line ``#`` and ``//`` comments (and a ``#`` comment after a card), blank lines, the
headers ``Deck``,
``Sideboard`` (also ``SB: 2 Shock`` lines), ``About`` with ``Name My deck``, and Arena's
printing after the name, ``4 Llanowar Elves (M21) 198``. A list is Arena's when it has an
Arena header or a printing. A list without headers whose cards are a deck of 40 or more, a
blank line, then at most 15 more is read as MTGO's text export does: those are the
sideboard. The ``Commander`` and ``Companion`` sections are refused: this server plays
neither the Commander variant (rule 903) nor companions (rule 702.139).

Forge: a ``[metadata]`` section with ``Name=...``, ``[Main]`` and ``[Sideboard]`` (any case);
card lines ``4 Shock``, ``4 Shock|M21``, ``4 Shock|M21|1`` (an art index, not kept) and
``4 Shock|M21|[159]`` or ``4 Shock|M21|1|[159]`` (the collector number); a ``+`` after the
name marks a foil. Other sections (``[Commander]``, ``[Planes]``, ...) are refused.
"""

from __future__ import annotations

import re

from server.decks.builder import Builder, Parsed
from server.decks.model import FileFormat, quoted

#: The first word of a card line: a count, maybe with an ``x`` (``4x Shock``).
_COUNT = re.compile(r"(?P<count>[-+]?\d+)[xX]?")
#: A card line with its count last: ``Shock x4`` (linear: the name ends in a non-blank).
_COUNT_LAST = re.compile(r"(?P<name>[^#]*?\S)[ \t]+[xX](?P<count>\d+)")
#: Arena's printing after a card name: ``(M21) 198``; Moxfield adds ``*F*`` for a foil.
#: (Every pattern here runs in linear time on any line: a name part must end in a non-blank
#: before the blanks that follow it, so a long run of blanks is never split two ways.)
_PRINTING = re.compile(r"(?P<name>.*?\S)\s+\((?P<set>[A-Za-z0-9_]{1,10})\)"
                       r"(?:\s+(?P<number>[^\s()*]+))?(?:\s+\*[A-Za-z]+\*)?")
_NAME = re.compile(r"name(?::\s*|\s+)(?P<name>.*)", re.IGNORECASE)
_SIDEBOARD_PREFIX = re.compile(r"sb:\s*(?P<rest>.*)", re.IGNORECASE)
_HEADERS = {"deck": "main", "main": "main", "maindeck": "main", "main deck": "main",
            "mainboard": "main", "sideboard": "sideboard", "side": "sideboard",
            "about": "about", "commander": "commander", "companion": "companion"}
_ARENA_HEADERS = ("deck", "about", "commander", "companion")
_REFUSED_SECTION = {
    "commander": "the Commander variant is not played on this server",  # rule 903
    "companion": "companions are not supported; list the card in the "  # rule 702.139
                 "Sideboard instead",
}
_FORGE_SECTION = re.compile(r"\[(?P<name>[^\]]*)\]")
_FORGE_NUMBER = re.compile(r"\[(?P<number>[^\]]*)\]")

#: An Arena header or an Arena printing, ``(M21)``: :func:`server.decks.detect_format`.
ARENA_MARK = re.compile(r"^[ \t]*(?:(?:deck|about|commander|companion)[ \t]*:?[ \t]*$"
                        r"|(?:sb:[ \t]*)?\d+[xX]?[ \t]+[^ \t\n][^\n]*?[ \t]\([A-Za-z0-9_]{1,10}\))",
                        re.IGNORECASE | re.MULTILINE)
#: A Forge section header or a Forge card line, ``4 Shock|M21``.
FORGE_MARK = re.compile(
    r"^[ \t]*(?:\[(?:metadata|main|sideboard)\][ \t]*$|\d+[ \t]+[^| \t\n][^|\n]*\|)",
    re.IGNORECASE | re.MULTILINE)


def _header(line: str) -> str | None:
    return _HEADERS.get(" ".join(line.rstrip(":").split()).casefold())


def _card_line(b: Builder, where: str, line: str) -> tuple[int | None, str] | None:
    """The count and the rest of a card line (``4 Shock``, ``4x Shock``, or the count last:
    ``Shock x4``), or None with a problem if it is not one."""
    words = line.split(maxsplit=1)
    first = _COUNT.fullmatch(words[0]) if words else None
    if first is None or len(words) < 2:
        last = _COUNT_LAST.fullmatch(line)
        if last is not None:
            return b.count(where, last["count"]), last["name"]
        b.problem(f"{where}: expected '<count> <card name>', got {quoted(line)}")
        return None
    return b.count(where, first["count"]), words[1]


def _sideboard_block(lines: list[str]) -> tuple[int, int] | None:
    """Where an MTGO-style sideboard begins -- a list with no section headers and no ``SB:``
    lines whose cards are two blocks apart (a blank line between): the second block is the
    sideboard when it holds at most 15 cards and the first at least 40 (a deck of its own).
    A list whose cards are in more blocks (creatures, spells, lands), or whose two blocks
    don't look so, is all main deck. The number of the last blank line before the block and
    of the block's first line; None: no such block."""
    blocks: list[tuple[int, int, int]] = []  # (blank line before it, first line, cards)
    blank = 0  # the last blank line seen since the last card line, 0: none
    for lineno, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line:
            blank = lineno
            continue
        if line.startswith(("#", "//")) or _NAME.fullmatch(line):
            continue
        if _header(line) is not None or _SIDEBOARD_PREFIX.fullmatch(line):
            return None  # the list says where its sideboard is
        first = _COUNT.fullmatch(line.split(maxsplit=1)[0])
        count = int(first["count"]) if first is not None and len(first["count"]) <= 6 else 0
        if blank or not blocks:
            blocks.append((blank, lineno, 0))
            blank = 0
        before, start, cards = blocks[-1]
        blocks[-1] = (before, start, cards + max(count, 0))
    if len(blocks) == 2 and blocks[0][2] >= 40 and 0 < blocks[1][2] <= 15:
        return blocks[1][0], blocks[1][1]
    return None


def parse_lines(text: str) -> Parsed:
    """Read a plain-text or Arena deck list (see the module docstring)."""
    b = Builder(FileFormat.TEXT)
    arena = False
    section = "main"
    lines = text.splitlines()
    block = _sideboard_block(lines)
    sideboard_from = block[1] if block is not None else None
    for lineno, raw in enumerate(lines, 1):
        where = f"line {lineno}"
        line = raw.strip()
        if lineno == sideboard_from:
            section = "sideboard"
        if not line or line.startswith(("#", "//")):
            continue
        header = _header(line)
        if header is not None:
            arena = arena or line.rstrip(":").strip().casefold() in _ARENA_HEADERS
            section = header
            if header in _REFUSED_SECTION:
                b.problem(f"{where}: a {line.rstrip(':')} section: {_REFUSED_SECTION[header]}")
            continue
        named = _NAME.fullmatch(line)
        if named is not None:
            b.set_name(where, named["name"])
            continue
        if section in _REFUSED_SECTION:
            continue  # reported once, at its header
        sideboard = section == "sideboard"
        prefixed = _SIDEBOARD_PREFIX.fullmatch(line)
        if prefixed is not None:
            line, sideboard = prefixed["rest"].strip(), True
        card = _card_line(b, where, line)
        if card is None:
            continue
        count, rest = card[0], card[1].split(" #", 1)[0].strip()
        printing = _PRINTING.fullmatch(rest)
        if printing is not None:
            arena = True
            b.add(where, count, printing["name"], sideboard=sideboard,
                  set_code=printing["set"], number=printing["number"] or "", alternative=rest)
        else:
            b.add(where, count, rest, sideboard=sideboard)
    if arena:
        b.source = FileFormat.ARENA
    parsed = b.result()
    parsed.sideboard_after_blank = block
    return parsed


def parse_forge(text: str) -> Parsed:
    """Read a Forge ``.dck`` deck (see the module docstring)."""
    b = Builder(FileFormat.FORGE)
    section = "main"  # cards before any section header are the main deck's
    for lineno, raw in enumerate(text.splitlines(), 1):
        where = f"line {lineno}"
        line = raw.strip()
        if not line or line.startswith(("#", "//")):
            continue
        header = _FORGE_SECTION.fullmatch(line)
        if header is not None:
            section = header["name"].strip().casefold()
            if section not in ("metadata", "main", "sideboard"):
                b.problem(f"{where}: the Forge section {quoted(line)} is not supported "
                          "(only [metadata], [Main] and [Sideboard])")
            continue
        if section == "metadata":
            key, equals, value = line.partition("=")
            if not equals:
                b.problem(f"{where}: expected '<key>=<value>' in [metadata], got {quoted(line)}")
            elif key.strip().casefold() == "name":
                b.set_name(where, value)
            continue
        if section not in ("main", "sideboard"):
            continue  # reported once, at its header
        plain = _header(line)
        if plain in ("main", "sideboard"):
            # A plain list's "Sideboard" in a list read as Forge's for a "4 Shock|M20" line:
            # the section it names, as in a plain list.
            section = plain
            continue
        card = _card_line(b, where, line)
        if card is None:
            continue
        count = card[0]
        name, *fields = (f.strip() for f in card[1].split("|"))
        set_code = fields[0] if fields else ""
        number = ""
        for extra in fields[1:]:
            bracketed = _FORGE_NUMBER.fullmatch(extra)
            if bracketed is not None:
                number = bracketed["number"].strip()
            elif not extra.isdigit():  # a number alone is Forge's art index: not kept
                b.problem(f"{where}: expected an art index or a [collector number] after "
                          f"the set, got {quoted(extra)}")
        b.add(where, count, name, sideboard=section == "sideboard", set_code=set_code,
              number=number, alternative=name.removesuffix("+"))
    return b.result()
