"""Every rule of the seed documents is mapped to a current rule and guarded by a scenario.

The seed documents (``tests/scenarios/seeds/*.txt``, see its README) define 149 rule ids: 48
keyword-action rules 701.x numbered as in 2009, and the current rules 400-408 and 700.x.
``seed_rules.csv`` maps each one to its current Comprehensive Rules number and a status:

* ``scenario``: the current rule has game behaviour, so at least one scenario in
  ``tests/scenarios/*.yaml`` must cite it in its ``rules:`` list;
* ``informational: <reason>``: the rule merely states history or terminology (at most 12);
* ``pending: <what is missing>``: behaviour not built yet -- an open gap, listed by
  :func:`test_pending_rows_are_reported` and refused as soon as a scenario cites the rule (the
  row must then say ``scenario``).

A failure names the exact rows concerned (``seed_file:seed_rule -> current_rule``).
"""

from __future__ import annotations

import csv
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from server.scenarios.loading import ScenarioLoader
from tests.scenarios.every import every_scenario

HERE = Path(__file__).parent
SEEDS = HERE / "seeds"
CSV_PATH = HERE / "seed_rules.csv"
HEADER = ["seed_file", "seed_rule", "current_rule", "status"]
INFORMATIONAL = "informational: "
PENDING = "pending: "
MAX_INFORMATIONAL = 12

# The seed file names, with how many rule ids each defines (a guard against a parser that
# silently misses lines).
SEED_FILES = {
    "000_a2c0ef48c1a31ab4.txt": 48,  # keyword actions 701.x, 2009 numbering
    "002_b95116463d8ca7ef.txt": 78,  # zones 400-408, current numbering
    "003_44a162d7d50861d5.txt": 23,  # general rules 700.x, current numbering
}
KEYWORD_ACTIONS_2009 = "000_a2c0ef48c1a31ab4.txt"

# A line defining a rule: the id at the very start, optionally after a bullet. "400. Zones" (a
# heading) and indented "Example:" lines define none.
SEED_RULE_LINE = re.compile(r"^(?:\u2022 )?(\d{3}\.\d+[a-z]?)(?=[\s.])")
RULE_NUMBER = re.compile(r"^\d{3}\.\d+[a-z]?$")


@dataclass(frozen=True, slots=True)
class Row:
    """One row of ``seed_rules.csv``."""

    line: int
    seed_file: str
    seed_rule: str
    current_rule: str
    status: str

    @property
    def key(self) -> tuple[str, str]:
        return (self.seed_file, self.seed_rule)

    @property
    def informational(self) -> bool:
        return self.status.startswith(INFORMATIONAL)

    def __str__(self) -> str:
        return f"{self.seed_file}:{self.seed_rule} -> {self.current_rule}"


def seed_rule_ids(path: Path) -> list[str]:
    """The rule ids a seed document defines, in file order."""
    ids = []
    for line in path.read_text(encoding="utf-8").splitlines():
        match = SEED_RULE_LINE.match(line)
        if match:
            ids.append(match.group(1))
    return ids


def seed_keys() -> list[tuple[str, str]]:
    """``(seed_file, seed_rule)`` for every rule id in the seed copies, in file order."""
    return [(name, rule) for name in SEED_FILES for rule in seed_rule_ids(SEEDS / name)]


def read_header() -> list[str]:
    with CSV_PATH.open(encoding="utf-8", newline="") as handle:
        return next(csv.reader(handle), [])


def read_rows() -> list[Row]:
    with CSV_PATH.open(encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle)
        next(reader, None)
        return [
            Row(reader.line_num, *(cell.strip() for cell in record))
            for record in reader
            if len(record) == len(HEADER)
        ]


def scenario_files() -> list[Path]:
    return sorted(HERE.glob("*.yaml"))


