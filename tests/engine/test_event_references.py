"""What only a triggered ability's event can supply (rule 603.2: "that player", "that
creature", "that much") is refused elsewhere, as are effect sets that can't be performed:
each is a load error naming the card and field, not an effect that silently does nothing."""

from __future__ import annotations

from typing import Any

import pytest

from server.cards import CardDataError
from server.cards.model import CardDef
from server.engine.zones import lose_life
from tests.engine.helpers import demo_game, load_one

_EVENT_POWER = {"kind": "object", "of": "event_object", "trait": "power"}


def _sorcery(behaviour: dict[str, Any]) -> CardDef:
    raw = {"name": "T", "types": ["Sorcery"], "manaCost": "{1}", "text": "Something."}
    return load_one(raw, behaviour)["T"]


@pytest.mark.parametrize(("effects", "message"), [
    # 603.2: no event outside a triggered ability
    ([{"verb": "gain_life", "amount": {"kind": "event"}}], "the event's amount or object"),
    ([{"verb": "deal_damage", "target": "any", "amount": _EVENT_POWER}],
     "the event's amount or object"),
    ([{"verb": "destroy", "who": "event_object"}], "'event_object' is the player or object"),
    # 608.2c: "their" is counted for each player an effect affects -- never in a condition
    ([{"verb": "draw", "condition": {"amount": {"kind": "life", "whose": "their"},
                                     "at_most": 5}}], "'their' is the player an effect"),
    # an "each" set is performed on each permanent: not by verbs of the stack or of one object
    ([{"verb": "counter", "who": {"each": {"types": ["Creature"]}}}], "'each' names"),
    ([{"verb": "attach", "who": {"each": {"types": ["Creature"]}}}], "'each' names"),
])
def test_603_2_event_references_and_unperformable_sets_are_load_errors(
        effects: list[dict[str, Any]], message: str) -> None:
    with pytest.raises(CardDataError, match=message):
        _sorcery({"effects": effects})


def test_603_4_a_triggers_if_clause_is_about_the_game_not_a_resolution() -> None:
    raw = {"name": "T", "types": ["Enchantment"], "manaCost": "{1}", "text": "Something."}
    with pytest.raises(CardDataError, match="condition"):
        load_one(raw, {"triggers": [{"text": "x", "when": "gain_life", "condition": {
            "amount": {"kind": "event"}, "at_least": 3}, "effects": [{"verb": "draw"}]}]})


def test_the_same_references_load_in_a_triggered_ability() -> None:
    raw = {"name": "T", "types": ["Enchantment"], "manaCost": "{1}", "text": "Something."}
    card = load_one(raw, {"triggers": [{"text": "x", "when": "gain_life", "effects": [
        {"verb": "draw", "amount": {"kind": "event"}}]}]})["T"]
    assert card.triggers[0].effects


def test_119_3_lose_life_is_one_event_and_no_event_for_nothing() -> None:
    game = demo_game()
    seat = game.active
    events: list[Any] = []
    lose_life(game, seat, 3, events)
    lose_life(game, seat, 0, events)  # 107.1b: losing 0 (or less) life is no life loss
    assert game.player(seat).life == 17
    assert [type(e).__name__ for e in events] == ["LifeLost"]


def test_701_12c_exchanging_life_totals_is_life_gained_and_lost() -> None:
    from server.engine.effects import _exchange_life
    game = demo_game()
    you, other = game.active, 1 - game.active
    game.player(you).life, game.player(other).life = 5, 12
    events: list[Any] = []
    _exchange_life(game, [you, other], events)
    assert (game.player(you).life, game.player(other).life) == (12, 5)
    kinds = {type(e).__name__: e for e in events}
    assert kinds["LifeGained"].seat == you and kinds["LifeGained"].amount == 7
    assert kinds["LifeLost"].seat == other and kinds["LifeLost"].amount == 7
