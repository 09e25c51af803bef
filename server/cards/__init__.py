"""Card data: printed characteristics from MTGJSON-format files plus behaviour data.

Everything is validated into frozen :class:`CardDef` values when first loaded; a typo in a data
file is a :class:`CardDataError` naming the card and the field, never a runtime surprise.
Standard library only: the rules engine depends on this package.
"""

from __future__ import annotations

import json
import re
from enum import Enum
from functools import cache
from importlib import resources
from typing import Any, TypeVar

from server.cards.mana import COLORS, MANA_TYPES, ManaCost, ManaCostError
from server.cards.model import (
    CARD_QUALITIES,
    CODED_EFFECTS,
    EFFECT_ZONES,
    PLAYER_COUNTS,
    SUPPORTED_KEYWORDS,
    ActivatedAbility,
    AdditionalCost,
    Affects,
    CardDef,
    Condition,
    Controller,
    CostKind,
    CostReduction,
    Count,
    CountCondition,
    DamageKind,
    Effect,
    ExtraTriggers,
    GraveyardCast,
    ObjectFilter,
    Recipient,
    Replacement,
    ReplacementKind,
    Rounding,
    SpellCostChange,
    StaticAbility,
    StickerDef,
    StickerKind,
    TargetedCost,
    TargetKind,
    TargetReq,
    TriggeredAbility,
    TriggerEvent,
    Verb,
    Who,
)

__all__ = [
    "CardDataError",
    "CardDef",
    "DeckError",
    "card",
    "card_pool",
    "demo_deck",
    "demo_deck_names",
    "parse_decklist",
    "test_card_pool",
    "plane",
    "plane_pool",
]

#: Rule 305.6: each basic land type has an intrinsic "{T}: Add [mana]" ability.
BASIC_LAND_MANA = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}

_E = TypeVar("_E", bound=Enum)
_REMINDER = re.compile(r"^\([^()]*\)$")


class CardDataError(ValueError):
    """Card data that cannot be turned into a valid definition."""


class DeckError(ValueError):
    """A decklist naming unknown cards or breaking deck construction rules (rule 100.2a)."""


def _data_text(*parts: str) -> str:
    return resources.files("server.cards").joinpath("data", *parts).read_text(encoding="utf-8")


def _fields(where: str, raw: Any, allowed: set[str]) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise CardDataError(f"{where}: expected an object")
    unknown = sorted(set(raw) - allowed)
    if unknown:
        raise CardDataError(f"{where}: unknown field(s) {unknown}")
    return raw


def _int(where: str, value: Any, *, allow_x: bool = False, signed: bool = False) -> int | None:
    if allow_x and value == "X":
        return None
    if not isinstance(value, int) or isinstance(value, bool) or (value < 0 and not signed):
        kind = "an integer" if signed else "a non-negative integer"
        alternative = " or 'X'" if allow_x else ""
        raise CardDataError(f"{where}: expected {kind}{alternative}")
    return value


def _enum(where: str, cls: type[_E], value: Any) -> _E:
    try:
        return cls(value)
    except ValueError:
        choices = [m.value for m in cls]
        raise CardDataError(
            f"{where}: unknown value {value!r}; expected one of {choices}") from None


def _target(where: str, raw: Any) -> TargetReq:
    if isinstance(raw, str):
        return TargetReq(_enum(where, TargetKind, raw))
    spec = _fields(where, raw, {"kind", "count", "up_to", "tapped", "max_mana_value",
                                "opponent_controls", "min_power", "you_control", "other",
                                "has", "lacks", "activated_this_turn", "with_counter",
                                "subtypes", "other_target", "max_power",
                                "that_player_controls", "colors"})
    count = _int(f"{where}.count", spec.get("count", 1)) or 0
    if count < 1:
        raise CardDataError(f"{where}.count: must be at least 1")
    mv = spec.get("max_mana_value")
    for flag in ("up_to", "tapped", "opponent_controls", "you_control", "other",
                 "activated_this_turn", "other_target", "that_player_controls"):
        if not isinstance(spec.get(flag, False), bool):
            raise CardDataError(f"{where}.{flag}: expected true or false")
    return TargetReq(
        kind=_enum(f"{where}.kind", TargetKind, spec.get("kind")),
        count=count,
        up_to=spec.get("up_to", False),
        tapped=spec.get("tapped", False),
        max_mana_value=None if mv is None else _int(f"{where}.max_mana_value", mv),
        opponent_controls=spec.get("opponent_controls", False),
        min_power=None if spec.get("min_power") is None
        else _int(f"{where}.min_power", spec["min_power"]),
        max_power=None if spec.get("max_power") is None
        else _int(f"{where}.max_power", spec["max_power"]),
        you_control=spec.get("you_control", False),
        other=spec.get("other", False),
        has=str(spec.get("has", "")),
        lacks=str(spec.get("lacks", "")),
        activated_this_turn=spec.get("activated_this_turn", False),
        with_counter=_target_counter(f"{where}.with_counter", spec.get("with_counter", "")),
        subtypes=_target_subtypes(f"{where}.subtypes", spec.get("subtypes", [])),
        other_target=spec.get("other_target", False),
        that_player_controls=spec.get("that_player_controls", False),
        colors=_colors(f"{where}.colors", spec.get("colors", [])),
    )


def _colors(where: str, raw: Any) -> tuple[str, ...]:
    """Colour letters (rule 105.1)."""
    letters = tuple(str(c) for c in _list(where, raw))
    if any(c not in COLORS for c in letters):
        raise CardDataError(f"{where}: expected letters of WUBRG")
    return letters


def _enchant_you_control(where: str, spec: dict[str, Any], enchant: TargetKind | None) -> bool:
    """"Enchant [permanent] you control" (rule 303.4a): a flag, for an Aura only."""
    raw = spec.get("enchant_you_control", False)
    if not isinstance(raw, bool):
        raise CardDataError(f"{where}: enchant_you_control: expected true or false")
    if raw and enchant is None:
        raise CardDataError(f"{where}: enchant_you_control needs 'enchant'")
    return raw


def _target_counter(where: str, raw: Any) -> str:
    """A counter kind a target must have on it (rule 122.1): a non-empty name or none."""
    if raw not in ("", "+1/+1", "-1/-1", "loyalty"):
        raise CardDataError(f"{where}: expected '+1/+1', '-1/-1' or 'loyalty'")
    return str(raw)


def _counter_kind(where: str, raw: Any) -> str:
    """Any kind of counter (rule 122.1): "+1/+1", "-1/-1" or a lower-case word such as
    "soul"; "" -- none."""
    if not isinstance(raw, str) or not (raw in ("", "+1/+1", "-1/-1")
                                        or re.fullmatch(r"[a-z]+", raw)):
        raise CardDataError(f"{where}: expected a counter kind such as '+1/+1' or 'soul'")
    return raw


def _target_subtypes(where: str, raw: Any) -> tuple[str, ...]:
    """Subtypes of which a target must have one (rule 205.3): capitalised names."""
    names = _list(where, raw)
    for name in names:
        if not isinstance(name, str) or not name[:1].isupper():
            raise CardDataError(f"{where}: expected subtype names such as 'Cat', got {name!r}")
    return tuple(names)


_VERB_FIELDS: dict[Verb, set[str]] = {
    Verb.DEAL_DAMAGE: {"amount", "who", "target", "by"},
    Verb.GAIN_LIFE: {"amount", "who", "target"},
    Verb.LOSE_LIFE: {"amount", "who", "target"},
    Verb.DRAW: {"amount", "who", "target"},
    Verb.DISCARD: {"amount", "who", "target", "chooser", "find", "reveal", "whole_hand",
                   "up_to"},
    Verb.DESTROY: {"target", "who", "no_regeneration"},
    Verb.REGENERATE: {"target", "who"},
    Verb.COUNTER: {"target", "who", "unless_pays"},
    Verb.RETURN_TO_HAND: {"target", "who", "amount", "zones"},
    Verb.PUT_COUNTERS: {"amount", "who", "target", "counter", "double"},
    Verb.MODIFY_PT: {"who", "target", "power", "toughness", "gains", "loses", "double_power",
                     "switch", "amount", "lasting", "protection", "gains_chosen",
                     "set_base"},
    Verb.CREATE_TOKEN: {"amount", "who", "target", "token", "tapped_attacking"},
    Verb.DELAYED_TRIGGER: {"delayed", "this_turn"},
    Verb.CREATE_EMBLEM: {"emblem"},
    Verb.COPY_SPELL: {"target", "who", "new_targets"},
    Verb.CREATE_TOKEN_COPY: {"target", "who"},
    Verb.CODED: {"code", "who", "target", "amount"},
    Verb.PREVENT_COMBAT_DAMAGE: {"prevent_to"},
    Verb.PAY: {"cost", "reflexive"},
    Verb.EXILE: {"target", "who"},
    Verb.TAP: {"who", "target", "amount"},
    Verb.UNTAP: {"who", "target", "amount"},
    Verb.SACRIFICE: {"amount", "who", "target", "quality", "other", "reflexive"},
    Verb.ATTACH: {"target", "who"},
    Verb.RETURN_TO_BATTLEFIELD: {"target", "who"},
    Verb.REMOVE_COUNTERS: {"amount", "who", "target", "counter"},
    Verb.EXILE_IF_DIES: {"target", "who"},
    Verb.SCRY: {"amount", "who"},
    Verb.FATESEAL: {"amount", "who", "target"},
    Verb.SEARCH: {"amount", "who", "target", "zones", "find", "destination", "tapped",
                  "reveal", "shuffle", "find_all", "name", "may_play", "rest_to"},
    Verb.REVEAL_TOP: {"who", "find", "destination", "otherwise"},
    Verb.REVEAL_UNTIL: {"who", "target", "find", "destination"},
    Verb.LOOK_AND_PICK: {"amount", "destination", "pick", "rest", "all_if"},
    Verb.END_TURN: set(),
    Verb.EXILE_TOP_PLAYABLE: {"this_turn"},
    Verb.CLASH: set(),
    Verb.PILES: {"amount"},
    Verb.PUT_ON_TOP: {"target", "who"},
    Verb.PUT_ON_BOTTOM: {"target", "who"},
    Verb.FLIP_COIN: set(),
    Verb.MILL: {"amount", "who", "target"},
    Verb.FIGHT: {"who", "target", "by"},
    Verb.EXCHANGE_CONTROL: {"target", "who"},
    Verb.EXCHANGE_LIFE: {"target", "who"},
    Verb.EXCHANGE_ZONES: {"who", "target", "destination", "exchange_with"},
    Verb.MOVE_FOUND: {"who", "target", "destination", "zones", "tapped"},
    Verb.PUT_INTO_LIBRARY_BENEATH: {"target", "who", "amount"},
    Verb.SHUFFLE_INTO_LIBRARY: {"who", "target", "zones"},
    Verb.WISH: {"who", "card_type"},
    Verb.EXILE_LINKED: {"target", "who", "until_leaves", "chooser", "find", "zones"},
    Verb.PERMIT_CAST_LINKED: {"who", "card_type"},
    Verb.MOVE_LINKED: {"who", "destination"},
    Verb.EXILE_ZONE: {"who", "target", "zones"},
    Verb.PUT_INTO_COMMAND: {"who", "target"},
    Verb.TURN_FACE_DOWN: {"who", "target"},
    Verb.PREVENT_DAMAGE_FROM: {"who", "target"},
    Verb.EXILE_TOP_FACE_DOWN: {"who", "target", "amount", "may_look"},
    Verb.CHOOSE_EXILED: {"who", "destination"},
    Verb.GRANT_FLASHBACK: {"who"},
    Verb.MOVE_COMMAND_CARDS: {"who", "target", "destination"},
    Verb.PUT_STICKER: {"who", "target", "sticker"},
    Verb.ANTE_TOP: {"who", "target"},
    Verb.DOESNT_UNTAP_NEXT: {"who", "target"},
    Verb.RESTRICT_THIS_TURN: {"who", "target", "restrictions"},
    Verb.TARGET: {"who", "target"},
    Verb.EXILE_TOP: {"who", "target", "amount", "may_play"},
    Verb.PHASE_OUT: {"who", "target", "hold"},
    Verb.EXTRA_TURNS: {"amount"},
    Verb.LOOK_AT_TOP: {"who", "amount", "take", "reveal"},
    Verb.CAST_CARD: {"who", "target", "exile_instead"},
    Verb.FREE_CASTS_THIS_TURN: set(),
    Verb.SACRIFICE_OR_DISCARD: {"who", "amount", "zones"},
    Verb.CHOOSE_COLOR: set(),
    Verb.CHOOSE_KEYWORD: {"gains"},
    Verb.CHOOSE_CARD_NAME: {"other_than"},
    Verb.GAIN_CONTROL: {"who", "target", "this_turn"},
    Verb.ADD_MANA: {"amount", "mana"},
    Verb.LOSE_GAME: {"who", "target"},
    Verb.BECOME: {"who", "target", "power", "toughness", "types", "subtypes", "gains"},
}
_OBJECT_VERBS = (Verb.DESTROY, Verb.COUNTER, Verb.RETURN_TO_HAND, Verb.EXILE, Verb.ATTACH,
                 Verb.RETURN_TO_BATTLEFIELD, Verb.EXILE_IF_DIES, Verb.COPY_SPELL,
                 Verb.CREATE_TOKEN_COPY, Verb.PUT_ON_TOP, Verb.PUT_ON_BOTTOM,
                 Verb.EXCHANGE_CONTROL,
                 Verb.DOESNT_UNTAP_NEXT)
