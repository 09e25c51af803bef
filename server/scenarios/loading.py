"""Scenario files: loading, validation and the errors scenarios report."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

RULE_ID = re.compile(r"^\d{3}(\.\d+[a-z]?)?$")
_TOP_KEYS = {"name", "rules", "players", "seed", "setup", "start", "script", "expect"}


class ScenarioError(ValueError):
    """A malformed scenario (a typo, an unknown card or key): the file must be fixed."""


class ScenarioFailure(AssertionError):
    """The engine did not behave as the scenario says the rules require."""


class StartRejected(Exception):
    """The engine refused to start the game (``new_game`` raised) and the scenario expects
    that: ``expect: {start_rejected: "407.3"}``. ``reason`` is the engine's message."""

    def __init__(self, where: str, reason: str) -> None:
        super().__init__(f"{where}: {reason}")
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Scenario:
    """One scenario: a YAML document in a scenario file."""

    name: str
    rules: tuple[str, ...]
    path: Path
    index: int
    data: dict[str, Any]

    @property
    def where(self) -> str:
        """``file.yaml#2 (name)``, for messages."""
        return f"{self.path}#{self.index} ({self.name})"


def _scenario_files(paths: Iterable[Path]) -> Iterator[Path]:
    for path in paths:
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.suffix in (".yaml", ".yml"))
        elif path.is_file():
            yield path
        else:
            raise ScenarioError(f"{path}: no such file or directory")


#: libyaml's parser where PyYAML has it (it reads the 2,000-odd scenarios 8x faster: 0.6 s
#: against 5 s, a cost every test worker paid as it collected them), else the pure-Python one;
#: both build the same documents (the resolvers, below, are PyYAML's own either way).
_SAFE_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class ScenarioLoader(_SAFE_LOADER):  # type: ignore[valid-type,misc]
    """YAML without floats: a rule number such as ``707.10`` stays the string "707.10"
    instead of becoming the float 707.1 (no scenario field is a fraction)."""


ScenarioLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:float"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def load_scenarios(paths: Iterable[Path]) -> list[Scenario]:
    """Every scenario in the given files and directories (recursively), in file order."""
    out: list[Scenario] = []
    for path in _scenario_files(paths):
        try:
            docs = list(yaml.load_all(path.read_text(encoding="utf-8"), Loader=ScenarioLoader))
        except yaml.YAMLError as exc:
            raise ScenarioError(f"{path}: not valid YAML: {exc}") from None
        for index, doc in enumerate(d for d in docs if d is not None):
            out.append(_validate(path, index, doc))
    return out


def _validate(path: Path, index: int, doc: Any) -> Scenario:
    where = f"{path}#{index}"
    if not isinstance(doc, dict):
        raise ScenarioError(f"{where}: a scenario is a mapping")
    unknown = sorted(set(doc) - _TOP_KEYS)
    if unknown:
        raise ScenarioError(f"{where}: unknown key(s) {unknown}")
    name = doc.get("name")
    if not isinstance(name, str) or not name:
        raise ScenarioError(f"{where}: 'name' is required")
    rules = doc.get("rules")
    if not isinstance(rules, list) or not rules:
        raise ScenarioError(f"{where} ({name}): 'rules' must list the rules it checks")
    rule_ids = tuple(str(r) for r in rules)
    for rule in rule_ids:
        if not RULE_ID.match(rule):
            raise ScenarioError(f"{where} ({name}): {rule!r} is not a rule number like 704.5g")
    if ("setup" in doc) == ("start" in doc):
        raise ScenarioError(f"{where} ({name}): give exactly one of 'setup' or 'start'")
    if not isinstance(doc.get("script", []), list):
        raise ScenarioError(f"{where} ({name}): 'script' must be a list of steps")
    return Scenario(name, rule_ids, path, index, doc)
