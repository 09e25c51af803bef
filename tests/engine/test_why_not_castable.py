"""Why a card in hand can't be cast (np7 finding 2: Titanic Growth with {1}{G} open and no
creature to target was just left out): ``why_not_castable`` answers on demand, in the order
``can_cast_now`` tests -- whose card and where, timing, priority, mana (with what makes it cost
more), targets, additional costs -- from what the asking player may know."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from server.engine import IllegalActionError, apply
from server.engine.actions import ActionLimitDraw, Concede, PassPriority
from server.engine.casting import can_cast_now, why_not_castable
from server.engine.state import Game, GamePhase
from server.scenarios import Scenario
from server.scenarios.position import Run
from server.scenarios.steps import do_step


def _game(players: list[dict[str, Any]], script: list[dict[str, Any]] | None = None,
          **setup: Any) -> Game:
    data = {"setup": {"players": players, **setup}}
    run = Run(Scenario("why", (), Path("why.yaml"), 1, data))
    for index, step in enumerate(script or []):
        do_step(run, step, index)
    return run.game


def _id(game: Game, seat: int, name: str) -> str:
    return next(oid for oid in game.player(seat).hand if game.objects[oid].card.name == name)


def _why(game: Game, seat: int, name: str) -> str:
    oid = _id(game, seat, name)
    reason = why_not_castable(game, seat, oid)
    assert (reason == "") == can_cast_now(game, seat, game.objects[oid]) or reason.startswith(
        "You don't have priority") or reason.startswith("Finish the decision")
    return reason


def test_601_2a_an_opponents_card_or_a_made_up_id_is_not_yours_to_cast_alike() -> None:
    game = _game([{"mana_pool": "R", "hand": ["Shock"]}, {"mana_pool": "R", "hand": ["Shock"]}])
    theirs = why_not_castable(game, 0, _id(game, 1, "Shock"))
    assert theirs.startswith("It isn't a card you may cast")
    assert why_not_castable(game, 0, "no-such-object") == theirs  # nothing told either way


def test_305_1_a_land_is_played_not_cast() -> None:
    game = _game([{"hand": ["Forest"]}, {}])
    assert "A land is played, not cast" in _why(game, 0, "Forest")


def test_117_1a_307_1_a_sorcery_only_at_sorcery_speed() -> None:
    game = _game([{"mana_pool": "BB", "hand": ["Mind Rot"]}, {"mana_pool": "BB",
                                                              "hand": ["Mind Rot"]}],
                 step="upkeep")
    assert "It isn't your main phase: " in _why(game, 0, "Mind Rot")
    # The reason first, then the rule: "... -- and it isn't your turn" read as a condition.
    assert _why(game, 1, "Mind Rot") == ("It isn't your turn: this card can be cast only when "
                                        "you could cast a sorcery -- in your main phase, with "
                                        "the stack empty.")
    game = _game([{"mana_pool": "RBB", "hand": ["Shock", "Mind Rot"]}, {}],
                 [{"cast": "Shock"}, {"target_player": 1}, {"pay": "R"}])
    assert _why(game, 0, "Mind Rot").startswith("The stack isn't empty: ")


def test_117_1a_an_instant_needs_priority() -> None:
    game = _game([{"mana_pool": "R", "hand": ["Shock"]}, {"mana_pool": "R", "hand": ["Shock"]}])
    assert _why(game, 1, "Shock").startswith("You don't have priority")
    assert _why(game, 0, "Shock") == ""


def test_601_2g_not_enough_mana_says_the_cost_and_the_most_mana() -> None:
    game = _game([{"mana_pool": "G", "hand": ["Titanic Growth"], "battlefield": ["Walking Corpse"]},
                  {}])
    assert _why(game, 0, "Titanic Growth") == (
        "Not enough mana: it needs {1}{G}, and you could make at most 1.")


def test_601_2h_the_wrong_colours_are_said() -> None:
    game = _game([{"mana_pool": "RR", "hand": ["Titanic Growth"],
                   "battlefield": ["Walking Corpse"]}, {}])
    assert _why(game, 0, "Titanic Growth").startswith(
        "Not the right mana: it needs {1}{G}, and your 2 mana can't pay it")


def test_601_2f_a_cost_increase_names_the_permanent() -> None:
    game = _game([{"mana_pool": "GC", "hand": ["Titanic Growth"],
                   "battlefield": ["Walking Corpse"]}, {"battlefield": ["Vryn Wingmare"]}])
    assert _why(game, 0, "Titanic Growth") == (
        "Not enough mana: it needs {2}{G} (Vryn Wingmare makes it cost more), and you "
        "could make at most 2.")


def test_601_2c_115_1_no_legal_target() -> None:
    game = _game([{"mana_pool": "GG", "hand": ["Titanic Growth"]},
                  {"hand": ["Walking Corpse"]}])  # a creature card in a hand is no target
    assert _why(game, 0, "Titanic Growth") == (
        "No legal target: it needs target creature.")
    game = _game([{"mana_pool": "GG", "hand": ["Titanic Growth"]},
                  {"battlefield": ["Walking Corpse"]}])
    assert _why(game, 0, "Titanic Growth") == ""


def test_601_2f_an_additional_cost_that_cant_be_paid() -> None:
    game = _game([{"mana_pool": "B", "hand": ["Village Rites"]}, {}])
    assert _why(game, 0, "Village Rites") == "Its additional cost can't be paid."
    game = _game([{"mana_pool": "B", "hand": ["Village Rites"],
                   "battlefield": ["Walking Corpse"]}, {}])
    assert _why(game, 0, "Village Rites") == ""


def test_117_1a_a_decision_in_progress_comes_first() -> None:
    game = _game([{"mana_pool": "RR", "hand": ["Shock", "Shock"]}, {}], [{"cast": "Shock"}])
    oid = next(o for o in game.player(0).hand if game.objects[o].card.name == "Shock")
    assert why_not_castable(game, 0, oid).startswith("Finish the decision")


def test_103_5_nothing_is_cast_before_the_game_begins() -> None:
    game = _game([{"hand": ["Shock"]}, {}])
    game.phase = GamePhase.MULLIGANS
    assert why_not_castable(game, 0, _id(game, 0, "Shock")).startswith(
        "The game hasn't begun")



def test_104_the_game_over_is_said_for_every_card_first() -> None:
    """An attacker found the winner's cards answered "Only when you could cast a sorcery"
    and "A land is played" after a concession: the game's end is checked first."""
    game = _game([{"hand": ["Mind Rot", "Forest", "Shock"]}, {"hand": ["Shock"]}])
    apply(game, 1, Concede())
    assert game.result is not None
    for seat, name in ((0, "Mind Rot"), (0, "Forest"), (0, "Shock"), (1, "Shock")):
        assert why_not_castable(game, seat, _id(game, seat, name)) == "The game is over."
    assert why_not_castable(game, 0, "no-such-object") == "The game is over."


def test_104_the_servers_draw_at_the_limit_is_refused_before_the_limit() -> None:
    """ActionLimitDraw (the server's end of a game at --max-game-actions) is no option: the
    engine takes it only once the game has taken at least that many actions (the room
    applies it then, and a stored log replays it so)."""
    game = _game([{"hand": ["Shock"]}, {"hand": ["Shock"]}])
    pending = game.pending
    assert pending is not None
    apply(game, pending.seat, PassPriority())
    count = game.action_count
    assert count >= 1
    for limit in (0, -1, count + 1, 10_000):
        with pytest.raises(IllegalActionError):
            apply(game, 0, ActionLimitDraw(limit))
    assert game.result is None and game.action_count == count
    apply(game, 0, ActionLimitDraw(count))
    assert game.result is not None and game.result.winners == ()