#: Where the cards looked at and not picked go (look_and_pick).
_LOOK_RESTS = ("graveyard", "library_bottom")
_COMMON_EFFECT_FIELDS = {"verb", "condition", "optional", "count", "colors", "filter", "half"}
#: The verbs that affect players one at a time, so a count of "their" library or life can be
#: counted for each player affected.
_PLAYER_COUNT_VERBS = (Verb.DRAW, Verb.GAIN_LIFE, Verb.LOSE_LIFE)
#: The verbs that may act on "a [filter] permanent you control" chosen as they are performed.
_CHOSEN_ONE_VERBS = (Verb.PUT_COUNTERS, Verb.REMOVE_COUNTERS, Verb.DESTROY, Verb.EXILE,
                 Verb.RETURN_TO_HAND, Verb.TAP, Verb.UNTAP)
#: The verbs that may affect "each opponent who can't" (after a discard).
_COULDNT_VERBS = (Verb.DRAW, Verb.GAIN_LIFE, Verb.LOSE_LIFE, Verb.DEAL_DAMAGE, Verb.DISCARD,
                  Verb.SACRIFICE, Verb.MILL)
_RELATIVE = ("that", "target_controller", "attached_to_that")
#: Keyword actions (rule 701) MTGJSON lists among a card's keywords; the card's behaviour
#: data performs them with the matching verb.
KEYWORD_ACTIONS = ("Scry", "Fateseal", "Clash", "Regenerate", "Mill", "Exchange", "Fight")


def _keywords(where: str, raw: Any) -> tuple[str, ...]:
    names = tuple(str(k) for k in _list(where, raw))
    for name in names:
        if name not in SUPPORTED_KEYWORDS:
            raise CardDataError(f"{where}: keyword {name!r} is not supported")
    return names


def _token(where: str, raw: Any) -> CardDef:
    """A token definition (rule 111.3): name from its subtypes plus "Token" (111.4)."""
    spec = _fields(where, raw, {"colors", "types", "subtypes", "power", "toughness",
                                "keywords", "mana", "mana_sacrifice", "statics"})
    mana = tuple(_mana_ability(f"{where}.mana[{i}]", m)
                 for i, m in enumerate(_list(f"{where}.mana", spec.get("mana", []))))
    sacrifice = spec.get("mana_sacrifice", False)
    if not isinstance(sacrifice, bool) or (sacrifice and len(mana) != 1):
        raise CardDataError(f"{where}.mana_sacrifice: true for one mana ability "
                            "('{T}, Sacrifice this: Add ...')")
    subtypes = tuple(str(t) for t in _list(f"{where}.subtypes", spec.get("subtypes", [])))
    colors = tuple(str(c) for c in _list(f"{where}.colors", spec.get("colors", [])))
    if any(c not in COLORS for c in colors):
        raise CardDataError(f"{where}.colors: expected letters of WUBRG")
    return CardDef(
        name=f"{' '.join(subtypes)} Token", mana_cost=ManaCost(), has_mana_cost=False,
        supertypes=(), card_types=tuple(_list(f"{where}.types", spec.get("types",
                                                                          ["Creature"]))),
        subtypes=subtypes, colors=colors, rules_text=", ".join(spec.get("keywords", [])),
        # "X/X" (rule 107.3a): set from the effect's count as the token is created.
        power=0 if spec.get("power") == "X" else _int(f"{where}.power", spec.get("power", 0)),
        toughness=0 if spec.get("toughness") == "X"
        else _int(f"{where}.toughness", spec.get("toughness", 0)),
        keywords=_keywords(f"{where}.keywords", spec.get("keywords", [])),
        is_token=True,
        mana_abilities=mana,
        mana_sacrifice=sacrifice,
        # "a 1/1 red Pirate creature token with 'This creature can't block'" (111.3).
        statics=tuple(_static(f"{where}.statics[{i}]", st)
                      for i, st in enumerate(_list(f"{where}.statics", spec.get("statics", [])))),
    )


def _graveyard_cast(where: str, raw: Any, own: AdditionalCost | None,
                    card_types: tuple[str, ...]) -> GraveyardCast:
    """``{"life": 3, "additional_cost": "discard_card"}``: "You may cast [this] from your
    graveyard by paying 3 life and discarding a card in addition to paying its other costs"."""
    spec = _fields(where, raw, {"life", "additional_cost"})
    if not spec:
        raise CardDataError(f"{where}: give the 'life' and/or 'additional_cost' it adds")
    if own is not None and "additional_cost" in spec:
        raise CardDataError(f"{where}: one additional cost per spell: the card has one")
    if "Land" in card_types:
        raise CardDataError(f"{where}: a land isn't cast (rule 305.1)")
    return GraveyardCast(
        life=_int(f"{where}.life", spec.get("life", 0)) or 0,
        additional_cost=_additional_cost(f"{where}.additional_cost", spec["additional_cost"])
        if "additional_cost" in spec else None)


def _mana_ability_cost(where: str, spec: dict[str, Any], mana: list[str],
                       subtypes: tuple[str, ...]) -> ManaCost | None:
    """"{2}: Add one mana of any color": the mana its one mana ability costs instead of {T}."""
    if "mana_cost" not in spec:
        return None
    if len(mana) != 1 or any(s in BASIC_LAND_MANA for s in subtypes):
        raise CardDataError(f"{where}: mana_cost: for a card with one mana ability")
    cost = _cost(f"{where}: mana_cost", spec["mana_cost"])
    if cost.x_count or cost.mana_value < 1:
        raise CardDataError(f"{where}: mana_cost: a mana cost such as '{{2}}', without X")
    return cost


SPELL_CARD_TYPES = ("Artifact", "Creature", "Enchantment", "Instant", "Planeswalker",
                    "Sorcery", "Battle", "Kindred")


def _mana_only_for(where: str, spec: dict[str, Any], mana: list[str],
                   subtypes: tuple[str, ...]) -> tuple[str, ...]:
    """"Spend this mana only to cast an instant or sorcery spell" (rule 106.6): the card
    types of the spells the mana of its (non-basic-land) mana abilities may be spent on."""
    if "mana_only_for" not in spec:
        return ()
    if not mana or any(s in BASIC_LAND_MANA for s in subtypes):
        raise CardDataError(f"{where}: mana_only_for: for a card with its own mana abilities")
    types = _list(f"{where}: mana_only_for", spec["mana_only_for"])
    if not types or any(t not in SPELL_CARD_TYPES for t in types):
        raise CardDataError(f"{where}: mana_only_for: expected spell card types from "
                            f"{SPELL_CARD_TYPES}, e.g. ['Instant', 'Sorcery']")
    return tuple(str(t) for t in types)


def _mana_for_each(where: str, spec: dict[str, Any], mana: list[str]) -> ObjectFilter | None:
    """"{T}: Add {G} for each creature with power 4 or greater you control": the permanents
    counted, for a card with exactly one mana ability."""
    if "mana_for_each" not in spec:
        return None
    if len(mana) != 1:
        raise CardDataError(f"{where}: mana_for_each: for a card with one mana ability")
    return _filter(f"{where}: mana_for_each", spec["mana_for_each"])


def _mana_ability(where: str, m: Any) -> str:
    """A mana ability as the mana it adds: "CC" adds two colorless; "B|R" adds one of the
    alternatives (the player chooses)."""
    parts = m.split("|") if isinstance(m, str) else [""]
    if not all(p and all(ch in MANA_TYPES for ch in p) for p in parts):
        raise CardDataError(f"{where}: expected mana letters such as 'G', 'CC' or 'B|R'")
    return str(m)