def cited_rules() -> dict[str, list[str]]:
    """Each rule number cited in a ``rules:`` list, and the scenarios (``file#index``) citing it."""
    cited: dict[str, list[str]] = {}
    files = set(scenario_files())  # (of the scenarios every test loads: those files')
    for scenario in (s for s in every_scenario() if s.path in files):
        for rule in scenario.rules:
            cited.setdefault(rule, []).append(scenario.where)
    return cited


def _loader_rules(text: str) -> list[object]:
    """The ``rules`` list of a YAML document, read the way the scenario harness reads it."""
    doc = yaml.load(text, Loader=ScenarioLoader)
    rules = doc.get("rules", []) if isinstance(doc, dict) else []
    return list(rules)


ROWS = read_rows()
SCENARIO_ROWS = [row for row in ROWS if row.status == "scenario"]
CITED = cited_rules()


def uncovered(rows: list[Row]) -> list[Row]:
    return [row for row in rows if row.current_rule not in CITED]


def uncovered_message(rows: list[Row]) -> str:
    missing = uncovered(rows)
    return (f"{len(missing)} 'scenario' row(s) of seed_rules.csv whose current rule no scenario "
            "in tests/scenarios/*.yaml cites:\n" + "\n".join(f"  {row}" for row in missing))


# --- (a) the CSV lists exactly the seed rule ids ------------------------------------------------


def test_seed_copies_define_149_rule_ids() -> None:
    counts = {name: len(seed_rule_ids(SEEDS / name)) for name in SEED_FILES}
    assert counts == SEED_FILES
    assert sum(counts.values()) == 149


def test_every_seed_rule_id_is_in_the_csv() -> None:
    listed = {row.key for row in ROWS}
    missing = [f"{name}:{rule}" for name, rule in seed_keys() if (name, rule) not in listed]
    assert not missing, f"seed rule ids missing from seed_rules.csv: {missing}"


def test_the_csv_has_no_id_that_is_not_in_the_seeds() -> None:
    seeds = set(seed_keys())
    extra = [f"line {row.line}: {row}" for row in ROWS if row.key not in seeds]
    assert not extra, f"seed_rules.csv rows that no seed file defines: {extra}"


def test_the_csv_has_no_duplicate_row() -> None:
    counts = Counter(row.key for row in ROWS)
    duplicates = [f"{name}:{rule} x{n}" for (name, rule), n in counts.items() if n > 1]
    assert not duplicates, f"duplicate rows in seed_rules.csv: {duplicates}"


def test_the_csv_rows_follow_the_seed_file_order() -> None:
    assert [row.key for row in ROWS] == seed_keys()


def test_rules_400_to_408_and_700_keep_their_seed_numbers() -> None:
    # Only the 2009 keyword-action document (701.x) predates the current numbering.
    moved = [str(row) for row in ROWS
             if row.seed_file != KEYWORD_ACTIONS_2009 and row.current_rule != row.seed_rule]
    assert not moved, f"rows of current-numbered seeds mapped to another number: {moved}"


def test_2009_keyword_actions_map_to_current_701_rules() -> None:
    wrong = [str(row) for row in ROWS
             if row.seed_file == KEYWORD_ACTIONS_2009 and not row.current_rule.startswith("701.")]
    assert not wrong, f"2009 keyword actions must map to a current 701 rule: {wrong}"
    counts = Counter(row.current_rule for row in ROWS if row.seed_file == KEYWORD_ACTIONS_2009)
    shared = sorted(rule for rule, n in counts.items() if n > 1)
    assert not shared, f"two 2009 rules mapped to the same current rule: {shared}"


# --- (b) header and status ----------------------------------------------------------------------


def test_the_csv_header() -> None:
    assert read_header() == HEADER


def test_every_row_has_four_columns() -> None:
    with CSV_PATH.open(encoding="utf-8", newline="") as handle:
        bad = [n for n, record in enumerate(csv.reader(handle), start=1) if len(record) != 4]
    assert not bad, f"seed_rules.csv lines without exactly 4 columns: {bad}"


