"""A decision's prompt says what is asked and for which spell or ability: the optional action
of a "you may" (608.2d), the sort of target (601.2c, 115.1), the cards left to discard
(701.9b, 514.1). "Take the optional action (accept) or not (decline)." and "Choose a target."
left the player to guess. The prompt goes to the deciding player only, and must say nothing
of what that player can't see: permuting the cards hidden from them changes no prompt."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.cards import card
from server.engine import Game, PlayerSetup, apply, new_game
from server.engine.actions import (
    ActivateManaAbility,
    KeepHand,
    PassPriority,
    PayAutomatically,
    PlayLand,
)
from server.engine.state import DecisionKind
from server.scenarios.loading import Scenario
from server.scenarios.position import Run
from server.scenarios.steps import do_step
from server.view import project
from server.view.encode import decision_for
from tests.engine.helpers import copy_game
from tests.soak import depth
from tests.view.helpers import hidden_from


def _run(setup: dict[str, Any], steps: list[dict[str, Any]]) -> Run:
    """A scenario position (tests/scenarios/README.md) after its script ``steps``."""
    data = {"name": "prompts", "rules": ["608.2d"], "setup": setup}
    run = Run(Scenario("prompts", ("608.2d",), Path(__file__), 0, data))
    for i, step in enumerate(steps):
        do_step(run, step, i)
    return run


def _game(setup: dict[str, Any], steps: list[dict[str, Any]]) -> Game:
    return _run(setup, steps).game


def _prompt(game: Game) -> str:
    """The pending decision's prompt as its seat receives it, checked against its view."""
    d = game.pending
    assert d is not None
    view = project(game, d.seat)
    return decision_for(d, d.seat, view.objects, view.header.triggers, room_id="r",
                        state_id=1, game=game).prompt


def test_608_2d_a_may_prompt_says_the_optional_action_and_whose_it_is() -> None:
    game = _game({"players": [{"mana_pool": "GCC", "hand": ["Fierce Empath"],
                               "library": ["Forest", "Colossal Dreadmaw"]}, {}]},
                 [{"cast": "Fierce Empath"}, {"pay": True}, {"pass": 2}, {"pass": 2}])
    assert game.pending is not None and game.pending.kind is DecisionKind.MAY
    assert _prompt(game) == (
        "Fierce Empath's ability: You may search your library for a creature card with mana "
        "value 6 or greater, reveal it, put it into your hand, then shuffle. Accept to do "
        "it, or decline.")


def test_608_2d_the_and_or_search_asks_whether_to_search_the_library_too() -> None:
    run = _run({"players": [{"mana_pool": "BBCCC", "hand": ["Liliana's Scorn"],
                             "graveyard": ["Liliana, Death Mage"], "library": ["Forest"]},
                            {"battlefield": ["Walking Corpse"]}]},
               [{"cast": "Liliana's Scorn"}, {"target": "Walking Corpse"}, {"pay": True},
                {"pass": 2}])
    game = run.game
    assert _prompt(game) == (
        "Liliana's Scorn: You may search your library and/or graveyard for a card named "
        "Liliana, Death Mage, reveal it, and put it into your hand. Accept to do it, or "
        "decline.")
    do_step(run, {"accept": True}, 4)
    assert _prompt(game) == (
        "Liliana's Scorn: Search your library too? Accept to search your library and "
        "graveyard (then shuffle your library); decline to search only your graveyard.")


def test_601_2c_a_target_prompt_says_what_sort_of_target() -> None:
    game = _game({"players": [{"mana_pool": "R", "hand": ["Shock"]}, {}]},
                 [{"cast": "Shock"}])
    assert _prompt(game) == "Shock: Choose a target -- any target."
    game = _game({"players": [{"mana_pool": "WC", "hand": ["Feat of Resistance"],
                               "battlefield": ["Walking Corpse"]}, {}]},
                 [{"cast": "Feat of Resistance"}])
    assert _prompt(game) == ("Feat of Resistance: Choose a target -- target creature you "
                             "control.")


def test_601_2c_an_up_to_n_target_prompt_counts_the_targets_chosen() -> None:
    game = _game({"players": [{"mana_pool": "WWCC", "hand": ["Basri's Aegis"],
                               "battlefield": ["Walking Corpse", "Staunch Shieldmate"]}, {}]},
                 [{"cast": "Basri's Aegis"}])
    assert _prompt(game) == ("Basri's Aegis: Choose up to 2 targets (0 chosen; finish to "
                             "choose no more) -- target creature.")
    game = _game({"players": [{"mana_pool": "WWCC", "hand": ["Basri's Aegis"],
                               "battlefield": ["Walking Corpse", "Staunch Shieldmate"]}, {}]},
                 [{"cast": "Basri's Aegis"}, {"target": "Walking Corpse"}])
    assert "(1 chosen; finish to choose no more)" in _prompt(game)


def test_701_9b_a_discard_prompt_says_how_many_cards_are_left_to_discard() -> None:
    setup = {"players": [{"mana_pool": "BCC", "hand": ["Mind Rot"]},
                         {"hand": ["Forest", "Island", "Shock"]}]}
    steps: list[dict[str, Any]] = [{"cast": "Mind Rot"}, {"target_player": 1}, {"pay": True},
                                   {"pass": 2}]
    game = _game(setup, steps)
    assert game.pending is not None and game.pending.seat == 1
    assert _prompt(game) == "Mind Rot: Choose a card to discard: 2 more cards to discard."
    game = _game(setup, [*steps, {"discard": "Shock"}])
    assert _prompt(game) == "Mind Rot: Choose a card to discard: 1 more card to discard."