def _effect(where: str, raw: Any) -> Effect:
    if not isinstance(raw, dict):
        raise CardDataError(f"{where}: expected an object")
    verb = _enum(f"{where}.verb", Verb, raw.get("verb"))
    spec = _fields(where, raw, _VERB_FIELDS[verb] | _COMMON_EFFECT_FIELDS)
    target = _target(f"{where}.target", spec["target"]) if "target" in spec else None
    default_who = "target" if target is not None or (
        verb in _OBJECT_VERBS and spec.get("who") not in _RELATIVE) else "you"
    who = _enum(f"{where}.who", Who, spec.get("who", default_who))
    if (who in (Who.TARGET, Who.EACH_CREATURE_TARGET_CONTROLS)) != (target is not None):
        raise CardDataError(f"{where}: 'target' is required exactly when who is 'target' or "
                            "'each_creature_target_controls'")
    if who is Who.EACH_CREATURE_TARGET_CONTROLS and (
            target is None or target.kind not in (TargetKind.PLAYER, TargetKind.OPPONENT)):
        raise CardDataError(f"{where}: 'each_creature_target_controls' targets a player or "
                            "an opponent")
    amount_raw = spec.get("amount", 1)
    if verb is Verb.DELAYED_TRIGGER and "delayed" not in spec:
        raise CardDataError(f"{where}: delayed_trigger needs 'delayed'")
    if verb is Verb.CREATE_EMBLEM and "emblem" not in spec:
        raise CardDataError(f"{where}: create_emblem needs 'emblem'")
    if verb is Verb.CODED and spec.get("code") not in CODED_EFFECTS:
        raise CardDataError(f"{where}.code: unknown coded effect {spec.get('code')!r}; "
                            f"expected one of {list(CODED_EFFECTS)}")
    if verb in (Verb.PUT_COUNTERS, Verb.REMOVE_COUNTERS) and \
            not _counter_kind(f"{where}.counter", spec.get("counter", "")):
        raise CardDataError(f"{where}.counter: expected a counter kind such as '+1/+1' or "
                            "'soul'")
    add_types = tuple(str(t) for t in _list(f"{where}.types", spec.get("types", [])))
    add_subtypes = _target_subtypes(f"{where}.subtypes", spec.get("subtypes", []))
    if any(t not in CARD_TYPES for t in add_types):
        raise CardDataError(f"{where}.types: expected card types such as 'Creature'")
    if verb is Verb.BECOME and not ({"power", "toughness"} <= set(spec) and (
            add_types or add_subtypes)):
        raise CardDataError(f"{where}: become needs 'power', 'toughness' (the new base "
                            "values) and the 'types' or 'subtypes' it gets")
    if verb is Verb.EXILE_LINKED and ("chooser" in spec) != (
            who is Who.TARGET and target is not None and target.kind in (
                TargetKind.PLAYER, TargetKind.OPPONENT)):
        raise CardDataError(f"{where}: exile_linked names cards, or ('chooser': 'you') a "
                            "target player who reveals their hand for you to choose from")
    if verb is Verb.EXILE_LINKED and spec.get("chooser", "you") != "you":
        raise CardDataError(f"{where}.chooser: 'you' choose the card from the revealed hand")
    if verb is Verb.LOSE_GAME and who not in (Who.YOU, Who.TARGET, Who.EACH_OPPONENT,
                                              Who.EACH_PLAYER, Who.TARGET_CONTROLLER):
        raise CardDataError(f"{where}: lose_game names players: 'you', 'target', "
                            "'each_opponent', 'each_player' or 'target_controller'")
    if (verb is Verb.PAY) != ("cost" in spec) or (verb is Verb.PAY and (
            not spec.get("optional") or "condition" in spec)):
        raise CardDataError(f"{where}: pay ('you may pay ...') needs a 'cost' and "
                            "'optional': true, and takes no condition")
    if verb is Verb.CREATE_TOKEN and "token" not in spec:
        raise CardDataError(f"{where}: create_token needs a 'token'")
    if verb is Verb.CHOOSE_KEYWORD and len(spec.get("gains", [])) < 2:
        raise CardDataError(f"{where}: choose_keyword needs two or more 'gains' to choose from")
    if spec.get("up_to") and verb is not Verb.DISCARD:
        raise CardDataError(f"{where}.up_to: 'discard up to N cards' only")
    if verb is Verb.PUT_STICKER and "sticker" not in spec:
        raise CardDataError(f"{where}: put_sticker needs a 'sticker'")
    if verb is Verb.MOVE_COMMAND_CARDS and "destination" not in spec:
        raise CardDataError(f"{where}: move_command_cards needs a 'destination'")
    for flag in ("optional", "double_power", "tapped", "reveal", "shuffle", "find_all",
                 "whole_hand", "double", "lasting", "may_play", "up_to", "hold",
                 "exile_instead",
                 "set_base", "until_leaves"):
        if not isinstance(spec.get(flag, False), bool):
            raise CardDataError(f"{where}.{flag}: expected true or false")
    if spec.get("set_base") and (spec.get("double_power") or spec.get("switch")
                                 or spec.get("gains") or spec.get("loses")):
        raise CardDataError(f"{where}: set_base (base power and toughness, 613.4b) sets "
                            "'power' and 'toughness' only")
    zones = tuple(str(z) for z in _list(f"{where}.zones", spec.get("zones", [])))
    for name in (*zones, *(spec[k] for k in ("destination", "exchange_with", "rest_to")
                           if k in spec)):
        if name not in EFFECT_ZONES:
            raise CardDataError(f"{where}: unknown zone {name!r}; expected one of "
                                f"{list(EFFECT_ZONES)}")
    if verb is Verb.MOVE_FOUND and any(z in ("library_top", "all_exile") for z in zones):
        raise CardDataError(f"{where}.zones: the zones it must be found in, e.g. 'graveyard'")
    if verb is Verb.REVEAL_UNTIL and (spec.get("find", "") in ("", "named", "same_name_as_target")
                                      or spec.get("destination") not in ("hand", "battlefield")):
        raise CardDataError(f"{where}: reveal_until needs a 'find' quality (not any card or "
                            "a name) and a 'destination' of 'hand' or 'battlefield'")
    if verb is Verb.REVEAL_TOP and ("find" in spec or "destination" in spec
                                    or "otherwise" in spec) and (
            spec.get("find", "") in ("", "named", "same_name_as_target")
            or spec.get("destination") != "hand"
            or spec.get("otherwise", "") not in ("", "library_bottom")):
        raise CardDataError(f"{where}: reveal_top puts a card of a 'find' quality into the "
                            "'destination' 'hand', 'otherwise' to the 'library_bottom' (or "
                            "leaves it)")
    if verb is Verb.SEARCH and spec.get("may_play") and spec.get("destination") != "exile":
        raise CardDataError(f"{where}: 'may_play' is for cards the search exiles")
    colors = tuple(str(c) for c in _list(f"{where}.colors", spec.get("colors", [])))
    if verb is Verb.ADD_MANA and colors:
        raise CardDataError(f"{where}: add_mana says its 'mana' (letters of WUBRGC, or "
                            "'chosen_color'), not 'colors'")
    take = tuple(_filter(f"{where}.take[{i}]", f)
                 for i, f in enumerate(_list(f"{where}.take", spec.get("take", []))))
    if verb is Verb.LOOK_AT_TOP and not take:
        raise CardDataError(f"{where}: look_at_top needs 'take': the cards that may be taken "
                            "(one of the descriptions)")
    if verb is Verb.CAST_CARD and (target is None or target.kind not in (
            TargetKind.CARD_IN_YOUR_GRAVEYARD, TargetKind.INSTANT_OR_SORCERY_CARD_IN_YOUR_GRAVEYARD,
            TargetKind.CREATURE_CARD_IN_YOUR_GRAVEYARD,
            TargetKind.PERMANENT_CARD_IN_YOUR_GRAVEYARD) or not spec.get("optional")):
        raise CardDataError(f"{where}: cast_card ('you may cast target ... card') needs a "
                            "target card in your graveyard and 'optional': true")
    if verb is Verb.TARGET and who is not Who.TARGET:
        raise CardDataError(f"{where}: 'target' needs the 'target' it chooses")
    if verb is Verb.LOOK_AND_PICK and (
            spec.get("destination") != "hand" or spec.get("rest") not in _LOOK_RESTS):
        raise CardDataError(f"{where}: look_and_pick needs 'destination': 'hand' and 'rest' "
                            f"(where the other cards go): one of {list(_LOOK_RESTS)}")
    pick = _int(f"{where}.pick", spec.get("pick", 1)) or 0
    if pick < 1 or (isinstance(amount_raw, int) and pick > amount_raw):
        raise CardDataError(f"{where}.pick: from 1 to the number of cards looked at")
    all_if = _condition(f"{where}.all_if", spec["all_if"]) if "all_if" in spec else None
    if verb is Verb.SEARCH and (not zones or "destination" not in spec):
        raise CardDataError(f"{where}: search needs 'zones' and a 'destination'")
    if verb is Verb.EXCHANGE_ZONES and not {"destination", "exchange_with"} <= set(spec):
        raise CardDataError(f"{where}: exchange_zones needs 'destination' and 'exchange_with'")
    if spec.get("find", "") not in CARD_QUALITIES:
        raise CardDataError(f"{where}.find: unknown quality {spec.get('find')!r}; expected "
                            f"one of {list(CARD_QUALITIES)}")
    names = _names(f"{where}.name", spec.get("name", []))
    if (spec.get("find") == "named") != bool(names):
        raise CardDataError(f"{where}: 'name' is given exactly when find is 'named'")
    if names and spec.get("amount", 1) != len(names):
        raise CardDataError(f"{where}.amount: one card of each name ({len(names)})")
    count = _enum(f"{where}.count", Count, spec["count"]) if "count" in spec else None
    _not_source_count(f"{where}.count", count)
    if count in PLAYER_COUNTS and verb not in _PLAYER_COUNT_VERBS:
        raise CardDataError(f"{where}.count: {spec['count']!r} counts the player the effect "
                            f"affects: only for {[v.value for v in _PLAYER_COUNT_VERBS]}")
    half = _enum(f"{where}.half", Rounding, spec["half"]) if "half" in spec else None
    if half is not None and "amount" not in _VERB_FIELDS[verb]:
        raise CardDataError(f"{where}.half: {verb.value} has no amount to halve")
    # The filter describes what is counted, the permanents a rules change applies to this
    # turn, or which attached permanents are meant.
    if who is Who.CHOSEN_ONE and (verb not in _CHOSEN_ONE_VERBS or count is not None):
        raise CardDataError(f"{where}: 'chosen_one' (a permanent chosen as it is performed) "
                            f"is for {[v.value for v in _CHOSEN_ONE_VERBS]}, without a 'count'")
    filtered = count in FILTERED_COUNTS or who in (
        Who.ATTACHED_TO_THAT, Who.CHOSEN, Who.CHOSEN_ONE, Who.EACH_PERMANENT) or (
        verb is Verb.RESTRICT_THIS_TURN and who is Who.YOU) or (
        verb is Verb.EXILE_LINKED and bool(zones)) or (
        verb is Verb.SEARCH and "filter" in spec)  # "a Shrine card"
    if filtered != ("filter" in spec):
        raise CardDataError(f"{where}: 'filter' is given exactly when count is one of "
                            f"{[c.value for c in FILTERED_COUNTS]}, who is "
                            "'attached_to_that', 'chosen', 'chosen_one' or 'each_permanent', "
                            "a restrict_this_turn names no target, or an exile_linked names "
                            "'zones' (the cards exiled from there)")
    if verb is Verb.EXILE_LINKED and zones and (zones != ("graveyard",) or who is not Who.YOU):
        raise CardDataError(f"{where}: exile_linked with 'zones' exiles the cards 'you' own "
                            "in your 'graveyard' that the filter describes")
    _compared_filter(where, count, _filter(f"{where}.filter", spec["filter"])
                     if filtered else None)
    restrictions = tuple(str(r) for r in _list(f"{where}.restrictions",
                                               spec.get("restrictions", [])))
    if verb is Verb.RESTRICT_THIS_TURN and (
            not restrictions or any(r not in THIS_TURN_RESTRICTIONS for r in restrictions)):
        raise CardDataError(f"{where}.restrictions: expected some of "
                            f"{list(THIS_TURN_RESTRICTIONS)}")
    if verb is Verb.RESTRICT_THIS_TURN and who not in (Who.YOU, Who.TARGET, Who.THAT,
                                                       Who.SELF, Who.EACH_CREATURE_YOU_CONTROL):
        raise CardDataError(f"{where}: restrict_this_turn applies to 'target', 'that', 'self', "
                            "'each_creature_you_control' or (with a 'filter') the permanents "
                            "it describes")
    if who is Who.EACH_OPPONENT_WHO_COULDNT and verb not in _COULDNT_VERBS:
        raise CardDataError(f"{where}: 'each_opponent_who_couldnt' names players: one of "
                            f"{[v.value for v in _COULDNT_VERBS]}")
    if who is Who.EACH_PERMANENT and verb not in _OBJECT_VERBS + _CHOSEN_ONE_VERBS:
        raise CardDataError(f"{where}: 'each_permanent' names permanents: a verb such as exile")
    if who is Who.ATTACHED_TO_THAT and verb not in _OBJECT_VERBS:
        raise CardDataError(f"{where}: 'attached_to_that' names permanents: a verb such as "
                            "destroy")
    _check_chosen(where, verb, who, spec, zones)
    by = _enum(f"{where}.by", Who, spec["by"]) if "by" in spec else None
    if by not in (None, Who.SELF, Who.THAT) or (verb is Verb.FIGHT and by is None):
        raise CardDataError(f"{where}.by: expected 'self' or 'that' (required for fight)")
    if verb is Verb.DEAL_DAMAGE and by is not None and spec.get("amount") != "power":
        raise CardDataError(f"{where}: a creature deals damage equal to its power: "
                            "'amount' is 'power' with 'by'")
    if verb is Verb.FIGHT and who is not Who.TARGET:
        raise CardDataError(f"{where}: fight needs the 'target' creature fought")
    if spec.get("chooser", "") not in ("", "you", "random"):
        raise CardDataError(f"{where}.chooser: expected 'you' or 'random'")
    return Effect(
        verb=verb,
        who=who,
        target=target,
        half=half,
        amount=0 if amount_raw in ("power", "event", "event_power")
        else _int(f"{where}.amount", amount_raw, allow_x=True),
        amount_is_power=amount_raw == "power",
        amount_is_event=amount_raw == "event",
        amount_is_event_power=amount_raw == "event_power",
        tapped_attacking=bool(spec.get("tapped_attacking", False)),
        delayed=_triggered(f"{where}.delayed", spec["delayed"]) if "delayed" in spec else None,
        this_turn=bool(spec.get("this_turn", False)),
        emblem=_emblem(f"{where}.emblem", spec["emblem"]) if "emblem" in spec else None,
        code=str(spec.get("code", "")),
        other=bool(spec.get("other", False)),
        new_targets=bool(spec.get("new_targets", False)),
        reflexive=_triggered(f"{where}.reflexive", spec["reflexive"])
        if "reflexive" in spec else None,
        counter=spec.get("counter", ""),
        power=_int(f"{where}.power", spec.get("power", 0), signed=True) or 0,
        toughness=_int(f"{where}.toughness", spec.get("toughness", 0), signed=True) or 0,
        gains=_keywords(f"{where}.gains", spec.get("gains", [])),
        loses=_keywords(f"{where}.loses", spec.get("loses", [])),
        double_power=spec.get("double_power", False),
        switch=bool(spec.get("switch", False)),
        set_base=spec.get("set_base", False),
        until_leaves=spec.get("until_leaves", False),
        add_types=add_types,
        add_subtypes=add_subtypes,
        token=_token(f"{where}.token", spec["token"]) if "token" in spec else None,
        quality=str(spec.get("quality", "")),
        condition=_condition(f"{where}.condition", spec["condition"])
        if "condition" in spec else None,
        optional=spec.get("optional", False),
        no_regeneration=bool(spec.get("no_regeneration", False)),
        zones=zones,
        find=str(spec.get("find", "")),
        destination=str(spec.get("destination", "")),
        exchange_with=str(spec.get("exchange_with", "")),
        tapped=spec.get("tapped", False),
        reveal=spec.get("reveal", False),
        shuffle=spec.get("shuffle", False),
        find_all=spec.get("find_all", False),
        chooser=str(spec.get("chooser", "")),
        count=count,
        filter=_filter(f"{where}.filter", spec["filter"]) if "filter" in spec else None,
        by=by,
        colors=tuple(str(c) for c in _list(f"{where}.colors", spec.get("colors", []))),
        card_type=_card_type(where, verb, spec),
        may_look=bool(spec.get("may_look", False)),
        sticker=_sticker(f"{where}.sticker", spec["sticker"]) if "sticker" in spec else None,
        whole_hand=spec.get("whole_hand", False),
        names=names,
        unless_pays=_cost(f"{where}.unless_pays", spec["unless_pays"])
        if "unless_pays" in spec else None,
        double=spec.get("double", False),
        restrictions=restrictions,
        prevent_to=_filter(f"{where}.prevent_to", spec["prevent_to"])
        if "prevent_to" in spec else None,
        cost=_cost(f"{where}.cost", spec["cost"]) if "cost" in spec else None,
        lasting=spec.get("lasting", False),
        otherwise=str(spec.get("otherwise", "")),
        may_play=spec.get("may_play", False),
        pick=pick,
        rest=str(spec.get("rest", "")),
        all_if=all_if,
        up_to=spec.get("up_to", False),
        rest_to=_rest_to(where, spec),
        other_than=_other_than(f"{where}.other_than", spec.get("other_than", "")),
        protection=_granted_protection(f"{where}.protection", spec.get("protection", "")),
        mana=_added_mana(where, verb, spec.get("mana")),
        gains_chosen=_flag(f"{where}.gains_chosen", spec.get("gains_chosen", False)),
        token_x=_token_x(f"{where}.token", spec.get("token"), count),
        hold=spec.get("hold", False),
        take=take,
        exile_instead=spec.get("exile_instead", False),
    )


