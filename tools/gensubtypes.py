"""Regenerate (or check) ``server/cards/data/subtypes.json``: every subtype the
Comprehensive Rules list (rules 205.3g-205.3n), by the card type it belongs to.

The card loader validates every subtype a behaviour file names (a filter's ``subtypes``, a
token's, a static ability's, ...) against these lists, so a misspelt "Zombi" is a load error.

    python -m tools.gensubtypes RULES.txt            # rewrite the data file
    python -m tools.gensubtypes RULES.txt --check    # exit 1 if it differs
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "server" / "cards" / "data" / "subtypes.json"
#: The rule of each list and the key it is stored under.
RULES = {"205.3g": "Artifact", "205.3h": "Enchantment", "205.3i": "Land",
         "205.3j": "Planeswalker", "205.3k": "Spell", "205.3m": "Creature", "205.3n": "Plane"}


def parse(rules_text: str) -> dict[str, list[str]]:
    """The subtype lists of rules 205.3g-n: the names after "The ... types are" (205.3m:
    "... are one word long:"), without "(see rule ...)" remarks."""
    lists: dict[str, list[str]] = {}
    for line in rules_text.splitlines():
        number = line.split(" ", 1)[0]
        if number not in RULES:
            continue
        body = re.sub(r"\s*\(see rules? [^)]*\)", "", line)
        match = re.search(r"(?:one word long:|The [a-z]+ types are) (.*?)\.(?: Of that list|$)",
                          body)
        if match is None:
            raise SystemExit(f"rule {number}: no list of types found")
        names = [n.strip() for n in re.split(r",\s*(?:and\s+)?|\s+and\s+", match.group(1))]
        if number == "205.3m":
            names.append("Time Lord")  # "One creature type is two words long: Time Lord."
        lists[RULES[number]] = sorted(n for n in names if n)
    missing = sorted(set(RULES.values()) - set(lists))
    if missing:
        raise SystemExit(f"no subtype list for {missing}")
    return lists


def render(lists: dict[str, list[str]]) -> str:
    return json.dumps({"_source": "Comprehensive Rules 205.3g-205.3n (tools/gensubtypes.py)",
                       **lists}, indent=1, ensure_ascii=False) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rules", type=Path, help="the Comprehensive Rules as text")
    parser.add_argument("--check", action="store_true", help="exit 1 if the file differs")
    args = parser.parse_args()
    text = render(parse(args.rules.read_text(encoding="utf-8")))
    if args.check:
        same = OUT.exists() and OUT.read_text(encoding="utf-8") == text
        print("subtypes.json is up to date" if same else "subtypes.json differs")
        return 0 if same else 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
