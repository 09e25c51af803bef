"""The honest coverage check: every paragraph of a card's Oracle text is claimed by what
implements it (a behaviour item's ``text``, a card-level field's ``claims``, a keyword line, a
flag's canonical phrase or reminder text, rule 207.2), and every free string of the behaviour
data (qualities, subtypes, keywords, counter kinds, ``who``) is one the engine knows. Each of
the three mistakes that used to load silently is now a load error:

- a Flying card whose "Whenever ..." paragraph was never written (it loaded as a vanilla
  flier: the keyword line alone "explained" the card);
- ``"quality": "Flyng"`` (it loaded, and no creature ever had that quality);
- ``draw`` with ``who`` "each_creature" (it loaded and drew no card: a permanent draws none).
"""

from __future__ import annotations

import copy
import json
from functools import cache
from typing import Any

import pytest

from server.cards import (
    CardDataError,
    card_pool,
    known_subtypes,
    load_pool,
    plane_pool,
)
from server.cards import (
    test_card_pool as mwtest_pool,
)
from server.cards.oracle import oracle_paragraphs


@cache
def _m21() -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
    path = "server/cards/data/"
    with open(path + "M21.json", encoding="utf-8") as f:
        cards = {c["name"]: c for c in json.load(f)["data"]["cards"]}
    with open(path + "behaviour.json", encoding="utf-8") as f:
        behaviour = json.load(f)
    return cards, behaviour


