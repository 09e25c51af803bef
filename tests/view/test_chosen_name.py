"""Projection of a chosen card name (rule 614.12a): "As Runed Halo enters the battlefield,
choose a card name" -- the name is public information, shown to every viewer (both seats and
spectators) in snapshots, in the live stream's deltas and in the encoded object."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from server.engine import GameObject
from server.scenarios import Scenario
from server.scenarios.position import Run
from server.scenarios.steps import do_step
from server.view import SPECTATOR, project
from server.view.encode import encode_object
from server.view.stream import ViewStream
from server.view.track import GameTracker

VIEWERS = (0, 1, SPECTATOR)


def _halo(run: Run) -> GameObject:
    return next(o for o in run.game.objects.values() if o.card.name == "Runed Halo")


def test_614_12a_runed_halos_chosen_name_is_shown_to_every_viewer() -> None:
    scenario = Scenario("Runed Halo names Shock", ("614.12a",), Path("chosen_name.py"), 1, {
        "setup": {"players": [{"mana_pool": "WW", "hand": ["Runed Halo"]},
                              {"hand": ["Shock"]}]}})
    run = Run(scenario)
    game = run.game
    tracker = GameTracker()
    streams = {v: ViewStream.start(game, v, tracker.step(game).number) for v in VIEWERS}
    steps: list[dict[str, Any]] = [{"cast": "Runed Halo"}, {"pay": True}, {"pass": 2}]
    for index, step in enumerate(steps):
        do_step(run, step, index)
        changes = tracker.step(game)
        for v in VIEWERS:
            streams[v].advance(game, changes, run.last_events)
    halo = _halo(run)
    for v in VIEWERS:  # on the battlefield, the name not chosen yet
        assert project(game, v).objects[halo.id].chosen_name == ""
    do_step(run, {"choose_name": "Shock"}, len(steps))
    changes = tracker.step(game)
    assert halo.chosen_name == "Shock"
    for v in VIEWERS:
        view = project(game, v)
        assert view.objects[halo.id].chosen_name == "Shock"
        assert encode_object(view.objects[halo.id]).chosen_name == "Shock"
        streams[v].advance(game, changes, run.last_events)  # the live path (deltas)
        assert streams[v].view.objects[halo.id] == view.objects[halo.id]
