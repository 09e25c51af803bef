"""A permanent is shown with its characteristics as they are now, not as printed: a subtype an
effect gives it (layer 4, rule 613.1d: Dub's "is a Knight in addition to its other types"),
and no power or toughness for a noncreature token (rule 208.3: a noncreature permanent has
none; a Treasure is an artifact, rule 111.10a) -- in a snapshot, in the live stream's deltas
and in the encoded object, for every viewer."""

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


def _play(setup: dict[str, Any], steps: list[dict[str, Any]]
          ) -> tuple[Run, dict[int, ViewStream]]:
    """Play ``steps`` from ``setup``, streaming every viewer as a room does."""
    run = Run(Scenario("characteristics now", ("613.1d",), Path("characteristics_now.py"), 1,
                       {"setup": setup}))
    tracker = GameTracker()
    streams = {v: ViewStream.start(run.game, v, tracker.step(run.game).number)
               for v in VIEWERS}
    for index, step in enumerate(steps):
        do_step(run, step, index)
        changes = tracker.step(run.game)
        for v in VIEWERS:
            streams[v].advance(run.game, changes, run.last_events)
    return run, streams


def _named(run: Run, name: str) -> GameObject:
    return next(o for o in run.game.objects.values() if o.card.name == name)


def test_613_1d_a_subtype_an_aura_gives_is_shown_to_every_viewer() -> None:
    run, streams = _play(
        {"players": [{"mana_pool": "WWC", "hand": ["Dub"],
                      "battlefield": [{"card": "Walking Corpse", "label": "wc"}]}, {}]},
        [{"cast": "Dub"}, {"target": "wc"}, {"pay": True}, {"pass": 2}])
    corpse = _named(run, "Walking Corpse")
    assert _named(run, "Dub").attached_to == corpse.id
    for v in VIEWERS:
        view = project(run.game, v).objects[corpse.id]
        assert view.subtypes == ("Zombie", "Knight")
        assert list(encode_object(view).subtypes) == ["Zombie", "Knight"]
        assert streams[v].view.objects[corpse.id] == view  # the live path (deltas)


def test_208_3_111_10a_a_treasure_token_has_no_power_or_toughness() -> None:
    run, streams = _play(
        {"players": [{"hand": ["Shock"], "mana_pool": "R",
                      "battlefield": ["Gadrak, the Crown-Scourge"]},
                     {"battlefield": ["Walking Corpse"]}]},
        [{"cast": "Shock"}, {"target": "Walking Corpse"}, {"pay": "R"}, {"pass": 2},
         {"pass_until": {"step": "end"}}, {"pass": 2}])
    treasure = _named(run, "Treasure Token")
    for v in VIEWERS:
        view = project(run.game, v).objects[treasure.id]
        assert (view.card_types, view.power, view.toughness) == (("Artifact",), None, None)
        assert not encode_object(view).HasField("power")
        assert streams[v].view.objects[treasure.id] == view
    gadrak = _named(run, "Gadrak, the Crown-Scourge")  # a creature still shows its own
    assert project(run.game, 1).objects[gadrak.id].power == 5
