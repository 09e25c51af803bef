"""Building a scenario's position: a game from ``setup`` or ``start``, and the labels and
names the script and expectations use."""

from __future__ import annotations

import hashlib
from typing import Any

from server.cards import CardDataError, CardDef, card, demo_deck, demo_deck_names
from server.engine import (
    DecisionKind,
    Game,
    GameObject,
    PlayerSetup,
    Step,
    Zone,
    blank_game,
    layers,
    new_game,
    settle,
)
from server.engine.actions import (
    Action,
    AssignCombatDamage,
)
from server.engine.ante import Ante, AnteError, validate_ante_cards
from server.engine.events import Event
from server.engine.zones import create_object
from server.scenarios import variants
from server.scenarios.loading import Scenario, ScenarioError, ScenarioFailure, StartRejected


class Run:
    """The state of one scenario run: the game and the labels given to objects."""

    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario
        self.labels: dict[str, str] = {}
        #: label of an Aura/Equipment -> label of what it is attached to (set up last)
        self._attach: dict[str, str] = {}
        #: The events of the last action a script step applied.
        self.last_events: list[Event] = []
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
        check_keys(self, "setup", setup, {"turn", "active", "step", "players", "exile",
                                           "command", "planechase", "ante"})
        game = blank_game(self._seed(), self._names())
        game.turn = as_int(self, setup.get("turn", 2), "setup.turn")
        game.active = as_seat(self, game, setup.get("active", 0))
        # Each player's most recent turn (302.6), the players taking turns in seat order.
        players = len(game.players)
        for seat in range(players):
            last = game.turn - (game.active - seat) % players
            if last >= 1:
                game.last_turn_of[seat] = last
        game.starting_player = game.active
        game.step = as_step(self, setup.get("step", "precombat_main"))
        players = setup.get("players", [])
        if not isinstance(players, list) or len(players) > len(game.players):
            raise self.error("setup.players is a list with one entry per player")
        for seat, spec in enumerate(players):
            self._player(game, seat, spec or {})
        for key, zone in (("exile", Zone.EXILE), ("command", Zone.COMMAND)):
            for spec in as_list(self, setup.get(key, []), f"setup.{key}"):
                self._object(game, 0, zone, spec)
        if setup.get("ante", False):  # rule 407
            game.variants.append(Ante())
        else:  # rule 407.3: ante cards exist only in ante games
            try:
                for seat, player in enumerate(game.players):
                    validate_ante_cards(seat, [*(o.card for o in game.objects.values()
                                                 if o.owner == seat), *player.sideboard],
                                        False)
            except AnteError as exc:
                raise self.error(f"{exc}; add 'ante: true' to the setup") from None
        if "planechase" in setup:  # rule 901
            variants.setup_planechase(self, game, setup["planechase"])
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
        check_keys(self, "start", spec, {"decks", "planar_decks", "ante"})
        decks = as_list(self, spec.get("decks"), "start.decks")
        names = self._names()
        if len(decks) != len(names):
            raise self.error("start.decks needs one deck per player")
        setups = []
        for name, deck in zip(names, decks, strict=True):
            if isinstance(deck, str) and deck in demo_deck_names():
                cards = demo_deck(deck)
            elif isinstance(deck, dict):
                cards = [self.card(n) for n, k in deck.items() for _ in range(as_int(self, k, n))]
            else:
                raise self.error(f"deck {deck!r}: a demo deck name or a {{card: count}} mapping")
            setups.append(PlayerSetup(name, cards))
        planar_decks = as_list(self, spec.get("planar_decks", []), "start.planar_decks")
        for i, names in enumerate(planar_decks[:len(setups)]):
            setups[i] = PlayerSetup(setups[i].name, setups[i].deck, planar_deck=[
                variants.plane_card(self, n) for n in reversed(as_list(self, names, "deck"))])
        try:
            return new_game(self._seed(), setups, planechase=bool(planar_decks),
                            ante=bool(spec.get("ante", False)))
        except ValueError as exc:  # rules 901.3, 407.3: a deck the variant doesn't allow
            expect = self.scenario.data.get("expect")
            if isinstance(expect, dict) and "start_rejected" in expect:
                raise StartRejected(self.scenario.where, str(exc)) from None
            raise self.error(str(exc)) from None

    def _player(self, game: Game, seat: int, spec: Any) -> None:
        if not isinstance(spec, dict):
            raise self.error(f"setup.players[{seat}] is a mapping")
        check_keys(self, f"setup.players[{seat}]", spec, {
            "life", "poison", "library", "hand", "battlefield", "graveyard", "exile",
            "sideboard", "lands_played", "mana_pool", "max_hand_size", "ante"})
        player = game.player(seat)
        player.life = as_int(self, spec.get("life", 20), "life", signed=True)
        player.poison = as_int(self, spec.get("poison", 0), "poison")
        player.lands_played = as_int(self, spec.get("lands_played", 0), "lands_played")
        player.max_hand_size = as_int(self, spec.get("max_hand_size", 7), "max_hand_size")
        pool = str(spec.get("mana_pool", ""))
        for symbol in pool:
            if symbol not in "WUBRGC":
                raise self.error(f"mana_pool: unknown mana symbol {symbol!r}")
            player.mana_pool["WUBRGC".index(symbol)] += 1
        # Libraries are listed top first; the engine keeps the top last.
        for entry in reversed(as_list(self, spec.get("library", []), "library")):
            self._object(game, seat, Zone.LIBRARY, entry)
        for key, zone in (("hand", Zone.HAND), ("battlefield", Zone.BATTLEFIELD),
                          ("graveyard", Zone.GRAVEYARD), ("exile", Zone.EXILE)):
            for entry in as_list(self, spec.get(key, []), key):
                self._object(game, seat, zone, entry)
        player.sideboard = [self.card(n) for n in as_list(self, spec.get("sideboard", []),
                                                        "sideboard")]
        for entry in as_list(self, spec.get("ante", []), "ante"):  # rules 400.1, 407.2
            self._object(game, seat, Zone.ANTE, entry)

    def _object(self, game: Game, seat: int, zone: Zone, spec: Any) -> GameObject:
        if isinstance(spec, str):
            spec = {"card": spec}
        if not isinstance(spec, dict) or "card" not in spec:
            raise self.error(f"object {spec!r}: a card name or a mapping with 'card'")
        check_keys(self, f"object {spec['card']!r}", spec, {
            "card", "label", "tapped", "sick", "counters", "damage", "attached_to", "owner",
            "face_down"})
        owner = as_seat(self, game, spec.get("owner", seat))
        definition = self.card(spec["card"])
        if zone is Zone.BATTLEFIELD and not definition.is_permanent_card:
            raise self.error(f"{definition.name} can't be on the battlefield (rule 400.4a)")
        obj = create_object(game, definition, owner, zone)
        if zone is Zone.BATTLEFIELD:
            obj.controller = obj.base_controller = seat
            obj.tapped = bool(spec.get("tapped", False))
            # Rule 302.6: "sick" means it came under its controller's control this turn;
            # otherwise it has been since before any player's last turn began (-1: before
            # the game, as a position's players may not all have had a turn by its `turn`).
            obj.controlled_since = game.turn if spec.get("sick", False) else -1
            obj.damage = as_int(self, spec.get("damage", 0), "damage")
            counters = spec.get("counters", {})
            if not isinstance(counters, dict):
                raise self.error("counters is a mapping like {'+1/+1': 2}")
            for kind, n in counters.items():
                obj.counters[str(kind)] = as_int(self, n, f"counters[{kind}]")
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
        if oid == "":  # a combat damage assignment's recipient: not an object (510.1c-d)
            return "<the player or planeswalker it attacks>"
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


def check_keys(run: Run, where: str, spec: dict[str, Any], allowed: set[str]) -> None:
    unknown = sorted(set(spec) - allowed)
    if unknown:
        raise run.error(f"{where}: unknown key(s) {unknown}")


def as_int(run: Run, value: Any, where: str, *, signed: bool = False) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or (value < 0 and not signed):
        raise run.error(f"{where}: expected a {'' if signed else 'non-negative '}integer")
    return value


def as_list(run: Run, value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise run.error(f"{where}: expected a list")
    return value


def as_seat(run: Run, game: Game, value: Any) -> int:
    seat = as_int(run, value, "seat")
    if seat >= len(game.players):
        raise run.error(f"seat {seat}: there are only {len(game.players)} players")
    return seat


def as_step(run: Run, value: Any) -> Step:
    try:
        return Step[str(value).upper()]
    except KeyError:
        names = [s.name.lower() for s in Step]
        raise run.error(f"unknown step {value!r}; expected one of {names}") from None


def as_kind(run: Run, value: Any) -> DecisionKind:
    try:
        return DecisionKind[str(value).upper()]
    except KeyError:
        names = [k.name.lower() for k in DecisionKind]
        raise run.error(f"unknown decision kind {value!r}; expected one of {names}") from None
