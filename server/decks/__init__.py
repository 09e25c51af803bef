"""Deck lists: reading every common format, the rules of a room's format, export, storage.

A player names a deck as the name of a demo deck (:func:`server.cards.demo_deck_names`) or
as the text of a deck list (at most 32 KiB) in any supported format -- plain text, MTG Arena
/ Moxfield, MTGO ``.dek``, Cockatrice ``.cod`` or Forge ``.dck`` -- detected from the content
(:func:`detect_format`). :func:`resolve` turns it into a :class:`Deck` for a game or raises
:class:`DeckListError` listing every problem at once: lines that cannot be read, cards that
are unknown or unsupported, and the deck construction rules of the room's
:class:`DeckFormat` (rules 100.2a/100.4a constructed, 100.2b/100.4b limited, 407.3 ante).

A deck is stored as its canonical text (:func:`canonical`): plain text, main deck then
``Sideboard``, one line per card in the order the card first appears. ``resolve(deck.text,
fmt)`` rebuilds an equal deck, so a restarted server rebuilds a game exactly (the engine is
deterministic from the seed, the actions and the decks' order).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

from server.cards import CardDef, demo_deck, demo_deck_names
from server.decks.builder import Parsed
from server.decks.export import export
from server.decks.model import (
    MAX_COUNT,
    MAX_DECK_BYTES,
    MAX_DECK_CARDS,
    Deck,
    DeckFormat,
    DeckList,
    DeckListError,
    Entry,
    FileFormat,
    complete,
)
from server.decks.parse import detect_format, parse, read, too_large
from server.decks.validate import deck_problems, parsed_problems

__all__ = [
    "MAX_COUNT",
    "MAX_DECK_BYTES",
    "MAX_DECK_CARDS",
    "Deck",
    "DeckFormat",
    "DeckList",
    "DeckListError",
    "Entry",
    "FileFormat",
    "canonical",
    "check",
    "complete",
    "deck_problems",
    "demo_named",
    "detect_format",
    "export",
    "parse",
    "resolve_as_read",
    "resolve",
    "to_deck",
]


def _merged(cards: Iterable[tuple[CardDef, int]]) -> list[tuple[CardDef, int]]:
    """Copies of each card added up, cards in the order they first appear."""
    counts: dict[str, int] = {}
    first: dict[str, CardDef] = {}
    for card, count in cards:
        first.setdefault(card.name, card)
        counts[card.name] = counts.get(card.name, 0) + count
    return [(first[name], n) for name, n in counts.items()]


def _sections(deck: DeckList | Deck) -> tuple[list[tuple[CardDef, int]],
                                              list[tuple[CardDef, int]]]:
    if isinstance(deck, Deck):
        return _merged((c, 1) for c in deck.main), _merged((c, 1) for c in deck.sideboard)
    return (_merged((e.card, e.count) for e in deck.main),
            _merged((e.card, e.count) for e in deck.sideboard))


def canonical(deck: DeckList | Deck) -> str:
    """The storage form of a deck: plain text, deterministic -- ``Name <name>`` if it has
    one, the main deck, then ``Sideboard`` and the sideboard, one ``<count> <card name>``
    line per card in the order each card first appears (a card with more than
    :data:`MAX_COUNT` copies takes several lines; printings are left out: they never change
    a game)."""
    main, side = _sections(deck)
    lines = [f"Name {deck.name}"] if deck.name else []
    lines += _lines(main)
    if side:
        lines += ["", "Sideboard", *_lines(side)]
    return "\n".join(lines) + "\n"


def _lines(cards: list[tuple[CardDef, int]]) -> list[str]:
    """``<count> <card name>`` lines, a card over :data:`MAX_COUNT` copies on several."""
    return [f"{min(MAX_COUNT, n - done)} {card.name}" for card, n in cards
            for done in range(0, n, MAX_COUNT)]


def to_deck(deck: DeckList, notes: Iterable[str] = ()) -> Deck:
    """The game's view of a deck list: each card's copies together, where it first
    appears, and the canonical text (rule 103.2: the deck a player starts with); ``notes``:
    what the player should know of the list (:attr:`Deck.notes`)."""
    main, side = _sections(deck)
    return Deck(deck.name, tuple(c for c, n in main for _ in range(n)),
                tuple(c for c, n in side for _ in range(n)), canonical(deck), tuple(notes))


def _demo(name: str) -> Parsed:
    cards = demo_deck(name)
    entries = tuple(complete(Entry(n, card)) for card, n in _merged((c, 1) for c in cards))
    return Parsed(DeckList(name, entries, (), FileFormat.TEXT), [])


_SEPARATORS = re.compile(r"[\s_-]+")


def _loose_name(text: str) -> str:
    """A demo deck's name as compared: case, blanks, underscores and hyphens left out."""
    return _SEPARATORS.sub("", text).casefold()


