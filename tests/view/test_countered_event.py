"""A countered spell reaches every viewer as countered (rule 701.6a; 2009: 701.5a), by what,
and for "unless its controller pays {N}" (118.12a) the cost not paid and whether it was
declined: a new player read only "Your Shock moved from the stack to your graveyard" after
Miscast. Both spells were on the stack, which is public (400.2): every viewer -- each seat
and the spectators -- gets the same event."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from protocol.v1 import game_pb2 as pb
from server.scenarios import Scenario
from server.scenarios.position import Run
from server.scenarios.steps import do_step
from server.view import project
from server.view.events import project_events
from server.view.project import SPECTATOR

_MISCAST: list[dict[str, Any]] = [
    {"cast": "Shock"}, {"target_player": 1}, {"pay": "R"}, {"pass": 1}, {"cast": "Miscast"},
    {"target": "Shock"}, {"pay": True}, {"pass": 2}]


def _countered(pool: str, script: list[dict[str, Any]]) -> dict[int, list[pb.CounteredEvent]]:
    """Each viewer's countered events of the script's last step."""
    data = {"setup": {"players": [{"mana_pool": pool, "hand": ["Shock"],
                                   "library": ["Forest"]},
                                  {"mana_pool": "U", "hand": ["Miscast", "Island"],
                                   "library": ["Island"]}]}}
    run = Run(Scenario("countered", (), Path("countered.yaml"), 1, data))
    for index, step in enumerate(script[:-1]):
        do_step(run, step, index)
    viewers = (0, 1, SPECTATOR)
    before = {v: project(run.game, v).objects for v in viewers}
    do_step(run, script[-1], len(script) - 1)
    out = {}
    for v in viewers:
        events = project_events(run.last_events, v, before[v], project(run.game, v).objects)
        out[v] = [e.countered for e in events if e.WhichOneof("kind") == "countered"]
        kinds = [e.WhichOneof("kind") for e in events]
        # The spell countered goes on to its owner's graveyard (701.6a): said after.
        assert kinds.index("countered") < kinds.index("zone_change")
    return out


def test_701_6a_118_3_every_viewer_is_told_shock_was_countered_by_miscast_unpaid() -> None:
    seen = _countered("RR", _MISCAST)
    for events in seen.values():
        assert len(events) == 1
        e = events[0]
        assert (e.name, e.controller, e.ability, e.by_name, e.by_ability) == \
            ("Shock", 0, False, "Miscast", False)
        assert e.object_id and e.by_id
        assert (e.unless_cost, e.declined) == ("{3}", False)
    assert len({e[0].SerializeToString() for e in seen.values()}) == 1  # all the same


def test_701_6a_118_12a_a_declined_payment_is_said_declined() -> None:
    seen = _countered("RRRR", [*_MISCAST, {"decline": True, "seat": 0}])
    for events in seen.values():
        assert [(e.name, e.by_name, e.unless_cost, e.declined) for e in events] == \
            [("Shock", "Miscast", "{3}", True)]
