"""Sealed pools opened from an MTGJSON set file's booster configuration (``data.booster``).

A booster (MTGJSON "booster" data, ``default`` product): one layout is picked by its
``weight`` out of ``boostersTotalWeight``; for each sheet it names, ``contents[sheet]`` cards
are drawn from the sheet by the cards' weights, without a repeat within that draw (unless the
sheet says ``allowDuplicates``). A sheet with ``balanceColors`` first takes one card of each
colour (a card of only that colour, by weight), then fills the rest from the whole sheet; a
``foil`` sheet's cards are foils. Everything comes from one ``random.Random`` seeded with the
set and the seed, so a pool is the same on every machine.

:func:`playable_deck` builds a 40-card limited deck (rule 100.2b) from a pool's cards the
engine supports, plus basic lands (added from outside the pool, as sealed deck allows).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from server.cards import card_pool
from server.cards.mana import COLORS
from server.cards.model import CardDef
from server.cards.sets import SetFile

#: Limited: a deck of at least 40 cards (rule 100.2b); 17 lands is the usual share.
DECK_SIZE = 40
LANDS = 17
BASIC_FOR = {"W": "Plains", "U": "Island", "B": "Swamp", "R": "Mountain", "G": "Forest"}


class BoosterDataError(ValueError):
    """A set file without usable booster data."""


@dataclass(frozen=True, slots=True)
class PoolCard:
    name: str
    uuid: str
    sheet: str
    foil: bool


@dataclass(frozen=True, slots=True)
class Booster:
    #: The index of the layout picked in ``boosters`` and its ``contents`` (sheet -> count).
    layout: int
    contents: Mapping[str, int]
    cards: tuple[PoolCard, ...]


def _weighted_pick(rng: random.Random, items: Sequence[tuple[str, int]]) -> int:
    total = sum(w for _, w in items)
    roll = rng.randrange(total)
    for i, (_, w) in enumerate(items):
        roll -= w
        if roll < 0:
            return i
    raise AssertionError("unreachable: roll below the total weight")


def _draw(rng: random.Random, sheet: Mapping[str, Any], count: int,
          by_uuid: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """``count`` card uuids from a sheet by weight; no repeats unless ``allowDuplicates``."""
    items = [(u, int(w)) for u, w in sheet["cards"].items() if int(w) > 0]
    repeats = bool(sheet.get("allowDuplicates", False))
    if not repeats and count > len(items):
        raise BoosterDataError(f"a sheet of {len(items)} cards can't give {count} different")
    picked: list[str] = []
    if sheet.get("balanceColors") and count >= len(COLORS):
        for color in COLORS:  # one card of each colour first
            mono = [(u, w) for u, w in items
                    if list(by_uuid[u].get("colors") or ()) == [color] and u not in picked]
            if mono:
                picked.append(mono[_weighted_pick(rng, mono)][0])
    while len(picked) < count:
        left = items if repeats else [(u, w) for u, w in items if u not in picked]
        picked.append(left[_weighted_pick(rng, left)][0])
    return picked


def open_booster(set_file: SetFile, rng: random.Random) -> Booster:
    """One booster of the set's ``default`` product (see the module docstring)."""
    data = set_file.booster.get("default")
    if not data or not data.get("boosters") or not data.get("sheets"):
        raise BoosterDataError(f"set {set_file.code} has no default booster data")
    by_uuid = {c["uuid"]: c for c in set_file.cards}
    layouts = [(str(i), int(b["weight"])) for i, b in enumerate(data["boosters"])]
    index = _weighted_pick(rng, layouts)
    contents: dict[str, int] = dict(data["boosters"][index]["contents"])
    cards: list[PoolCard] = []
    for sheet_name, count in contents.items():
        sheet = data["sheets"][sheet_name]
        for uuid in _draw(rng, sheet, count, by_uuid):
            cards.append(PoolCard(by_uuid[uuid]["name"], uuid, sheet_name,
                                  bool(sheet.get("foil", False))))
    return Booster(index, contents, tuple(cards))


def open_pool(set_file: SetFile, seed: str, boosters: int = 6) -> list[Booster]:
    """``boosters`` boosters, the same for the same set and seed."""
    rng = random.Random(f"sealed:{set_file.code}:{seed}")
    return [open_booster(set_file, rng) for _ in range(boosters)]


# --- a playable limited deck ----------------------------------------------------------------

def _fits(definition: CardDef, colors: tuple[str, ...]) -> bool:
    return all(c in colors for c in definition.colors)


def playable_deck(names: Sequence[str]) -> tuple[list[str], list[str]]:
    """A 40-card limited deck (rule 100.2b) from the pool's supported cards: the two colours
    with the most supported nonland cards, up to 23 of them (cheapest first, creatures
    before other spells at equal cost), the pool's supported nonbasic lands of those colours,
    then basic lands (from outside the pool) in proportion to the coloured mana symbols.
    Returns (main deck, the rest of the supported pool) as card names."""
    pool = card_pool()
    supported = [pool[n] for n in names if n in pool]
    spells = [d for d in supported if not d.is_land]
    pairs = list(combinations(COLORS, 2))

    def score(pair: tuple[str, ...]) -> tuple[int, int]:
        fitting = [d for d in spells if _fits(d, pair)]
        return len([d for d in fitting if d.colors]), len(fitting)

    best = max(pairs, key=score)
    chosen = sorted((d for d in spells if _fits(d, best)),
                    key=lambda d: (d.mana_cost.mana_value, not d.creature, d.name))
    main = [d.name for d in chosen[:DECK_SIZE - LANDS]]
    lands = [d.name for d in supported if d.is_land and "Basic" not in d.supertypes
             and d.mana_abilities and all(
                 all(ch in (*best, "C") for ch in m.replace("|", "")) for m in d.mana_abilities)]
    main += lands[:LANDS // 2]
    symbols = Counter(ch for d in chosen[:DECK_SIZE - LANDS] for ch in str(d.mana_cost)
                      if ch in best)
    basics = DECK_SIZE - len(main)
    weights = [symbols[c] or 1 for c in best]
    first = round(basics * weights[0] / sum(weights))
    main += [BASIC_FOR[best[0]]] * first + [BASIC_FOR[best[1]]] * (basics - first)
    rest = Counter(d.name for d in supported)
    rest.subtract(Counter(main))
    side = [n for n, k in rest.items() for _ in range(max(k, 0))]
    return main, side
