"""Every rules scenario's game, streamed as a room streams it: after every action of every
scenario under tests/scenarios, each view class's stream (each seat and spectators, one
shared tracker: :class:`~server.view.pipeline.ViewPipeline`) equals a full projection of the
game, and its view hash the hash of that projection. The scenarios reach cards and rules a
random game rarely does -- searches, scrys, revealed hands and libraries, face-down exiled
cards a player may look at (rules 701.20a, 406.3), a library's top played revealed (401.5)
-- where a stream must show exactly what a look shows, and stop showing it when it ends."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from server.engine import Game, Zone, apply
from server.engine.actions import Action
from server.engine.events import Event
from server.scenarios import Scenario, load_scenarios, run_scenario
from server.scenarios import steps as scenario_steps
from server.view import SPECTATOR, project
from server.view.encode import ObjectCache, encode_view, view_hash
from server.view.pipeline import ViewPipeline
from server.view.project import EVERY_HAND
from tests.scenarios.every import every_scenario

SCENARIO_DIR = Path(__file__).parent.parent / "scenarios"
SCENARIOS = list(every_scenario())  # (the files of SCENARIO_DIR)
FILES = sorted({s.path for s in SCENARIOS})


class _Follower:
    """Follows one scenario's game with the room's pipeline, checking every class."""

    def __init__(self) -> None:
        self.game: Game | None = None
        self.views: ViewPipeline | None = None
        self.actions = 0
        self.looked = 0
        #: Each viewer's encodings of the full projections' objects, an unchanged object's
        #: kept (the reference's own, not the streams'): objects were built again at every check.
        self.encodings: dict[int, ObjectCache] = {}

    def apply(self, game: Game, seat: int, action: Action) -> list[Event]:
        if game is not self.game:  # the scenario's position is set up: start streaming it
            self.game = game  # every class: the seats, spectators and every hand
            self.views = ViewPipeline(game, [*range(len(game.players)), SPECTATOR, EVERY_HAND])
            self.encodings = {viewer: ObjectCache() for viewer in self.views.streams}
            self.check(game, "the start")
        events = apply(game, seat, action)
        assert self.views is not None
        self.views.advance(game, action, events)
        self.actions += 1
        self.looked += bool(game.looks)
        self.check(game, f"action {self.actions} ({action!r})")
        return events

    def check(self, game: Game, when: str) -> None:
        assert self.views is not None
        for viewer, stream in self.views.streams.items():
            full = project(game, viewer)
            assert (stream.header, stream.players, stream.objects, stream.zones) == \
                (full.header, full.players, full.objects, full.zones), \
                f"viewer {viewer}'s stream differs from a full projection after {when}"
            assert stream.digest.hash(viewer) == \
                view_hash(encode_view(full, self.encodings[viewer])), \
                f"viewer {viewer}'s view hash differs after {when}"


@pytest.fixture
def follower(monkeypatch: pytest.MonkeyPatch) -> Iterator[_Follower]:
    follow = _Follower()
    monkeypatch.setattr(scenario_steps, "apply", follow.apply)
    yield follow


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_400_2_701_20a_streams_equal_a_full_projection_through_every_scenario(
        path: Path, follower: _Follower) -> None:
    ran = 0
    for scenario in SCENARIOS:
        if scenario.path != path:
            continue
        follower.game = None
        run_scenario(scenario)
        ran += 1
    assert ran and follower.actions, f"{path.name}: no scenario action was streamed"


def test_scenarios_with_looks_are_streamed(follower: _Follower) -> None:
    """The check above reaches looks: scenarios where a card is shown for a while."""
    looking: list[Scenario] = [s for s in SCENARIOS
                               if "701.20a" in s.rules or "701.23a" in s.rules]
    assert looking
    for scenario in looking:
        follower.game = None
        run_scenario(scenario)
    assert follower.looked >= 10


_CULTIVATE = """\
name: Cultivate -- the found lands are revealed (701.20a) without their places in the library
rules: [701.23a, 701.20a]
setup:
  players:
    - mana_pool: "CCG"
      hand: [Cultivate]
      library: [Forest, Shock, Island, Plains]
    - {}
script:
  - cast: Cultivate
  - pay: true
  - pass: 2
  - choose_card: Forest
  - choose_card: Island
  - check: {pending: {seat: 0, kind: choose_card}, views: {1: {looking_at: [Forest, Island]}}}
  - choose_card: Island
"""


def test_701_20a_a_searchs_revealed_cards_dont_show_where_they_were_in_the_library(
        follower: _Follower, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Cultivate reveals the two basic lands it found. Opponents and spectators were shown
    each one's place in the library too (``library_position``): a card put at the bottom
    earlier (a mulligan's, a scry's) was recognised when a search later found it there. A
    reveal shows the cards, not where they were; a look at the top cards still shows their
    order (they are the top cards)."""
    path = tmp_path / "cultivate.yaml"
    path.write_text(_CULTIVATE)
    [scenario] = load_scenarios([path])
    places: dict[int, list[int]] = {}

    def reveal(game: Game, seat: int, action: Action) -> list[Event]:
        events = follow(game, seat, action)
        for viewer in (0, 1, SPECTATOR):  # while the opponent sees library cards
            view = project(game, viewer)
            seen = sorted(o.library_position for o in view.objects.values()
                          if o.zone is Zone.LIBRARY)
            if seen and any(o.zone is Zone.LIBRARY
                            for o in project(game, 1).objects.values()):
                places[viewer] = seen
        return events

    follow = follower.apply
    monkeypatch.setattr(scenario_steps, "apply", reveal)
    run_scenario(scenario)
    assert places == {0: [-1, -1], 1: [-1, -1], SPECTATOR: [-1, -1]}
    # (The streams, checked after every action, agree with these projections.)
    assert follower.actions > 5
