"""The combat phase: declaring attackers and blockers, and combat damage (rules 506-511)."""

from __future__ import annotations

from itertools import combinations

from server.engine.actions import (
    Action,
    AssignCombatDamage,
    DeclareAttacker,
    DeclareBlocker,
    FinishAttackers,
    FinishBlockers,
)
from server.engine.effects import deal_damage
from server.engine.events import Event
from server.engine.state import Game


def can_attack(game: Game, object_id: str) -> bool:
    """Rule 508.1a: an untapped creature its controller has controlled since the turn began."""
    obj = game.objects[object_id]
    return (
        obj.is_creature
        and obj.controller == game.active
        and not obj.tapped
        and obj.controlled_since < game.turn  # rule 302.6: summoning sickness
        and not game.players[game.active].has_lost
    )


def attack_options(game: Game) -> tuple[Action, ...]:
    """Options while declaring attackers: one more attacker (at any opponent), or done."""
    combat = game.combat
    options: list[Action] = [
        DeclareAttacker(oid, defender)
        for oid in game.battlefield
        if oid not in combat.attackers and can_attack(game, oid)
        for defender in game.opponents(game.active)
    ]
    options.append(FinishAttackers())
    return tuple(options)


def has_possible_attacker(game: Game) -> bool:
    """Whether the active player could declare any attacker at all (rule 508.1)."""
    return any(can_attack(game, oid) for oid in game.battlefield)


def finish_attackers(game: Game) -> None:
    """Rule 508.1f: tap the chosen attackers; the declaration is complete."""
    for oid in game.combat.attackers:
        game.objects[oid].tapped = True
    game.combat.attackers_declared = True
    game.combat.any_attacker_declared = bool(game.combat.attackers)


def defenders(game: Game) -> list[int]:
    """Players being attacked, in turn order from the active player (APNAP, rule 101.4)."""
    attacked = set(game.combat.attackers.values())
    seat, out = game.active, []
    for _ in game.players:
        seat = game.next_seat(seat)
        if seat in attacked and seat not in out:
            out.append(seat)
    return out


def can_block(game: Game, object_id: str, seat: int) -> bool:
    """Rule 509.1a: an untapped creature the defending player controls, not already blocking."""
    obj = game.objects[object_id]
    return (obj.is_creature and obj.controller == seat and not obj.tapped
            and object_id not in game.combat.blocking)


def block_options(game: Game, seat: int) -> tuple[Action, ...]:
    """Options while ``seat`` declares blockers: block one attacker with one creature, or done."""
    attackers = [a for a, d in game.combat.attackers.items() if d == seat]
    options: list[Action] = [
        DeclareBlocker(oid, attacker)
        for oid in game.battlefield
        if can_block(game, oid, seat)
        for attacker in attackers
    ]
    options.append(FinishBlockers())
    return tuple(options)


def declare_blocker(game: Game, action: DeclareBlocker) -> None:
    """Record a block (rules 509.1a, 509.1h)."""
    game.combat.blocking[action.object_id] = action.attacker_id
    game.combat.blocked_by.setdefault(action.attacker_id, []).append(action.object_id)


def _divisions(total: int, parts: int) -> list[tuple[int, ...]]:
    """Every way to divide ``total`` among ``parts`` ordered recipients (stars and bars)."""
    out = []
    for bars in combinations(range(total + parts - 1), parts - 1):
        edges = (-1, *bars, total + parts - 1)
        out.append(tuple(edges[i + 1] - edges[i] - 1 for i in range(parts)))
    return out


def pending_assignment(game: Game) -> tuple[int, tuple[Action, ...]] | None:
    """Rule 510.1c: the next attacker whose controller must divide damage among 2+ blockers."""
    combat = game.combat
    for attacker, blockers in combat.blocked_by.items():
        obj = game.objects.get(attacker)
        if obj is None or attacker in combat.assignments:
            continue
        if len(blockers) >= 2 and obj.power > 0:
            options: tuple[Action, ...] = tuple(
                AssignCombatDamage(attacker, tuple(zip(blockers, split, strict=True)))
                for split in _divisions(obj.power, len(blockers))
            )
            return obj.controller, options
    return None


def deal_combat_damage(game: Game, events: list[Event]) -> None:
    """Rules 510.1-510.2: every attacker and blocker assigns damage; all is dealt at once."""
    combat = game.combat
    assigned: list[tuple[str, tuple[str, int | str], int]] = []
    for attacker, defender in combat.attackers.items():
        power = game.objects[attacker].power
        if power <= 0:
            continue  # rule 510.1a
        if attacker not in combat.blocked_by:
            assigned.append((attacker, ("player", defender), power))  # 510.1a: unblocked
            continue
        blockers = combat.blocked_by[attacker]
        if len(blockers) == 1:
            assigned.append((attacker, ("object", blockers[0]), power))
        elif blockers:
            for blocker, amount in combat.assignments[attacker]:
                assigned.append((attacker, ("object", blocker), amount))
        # no blockers left: a blocked creature assigns no combat damage (510.1c)
    for blocker, attacker in combat.blocking.items():
        power = game.objects[blocker].power
        if power > 0 and attacker in game.objects:  # rule 510.1d
            assigned.append((blocker, ("object", attacker), power))
    for source, target, amount in assigned:
        deal_damage(game, game.objects[source], target, amount, events)
    combat.damage_dealt = True
