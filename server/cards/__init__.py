"""Card data: printed characteristics from MTGJSON-format files plus behaviour data.

Everything is validated into frozen :class:`CardDef` values when first loaded; a typo in a data
file is a :class:`CardDataError` naming the card and the field, never a runtime surprise.
Standard library only: the rules engine depends on this package.
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from typing import Any

from server.cards.mana import COLORS, ManaCost, ManaCostError
from server.cards.model import CardDef, DealDamage, Effect, TargetSpec

__all__ = [
    "CardDataError",
    "CardDef",
    "DeckError",
    "card",
    "card_pool",
    "demo_deck",
    "demo_deck_names",
    "parse_decklist",
]

#: Rule 305.6: each basic land type has an intrinsic "{T}: Add [mana]" ability.
BASIC_LAND_MANA = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}

_REMINDER = re.compile(r"^\([^()]*\)$")


class CardDataError(ValueError):
    """Card data that cannot be turned into a valid definition."""


class DeckError(ValueError):
    """A decklist naming unknown cards or breaking deck construction rules (rule 100.2a)."""


def _data_text(*parts: str) -> str:
    return resources.files("server.cards").joinpath("data", *parts).read_text(encoding="utf-8")


def _effect(name: str, index: int, raw: Any) -> Effect:
    where = f"card {name!r}: effects[{index}]"
    if not isinstance(raw, dict):
        raise CardDataError(f"{where}: expected an object")
    verb = raw.get("verb")
    if verb == "deal_damage":
        unknown = sorted(set(raw) - {"verb", "amount", "target"})
        if unknown:
            raise CardDataError(f"{where}: unknown field(s) {unknown} for deal_damage")
        amount = raw.get("amount")
        if amount != "X" and (not isinstance(amount, int) or isinstance(amount, bool)
                              or amount < 0):
            raise CardDataError(f"{where}.amount: expected a non-negative integer or 'X'")
        try:
            target = TargetSpec(raw.get("target"))
        except ValueError:
            raise CardDataError(f"{where}.target: unknown target {raw.get('target')!r}") from None
        return DealDamage(None if amount == "X" else amount, target)
    raise CardDataError(f"{where}.verb: unknown verb {verb!r}")


def _opt_int(name: str, field: str, value: Any) -> int | None:
    if value is None:
        return None
    try:
        return int(value)
    except ValueError:
        raise CardDataError(f"card {name!r}: {field} {value!r} is not a number") from None


def _build(raw: dict[str, Any], behaviour: dict[str, Any]) -> CardDef:
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        raise CardDataError(f"card without a name: {raw!r:.80}")
    try:
        cost_text = raw.get("manaCost") or ""
        cost = ManaCost.parse(cost_text)
    except ManaCostError as exc:
        raise CardDataError(f"card {name!r}: manaCost: {exc}") from None
    text = raw.get("text") or ""
    subtypes = tuple(raw.get("subtypes") or ())
    card_types = tuple(raw.get("types") or ())
    if not card_types:
        raise CardDataError(f"card {name!r}: types is empty")
    colors = tuple(raw.get("colors") or ())
    for c in colors:
        if c not in COLORS:
            raise CardDataError(f"card {name!r}: colors: unknown colour {c!r}")
    spec = behaviour.get(name, {})
    unknown = sorted(set(spec) - {"effects"})
    if unknown:
        raise CardDataError(f"card {name!r}: unknown behaviour field(s) {unknown}")
    effects = tuple(_effect(name, i, e) for i, e in enumerate(spec.get("effects", ())))
    mana = tuple(BASIC_LAND_MANA[s] for s in subtypes if s in BASIC_LAND_MANA)
    explained = not text or bool(_REMINDER.match(text)) or effects
    if not explained:
        raise CardDataError(
            f"card {name!r}: its text {text!r} has no behaviour in data/behaviour.json"
        )
    if any(t in card_types for t in ("Instant", "Sorcery")) and not effects:
        raise CardDataError(f"card {name!r}: an instant or sorcery needs effects")
    return CardDef(
        name=name,
        mana_cost=cost,
        has_mana_cost=bool(cost_text),
        supertypes=tuple(raw.get("supertypes") or ()),
        card_types=card_types,
        subtypes=subtypes,
        colors=colors,
        rules_text=text,
        power=_opt_int(name, "power", raw.get("power")),
        toughness=_opt_int(name, "toughness", raw.get("toughness")),
        effects=effects,
        mana_abilities=mana,
    )


def load_pool(set_json: str, behaviour_json: str) -> dict[str, CardDef]:
    """Validate an MTGJSON set file and a behaviour file into definitions keyed by name."""
    try:
        data = json.loads(set_json)["data"]["cards"]
        behaviour = {k: v for k, v in json.loads(behaviour_json).items() if not k.startswith("_")}
    except (KeyError, TypeError, json.JSONDecodeError) as exc:
        raise CardDataError(f"malformed card data: {exc}") from None
    pool: dict[str, CardDef] = {}
    for raw in data:
        definition = _build(raw, behaviour)
        pool.setdefault(definition.name, definition)
    stray = sorted(set(behaviour) - set(pool))
    if stray:
        raise CardDataError(f"behaviour given for unknown card(s): {stray}")
    return pool


@cache
def card_pool() -> dict[str, CardDef]:
    """Every supported card, keyed by exact name."""
    return load_pool(_data_text("M21.json"), _data_text("behaviour.json"))


def card(name: str) -> CardDef:
    """The definition of the card with this exact name."""
    try:
        return card_pool()[name]
    except KeyError:
        raise CardDataError(f"unknown card {name!r}") from None


def parse_decklist(text: str) -> list[CardDef]:
    """Parse ``"4 Shock"`` lines (``#`` comments allowed) into a 60+ card constructed deck.

    Enforces rule 100.2a: at least 60 cards and at most four of any card other than basic
    lands.
    """
    deck: list[CardDef] = []
    counts: dict[str, int] = {}
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        count_text, _, name = line.partition(" ")
        if not count_text.isdigit() or not name.strip():
            raise DeckError(f"line {lineno}: expected '<count> <card name>', got {line!r}")
        try:
            definition = card(name.strip())
        except CardDataError as exc:
            raise DeckError(f"line {lineno}: {exc}") from None
        counts[definition.name] = counts.get(definition.name, 0) + int(count_text)
        deck.extend([definition] * int(count_text))
    if len(deck) < 60:
        raise DeckError(
            f"a constructed deck needs at least 60 cards (rule 100.2a), got {len(deck)}"
        )
    for name, n in counts.items():
        if n > 4 and "Basic" not in card(name).supertypes:
            raise DeckError(f"at most four copies of {name!r} (rule 100.2a), got {n}")
    return deck


def demo_deck_names() -> list[str]:
    """Names of the shipped demo decks."""
    folder = resources.files("server.cards").joinpath("data", "decks")
    return sorted(p.name.removesuffix(".txt") for p in folder.iterdir() if p.name.endswith(".txt"))


def demo_deck(name: str) -> list[CardDef]:
    """A shipped demo deck by name (see :func:`demo_deck_names`)."""
    if name not in demo_deck_names():
        raise DeckError(f"unknown deck {name!r}; choose one of {demo_deck_names()}")
    return parse_decklist(_data_text("decks", f"{name}.txt"))