#: The verbs that may act on objects chosen as the effect is performed (``who`` "chosen").
_CHOSEN_VERBS = (Verb.TAP, Verb.UNTAP, Verb.RETURN_TO_HAND, Verb.SACRIFICE_OR_DISCARD)
#: The zones such objects may be chosen from ("" -- the battlefield).
_CHOSEN_ZONES = ("battlefield", "graveyard", "hand")


def _check_chosen(where: str, verb: Verb, who: Who, spec: dict[str, Any],
                  zones: tuple[str, ...]) -> None:
    """``who`` "chosen" (rules 608.2c-d): a verb that acts on objects, how many may be chosen
    (``amount`` or a ``count``) and, for cards, the ``zones``; only it takes them there."""
    if verb is Verb.SACRIFICE_OR_DISCARD and who is not Who.CHOSEN:
        raise CardDataError(f"{where}: sacrifice_or_discard acts on who 'chosen'")
    if who is Who.CHOSEN and verb not in _CHOSEN_VERBS:
        raise CardDataError(f"{where}: 'chosen' objects are acted on by one of "
                            f"{[v.value for v in _CHOSEN_VERBS]}")
    if verb in _CHOSEN_VERBS and who is not Who.CHOSEN and ({"amount", "zones"} & set(spec)):
        raise CardDataError(f"{where}: 'amount' and 'zones' are for who 'chosen'")
    if any(z not in _CHOSEN_ZONES for z in zones) and verb in _CHOSEN_VERBS:
        raise CardDataError(f"{where}.zones: chosen objects are in {list(_CHOSEN_ZONES)}")


def _added_mana(where: str, verb: Verb, raw: Any) -> str:
    """ADD_MANA: mana letters such as "CC", or "chosen_color" (rules 106.3, 105.4)."""
    if verb is not Verb.ADD_MANA:
        return ""
    if raw == "chosen_color" or (isinstance(raw, str) and raw and all(
            ch in MANA_TYPES for ch in raw)):
        return str(raw)
    raise CardDataError(f"{where}.mana: add_mana needs mana letters such as 'CC' or "
                        "'chosen_color'")


def _granted_protection(where: str, raw: Any) -> str:
    """"gains protection from [quality]" (702.16a): a color letter, "multicolored", a
    capitalised card type or subtype, or "chosen_color" (105.4)."""
    if raw in ("", "chosen_color", "multicolored", *COLORS) or (
            isinstance(raw, str) and raw[:1].isupper() and len(raw) > 1):
        return str(raw)
    raise CardDataError(f"{where}: expected a color letter, 'multicolored', a type or "
                        "'chosen_color'")


def _other_than(where: str, raw: object) -> str:
    """CHOOSE_CARD_NAME: "other than a basic land card name" -- a stated card quality (201.4a)."""
    if raw == "":
        return ""
    if raw in ("named", "same_name_as_target", "chosen_name") or raw not in CARD_QUALITIES:
        raise CardDataError(f"{where}: expected a card quality such as 'basic_land', got "
                            f"{raw!r}")
    return str(raw)


def _rest_to(where: str, spec: dict[str, Any]) -> str:
    """SEARCH: "put one onto the battlefield and the other into your hand" -- a second
    destination for the cards beyond the first, so the search finds more than one."""
    rest = str(spec.get("rest_to", ""))
    if rest and (rest == spec.get("destination") or spec.get("amount", 1) in (0, 1)
                 or spec.get("find_all")):
        raise CardDataError(f"{where}.rest_to: another destination than 'destination', for "
                            "a search finding up to two or more cards")
    return rest


def _token_x(where: str, raw: Any, count: Count | None) -> bool:
    """"an X/X token, where X is [a count]" (rule 107.3a): power and toughness "X"."""
    if not isinstance(raw, dict) or "X" not in (raw.get("power"), raw.get("toughness")):
        return False
    if raw.get("power") != raw.get("toughness") or count is None:
        raise CardDataError(f"{where}: an X/X token needs power and toughness 'X' and the "
                            "effect's 'count' that X is")
    return True


def _names(where: str, raw: Any) -> tuple[str, ...]:
    """"a card named A" (a string) or "a card named A and/or a card named B" (a list of
    different names)."""
    names = [raw] if isinstance(raw, str) else _list(where, raw)
    if any(not isinstance(n, str) or not n for n in names) or len(set(names)) < len(names):
        raise CardDataError(f"{where}: expected a card name or a list of different names")
    return tuple(names)


#: The counts that count what a ``filter`` describes.
FILTERED_COUNTS = (Count.PERMANENTS, Count.TOTAL_POWER, Count.SPELLS_CAST_THIS_TURN,
                   Count.OPPONENT_HAS_MORE, Count.PERMANENTS_SHARING_A_NAME,
                   Count.CARDS_IN_YOUR_GRAVEYARD, Count.COLORS_AMONG_PERMANENTS)


def _compared_filter(where: str, count: Count | None, spec: ObjectFilter | None) -> None:
    """"An opponent controls more [filter] than you": each player's own permanents, so the
    filter's controller is "you" (rule 102.2)."""
    if count is Count.OPPONENT_HAS_MORE and spec is not None and \
            spec.controller is not Controller.YOU:
        raise CardDataError(f"{where}.filter: 'opponent_has_more' compares each player's "
                            "own permanents: the filter's controller is 'you'")


def _not_source_count(where: str, count: Count | None) -> None:
    """Counters on the source are counted only by a static ability, which names the kind."""
    if count is Count.COUNTERS_ON_SOURCE:
        raise CardDataError(f"{where}: 'counters_on_source' is for a static ability's "
                            "power/toughness (with 'counter')")
#: Rules changes a resolved spell or ability may make until end of turn (rule 611.2c).
THIS_TURN_RESTRICTIONS = ("cant_attack", "cant_block", "cant_be_blocked",
                          "attacks_each_combat", "assigns_as_unblocked")


def _cost_reduction(where: str, raw: Any) -> CostReduction:
    """``{"generic": 3, "condition": ...}`` or ``{"count": "total_power", "filter": {...}}``
    (rules 601.2f, 118.7a)."""
    spec = _fields(where, raw, {"generic", "count", "filter", "condition", "mana"})
    if sum(k in spec for k in ("generic", "count", "mana")) != 1:
        raise CardDataError(f"{where}: give either 'generic' (a fixed reduction), 'mana' "
                            "(an amount of mana with coloured symbols) or 'count'")
    count = _enum(f"{where}.count", Count, spec["count"]) if "count" in spec else None
    _not_source_count(f"{where}.count", count)
    mana = _cost(f"{where}.mana", spec["mana"]) if "mana" in spec else None
    if mana is not None and (mana.x_count or mana.hybrid or not any(mana.symbols)):
        raise CardDataError(f"{where}.mana: expected mana with coloured or colourless "
                            "symbols such as '{2}{U}' (a generic amount is 'generic')")
    if (count in FILTERED_COUNTS) != ("filter" in spec):
        raise CardDataError(f"{where}: 'filter' is given exactly when count is one of "
                            f"{[c.value for c in FILTERED_COUNTS]}")
    generic = _int(f"{where}.generic", spec.get("generic", 0)) or 0
    condition = _condition(f"{where}.condition", spec["condition"]) \
        if "condition" in spec else None
    if condition in _RESOLUTION_CONDITIONS:
        raise CardDataError(f"{where}.condition: {condition.value!r} is about a resolving "
                            "spell or ability, not a spell being cast")
    if count is None and mana is None and generic < 1:
        raise CardDataError(f"{where}.generic: must be at least 1")
    counted = _filter(f"{where}.filter", spec["filter"]) if "filter" in spec else None
    _compared_filter(where, count, counted)
    return CostReduction(generic=generic, count=count, mana=mana, filter=counted,
                         condition=condition)


