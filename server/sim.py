"""In-process simulation: random players play whole games against the engine.

``manawire sim`` uses this to measure engine throughput and to shake out rules bugs: every
game must end without an exception, without a decision that has no options (stuck) and
within an action budget (no infinite loop).

By default each game also goes through the served pipeline, as a room runs it
(:mod:`server.rooms.room`): one :class:`~server.view.track.GameTracker` per game, one
:class:`~server.view.stream.ViewStream` per seat plus one for spectators, every stream
advanced after every action, and every pending decision encoded
(:func:`~server.view.encode.encode_decision`) against the current view of the seat that must
make it -- so a simulation fails wherever a served game would (a decision naming an object
its viewer can't see, an encoding error, ...). ``encode=False`` plays the pure engine only,
to measure its throughput. ``check_views`` additionally compares every stream with a full
projection after every action (what a client's view hash would catch).

:func:`simulate_tables` plays every table of demo decks: every multiset of ``players``
decks -- for two players, every pairing, mirrors included (55 for the 10 demo decks).
"""

from __future__ import annotations

import json
import random
import time
import traceback
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from itertools import combinations_with_replacement

from server.cards import demo_deck, demo_deck_names
from server.engine import DecisionKind, Game, PlayerSetup, apply, new_game, zone_rules
from server.engine.actions import Action, Concede
from server.engine.events import Event
from server.view import project
from server.view.encode import encode_view, view_hash
from server.view.pipeline import ViewPipeline

#: A game still running after this many actions counts as an infinite loop.
ACTION_BUDGET = 50_000
#: The room id the simulated pipeline encodes into its messages.
ROOM_ID = "sim"


@dataclass(slots=True)
class SimReport:
    """What ``manawire sim`` prints, as one JSON line."""

    games: int = 0
    players: int = 2
    completed: int = 0
    errors: int = 0
    stuck: int = 0
    actions: int = 0
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)
    #: Whether the games went through the served pipeline (streams and decisions encoded).
    encoded: bool = True
    #: Decisions encoded for the seat that had to make them.
    decisions: int = 0
    #: Tables played (deck combinations, with ``--all-pairings``); 0: decks drawn at random.
    tables: int = 0
    #: The tables (decks by seat, joined by "+") where a game failed, each once.
    failed_tables: list[str] = field(default_factory=list)

    @property
    def actions_per_second(self) -> float:
        """Throughput: actions applied (and, if encoding, streamed) per second of wall time."""
        return self.actions / self.seconds if self.seconds else 0.0

    def to_json(self) -> str:
        """One JSON line with the figures (failures abbreviated to the first five)."""
        data = asdict(self)
        data["seconds"] = round(self.seconds, 3)
        data["actions_per_second"] = round(self.actions_per_second, 1)
        data["failures"] = self.failures[:5]
        return json.dumps(data)


@dataclass(frozen=True, slots=True)
class SimOptions:
    """How each game is played."""

    #: Run the served pipeline (streams advanced, decisions encoded); False: engine only.
    encode: bool = True
    #: Compare every stream with a full projection after every action (slow).
    check_views: bool = False
    #: Before each action, the chance that a random player still in the game concedes
    #: (rule 104.3a: any time) instead -- 0 never.
    concede_rate: float = 0.0


@dataclass(slots=True)
class GameOutcome:
    """One game's figures: actions applied, decisions encoded, failure (None: it ended)."""

    actions: int = 0
    decisions: int = 0
    failure: str | None = None


class Pipeline:
    """The served view pipeline (:class:`~server.view.pipeline.ViewPipeline`, the room's
    own) with the simulation's checks."""

    def __init__(self, game: Game, check_views: bool) -> None:
        self.check_views = check_views
        self.views = ViewPipeline(game)
        self.streams = self.views.streams
        for stream in self.streams.values():
            stream.snapshot(ROOM_ID)
        self._check(game)

    def decision(self, game: Game) -> None:
        """Encode the pending decision for its seat, against that seat's current view."""
        pending = game.pending
        assert pending is not None
        if game.players[pending.seat].has_lost:
            raise AssertionError(f"a decision for seat {pending.seat}, who has left the game "
                                 "(800.4a)")
        check_looks(game)
        if self.views.decision(game, pending.seat, ROOM_ID) is None:
            raise AssertionError(f"no decision encoded for seat {pending.seat}")

    def advance(self, game: Game, action: Action, events: list[Event]) -> None:
        """Find what changed once; advance every view class's stream by one delta."""
        self.views.advance(game, action, events)
        self._check(game)

    def finish(self) -> None:
        """A snapshot of the final state for every view class (a client joining late)."""
        for stream in self.streams.values():
            stream.snapshot(ROOM_ID)

    def _check(self, game: Game) -> None:
        if not self.check_views:
            return
        for viewer, stream in self.streams.items():
            full = project(game, viewer)
            if (stream.header, stream.players, stream.objects, stream.zones) != \
                    (full.header, full.players, full.objects, full.zones):
                raise AssertionError(f"viewer {viewer}: the stream differs from a full "
                                     "projection")
            if stream.digest.hash(viewer) != view_hash(encode_view(full)):
                raise AssertionError(f"viewer {viewer}: the view hash differs from the hash "
                                     "of a full projection")


