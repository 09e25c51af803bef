"""``manawire cards``: coverage per bundled set, and the missing cards grouped by what the
loader says they need (issue 13)."""

from __future__ import annotations

import json
import re
from importlib import resources

import pytest

from server.cards import card_pool
from server.cards.cli import run_cards
from server.cards.sets import coverage, load_set, needs, set_codes
from server.cli import main


def _m21_names() -> set[str]:
    text = resources.files("server.cards").joinpath("data", "sets", "M21.json") \
        .read_text(encoding="utf-8")
    return {c["name"] for c in json.loads(text)["data"]["cards"]}


def test_the_m21_set_file_is_bundled_whole() -> None:
    assert "M21" in set_codes()
    names = _m21_names()
    assert len(names) == 285  # every card of Core Set 2021, by name
    # Every supported M21 card of the playable pool is a card of the set.
    m21 = {n for n, d in card_pool().items() if d.set_code == "M21"}
    assert m21 <= names


def test_coverage_counts_supported_out_of_total(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "--set", "M21"]) == 0
    line = capsys.readouterr().out.strip()
    match = re.fullmatch(r"M21 \(Core Set 2021\): (\d+) / 285 supported \((\d+\.\d)%\)", line)
    assert match, line
    supported = int(match.group(1))
    assert supported == len(_m21_names() & set(card_pool()))
    assert match.group(2) == f"{100 * supported / 285:.1f}"


def test_without_set_every_bundled_set_is_listed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [ln.split(" ", 1)[0] for ln in lines] == set_codes()


def test_missing_lists_every_unsupported_card_once_under_its_need(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "--set", "m21", "--missing"]) == 0
    lines = capsys.readouterr().out.splitlines()
    groups: dict[str, list[str]] = {}
    current = ""
    for line in lines[1:]:
        if line.startswith("    "):
            groups[current].append(line.strip())
        else:
            header = re.fullmatch(r"  (.+) \((\d+)\):", line)
            assert header, line
            current = header.group(1)
            groups[current] = []
            count = int(header.group(2))
            assert count > 0
    listed = [n for names in groups.values() for n in names]
    assert len(listed) == len(set(listed))
    assert set(listed) == _m21_names() - set(card_pool())
    cov = coverage(load_set("M21"))
    assert {k: tuple(v) for k, v in groups.items()} == cov.missing
    assert cov.total == 285


@pytest.mark.parametrize(("card", "need"), [
    # An unsupported keyword ability (MTGJSON "keywords") comes first.
    ({"name": "A", "types": ["Creature"], "keywords": ["Hexproof", "Hexproof from"],
      "text": "Hexproof from artifacts"}, "keyword: Hexproof from"),
    # "Hexproof from [a colour]" is behaviour data's hexproof_from (rule 702.11d): what is
    # left is the rest of the text.
    ({"name": "A2", "types": ["Creature"], "keywords": ["Hexproof", "Hexproof from"],
      "text": "Hexproof from black\nWhenever A2 attacks, draw a card."},
     "behaviour data: triggered ability"),
    # Keywords the engine has and their reminder text explain nothing else ...
    ({"name": "B", "types": ["Creature"], "keywords": ["Flying"],
      "text": "Flying\nWhenever B attacks, draw a card."}, "behaviour data: triggered ability"),
    ({"name": "C", "types": ["Creature"], "keywords": [],
      "text": "{2}{U}, {T}: Draw a card."}, "behaviour data: activated ability"),
    ({"name": "D", "types": ["Instant"], "text": "Draw two cards."},
     "behaviour data: spell effect"),
    ({"name": "E", "types": ["Creature"], "text": "Other Cats you control get +1/+1."},
     "behaviour data: static ability"),
    ({"name": "F", "types": ["Planeswalker"], "text": "[+1]: Draw a card."},
     "behaviour data: loyalty abilities"),
    # ... and a card with nothing unexplained needs only its entry.
    ({"name": "G", "types": ["Creature"], "keywords": ["Flying", "Vigilance"],
      "text": "Flying, vigilance (reminder.)"}, ""),
    ({"name": "H", "types": ["Creature"]}, ""),
])
def test_needs_is_derived_from_the_card(card: dict[str, object], need: str) -> None:
    assert needs(card) == need


def test_an_unknown_set_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    assert run_cards(argparse.Namespace(set_code="XYZ", missing=False, vocabulary=False)) == 2
    assert "unknown set 'XYZ'" in capsys.readouterr().err