def _condition(where: str, raw: Any) -> Condition | CountCondition:
    """An "if" clause: a :class:`Condition` name, or a count comparison ``{"count":
    "permanents", "filter": {...}, "at_least": 1}`` ("if you control a Basri planeswalker")
    with ``at_least`` and/or ``at_most``."""
    if isinstance(raw, str):
        return _enum(where, Condition, raw)
    spec = _fields(where, raw, {"count", "filter", "at_least", "at_most", "counter"})
    count = _enum(f"{where}.count", Count, spec.get("count"))
    counter = _counter_kind(f"{where}.counter", spec.get("counter", ""))
    if count is Count.COUNTERS_ON_SOURCE and counter:
        pass  # "N or more page counters on [this]": the kind is named
    else:
        _not_source_count(f"{where}.count", count)
        if counter:
            raise CardDataError(f"{where}.counter: only for the count 'counters_on_source'")
    if (count in FILTERED_COUNTS) != ("filter" in spec):
        raise CardDataError(f"{where}: 'filter' is given exactly when count is one of "
                            f"{[c.value for c in FILTERED_COUNTS]}")
    if "at_least" not in spec and "at_most" not in spec:
        raise CardDataError(f"{where}: a count condition needs 'at_least' and/or 'at_most'")
    low = _int(f"{where}.at_least", spec["at_least"]) if "at_least" in spec else None
    high = _int(f"{where}.at_most", spec["at_most"]) if "at_most" in spec else None
    if low is not None and high is not None and low > high:
        raise CardDataError(f"{where}: 'at_least' is more than 'at_most'")
    counted = _filter(f"{where}.filter", spec["filter"]) if "filter" in spec else None
    _compared_filter(where, count, counted)
    return CountCondition(count=count, filter=counted, at_least=low, at_most=high,
                          counter=counter)


def _filter(where: str, raw: Any) -> ObjectFilter:
    """``{"types": [...], "subtypes": [...], "has": keyword, "controller": "you" |
    "opponent" | "any", "other": bool, "min_power": N}`` -- every field optional (rule 205
    types)."""
    spec = _fields(where, raw, {"types", "subtypes", "has", "controller", "other",
                                "min_power", "lacks", "attacking", "with_counter",
                                "not_subtypes", "nontoken", "max_power", "not_types",
                                "supertypes", "untapped", "colored", "max_mana_value",
                                "cast_from"})
    card_types = tuple(str(t) for t in _list(f"{where}.types", spec.get("types", [])))
    not_types = tuple(str(t) for t in _list(f"{where}.not_types", spec.get("not_types", [])))
    for t in (*card_types, *not_types):
        if t not in CARD_TYPES:
            raise CardDataError(f"{where}.types: unknown card type {t!r}")
    has = str(spec.get("has", ""))
    lacks = str(spec.get("lacks", ""))
    for name, keyword in (("has", has), ("lacks", lacks)):
        if keyword and keyword not in SUPPORTED_KEYWORDS:
            raise CardDataError(f"{where}.{name}: keyword {keyword!r} is not supported")
    for flag in ("other", "attacking", "nontoken", "untapped", "colored"):
        if not isinstance(spec.get(flag, False), bool):
            raise CardDataError(f"{where}.{flag}: expected true or false")
    subtypes = tuple(str(t) for t in _list(f"{where}.subtypes", spec.get("subtypes", [])))
    not_subtypes = tuple(str(t) for t in _list(f"{where}.not_subtypes",
                                               spec.get("not_subtypes", [])))
    if any(not t or not t[0].isupper() for t in (*subtypes, *not_subtypes)):
        raise CardDataError(f"{where}.subtypes: expected capitalised subtypes such as 'Shrine'")
    supertypes = tuple(str(t) for t in _list(f"{where}.supertypes", spec.get("supertypes", [])))
    if any(t not in SUPERTYPES for t in supertypes):
        raise CardDataError(f"{where}.supertypes: expected some of {list(SUPERTYPES)}")
    return ObjectFilter(
        card_types=card_types, subtypes=subtypes, has=has,
        controller=_enum(f"{where}.controller", Controller, spec.get("controller", "you")),
        other=spec.get("other", False),
        min_power=_int(f"{where}.min_power", spec["min_power"]) if "min_power" in spec
        else None,
        max_power=_int(f"{where}.max_power", spec["max_power"]) if "max_power" in spec
        else None, lacks=lacks, attacking=spec.get("attacking", False),
        with_counter=_target_counter(f"{where}.with_counter", spec.get("with_counter", "")),
        not_subtypes=not_subtypes, nontoken=spec.get("nontoken", False), not_types=not_types,
        supertypes=supertypes, untapped=spec.get("untapped", False),
        colored=spec.get("colored", False),
        max_mana_value=_int(f"{where}.max_mana_value", spec["max_mana_value"], allow_x=True)
        if "max_mana_value" in spec else None,
        max_mana_value_x=spec.get("max_mana_value") == "X",
        cast_from=_cast_from(f"{where}.cast_from", spec.get("cast_from", "")))


def _cast_from(where: str, raw: Any) -> str:
    """The zone a spell was cast from (601.2a), or "not_hand"."""
    if raw not in ("", "hand", "graveyard", "library", "exile", "not_hand"):
        raise CardDataError(f"{where}: expected 'hand', 'graveyard', 'library', 'exile' or "
                            "'not_hand'")
    return str(raw)


#: The trigger events whose ``filter`` describes the object the event is about (required).
_FILTERED_EVENTS = (TriggerEvent.SPELL_CAST, TriggerEvent.PERMANENT_ENTERS,
                    TriggerEvent.COMBAT_DAMAGE_TO_PLAYER_BY,
                    TriggerEvent.SOURCE_DEALS_DAMAGE, TriggerEvent.YOU_ATTACK_WITH,
                    TriggerEvent.CREATURE_ATTACKS, TriggerEvent.CHANGES_ZONE,
                    TriggerEvent.BECOMES_TARGET, TriggerEvent.COUNTERS_PUT,
                    TriggerEvent.LOYALTY_ACTIVATED)
#: The trigger events a ``filter`` may qualify (not required): "whenever [this] and at least N
#: other [filter] creatures attack".
_OPTIONALLY_FILTERED_EVENTS = (TriggerEvent.ATTACKS, TriggerEvent.YOU_SACRIFICE)
#: The trigger events that take a ``count``, and what it means there.
_COUNTED_EVENTS = (TriggerEvent.YOU_EXPEND, TriggerEvent.YOU_DRAW, TriggerEvent.SPELL_CAST,
                   TriggerEvent.YOU_ATTACK_WITH, TriggerEvent.ATTACKS)
#: The zones a CHANGES_ZONE trigger names ("" -- any) and the zones a triggered ability may
#: trigger from besides the battlefield (rule 113.6k).
TRIGGER_ZONES = ("", "battlefield", "graveyard", "hand", "library", "exile", "stack")
_TRIGGER_FROM = ("", "graveyard")


#: The card types (rule 205.2a) a filter may name.
CARD_TYPES = ("Artifact", "Battle", "Creature", "Enchantment", "Instant", "Kindred", "Land",
              "Planeswalker", "Sorcery")
#: The supertypes (rule 205.4a) a filter may name.
SUPERTYPES = ("Basic", "Legendary", "Ongoing", "Snow", "World")


def _sticker(where: str, raw: Any) -> StickerDef:
    """A sticker (rule 123.1): ``{"kind": "power_toughness", "power": 4, "toughness": 4}``,
    ``{"kind": "ability", "keywords": ["Flying"]}`` or ``{"kind": "art", "text": ...}``."""
    spec = _fields(where, raw, {"kind", "power", "toughness", "keywords", "text"})
    kind = _enum(f"{where}.kind", StickerKind, spec.get("kind"))
    allowed = {StickerKind.POWER_TOUGHNESS: {"kind", "power", "toughness"},
               StickerKind.ABILITY: {"kind", "keywords"}, StickerKind.ART: {"kind", "text"}}
    _fields(where, spec, allowed[kind])
    if kind is StickerKind.POWER_TOUGHNESS:
        power = _int(f"{where}.power", spec.get("power")) or 0
        toughness = _int(f"{where}.toughness", spec.get("toughness")) or 0
        return StickerDef(kind, f"{power}/{toughness}", power=power, toughness=toughness)
    if kind is StickerKind.ABILITY:
        keywords = _keywords(f"{where}.keywords", spec.get("keywords", []))
        if not keywords:
            raise CardDataError(f"{where}.keywords: an ability sticker has an ability")
        return StickerDef(kind, ", ".join(keywords), keywords=keywords)
    text = spec.get("text")
    if not isinstance(text, str) or not text:
        raise CardDataError(f"{where}.text: an art sticker shows a picture, e.g. 'Goblin'")
    return StickerDef(kind, text)


def _card_type(where: str, verb: Verb, spec: dict[str, Any]) -> str:
    """WISH: the card type brought in from outside the game (rule 400.11b);
    PERMIT_CAST_LINKED: the type of spell that may be cast."""
    value = str(spec.get("card_type", ""))
    if verb in (Verb.WISH, Verb.PERMIT_CAST_LINKED) and value not in (
            "Artifact", "Creature", "Enchantment", "Instant", "Land", "Planeswalker", "Sorcery"):
        raise CardDataError(f"{where}.card_type: expected a card type such as 'Sorcery'")
    return value


def _emblem(where: str, raw: Any) -> CardDef:
    """An emblem (rule 114): no characteristics but its abilities, in the command zone."""
    spec = _fields(where, raw, {"name", "text", "triggers"})
    return CardDef(
        name=str(spec.get("name", "Emblem")), mana_cost=ManaCost(), has_mana_cost=False,
        supertypes=(), card_types=("Emblem",), subtypes=(), colors=(),
        rules_text=str(spec.get("text", "")), power=None, toughness=None,
        triggers=tuple(_triggered(f"{where}.triggers[{i}]", t)
                       for i, t in enumerate(_list(f"{where}.triggers",
                                                   spec.get("triggers", [])))),
    )


def _effects(where: str, raw: Any) -> tuple[Effect, ...]:
    if not isinstance(raw, list) or not raw:
        raise CardDataError(f"{where}: expected a non-empty list of effects")
    effects = tuple(_effect(f"{where}[{i}]", e) for i, e in enumerate(raw))
    for i, effect in enumerate(effects):
        if effect.verb is Verb.TARGET and (i + 1 == len(effects) or Who.THAT not in (
                effects[i + 1].who, effects[i + 1].by)):
            raise CardDataError(f"{where}[{i}]: 'target' is the subject of the next effect, "
                                "which names it with 'by' or 'who' 'that'")
        if effect.who is Who.EACH_OPPONENT_WHO_COULDNT and not any(
                e.verb is Verb.DISCARD for e in effects[:i]):
            raise CardDataError(f"{where}[{i}]: 'each_opponent_who_couldnt' follows a discard")
        if effect.find == "chosen_name" and not any(
                e.verb is Verb.CHOOSE_CARD_NAME for e in effects[:i]):
            raise CardDataError(f"{where}[{i}]: find 'chosen_name' follows a choose_card_name")
        if effect.count is Count.FOUND_FROM_HAND and not any(
                e.verb is Verb.SEARCH and "hand" in e.zones for e in effects[:i]):
            raise CardDataError(f"{where}[{i}]: count 'found_from_hand' follows a search of "
                                "a hand")
    return effects


def _cost(where: str, text: Any) -> ManaCost:
    if not isinstance(text, str):
        raise CardDataError(f"{where}: expected a mana cost string")
    try:
        return ManaCost.parse(text)
    except ManaCostError as exc:
        raise CardDataError(f"{where}: {exc}") from None


