"""``manawire sim`` as issue 17 specifies it: ``--deck NAME|FILE`` (once: every seat; once
per player: seat by seat), the figures of its JSON line (throughput, turns, mulligans,
``apply``/``legal_actions`` percentiles), ``--profile``, and clear errors for bad decks."""

from __future__ import annotations

import json
import pstats
import shlex
from collections.abc import Sequence
from pathlib import Path

import pytest

from server import sim
from server.cli import main
from server.decks import DeckFormat, resolve
from server.sim import DeckSpec, GameOutcome, SimOptions, Timings, deck_label, reproduce_command

#: The issue's simple M21 deck (60 cards).
M21_SIMPLE = """\
8 Plains
8 Mountain
8 Forest
4 Staunch Shieldmate
4 Alpine Watchdog
4 Concordia Pegasus
4 Onakke Ogre
4 Wildwood Patrol
4 Garruk's Gorehorn
4 Colossal Dreadmaw
4 Shock
4 Titanic Growth
"""

#: A 40-card deck: not a legal constructed deck (rule 100.2a), fine for ``sim`` (checked as
#: limited, 100.2b).
FORTY = """\
9 Mountain
8 Forest
4 Onakke Ogre
4 Garruk's Gorehorn
3 Colossal Dreadmaw
4 Trufflesnout
4 Shock
4 Titanic Growth
"""

FIELDS = ("games", "players", "completed", "errors", "stuck", "actions", "seconds",
          "failures", "encoded", "decisions", "tables", "failed_tables", "actions_per_s",
          "games_per_s", "turns_mean", "mulligans", "apply_us_p50", "apply_us_p99",
          "legal_actions_us_p50", "legal_actions_us_p99")


def _write(tmp_path: Path, text: str, name: str = "deck.txt") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def _last_json(out: str) -> dict[str, object]:
    line = out.strip().splitlines()[-1]
    data = json.loads(line)
    assert isinstance(data, dict)
    return data


def _number(data: dict[str, object], key: str) -> float:
    value = data[key]
    assert isinstance(value, int | float) and not isinstance(value, bool), (key, value)
    return float(value)


def test_twenty_games_of_the_simple_m21_deck_report_every_figure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    deck = _write(tmp_path, M21_SIMPLE)
    assert main(["sim", "--deck", deck, "--games", "20", "--no-encode"]) == 0
    data = _last_json(capsys.readouterr().out)
    assert set(FIELDS) <= set(data)
    assert data["games"] == data["completed"] == 20
    assert data["errors"] == data["stuck"] == 0
    assert _number(data, "actions") > 0
    assert _number(data, "actions_per_s") > 0 and _number(data, "games_per_s") > 0
    assert _number(data, "turns_mean") > 1
    assert isinstance(data["mulligans"], int) and data["mulligans"] >= 0
    for timing in ("apply", "legal_actions"):
        assert 0 < _number(data, f"{timing}_us_p50") <= _number(data, f"{timing}_us_p99")


