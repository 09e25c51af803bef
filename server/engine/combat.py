"""The combat phase: declaring attackers and blockers, and combat damage (rules 506-511),
with the combat keywords of rule 702."""

from __future__ import annotations

from itertools import combinations
from math import comb

from server.engine.actions import (
    Action,
    AssignCombatDamage,
    DeclareBlocker,
    FinishAttackers,
    FinishBlockers,
    ResetAttackers,
    ResetBlockers,
)
from server.engine.effects import attack_targets, attackable, deal_damage_at_once
from server.engine.events import AttackersDeclared, BlockersDeclared, Event
from server.engine.state import MAX_OPTIONS, Game, GameObject, may_take_back
from server.engine.targeting import quality_of
from server.engine.zones import attacked_seat

Target = tuple[str, int | str]


def can_attack(game: Game, object_id: str) -> bool:
    """Rule 508.1a: an untapped creature its controller has controlled continuously since the
    turn began (302.6) unless it has haste (702.10b); not a defender (702.3b)."""
    obj = game.objects[object_id]
    return (
        obj.is_creature
        and obj.controller == game.active
        and not obj.tapped
        and (not game.summoning_sick(obj) or obj.has("Haste"))
        # Rule 702.3b; "can attack as though it didn't have defender" overrides it.
        and (not obj.has("Defender") or "attacks_despite_defender" in obj.restrictions)
        and "cant_attack" not in obj.restrictions
        and not game.players[game.active].has_lost
    )


def attack_options(game: Game) -> tuple[Action, ...]:
    """Options while declaring attackers: one more attacker, at any opponent or a planeswalker
    an opponent controls (506.3, 508.1b); or done, once every requirement is met (508.1d)."""
    combat = game.combat
    options: list[Action] = []
    targets = attackable(game)
    for oid in game.battlefield:
        if oid not in combat.attackers and can_attack(game, oid):
            options += attack_targets(game, oid, targets)
    finish = not _unmet_attack_requirements(game)
    # Past the take-backs a turn allows (732.3), starting over only where nothing else leads
    # on: a requirement unmet (Furor of the Bitten's "attacks each combat if able") is met by
    # declaring more, not by starting over again and again.
    if combat.attackers and ((not finish and not options) or may_take_back(game, game.active)):
        options.append(ResetAttackers())
    if finish:
        options.append(FinishAttackers())
    return tuple(options)


def reset_attackers(game: Game) -> None:
    """Undo the attackers declared so far (the declaration starts over, 508.1)."""
    game.combat.attackers.clear()
    game.combat.attacking_planeswalker.clear()


def _unmet_attack_requirements(game: Game) -> bool:
    """Rule 508.1d: a creature that "attacks each combat if able" and can attack must."""
    return any(
        "attacks_each_combat" in game.objects[oid].restrictions and can_attack(game, oid)
        and oid not in game.combat.attackers
        for oid in game.battlefield
    )


def has_possible_attacker(game: Game) -> bool:
    """Whether the active player could declare any attacker at all (rule 508.1)."""
    return any(can_attack(game, oid) for oid in game.battlefield)


def finish_attackers(game: Game, events: list[Event]) -> None:
    """Rule 508.1f: tap the attackers, except those with vigilance (702.20b); then attack
    triggers trigger (508.3a)."""
    for oid in game.combat.attackers:
        if not game.objects[oid].has("Vigilance"):
            game.objects[oid].tapped = True
    game.combat.attackers_declared = True
    game.combat.any_attacker_declared = bool(game.combat.attackers)
    fight = game.combat
    if fight.attackers:
        events.append(AttackersDeclared(
            tuple(fight.attackers), tuple(fight.attackers.values()),
            tuple(fight.attacking_planeswalker.get(a, "") for a in fight.attackers)))


def defenders(game: Game) -> list[int]:
    """Players being attacked, in turn order from the active player (APNAP, rule 101.4)."""
    attacked = set(game.combat.attackers.values())
    seat, out = game.active, []
    for _ in game.players:
        seat = game.next_seat(seat)
        if seat in attacked and seat not in out:
            out.append(seat)
    return out


def can_block(game: Game, blocker: GameObject, attacker: GameObject) -> bool:
    """Rule 509.1a and the keywords restricting blocks: flying and reach (702.9b, 702.17b),
    protection (702.16f)."""
    if "cant_be_blocked" in attacker.restrictions:
        return False  # "[it] can't be blocked" (rule 509.1b)
    if "blocks_only_flying" in blocker.restrictions and not attacker.has("Flying"):
        return False  # "[it] can block only creatures with flying" (rule 509.1b)
    if attacker.has("Flying") and not (blocker.has("Flying") or blocker.has("Reach")):
        return False
    return not any(quality_of(blocker, q) for q in attacker.protection)


