"""Whole MTGJSON set files (``data/sets/CODE.json``): every card of a set, supported or not,
and its booster configuration (``data.booster``). Coverage (``manawire cards``) and sealed
pools (``manawire sealed``, :mod:`server.cards.sealed`) read them; the playable card pool
(``data/CODE.json`` + behaviour) is separate.

A set file is an MTGJSON set file trimmed to the fields these readers use::

    python -m server.cards.sets SRC.json server/cards/data/sets/M21.json
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from server.cards import card_pool
from server.cards.model import SUPPORTED_KEYWORDS
from server.cards.oracle import KEYWORD_ACTIONS, bare, keyword_line

#: The card fields kept by :func:`trim` (printed characteristics, printing, rarity).
CARD_FIELDS = ("name", "number", "uuid", "rarity", "manaCost", "convertedManaCost", "type",
               "types", "subtypes", "supertypes", "colors", "colorIdentity", "text", "power",
               "toughness", "loyalty", "keywords", "layout", "setCode", "side", "isStarter",
               "promoTypes", "frameEffects", "borderColor")


@dataclass(frozen=True, slots=True)
class SetFile:
    """One MTGJSON set: its code, name, cards (every printing) and booster data."""

    code: str
    name: str
    cards: tuple[Mapping[str, Any], ...]
    booster: Mapping[str, Any]

    def names(self) -> list[str]:
        """Every distinct card name, in collector-number order of first printing."""
        return list(dict.fromkeys(c["name"] for c in self.cards))

    def first_printing(self, name: str) -> Mapping[str, Any]:
        return next(c for c in self.cards if c["name"] == name)


def parse_set(text: str) -> SetFile:
    data = json.loads(text)["data"]
    return SetFile(code=str(data["code"]), name=str(data["name"]),
                   cards=tuple(data["cards"]), booster=data.get("booster") or {})


def set_codes() -> list[str]:
    """The codes of the bundled set files."""
    folder = resources.files("server.cards").joinpath("data", "sets")
    return sorted(p.name.removesuffix(".json") for p in folder.iterdir()
                  if p.name.endswith(".json"))


@cache
def load_set(code: str) -> SetFile:
    """A bundled set file by its code (case-insensitive), e.g. ``M21``."""
    codes = {c.casefold(): c for c in set_codes()}
    if code.casefold() not in codes:
        raise KeyError(f"unknown set {code!r}; bundled sets: {', '.join(codes.values())}")
    path = resources.files("server.cards").joinpath("data", "sets",
                                                    f"{codes[code.casefold()]}.json")
    return parse_set(path.read_text(encoding="utf-8"))


def trim(text: str) -> str:
    """An MTGJSON set file cut down to what :class:`SetFile` reads (the default booster)."""
    data = json.loads(text)["data"]
    cards = [{k: c[k] for k in CARD_FIELDS if k in c} for c in data["cards"]]
    booster = data.get("booster") or {}
    out = {"data": {"code": data["code"], "name": data["name"],
                    "baseSetSize": data.get("baseSetSize"),
                    "totalSetSize": data.get("totalSetSize"),
                    "booster": {"default": booster["default"]} if "default" in booster else {},
                    "cards": cards}}
    return json.dumps(out, ensure_ascii=False, indent=0, sort_keys=False) + "\n"


# --- coverage -----------------------------------------------------------------------------

_LOYALTY = re.compile(r"^\[?[+\-\u2212]?(\d+|X)\]?:")


def _paragraph_kind(paragraph: str, card_types: list[str]) -> str:
    """What kind of ability an unexplained paragraph is, from its shape (rules 113.3)."""
    if _LOYALTY.match(paragraph):
        return "loyalty abilities"
    if re.match(r"^(When|Whenever|At)\b", paragraph):
        return "triggered ability"
    head = paragraph.split(".", maxsplit=1)[0]
    if ":" in head and ("{" in head.split(":", maxsplit=1)[0] or re.match(
            r"^(Sacrifice|Discard|Pay|Exile|Tap|Remove|Put)\b", head)):
        return "activated ability"
    if any(t in card_types for t in ("Instant", "Sorcery")):
        return "spell effect"
    return "static ability"


#: "Hexproof from [quality]" qualities the loader's ``hexproof_from`` takes (rule 702.11d).
_HEXPROOF_QUALITIES = ("white", "blue", "black", "red", "green", "multicolored")


def _hexproof_from_supported(text: str) -> bool:
    """Whether every "hexproof from [quality]" of the text names a quality the engine has."""
    qualities = re.findall(r"[Hh]exproof from ([a-z]+)", text)
    return bool(qualities) and all(q in _HEXPROOF_QUALITIES for q in qualities)


def needs(raw: Mapping[str, Any]) -> str:
    """Why a card of a set file isn't supported yet, from the loader's own rules: the first
    keyword ability (MTGJSON ``keywords``) the engine doesn't implement, else the first
    paragraph of its Oracle text that neither reminder text nor its keyword abilities explain
    (a keyword action such as Scry is an effect: it needs behaviour data), named by the kind
    of ability it is; "" if nothing is missing but its entry (a vanilla card)."""
    keywords = list(raw.get("keywords") or ())
    text = str(raw.get("text") or "")
    for k in keywords:
        if k == "Hexproof from" and _hexproof_from_supported(text):
            continue  # the behaviour data's ``hexproof_from`` (rule 702.11d)
        if k == "Hexproof" and "Hexproof from" in keywords:
            continue  # MTGJSON lists "Hexproof from [quality]" under both
        if k not in SUPPORTED_KEYWORDS and k not in KEYWORD_ACTIONS:
            return f"keyword: {k}"
    for paragraph in text.split("\n"):
        stripped = bare(paragraph)
        if not stripped or keyword_line(stripped,
                                        [k for k in keywords if k not in KEYWORD_ACTIONS]):
            continue
        return f"behaviour data: {_paragraph_kind(stripped, list(raw.get('types') or ()))}"
    return ""


@dataclass(frozen=True, slots=True)
class Coverage:
    code: str
    name: str
    supported: tuple[str, ...]
    #: The missing card names grouped by what they need (see :func:`needs`).
    missing: dict[str, tuple[str, ...]]

    @property
    def total(self) -> int:
        return len(self.supported) + sum(len(v) for v in self.missing.values())


def coverage(set_file: SetFile) -> Coverage:
    """Which of a set's cards (by name) the card pool supports, and what the rest need."""
    pool = card_pool()
    supported: list[str] = []
    groups: dict[str, list[str]] = {}
    for name in set_file.names():
        if name in pool:
            supported.append(name)
        else:
            reason = needs(set_file.first_printing(name)) or "its MTGJSON entry only (vanilla)"
            groups.setdefault(reason, []).append(name)
    ordered = sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    return Coverage(set_file.code, set_file.name, tuple(supported),
                    {k: tuple(v) for k, v in ordered})


if __name__ == "__main__":  # python -m server.cards.sets SRC DEST
    src, dest = sys.argv[1:3]
    with open(src, encoding="utf-8") as f_in, open(dest, "w", encoding="utf-8") as f_out:
        f_out.write(trim(f_in.read()))
