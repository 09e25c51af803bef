"""Rule 616.1: the affected player chooses which of several replacement and/or prevention
effects applies to an event -- a real pending decision (architecture invariant 2), encodable
for that seat, deterministic, and settled when a player leaves (800.4a). Scenarios:
tests/scenarios/replacement_order.yaml."""

from __future__ import annotations

import random

from server.cards import card
from server.engine import Game, PlayerSetup, Zone, apply, new_game
from server.engine.actions import Action, ChooseReplacement, Concede
from server.engine.effects import deal_damage_at_once
from server.engine.replacements import CombatDamagePrevented, register
from server.engine.state import DecisionKind, GameObject
from server.engine.zones import DAMAGE_PREVENTION, PREVENT
from server.view import project
from server.view.encode import encode_decision
from tests.engine.helpers import demo_game, keep_all, put, refresh
from tests.soak import depth


def _shields(game: Game, seat: int) -> tuple[GameObject, GameObject]:
    first = put(game, seat, "Nine Lives", Zone.BATTLEFIELD)
    second = put(game, seat, "Nine Lives", Zone.BATTLEFIELD)
    return first, second


def test_616_1e_two_nine_lives_the_damaged_player_chooses_encodable_for_that_seat() -> None:
    game = demo_game()
    ogre = put(game, 0, "Onakke Ogre", Zone.BATTLEFIELD)
    old, new = _shields(game, 1)
    deal_damage_at_once(game, [(ogre, ("player", 1), 4)], [], combat=True)
    refresh(game)
    d = game.pending
    assert d is not None and d.seat == 1 and d.kind is DecisionKind.CHOOSE_REPLACEMENT
    # In timestamp order (deterministic), one option per Nine Lives.
    assert d.options == (ChooseReplacement(old.id, PREVENT), ChooseReplacement(new.id, PREVENT))
    sent = encode_decision(d, project(game, 1), "r", 1, game)
    assert [(o.choose_replacement.object_id, o.choose_replacement.replacement)
            for o in sent.options] == [(old.id, "prevent"), (new.id, "prevent")]
    life = game.player(1).life
    apply(game, 1, ChooseReplacement(new.id, PREVENT))
    assert (old.counters, new.counters, game.player(1).life) == ({}, {"incarnation": 1}, life)
    assert not game.choices


def test_616_1e_a_resolved_spells_prevention_is_an_option_naming_no_object() -> None:
    game = demo_game()
    ogre = put(game, 0, "Onakke Ogre", Zone.BATTLEFIELD)
    nine = put(game, 1, "Nine Lives", Zone.BATTLEFIELD)
    register(game, CombatDamagePrevented(game.turn, 0))
    register(game, CombatDamagePrevented(game.turn, 1))  # two alike: still one option
    deal_damage_at_once(game, [(ogre, ("player", 1), 4)], [], combat=True)
    refresh(game)
    d = game.pending
    assert d is not None and d.seat == 1
    assert d.options == (ChooseReplacement("", PREVENT), ChooseReplacement(nine.id, PREVENT))
    encode_decision(d, project(game, 1), "r", 1, game)  # an empty id names no object
    apply(game, 1, ChooseReplacement("", PREVENT))
    assert nine.counters == {}


def test_616_1_no_choice_when_only_one_effect_applies_or_none_does_more() -> None:
    game = demo_game()
    ogre = put(game, 0, "Onakke Ogre", Zone.BATTLEFIELD)
    nine = put(game, 1, "Nine Lives", Zone.BATTLEFIELD)
    deal_damage_at_once(game, [(ogre, ("player", 1), 4)], [], combat=True)
    assert not game.choices and nine.counters == {"incarnation": 1}
    deal_damage_at_once(game, [(ogre, ("player", 0), 4)], [], combat=True)
    assert not game.choices and game.player(0).life == 16


def test_800_4a_a_choice_left_with_one_option_after_a_player_leaves_applies_it() -> None:
    decks = [[card("Forest")] * 40 for _ in range(3)]
    game = new_game(b"616-leaving" * 2, [PlayerSetup(f"p{i}", d) for i, d in enumerate(decks)])
    keep_all(game)
    ogre = put(game, 0, "Onakke Ogre", Zone.BATTLEFIELD)
    mine, borrowed = _shields(game, 1)
    # Seat 2 owns the newer Nine Lives; seat 1 controls it (it leaves with its owner).
    game.battlefield.remove(borrowed.id)
    del game.objects[borrowed.id]
    borrowed = put(game, 2, "Nine Lives", Zone.BATTLEFIELD)
    borrowed.controller = borrowed.base_controller = 1
    deal_damage_at_once(game, [(ogre, ("player", 1), 4)], [], combat=True)
    refresh(game)
    assert game.pending is not None and game.pending.kind is DecisionKind.CHOOSE_REPLACEMENT
    assert game.choices[0].group == [DAMAGE_PREVENTION]
    apply(game, 2, Concede())
    assert borrowed.id not in game.objects
    assert mine.counters == {"incarnation": 1}
    assert all(c.group != [DAMAGE_PREVENTION] for c in game.choices)
    d = game.pending
    assert d is not None
    encode_decision(d, project(game, d.seat), "r", 1, game)


def test_616_1_random_players_answer_the_choice_and_replays_match() -> None:
    """Random games between decks of Nine Lives, Test Fog and attackers: the choice comes up,
    random players answer it like any decision (``manawire sim`` does the same), every
    decision encodes for its seat, and replaying the actions rebuilds the same game
    (architecture invariant 3)."""
    counts = {"Nine Lives": 12, "Test Fog": 6, "Shock": 8, "Onakke Ogre": 8, "Plains": 13,
              "Mountain": 13}
    deck = [card(n, include_test_cards=True) for n, k in counts.items() for _ in range(k)]
    asked = 0
    for seed in range(depth(1, soak=4)):  # (games: tests/soak.py)
        rng = random.Random(seed)
        setups = [PlayerSetup(f"p{i}", deck) for i in range(2)]
        game = new_game(bytes([seed]) * 16, setups)
        log: list[tuple[int, Action]] = []
        for _ in range(4000):
            d = game.pending
            if game.result is not None or d is None:
                break
            encode_decision(d, project(game, d.seat), "r", 1, game)
            if d.kind is DecisionKind.CHOOSE_REPLACEMENT:
                asked += 1
            action = rng.choice(d.options)
            log.append((d.seat, action))
            apply(game, d.seat, action)
        again = new_game(bytes([seed]) * 16, setups)
        for seat, action in log:
            apply(again, seat, action)
        assert project(again, 0) == project(game, 0)
    assert asked > 0, "no game reached the choice"