def test_rule_numbers_are_well_formed() -> None:
    bad = [f"line {row.line}: {row}" for row in ROWS
           if not (RULE_NUMBER.match(row.seed_rule) and RULE_NUMBER.match(row.current_rule))]
    assert not bad, f"malformed rule numbers: {bad}"


def test_status_is_scenario_or_informational_with_a_reason() -> None:
    bad = [f"line {row.line}: {row} status {row.status!r}" for row in ROWS
           if row.status != "scenario"
           and not (row.informational and row.status[len(INFORMATIONAL):].strip())
           and not (row.status.startswith(PENDING) and row.status[len(PENDING):].strip())]
    assert not bad, (f"status must be 'scenario', 'informational: <reason>' or "
                     f"'pending: <what is missing>': {bad}")


def test_pending_rows_are_reported() -> None:
    # Open gaps stay visible in the test output; a pending rule a scenario now cites must be
    # marked 'scenario' so the coverage tests guard it.
    pending = [row for row in ROWS if row.status.startswith(PENDING)]
    cited = [str(row) for row in pending if row.current_rule in CITED]
    assert not cited, f"pending rows that scenarios now cite (mark them 'scenario'): {cited}"
    print(f"{len(pending)} pending seed rule(s): {[str(row) for row in pending]}")


# --- (c) informational rows are the exception ---------------------------------------------------


def test_at_most_12_rows_are_informational() -> None:
    informational = [str(row) for row in ROWS if row.informational]
    assert len(informational) <= MAX_INFORMATIONAL, \
        f"{len(informational)} informational rows (at most {MAX_INFORMATIONAL}): {informational}"


# --- (d) every `scenario` row is cited by a scenario --------------------------------------------


def test_rule_numbers_ending_in_zero_are_read_as_written() -> None:
    # The harness reads YAML without floats, so an unquoted 700.10 stays "700.10" (as a
    # plain YAML float it would be 700.1 and silently cite another rule).
    assert "700.10" in {str(r) for r in _loader_rules("rules: [700.10]")}


def test_scenarios_are_parsed_by_libyaml_where_pyyaml_has_it_into_the_same_documents() -> None:
    """The pure-Python parser took 5 s for the 2,000-odd scenarios, paid by every test
    worker collecting them (libyaml: 0.6 s); the documents are the same (one file compared,
    its rule numbers ending in zero among them)."""
    if not yaml.__with_libyaml__:
        pytest.skip("this PyYAML has no libyaml")
    assert issubclass(ScenarioLoader, yaml.CSafeLoader)

    class PurePython(yaml.SafeLoader):
        pass

    PurePython.yaml_implicit_resolvers = ScenarioLoader.yaml_implicit_resolvers
    text = (Path(__file__).parent / "zones.yaml").read_text(encoding="utf-8")
    assert list(yaml.load_all(text, Loader=ScenarioLoader)) == \
        list(yaml.load_all(text, Loader=PurePython))


@pytest.mark.parametrize("row", SCENARIO_ROWS, ids=[
    f"{row.seed_rule}->{row.current_rule}" for row in SCENARIO_ROWS])
def test_seed_rule_is_cited_by_a_scenario(row: Row) -> None:
    assert row.current_rule in CITED, (
        f"{row} (seed_rules.csv line {row.line}) is 'scenario' but no scenario in "
        f"tests/scenarios/*.yaml cites {row.current_rule}")


def _rows_of(seed_file: str) -> list[Row]:
    return [row for row in SCENARIO_ROWS if row.seed_file == seed_file]


def test_keyword_action_rules_701_all_cited() -> None:
    rows = _rows_of(KEYWORD_ACTIONS_2009)
    assert not uncovered(rows), uncovered_message(rows)


def test_zone_rules_400_to_408_all_cited() -> None:
    rows = _rows_of("002_b95116463d8ca7ef.txt")
    assert not uncovered(rows), uncovered_message(rows)


def test_general_rules_700_all_cited() -> None:
    rows = _rows_of("003_44a162d7d50861d5.txt")
    assert not uncovered(rows), uncovered_message(rows)
