"""Which blocks are offered while declaring blockers (509.1a-c, 702.111b) is decided by
bipartite matchings: the same options the exhaustive search gave (checked against it on
small random boards), in polynomial time -- nine "must be blocked" attackers against eight
creatures took 16 s a decision, eighteen menace attackers 17 s a block (attacker 12)."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from server.engine import combat, layers
from server.engine.actions import DeclareBlocker, FinishBlockers
from server.engine.state import Game, GameObject, Zone
from tests.engine.helpers import demo_game, put

#: Attackers and blockers of every kind the matching weighs: "must be blocked if able"
#: (Canopy Stalker, 509.1c), menace (Bone Pit Brute, 702.111b), flying (Concordia Pegasus:
#: only a flyer or a reach creature blocks it, 702.9b), plain (Walking Corpse).
ATTACKERS = ("Canopy Stalker", "Bone Pit Brute", "Concordia Pegasus", "Walking Corpse")
BLOCKERS = ("Walking Corpse", "Concordia Pegasus")


def _old_most(game: Game, must: list[GameObject], able: list[GameObject]) -> int:
    if not must:
        return 0
    first, rest = must[0], must[1:]
    best = _old_most(game, rest, able)
    fits = [b for b in able if combat.can_block(game, b, first)]
    for chosen in combinations(fits, 2 if first.has("Menace") else 1):
        best = max(best, 1 + _old_most(game, rest, [b for b in able if b not in chosen]))
    return best


def _old_fill(game: Game, short: list[GameObject], unblocked: list[GameObject], need: int,
              free: list[GameObject]) -> bool:
    if short:
        return any(_old_fill(game, short[1:], unblocked, need, [f for f in free if f is not b])
                   for b in free if combat.can_block(game, b, short[0]))
    return need <= 0 or _old_most(game, unblocked, free) >= need


def _old_completable(game: Game, attackers: list[GameObject], blocked: dict[str, int],
                     free: list[GameObject], most: int) -> bool:
    short, unblocked, need = combat._requirements(attackers, blocked, most)
    return _old_fill(game, short, unblocked, need, free)


def _count_block_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail at the 200,000th ``can_block`` check: a search of every pairing or order of the
    creatures fails at once, not after minutes (a matching checks each pair a few times)."""
    calls = [0]
    real = combat.can_block

    def counted(game: Game, blocker: GameObject, attacker: GameObject) -> bool:
        calls[0] += 1
        assert calls[0] < 200_000, "searched every pairing or order of the creatures"
        return real(game, blocker, attacker)

    monkeypatch.setattr(combat, "can_block", counted)


def _board(rng: random.Random) -> Game:
    """Seat 0 attacking seat 1 with a few random attackers; seat 1's random creatures, some
    of them blocking already."""
    game = demo_game()
    attackers = [put(game, 0, rng.choice(ATTACKERS), Zone.BATTLEFIELD)
                 for _ in range(rng.randint(1, 5))]
    blockers = [put(game, 1, rng.choice(BLOCKERS), Zone.BATTLEFIELD)
                for _ in range(rng.randint(1, 6))]
    layers.refresh(game)  # (the cards' restrictions: "must be blocked if able")
    for a in attackers:
        game.combat.attackers[a.id] = 1
    for b in blockers:
        if rng.random() < 0.3:
            target = rng.choice(attackers)
            if combat.can_block(game, b, target):
                combat.declare_blocker(game, DeclareBlocker(b.id, target.id))
    return game


@pytest.mark.parametrize("seed", range(300))
def test_509_1c_702_111b_blocks_offered_are_those_the_search_offered(seed: int) -> None:
    rng = random.Random(seed)
    game = _board(rng)
    fight = game.combat
    attackers = [game.objects[a] for a in fight.attackers]
    able = combat._able_to_block(game, 1)
    free = [b for b in able if b.id not in fight.blocking]
    must = [a for a in attackers if "must_be_blocked" in a.restrictions]
    most = _old_most(game, must, able)
    blocked = {a.id: len(fight.blocked_by.get(a.id, [])) for a in attackers}
    expected = {(b.id, a.id) for b in free for a in attackers
                if combat.can_block(game, b, a) and _old_completable(
                    game, attackers, {**blocked, a.id: blocked[a.id] + 1},
                    [f for f in free if f is not b], most)}
    options = combat.block_options(game, 1)
    assert {(o.object_id, o.attacker_id) for o in options
            if isinstance(o, DeclareBlocker)} == expected
    assert any(isinstance(o, FinishBlockers) for o in options) == \
        _old_completable(game, attackers, blocked, [], most)


def test_509_1c_many_attackers_that_must_be_blocked_cost_a_matching_not_a_search(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Twelve Canopy Stalkers against eleven creatures: a few thousand augmenting steps,
    not every way to pair them (the search's 12!/1!, counted, fails at once)."""
    game = demo_game()
    for _ in range(12):
        game.combat.attackers[put(game, 0, "Canopy Stalker", Zone.BATTLEFIELD).id] = 1
    for _ in range(11):
        put(game, 1, "Walking Corpse", Zone.BATTLEFIELD)
    layers.refresh(game)
    assert all("must_be_blocked" in game.objects[a].restrictions for a in game.combat.attackers)
    _count_block_checks(monkeypatch)
    options = combat.block_options(game, 1)
    assert len([o for o in options if isinstance(o, DeclareBlocker)]) == 12 * 11


def test_the_random_boards_have_what_the_matching_weighs() -> None:
    """(The comparison above means something: many of its boards have an attacker that must
    be blocked, and blocks withheld or no finish offered.)"""
    musts = withheld = 0
    for seed in range(300):
        game = _board(random.Random(seed))
        fight = game.combat
        attackers = [game.objects[a] for a in fight.attackers]
        musts += any("must_be_blocked" in a.restrictions for a in attackers)
        free = [b for b in combat._able_to_block(game, 1) if b.id not in fight.blocking]
        every = {(b.id, a.id) for b in free for a in attackers if combat.can_block(game, b, a)}
        options = combat.block_options(game, 1)
        withheld += {(o.object_id, o.attacker_id) for o in options
                     if isinstance(o, DeclareBlocker)} != every or \
            not any(isinstance(o, FinishBlockers) for o in options)
    assert musts >= 100 and withheld >= 50, (musts, withheld)


def test_702_111b_many_menace_attackers_blocked_by_one_cost_a_matching_not_a_search(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Sixteen Bone Pit Brutes (menace), sixteen creatures, eight of them blocking a Brute
    each: each of those eight needs one more -- the search tried every order of the free
    creatures for each block it might offer."""
    game = demo_game()
    brutes = [put(game, 0, "Bone Pit Brute", Zone.BATTLEFIELD) for _ in range(16)]
    corpses = [put(game, 1, "Walking Corpse", Zone.BATTLEFIELD) for _ in range(16)]
    layers.refresh(game)
    for brute in brutes:
        game.combat.attackers[brute.id] = 1
    for brute, corpse in zip(brutes[:8], corpses[:8], strict=True):
        combat.declare_blocker(game, DeclareBlocker(corpse.id, brute.id))
    _count_block_checks(monkeypatch)
    options = combat.block_options(game, 1)
    # Each free creature may join one of the eight Brutes blocked by one; none may start a
    # new block (no creature would be left to complete all eight).
    assert {o.attacker_id for o in options if isinstance(o, DeclareBlocker)} == \
        {b.id for b in brutes[:8]}