def _activated(where: str, raw: Any) -> ActivatedAbility:
    spec = _fields(where, raw, {"text", "cost", "tap", "sacrifice_self", "sorcery_speed",
                                "effects", "loyalty", "condition", "additional_cost", "life",
                                "discard_hand", "cost_reduction", "self_counter",
                                "discard_self", "any_time"})
    flags = {}
    if spec.get("any_time") and spec.get("loyalty") is None:
        raise CardDataError(f"{where}.any_time: only a loyalty ability (606.3)")
    for flag in ("tap", "sacrifice_self", "sorcery_speed", "discard_hand", "discard_self",
                 "any_time"):
        value = spec.get(flag, False)
        if not isinstance(value, bool):
            raise CardDataError(f"{where}.{flag}: expected true or false")
        flags[flag] = value
    if flags["discard_self"] and (flags["tap"] or flags["sacrifice_self"] or flags[
            "discard_hand"] or "loyalty" in spec or "self_counter" in spec):
        raise CardDataError(f"{where}.discard_self: an ability of a card in your hand (113.6m) "
                            "can't also tap, sacrifice or put counters on it, or discard the hand")
    return ActivatedAbility(
        text=str(spec.get("text", "")),
        cost=_cost(f"{where}.cost", spec.get("cost", "")),
        effects=_effects(f"{where}.effects", spec.get("effects")),
        loyalty=None if spec.get("loyalty") is None
        else 0 if spec["loyalty"] == "-X"
        else _int(f"{where}.loyalty", spec["loyalty"], signed=True),
        loyalty_x=spec.get("loyalty") == "-X",
        condition=_activation_condition(f"{where}.condition", spec),
        additional_cost=_additional_cost(f"{where}.additional_cost", spec["additional_cost"])
        if "additional_cost" in spec else None,
        life=_int(f"{where}.life", spec.get("life", 0)) or 0,
        self_counter=_counter_kind(f"{where}.self_counter", spec.get("self_counter", "")),
        cost_reduction=_ability_cost_reduction(f"{where}.cost_reduction", spec)
        if "cost_reduction" in spec else None,
        **flags,
    )


def _activation_condition(where: str, spec: dict[str, Any]) -> Condition | CountCondition | None:
    """"Activate only if ..." (rule 602.5b): about the game as the ability is activated, never
    about a resolving spell or ability."""
    if "condition" not in spec:
        return None
    condition = _condition(where, spec["condition"])
    if condition in _RESOLUTION_CONDITIONS:
        raise CardDataError(f"{where}: {condition.value!r} is about a resolving spell or "
                            "ability, not one being activated")
    return condition


def _ability_cost_reduction(where: str, spec: dict[str, Any]) -> CostReduction:
    """"This ability costs {1} less to activate for each Shrine you control" (rules 602.2b,
    601.2f, 118.7a): a generic reduction only, of an ability that has generic mana to lose."""
    reduction = _cost_reduction(where, spec["cost_reduction"])
    if reduction.mana is not None:
        raise CardDataError(f"{where}.mana: an activated ability's reduction is 'generic' or "
                            "a 'count'")
    if not _cost(f"{where}: cost", spec.get("cost", "")).generic:
        raise CardDataError(f"{where}: the ability's cost has no generic mana to reduce")
    return reduction


def _additional_cost(where: str, raw: Any) -> AdditionalCost:
    """``"discard_card"``, ``"sacrifice_creature"``, ``{"kind": "sacrifice_creature",
    "has": "Defender", "other": true}`` or ``{"kind": "tap_permanents", "count": 2,
    "filter": {"subtypes": ["Spirit"]}}`` (rules 601.2f, 602.2b)."""
    spec = _fields(where, {"kind": raw} if isinstance(raw, str) else raw,
                   {"kind", "has", "other", "cards", "count", "filter"})
    kind = _enum(f"{where}.kind", CostKind, spec.get("kind"))
    cards = tuple(_filter(f"{where}.cards[{i}]", f)
                  for i, f in enumerate(_list(f"{where}.cards", spec.get("cards", []))))
    if cards and kind is not CostKind.DISCARD_CARD:
        raise CardDataError(f"{where}: 'cards' describes a discarded card only")
    has = str(spec.get("has", ""))
    other = spec.get("other", False)
    if not isinstance(other, bool):
        raise CardDataError(f"{where}.other: expected true or false")
    if (has or other) and kind is not CostKind.SACRIFICE_CREATURE:
        raise CardDataError(f"{where}: 'has' and 'other' qualify a sacrificed creature only")
    if has and has not in SUPPORTED_KEYWORDS:
        raise CardDataError(f"{where}.has: keyword {has!r} is not supported")
    given = ("count" in spec) + ("filter" in spec)
    if given != (2 if kind is CostKind.TAP_PERMANENTS else 0):
        raise CardDataError(f"{where}: 'tap_permanents' needs 'count' and 'filter' (the "
                            "permanents tapped); other costs take neither")
    count = _int(f"{where}.count", spec.get("count", 1)) or 0
    if count < 1:
        raise CardDataError(f"{where}.count: at least 1")
    spec_filter = _filter(f"{where}.filter", spec["filter"]) if "filter" in spec else None
    if spec_filter is not None and spec_filter.controller is not Controller.YOU:
        raise CardDataError(f"{where}.filter: a cost taps permanents you control")
    return AdditionalCost(kind, has=has, other=other, cards=cards, count=count,
                          filter=spec_filter)


def _triggered(where: str, raw: Any) -> TriggeredAbility:
    spec = _fields(where, raw, {"text", "when", "effects", "modes", "condition", "colors",
                                "quality", "count", "once_each_turn", "filter", "damage",
                                "recipient", "from", "to", "zone"})
    modes = tuple(_effects(f"{where}.modes[{i}]", m)
                  for i, m in enumerate(_list(f"{where}.modes", spec.get("modes", []))))
    event = _enum(f"{where}.when", TriggerEvent, spec.get("when"))
    if event is TriggerEvent.STATE and "condition" not in spec:
        raise CardDataError(f"{where}: a state trigger (603.8) needs the 'condition' it "
                            "triggers on")
    if event not in _OPTIONALLY_FILTERED_EVENTS and (
            (event in _FILTERED_EVENTS) != ("filter" in spec)):
        raise CardDataError(f"{where}: 'filter' (the spell cast), the permanent entering, the "
                            "damage source, the attackers, the object changing zones or the "
                            "spell or ability targeting, is given exactly when 'when' is one of "
                            + ", ".join(e.value for e in _FILTERED_EVENTS))
    count = _int(f"{where}.count", spec.get("count", 0)) or 0
    if count and event not in _COUNTED_EVENTS:
        raise CardDataError(f"{where}: 'count' is only for "
                            + ", ".join(e.value for e in _COUNTED_EVENTS))
    if event is TriggerEvent.YOU_ATTACK_WITH and count < 1:
        raise CardDataError(f"{where}: 'you_attack_with' needs a 'count' (N or more)")
    if event is TriggerEvent.ATTACKS and ("filter" in spec) != (count > 0):
        raise CardDataError(f"{where}: 'attacks' with other attackers needs both 'filter' "
                            "(the other creatures) and 'count' (at least N of them)")
    zones = {}
    for key in ("from", "to", "zone"):
        value = spec.get(key, "")
        allowed = _TRIGGER_FROM if key == "zone" else TRIGGER_ZONES
        if value not in allowed:
            raise CardDataError(f"{where}.{key}: unknown zone {value!r}; expected one of "
                                f"{list(allowed)}")
        zones[key] = str(value)
    if event is not TriggerEvent.CHANGES_ZONE and (zones["from"] or zones["to"]):
        raise CardDataError(f"{where}: 'from' and 'to' are only for 'changes_zone'")
    if event is TriggerEvent.CHANGES_ZONE and not (zones["from"] or zones["to"]):
        raise CardDataError(f"{where}: 'changes_zone' needs 'from' and/or 'to'")
    if event is TriggerEvent.COUNTERS_PUT:
        _target_counter(f"{where}.quality", spec.get("quality", ""))
        if not spec.get("quality"):
            raise CardDataError(f"{where}: 'counters_put' needs 'quality': the counter kind")
    if event is not TriggerEvent.SOURCE_DEALS_DAMAGE and ("damage" in spec
                                                          or "recipient" in spec):
        raise CardDataError(f"{where}: 'damage' and 'recipient' are only for "
                            "'source_deals_damage'")
    return TriggeredAbility(
        damage=_enum(f"{where}.damage", DamageKind, spec.get("damage", "any")),
        recipient=_enum(f"{where}.recipient", Recipient, spec.get("recipient", "any")),
        text=str(spec.get("text", "")),
        event=event,
        filter=_filter(f"{where}.filter", spec["filter"]) if "filter" in spec else None,
        effects=() if modes else _effects(f"{where}.effects", spec.get("effects")),
        condition=_condition(f"{where}.condition", spec["condition"])
        if "condition" in spec else None,
        colors=tuple(str(c) for c in _list(f"{where}.colors", spec.get("colors", []))),
        quality=str(spec.get("quality", "")),
        modes=modes,
        count=count,
        once_each_turn=bool(spec.get("once_each_turn", False)),
        from_zone=zones["from"],
        to_zone=zones["to"],
        zone=zones["zone"],
    )


def _static(where: str, raw: Any) -> StaticAbility:
    spec = _fields(where, raw, {"text", "affects", "control", "subtypes", "keywords", "power",
                                "toughness", "subtype", "with_counter", "restrictions",
                                "min_counters", "condition", "count", "counter", "triggers",
                                "protection", "cast_from_top", "abilities_of_top"})
    count = _enum(f"{where}.count", Count, spec["count"]) if "count" in spec else None
    if (count is Count.COUNTERS_ON_SOURCE) != ("counter" in spec):
        raise CardDataError(f"{where}: 'counter' (the kind) is given exactly when count is "
                            "'counters_on_source'")
    if count in FILTERED_COUNTS:
        raise CardDataError(f"{where}.count: {count.value!r} needs a filter; not supported "
                            "in a static ability")
    if count is not None and not (spec.get("power") or spec.get("toughness")):
        raise CardDataError(f"{where}: 'count' multiplies 'power'/'toughness'")
    condition = _condition(f"{where}.condition", spec["condition"]) \
        if "condition" in spec else None
    if condition in _RESOLUTION_CONDITIONS:
        raise CardDataError(f"{where}.condition: {condition.value!r} is about a resolving "
                            "spell or ability; a static ability's condition is about the game")
    restrictions = tuple(str(r) for r in _list(f"{where}.restrictions",
                                               spec.get("restrictions", [])))
    for r in restrictions:
        if r not in _RESTRICTIONS:
            raise CardDataError(f"{where}.restrictions: unknown {r!r}; expected {_RESTRICTIONS}")
    return StaticAbility(
        text=str(spec.get("text", "")),
        affects=_enum(f"{where}.affects", Affects, spec.get("affects")),
        control=bool(spec.get("control", False)),
        subtypes=tuple(str(t) for t in _list(f"{where}.subtypes", spec.get("subtypes", []))),
        keywords=_keywords(f"{where}.keywords", spec.get("keywords", [])),
        power=_int(f"{where}.power", spec.get("power", 0), signed=True) or 0,
        toughness=_int(f"{where}.toughness", spec.get("toughness", 0), signed=True) or 0,
        subtype=str(spec.get("subtype", "")),
        with_counter=str(spec.get("with_counter", "")),
        min_counters=_int(f"{where}.min_counters", spec.get("min_counters", 1)) or 1,
        restrictions=restrictions,
        condition=condition,
        count=count,
        counter=_counter_kind(f"{where}.counter", spec.get("counter", "")),
        triggers=_granted_triggers(f"{where}.triggers", spec.get("triggers", [])),
        protection=_protection(f"{where}.protection", spec.get("protection", [])),
        cast_from_top=_top_card_filter(f"{where}.cast_from_top", spec["cast_from_top"])
        if "cast_from_top" in spec else None,
        abilities_of_top=_top_card_filter(f"{where}.abilities_of_top",
                                          spec["abilities_of_top"])
        if "abilities_of_top" in spec else None,
    )


