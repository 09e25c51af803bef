"""Rule 510.4 in the view: ``GameHeader.combat_damage_step`` says which combat damage step the
game is in -- the first-strike one, the regular one after it, or a combat's only one -- as the
engine decided it, so no client has to guess from damage dealt and keywords. Checked in the
projection and in what a seat's stream delivers (a mirror of its deltas), through real
combats: one whose first-strike damage is dealt by nobody (the double striker's blocker gone,
510.1c), one whose first striker leaves the battlefield between the two steps, one whose
first striker leaves before the damage step begins (then there is one step)."""

from __future__ import annotations

from collections.abc import Callable

from client_sdk.mirror import Mirror
from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from server.engine import Game, Zone, apply
from server.engine.actions import (
    Action,
    DeclareAttacker,
    DeclareBlocker,
    FinishAttackers,
    FinishBlockers,
    PassPriority,
)
from server.engine.state import DecisionKind, GameObject, Step
from server.engine.zones import move
from server.view import project
from server.view.pipeline import ViewPipeline
from server.view.project import CombatDamageStep, combat_damage_step
from tests.engine.helpers import demo_game, pass_until, put, refresh


class Seen:
    """A game with one seat's stream mirrored: after every action, the header's combat damage
    step as projected and as delivered, and the damage events delivered meanwhile."""

    def __init__(self, game: Game, seat: int) -> None:
        self.game, self.seat = game, seat
        self.pipeline = ViewPipeline(game, [seat])
        self.mirror = Mirror()
        self.mirror.load_snapshot(mpb.ServerMessage.FromString(
            self.pipeline.streams[seat].snapshot("r1")).snapshot)
        #: (step, combat damage step, damage events' amounts) after each action
        self.trail: list[tuple[int, int, list[int]]] = []

    def act(self, seat: int, action: Action) -> None:
        events = apply(self.game, seat, action)
        amounts: list[int] = []
        for _viewer, _prev, data in self.pipeline.advance(self.game, action, events):
            delta = mpb.ServerMessage.FromString(data).delta
            self.mirror.apply_delta(delta)
            amounts += [e.damage.amount for e in delta.events if e.WhichOneof("kind") == "damage"]
        projected = project(self.game, self.seat).header
        header = self.mirror.header
        assert header.combat_damage_step == int(projected.combat_damage_step)
        assert header.step == int(projected.step)
        self.trail.append((header.step, header.combat_damage_step, amounts))

    def steps(self) -> list[tuple[int, list[int]]]:
        """Each combat damage step entered, with the damage dealt as the view entered it."""
        out: list[tuple[int, list[int]]] = []
        last = 0
        for step, damage_step, amounts in self.trail:
            now = damage_step if step == pb.STEP_COMBAT_DAMAGE else 0
            if now and now != last:
                out.append((now, amounts))
            last = now
        return out


def _combat(game: Game, attackers: list[GameObject], blocks: dict[str, str],
            hook: Callable[[Game], None] | None = None, *, when: Callable[[Game], bool]
            ) -> Seen:
    """``attackers`` attack (the active player's), ``blocks`` (blocker -> attacker) block;
    ``hook`` runs once ``when`` is first true before an action; every player passes until
    the turn is over."""
    seen = Seen(game, game.active)
    for _ in range(300):
        pending = game.pending
        if pending is None or game.turn != 1:
            break
        if hook is not None and when(game):
            hook(game)
            hook = None
            refresh(game)
            pending = game.pending
            assert pending is not None
        pick: Action | None = next((o for o in pending.options if (
            isinstance(o, DeclareAttacker) and o.object_id in {a.id for a in attackers}) or (
            isinstance(o, DeclareBlocker) and blocks.get(o.object_id) == o.attacker_id)), None)
        if pick is None:
            pick = next((c for c in (FinishAttackers(), FinishBlockers(), PassPriority())
                         if c in pending.options), pending.options[-1])
        seen.act(pending.seat, pick)
    assert hook is None, "the hook never ran"
    return seen


def _setup() -> tuple[Game, GameObject, GameObject, GameObject]:
    """The active player's Siege Striker (double strike) and Walking Corpse, the other
    player's Walking Corpse; the first turn's precombat main phase."""
    game = demo_game()
    pass_until(game, Step.PRECOMBAT_MAIN, turn=1)
    me = game.active
    striker = put(game, me, "Siege Striker", Zone.BATTLEFIELD)
    mine = put(game, me, "Walking Corpse", Zone.BATTLEFIELD)
    theirs = put(game, 1 - me, "Walking Corpse", Zone.BATTLEFIELD)
    refresh(game)
    return game, striker, mine, theirs


def _gone(oid: str) -> Callable[[Game], None]:
    def leave(game: Game) -> None:
        move(game, oid, Zone.GRAVEYARD, [])
    return leave


def _blockers_declared(game: Game) -> bool:
    return game.step is Step.DECLARE_BLOCKERS and game.pending is not None \
        and game.pending.kind is DecisionKind.PRIORITY


def test_510_4_the_view_names_both_steps_when_no_first_strike_damage_is_dealt() -> None:
    """The double striker is blocked and its blocker leaves before damage: blocked, it deals
    no damage in either step (510.1c). The first-strike step still happens (a double
    striker is in combat as it begins) and deals nothing; the regular one deals the other
    attacker's 2. Counting damage batches called that the first-strike damage."""
    game, striker, mine, theirs = _setup()
    seen = _combat(game, [striker, mine], {theirs.id: striker.id}, _gone(theirs.id),
                   when=_blockers_declared)
    assert seen.steps() == [(pb.COMBAT_DAMAGE_STEP_FIRST_STRIKE, []),
                            (pb.COMBAT_DAMAGE_STEP_REGULAR, [2])]


def test_510_4_a_first_striker_leaving_between_the_steps_leaves_the_regular_step() -> None:
    game, striker, mine, _ = _setup()
    seen = _combat(game, [striker, mine], {}, _gone(striker.id),
                   when=lambda g: g.step is Step.COMBAT_DAMAGE)
    assert seen.steps() == [(pb.COMBAT_DAMAGE_STEP_FIRST_STRIKE, [1]),
                            (pb.COMBAT_DAMAGE_STEP_REGULAR, [2])]


def test_510_4_a_first_striker_gone_before_the_damage_step_leaves_one_step() -> None:
    """No first or double striker in combat as the step begins: one combat damage step,
    ONLY -- the keywords the attackers had don't matter."""
    game, striker, mine, _ = _setup()
    seen = _combat(game, [striker, mine], {}, _gone(striker.id), when=_blockers_declared)
    assert seen.steps() == [(pb.COMBAT_DAMAGE_STEP_ONLY, [2])]


def test_510_4_outside_combat_damage_no_step_is_named() -> None:
    game, *_ = _setup()
    assert combat_damage_step(game) is CombatDamageStep.NONE
    assert project(game, 0).header.combat_damage_step is CombatDamageStep.NONE
    assert not Seen(game, 0).mirror.header.combat_damage_step


def test_the_projection_names_the_protocols_values() -> None:
    assert [int(s) for s in CombatDamageStep] == [
        pb.COMBAT_DAMAGE_STEP_UNSPECIFIED, pb.COMBAT_DAMAGE_STEP_ONLY,
        pb.COMBAT_DAMAGE_STEP_FIRST_STRIKE, pb.COMBAT_DAMAGE_STEP_REGULAR]