def _able_to_block(game: Game, seat: int) -> list[GameObject]:
    """``seat``'s creatures that could block at all: untapped (509.1a), without "can't
    block" (509.1b) -- whether or not they are blocking already."""
    return [game.objects[oid] for oid in game.battlefield
            if game.objects[oid].is_creature and game.objects[oid].controller == seat
            and not game.objects[oid].tapped
            and "cant_block" not in game.objects[oid].restrictions]


def block_options(game: Game, seat: int) -> tuple[Action, ...]:
    """Options while ``seat`` declares blockers: block one attacker with one creature, start
    over, or finish once the blocks are legal (menace, 702.111b; requirements, 509.1c).

    A block is offered only if the declaration can still be completed legally with it
    (509.1b-c): a creature blocking a menace attacker alone when no other creature could
    join it, or taking the only blocker a "must be blocked" attacker could have, would leave
    starting over as the only way on -- a dead end a player (or a bot) could loop in."""
    combat = game.combat
    attackers = [game.objects[a] for a, d in combat.attackers.items() if d == seat]
    able = _able_to_block(game, seat)
    free = [b for b in able if b.id not in combat.blocking]
    must = [a for a in attackers if "must_be_blocked" in a.restrictions]
    blocked = {a.id: len(combat.blocked_by.get(a.id, [])) for a in attackers}
    options: list[Action]
    if not any(a.has("Menace") for a in must):
        # Each requirement asks one blocker more of one attacker: a bipartite matching
        # decides (polynomial); the search below tried every arrangement -- nine "must be
        # blocked" attackers against eight creatures held the server 16 s a decision.
        most = _Matching(game, [], must, able).count
        options = [DeclareBlocker(b.id, a.id)
                   for b, a in _matchable_blocks(game, attackers, blocked, free, most)]
    else:  # (a menace attacker that must be blocked asks two at once: searched, as rare)
        most = _most_obeyable(game, must, able)
        options = [
            DeclareBlocker(blocker.id, attacker.id)
            for blocker in free
            for attacker in attackers
            if can_block(game, blocker, attacker)
            and _completable(game, attackers,
                             {**blocked, attacker.id: blocked[attacker.id] + 1},
                             [b for b in free if b is not blocker], most)
        ]
    finish = _completable(game, attackers, blocked, [], most)
    # (As for attackers: past the limit, only where no block leads on -- a menace attacker
    # blocked by one creature is finished by a second one, 702.111b.)
    if any(blocked.values()) and ((not finish and not options) or may_take_back(game, seat)):
        options.append(ResetBlockers())
    if finish:
        options.append(FinishBlockers())
    return tuple(options)


def _completable(game: Game, attackers: list[GameObject], blocked: dict[str, int],
                 free: list[GameObject], most: int) -> bool:
    """Whether a declaration with ``blocked[a]`` blockers on each attacker ``a`` can be
    completed legally by more blocks from the ``free`` creatures, each blocking one attacker
    (509.1a): every menace attacker blocked by none or two or more (702.111b), and as many
    "must be blocked" attackers blocked as any declaration could (``most``, 509.1c)."""
    short, unblocked, need = _requirements(attackers, blocked, most)
    return _fill(game, short, unblocked, need, free)


def _requirements(attackers: list[GameObject], blocked: dict[str, int], most: int
                  ) -> tuple[list[GameObject], list[GameObject], int]:
    """What more blocks a declaration with ``blocked[a]`` blockers on each attacker must
    have (:func:`_completable`): the menace attackers blocked by one (each needs one more,
    702.111b), the "must be blocked" attackers not blocked yet, and how many of those must
    be (``most`` in all, 509.1c)."""
    short = [a for a in attackers if a.has("Menace") and blocked[a.id] == 1]
    must = [a for a in attackers if "must_be_blocked" in a.restrictions]
    need = most - sum(1 for a in must if blocked[a.id])
    return short, [a for a in must if not blocked[a.id]], need


