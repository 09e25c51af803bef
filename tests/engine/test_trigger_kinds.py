"""Trigger events as a few general kinds with parameters (rule 603.2): whose step begins
(503.1a, 513.1a), a zone change from no zone (a token created, 111.1), the permanent an
Aura is attached to leaving the battlefield (603.10a), and what the loader refuses."""

from __future__ import annotations

from typing import Any

import pytest

from server.cards import CardDataError
from server.cards.model import CardDef, TriggerStep
from server.engine import Zone
from server.engine.events import Event, TokenCreated, ZoneChanged
from server.engine.state import Game, Step
from server.engine.triggers import collect_triggers, step_begins
from server.engine.zones import create_object
from tests.engine.helpers import demo_game, load_one, pass_until, put


def _card(trigger: dict[str, Any]) -> CardDef:
    raw: dict[str, Any] = {"name": "T", "types": ["Enchantment"], "manaCost": "{W}",
                           "text": "Whenever something happens, draw a card."}
    pool = load_one(raw, {"triggers": [{"text": "x", "effects": [{"verb": "draw"}],
                                        **trigger}]})
    return pool["T"]


def _game() -> Game:
    game = demo_game()
    pass_until(game, Step.PRECOMBAT_MAIN)
    game.pending_triggers.clear()
    return game


@pytest.mark.parametrize(("whose", "on_your_turn", "on_theirs"), [
    ("you", 1, 0), ("opponent", 0, 1), ("any", 1, 1)])
def test_step_trigger_names_whose_turn_503_1a(whose: str, on_your_turn: int,
                                              on_theirs: int) -> None:
    """"At the beginning of [your / each opponent's / each] upkeep" (503.1a, 603.2): the
    step of the active player, seen from the controller of the ability."""
    upkeep = _card({"when": "step", "step": "upkeep", "whose": whose})
    for controller, expected in ((0, on_your_turn), (1, on_theirs)):
        game = _game()
        seat = (game.active + controller) % 2
        create_object(game, upkeep, seat, Zone.BATTLEFIELD)
        step_begins(game, TriggerStep.UPKEEP)
        step_begins(game, TriggerStep.END)  # another step: no trigger
        assert len(game.pending_triggers) == expected, (whose, controller)
        assert all(t.event_player == game.active for t in game.pending_triggers)


def test_a_token_created_enters_from_no_zone_111_1() -> None:
    """A token is created on the battlefield (111.1): "whenever a creature enters" sees it,
    "whenever a creature is put onto the battlefield from your hand" doesn't."""
    for from_zone, expected in (("", 1), ("hand", 0)):
        watcher = _card({"when": "zone_change", "subject": "filter", "to": "battlefield",
                         "filter": {"types": ["Creature"]},
                         **({"from": from_zone} if from_zone else {})})
        game = _game()
        seat = game.active
        create_object(game, watcher, seat, Zone.BATTLEFIELD)
        token = put(game, seat, "Walking Corpse", Zone.BATTLEFIELD)
        events: list[Event] = [TokenCreated(token.id, seat, token.card)]
        collect_triggers(game, events, 0)
        assert len(game.pending_triggers) == expected, from_zone


@pytest.mark.parametrize(("to_zone", "expected"), [("", 1), ("exile", 1), ("graveyard", 0)])
def test_the_attached_permanent_leaving_603_10a(to_zone: str, expected: int) -> None:
    """"When enchanted creature leaves the battlefield / is exiled / dies" (subject
    'attached'): the Aura sees the permanent it was attached to move; exiling it isn't
    dying (700.4)."""
    aura_card = _card({"when": "zone_change", "subject": "attached", "from": "battlefield",
                       **({"to": to_zone} if to_zone else {})})
    game = _game()
    seat = game.active
    aura = create_object(game, aura_card, seat, Zone.BATTLEFIELD)
    creature = put(game, seat, "Walking Corpse", Zone.BATTLEFIELD)
    aura.attached_to = creature.id
    events: list[Event] = [ZoneChanged(creature.id, "new", seat, Zone.BATTLEFIELD, Zone.EXILE,
                                       seat, creature.card)]
    collect_triggers(game, events, 0)
    assert [t.source_id for t in game.pending_triggers] == [aura.id] * expected


@pytest.mark.parametrize(("trigger", "message"), [
    ({"when": "enters"}, "unknown value 'enters'; expected one of \\['zone_change'"),
    ({"when": "gain_life", "filter": {}}, "'gain_life' takes no 'filter'"),
    ({"when": "lose_life", "step": "upkeep"}, "'lose_life' takes no 'step'"),
    ({"when": "lose_life", "whose": "that_player"}, "whose: expected 'you', 'opponent'"),
    ({"when": "lose_lives"}, "unknown value 'lose_lives'"),
    ({"when": "step", "step": "second_upkeep"}, "unknown value 'second_upkeep'"),
    ({"when": "step", "step": "end", "subject": "this"}, "'step' takes no 'subject'"),
    ({"when": "zone_change", "subject": "attached", "from": "hand"},
     "'from' must be 'battlefield'"),
    ({"when": "zone_change", "subject": "filter", "to": "battlefield"},
     "subject 'filter' needs a 'filter'"),
    ({"when": "zone_change", "subject": "everything", "to": "battlefield"},
     "unknown value 'everything'"),
    ({"when": "zone_change"}, "needs 'from' and/or 'to'"),
    ({"when": "counters_put", "filter": {}}, "'counters_put' needs 'counter'"),
    ({"when": "expend"}, "'expend' needs 'count'"),
    ({"when": "blocks", "counter": "+1/+1"}, "'blocks' takes no 'counter'"),
    ({"when": "draw", "whose": "opponents"}, "unknown value 'opponents'"),
    ({"when": "attacks", "count": 0, "subject": "filter", "filter": {}}, "at least 1"),
    ({"when": "deals_damage", "subject": "filter", "filter": {}, "count": 1,
      "damage": "noncombat", "recipient": "player"}, "counts only"),
])
def test_trigger_shape_mistakes_are_load_errors_603_2(trigger: dict[str, Any],
                                                      message: str) -> None:
    with pytest.raises(CardDataError, match=f"card 'T': triggers\\[0\\].*{message}"):
        _card(trigger)
