"""What a decision's options need from the whole battlefield is found once per decision, not
once per option (an attacker's round 13).

A "for each" mana source's mana is counted once per decision (rules 106.4, 602.2b): each
Leafkin Avenger ("{T}: Add {G} for each creature with power 4 or greater you control")
counts the battlefield, and a priority decision asks whether each activated ability ("{7}{R}:
...") is affordable -- counting every Leafkin's creatures again for each one cost the cube of
one player's board (30 Leafkins: 1.5 s an action; an attacker's round, with restarts and
replays of the game as slow)."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.engine import DecisionKind, GameObject, apply, legal_actions, mana
from server.engine.actions import ActivateAbility, ActivateManaAbility, DeclareAttacker
from server.scenarios.loading import Scenario
from server.scenarios.position import Run

LEAFKINS = 30


def test_106_4_602_2b_each_leafkins_mana_is_counted_once_a_decision(
        monkeypatch: pytest.MonkeyPatch) -> None:
    doc = {"name": "leafkins", "rules": ["106.4"], "setup": {"players": [
        {"battlefield": [{"card": "Leafkin Avenger", "sick": False}] * LEAFKINS
         + ["Mountain"] * 8}, {}]}}
    counted: list[str] = []
    real = mana.mana_choices

    def counting(game: object, object_id: str) -> tuple[str, ...]:
        counted.append(object_id)
        return real(game, object_id)  # type: ignore[arg-type]

    monkeypatch.setattr(mana, "mana_choices", counting)
    run = Run(Scenario("leafkins", ("106.4",), Path(__file__), 0, doc))  # (its first decision)
    options = legal_actions(run.game, 0)
    # Each Leafkin's "{7}{R}" is affordable (its own mana and 29 others', 30 each) ...
    assert sum(isinstance(a, ActivateAbility) for a in options) == LEAFKINS
    assert sum(isinstance(a, ActivateManaAbility) for a in options) >= LEAFKINS
    # ... and each Leafkin counted its creatures a few times, not once per ability.
    assert len(counted) <= 3 * LEAFKINS, len(counted)


def test_506_2_508_1a_declaring_attackers_looks_for_planeswalkers_once_a_decision(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """What creatures could attack (players, and the planeswalkers opponents control) was
    found by a scan of the battlefield for each creature that could attack: attackers x
    permanents per decision, a declaration of 250 attackers took 27 s (an attacker's
    round). It is found once per decision now."""
    creatures = 60
    doc = {"name": "attackers", "rules": ["506.2"], "setup": {"step": "declare_attackers",
                                                               "players": [
        {"battlefield": ["Walking Corpse"] * creatures + ["Forest"] * creatures},
        {"battlefield": ["Walking Corpse"] * creatures + ["Forest"] * creatures}]}}
    looked = [0]
    real = GameObject.is_planeswalker

    def counting(obj: GameObject) -> bool:
        looked[0] += 1
        return real.fget(obj)  # type: ignore[attr-defined,no-any-return]

    monkeypatch.setattr(GameObject, "is_planeswalker", property(counting))
    run = Run(Scenario("attackers", ("506.2",), Path(__file__), 0, doc))
    pending = run.game.pending
    assert pending is not None and pending.kind is DecisionKind.DECLARE_ATTACKERS
    assert sum(isinstance(a, DeclareAttacker) for a in pending.options) == creatures
    looked[0] = 0
    apply(run.game, 0, next(a for a in pending.options if isinstance(a, DeclareAttacker)))
    # One scan of the 240 permanents (and a few more looks), not one per creature (14,000).
    assert looked[0] <= 2 * 4 * creatures, looked[0]