class _Matching:
    """A maximum matching of the attackers ``short`` (each needing one blocker more) and
    ``unblocked`` (each blocked or not) to the ``free`` creatures able to block them, each
    creature blocking one (509.1a): the short ones matched first (``missing``: how many of
    them couldn't be), ``count`` of the others."""

    def __init__(self, game: Game, short: list[GameObject], unblocked: list[GameObject],
                 free: list[GameObject]) -> None:
        self.game, self.short, self.unblocked = game, short, unblocked
        self.free = free
        self.shorts = len(short)
        self.fits = [[j for j, b in enumerate(free) if can_block(game, b, a)]
                     for a in (*short, *unblocked)]
        self.owner = [-1] * len(free)  # the attacker each creature blocks
        self.missing = self.count = 0
        for i in range(len(self.fits)):
            if _augment(i, self.fits, self.owner, [False] * len(free)):
                self.count += i >= self.shorts
            elif i < self.shorts:
                self.missing += 1

    def used(self) -> set[str]:
        """The creatures the matching has blocking."""
        return {self.free[j].id for j, who in enumerate(self.owner) if who != -1}

    def without(self, blocker: GameObject, need: int) -> bool:
        """Whether the short attackers can all be matched and ``need`` of the others
        without ``blocker``: the attacker it blocks is matched again by one augmenting path
        that avoids it (the rest of a maximum matching stays one)."""
        j = next(k for k, b in enumerate(self.free) if b is blocker)
        who = self.owner[j]
        if who == -1:
            return not self.missing and self.count >= need
        owner = list(self.owner)
        owner[j] = -1
        seen = [False] * len(owner)
        seen[j] = True  # (never offered again)
        if _augment(who, self.fits, owner, seen):
            return not self.missing and self.count >= need
        if who >= self.shorts:  # (no other augmenting path: a maximum one, one fewer)
            return not self.missing and self.count - 1 >= need
        # A short attacker left without: one of the others may give up its creature for
        # it -- matched anew without the creature (rare: one search).
        again = _Matching(self.game, self.short, self.unblocked,
                          [b for b in self.free if b is not blocker])
        return not again.missing and again.count >= need


def _augment(start: int, fits: list[list[int]], owner: list[int], seen: list[bool]) -> bool:
    """An augmenting path from attacker ``start`` (an iterative depth-first search, each
    creature visited once; ``seen``: those not to visit): ``owner`` re-matched along it.
    Whether one was found."""
    parent: dict[int, tuple[int, int]] = {}  # creature -> (attacker reaching it, its parent)
    stack = [(start, iter(fits[start]), -1)]
    while stack:
        attacker, choices, via = stack[-1]
        for j in choices:
            if seen[j]:
                continue
            seen[j] = True
            parent[j] = (attacker, via)
            if owner[j] == -1:
                k = j
                while k != -1:  # re-match along the path back to ``start``
                    who, back = parent[k]
                    owner[k] = who
                    k = back
                return True
            stack.append((owner[j], iter(fits[owner[j]]), j))
            break
        else:
            stack.pop()
    return False


def _matchable_blocks(game: Game, attackers: list[GameObject], blocked: dict[str, int],
                      free: list[GameObject], most: int
                      ) -> list[tuple[GameObject, GameObject]]:
    """The blocks (blocker, attacker) of a ``free`` creature after which the declaration
    can still be completed (:func:`_completable`, no menace attacker that must be blocked):
    for each attacker, one matching over every free creature, then for each creature it
    uses one augmenting path without it."""
    out: list[tuple[GameObject, GameObject]] = []
    for attacker in attackers:
        able = [b for b in free if can_block(game, b, attacker)]
        if not able:
            continue
        short, unblocked, need = _requirements(
            attackers, {**blocked, attacker.id: blocked[attacker.id] + 1}, most)
        if not short and need <= 0:  # (the usual block: nothing more to complete)
            out.extend((blocker, attacker) for blocker in able)
            continue
        matching = _Matching(game, short, unblocked, free)
        if matching.missing or matching.count < need:
            continue  # (a creature fewer can't complete it either)
        used = matching.used()
        out.extend((blocker, attacker) for blocker in able
                   if blocker.id not in used or matching.without(blocker, need))
    order = {b.id: i for i, b in enumerate(free)}
    return sorted(out, key=lambda pair: order[pair[0].id])


def _fill_using(game: Game, short: list[GameObject], unblocked: list[GameObject], need: int,
                free: list[GameObject]) -> bool:
    """:func:`_fill` by a matching (no menace attacker among ``unblocked``)."""
    matching = _Matching(game, short, unblocked, free)
    return not matching.missing and matching.count >= need


