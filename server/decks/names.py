"""Matching the card names of a deck list against the supported real cards.

Only :func:`server.cards.card_pool` is searched: never the test-only ``MWTEST`` cards, and
never planes, which belong in a planar deck rather than a deck or sideboard (rules 311.1,
901.3). A card is identified by its English name (rule 201.2); deck lists are typed by hand,
so after the exact name a loose form is tried: compatibility-decomposed (NFKD) with the
combining marks dropped, case-folded, curly quotes made straight, ``æ`` spelled ``ae`` and
whitespace runs made one space. A split or double-faced card may be given by its full name
or by the name of its front face, before `` // ``.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable, Sequence
from functools import cache

from server.cards import CardDef, card_pool, plane_pool
from server.decks.model import quoted

_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u02bc": "'", "\u2032": "'",
                         "\u201c": '"', "\u201d": '"', "\u00b4": "'", "`": "'"})
_FACES = " // "


def loose(name: str) -> str:
    """The case- and diacritics-insensitive form of a card name."""
    decomposed = unicodedata.normalize("NFKD", name.translate(_QUOTES))
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(bare.casefold().replace("æ", "ae").split())


@cache
def _loose_index() -> dict[str, CardDef]:
    index: dict[str, CardDef] = {}
    for name, definition in sorted(card_pool().items()):
        index.setdefault(loose(name), definition)
        if _FACES in name:
            index.setdefault(loose(name.split(_FACES, 1)[0]), definition)
    return index


@cache
def _plane_names() -> frozenset[str]:
    return frozenset(loose(name) for name in plane_pool())


def warm() -> None:
    """Build what reading a name needs (the card pool, the loose names' index) ahead of the
    first list read (:class:`server.deck_checks.DeckChecks`)."""
    card_pool()
    _loose_index()
    _plane_names()


#: Longer than any card's name (the longest printed name has 141 characters): such a name
#: is unknown without normalising it (NFKD can make one character eighteen).
MAX_NAME = 160


def find_card(name: str) -> CardDef | None:
    """The supported card ``name`` names, or None: the exact name, then its loose form,
    then (for ``Front // Back``) the front face's."""
    exact = card_pool().get(name)
    if exact is not None:
        return exact
    if len(name) > MAX_NAME:
        return None
    index = _loose_index()
    found = index.get(loose(name))
    if found is None and _FACES in name:
        found = index.get(loose(name.split(_FACES, 1)[0]))
    return found


def unknown_card(where: str, name: str, *, suggest: bool = True) -> str:
    """The problem for a card name :func:`find_card` does not know, with the supported
    card it was maybe meant to be (``suggest``: a typo such as ``Shok`` or ``Forests``)."""
    message = f"{where}: unknown or unsupported card {quoted(name)}"
    if loose(name) in _plane_names():
        return message + " (a plane: planes belong in a planar deck)"  # rules 311.1, 901.3
    meant = close_card(name) if suggest else None
    return message + (f" -- did you mean {quoted(meant.name)}?" if meant is not None else "")


#: What a player can bring, said with the problems of a list that names unknown cards.
POOL_NOTE = "this server supports the cards of Core Set 2021 (M21) and a few others"


def pool_note(problems: Iterable[str]) -> str:
    """:data:`POOL_NOTE` if a problem is an unknown card (:func:`unknown_card`), else ""."""
    return POOL_NOTE if any(": unknown or unsupported card " in p for p in problems) else ""


def printing_note(lines: Sequence[tuple[str, str, CardDef]]) -> str:
    """What to tell a player whose list names printings of other sets (``4 Shock (M20)
    999``, ``4 Shock|M20``): a card is the same card in every set (rule 201.2: it is
    identified by its name) and this server plays its own printing of it -- the list is
    played, with a word about it rather than none; "" if every printing named is the
    card's own. ``lines``: where, the set named, the card."""
    if not lines:
        return ""
    ours = sorted({card.set_code for _where, _set, card in lines})
    if len(lines) == 1:
        where, named, card = lines[0]
        return (f"{where} names {card.name}'s {named} printing: this server plays its "
                f"{card.set_code} printing, the same card (a printing never changes the game)")
    wheres = [where for where, _set, _card in lines]
    if all(w.startswith("line ") for w in wheres):
        wheres = [w.removeprefix("line ") for w in wheres]
        wheres[0] = "lines " + wheres[0]
    said = ", ".join(wheres[:-1]) + " and " + wheres[-1]
    named = ", ".join(sorted({s for _where, s, _card in lines}))
    return (f"{said} name printings of other sets ({named}): this server plays its own "
            f"printing of each card ({', '.join(ours)}), the same cards (a printing never "
            f"changes the game)")


#: How alike a name must be to a supported card's to be suggested for it (difflib's ratio).
SUGGEST_CUTOFF = 0.75


def close_card(name: str) -> CardDef | None:
    """The supported card whose name is closest to ``name``, if close enough (a typo, a
    plural, a stray character); None for a name like no supported card's."""
    if len(name) > MAX_NAME:
        return None
    index = _loose_index()
    found = difflib.get_close_matches(loose(name).rstrip("."), index, n=1,
                                      cutoff=SUGGEST_CUTOFF)
    return index[found[0]] if found else None
