"""A search of a hidden zone tells nobody else what the zone holds (rule 701.23b: a searcher
may fail to find a card with a stated quality): right after the searcher's first pick, the
opponent's and the spectators' views are the same whether or not the library holds another
card the search could find. The search ended as soon as no other card matched, so everyone
saw whether a basic land was left after a Cultivate's first, or whether the library held an
Igneous Cur beside the Alpine Watchdog an Alpine Houndmaster found (a security tester's
round 15)."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.engine import apply
from server.engine.actions import Accept, CastSpell, ChooseCard, PassPriority, PayAutomatically
from server.engine.state import DecisionKind, Game
from server.scenarios.loading import Scenario
from server.scenarios.position import Run
from server.view import SPECTATOR, project
from server.view.encode import encode_view


def _position(hand: str, lands: list[str], library: list[str]) -> Game:
    doc = {"name": "search", "rules": ["701.23b"], "setup": {"players": [
        {"battlefield": lands, "hand": [hand], "library": library},
        {"battlefield": ["Island"], "library": ["Island"] * 5}]}}
    return Run(Scenario("search", ("701.23b",), Path(__file__), 0, doc)).game


def _first_pick(game: Game) -> None:
    """Cast the spell in hand and follow it to its search; pick the first card offered."""
    cast = False
    for _ in range(40):
        pending = game.pending
        assert pending is not None
        options = pending.options
        if pending.kind is DecisionKind.SEARCH:
            apply(game, pending.seat, next(o for o in options if isinstance(o, ChooseCard)))
            return
        action = next((o for o in options if isinstance(o, Accept)), None) \
            or (None if cast else next((o for o in options if isinstance(o, CastSpell)), None)) \
            or next((o for o in options if isinstance(o, PayAutomatically)), None) \
            or next((o for o in options if isinstance(o, PassPriority)), options[0])
        cast = cast or isinstance(action, CastSpell)
        apply(game, pending.seat, action)
    raise AssertionError("no search reached")


@pytest.mark.parametrize(("hand", "lands", "without", "with_another"), [
    # "Search your library for up to two basic land cards" (Cultivate)
    ("Cultivate", ["Forest"] * 3, ["Forest", "Shock", "Shock", "Shock"],
     ["Forest", "Mountain", "Shock", "Shock"]),
    # "... for an Alpine Watchdog and/or a card named Igneous Cur" (Alpine Houndmaster)
    ("Alpine Houndmaster", ["Mountain", "Plains"], ["Alpine Watchdog", "Shock", "Shock", "Shock"],
     ["Alpine Watchdog", "Igneous Cur", "Shock", "Shock"]),
], ids=["Cultivate", "Alpine Houndmaster"])
def test_701_23b_after_a_pick_the_others_see_the_same_whatever_the_library_holds(
        hand: str, lands: list[str], without: list[str], with_another: list[str]) -> None:
    games = [_position(hand, lands, library) for library in (without, with_another)]
    for game in games:
        _first_pick(game)
        assert game.pending is not None and game.pending.kind is DecisionKind.SEARCH
    for viewer in (1, SPECTATOR):
        one, other = (encode_view(project(game, viewer)) for game in games)
        assert one == other, f"viewer {viewer} tells the libraries apart"
