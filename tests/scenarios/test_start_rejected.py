"""The scenario harness's ``expect: {start_rejected: ...}`` (a game the rules don't let start,
e.g. rule 407.3) and its refusal of ante cards in a position not played for ante."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.scenarios import ScenarioError, ScenarioFailure, load_scenarios, run_scenario

REJECTED = """
name: An ante card without ante can't start (407.3)
rules: [407.3]
start:
  decks: [{Swamp: 30, Contract from Below: 30}, {Forest: 60}]
expect:
  start_rejected: "407.3"
"""


def _run(tmp_path: Path, text: str) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    (scenario,) = load_scenarios([path])
    run_scenario(scenario)


def test_407_3_a_rejected_start_passes(tmp_path: Path) -> None:
    _run(tmp_path, REJECTED)


def test_a_start_that_is_accepted_fails_start_rejected(tmp_path: Path) -> None:
    text = REJECTED.replace("  decks:", "  ante: true\n  decks:")
    with pytest.raises(ScenarioFailure, match="the game started; expected the start"):
        _run(tmp_path, text)


def test_a_start_rejected_for_another_reason_fails(tmp_path: Path) -> None:
    with pytest.raises(ScenarioFailure, match=r"lacks '901\.3'"):
        _run(tmp_path, REJECTED.replace('"407.3"', '"901.3"'))


def test_a_rejected_start_can_have_no_script_or_other_expectations(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="a rejected start has no game"):
        _run(tmp_path, REJECTED + "  turn: 1\n")
    with pytest.raises(ScenarioError, match="a rejected start has no game"):
        _run(tmp_path, REJECTED + "script:\n  - pass: 1\n")


def test_without_the_expectation_a_refused_deck_is_a_scenario_error(tmp_path: Path) -> None:
    text = REJECTED.replace('expect:\n  start_rejected: "407.3"\n', "")
    with pytest.raises(ScenarioError, match=r"rule 407\.3"):
        _run(tmp_path, text)


def test_407_3_an_ante_card_in_a_setup_not_played_for_ante_is_an_error(tmp_path: Path) -> None:
    text = """
name: Contract from Below in hand without ante
rules: [407.3]
setup:
  players:
    - hand: [Contract from Below]
"""
    with pytest.raises(ScenarioError, match=r"407\.3.*ante: true"):
        _run(tmp_path, text)
    _run(tmp_path, text.replace("setup:\n", "setup:\n  ante: true\n"))