def test_514_1_the_cleanup_discard_prompt_says_the_hand_size_and_how_many_are_left() -> None:
    game = _game({"step": "end", "players": [{"hand": ["Forest"] * 9}, {}]}, [{"pass": 2}])
    assert game.pending is not None and game.pending.kind is DecisionKind.DISCARD
    assert _prompt(game) == ("Discard down to your maximum hand size (7): choose a card, "
                             "2 more cards to discard.")


# --- non-interference ----------------------------------------------------------------------

EXAMPLES = depth(40, soak=200)
#: Decks of "you may" searches, targets and discards, with hidden cards for a prompt to leak.
DECK = {"Fierce Empath": 3, "Solemn Simulacrum": 3, "Liliana's Scorn": 2, "Mind Rot": 3,
        "Duress": 2, "Shock": 3, "Grim Tutor": 2, "Basri's Aegis": 2, "Colossal Dreadmaw": 2,
        "Forest": 7, "Swamp": 8, "Mountain": 3, "Plains": 3, "Walking Corpse": 3}


#: The kinds whose prompt says what the pending choice knows (the others are compared at
#: random, for the spell or ability they name).
_TOLD = (DecisionKind.MAY, DecisionKind.CHOOSE_TARGET, DecisionKind.DISCARD,
         DecisionKind.PAY_MANA)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.binary(min_size=16, max_size=24), choices=st.integers(0, 2**32 - 1),
       steps=st.integers(100, 400), shuffles=st.integers(0, 2**32 - 1))
def test_a_prompt_is_the_same_whatever_the_cards_hidden_from_its_reader(
        seed: bytes, choices: int, steps: int, shuffles: int) -> None:
    """At each decision of a random game, the deciding player's prompt is computed again in
    a copy whose cards hidden from that player (the others' hands, every library) have their
    identities permuted: it is the same text (architecture invariant 4)."""
    deck = [card(name) for name, n in DECK.items() for _ in range(n)]
    game = new_game(seed, [PlayerSetup(f"p{i}", list(deck)) for i in range(2)])
    rng, permutation = random.Random(choices), random.Random(shuffles)
    for _ in range(steps):
        d = game.pending
        if d is None or game.result is not None:
            break
        hidden = sorted(hidden_from(game, d.seat))
        if hidden and (d.kind in _TOLD or rng.random() < 0.05):
            other = copy_game(game)
            cards = [other.objects[i].card for i in hidden]
            permutation.shuffle(cards)
            for oid, new_card in zip(hidden, cards, strict=True):
                other.objects[oid] = replace(other.objects[oid], card=new_card)
            assert _prompt(other) == _prompt(game)
        # Keep, play lands and pay automatically, so the cards get cast.
        first = [a for a in d.options if isinstance(a, KeepHand | PlayLand | PayAutomatically)]
        acting = [a for a in d.options
                  if not isinstance(a, PassPriority | ActivateManaAbility)]
        action = first[0] if first else rng.choice(acting) \
            if acting and rng.random() < 0.9 else rng.choice(d.options)
        apply(game, d.seat, action)


def test_118_12a_an_unless_pays_prompt_says_what_not_paying_does() -> None:
    """A new player was asked "Pay {3} or decline" and never told that declining lets
    Miscast counter their Shock (701.6a)."""
    game = _game({"players": [{"mana_pool": "RRRR", "hand": ["Shock"]},
                              {"mana_pool": "UU", "hand": ["Miscast"]}]},
                 [{"cast": "Shock"}, {"target_player": 1}, {"pay": "R"}, {"pass": 1},
                  {"cast": "Miscast"}, {"target": "Shock"}, {"pay": True}, {"pass": 2}])
    assert game.pending is not None and game.pending.kind is DecisionKind.PAY_MANA
    assert _prompt(game) == ("Miscast: Pay {3} or Miscast counters your Shock (decline to "
                             "let it): your mana pool covers it -- choose the mana to spend.")


def test_601_2f_paying_for_a_spell_names_what_makes_it_cost_more() -> None:
    """A new player was asked "Pay {2}{G}" for Titanic Growth, Vryn Wingmare unmentioned."""
    game = _game({"players": [{"mana_pool": "GCC", "hand": ["Titanic Growth"],
                               "battlefield": ["Walking Corpse"]},
                              {"battlefield": ["Vryn Wingmare"]}]},
                 [{"cast": "Titanic Growth"}, {"target": "Walking Corpse"}])
    assert game.pending is not None and game.pending.kind is DecisionKind.PAY_MANA
    assert _prompt(game) == ("Titanic Growth: Pay {2}{G} (Vryn Wingmare makes it cost more): "
                             "your mana pool covers it -- choose the mana to spend.")
    game = _game({"players": [{"mana_pool": "GCC", "hand": ["Titanic Growth"],
                               "battlefield": ["Walking Corpse"]}, {}]},
                 [{"cast": "Titanic Growth"}, {"target": "Walking Corpse"}])
    assert _prompt(game).startswith("Titanic Growth: Pay {1}{G}: ")