def _top_card_filter(where: str, raw: Any) -> ObjectFilter:
    """What the top card of the controller's library must be ("Goblin spells", "a Goblin
    card"): a filter of a card's own characteristics -- nothing about a permanent, a spell
    on the stack or another player's card."""
    spec = _filter(where, raw)
    if spec.controller is not Controller.YOU or spec.other or spec.attacking or \
            spec.untapped or spec.with_counter or spec.cast_from or spec.nontoken or \
            spec.max_mana_value_x:
        raise CardDataError(f"{where}: describes a card in your library: only its types, "
                            "subtypes, supertypes, colour, keywords, power or mana value")
    if spec == ObjectFilter():
        raise CardDataError(f"{where}: an empty filter; use the restriction 'play_from_top' "
                            "for any card")
    return spec


def _protection(where: str, raw: Any) -> tuple[str, ...]:
    """Protection from qualities (702.16a): colour letters, "multicolored", card types or
    capitalised subtypes."""
    qualities = tuple(_list(where, raw))
    for q in qualities:
        if not isinstance(q, str) or not (q in COLORS or q == "multicolored" or q[:1].isupper()):
            raise CardDataError(f"{where}: expected colour letters, 'multicolored', card types "
                                f"or subtypes such as 'Dog', got {q!r}")
    return qualities


def _granted_triggers(where: str, raw: Any) -> tuple[TriggeredAbility, ...]:
    """Triggered abilities a static ability grants (613.1f): they work from the battlefield
    only, on the permanent that has them."""
    granted = tuple(_triggered(f"{where}[{i}]", t) for i, t in enumerate(_list(where, raw)))
    for ability in granted:
        if ability.zone or ability.event is TriggerEvent.STATE:
            raise CardDataError(f"{where}: a granted triggered ability works from the "
                                "battlefield and isn't a state trigger")
    return granted


#: Conditions only a resolving spell or ability can ask (608.2c-d): never "as long as".
_RESOLUTION_CONDITIONS = (Condition.WON_CLASH, Condition.YOU_DID,
                          Condition.NOT_CAST_FROM_HAND, Condition.REVEALED_CREATURE_OR_LAND,
                          Condition.TARGET_WAS_CREATURE_CARD, Condition.WON_FLIP)


#: "must_be_blocked": "[This] must be blocked if able" (a requirement, rule 509.1c).
#: "blocks_only_flying": "[This] can block only creatures with flying" (509.1b).
#: "top_revealed": "Play with the top card of your library revealed" (rules 401.5, 401.6) and
#: "play_from_top": "You may play the top card of your library", "cast_from_graveyard" (Kess,
#: Dissident Mage), "play_land_from_graveyard", "cast_creature_from_graveyard",
#: "cast_instants_from_face_down_exile", "look_at_top" ("You may look at the top card of your
#: library any time", 401.5), "play_lands_from_top" ("you may play lands from the top of your
#: library") -- rules changes for the controller of the affected
#: permanent (server.engine.zone_rules).
_RESTRICTIONS = ("cant_attack", "cant_block", "doesnt_untap", "attacks_each_combat",
                 "must_be_blocked",
                 "cant_be_blocked", "attacks_despite_defender",
                 "cant_activate", "top_revealed", "play_from_top", "cast_from_graveyard",
                 "play_land_from_graveyard", "cast_creature_from_graveyard",
                 "cast_instants_from_face_down_exile", "assigns_as_unblocked", "look_at_top",
                 "play_lands_from_top", "blocks_only_flying")


def _spell_cost(where: str, raw: Any) -> SpellCostChange:
    """``{"generic": -1, "filter": {"types": ["Creature"], "has": "Flying"}}``: spells the
    filter describes cost that much more or less (rule 601.2f)."""
    spec = _fields(where, raw, {"generic", "filter", "text"})
    generic = _int(f"{where}.generic", spec.get("generic"), signed=True) or 0
    if not generic or "filter" not in spec:
        raise CardDataError(f"{where}: needs a non-zero 'generic' and a 'filter' (the spells)")
    spell = _filter(f"{where}.filter", spec["filter"])
    if spell.other or spell.attacking or spell.with_counter:
        raise CardDataError(f"{where}.filter: describes a spell, not a permanent")
    return SpellCostChange(generic=generic, filter=spell)


def _replacement(where: str, raw: Any) -> Replacement:
    """``{"kind": "damage_multiplied", "filter": {...}, "factor": 3}`` or ``{"kind":
    "extra_counters", "filter": {...}, "counter": "+1/+1", "extra": 1}`` or ``{"kind":
    "exiled_unless_cast", "filter": {...}}`` (rule 614.1)."""
    spec = _fields(where, raw, {"text", "kind", "filter", "factor", "counter", "extra"})
    kind = _enum(f"{where}.kind", ReplacementKind, spec.get("kind"))
    # Draws and damage to the controller are the controller's own: no filter describes them.
    own = kind in (ReplacementKind.EXTRA_DRAWS, ReplacementKind.PREVENT_DAMAGE_TO_YOU)
    if ("filter" in spec) == own:
        raise CardDataError(f"{where}: needs a 'filter' (what the events are about), except "
                            "'extra_draws' and 'prevent_damage_to_you' (the controller's "
                            "own draws / damage), each of which takes none")
    allowed = {ReplacementKind.DAMAGE_MULTIPLIED: {"factor"},
               ReplacementKind.EXTRA_COUNTERS: {"counter", "extra"},
               ReplacementKind.EXILED_UNLESS_CAST: set(),
               ReplacementKind.EXTRA_DRAWS: {"extra"},
               ReplacementKind.PREVENT_DAMAGE_TO_YOU: {"counter"}}[kind]
    given = {k for k in ("factor", "counter", "extra") if k in spec}
    if given != allowed:
        raise CardDataError(f"{where}: {kind.value!r} takes {sorted(allowed)}")
    factor = _int(f"{where}.factor", spec.get("factor", 1)) or 0
    extra = _int(f"{where}.extra", spec.get("extra", 0)) or 0
    if factor < 2 and kind is ReplacementKind.DAMAGE_MULTIPLIED:
        raise CardDataError(f"{where}.factor: at least 2")
    if extra < 1 and kind in (ReplacementKind.EXTRA_COUNTERS, ReplacementKind.EXTRA_DRAWS):
        raise CardDataError(f"{where}.extra: at least 1")
    if kind is ReplacementKind.PREVENT_DAMAGE_TO_YOU and not spec.get("counter"):
        raise CardDataError(f"{where}.counter: the kind of counter put on it")
    return Replacement(text=str(spec.get("text", "")), kind=kind,
                       filter=_filter(f"{where}.filter", spec["filter"])
                       if "filter" in spec else ObjectFilter(), factor=factor,
                       counter=_counter_kind(f"{where}.counter", spec.get("counter", ""))
                       if kind is ReplacementKind.PREVENT_DAMAGE_TO_YOU
                       else _target_counter(f"{where}.counter", spec.get("counter", "")),
                       extra=extra)


def _plane_rules(where: str, raw: Any, card_types: tuple[str, ...]) -> tuple[str, ...]:
    """Rules a plane changes while face up (rule 901.7); only planes may have them."""
    rules = tuple(str(r) for r in _list(f"{where}: plane_rules", raw))
    for rule in rules:
        if rule not in ("skip_untap_steps", "all_permanents_untap"):
            raise CardDataError(f"{where}: plane_rules: unknown {rule!r}")
    if rules and "Plane" not in card_types:
        raise CardDataError(f"{where}: only a plane may have plane_rules")
    return rules


def _choose(where: str, raw: Any, count: int) -> dict[str, Any]:
    """How a modal spell's modes are chosen (rule 700.2): ``min``/``max`` modes, ``repeat``
    (700.2d), ``pawprints`` per mode and their ``limit`` (700.2i), ``costs`` per mode
    (700.2h), ``chooser`` "opponent" (700.2e)."""
    spec = _fields(where, raw, {"min", "max", "repeat", "pawprints", "limit", "costs",
                                "chooser"})
    if spec and not count:
        raise CardDataError(f"{where}: only a modal card (with 'modes') may say how to choose")
    pawprints = tuple(_int(f"{where}.pawprints", p) or 0
                      for p in _list(f"{where}.pawprints", spec.get("pawprints", [])))
    costs = tuple(_cost(f"{where}.costs", c) for c in _list(f"{where}.costs",
                                                            spec.get("costs", [])))
    for name, values in (("pawprints", pawprints), ("costs", costs)):
        if values and len(values) != count:
            raise CardDataError(f"{where}.{name}: one per mode ({count})")
    limit = _int(f"{where}.limit", spec.get("limit", 0)) or 0
    if pawprints and limit < 1:
        raise CardDataError(f"{where}: pawprint modes need a 'limit'")
    low = _int(f"{where}.min", spec.get("min", 1)) or 0
    high = _int(f"{where}.max", spec.get("max", limit or 1)) or 0
    if not 0 < low <= high:
        raise CardDataError(f"{where}: expected 1 <= min <= max")
    if spec.get("chooser", "") not in ("", "opponent") or \
            not isinstance(spec.get("repeat", False), bool):
        raise CardDataError(f"{where}: chooser is 'opponent'; repeat is true or false")
    return {"mode_min": low, "mode_max": high, "mode_repeat": spec.get("repeat", False),
            "pawprints": pawprints, "pawprint_limit": limit, "mode_costs": costs,
            "mode_chooser": spec.get("chooser", "")}


def _list(where: str, raw: Any) -> list[Any]:
    if not isinstance(raw, list):
        raise CardDataError(f"{where}: expected a list")
    return raw


_BEHAVIOUR_FIELDS = {"effects", "modes", "choose", "plane_rules", "abilities", "triggers", "mana",
                     "enters_tapped",
                     "extra_lands", "enchant", "statics", "protection", "noncreature_tax",
                     "additional_cost", "enchant_tapped", "enchant_you_control",
                     "regenerates",
                     "enters_with_counters", "power_cda", "creatures_die_to_hand",
                     "madness", "hexproof_from", "cost_reduction", "spell_costs",
                     "replacements", "mana_for_each", "spend_as_any_color", "enters_naming",
                     "player_protection", "targeted_cost", "graveyard_cast", "mana_cost",
                     "mana_only_for", "extra_triggers"}


POWER_CDAS = ("instants_and_sorceries_in_your_graveyard",)


def _extra_triggers(where: str, raw: Any) -> ExtraTriggers:
    """"If a triggered ability of [filter] triggers, it triggers an additional time [if
    condition]" (603.2d): a ``filter`` of permanents, an optional ``condition``."""
    if not isinstance(raw, dict) or "filter" not in raw or set(raw) - {"filter", "condition"}:
        raise CardDataError(f"{where}: expected {{'filter', 'condition'}} (the filter required)")
    return ExtraTriggers(_filter(f"{where}.filter", raw["filter"]),
                         _condition(f"{where}.condition", raw["condition"])
                         if "condition" in raw else None)


def _player_protection(where: str, spec: dict[str, Any]) -> str:
    """"You have protection from the chosen card name" (702.16a): only a name chosen as it
    entered, so the card must choose one."""
    raw = spec.get("player_protection", "")
    if raw not in ("", "chosen_name") or (raw and not spec.get("enters_naming")):
        raise CardDataError(f"{where}: player_protection: 'chosen_name', with enters_naming")
    return str(raw)


