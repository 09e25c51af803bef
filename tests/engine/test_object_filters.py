"""One object filter (:class:`ObjectFilter`) for targets, "each" sets, statics and costs
(issue 13): its predicates, evaluated by :func:`server.engine.filters.matches` (rules 115.1,
205, 608.2c, 611.3a), and what the loader makes of its spellings."""

from __future__ import annotations

from typing import Any

import pytest

from server.cards import TARGET_SHORTHANDS, CardDataError
from server.cards.model import Controller, ObjectFilter, TargetKind, TargetReq
from server.engine.filters import matches
from server.engine.state import Zone
from server.engine.targeting import target_candidates
from tests.engine.helpers import demo_game, load_one, put


def test_rule_205_filter_predicates_of_permanents() -> None:
    game = demo_game()
    bears = put(game, 0, "Scavenging Ooze", Zone.BATTLEFIELD)
    theirs = put(game, 1, "Scavenging Ooze", Zone.BATTLEFIELD)
    mine = 0
    assert matches(game, bears, ObjectFilter(min_toughness=2, max_toughness=2), mine, "")
    assert not matches(game, bears, ObjectFilter(min_toughness=3), mine, "")
    assert matches(game, bears, ObjectFilter(min_mana_value=2, colors=("G",)), mine, "")
    assert not matches(game, bears, ObjectFilter(colors=("R", "U")), mine, "")
    assert not matches(game, bears, ObjectFilter(token=True), mine, "")  # rule 111.1
    assert not matches(game, bears, ObjectFilter(tapped=True), mine, "")  # rule 110.5
    bears.tapped = True
    assert matches(game, bears, ObjectFilter(tapped=True), mine, "")
    assert not matches(game, bears, ObjectFilter(blocking=True), mine, "")  # rule 509.1g
    # "that player": the event's player of a triggered ability (rule 603.2)
    that = ObjectFilter(controller=Controller.THAT_PLAYER)
    assert matches(game, theirs, that, mine, "", that_player=1)
    assert not matches(game, bears, that, mine, "", that_player=1)
    assert not matches(game, theirs, that, mine, "")


def test_rule_115_1_a_targets_kind_and_filter_choose_the_candidates() -> None:
    game = demo_game()
    bears = put(game, 0, "Scavenging Ooze", Zone.BATTLEFIELD)
    theirs = put(game, 1, "Scavenging Ooze", Zone.BATTLEFIELD)
    creature = TARGET_SHORTHANDS["creature"]
    found = target_candidates(game, creature, 0)
    assert ("object", bears.id) in found and ("object", theirs.id) in found
    assert not any(kind == "player" for kind, _ in found)
    anything = target_candidates(game, TARGET_SHORTHANDS["any"], 0)  # rule 115.4
    assert ("player", 0) in anything and ("player", 1) in anything
    assert target_candidates(game, TARGET_SHORTHANDS["opponent"], 0) == [("player", 1)]
    yours = TargetReq(
        TargetKind.PERMANENT, ObjectFilter(card_types=("Creature",)))
    assert target_candidates(game, yours, 0) == [("object", bears.id)]


def _load(target: Any) -> None:
    raw: dict[str, Any] = {"name": "T", "types": ["Sorcery"], "manaCost": "{G}", "text": "x"}
    load_one(raw, {"effects": [{"verb": "destroy", "target": target}]})


@pytest.mark.parametrize(("target", "message"), [
    ({"kind": "creature"}, "kind: unknown value 'creature'"),
    ({"kind": "permanent", "you_control": True}, "unknown field"),
    ({"kind": "permanent", "filter": {"types": ["Creture"]}}, "unknown card type 'Creture'"),
    ({"kind": "permanent", "filter": {"min_counters": 2}}, "min_counters: needs"),
    ({"kind": "permanent", "filter": {"token": True, "nontoken": True}}, "contradict"),
    ({"kind": "card_in_graveyard", "filter": {"attacking": True}},
     "a 'card_in_graveyard' target can't be \\['attacking'\\]"),
    ({"kind": "ability", "filter": {"types": ["Creature"]}}, "an? 'ability' target can't"),
    ("creature_or_planeswalker", "unknown value 'creature_or_planeswalker'"),
])
def test_target_spelling_mistakes_are_load_errors(target: Any, message: str) -> None:
    with pytest.raises(CardDataError, match=message):
        _load(target)


@pytest.mark.parametrize("effect", [
    {"verb": "destroy", "who": {"each": {"controller": "that_player"}}},
    {"verb": "draw", "amount": {"kind": "permanents", "filter": {"controller": "that_player"}}},
])
def test_rule_603_2_that_player_is_only_for_a_target(effect: dict[str, Any]) -> None:
    raw: dict[str, Any] = {"name": "T", "types": ["Sorcery"], "manaCost": "{G}", "text": "x"}
    with pytest.raises(CardDataError, match="'that_player' is for a triggered ability's"):
        load_one(raw, {"effects": [effect]})


def test_the_shorthands_expand_to_kind_and_filter() -> None:
    assert TARGET_SHORTHANDS["creature"].filter == ObjectFilter(
        card_types=("Creature",), controller=Controller.ANY)
    assert TARGET_SHORTHANDS["player"].kind is TargetKind.PLAYER
    assert TARGET_SHORTHANDS["player"].filter.controller is Controller.ANY
    assert TARGET_SHORTHANDS["any"].kind is TargetKind.PLAYER_OR_PERMANENT
    _load({"kind": "permanent", "filter": {"types": ["Creature"], "min_toughness": 4,
                                           "blocking": True, "colors": ["R"]}})