def _real(name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A copy of a bundled card's MTGJSON entry and behaviour, to break one thing in."""
    cards, behaviour = _m21()
    return copy.deepcopy(cards[name]), copy.deepcopy(behaviour.get(name, {}))


def _load(raw: dict[str, Any], behaviour: dict[str, Any] | None) -> None:
    load_pool(json.dumps({"data": {"cards": [raw]}}),
              json.dumps({} if behaviour is None else {raw["name"]: behaviour}))


def _card(text: str, behaviour: dict[str, Any] | None, *, types: tuple[str, ...] = ("Creature",),
          keywords: tuple[str, ...] = ()) -> None:
    raw: dict[str, Any] = {"name": "T", "types": list(types), "manaCost": "{2}{U}",
                           "text": text, "keywords": list(keywords)}
    if "Creature" in types:
        raw.update(power="2", toughness="2")
    _load(raw, behaviour)


# --- the three silently accepted mistakes ---------------------------------------------------

def test_mistake_a_flier_whose_trigger_was_never_written_is_a_load_error() -> None:
    """Tide Skimmer without its trigger used to load as a vanilla 2/2 flier: "Flying" (702.9)
    claims only its own line."""
    raw, _ = _real("Tide Skimmer")
    with pytest.raises(CardDataError, match=(
            r"card 'Tide Skimmer': Oracle paragraph 'Whenever you attack with two or more "
            r"creatures with flying, draw a card\.' is claimed by no behaviour item, keyword, "
            r"flag or reminder text")):
        _load(raw, None)
    _load(*_real("Tide Skimmer"))  # with its trigger it loads


def test_mistake_a_made_up_flier_with_an_empty_behaviour_entry() -> None:
    with pytest.raises(CardDataError, match=r"Oracle paragraph 'Whenever T attacks, draw a "
                                            r"card\.' is claimed by no behaviour item"):
        _card("Flying\nWhenever T attacks, draw a card.", {}, keywords=("Flying",))


def test_mistake_b_a_misspelt_quality_is_a_load_error() -> None:
    """Run Afoul: "sacrifices a creature with flying" (701.21a): the quality is a keyword."""
    raw, behaviour = _real("Run Afoul")
    behaviour["effects"][0]["quality"] = "Flyng"
    with pytest.raises(CardDataError, match=r"card 'Run Afoul': effects\[0\]\.quality: unknown "
                                            r"quality 'Flyng'; expected a supported keyword"):
        _load(raw, behaviour)


def test_mistake_b_a_misspelt_blocks_quality_is_a_load_error() -> None:
    """"Whenever [this] blocks a creature with flying" (509.3a): the creature blocked is a
    filter, its keyword spelt right; a kind of event with no such creature takes no filter."""
    text = "Whenever T blocks a creature with flying, draw a card."
    trigger: dict[str, Any] = {"text": text, "when": "blocks",
                               "filter": {"has": "Flyng", "controller": "any"},
                               "effects": [{"verb": "draw"}]}
    with pytest.raises(CardDataError,
                       match=r"triggers\[0\]\.filter\.has: keyword 'Flyng' is not supported"):
        _card(text, {"triggers": [trigger]})
    trigger.update(filter={"has": "Flying", "controller": "any"}, when="becomes_blocked")
    with pytest.raises(CardDataError,
                       match=r"triggers\[0\]\.filter: 'becomes_blocked' takes no 'filter'"):
        _card(text, {"triggers": [trigger]})
    trigger.update(when="blocks")
    _card(text, {"triggers": [trigger]})


def test_mistake_c_draw_for_each_creature_is_a_load_error() -> None:
    """Permanents don't draw cards (121.1): ``who`` of a player verb names players."""
    raw, behaviour = _real("Opt")
    behaviour["effects"][1]["who"] = {"each": {"types": ["Creature"]}}
    with pytest.raises(CardDataError, match=(
            r"card 'Opt': effects\[1\]\.who: draw acts on players; 'each' names "
            r"permanents")):
        _load(raw, behaviour)


@pytest.mark.parametrize(("effects", "message"), [
    ([{"verb": "gain_life", "who": "self", "amount": 2}],
     "gain_life acts on players; 'self' names an object"),
    ([{"verb": "discard", "who": "attached"}], "discard acts on players; 'attached' names an"),
    ([{"verb": "draw", "target": "creature"}], r"draw is performed by a player; 'permanent'"),
    # "that" player is the previous effect's target player (608.2c)
    ([{"verb": "destroy", "target": "creature"}, {"verb": "lose_life", "who": "that"}],
     "'that' player is the previous effect's target player"),
    ([{"verb": "deal_damage", "who": "everyone", "amount": 1}], "unknown value 'everyone'"),
])
def test_player_verbs_name_players(effects: list[dict[str, Any]], message: str) -> None:
    with pytest.raises(CardDataError, match=message):
        _card("Do it.", {"claims": {"effects": "Do it."}, "effects": effects},
              types=("Sorcery",))


def test_player_verbs_accept_players() -> None:
    """Peer into the Abyss: "Target player draws ... and loses half their life"."""
    _card("Do it.", {"claims": {"effects": "Do it."}, "effects": [
        {"verb": "draw", "target": "player", "amount": 2},
        {"verb": "lose_life", "who": "that", "amount": 2},
        {"verb": "deal_damage", "who": {"each": {"types": ["Creature"]}}, "amount": 1}]},
          types=("Sorcery",))


# --- claims -----------------------------------------------------------------------------------

def test_an_unwritten_paragraph_of_a_spell_is_rejected() -> None:
    """Opt's effects claiming "Draw a card." only: "Scry 1." is unclaimed -- and the keyword
    action Scry (701.22) doesn't claim its line: only its effect performs it."""
    raw, behaviour = _real("Opt")
    behaviour["claims"]["effects"] = "Draw a card."
    with pytest.raises(CardDataError, match=r"card 'Opt': Oracle paragraph 'Scry 1\.' is "
                                            r"claimed by no behaviour item"):
        _load(raw, behaviour)


def test_an_unwritten_paragraph_of_a_land_is_rejected() -> None:
    """Bloodfell Caves without its "you gain 1 life" trigger."""
    raw, behaviour = _real("Bloodfell Caves")
    del behaviour["triggers"]
    with pytest.raises(CardDataError, match=r"Oracle paragraph 'When Bloodfell Caves enters "
                                            r"the battlefield, you gain 1 life\.' is claimed"):
        _load(raw, behaviour)


def test_a_claim_of_a_paragraph_the_card_lacks_is_rejected() -> None:
    raw, behaviour = _real("Llanowar Visionary")
    behaviour["triggers"][0]["text"] = "When Llanowar Visionary enters, draw a card."
    with pytest.raises(CardDataError, match=(
            r"card 'Llanowar Visionary': triggers\[0\]\.text: 'When Llanowar Visionary "
            r"enters, draw a card\.' is not a paragraph of its Oracle text")):
        _load(raw, behaviour)
    raw, behaviour = _real("Opt")
    behaviour["claims"]["effects"][1] = "Draw two cards."
    with pytest.raises(CardDataError, match=r"claims\.effects\[1\]: 'Draw two cards\.' is not "
                                            r"a paragraph"):
        _load(raw, behaviour)


def test_every_item_and_field_names_its_paragraph() -> None:
    raw, behaviour = _real("Llanowar Visionary")
    del behaviour["triggers"][0]["text"]
    with pytest.raises(CardDataError, match=r"triggers\[0\]\.text: expected the Oracle "
                                            r"paragraph it implements"):
        _load(raw, behaviour)
    raw, behaviour = _real("Opt")
    del behaviour["claims"]
    with pytest.raises(CardDataError, match=r"card 'Opt': effects: name the Oracle "
                                            r"paragraph\(s\) it implements in 'claims'"):
        _load(raw, behaviour)
    raw, behaviour = _real("Opt")
    behaviour["claims"]["efects"] = "Scry 1."
    with pytest.raises(CardDataError, match=r"claims: \['efects'\] name\(s\) no behaviour "
                                            r"field"):
        _load(raw, behaviour)


def test_flags_claim_their_canonical_phrase_only() -> None:
    """"[This] enters the battlefield tapped." (either Oracle wording) and "{T}: Add {B} or
    {R}." are claimed by enters_tapped and mana; a flag without its phrase names one."""
    _load(*_real("Bloodfell Caves"))
    raw, behaviour = _real("Bloodfell Caves")
    raw["text"] = raw["text"].replace("enters the battlefield tapped", "enters tapped")
    _load(raw, behaviour)
    raw, behaviour = _real("Bloodfell Caves")
    behaviour["mana"] = ["B|G"]  # "{T}: Add {B} or {G}." isn't printed
    with pytest.raises(CardDataError, match=r"card 'Bloodfell Caves': mana: name the Oracle "
                                            r"paragraph"):
        _load(raw, behaviour)
    raw, behaviour = _real("Bloodfell Caves")
    del behaviour["enters_tapped"]
    with pytest.raises(CardDataError, match=r"Oracle paragraph 'Bloodfell Caves enters the "
                                            r"battlefield tapped\.' is claimed by no"):
        _load(raw, behaviour)


def test_modes_claim_the_paragraph_with_its_bullets() -> None:
    """"Choose one --" and its bullets are one paragraph (700.2); the behaviour has one mode
    for each bullet, and a bullet alone is no paragraph."""
    _load(*_real("Read the Tides"))
    raw, behaviour = _real("Read the Tides")
    behaviour["modes"].pop()
    with pytest.raises(CardDataError, match=r"claims\.modes: 'Choose one —' has 2 modes, the "
                                            r"behaviour 1"):
        _load(raw, behaviour)
    raw, behaviour = _real("Read the Tides")
    behaviour["claims"]["modes"] = "• Draw three cards."
    with pytest.raises(CardDataError, match="is not a paragraph"):
        _load(raw, behaviour)


def test_reminder_text_and_keyword_lines_claim_themselves() -> None:
    _card("Flying, vigilance\n(This is reminder text.)", None, keywords=("Flying", "Vigilance"))
    with pytest.raises(CardDataError, match="Oracle paragraph 'Flying, vigilance'"):
        _card("Flying, vigilance", None, keywords=("Flying",))


def test_oracle_paragraphs_join_bullets_to_their_heading() -> None:
    assert oracle_paragraphs("Flash\nChoose one —\n• A.\n• B.\nDraw a card.") == [
        "Flash", "Choose one —\n• A.\n• B.", "Draw a card."]
    assert oracle_paragraphs("") == []


# --- free strings -------------------------------------------------------------------------------

@pytest.mark.parametrize(("behaviour", "message"), [
    ({"effects": [{"verb": "create_token", "token": {"subtypes": ["Zombi"], "power": 2,
                                                      "toughness": 2, "colors": ["B"]}}]},
     r"effects\[0\]\.token\.subtypes: unknown subtype 'Zombi'"),
    ({"effects": [{"verb": "create_token", "token": {"subtypes": ["Zombie"], "types": ["Creture"],
                                                      "power": 2, "toughness": 2}}]},
     r"token\.types: expected card types"),
    ({"effects": [{"verb": "destroy", "target": {"kind": "permanent",
                                                 "filter": {"subtypes": ["Zombi"]}}}]},
     r"target\.filter\.subtypes: unknown subtype 'Zombi'"),
    ({"effects": [{"verb": "destroy", "target": {"kind": "permanent",
                                                 "filter": {"has": "Flyng"}}}]},
     r"target\.filter\.has: keyword 'Flyng' is not supported"),
    ({"effects": [{"verb": "gain_life", "amount": {"kind": "permanents",
                                                   "filter": {"subtypes": ["Shrines"]}}}]},
     r"filter\.subtypes: unknown subtype 'Shrines'"),
    ({"effects": [{"verb": "put_counters", "who": "self", "counter": "sould"}]},
     r"effects\[0\]\.counter: unknown counter kind 'sould'"),
    ({"effects": [{"verb": "modify_pt", "target": "creature", "protection": "Dragn"}]},
     r"protection: expected a color letter"),
    ({"effects": [{"verb": "create_token", "token": {"subtypes": ["Zombie"], "colors": ["K"],
                                                      "power": 2, "toughness": 2}}]},
     r"token\.colors: expected letters of WUBRG"),
])
def test_free_strings_are_validated(behaviour: dict[str, Any], message: str) -> None:
    with pytest.raises(CardDataError, match=message):
        _card("Do it.", {"claims": {"effects": "Do it."}, **behaviour}, types=("Sorcery",))


def test_free_strings_of_permanents_are_validated() -> None:
    static = {"text": "Other Zombis you control get +1/+1.", "affects":
              {"subtypes": ["Zombi"], "controller": "you", "other": True}, "power": 1,
              "toughness": 1}
    with pytest.raises(CardDataError,
                       match=r"statics\[0\]\.affects\.subtypes: unknown subtype 'Zombi'"):
        _card("Other Zombis you control get +1/+1.", {"statics": [static]})
    with pytest.raises(CardDataError, match=r"protection: expected colour letters.*'Dragn'"):
        _card("Protection from Dragons", {"protection": ["Dragn"]}, keywords=("Protection",))
    with pytest.raises(CardDataError, match=r"enters_with_counters: unknown counter kind "
                                            r"'sould'"):
        _card("T enters the battlefield with a soul counter on it.", {
            "claims": {"enters_with_counters": "T enters the battlefield with a soul counter "
                                               "on it."},
            "enters_with_counters": {"sould": 1}})
    raw, behaviour = _real("Tide Skimmer")
    raw["subtypes"] = ["Drak"]
    with pytest.raises(CardDataError, match=r"card 'Tide Skimmer': subtypes: unknown subtype "
                                            r"'Drak'"):
        _load(raw, behaviour)


def test_known_subtypes_are_the_rules_lists() -> None:
    """Rules 205.3g-n (``data/subtypes.json``, from ``tools/gensubtypes.py``)."""
    subtypes = known_subtypes()
    for name in ("Aura", "Equipment", "Forest", "Basri", "Zombie", "Time Lord", "Shrine",
                 "Adventure"):
        assert name in subtypes
    assert "Zombi" not in subtypes and "Creature" not in subtypes


# --- the bundled data ---------------------------------------------------------------------------

def test_all_bundled_data_loads_with_every_paragraph_claimed() -> None:
    """Every bundled pool loads (the claim check runs on each card), and each card with Oracle
    text beyond keywords and reminder text has behaviour."""
    pools = (card_pool(), mwtest_pool(), plane_pool())
    assert all(pools) and sum(len(p) for p in pools) > 350
    cards, behaviour = _m21()
    claimed_by_text = sum(1 for name in behaviour if not name.startswith("_")
                          for field in ("triggers", "abilities", "statics")
                          for _ in behaviour[name].get(field, []))
    assert claimed_by_text > 250
    assert all(name in card_pool() for name in behaviour if not name.startswith("_"))
    assert set(cards) <= set(card_pool())