def _flag(where: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise CardDataError(f"{where}: expected true or false")
    return value


def _power_cda(where: str, value: Any) -> str:
    if value and value not in POWER_CDAS:
        raise CardDataError(f"{where}: power_cda: unknown {value!r}; expected {POWER_CDAS}")
    return str(value or "")


def _opt_int(name: str, field: str, value: Any) -> int | None:
    if value is None or value == "*":
        return None  # "*": defined by a characteristic-defining ability (604.3)
    try:
        return int(value)
    except ValueError:
        raise CardDataError(f"card {name!r}: {field} {value!r} is not a number") from None


def _build(raw: dict[str, Any], behaviour: dict[str, Any]) -> CardDef:
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        raise CardDataError(f"card without a name: {raw!r:.80}")
    where = f"card {name!r}"
    cost_text = raw.get("manaCost") or ""
    cost = _cost(f"{where}: manaCost", cost_text)
    text = raw.get("text") or ""
    subtypes = tuple(raw.get("subtypes") or ())
    card_types = tuple(raw.get("types") or ())
    if not card_types:
        raise CardDataError(f"{where}: types is empty")
    colors = tuple(raw.get("colors") or ())
    for c in colors:
        if c not in COLORS:
            raise CardDataError(f"{where}: colors: unknown colour {c!r}")
    keywords = tuple(raw.get("keywords") or ())
    if "Hexproof from" in keywords:
        # MTGJSON lists "Hexproof from [quality]" (702.11d) as both "Hexproof" and "Hexproof
        # from": the card has only the former, with its qualities in the behaviour data.
        keywords = tuple(k for k in keywords if k not in ("Hexproof", "Hexproof from"))
        if not behaviour.get(name, {}).get("hexproof_from"):
            raise CardDataError(f"{where}: 'Hexproof from' needs 'hexproof_from' (its "
                                "qualities, rule 702.11d)")
    for k in keywords:
        if k not in SUPPORTED_KEYWORDS and k not in KEYWORD_ACTIONS:
            raise CardDataError(f"{where}: keyword {k!r} is not supported yet")
    # Keyword actions (701) are verbs of the card's effects, not abilities it has.
    keywords = tuple(k for k in keywords
                     if k not in ("Enchant", "Equip", "Protection", "Spree")
                     and k not in KEYWORD_ACTIONS)
    spec = _fields(f"{where}: behaviour", behaviour.get(name, {}), _BEHAVIOUR_FIELDS)
    effects = _effects(f"{where}: effects", spec["effects"]) if "effects" in spec else ()
    modes = tuple(_effects(f"{where}: modes[{i}]", m)
                  for i, m in enumerate(_list(f"{where}: modes", spec.get("modes", []))))
    if effects and modes:
        raise CardDataError(f"{where}: a card has either effects or modes, not both")
    choose = _choose(f"{where}: choose", spec.get("choose", {}), len(modes))
    abilities = tuple(_activated(f"{where}: abilities[{i}]", a)
                      for i, a in enumerate(_list(f"{where}: abilities",
                                                  spec.get("abilities", []))))
    triggers = tuple(_triggered(f"{where}: triggers[{i}]", t)
                     for i, t in enumerate(_list(f"{where}: triggers", spec.get("triggers", []))))
    mana = [BASIC_LAND_MANA[s] for s in subtypes if s in BASIC_LAND_MANA]
    for i, m in enumerate(_list(f"{where}: mana", spec.get("mana", []))):
        mana.append(_mana_ability(f"{where}: mana[{i}]", m))
    statics = tuple(_static(f"{where}: statics[{i}]", st)
                    for i, st in enumerate(_list(f"{where}: statics", spec.get("statics", []))))
    protection = tuple(str(x) for x in _list(f"{where}: protection",
                                             spec.get("protection", [])))
    hexproof_from = tuple(str(x) for x in _list(f"{where}: hexproof_from",
                                                spec.get("hexproof_from", [])))
    for q in hexproof_from:
        if q not in COLORS and q != "multicolored":
            raise CardDataError(f"{where}: hexproof_from: unknown quality {q!r}; expected a "
                                "colour letter (W U B R G) or 'multicolored'")
    if hexproof_from and "Hexproof from" not in (raw.get("keywords") or ()):
        raise CardDataError(f"{where}: hexproof_from is for a card with 'Hexproof from'")
    additional_cost = _additional_cost(f"{where}: additional_cost", spec["additional_cost"]) \
        if "additional_cost" in spec else None
    if "cost_reduction" in spec and "Land" in card_types:
        raise CardDataError(f"{where}: cost_reduction: a land isn't cast (rule 305.1)")
    madness = _cost(f"{where}: madness", spec["madness"]) if "madness" in spec else None
    if ("Madness" in keywords) != (madness is not None):
        raise CardDataError(f"{where}: a card with the keyword Madness needs 'madness' (its "
                            "madness cost, rule 702.35a), and only such a card may have it")
    enters_tapped = spec.get("enters_tapped", False)
    if not isinstance(enters_tapped, bool):
        raise CardDataError(f"{where}: enters_tapped: expected true or false")
    extra_lands = _int(f"{where}: extra_lands", spec.get("extra_lands", 0)) or 0
    enchant = _enum(f"{where}: enchant", TargetKind, spec["enchant"]) if "enchant" in spec \
        else None
    if ("Aura" in subtypes) != (enchant is not None):
        raise CardDataError(f"{where}: an Aura needs 'enchant' and only an Aura may have it")
    explained = (not text or bool(_REMINDER.match(text)) or effects or modes or abilities
                 or triggers or len(mana) > 0 or keywords or enters_tapped or extra_lands
                 or enchant is not None or statics or protection or hexproof_from
                 or spec.get("regenerates")
                 or spec.get("enters_with_counters") or spec.get("power_cda")
                 or spec.get("creatures_die_to_hand") or spec.get("spell_costs")
                 or spec.get("replacements") or spec.get("spend_as_any_color")
                 or spec.get("enters_naming") or spec.get("player_protection")
                 or "targeted_cost" in spec or "extra_triggers" in spec)
    if not explained:
        raise CardDataError(f"{where}: its text {text!r} has no behaviour in the behaviour file")
    if any(t in card_types for t in ("Instant", "Sorcery")) and not (effects or modes):
        raise CardDataError(f"{where}: an instant or sorcery needs effects or modes")
    for effect in (*effects, *(e for m in modes for e in m),
                   *(e for a in abilities for e in a.effects)):
        if effect.target is not None and effect.target.that_player_controls:
            raise CardDataError(f"{where}: 'that_player_controls' is for a triggered "
                                "ability's target ('that player' of its event)")
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
        loyalty=_opt_int(name, "loyalty", raw.get("loyalty")),
        effects=effects,
        modes=modes,
        **choose,
        mana_abilities=tuple(mana),
        mana_for_each=_mana_for_each(where, spec, mana),
        mana_ability_cost=_mana_ability_cost(where, spec, mana, subtypes),
        mana_only_for=_mana_only_for(where, spec, mana, subtypes),
        graveyard_cast=_graveyard_cast(f"{where}: graveyard_cast", spec["graveyard_cast"],
                                       additional_cost, card_types)
        if "graveyard_cast" in spec else None,
        abilities=abilities,
        triggers=triggers,
        keywords=keywords,
        enters_tapped=enters_tapped,
        extra_lands=extra_lands,
        enchant=enchant,
        statics=statics,
        protection=protection,
        hexproof_from=hexproof_from,
        noncreature_tax=_int(f"{where}: noncreature_tax", spec.get("noncreature_tax", 0)) or 0,
        additional_cost=additional_cost,
        enchant_tapped=bool(spec.get("enchant_tapped", False)),
        enchant_you_control=_enchant_you_control(where, spec, enchant),
        regenerates=bool(spec.get("regenerates", False)),
        enters_with_counters=tuple(
            (str(kind), None if n == "X" else _int(f"{where}: enters_with_counters", n))
            for kind, n in dict(spec.get("enters_with_counters", {})).items()),
        power_cda=_power_cda(where, spec.get("power_cda", "")),
        creatures_die_to_hand=bool(spec.get("creatures_die_to_hand", False)),
        spend_as_any_color=_flag(f"{where}: spend_as_any_color",
                                 spec.get("spend_as_any_color", False)),
        enters_naming=_flag(f"{where}: enters_naming", spec.get("enters_naming", False)),
        player_protection=_player_protection(where, spec),
        extra_triggers=_extra_triggers(f"{where}: extra_triggers", spec["extra_triggers"])
        if "extra_triggers" in spec else None,
        plane_rules=_plane_rules(where, spec.get("plane_rules", []), card_types),
        madness_cost=madness,
        cost_reduction=_cost_reduction(f"{where}: cost_reduction", spec["cost_reduction"])
        if "cost_reduction" in spec else None,
        spell_costs=tuple(_spell_cost(f"{where}: spell_costs[{i}]", c) for i, c in
                          enumerate(_list(f"{where}: spell_costs", spec.get("spell_costs", [])))),
        replacements=tuple(_replacement(f"{where}: replacements[{i}]", r) for i, r in
                           enumerate(_list(f"{where}: replacements",
                                           spec.get("replacements", [])))),
        targeted_cost=_targeted_cost(f"{where}: targeted_cost", spec["targeted_cost"])
        if "targeted_cost" in spec else None,
        set_code=str(raw.get("setCode") or ""),
        number=str(raw.get("number") or ""),
    )


def _targeted_cost(where: str, raw: Any) -> TargetedCost:
    """``{"generic": 3}`` ("cost {3} more") or ``{"life": 3}`` ("cost an additional 3 life"):
    what spells opponents cast that target this permanent cost more (rule 601.2f)."""
    spec = _fields(where, raw, {"generic", "life"})
    generic = _int(f"{where}.generic", spec.get("generic", 0)) or 0
    life = _int(f"{where}.life", spec.get("life", 0)) or 0
    if not generic and not life:
        raise CardDataError(f"{where}: needs a positive 'generic' and/or 'life'")
    return TargetedCost(generic=generic, life=life)


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
    pool = load_pool(_data_text("M21.json"), _data_text("behaviour.json"))
    # Real cards from other sets (rules the M21 cards don't exercise), same format.
    for name, definition in load_pool(_data_text("EXTRA.json"),
                                      _data_text("EXTRA.behaviour.json")).items():
        pool.setdefault(name, definition)
    return pool


@cache
def test_card_pool() -> dict[str, CardDef]:
    """The separate test-only card set ``MWTEST``: cards that isolate one rule where no printed
    card does. Never legal in decks; used by rules scenarios only."""
    pool = load_pool(_data_text("MWTEST.json"), _data_text("MWTEST.behaviour.json"))
    clash = sorted(set(pool) & set(card_pool()))
    if clash:
        raise CardDataError(f"test cards reuse real card names: {clash}")
    return pool


@cache
def plane_pool() -> dict[str, CardDef]:
    """The supported Planechase plane cards (``PLANES.json``; rules 311, 901). Planes form
    planar decks (901.3) and are never legal in a deck or sideboard: :func:`card` and
    :func:`parse_decklist` don't know them."""
    pool = load_pool(_data_text("PLANES.json"), _data_text("PLANES.behaviour.json"))
    for definition in pool.values():
        if definition.card_types != ("Plane",) or len(definition.subtypes) != 1:
            raise CardDataError(f"card {definition.name!r}: a plane has the card type Plane "
                                "and exactly one planar type (rules 311.1, 311.3)")
    clash = sorted(set(pool) & set(card_pool()))
    if clash:
        raise CardDataError(f"plane cards reuse card names: {clash}")
    return pool


def plane(name: str) -> CardDef:
    """The plane card with this exact name (rule 311)."""
    found = plane_pool().get(name)
    if found is None:
        raise CardDataError(f"unknown plane {name!r}; supported planes: "
                            f"{sorted(plane_pool())}")
    return found


def card(name: str, *, include_test_cards: bool = False) -> CardDef:
    """The definition of the card with this exact name (test-only cards if asked)."""
    found = card_pool().get(name)
    if found is None and include_test_cards:
        found = test_card_pool().get(name)
    if found is None:
        raise CardDataError(f"unknown card {name!r}")
    return found


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
