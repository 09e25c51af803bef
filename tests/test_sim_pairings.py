"""``manawire sim`` plays games through the served pipeline (issue 12, item 3).

Every pending decision is encoded for its seat against that seat's current view and every
view class's delta stream is advanced, as a room does -- so a simulation fails wherever a
served game would. ``--all-pairings`` plays every table of demo decks (for two players every
pairing, mirrors included).
"""

from __future__ import annotations

import json

import pytest

from server.cards import demo_deck_names
from server.cli import main
from server.engine import Game, PlayerSetup, new_game
from server.engine.actions import ChooseOrder
from server.engine.state import Decision, DecisionKind, Look
from server.sim import (
    Pipeline,
    SimOptions,
    play_game,
    reproduce_command,
    simulate,
    tables,
)
from server.view.encode import ProjectionError
from tests.engine.helpers import vanilla_deck

#: The pairings' games are played in this many parts, which pytest-xdist's workers share.
PARTS = 5


@pytest.mark.parametrize("part", range(PARTS))
def test_every_pairing_of_the_demo_decks_plays_one_game_through_the_served_pipeline(
        part: int) -> None:
    """One game per pairing (55 for 10 decks, mirrors included): no exception from the
    engine, the streams or the decision encoding; no stuck decision. Pairing ``k`` (of
    :func:`tables`) plays seed ``12_003 + k``, the game ``simulate_tables(1, seed=12_003)``
    plays at that table; part ``p`` plays the pairings ``k`` with ``k % PARTS == p``."""
    decks = demo_deck_names()
    every = tables(2, decks)
    n = len(decks)
    assert len(every) == n * (n + 1) // 2
    mine = [(k, table) for k, table in enumerate(every) if k % PARTS == part]
    games = completed = actions = decisions = 0
    for k, table in mine:
        report = simulate(1, 12_003 + k, 2, seat_decks=table)
        assert report.errors == 0 and report.stuck == 0, report.failures[:3]
        games += report.games
        completed += report.completed
        actions += report.actions
        decisions += report.decisions
    assert games == completed == len(mine)
    assert decisions == actions > games * 50


def test_tables_are_the_multisets_of_decks() -> None:
    assert tables(2, ["b", "a"]) == [("a", "a"), ("a", "b"), ("b", "b")]
    assert tables(2, ["b", "a", "b"]) == tables(2, ["a", "b"])  # a deck named twice
    assert len(tables(3, ["a", "b", "c"])) == 10  # (3 + 3 - 1) choose 3


def _first_game() -> tuple[Game, Pipeline]:
    game = new_game(b"pipeline-seed-01", [PlayerSetup(f"p{i}", vanilla_deck("naya"))
                                          for i in range(2)])
    return game, Pipeline(game, check_views=True)


def test_the_pipeline_refuses_a_decision_naming_an_object_its_seat_cannot_see() -> None:
    """What issue 12 reported (rule 111.7: a token that ceased to exist): the encoding the
    server uses raises, so the simulation counts an error."""
    game, pipeline = _first_game()
    pending = game.pending
    assert pending is not None
    pipeline.decision(game)
    library_card = game.players[1].library[0]
    for hidden in ("no-such-object", library_card):
        game.pending = Decision(pending.prompt_id, pending.seat, DecisionKind.ORDER_GRAVEYARD,
                                (ChooseOrder(hidden),))
        with pytest.raises(ProjectionError):
            pipeline.decision(game)


def test_the_pipeline_refuses_a_decision_for_a_player_who_left_and_a_look_left_open() -> None:
    game, pipeline = _first_game()
    pending = game.pending
    assert pending is not None
    game.players[pending.seat].has_lost = True
    with pytest.raises(AssertionError, match=r"800\.4a"):
        pipeline.decision(game)
    game.players[pending.seat].has_lost = False
    # Priority with an empty stack and nothing waiting, yet a library card still shown.
    game.choices.clear()
    game.pending = Decision(pending.prompt_id, pending.seat, DecisionKind.PRIORITY,
                            pending.options)
    pipeline.decision(game)
    game.looks.append(Look([game.players[1].library[0]], (pending.seat,), "look-1"))
    with pytest.raises(AssertionError, match=r"701\.20a"):
        pipeline.decision(game)


def test_a_failure_names_a_command_that_plays_the_same_game_again() -> None:
    options = SimOptions(concede_rate=0.01)
    decks = ("rakdos-aggro", "izzet-spells", "golgari-grind")
    first = play_game(77, decks, options)
    again = play_game(77, decks, options)
    assert (first.actions, first.decisions, first.failure) == \
        (again.actions, again.decisions, again.failure)
    command = reproduce_command(77, decks, options)
    assert command == ("manawire sim --games 1 --seed 77 --players 3 --deck=rakdos-aggro "
                       "--deck=izzet-spells --deck=golgari-grind --concede-rate 0.01")
    report = simulate(1, 77, 3, seat_decks=decks, options=options)
    assert report.actions == first.actions


def test_cli_all_pairings_and_pure_engine_mode(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["sim", "--all-pairings", "--games", "1", "--seed", "5",
            "--deck", "naya-pets", "--deck", "dimir-mill"]
    assert main(argv) == 0
    served = json.loads(capsys.readouterr().out)
    assert (served["tables"], served["games"], served["completed"]) == (3, 3, 3)
    assert served["encoded"] is True and served["decisions"] == served["actions"] > 0
    for key in ("games", "players", "completed", "errors", "stuck", "actions", "seconds",
                "failures", "actions_per_s"):
        assert key in served  # the fields the command always printed
    assert main([*argv, "--no-encode"]) == 0
    engine = json.loads(capsys.readouterr().out)
    assert engine["encoded"] is False and engine["decisions"] == 0
    assert engine["actions"] == served["actions"]  # the same games, without the pipeline