def demo_named(spec: str) -> str | None:
    """The demo deck ``spec`` names: its name as written, or the same up to case, blanks,
    underscores and hyphens (``Dimir Mill``, ``dimir_mill`` for ``dimir-mill``: a new
    player typed the name with a space and got only "expected '<count> <card name>'");
    None if it names none."""
    name = spec.strip()
    names = demo_deck_names()
    if name in names:
        return name
    if "\n" in name or "\r" in name or len(name) > 64:
        return None
    loose = _loose_name(name)
    return next((n for n in names if _loose_name(n) == loose), None) if loose else None


def _close_demo(text: str) -> str | None:
    """The demo deck a one-line text that is no deck list was maybe meant to name: a name
    close to it (``dimir mil``), or the one whose first word it is (``rakdos``)."""
    loose = _loose_name(text)
    if len(loose) < 3:
        return None
    names = demo_deck_names()
    by_loose = {_loose_name(n): n for n in names}
    close = difflib.get_close_matches(loose, list(by_loose), n=1, cutoff=0.75)
    if close:
        return by_loose[close[0]]
    first = [n for n in names if _loose_name(n.split("-")[0]) == loose]
    return first[0] if len(first) == 1 else None


def _with_demo_hint(spec: str, parsed: Parsed) -> Parsed:
    """A one-line text read as a deck list that isn't one (its line is no card line): the
    demo deck it was maybe meant to name, or the demo decks' names -- where else would a
    player find them."""
    lines = [line for line in spec.splitlines() if line.strip()]
    unread = "line 1: expected '<count> <card name>'"
    if len(lines) != 1 or len(parsed.problems) != 1 \
            or not parsed.problems[0].startswith(unread):
        return parsed
    meant = _close_demo(lines[0])
    hint = (f" -- did you mean the demo deck '{meant}'?" if meant is not None else
            " -- or name a demo deck: " + ", ".join(demo_deck_names()))
    return Parsed(parsed.deck, [parsed.problems[0] + hint], parsed.unknown_main,
                  parsed.unknown_sideboard, parsed.notes, parsed.sideboard_after_blank)


def _checked(parsed: Parsed, fmt: DeckFormat, ante: bool) -> DeckList:
    problems = parsed_problems(parsed, fmt, ante=ante)
    if problems:
        raise DeckListError(problems)
    return parsed.deck


def check(text: str, fmt: DeckFormat, *, filename: str | None = None,
          file_format: FileFormat | None = None, ante: bool = False) -> DeckList:
    """Parse a deck list and check it against the rules of ``fmt`` (rule 100.2) and of
    ante (407.3; ``ante``: the game is played for ante). Raises :class:`DeckListError`
    with every problem, the parse's and the rules', at once."""
    return _checked(read(text, filename=filename, file_format=file_format), fmt, ante)


def resolve_as_read(spec: str, fmt: DeckFormat, *, ante: bool = False
                    ) -> tuple[Deck | None, tuple[str, ...]]:
    """:func:`resolve`, but a list that reads whole and only breaks ``fmt``'s rules comes
    back too: ``(deck, ())`` if it may be played, ``(deck as read, its problems)`` if it
    reads whole but breaks the rules, ``(None, its problems)`` if it can't be read whole."""
    problem = too_large(spec)
    if problem is not None:
        return None, (problem,)
    demo = demo_named(spec)
    parsed = _demo(demo) if demo is not None else _with_demo_hint(spec, read(spec))
    try:
        return to_deck(_checked(parsed, fmt, ante), parsed.notes), ()
    except DeckListError as exc:
        whole = not (parsed.problems or parsed.unknown_main or parsed.unknown_sideboard)
        return (to_deck(parsed.deck, parsed.notes) if whole else None), tuple(exc.problems)


def resolve(spec: str, fmt: DeckFormat, *, ante: bool = False) -> Deck:
    """The deck a player asks for: a demo deck's name (:func:`demo_named`) or the text of
    a deck list in any supported format, checked against the room's format (see
    :func:`check`). Raises :class:`DeckListError` with every problem."""
    deck, problems = resolve_as_read(spec, fmt, ante=ante)
    if problems or deck is None:
        raise DeckListError(list(problems))
    return deck
