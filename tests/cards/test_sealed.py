"""``manawire sealed``: boosters opened from the MTGJSON booster data of the bundled M21 set
file, printed as a deck list; ``--playable`` builds a 40-card limited deck the engine plays
(issue 13)."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from server.cards import card_pool
from server.cards.sealed import open_booster, open_pool
from server.cards.sets import load_set
from server.cli import main
from server.decks import DeckFormat, check
from server.decks.model import FileFormat
from server.decks.parse import read

M21 = load_set("M21")
DEFAULT = M21.booster["default"]


def _sealed(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["sealed", "--set", "M21", *args]) == 0
    return capsys.readouterr().out


def test_the_same_seed_opens_the_same_pool(capsys: pytest.CaptureFixture[str]) -> None:
    first = _sealed(capsys, "--seed", "42")
    assert _sealed(capsys, "--seed", "42") == first
    assert _sealed(capsys, "--seed", "43") != first
    assert open_pool(M21, "42") == open_pool(M21, "42")


def test_each_booster_has_exactly_its_layouts_slots() -> None:
    for seed in range(20):
        for booster in open_pool(M21, str(seed)):
            layout = DEFAULT["boosters"][booster.layout]["contents"]
            assert booster.contents == layout
            assert Counter(c.sheet for c in booster.cards) == Counter(layout)
            for sheet, n in layout.items():
                drawn = [c.uuid for c in booster.cards if c.sheet == sheet]
                assert len(drawn) == n
                assert len(set(drawn)) == n  # no repeat within a sheet's draw
                assert all(u in DEFAULT["sheets"][sheet]["cards"] for u in drawn)
                assert all(c.foil == DEFAULT["sheets"][sheet]["foil"]
                           for c in booster.cards if c.sheet == sheet)


def test_six_boosters_by_default_and_balanced_commons() -> None:
    pool = open_pool(M21, "balance")
    assert len(pool) == 6
    by_uuid = {c["uuid"]: c for c in M21.cards}
    for booster in pool:
        commons = [by_uuid[c.uuid] for c in booster.cards if c.sheet == "nongainlandCommon"]
        # balanceColors: at least one common of each colour.
        for colour in "WUBRG":
            assert any(c.get("colors") == [colour] for c in commons), colour


def test_weights_are_respected_over_many_boosters() -> None:
    rng = random.Random(2024)
    boosters = [open_booster(M21, rng) for _ in range(1500)]
    # Layouts: weights 2 and 1 of 3 -- the foil layout about a third of the time.
    foil_share = sum(b.layout == 1 for b in boosters) / len(boosters)
    assert 0.28 < foil_share < 0.39
    # basicOrGainland: each basic printing weight 1, each gainland weight 2 (of 40): the
    # gainlands together 20/40 of the slot.
    sheet = DEFAULT["sheets"]["basicOrGainland"]
    lands = [c for b in boosters for c in b.cards if c.sheet == "basicOrGainland"]
    gain = sum(sheet["cards"][c.uuid] == 2 for c in lands) / len(lands)
    assert 0.45 < gain < 0.55
    # rareMythic: rares weight 2, mythics weight 1 -- a mythic about 1 in 8 boosters here
    # (weights of the data: mythics' share of the sheet's total weight).
    rm = DEFAULT["sheets"]["rareMythic"]
    mythic_weight = sum(w for w in rm["cards"].values() if w == 1) / rm["totalWeight"]
    picks = [c for b in boosters for c in b.cards if c.sheet == "rareMythic"]
    share = sum(rm["cards"][c.uuid] == 1 for c in picks) / len(picks)
    assert abs(share - mythic_weight) < 0.04


def test_the_pool_is_a_deck_list_naming_what_is_not_playable(
        capsys: pytest.CaptureFixture[str]) -> None:
    text = _sealed(capsys, "--seed", "7")
    parsed = read(text)
    assert parsed.problems == []
    assert parsed.deck.source is FileFormat.TEXT
    pool = [c.name for b in open_pool(M21, "7") for c in b.cards]
    supported = [n for n in pool if n in card_pool()]
    unsupported = [n for n in pool if n not in card_pool()]
    assert sum(e.count for e in parsed.deck.main) == len(supported)
    assert f"{len(unsupported)} not supported yet" in text
    for name in set(unsupported):
        assert any(line.startswith("# ") and line.endswith(f" {name}")
                   for line in text.splitlines())


def test_playable_builds_a_forty_card_deck_the_engine_accepts(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for seed in ("1", "7", "sealed-night"):
        text = _sealed(capsys, "--seed", seed, "--playable")
        deck = check(text, DeckFormat.LIMITED)
        assert sum(e.count for e in deck.main) == 40
        pool = Counter(c.name for b in open_pool(M21, seed) for c in b.cards)
        used = Counter(e.card.name for e in (*deck.main, *deck.sideboard)
                       if "Basic" not in e.card.supertypes for _ in range(e.count))
        assert all(used[n] <= pool[n] for n in used)  # nothing but basics from outside
    path = tmp_path / "sealed.txt"
    path.write_text(text, encoding="utf-8")
    assert main(["deck", "check", str(path), "--format", "limited"]) == 0
    assert capsys.readouterr().out.strip().endswith("OK")
    assert main(["sim", "--deck", str(path), "--games", "2"]) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert report["completed"] == 2 and report["errors"] == 0


def test_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sealed", "--set", "XYZ", "--seed", "1"]) == 2
    assert "unknown set" in capsys.readouterr().err
    assert main(["sealed", "--set", "M21", "--seed", "1", "--boosters", "0"]) == 2
