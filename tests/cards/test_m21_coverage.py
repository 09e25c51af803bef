"""The acceptance test of issue 13, "every Core Set 2021 card playable": ``manawire cards
--set M21 --missing`` lists nothing, and every non-basic card of the M21 pool is played by a
rules scenario -- put into the game by a scenario's ``setup`` (the zones the harness creates
objects in, ``tests/scenarios/README.md``) of a scenario that is about it: its name says so,
or its script or expectations refer to the card."""

from __future__ import annotations

import argparse
import io
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from server.cards import card_pool
from server.cards.cli import run_cards
from server.cards.sets import coverage, load_set
from server.scenarios import Scenario, load_scenarios

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"

#: The keys of a ``setup.players`` entry whose lists create cards in a zone (setup.exile and
#: setup.command too); ``sideboard`` puts cards outside the game, to be wished in (400.11b).
_PLAYER_ZONES = ("library", "hand", "battlefield", "graveyard", "exile", "ante", "sideboard")


def _entries(raw: Any) -> Iterator[str]:
    """Card names of a setup zone list: each a name or a mapping with ``card``."""
    for entry in raw or []:
        if isinstance(entry, str):
            yield entry
        elif isinstance(entry, dict) and "card" in entry:
            yield str(entry["card"])


def put_into_game(scenario: Scenario) -> set[str]:
    """The cards a scenario's setup puts into the game (a ``start`` game's random decks
    don't count: nothing says those cards are drawn, let alone played)."""
    setup = scenario.data.get("setup")
    if not isinstance(setup, dict):
        return set()
    names: set[str] = set()
    for player in setup.get("players") or []:
        for key in _PLAYER_ZONES:
            names.update(_entries((player or {}).get(key)))
    for key in ("exile", "command"):
        names.update(_entries(setup.get(key)))
    return names


def _strings(raw: Any) -> Iterator[str]:
    """Every string in a script or an expectation (card names, labels, keys)."""
    if isinstance(raw, str):
        yield raw
    elif isinstance(raw, dict):
        for key, value in raw.items():
            yield from _strings(key)
            yield from _strings(value)
    elif isinstance(raw, list):
        for value in raw:
            yield from _strings(value)


def played_by(scenario: Scenario) -> set[str]:
    """The cards a scenario plays: put into the game by its setup, in a scenario that does
    something (a script or expectations) and is about the card -- its name names the card,
    or a step or an expectation does (casting it, activating it, checking it)."""
    script, expect = scenario.data.get("script") or [], scenario.data.get("expect")
    if not script and not expect:
        return set()
    mentioned = set(_strings([script, expect]))
    return {name for name in put_into_game(scenario)
            if name in mentioned or re.search(rf"(^|\W){re.escape(name)}($|\W)", scenario.name)}


@cache
def _played() -> frozenset[str]:
    played: set[str] = set()
    for scenario in load_scenarios([SCENARIOS]):
        played |= played_by(scenario)
    return frozenset(played)


def test_manawire_cards_m21_missing_lists_nothing() -> None:
    """Issue 13: every card of Core Set 2021 is supported -- by the function the command
    uses, and as the command prints it."""
    cov = coverage(load_set("M21"))
    assert cov.missing == {}
    assert len(cov.supported) == cov.total == 285
    out = io.StringIO()
    assert run_cards(argparse.Namespace(set_code="M21", missing=True, vocabulary=False), out) == 0
    assert out.getvalue().splitlines() == ["M21 (Core Set 2021): 285 / 285 supported (100.0%)"]


def test_every_non_basic_m21_card_is_played_by_a_scenario() -> None:
    pool = card_pool()
    m21 = [n for n in coverage(load_set("M21")).supported
           if "Basic" not in pool[n].supertypes]
    assert len(m21) == 280  # 285 cards less the five basic lands
    unplayed = sorted(set(m21) - _played())
    assert not unplayed, f"M21 cards no scenario plays: {unplayed}"


def test_only_the_setup_of_a_scenario_about_the_card_counts() -> None:
    """The counting itself: a card only mentioned in a comment, a name or a script isn't put
    into the game; a card only in the setup as filler, in a scenario about another card,
    isn't played."""
    def scenario(data: dict[str, Any], name: str = "Shock - two damage") -> Scenario:
        return Scenario(name, ("120.3",), SCENARIOS / "x.yaml", 1, data)

    players = [{"hand": ["Shock"], "library": [{"card": "Cancel", "label": "c"}],
                "sideboard": ["Mind Rot"]}, {"battlefield": ["Walking Corpse"]}]
    about_shock = scenario({"setup": {"players": players, "exile": ["Opt"]},
                            "script": [{"cast": "Shock"}, {"target": "Walking Corpse"}]})
    assert put_into_game(about_shock) == {"Shock", "Cancel", "Mind Rot", "Walking Corpse",
                                          "Opt"}
    assert played_by(about_shock) == {"Shock", "Walking Corpse"}
    # Named in the scenario's name but not put into the game: not played.
    assert played_by(scenario({"setup": {"players": [{}, {}]}, "script": [{"pass": 1}]},
                              name="Cancel - nothing")) == set()
    # Put into the game by a scenario that does nothing: not played.
    assert played_by(scenario({"setup": {"players": players}})) == set()
    # A start game's decks don't count.
    assert put_into_game(scenario({"start": {"decks": [{"Shock": 60}, {"Opt": 60}]}})) == set()
