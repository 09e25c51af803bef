"""Declarative rules scenarios: set up a position, script every choice, assert the outcome.

The format is documented in ``tests/scenarios/README.md``. A scenario runs in *strict* mode:
each script step must answer the decision that is actually pending (the right seat, one of the
legal options); anything unexpected fails the scenario with a message saying what was pending.
Used by ``manawire scenario PATH...`` and by the test suite.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from server.cards import CardDataError, CardDef, card, demo_deck, demo_deck_names
from server.engine import (
    DecisionKind,
    Game,
    GameObject,
    IllegalActionError,
    PlayerSetup,
    Step,
    Zone,
    apply,
    blank_game,
    layers,
    new_game,
    settle,
)
from server.engine.actions import (
    Action,
    ActivateAbility,
    ActivateManaAbility,
    AssignCombatDamage,
    CastSpell,
    ChooseMode,
    ChooseOrder,
    ChooseReplacement,
    ChooseStartingPlayer,
    ChooseTarget,
    ChooseX,
    Concede,
    DeclareAttacker,
    DeclareBlocker,
    Decline,
    Discard,
    FinishAttackers,
    FinishBlockers,
    FinishTargets,
    KeepHand,
    KeepLegend,
    PassPriority,
    PayMana,
    PlayLand,
    PutOnBottom,
    ResetBlockers,
    Sacrifice,
    TakeMulligan,
)
from server.engine.zones import create_object
from server.view import SPECTATOR, project

__all__ = [
    "Scenario",
    "ScenarioError",
    "ScenarioFailure",
    "load_scenarios",
    "run_scenario",
]

RULE_ID = re.compile(r"^\d{3}(\.\d+[a-z]?)?$")
_TOP_KEYS = {"name", "rules", "players", "seed", "setup", "start", "script", "expect"}
_MAX_PASSES = 2000


class ScenarioError(ValueError):
    """A malformed scenario (a typo, an unknown card or key): the file must be fixed."""


class ScenarioFailure(AssertionError):
    """The engine did not behave as the scenario says the rules require."""


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


def load_scenarios(paths: Iterable[Path]) -> list[Scenario]:
    """Every scenario in the given files and directories (recursively), in file order."""
    out: list[Scenario] = []
    for path in _scenario_files(paths):
        try:
            docs = list(yaml.safe_load_all(path.read_text(encoding="utf-8")))
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


# --- building the position ------------------------------------------------------------------


class _Run:
    """The state of one scenario run: the game and the labels given to objects."""

    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario
        self.labels: dict[str, str] = {}
        #: label of an Aura/Equipment -> label of what it is attached to (set up last)
        self._attach: dict[str, str] = {}
        self.game = self._build()

    def fail(self, message: str) -> ScenarioFailure:
        return ScenarioFailure(f"{self.scenario.where}: {message}")

    def error(self, message: str) -> ScenarioError:
        return ScenarioError(f"{self.scenario.where}: {message}")

    def card(self, name: Any) -> CardDef:
        try:
            return card(str(name), include_test_cards=True)
        except CardDataError as exc:
            raise self.error(str(exc)) from None

    def _names(self) -> list[str]:
        players = self.scenario.data.get("players", 2)
        if isinstance(players, int) and not isinstance(players, bool):
            return [f"P{i}" for i in range(players)]
        if isinstance(players, list) and all(isinstance(p, str) for p in players):
            return [str(p) for p in players]
        raise self.error("'players' is a number of players or a list of names")

    def _seed(self) -> bytes:
        """The game seed: the scenario's ``seed`` (or name); a short one is stretched to the
        16 bytes a game seed needs by hashing it."""
        raw = str(self.scenario.data.get("seed", self.scenario.name)).encode()
        return raw if len(raw) >= 16 else hashlib.sha256(raw).digest()

    def _build(self) -> Game:
        data = self.scenario.data
        if "start" in data:
            return self._start(data["start"])
        setup = data["setup"]
        if not isinstance(setup, dict):
            raise self.error("'setup' is a mapping")
        _check_keys(self, "setup", setup, {"turn", "active", "step", "players", "exile",
                                           "command"})
        game = blank_game(self._seed(), self._names())
        game.turn = _int(self, setup.get("turn", 2), "setup.turn")
        game.active = _seat(self, game, setup.get("active", 0))
        game.starting_player = game.active
        game.step = _step(self, setup.get("step", "precombat_main"))
        players = setup.get("players", [])
        if not isinstance(players, list) or len(players) > len(game.players):
            raise self.error("setup.players is a list with one entry per player")
        for seat, spec in enumerate(players):
            self._player(game, seat, spec or {})
        for key, zone in (("exile", Zone.EXILE), ("command", Zone.COMMAND)):
            for spec in _list(self, setup.get(key, []), f"setup.{key}"):
                self._object(game, 0, zone, spec)
        for label, host in self._attach.items():
            if host not in self.labels:
                raise self.error(f"attached_to: unknown label {host!r}")
            game.objects[self.labels[label]].attached_to = self.labels[host]
        # Control-changing effects already in place (an Aura stealing a creature) are part of
        # the position, not a change during play: apply the layers once, then restore what
        # the setup says about summoning sickness (rule 302.6).
        since = {oid: obj.controlled_since for oid, obj in game.objects.items()}
        layers.refresh(game)
        for oid, turn in since.items():
            game.objects[oid].controlled_since = turn
        settle(game)
        return game

    def _start(self, spec: Any) -> Game:
        """A game from its very beginning (rule 103) with the given decks."""
        if not isinstance(spec, dict):
            raise self.error("'start' is a mapping")
        _check_keys(self, "start", spec, {"decks"})
        decks = _list(self, spec.get("decks"), "start.decks")
        names = self._names()
        if len(decks) != len(names):
            raise self.error("start.decks needs one deck per player")
        setups = []
        for name, deck in zip(names, decks, strict=True):
            if isinstance(deck, str) and deck in demo_deck_names():
                cards = demo_deck(deck)
            elif isinstance(deck, dict):
                cards = [self.card(n) for n, k in deck.items() for _ in range(_int(self, k, n))]
            else:
                raise self.error(f"deck {deck!r}: a demo deck name or a {{card: count}} mapping")
            setups.append(PlayerSetup(name, cards))
        return new_game(self._seed(), setups)

    def _player(self, game: Game, seat: int, spec: Any) -> None:
        if not isinstance(spec, dict):
            raise self.error(f"setup.players[{seat}] is a mapping")
        _check_keys(self, f"setup.players[{seat}]", spec, {
            "life", "poison", "library", "hand", "battlefield", "graveyard", "exile",
            "sideboard", "lands_played", "mana_pool", "max_hand_size"})
        player = game.player(seat)
        player.life = _int(self, spec.get("life", 20), "life", signed=True)
        player.poison = _int(self, spec.get("poison", 0), "poison")
        player.lands_played = _int(self, spec.get("lands_played", 0), "lands_played")
        player.max_hand_size = _int(self, spec.get("max_hand_size", 7), "max_hand_size")
        pool = str(spec.get("mana_pool", ""))
        for symbol in pool:
            if symbol not in "WUBRGC":
                raise self.error(f"mana_pool: unknown mana symbol {symbol!r}")
            player.mana_pool["WUBRGC".index(symbol)] += 1
        # Libraries are listed top first; the engine keeps the top last.
        for entry in reversed(_list(self, spec.get("library", []), "library")):
            self._object(game, seat, Zone.LIBRARY, entry)
        for key, zone in (("hand", Zone.HAND), ("battlefield", Zone.BATTLEFIELD),
                          ("graveyard", Zone.GRAVEYARD), ("exile", Zone.EXILE)):
            for entry in _list(self, spec.get(key, []), key):
                self._object(game, seat, zone, entry)
        player.sideboard = [self.card(n) for n in _list(self, spec.get("sideboard", []),
                                                        "sideboard")]

    def _object(self, game: Game, seat: int, zone: Zone, spec: Any) -> GameObject:
        if isinstance(spec, str):
            spec = {"card": spec}
        if not isinstance(spec, dict) or "card" not in spec:
            raise self.error(f"object {spec!r}: a card name or a mapping with 'card'")
        _check_keys(self, f"object {spec['card']!r}", spec, {
            "card", "label", "tapped", "sick", "counters", "damage", "attached_to", "owner",
            "face_down"})
        owner = _seat(self, game, spec.get("owner", seat))
        definition = self.card(spec["card"])
        if zone is Zone.BATTLEFIELD and not definition.is_permanent_card:
            raise self.error(f"{definition.name} can't be on the battlefield (rule 400.4a)")
        obj = create_object(game, definition, owner, zone)
        if zone is Zone.BATTLEFIELD:
            obj.controller = obj.base_controller = seat
            obj.tapped = bool(spec.get("tapped", False))
            # Rule 302.6: "sick" means it came under its controller's control this turn.
            obj.controlled_since = game.turn if spec.get("sick", False) else game.turn - 1
            obj.damage = _int(self, spec.get("damage", 0), "damage")
            counters = spec.get("counters", {})
            if not isinstance(counters, dict):
                raise self.error("counters is a mapping like {'+1/+1': 2}")
            for kind, n in counters.items():
                obj.counters[str(kind)] = _int(self, n, f"counters[{kind}]")
            if "attached_to" in spec:
                label = spec.get("label") or f"_auto{len(self.labels)}"
                spec = {**spec, "label": label}
                self._attach[label] = str(spec["attached_to"])
        obj.face_down = bool(spec.get("face_down", False)) and zone is Zone.EXILE
        label = spec.get("label")
        if label is not None:
            if str(label) in self.labels:
                raise self.error(f"label {label!r} used twice")
            self.labels[str(label)] = obj.id
        return obj

    # --- naming objects ---------------------------------------------------------------------

    def name_of(self, oid: str) -> str:
        obj = self.game.objects.get(oid)
        if obj is not None:
            return obj.card.name
        for trigger in self.game.pending_triggers:
            if trigger.id == oid:
                return trigger.card.name
        return f"<gone {oid}>"

    def refers(self, oid: str | None, ref: Any) -> bool:
        """Whether an object id is the object a script names (by label or card name)."""
        if oid is None:
            return False
        key = str(ref)
        if key in self.labels:
            return self.labels[key] == oid
        return self.name_of(oid) == key

    def describe(self, action: Action) -> str:
        parts = []
        for field in ("object_id", "attacker_id", "planeswalker_id"):
            oid = getattr(action, field, None)
            if isinstance(oid, str) and oid:
                parts.append(self.name_of(oid))
        for field in ("player", "seat", "defender", "value", "mode", "ability"):
            value = getattr(action, field, None)
            if value is not None:
                parts.append(f"{field}={value}")
        if isinstance(action, AssignCombatDamage):
            parts += [f"{self.name_of(o)}:{n}" for o, n in action.assignments]
        return f"{type(action).__name__}({', '.join(parts)})"

    def pending_text(self) -> str:
        d = self.game.pending
        if d is None:
            return "no decision (the game is over)" if self.game.result else "no decision"
        options = ", ".join(self.describe(a) for a in d.options[:12])
        more = f" (+{len(d.options) - 12} more)" if len(d.options) > 12 else ""
        return f"seat {d.seat} {d.kind.name}: [{options}{more}]"


def _check_keys(run: _Run, where: str, spec: dict[str, Any], allowed: set[str]) -> None:
    unknown = sorted(set(spec) - allowed)
    if unknown:
        raise run.error(f"{where}: unknown key(s) {unknown}")


def _int(run: _Run, value: Any, where: str, *, signed: bool = False) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or (value < 0 and not signed):
        raise run.error(f"{where}: expected a {'' if signed else 'non-negative '}integer")
    return value


def _list(run: _Run, value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise run.error(f"{where}: expected a list")
    return value


def _seat(run: _Run, game: Game, value: Any) -> int:
    seat = _int(run, value, "seat")
    if seat >= len(game.players):
        raise run.error(f"seat {seat}: there are only {len(game.players)} players")
    return seat


def _step(run: _Run, value: Any) -> Step:
    try:
        return Step[str(value).upper()]
    except KeyError:
        names = [s.name.lower() for s in Step]
        raise run.error(f"unknown step {value!r}; expected one of {names}") from None


def _kind(run: _Run, value: Any) -> DecisionKind:
    try:
        return DecisionKind[str(value).upper()]
    except KeyError:
        names = [k.name.lower() for k in DecisionKind]
        raise run.error(f"unknown decision kind {value!r}; expected one of {names}") from None


# --- the script -------------------------------------------------------------------------------

_ACTION_KEYS = {
    "pass", "play", "cast", "activate", "mode", "x", "target", "target_player",
    "finish_targets", "tap", "pay", "attack", "finish_attacks", "block", "finish_blocks",
    "assign", "discard", "choose_starting_player", "keep", "mulligan", "bottom", "order",
    "keep_legend", "sacrifice", "reset_blocks", "decline", "replacement",
}
_STEP_KEYS = _ACTION_KEYS | {"seat", "ability", "defender", "attacker", "pass_until", "check",
                             "expect_options", "concede", "damage", "times", "planeswalker",
                             "mana", "reset_blocks", "sacrifice"}


def _matcher(run: _Run, step: dict[str, Any]) -> Any:
    """A predicate over actions for a script step naming one action."""
    keys = [k for k in step if k in _ACTION_KEYS]
    if len(keys) != 1:
        raise run.error(f"step {step!r} must name exactly one action of {sorted(_ACTION_KEYS)}")
    key = keys[0]
    value = step[key]
    r = run.refers
    if key == "pay" and isinstance(value, str):
        # Rule 601.2h: exactly this mana, in any letter order.
        wanted = "".join(sorted(value, key="WUBRGC".find))
        return lambda a: isinstance(a, PayMana) and a.mana == wanted
    simple: dict[str, type[Action]] = {
        "pass": PassPriority, "finish_targets": FinishTargets, "pay": PayMana,
        "finish_attacks": FinishAttackers, "finish_blocks": FinishBlockers, "keep": KeepHand,
        "mulligan": TakeMulligan, "reset_blocks": ResetBlockers, "decline": Decline,
    }
    by_object: dict[str, type[Action]] = {
        "play": PlayLand, "cast": CastSpell, "tap": ActivateManaAbility, "discard": Discard,
        "bottom": PutOnBottom, "order": ChooseOrder, "keep_legend": KeepLegend,
        "sacrifice": Sacrifice,
    }
    if key in simple:
        cls = simple[key]
        return lambda a: isinstance(a, cls)
    if key == "tap" and "mana" in step:
        return lambda a: isinstance(a, ActivateManaAbility) and r(a.object_id, value) and \
            a.mana == step["mana"]
    if key in by_object:
        cls = by_object[key]
        return lambda a: isinstance(a, cls) and r(getattr(a, "object_id", None), value)
    if key == "activate":
        index = step.get("ability", 0)
        return lambda a: isinstance(a, ActivateAbility) and r(a.object_id, value) and \
            a.ability == index
    if key == "mode":
        return lambda a: isinstance(a, ChooseMode) and a.mode == value
    if key == "replacement":
        return lambda a: isinstance(a, ChooseReplacement) and a.replacement == value
    if key == "x":
        return lambda a: isinstance(a, ChooseX) and a.value == value
    if key == "target":
        return lambda a: isinstance(a, ChooseTarget) and a.object_id is not None and \
            r(a.object_id, value)
    if key == "target_player":
        return lambda a: isinstance(a, ChooseTarget) and a.player == value
    if key == "choose_starting_player":
        return lambda a: isinstance(a, ChooseStartingPlayer) and a.seat == value
    if key == "attack":
        defender = step.get("defender")
        walker = step.get("planeswalker")
        return lambda a: isinstance(a, DeclareAttacker) and r(a.object_id, value) and \
            (defender is None or a.defender == defender) and \
            (r(a.planeswalker_id, walker) if walker is not None else not a.planeswalker_id)
    if key == "block":
        attacker = step.get("attacker")
        return lambda a: isinstance(a, DeclareBlocker) and r(a.object_id, value) and \
            (attacker is None or r(a.attacker_id, attacker))
    # assign: {attacker: X, damage: [[blocker, n], ...]}
    spec = value if isinstance(value, dict) else {}
    pairs = spec.get("damage", [])

    def assign(a: Action) -> bool:
        if not isinstance(a, AssignCombatDamage) or not r(a.attacker_id, spec.get("attacker")):
            return False
        # "player" names what a trampler attacks (the engine's "" recipient, 702.19b).
        return len(a.assignments) == len(pairs) and all(
            (r(oid, want[0]) or (oid == "" and want[0] == "player")) and n == want[1]
            for (oid, n), want in zip(a.assignments, pairs, strict=True))

    return assign


def _do(run: _Run, step: dict[str, Any], index: int) -> None:
    game = run.game
    where = f"step {index + 1} {step!r}"
    unknown = sorted(set(step) - _STEP_KEYS)
    if unknown:
        raise run.error(f"{where}: unknown key(s) {unknown}")
    if "check" in step:
        _expect(run, step["check"], f"{where}: ")
        return
    if "expect_options" in step:
        _expect_options(run, step["expect_options"], where)
        return
    if "concede" in step:
        apply(game, _seat(run, game, step["concede"]), Concede())
        return
    if "pass_until" in step:
        _pass_until(run, step["pass_until"], where)
        return
    count = step["pass"] if "pass" in step and step["pass"] is not True else \
        step.get("times", 1)
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise run.error(f"{where}: 'pass: N' and 'times: N' take a positive number")
    match = _matcher(run, step)
    for _ in range(count):
        d = game.pending
        if d is None:
            raise run.fail(f"{where}: nothing is pending ({run.pending_text()})")
        if "seat" in step and d.seat != step["seat"]:
            raise run.fail(f"{where}: expected a decision for seat {step['seat']}, "
                           f"pending is {run.pending_text()}")
        chosen = next((a for a in d.options if match(a)), None)
        if chosen is None:
            raise run.fail(f"{where}: not a legal option; pending is {run.pending_text()}")
        try:
            apply(game, d.seat, chosen)
        except IllegalActionError as exc:  # pragma: no cover - options are legal
            raise run.fail(f"{where}: {exc}") from None


def _pass_until(run: _Run, spec: Any, where: str) -> None:
    """Pass priority (and declare no attackers or blockers) until the given step/turn.

    Any other decision met on the way fails the scenario: strict mode.
    """
    if not isinstance(spec, dict):
        raise run.error(f"{where}: pass_until is a mapping with 'step' (and 'turn')")
    step = _step(run, spec.get("step"))
    turn = spec.get("turn")
    game = run.game
    for _ in range(_MAX_PASSES):
        d = game.pending
        if d is None:
            raise run.fail(f"{where}: the game ended first ({game.result})")
        if game.step is step and (turn is None or game.turn == turn) and \
                d.kind is DecisionKind.PRIORITY:
            return
        quiet = {DecisionKind.PRIORITY: PassPriority(),
                 DecisionKind.DECLARE_ATTACKERS: FinishAttackers(),
                 DecisionKind.DECLARE_BLOCKERS: FinishBlockers()}.get(d.kind)
        if quiet is None or quiet not in d.options:
            raise run.fail(f"{where}: a decision the script did not answer: "
                           f"{run.pending_text()}")
        apply(game, d.seat, quiet)
    raise run.fail(f"{where}: did not reach {step.name.lower()}")


def _expect_options(run: _Run, spec: Any, where: str) -> None:
    if not isinstance(spec, dict):
        raise run.error(f"{where}: expect_options is a mapping")
    _check_keys(run, "expect_options", spec, {"seat", "kind", "include", "exclude", "count"})
    d = run.game.pending
    if d is None:
        raise run.fail(f"{where}: nothing is pending")
    if "seat" in spec and d.seat != spec["seat"]:
        raise run.fail(f"{where}: pending is {run.pending_text()}, not seat {spec['seat']}")
    if "kind" in spec and d.kind is not _kind(run, spec["kind"]):
        raise run.fail(f"{where}: pending is {run.pending_text()}, not {spec['kind']}")
    if "count" in spec and len(d.options) != spec["count"]:
        raise run.fail(f"{where}: {len(d.options)} options, not {spec['count']}: "
                       f"{run.pending_text()}")
    for item in _list(run, spec.get("include", []), "include"):
        if not any(_matcher(run, item)(a) for a in d.options):
            raise run.fail(f"{where}: {item!r} is not offered; pending is {run.pending_text()}")
    for item in _list(run, spec.get("exclude", []), "exclude"):
        if any(_matcher(run, item)(a) for a in d.options):
            raise run.fail(f"{where}: {item!r} is offered but must not be; "
                           f"pending is {run.pending_text()}")


# --- expectations -----------------------------------------------------------------------------

_EXPECT_KEYS = {"turn", "step", "active", "priority", "pending", "result", "players", "stack",
                "exile", "command", "views", "phase", "starting_player"}
_PLAYER_KEYS = {"life", "poison", "hand", "hand_count", "library", "library_count", "graveyard",
                "graveyard_count", "battlefield", "lost", "lands_played", "mulligans",
                "mana_pool", "sideboard"}
_OBJECT_KEYS = {"card", "tapped", "power", "toughness", "counters", "damage", "attached_to",
                "controller", "owner", "sick", "is", "is_not", "face_down", "label", "loyalty",
                "targets", "ability", "mode", "x", "keywords", "lacks", "subtypes", "token"}


def _expect(run: _Run, spec: Any, prefix: str = "") -> None:
    game = run.game
    if not isinstance(spec, dict):
        raise run.error(f"{prefix}expectations are a mapping")
    _check_keys(run, f"{prefix}expect", spec, _EXPECT_KEYS)

    def check(what: str, actual: Any, wanted: Any) -> None:
        if actual != wanted:
            raise run.fail(f"{prefix}{what} is {actual!r}, expected {wanted!r} "
                           f"(pending: {run.pending_text()})")

    if "turn" in spec:
        check("turn", game.turn, spec["turn"])
    if "step" in spec:
        check("step", game.step, _step(run, spec["step"]))
    if "active" in spec:
        check("active player", game.active, spec["active"])
    if "starting_player" in spec:
        check("starting player", game.starting_player, spec["starting_player"])
    if "phase" in spec:
        check("phase", game.phase.value, spec["phase"])
    if "priority" in spec:
        d = game.pending
        holder = d.seat if d is not None and d.kind is DecisionKind.PRIORITY else None
        check("priority", holder, spec["priority"])
    if "pending" in spec:
        _expect_pending(run, spec["pending"], check)
    if "result" in spec:
        _expect_result(run, spec["result"], check)
    players = spec.get("players", {})
    items = players.items() if isinstance(players, dict) else enumerate(players)
    for seat, pspec in items:
        _expect_player(run, _seat(run, game, seat), pspec or {}, check, prefix)
    if "stack" in spec:
        _match_objects(run, "stack", list(game.stack), spec["stack"], prefix, ordered=True)
    for key, ids in (("exile", game.exile), ("command", game.command)):
        if key in spec:
            _match_objects(run, key, list(ids), spec[key], prefix)
    for viewer, vspec in (spec.get("views") or {}).items():
        _expect_view(run, viewer, vspec or {}, prefix)


def _expect_pending(run: _Run, spec: Any, check: Any) -> None:
    d = run.game.pending
    if spec is None or spec == "none":
        check("pending decision", None if d is None else d.kind.name.lower(), None)
        return
    if not isinstance(spec, dict):
        raise run.error("pending is a mapping {seat, kind} or none")
    if d is None:
        raise run.fail(f"no decision is pending, expected {spec!r}")
    if "seat" in spec:
        check("pending seat", d.seat, spec["seat"])
    if "kind" in spec:
        check("pending kind", d.kind, _kind(run, spec["kind"]))


def _expect_result(run: _Run, spec: Any, check: Any) -> None:
    result = run.game.result
    if spec is None or spec == "none":
        check("result", result, None)
    elif spec == "draw":
        check("winners", None if result is None else result.winners, ())
    elif isinstance(spec, dict):
        if result is None:
            raise run.fail(f"the game is not over, expected {spec!r}")
        if "winners" in spec:
            check("winners", list(result.winners), list(spec["winners"]))
        if "reason_contains" in spec and str(spec["reason_contains"]) not in result.reason:
            raise run.fail(f"result reason {result.reason!r} lacks {spec['reason_contains']!r}")
    else:
        raise run.error("result is none, draw, or {winners: [...], reason_contains: ...}")


def _expect_player(run: _Run, seat: int, spec: Any, check: Any, prefix: str) -> None:
    game = run.game
    if not isinstance(spec, dict):
        raise run.error(f"{prefix}players[{seat}] is a mapping")
    _check_keys(run, f"players[{seat}]", spec, _PLAYER_KEYS)
    p = game.player(seat)
    simple = {"life": p.life, "poison": p.poison, "hand_count": len(p.hand),
              "graveyard_count": len(p.graveyard),
              "library_count": len(p.library), "lost": p.has_lost,
              "lands_played": p.lands_played, "mulligans": p.mulligans}
    for key, actual in simple.items():
        if key in spec:
            check(f"player {seat} {key}", actual, spec[key])
    if "mana_pool" in spec:
        pool = "".join(s * n for s, n in zip("WUBRGC", p.mana_pool, strict=True))
        check(f"player {seat} mana pool", pool, str(spec["mana_pool"] or ""))
    if "hand" in spec:
        names = sorted(run.name_of(i) for i in p.hand)
        check(f"player {seat} hand", names, sorted(str(n) for n in spec["hand"] or []))
    if "sideboard" in spec:
        check(f"player {seat} sideboard", sorted(c.name for c in p.sideboard),
              sorted(spec["sideboard"] or []))
    if "library" in spec:
        _match_objects(run, f"player {seat} library", list(reversed(p.library)),
                       spec["library"], prefix, ordered=True)
    if "graveyard" in spec:
        _match_objects(run, f"player {seat} graveyard", list(p.graveyard), spec["graveyard"],
                       prefix, ordered=True)
    if "battlefield" in spec:
        mine = [i for i in game.battlefield if game.objects[i].controller == seat]
        _match_objects(run, f"player {seat} battlefield", mine, spec["battlefield"], prefix)


def _object_matches(run: _Run, obj: GameObject, spec: dict[str, Any]) -> str | None:
    """None if ``obj`` matches ``spec``, else the first difference."""
    game = run.game
    if obj.ability is not None:
        name_ok = "ability" in spec and spec["ability"] and obj.card.name == spec["card"]
        if not name_ok:
            return "is an ability" if obj.card.name == spec["card"] else "name"
    elif spec.get("ability"):
        return "is not an ability"
    elif obj.card.name != spec["card"]:
        return "name"
    summoning_sick = obj.controlled_since >= game.turn
    actual: dict[str, Any] = {
        "tapped": obj.tapped, "power": obj.power, "toughness": obj.toughness,
        "damage": obj.damage, "controller": obj.controller, "owner": obj.owner,
        "sick": summoning_sick, "face_down": obj.face_down, "loyalty": obj.loyalty,
        "mode": obj.mode, "x": obj.x_value,
        "counters": {k: n for k, n in obj.counters.items() if n},
    }
    for key, value in actual.items():
        if key in spec and spec[key] != value:
            return f"{key} is {value!r}, not {spec[key]!r}"
    for keyword in spec.get("keywords", []) or []:
        if not obj.has(str(keyword)):
            return f"lacks {keyword}"
    for keyword in spec.get("lacks", []) or []:
        if obj.has(str(keyword)):
            return f"has {keyword}"
    for subtype in spec.get("subtypes", []) or []:
        if subtype not in obj.subtypes:
            return f"is not a {subtype}"
    if "token" in spec and obj.is_token != spec["token"]:
        return f"token is {obj.is_token}"
    if "attached_to" in spec:
        host = obj.attached_to
        wanted = spec["attached_to"]
        if (wanted is None) != (host is None) or (host is not None and not run.refers(host,
                                                                                     wanted)):
            return f"attached_to is {run.name_of(host) if host else None!r}"
    if "is" in spec and run.labels.get(str(spec["is"])) != obj.id:
        return f"is not the object labelled {spec['is']!r} (rule 400.7: a new object?)"
    if "is_not" in spec and run.labels.get(str(spec["is_not"])) == obj.id:
        return f"is still the object labelled {spec['is_not']!r}"
    if "targets" in spec:
        names = [run.name_of(str(v)) if k == "object" else f"player {v}"
                 for k, v in obj.targets]
        wanted_targets = [str(t) if not isinstance(t, int) else f"player {t}"
                          for t in spec["targets"]]
        if names != wanted_targets:
            return f"targets are {names!r}"
    return None


def _match_objects(run: _Run, what: str, ids: list[str], specs: Any, prefix: str,
                   *, ordered: bool = False) -> None:
    """Each spec matches a distinct object; no object is left over. ``ordered``: in order."""
    specs = [{"card": s} if isinstance(s, str) else s for s in _list(run, specs or [], what)]
    for spec in specs:
        if not isinstance(spec, dict) or "card" not in spec:
            raise run.error(f"{prefix}{what}: {spec!r} is a card name or a mapping with 'card'")
        _check_keys(run, f"{what} entry", spec, _OBJECT_KEYS)
    actual = [run.name_of(i) for i in ids]
    if len(specs) != len(ids):
        raise run.fail(f"{prefix}{what} is {actual}, expected {[s['card'] for s in specs]}")
    chosen: list[str] = []
    deepest = [0]

    def assign(n: int) -> bool:
        """Match specs to distinct objects in order, backtracking; a spec's ``label`` is
        visible to the specs after it."""
        if n == len(specs):
            return True
        deepest[0] = max(deepest[0], n)
        label = str(specs[n]["label"]) if "label" in specs[n] else None
        for oid in [ids[n]] if ordered else ids:
            if oid in chosen or _object_matches(run, run.game.objects[oid], specs[n]):
                continue
            chosen.append(oid)
            previous = run.labels.get(label) if label else None
            if label:
                run.labels[label] = oid
            if assign(n + 1):
                return True
            chosen.pop()
            if label:
                if previous is None:
                    del run.labels[label]
                else:
                    run.labels[label] = previous
        return False

    if not assign(0):
        spec = specs[deepest[0]]
        reasons = [f"{run.name_of(oid)}: {why}" for oid in ids
                   if (why := _object_matches(run, run.game.objects[oid], spec))]
        raise run.fail(f"{prefix}{what}: nothing matches {spec!r} among {actual} "
                       f"({'; '.join(reasons)})")



def _expect_view(run: _Run, viewer: Any, spec: Any, prefix: str) -> None:
    game = run.game
    seat = SPECTATOR if viewer == "spectator" else _seat(run, game, viewer)
    if not isinstance(spec, dict):
        raise run.error(f"{prefix}views[{viewer}] is a mapping")
    _check_keys(run, f"views[{viewer}]", spec, {"visible", "hidden", "hand_count",
                                                 "library_count", "face_down"})
    view = project(game, seat)
    names = [o.name for o in view.objects.values()]
    for name in spec.get("visible", []) or []:
        if name not in names:
            raise run.fail(f"{prefix}viewer {viewer} should see {name!r} but sees {names}")
    for name in spec.get("hidden", []) or []:
        if name in names:
            raise run.fail(f"{prefix}viewer {viewer} sees {name!r}, which is hidden from it")
    for key, attr in (("hand_count", "hand_count"), ("library_count", "library_count")):
        for s, n in (spec.get(key) or {}).items():
            actual = getattr(view.players[int(s)], attr)
            if actual != n:
                raise run.fail(f"{prefix}viewer {viewer} sees {key} {actual} for seat {s}, "
                               f"expected {n}")
    if "face_down" in spec:
        count = sum(1 for o in view.objects.values() if o.face_down)
        if count != spec["face_down"]:
            raise run.fail(f"{prefix}viewer {viewer} sees {count} face-down objects, "
                           f"expected {spec['face_down']}")


# --- running ----------------------------------------------------------------------------------


def run_scenario(scenario: Scenario) -> None:
    """Run one scenario; raises :class:`ScenarioFailure` or :class:`ScenarioError`."""
    run = _Run(scenario)
    for index, step in enumerate(scenario.data.get("script", []) or []):
        if not isinstance(step, dict):
            raise run.error(f"step {index + 1}: a step is a mapping, got {step!r}")
        _do(run, step, index)
    if "expect" in scenario.data:
        _expect(run, scenario.data["expect"])


def run_all(paths: Sequence[Path]) -> tuple[int, list[str]]:
    """Run every scenario under ``paths``: (number passed, failure messages)."""
    passed, failures = 0, []
    for scenario in load_scenarios(paths):
        try:
            run_scenario(scenario)
        except (ScenarioFailure, ScenarioError) as exc:
            failures.append(str(exc))
        else:
            passed += 1
    return passed, failures
