"""Mana abilities whose cost is mana (Prismite's "{2}: Add one mana of any color", 605.1a):
each way to pay the cost is the player's choice (601.2h), and a game logged before that
choice was offered -- the action names no payment -- replays as it was played."""

from __future__ import annotations

from pathlib import Path

from server.engine import apply
from server.engine.actions import ActivateManaAbility, CastSpell
from server.scenarios.loading import Scenario
from server.scenarios.position import Run

_SETUP = {
    "name": "Prismite with {U}{R}{G} floating",
    "rules": ["605.1a", "601.2h"],
    "setup": {"players": [{"mana_pool": "URG", "hand": ["Watcher of the Spheres"],
                           "battlefield": ["Prismite"]}, {}]},
}


def _run() -> Run:
    return Run(Scenario(str(_SETUP["name"]), ("605.1a", "601.2h"), Path(__file__), 0, _SETUP))


def test_605_1a_601_2h_each_way_to_pay_prismite_is_an_option_and_is_paid_as_chosen() -> None:
    run = _run()
    game = run.game
    prismite = next(o.id for o in game.objects.values() if o.card.name == "Prismite")
    pending = game.pending
    assert pending is not None
    white = {a.paid_with for a in pending.options
             if isinstance(a, ActivateManaAbility) and a.mana == "W"}
    assert white == {"UR", "UG", "RG"}
    # Rule 601.2g: Watcher of the Spheres ({W}{U}) can be cast: paying {R}{G} makes {W}.
    assert any(isinstance(a, CastSpell) for a in pending.options)
    apply(game, 0, ActivateManaAbility(prismite, "W", "RG"))
    assert game.players[0].mana_pool == [1, 1, 0, 0, 0, 0]  # W U left


def test_a_logged_activation_naming_no_payment_replays_with_the_engines_former_way() -> None:
    """Before the choice: generic mana from colorless first, then the most plentiful colour
    (ties in WUBRG order) -- {U}{R} here, leaving {G} and the {W} made."""
    run = _run()
    game = run.game
    prismite = next(o.id for o in game.objects.values() if o.card.name == "Prismite")
    apply(game, 0, ActivateManaAbility(prismite, "W"))
    assert game.players[0].mana_pool == [1, 0, 0, 0, 1, 0]  # W G left
