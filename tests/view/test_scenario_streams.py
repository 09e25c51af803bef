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

from server.engine import Game, apply
from server.engine.actions import Action
from server.engine.events import Event
from server.scenarios import Scenario, load_scenarios, run_scenario
from server.scenarios import steps as scenario_steps
from server.view import project
from server.view.encode import encode_view, view_hash
from server.view.pipeline import ViewPipeline

SCENARIO_DIR = Path(__file__).parent.parent / "scenarios"
SCENARIOS = load_scenarios([SCENARIO_DIR])
FILES = sorted({s.path for s in SCENARIOS})


class _Follower:
    """Follows one scenario's game with the room's pipeline, checking every class."""

    def __init__(self) -> None:
        self.game: Game | None = None
        self.views: ViewPipeline | None = None
        self.actions = 0
        self.looked = 0

    def apply(self, game: Game, seat: int, action: Action) -> list[Event]:
        if game is not self.game:  # the scenario's position is set up: start streaming it
            self.game, self.views = game, ViewPipeline(game)
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
            assert stream.digest.hash(viewer) == view_hash(encode_view(full)), \
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
