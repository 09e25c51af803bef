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

A seat's deck (:data:`DeckSpec`) is a demo deck's name, a :class:`SimDeck` (a deck with the
label that names it in reports -- ``manawire sim --deck FILE`` labels a file's deck with its
path), a :class:`server.decks.Deck` or a plain list of cards.

Timings (in the report, microseconds, percentiles by nearest rank):

- ``apply``: the wall time of each :func:`server.engine.apply` call -- the action itself and
  everything up to the next decision, including building that decision's options (which this
  engine does eagerly, when it poses the decision);
- ``legal_actions``: the time to build the options of each pending priority decision,
  measured by rebuilding them with the engine's own builder
  (:func:`server.engine.game.priority_options`) right after the engine posed the decision --
  and checked: a rebuilt tuple that differs from the decision's options fails the game. This
  measurement is subtracted from ``seconds``, so ``actions_per_s`` and ``games_per_s`` stay
  the engine's (and, unless ``encode=False``, the pipeline's) throughput.

Samples are kept as a histogram of 3 significant digits (exact below 1 µs), so memory stays
bounded however many games are played.

:func:`simulate_tables` plays every table of decks: every multiset of ``players`` decks --
for two players, every pairing, mirrors included (55 for the 10 demo decks).
"""

from __future__ import annotations

import json
import math
import random
import shlex
import time
import traceback
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields
from itertools import combinations_with_replacement
from typing import TypeVar

from server.benchengine import UNDO_OPTIONS
from server.cards import CardDef, demo_deck, demo_deck_names
from server.decks import Deck
from server.engine import DecisionKind, Game, PlayerSetup, apply, new_game, zone_rules
from server.engine.actions import Action, Concede
from server.engine.events import Event
from server.engine.game import priority_options
from server.view import project
from server.view.encode import encode_view, view_hash
from server.view.pipeline import ViewPipeline

#: A game still running after this many actions counts as an infinite loop.
ACTION_BUDGET = 50_000
#: The room id the simulated pipeline encodes into its messages.
ROOM_ID = "sim"


@dataclass(frozen=True, slots=True)
class SimDeck:
    """A resolved deck and its ``label``: what names it in reports and in the command that
    replays a failed game (``manawire sim --deck FILE`` uses the file's path)."""

    label: str
    main: tuple[CardDef, ...]
    sideboard: tuple[CardDef, ...] = ()


#: A seat's deck: a demo deck's name, a labelled deck, a deck list's deck or a list of cards.
DeckSpec = str | SimDeck | Deck | Sequence[CardDef]
D = TypeVar("D", bound=DeckSpec)


def random_option(rng: random.Random, options: Sequence[Action]) -> Action:
    """A uniformly random legal option -- never a "start over" one (while another is
    offered): a random player undoing its declarations only redoes them and lengthens its
    games (1,084 actions a game instead of 876 once attacks could be started over), which
    measures the policy, not the engine; phase-python's declarations have no undo either.
    The options are :data:`server.benchengine.UNDO_OPTIONS`, by name (that benchmark plays
    older checkouts with them too)."""
    kept = [o for o in options if type(o).__name__ not in UNDO_OPTIONS]
    return rng.choice(kept or options)


def deck_label(deck: DeckSpec) -> str:
    """How ``deck`` is named in reports: a demo deck's name, a :class:`SimDeck`'s label, a
    deck list's name (``"deck"`` if it has none), ``"cards"`` for a list of cards."""
    if isinstance(deck, str):
        return deck
    if isinstance(deck, SimDeck):
        return deck.label
    if isinstance(deck, Deck):
        return deck.name or "deck"
    return "cards"


def _setup(seat: int, deck: DeckSpec) -> PlayerSetup:
    name = f"bot{seat}"
    if isinstance(deck, str):
        return PlayerSetup(name, demo_deck(deck))
    if isinstance(deck, SimDeck | Deck):
        return PlayerSetup(name, deck.main, deck.sideboard)
    return PlayerSetup(name, list(deck))


class Timings:
    """Durations in nanoseconds, as a histogram: each sample rounded to 3 significant digits
    (exact below 1 µs), so memory is bounded (about 900 buckets a decade)."""

    __slots__ = ("counts", "samples")

    def __init__(self) -> None:
        self.counts: Counter[int] = Counter()
        self.samples = 0

    def add(self, durations: Iterable[int]) -> None:
        counts = self.counts
        for ns in durations:
            scale = 10 ** (len(str(ns)) - 3) if ns >= 1000 else 1
            counts[(ns + scale // 2) // scale * scale] += 1
            self.samples += 1

    def percentile_us(self, p: float) -> float:
        """The ``p``-th percentile (0 < p <= 100) by nearest rank, in µs (0.0: no samples)."""
        if not self.samples:
            return 0.0
        rank = max(1, math.ceil(p / 100 * self.samples))
        seen = 0
        for ns in sorted(self.counts):
            seen += self.counts[ns]
            if seen >= rank:
                return ns / 1000
        raise AssertionError("unreachable: the ranks add up to the samples")


#: SimReport fields kept out of its JSON line (raw material of the printed figures).
_INTERNAL = frozenset({"turns_total", "apply_ns", "legal_actions_ns"})


@dataclass(slots=True)
class SimReport:
    """What ``manawire sim`` prints, as one JSON line."""

    games: int = 0
    players: int = 2
    completed: int = 0
    errors: int = 0
    stuck: int = 0
    actions: int = 0
    #: Wall time of the games, less the ``legal_actions`` measurement.
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)
    #: Whether the games went through the served pipeline (streams and decisions encoded).
    encoded: bool = True
    #: Decisions encoded for the seat that had to make them.
    decisions: int = 0
    #: Tables played (deck combinations, with ``--all-pairings``); 0: not by tables.
    tables: int = 0
    #: The tables (decks by seat, joined by "+") where a game failed, each once.
    failed_tables: list[str] = field(default_factory=list)
    #: Mulligans taken (rule 103.5), every player of every game that didn't raise.
    mulligans: int = 0
    #: The final turn numbers of the completed games, added up.
    turns_total: int = 0
    apply_ns: Timings = field(default_factory=Timings)
    legal_actions_ns: Timings = field(default_factory=Timings)

    @property
    def actions_per_s(self) -> float:
        """Throughput: actions applied (and, if encoding, streamed) per second."""
        return self.actions / self.seconds if self.seconds else 0.0

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def turns_mean(self) -> float:
        """The mean final turn number of the completed games (0.0: none completed)."""
        return self.turns_total / self.completed if self.completed else 0.0

    def to_json(self) -> str:
        """One JSON line with the figures (failures abbreviated to the first five)."""
        data: dict[str, object] = {f.name: getattr(self, f.name) for f in fields(self)
                                   if f.name not in _INTERNAL}
        data["seconds"] = round(self.seconds, 3)
        data["failures"] = self.failures[:5]
        data["actions_per_s"] = round(self.actions_per_s, 1)
        data["games_per_s"] = round(self.games_per_s, 2)
        data["turns_mean"] = round(self.turns_mean, 2)
        for name, timings in (("apply", self.apply_ns),
                              ("legal_actions", self.legal_actions_ns)):
            data[f"{name}_us_p50"] = round(timings.percentile_us(50), 1)
            data[f"{name}_us_p99"] = round(timings.percentile_us(99), 1)
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
    """One game's figures: actions applied, decisions encoded, failure (None: it ended),
    the final turn, the mulligans taken and the timings (see the module docstring)."""

    actions: int = 0
    decisions: int = 0
    failure: str | None = None
    turn: int = 0
    mulligans: int = 0
    #: Each ``apply`` call's wall time.
    apply_ns: list[int] = field(default_factory=list)
    #: Each priority decision's options rebuilt (see :func:`play_game`).
    legal_actions_ns: list[int] = field(default_factory=list)
    #: Time spent measuring and checking ``legal_actions``: not the engine's.
    measure_ns: int = 0


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


def play_game(seed: int, decks: Sequence[DeckSpec], options: SimOptions = SimOptions()
              ) -> GameOutcome:
    """Play one game with uniformly random legal choices, seat ``i`` playing ``decks[i]``.

    Times every :func:`~server.engine.apply` call, and at every pending priority decision
    rebuilds its options with :func:`~server.engine.game.priority_options`, timing that and
    raising :class:`AssertionError` if they differ from the decision's (see the module
    docstring). Exceptions propagate (the caller reports them with the seed)."""
    clock = time.perf_counter_ns
    rng = random.Random(seed)
    game = new_game(seed.to_bytes(16, "big"), [_setup(i, d) for i, d in enumerate(decks)])
    pipeline = Pipeline(game, options.check_views) if options.encode else None
    outcome = GameOutcome()
    apply_ns, legal_ns = outcome.apply_ns, outcome.legal_actions_ns
    for n in range(ACTION_BUDGET):
        outcome.actions = n
        if game.result is not None:
            if pipeline is not None:
                pipeline.finish()
            break
        decision = game.pending
        if decision is None or not decision.options:
            outcome.failure = f"stuck at turn {game.turn} {game.step.name}: {decision}"
            break
        if decision.kind is DecisionKind.PRIORITY:
            start = clock()
            rebuilt = priority_options(game, decision.seat)
            built = clock()
            if rebuilt != decision.options:
                raise AssertionError(f"seat {decision.seat}'s priority options rebuilt differ "
                                     f"from the pending decision's: {rebuilt} != "
                                     f"{decision.options}")
            legal_ns.append(built - start)
            outcome.measure_ns += clock() - start
        if pipeline is not None:
            pipeline.decision(game)
            outcome.decisions += 1
        seat, action = decision.seat, random_option(rng, decision.options)
        if options.concede_rate and rng.random() < options.concede_rate:
            seat, action = rng.choice(game.in_game()), Concede()  # rule 104.3a
        start = clock()
        events = apply(game, seat, action)
        apply_ns.append(clock() - start)
        if pipeline is not None:
            pipeline.advance(game, action, events)
    else:
        outcome.actions = ACTION_BUDGET
        outcome.failure = f"no result after {ACTION_BUDGET} actions"
    outcome.turn = game.turn
    outcome.mulligans = sum(p.mulligans for p in game.players)
    return outcome


def _draw_decks(seed: int, players: int, decks: Sequence[D]) -> list[D]:
    """Each seat's deck drawn at random (from the game's seed) from ``decks``."""
    rng = random.Random(f"decks:{seed}")
    return [rng.choice(list(decks)) for _ in range(players)]


def reproduce_command(seed: int, decks: Sequence[DeckSpec], options: SimOptions) -> str:
    """The ``manawire sim`` command line that plays this one game again: ``--deck`` once per
    seat with each deck's label (a demo deck's name or, from ``--deck FILE``, the file's
    path; a deck given as cards has no label that replays it)."""
    parts = ["manawire sim --games 1", f"--seed {seed}", f"--players {len(decks)}"]
    parts += [f"--deck={shlex.quote(deck_label(d))}" for d in decks]
    if not options.encode:
        parts.append("--no-encode")
    if options.check_views:
        parts.append("--check-views")
    if options.concede_rate:
        parts.append(f"--concede-rate {options.concede_rate}")
    return " ".join(parts)


def _run(report: SimReport, seed: int, decks: Sequence[DeckSpec], options: SimOptions
         ) -> int:
    """Play one game into ``report``; the nanoseconds spent measuring, not playing."""
    table = "+".join(deck_label(d) for d in decks)
    where = f"seed {seed} decks {table}"
    try:
        outcome = play_game(seed, decks, options)
    except Exception as exc:
        report.errors += 1
        again = reproduce_command(seed, decks, options)
        report.failures.append(f"{where}: {exc!r} (again: {again})\n{traceback.format_exc()}")
        if table not in report.failed_tables:
            report.failed_tables.append(table)
        return 0
    report.actions += outcome.actions
    report.decisions += outcome.decisions
    report.mulligans += outcome.mulligans
    report.apply_ns.add(outcome.apply_ns)
    report.legal_actions_ns.add(outcome.legal_actions_ns)
    if outcome.failure is None:
        report.completed += 1
        report.turns_total += outcome.turn
        return outcome.measure_ns
    report.stuck += 1
    report.failures.append(f"{where}: {outcome.failure} "
                           f"(again: {reproduce_command(seed, decks, options)})")
    if table not in report.failed_tables:
        report.failed_tables.append(table)
    return outcome.measure_ns


def simulate(games: int, seed: int, players: int = 2,
             decks: Sequence[DeckSpec] | None = None, *,
             seat_decks: Sequence[DeckSpec] | None = None,
             options: SimOptions = SimOptions()) -> SimReport:
    """Play ``games`` random games with seeds ``seed``, ``seed + 1``, ...

    Each seat's deck is drawn at random from ``decks`` (default: every demo deck), unless
    ``seat_decks`` fixes them (one per seat)."""
    chosen: Sequence[DeckSpec] = decks or demo_deck_names()
    if seat_decks is not None and len(seat_decks) != players:
        raise ValueError(f"{len(seat_decks)} seat decks for {players} players")
    report = SimReport(games=games, players=players, encoded=options.encode)
    measuring = 0
    start = time.perf_counter_ns()
    for i in range(games):
        table = list(seat_decks) if seat_decks is not None \
            else _draw_decks(seed + i, players, chosen)
        measuring += _run(report, seed + i, table, options)
    report.seconds = (time.perf_counter_ns() - start - measuring) / 1e9
    return report


def tables(players: int, decks: Sequence[D]) -> list[tuple[D, ...]]:
    """Every table of ``players`` decks from ``decks``, as a multiset (seat order doesn't
    matter: the starting player is chosen at random, rule 103.1). For two players these are
    the pairings, mirrors included: n(n+1)/2 of them. Decks are told apart, and sorted, by
    their :func:`deck_label` (a label given twice counts once: its first deck)."""
    by_label: dict[str, D] = {}
    for deck in decks:
        by_label.setdefault(deck_label(deck), deck)
    return list(combinations_with_replacement([by_label[k] for k in sorted(by_label)],
                                              players))


def simulate_tables(games_per_table: int, seed: int, players: int = 2,
                    decks: Sequence[DeckSpec] | None = None, *,
                    options: SimOptions = SimOptions()) -> SimReport:
    """Play ``games_per_table`` games at every table of :func:`tables`; table ``k``'s games
    have seeds ``seed + k * games_per_table``, ``+ 1``, ..."""
    pool: Sequence[DeckSpec] = decks or demo_deck_names()
    every = tables(players, pool)
    report = SimReport(games=games_per_table * len(every), players=players,
                       encoded=options.encode, tables=len(every))
    measuring = 0
    start = time.perf_counter_ns()
    for k, table in enumerate(every):
        for j in range(games_per_table):
            measuring += _run(report, seed + k * games_per_table + j, table, options)
    report.seconds = (time.perf_counter_ns() - start - measuring) / 1e9
    return report