def check_looks(game: Game) -> None:
    """Rule 701.20a: a card revealed or looked at is hidden again once the effect is done. So
    with priority, an empty stack and nothing resolving, the only cards still shown are
    face-down exiled cards their player may look at (406.3) and library tops played
    revealed (401.5)."""
    if game.pending is None or game.pending.kind is not DecisionKind.PRIORITY or game.stack \
            or game.resolving is not None or game.choices:
        return
    for look in game.looks:
        if look.source.startswith((zone_rules.EXILE_LOOK, zone_rules.TOP_LOOK)):
            continue
        shown = [i for i in look.ids if i in game.objects]
        if shown:
            raise AssertionError(f"cards still shown after their effect ({look.source!r}): "
                                 f"{[game.objects[i].card.name for i in shown]} (701.20a)")


def play_game(seed: int, decks: Sequence[str], options: SimOptions = SimOptions()
              ) -> GameOutcome:
    """Play one game with uniformly random legal choices, seat ``i`` playing ``decks[i]``.

    Exceptions propagate (the caller reports them with the seed)."""
    rng = random.Random(seed)
    setups = [PlayerSetup(f"bot{i}", demo_deck(name)) for i, name in enumerate(decks)]
    game = new_game(seed.to_bytes(16, "big"), setups)
    pipeline = Pipeline(game, options.check_views) if options.encode else None
    outcome = GameOutcome()
    for n in range(ACTION_BUDGET):
        outcome.actions = n
        if game.result is not None:
            if pipeline is not None:
                pipeline.finish()
            return outcome
        decision = game.pending
        if decision is None or not decision.options:
            outcome.failure = f"stuck at turn {game.turn} {game.step.name}: {decision}"
            return outcome
        if pipeline is not None:
            pipeline.decision(game)
            outcome.decisions += 1
        seat, action = decision.seat, rng.choice(decision.options)
        if options.concede_rate and rng.random() < options.concede_rate:
            seat, action = rng.choice(game.in_game()), Concede()  # rule 104.3a
        events = apply(game, seat, action)
        if pipeline is not None:
            pipeline.advance(game, action, events)
    outcome.actions = ACTION_BUDGET
    outcome.failure = f"no result after {ACTION_BUDGET} actions"
    return outcome


def _draw_decks(seed: int, players: int, decks: Sequence[str]) -> list[str]:
    """Each seat's deck drawn at random (from the game's seed) from ``decks``."""
    rng = random.Random(f"decks:{seed}")
    return [rng.choice(list(decks)) for _ in range(players)]


def reproduce_command(seed: int, decks: Sequence[str], options: SimOptions) -> str:
    """The ``manawire sim`` command line that plays this one game again."""
    parts = ["manawire sim --games 1", f"--seed {seed}", f"--players {len(decks)}"]
    parts += [f"--seat-deck {name}" for name in decks]
    if not options.encode:
        parts.append("--no-encode")
    if options.check_views:
        parts.append("--check-views")
    if options.concede_rate:
        parts.append(f"--concede-rate {options.concede_rate}")
    return " ".join(parts)


def _run(report: SimReport, seed: int, decks: Sequence[str], options: SimOptions) -> None:
    """Play one game into ``report``."""
    where = f"seed {seed} decks {'+'.join(decks)}"
    table = "+".join(decks)
    try:
        outcome = play_game(seed, decks, options)
    except Exception as exc:
        report.errors += 1
        again = reproduce_command(seed, decks, options)
        report.failures.append(f"{where}: {exc!r} (again: {again})\n{traceback.format_exc()}")
        if table not in report.failed_tables:
            report.failed_tables.append(table)
        return
    report.actions += outcome.actions
    report.decisions += outcome.decisions
    if outcome.failure is None:
        report.completed += 1
        return
    report.stuck += 1
    report.failures.append(f"{where}: {outcome.failure} "
                           f"(again: {reproduce_command(seed, decks, options)})")
    if table not in report.failed_tables:
        report.failed_tables.append(table)


def simulate(games: int, seed: int, players: int = 2, decks: list[str] | None = None, *,
             seat_decks: Sequence[str] | None = None,
             options: SimOptions = SimOptions()) -> SimReport:
    """Play ``games`` random games with seeds ``seed``, ``seed + 1``, ...

    Each seat's deck is drawn at random from ``decks`` (default: every demo deck), unless
    ``seat_decks`` fixes them (one per seat)."""
    chosen = decks or demo_deck_names()
    if seat_decks is not None and len(seat_decks) != players:
        raise ValueError(f"{len(seat_decks)} seat decks for {players} players")
    report = SimReport(games=games, players=players, encoded=options.encode)
    start = time.perf_counter()
    for i in range(games):
        table = list(seat_decks) if seat_decks is not None \
            else _draw_decks(seed + i, players, chosen)
        _run(report, seed + i, table, options)
    report.seconds = time.perf_counter() - start
    return report


def tables(players: int, decks: Sequence[str]) -> list[tuple[str, ...]]:
    """Every table of ``players`` decks from ``decks``, as a multiset (seat order doesn't
    matter: the starting player is chosen at random, rule 103.1). For two players these are
    the pairings, mirrors included: n(n+1)/2 of them."""
    return list(combinations_with_replacement(sorted(set(decks)), players))


def simulate_tables(games_per_table: int, seed: int, players: int = 2,
                    decks: list[str] | None = None, *,
                    options: SimOptions = SimOptions()) -> SimReport:
    """Play ``games_per_table`` games at every table of :func:`tables`; table ``k``'s games
    have seeds ``seed + k * games_per_table``, ``+ 1``, ..."""
    every = tables(players, decks or demo_deck_names())
    report = SimReport(games=games_per_table * len(every), players=players,
                       encoded=options.encode, tables=len(every))
    start = time.perf_counter()
    for k, table in enumerate(every):
        for j in range(games_per_table):
            _run(report, seed + k * games_per_table + j, table, options)
    report.seconds = time.perf_counter() - start
    return report