def _fill(game: Game, short: list[GameObject], unblocked: list[GameObject], need: int,
          free: list[GameObject]) -> bool:
    """Whether the ``free`` creatures can give each menace attacker in ``short`` one more
    blocker and block ``need`` of the ``unblocked`` "must be blocked" attackers too."""
    if not any(a.has("Menace") for a in unblocked):
        return _fill_using(game, short, unblocked, need, free)
    if short:
        first, rest = short[0], short[1:]
        return any(_fill(game, rest, unblocked, need, [f for f in free if f is not b])
                   for b in free if can_block(game, b, first))
    return need <= 0 or _most_obeyable(game, unblocked, free) >= need


def _most_obeyable(game: Game, must: list[GameObject], able: list[GameObject]) -> int:
    """The most "must be blocked" attackers that can each be blocked at once, each blocker
    blocking one attacker (509.1a) and a menace attacker by two or more (702.111b)."""
    if not must:
        return 0
    first, rest = must[0], must[1:]
    best = _most_obeyable(game, rest, able)  # leave the first unblocked
    fits = [b for b in able if can_block(game, b, first)]
    need = 2 if first.has("Menace") else 1
    for chosen in combinations(fits, need):
        left = [b for b in able if b not in chosen]
        best = max(best, 1 + _most_obeyable(game, rest, left))
        if best == len(must):
            break
    return best


def declare_blocker(game: Game, action: DeclareBlocker) -> None:
    """Record a block (rules 509.1a, 509.1h)."""
    game.combat.blocking[action.object_id] = action.attacker_id
    game.combat.blocked_by.setdefault(action.attacker_id, []).append(action.object_id)


def reset_blockers(game: Game, seat: int) -> None:
    """Undo ``seat``'s blocks so far (their declaration starts over)."""
    combat = game.combat
    for blocker, attacker in list(combat.blocking.items()):
        if combat.attackers.get(attacker) == seat:
            del combat.blocking[blocker]
            combat.blocked_by[attacker].remove(blocker)
            if not combat.blocked_by[attacker]:
                del combat.blocked_by[attacker]


def finish_blockers(game: Game, seat: int, events: list[Event]) -> None:
    """Rule 509.1: the declaration is complete; block triggers trigger (509.3a)."""
    combat = game.combat
    combat.blockers_done.append(seat)
    pairs = tuple((b, a) for b, a in combat.blocking.items() if combat.attackers.get(a) == seat)
    if pairs:
        events.append(BlockersDeclared(pairs))


def _divisions(total: int, parts: int) -> list[tuple[int, ...]]:
    """Every way to divide ``total`` among ``parts`` ordered recipients (stars and bars)."""
    out = []
    for bars in combinations(range(total + parts - 1), parts - 1):
        edges = (-1, *bars, total + parts - 1)
        out.append(tuple(edges[i + 1] - edges[i] - 1 for i in range(parts)))
    return out


def _lethal(game: Game, attacker: GameObject, blocker: GameObject) -> int:
    """Rules 702.19b, 702.2c: lethal damage counts damage already marked; with deathtouch
    any nonzero amount is lethal -- none at all if what is marked is lethal already (an
    indestructible blocker, 702.12b)."""
    lethal = max(blocker.toughness - blocker.damage, 0)
    return min(1, lethal) if attacker.has("Deathtouch") else lethal


def _deals_damage_now(game: Game, obj: GameObject) -> bool:
    """Rule 510.4: in a first-strike damage step only first and double strikers deal damage;
    in the next, those that had neither as it began, and double strikers."""
    combat = game.combat
    striker = obj.has("First strike") or obj.has("Double strike")
    if combat.first_strike_step:
        return striker
    if obj.has("Double strike"):
        return True
    return obj.id not in combat.first_strikers


def _attacked(game: Game, attacker: str) -> Target:
    """What an unblocked attacker damages: the planeswalker it attacks, or the player."""
    walker = game.combat.attacking_planeswalker.get(attacker)
    if walker is not None:
        return ("object", walker)
    return ("player", game.combat.attackers[attacker])


#: "You may have [this creature] assign its combat damage as though it weren't blocked" (rule
#: 510.1c): a rules change granted until end of turn or by a static ability.
UNBLOCKED = "assigns_as_unblocked"