def test_the_figures_of_a_served_run_of_a_forty_card_file_deck(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """Through the served pipeline too; a 40-card deck is fine (rule 100.2b)."""
    deck = _write(tmp_path, FORTY)
    assert main(["sim", "--deck", deck, "--games", "3", "--seed", "4"]) == 0
    data = _last_json(capsys.readouterr().out)
    assert set(FIELDS) <= set(data)
    assert data["games"] == data["completed"] == 3 and data["encoded"] is True
    assert _number(data, "decisions") == _number(data, "actions") > 0
    assert _number(data, "turns_mean") > 1 and isinstance(data["mulligans"], int)
    for timing in ("apply", "legal_actions"):
        assert 0 < _number(data, f"{timing}_us_p50") <= _number(data, f"{timing}_us_p99")


def _record_tables(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The decks (labels, by seat) of every game the simulation plays."""
    played: list[list[str]] = []
    real = sim.play_game

    def recording(seed: int, decks: Sequence[DeckSpec],
                  options: SimOptions) -> GameOutcome:
        played.append([deck_label(d) for d in decks])
        return real(seed, decks, options)

    monkeypatch.setattr(sim, "play_game", recording)
    return played


def test_deck_once_for_every_seat_or_once_per_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    deck = _write(tmp_path, FORTY)
    played = _record_tables(monkeypatch)
    assert main(["sim", "--deck", deck, "--games", "2", "--no-encode"]) == 0
    assert played == [[deck, deck]] * 2
    played.clear()
    assert main(["sim", "--deck", deck, "--deck", "naya-pets", "--games", "2",
                 "--no-encode"]) == 0
    assert played == [[deck, "naya-pets"]] * 2
    data = _last_json(capsys.readouterr().out)
    assert data["completed"] == 2
    played.clear()
    assert main(["sim", "--players", "3", "--deck", deck, "--deck", "naya-pets",
                 "--all-pairings", "--games", "1", "--no-encode"]) == 0
    # Every multiset of 3 of the 2 decks, sorted by label (a path, a name).
    assert played == [[deck] * 3, [deck, deck, "naya-pets"],
                      [deck, "naya-pets", "naya-pets"], ["naya-pets"] * 3]


def test_a_file_decks_failure_names_a_command_that_replays_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """The reproduce command names the file by its path and plays the same game."""
    path = _write(tmp_path, FORTY, name="my deck.txt")  # a space: the path is quoted
    resolved = resolve(FORTY, DeckFormat.LIMITED)
    deck = sim.SimDeck(path, resolved.main, resolved.sideboard)
    options = SimOptions(encode=False, concede_rate=0.01)
    outcome = sim.play_game(31, [deck, "rakdos-aggro"], options)
    command = reproduce_command(31, [deck, "rakdos-aggro"], options)
    argv = shlex.split(command)
    assert argv[:2] == ["manawire", "sim"] and [f"--deck={path}", "--deck=rakdos-aggro"] == \
        [arg for arg in argv if arg.startswith("--deck")]
    assert main(argv[1:]) == 0
    assert _last_json(capsys.readouterr().out)["actions"] == outcome.actions


def test_a_missing_deck_file_is_a_parser_error_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    missing = str(tmp_path / "no-such-deck.txt")
    with pytest.raises(SystemExit) as exit_info:
        main(["sim", "--deck", missing, "--games", "1"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert missing in err and "Traceback" not in err


def test_a_deck_file_with_an_unknown_card_is_a_parser_error_naming_card_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    bad = _write(tmp_path, FORTY.replace("4 Trufflesnout", "4 Trufflesnort"))
    with pytest.raises(SystemExit) as exit_info:
        main(["sim", "--deck", bad, "--games", "1"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert bad in err and "line 6" in err and "'Trufflesnort'" in err
    assert "Traceback" not in err


def test_a_deck_under_forty_cards_is_a_parser_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    short = _write(tmp_path, "10 Mountain\n4 Shock\n")
    with pytest.raises(SystemExit) as exit_info:
        main(["sim", "--deck", short, "--games", "1"])
    assert exit_info.value.code == 2
    assert "at least 40 cards" in capsys.readouterr().err


def test_deck_given_neither_once_nor_once_per_player_is_a_parser_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["sim", "--players", "2", "--deck", "naya-pets", "--deck", "rakdos-aggro",
              "--deck", "izzet-spells", "--games", "1"])
    assert exit_info.value.code == 2
    assert "--deck given 3 times for 2 players" in capsys.readouterr().err


def test_profile_writes_stats_pstats_loads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    deck = _write(tmp_path, FORTY)
    stats_file = tmp_path / "sim.prof"
    assert main(["sim", "--deck", deck, "--games", "2", "--no-encode",
                 "--profile", str(stats_file)]) == 0
    captured = capsys.readouterr()
    assert _last_json(captured.out)["completed"] == 2
    assert "cumulative" in captured.err
    stats = pstats.Stats(str(stats_file))
    assert "apply" in stats.get_stats_profile().func_profiles


def test_timings_percentiles_by_nearest_rank() -> None:
    timings = Timings()
    assert timings.percentile_us(50) == 0.0
    timings.add(range(1, 101))  # 1..100 ns
    assert (timings.percentile_us(50), timings.percentile_us(99)) == (0.05, 0.099)
    timings.add([123_456_789])  # kept to 3 significant digits
    assert timings.percentile_us(100) == 123_000.0
