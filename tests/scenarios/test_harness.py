"""The scenario harness itself: strictness, clear errors for bad files, the CLI summary."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.cli import main
from server.scenarios import ScenarioError, ScenarioFailure, load_scenarios, run_scenario

GOOD = """
name: Shock hits a player (120.3a)
rules: [120.3a]
setup:
  players:
    - hand: [Shock]
      battlefield: [Mountain]
script:
  - cast: Shock
  - target_player: 1
  - tap: Mountain
  - pay: true
  - pass: 2
expect:
  players: {1: {life: 18}}
"""


def _write(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _run(path: Path) -> None:
    (scenario,) = load_scenarios([path])
    run_scenario(scenario)


def test_a_correct_scenario_passes(tmp_path: Path) -> None:
    _run(_write(tmp_path, GOOD))


def test_a_wrong_expectation_fails_naming_file_and_value(tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD.replace("life: 18", "life: 17"))
    with pytest.raises(ScenarioFailure, match=r"s\.yaml#0 .*player 1 life is 18, expected 17"):
        _run(path)


def test_strict_mode_fails_on_a_decision_the_script_did_not_answer(tmp_path: Path) -> None:
    # The target is never chosen: the next step meets a CHOOSE_TARGET decision instead.
    path = _write(tmp_path, GOOD.replace("  - target_player: 1\n", ""))
    with pytest.raises(ScenarioFailure, match="not a legal option; pending is seat 0 CHOOSE_T"):
        _run(path)


def test_pass_until_refuses_to_skip_other_decisions(tmp_path: Path) -> None:
    text = GOOD.split("script:", maxsplit=1)[0] + \
        "script:\n  - cast: Shock\n  - pass_until: {step: end}\n"
    with pytest.raises(ScenarioFailure, match="did not answer"):
        _run(_write(tmp_path, text))


@pytest.mark.parametrize(("change", "message"), [
    (("rules: [120.3a]", "rules: [fast]"), "not a rule number"),
    (("rules: [120.3a]", "rulez: [120.3a]"), r"unknown key\(s\) \['rulez'\]"),
    (("hand: [Shock]", "hand: [Shokc]"), "unknown card 'Shokc'"),
    (("battlefield: [Mountain]", "battlefield: [Shock]"), "400.4a"),
    (("  - pass: 2", "  - pass: -1"), "positive number"),
    (("  - pay: true", "  - pay: true\n    tap: Mountain"), "exactly one action"),
])
def test_malformed_scenarios_are_clear_errors(tmp_path: Path, change: tuple[str, str],
                                              message: str) -> None:
    path = _write(tmp_path, GOOD.replace(*change))
    with pytest.raises(ScenarioError, match=message):
        _run(path)


def test_cli_prints_the_summary_last_and_fails_on_any_failure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    _write(tmp_path, GOOD + "---\n" + GOOD.replace("life: 18", "life: 5"), "two.yaml")
    assert main(["scenario", str(tmp_path)]) == 1
    out = capsys.readouterr().out.strip().splitlines()
    assert out[-1] == "1 passed, 1 failed"
    assert out[0].startswith("FAIL ") and "two.yaml#1" in out[0]
    _write(tmp_path, GOOD, "two.yaml")
    assert main(["scenario", str(tmp_path / "two.yaml")]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == "1 passed, 0 failed"


def test_cli_reports_a_missing_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenario", str(tmp_path / "nope.yaml")]) == 1
    assert capsys.readouterr().out.strip().splitlines()[-1] == "0 passed, 1 failed"


def test_every_card_in_the_pools_is_named_by_a_scenario_that_plays_it() -> None:
    """Issue-4 acceptance: each supported card (except basic lands) has a scenario whose
    name names it."""
    from server.cards import card_pool, test_card_pool

    names = " ".join(s.name for s in load_scenarios([Path(__file__).parent]))
    cards = [c.name for c in (*card_pool().values(), *test_card_pool().values())
             if "Basic" not in c.supertypes]
    missing = [c for c in cards if c not in names]
    assert not missing, f"cards without a scenario naming them: {missing}"