def _division_terms(game: Game, attacker_id: str, blockers: list[str]
                    ) -> tuple[list[str], bool, bool] | None:
    """Rule 510.1c: what an attacker blocked by ``blockers`` divides its damage among, if
    its controller must choose -- among two or more blockers, or, with trample, between
    blockers and what it attacks (702.19b): the recipients (``""`` last for what it
    attacks), whether it tramples, and whether it may assign all of it as though it weren't
    blocked. None when there is nothing to choose."""
    obj = game.objects.get(attacker_id)
    if obj is None or not _deals_damage_now(game, obj):
        return None
    # Rule 506.4c: an attacker whose planeswalker left attacks nothing any more --
    # trample (702.19b) and "as though it weren't blocked" have nowhere to send damage.
    attacks = attacked_seat(game, attacker_id) is not None
    trample = obj.has("Trample") and attacks
    # "You may have it assign its combat damage as though it weren't blocked": all of it
    # to what it attacks instead (rule 510.1c).
    unblocked = UNBLOCKED in obj.restrictions and attacks
    if obj.power <= 0 or not blockers or (len(blockers) < 2 and not trample
                                          and not unblocked):
        return None
    recipients = list(blockers)
    if trample:
        recipients.append("")  # the player or planeswalker it attacks
    return recipients, trample, unblocked


def _division_count(power: int, lethal: list[int], trample: bool) -> int:
    """How many ways :func:`_divisions` gives ``power`` among the blockers (whose lethal
    damage is ``lethal``) and, with ``trample``, what it attacks -- counted, not listed: the
    divisions giving the player none (stars and bars), and with trample those giving every
    blocker lethal damage and the player the rest, at least 1 (702.19b)."""
    parts = len(lethal)
    if not trample:
        return comb(power + parts - 1, parts - 1)
    spare = power - sum(lethal)
    return comb(power + parts - 1, parts - 1) + (comb(spare - 1 + parts, parts)
                                                 if spare > 0 else 0)


def pending_assignment(game: Game) -> tuple[int, tuple[Action, ...]] | None:
    """Rule 510.1c: the next attacker whose controller must divide its damage -- among two or
    more blockers, or, with trample, between blockers and what it attacks (702.19b).

    Every way is an option -- unless there are more than :data:`MAX_OPTIONS`: then the
    division is asked one recipient at a time (see :func:`_division_step`)."""
    combat = game.combat
    for attacker_id, blockers in combat.blocked_by.items():
        if attacker_id in combat.assignments:
            continue
        terms = _division_terms(game, attacker_id, blockers)
        if terms is None:
            continue
        recipients, trample, unblocked = terms
        obj = game.objects[attacker_id]
        lethal = [_lethal(game, obj, game.objects[b]) if trample else 0 for b in blockers]
        options: list[AssignCombatDamage] = []
        if _division_count(obj.power, lethal, trample) > MAX_OPTIONS:
            options = _division_step(game, attacker_id, recipients, lethal, trample)
        else:
            for split in _divisions(obj.power, len(recipients)):
                if trample and split[-1] > 0 and any(
                        n < least for least, n in zip(lethal, split, strict=False)):
                    continue  # rule 702.19b: lethal to every blocker before any excess
                options.append(AssignCombatDamage(attacker_id, tuple(zip(recipients, split,
                                                                         strict=True))))
        if unblocked and not combat.dividing.get(attacker_id):
            options.append(AssignCombatDamage(attacker_id, (("", obj.power),)))
        if len(options) > 1:
            return obj.controller, tuple(options)
        combat.assignments[attacker_id] = options[0].assignments if options else ()
    return None


def _division_step(game: Game, attacker_id: str, recipients: list[str], lethal: list[int],
                   trample: bool) -> list[AssignCombatDamage]:
    """One step of a division asked one recipient at a time (510.1c): after the amounts
    chosen so far for the first recipients, each amount the next may get -- partial
    options, or whole divisions once the one after it is the last, which gets the rest.
    Trample: damage to what it attacks only once every blocker has lethal damage
    (702.19b). Together the steps reach every division :func:`_divisions` lists."""
    power = game.objects[attacker_id].power
    prefix = game.combat.dividing.get(attacker_id, ())
    if tuple(r for r, _ in prefix) != tuple(recipients[:len(prefix)]) or \
            len(prefix) >= len(recipients) - 1:
        prefix = ()  # (the blockers changed since: start over)
    left = power - sum(n for _, n in prefix)
    k = len(prefix)
    if k and left <= 0:  # (nothing left: the rest get none)
        return [AssignCombatDamage(attacker_id, (*prefix, *((r, 0) for r in recipients[k:])))]
    out = []
    for amount in range(left + 1):
        step = (*prefix, (recipients[k], amount))
        if k + 2 < len(recipients):
            out.append(AssignCombatDamage(attacker_id, step, partial=True))
            continue
        rest = left - amount
        if trample and rest > 0 and any(n < least for least, (_, n) in
                                        zip(lethal, step, strict=True)):
            continue  # rule 702.19b: lethal to every blocker before any excess
        out.append(AssignCombatDamage(attacker_id, (*step, (recipients[-1], rest))))
    return out


