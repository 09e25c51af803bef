"""Rule 502.3: a permanent that doesn't untap during its controller's untap step because a
static ability says so -- Capture Sphere's "Enchanted creature doesn't untap during its
controller's untap step", a restriction the layers apply -- shows ``doesnt_untap`` to every
viewer, as one kept tapped once by a resolved effect (Frost Breath) does: the view set it
only from the once-only effect, and the creature a Capture Sphere held showed no badge. It
lasts while the Sphere does, through its controller's untap steps, and goes with it. The
live stream (deltas) follows it: the tracker watches the restrictions."""

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


def _ogre(run: Run) -> GameObject:
    return next(o for o in run.game.objects.values() if o.card.name == "Onakke Ogre")


class _Streamed:
    """A scenario's game streamed to every viewer as a room streams it (the live path)."""

    def __init__(self, setup: dict[str, Any]) -> None:
        self.run = Run(Scenario("Capture Sphere holds Onakke Ogre", ("502.3",),
                                Path("doesnt_untap_lasting.py"), 1, {"setup": setup}))
        self.tracker = GameTracker()
        self.streams = {v: ViewStream.start(self.run.game, v, self.tracker.step(
            self.run.game).number) for v in VIEWERS}

    def shown(self) -> set[bool]:
        """``doesnt_untap`` of the Ogre as each viewer's full projection, the encoded
        object and the live stream show it (all the same)."""
        ogre = _ogre(self.run)
        said = set()
        for v in VIEWERS:
            view = project(self.run.game, v).objects[ogre.id]
            assert self.streams[v].view.objects[ogre.id] == view
            assert encode_object(view).doesnt_untap == view.doesnt_untap
            said.add(view.doesnt_untap)
        assert len(said) == 1
        return said

    def play(self, *steps: dict[str, Any]) -> None:
        for index, step in enumerate(steps):
            do_step(self.run, step, index)
            changes = self.tracker.step(self.run.game)
            for v in VIEWERS:
                self.streams[v].advance(self.run.game, changes, self.run.last_events)


def test_502_3_a_creature_capture_sphere_holds_doesnt_untap_while_the_sphere_lasts() -> None:
    streamed = _Streamed({
        "step": "precombat_main",
        "players": [
            {"battlefield": [{"card": "Capture Sphere", "attached_to": "ogre"}],
             "library": ["Island", "Island"]},
            {"battlefield": [{"card": "Onakke Ogre", "label": "ogre", "tapped": True},
                             "Thrashing Brontodon", "Forest"],
             "library": ["Forest", "Forest"]}]})
    run = streamed.run
    assert streamed.shown() == {True}
    streamed.play({"pass_until": {"step": "upkeep", "turn": 3}})  # its controller's untap step
    assert run.game.active == 1 and _ogre(run).tapped and streamed.shown() == {True}
    streamed.play({"pass_until": {"step": "precombat_main", "turn": 3}},
                  {"activate": "Thrashing Brontodon", "seat": 1},
                  {"target": "Capture Sphere"}, {"tap": "Forest"}, {"pay": True}, {"pass": 2})
    assert _ogre(run).tapped and streamed.shown() == {False}  # untaps at its next untap step


def test_502_3_capture_sphere_entering_shows_it_in_the_live_stream_at_once() -> None:
    """The Sphere resolves (608.3c): the Ogre's restriction comes with it, before its enter
    trigger taps the Ogre -- the Ogre itself changed in nothing else the stream watched."""
    streamed = _Streamed({
        "step": "beginning_of_combat", "active": 1,
        "players": [{"mana_pool": "UUUU", "hand": ["Capture Sphere"]},
                    {"battlefield": ["Onakke Ogre"]}]})
    assert streamed.shown() == {False}
    streamed.play({"pass": 1}, {"cast": "Capture Sphere"}, {"target": "Onakke Ogre"},
                  {"pay": "UUUU"}, {"pass": 2})
    assert not _ogre(streamed.run).tapped and streamed.shown() == {True}
    streamed.play({"pass": 2})  # its trigger taps the Ogre (701.26a)
    assert _ogre(streamed.run).tapped and streamed.shown() == {True}