def take_assignment(game: Game, action: AssignCombatDamage) -> None:
    """Record a division of combat damage (510.1c), or one step of one asked in steps."""
    combat = game.combat
    if action.partial:
        combat.dividing[action.attacker_id] = action.assignments
        return
    combat.dividing.pop(action.attacker_id, None)
    combat.assignments[action.attacker_id] = action.assignments


def is_division(game: Game, action: AssignCombatDamage) -> bool:
    """Whether ``action`` is a whole division of its attacker's damage that its controller
    may choose now (510.1c, 702.19b): one the steps of :func:`_division_step` reach."""
    combat = game.combat
    blockers = combat.blocked_by.get(action.attacker_id)
    if blockers is None or action.attacker_id in combat.assignments:
        return False
    terms = _division_terms(game, action.attacker_id, blockers)
    if terms is None:
        return False
    recipients, trample, unblocked = terms
    obj = game.objects[action.attacker_id]
    if unblocked and action.assignments == (("", obj.power),):
        return True
    amounts = [n for _, n in action.assignments]
    if [r for r, _ in action.assignments] != recipients or sum(amounts) != obj.power or \
            any(n < 0 for n in amounts):
        return False
    return not (trample and amounts[-1] > 0 and any(
        n < _lethal(game, obj, game.objects[b]) for b, n in zip(blockers, amounts,
                                                                strict=False)))


def begin_damage_step(game: Game) -> None:
    """Rule 510.4: decide whether this is a first-strike combat damage step."""
    combat = game.combat
    if combat.first_strikers or combat.first_strike_step:
        combat.first_strike_step = False  # the second combat damage step
        return
    combatants = [game.objects[i] for i in (*combat.attackers, *combat.blocking)
                  if i in game.objects]
    combat.first_strike_step = any(
        o.has("First strike") or o.has("Double strike") for o in combatants)


def deal_combat_damage(game: Game, events: list[Event]) -> None:
    """Rules 510.1-510.2: every attacker and blocker dealing damage in this step assigns it;
    all of it is dealt at once."""
    combat = game.combat
    assigned: list[tuple[GameObject, Target, int]] = []
    for attacker_id in combat.attackers:
        obj = game.objects[attacker_id]
        power = obj.power
        if power <= 0 or not _deals_damage_now(game, obj):
            continue  # rule 510.1a
        if attacker_id not in combat.blocked_by:
            assigned.append((obj, _attacked(game, attacker_id), power))  # unblocked
            continue
        blockers = combat.blocked_by[attacker_id]
        if not blockers:
            if obj.has("Trample") or UNBLOCKED in obj.restrictions:  # rule 702.19d
                assigned.append((obj, _attacked(game, attacker_id), power))
            continue  # rule 510.1c: no blockers left, no damage
        split = combat.assignments.get(attacker_id)
        if split is None:
            assigned.append((obj, ("object", blockers[0]), power))
            continue
        for recipient, amount in split:
            where: Target = _attacked(game, attacker_id) if recipient == "" \
                else ("object", recipient)
            assigned.append((obj, where, amount))
    for blocker_id, attacker_id in combat.blocking.items():
        blocker = game.objects[blocker_id]
        # Rule 510.1d: a blocker whose attacker was removed from combat assigns no damage.
        if blocker.power > 0 and attacker_id in combat.attackers and \
                _deals_damage_now(game, blocker):
            assigned.append((blocker, ("object", attacker_id), blocker.power))
    if combat.first_strike_step:
        combat.first_strikers = [
            i for i in (*combat.attackers, *combat.blocking)
            if i in game.objects and (game.objects[i].has("First strike")
                                      or game.objects[i].has("Double strike"))]
    deal_damage_at_once(game, [(source, target, amount) for source, target, amount in assigned
                               if target[0] != "object" or str(target[1]) in game.objects],
                        events, combat=True)  # rule 510.2
    combat.assignments.clear()
    combat.dividing.clear()
    combat.damage_dealt = True
