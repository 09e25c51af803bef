"""Mana pools and paying mana costs (rules 106, 107.4, 601.2g-h, 605)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from itertools import accumulate

from server.cards.mana import MANA_TYPES, ManaCost
from server.cards.model import CardDef
from server.engine import filters
from server.engine.board import board
from server.engine.events import Event, Sacrificed
from server.engine.state import MAX_OPTIONS, Game, Zone
from server.engine.zones import move

_COLORLESS = MANA_TYPES.index("C")


def _hybrid_choice(pool: list[int], cost: ManaCost) -> list[int] | None:
    """The pool left after paying the coloured, colorless and hybrid symbols, or None.

    Each hybrid symbol is paid with one of its two colours (rule 107.4e); the first
    assignment (in symbol order, left half first) that leaves enough for the generic part
    is used, so payment is deterministic.
    """
    left = list(pool)
    for i, need in enumerate(cost.symbols):
        if left[i] < need:
            return None
        left[i] -= need
    if not cost.hybrid:
        return left if sum(left) >= cost.generic else None  # (the usual case)
    return left if _assign_hybrid(left, cost, 0) else None


def _assign_hybrid(left: list[int], cost: ManaCost, k: int) -> bool:
    """Pay hybrid symbols ``k`` on from ``left`` (in place), leaving enough for the generic
    part; False (``left`` restored) if no assignment does. A module function, not a nested
    one: a closure that calls itself is a reference cycle, garbage only the cyclic collector
    frees (see :mod:`server.gctune`)."""
    if k == len(cost.hybrid):
        return sum(left) >= cost.generic
    for colour in cost.hybrid[k]:
        i = MANA_TYPES.index(colour)
        if left[i] > 0:
            left[i] -= 1
            if _assign_hybrid(left, cost, k + 1):
                return True
            left[i] += 1
    return False


def can_pay(pool: list[int], cost: ManaCost) -> bool:
    """Whether the mana in ``pool`` can pay ``cost`` (X already fixed, rule 107.3a)."""
    return _hybrid_choice(pool, cost) is not None


def pay(pool: list[int], cost: ManaCost) -> None:
    """Remove ``cost`` from ``pool``: each symbol with its own type, hybrid symbols with one
    of their colours, then generic (rule 601.2h).

    Generic mana is taken from colorless first, then from the most plentiful colour. This is
    the first (default) way :func:`payments` offers; the player chooses among all of them.
    """
    left = _hybrid_choice(pool, cost)
    if left is None:
        raise ValueError(f"cannot pay {cost} from pool {pool}")
    pool[:] = left
    generic = cost.generic
    take = min(generic, pool[_COLORLESS])
    pool[_COLORLESS] -= take
    generic -= take
    while generic:
        i = max(range(len(MANA_TYPES)), key=lambda k: (pool[k], -k))
        pool[i] -= 1
        generic -= 1


def as_paid_by(game: Game, seat: int, cost: ManaCost) -> ManaCost:
    """The cost as ``seat``'s mana may pay it: while they control a permanent that lets them
    "spend mana as though it were mana of any color" (rule 609.4b), any mana pays a colored
    symbol -- as if it were generic; {C} still needs colorless mana. The cost itself (and
    what was spent) doesn't change."""
    if not any(o.controller == seat for o in board(game).any_color):
        return cost
    colored = sum(cost.symbols[:_COLORLESS]) + len(cost.hybrid)
    if not colored:
        return cost
    symbols = (0, 0, 0, 0, 0, cost.symbols[_COLORLESS])
    return ManaCost(cost.generic + colored, symbols, cost.x_count, ())


def spend_text(counts: list[int]) -> str:
    """Mana counts as letters in WUBRGC order, e.g. [0, 0, 1, 2, 0, 0] -> ``"BRR"`` (the
    first types' only, if fewer are given)."""
    return "".join(t * n for t, n in zip(MANA_TYPES, counts, strict=False))


def payments(pool: list[int], cost: ManaCost) -> list[str]:
    """Every distinct way to pay ``cost`` exactly from ``pool`` (rule 601.2h), as the mana
    spent. The first is the engine's default (see :func:`pay`); the rest follow in order.
    (Only the few ways of at most :data:`MAX_OPTIONS` are kept for next time.)"""
    key = tuple(pool)
    if payment_count(key, cost) <= MAX_OPTIONS:
        return list(_payments(key, cost))
    return list(_payments.__wrapped__(key, cost))


@lru_cache(maxsize=4096)
def payment_count(pool: tuple[int, ...], cost: ManaCost) -> int:
    """How many ways :func:`payments` lists, counted without listing them: the amounts of
    each mana type, at least its symbols and at most the pool's, that add up to the cost
    (rule 601.2h) -- exact, or with hybrid symbols (107.4e) a bound from above."""
    if not can_pay(list(pool), cost):
        return 0
    total = cost.generic + sum(cost.symbols) + len(cost.hybrid)
    ways = [1] + [0] * total  # ways[n]: amounts of the types so far that add up to n
    for have, need in zip(pool, cost.symbols, strict=True):
        upto = list(accumulate(ways, initial=0))  # upto[n]: ways[0] + ... + ways[n - 1]
        # ways[n - need] + ... + ways[n - min(have, n)]: amounts need..have of this type
        ways = [upto[n - need + 1] - upto[max(n - have, 0)] if n >= need else 0
                for n in range(total + 1)]
    return ways[total]


def payment_steps(pool: list[int], cost: ManaCost, prefix: tuple[int, ...] = ()
                  ) -> list[tuple[str, int]]:
    """The ways to pay ``cost`` from ``pool`` as ``(mana, types)`` options (rule 601.2h):
    every way (``types`` 0) when there are at most :data:`MAX_OPTIONS`; else one step of the
    payment asked a mana type at a time -- how much of the next type with a choice to spend,
    after ``prefix`` (the amounts of the first types chosen so far), each amount from which
    the payment can still be completed. A type with one possible amount is not asked; the
    last step's options are whole payments. Together the steps reach every way."""
    key = tuple(pool)
    if not prefix and payment_count(key, cost) <= MAX_OPTIONS:
        return [(way, 0) for way in _payments(key, cost)]
    default = list(pool)
    if not can_pay(default, cost):
        return []
    pay(default, cost)
    first = [a - b for a, b in zip(pool, default, strict=True)]
    counts = _forced(key, cost, list(prefix))
    if counts is None:
        return []
    i = len(counts)
    if i == len(MANA_TYPES):
        return [(spend_text(counts), 0)]  # (one way only)
    out: list[tuple[str, int]] = []
    for amount in sorted({a for lo, hi in _spans(key, cost, counts) for a in range(lo, hi + 1)}):
        step = _forced(key, cost, [*counts, amount])
        if step is None:  # pragma: no cover - a span's amounts all complete
            continue
        # A step names the amounts up to the type it asks (``types`` i + 1: its last one is
        # this step's choice), not the types after it that have one possible amount left
        # -- counted in, the options were labelled by those (31 options all "Spend no
        # {U}"); the next step fills them in again (_forced).
        option = (spend_text(step), 0) if len(step) == len(MANA_TYPES) \
            else (spend_text(step[:i + 1]), i + 1)
        if step[:i + 1] == first[:i + 1]:
            out.insert(0, option)  # (the way the engine pays by default first, see pay())
        else:
            out.append(option)
    return out


def payment_options(game: Game, pool: list[int], cost: ManaCost) -> list[tuple[str, int]]:
    """:func:`payment_steps` for the pending ``PAY_MANA`` decision: after the steps its
    player took so far for this pool and cost (:attr:`Game.mana_prefix`)."""
    key = tuple(pool)
    taken = game.mana_prefix
    prefix = taken[2] if taken is not None and taken[:2] == (key, cost) else ()
    return payment_steps(pool, cost, prefix)


def take_payment_step(game: Game, pool: list[int], cost: ManaCost, mana: str, types: int
                      ) -> None:
    """Remember a step of a payment asked in steps (a ``PayMana`` with ``types``): its
    amounts of the first ``types`` mana types; the decision asks the next one."""
    game.mana_prefix = (tuple(pool), cost,
                        tuple(mana.count(t) for t in MANA_TYPES[:types]))


def is_payment(pool: list[int], cost: ManaCost, mana: str) -> bool:
    """Whether spending exactly ``mana`` from ``pool`` pays ``cost`` (rule 601.2h): one of
    :func:`payments`, found without listing them (a logged whole payment where the
    decision now asks in steps)."""
    if any(t not in MANA_TYPES for t in mana):
        return False
    counts = tuple(mana.count(t) for t in MANA_TYPES)
    return spend_text(list(counts)) == mana and _completes(tuple(pool), cost, counts)


def _forced(pool: tuple[int, ...], cost: ManaCost, counts: list[int]) -> list[int] | None:
    """``counts`` (amounts of the first mana types) extended by each next type that has only
    one amount from which the payment can be completed; None if it can't be."""
    if not _completes(pool, cost, tuple(counts)):
        return None
    while len(counts) < len(MANA_TYPES):
        spans = _spans(pool, cost, counts)
        lo = min(lo for lo, _ in spans)
        if lo != max(hi for _, hi in spans):
            break
        counts.append(lo)
    return counts


def _spans(pool: tuple[int, ...], cost: ManaCost, counts: list[int]) -> list[tuple[int, int]]:
    """The amounts of the next mana type after ``counts`` from which the payment can be
    completed: for each way to pay the hybrid symbols (107.4e) that ``counts`` covers, an
    interval -- at least its symbols, at most the pool's, leaving for the types after it no
    more than they hold and no less than they need."""
    k = len(counts)
    rest = cost.generic + sum(cost.symbols) + len(cost.hybrid) - sum(counts)
    out = []
    for extra in _hybrid_splits(cost.hybrid):
        need = [s + e for s, e in zip(cost.symbols, extra, strict=True)]
        if any(c < n for c, n in zip(counts, need, strict=False)) or \
                any(n > p for n, p in zip(need[k:], pool[k:], strict=True)):
            continue
        lo = max(need[k], rest - sum(pool[k + 1:]))
        hi = min(pool[k], rest - sum(need[k + 1:]))
        if lo <= hi:
            out.append((lo, hi))
    return out


def _completes(pool: tuple[int, ...], cost: ManaCost, counts: tuple[int, ...]) -> bool:
    """Whether spending ``counts`` of the first mana types can be completed, from the rest
    of ``pool``, into a way to pay ``cost`` exactly: some choice of colour for each hybrid
    symbol (107.4e) whose symbols the amounts cover, the rest of the total within what the
    remaining types hold and need."""
    k = len(counts)
    rest = cost.generic + sum(cost.symbols) + len(cost.hybrid) - sum(counts)
    if rest < 0 or any(c > p for c, p in zip(counts, pool, strict=False)):
        return False
    for extra in _hybrid_splits(cost.hybrid):
        need = [s + e for s, e in zip(cost.symbols, extra, strict=True)]
        if all(c >= n for c, n in zip(counts, need, strict=False)) and \
                all(n <= p for n, p in zip(need[k:], pool[k:], strict=True)) and \
                sum(need[k:]) <= rest <= sum(pool[k:]):
            return True
    return False


@lru_cache(maxsize=256)
def _hybrid_splits(hybrid: tuple[tuple[str, str], ...]) -> tuple[tuple[int, ...], ...]:
    """Each distinct count of mana by type that paying the hybrid symbols takes (107.4e)."""
    found = {(0,) * len(MANA_TYPES)}
    for pair in hybrid:
        found = {tuple(n + (MANA_TYPES[i] == colour) for i, n in enumerate(counts))
                 for counts in found for colour in pair}
    return tuple(sorted(found))


@lru_cache(maxsize=4096)
def _payments(pool: tuple[int, ...], cost: ManaCost) -> tuple[str, ...]:
    """:func:`payments`, a function of the two values only (a cost is an immutable value),
    so found once for each: the same pools pay the same costs again and again."""
    if not can_pay(list(pool), cost):
        return ()
    default = list(pool)
    pay(default, cost)
    first = spend_text([a - b for a, b in zip(pool, default, strict=True)])
    total = cost.generic + sum(cost.symbols) + len(cost.hybrid)
    found = _ways_to_spend(list(pool), cost, 0, total, [])
    return (first, *sorted(f for f in found if f != first))


def _ways_to_spend(pool: list[int], cost: ManaCost, i: int, left: int, spent: list[int]
                   ) -> Iterator[str]:
    """Each way to spend ``left`` more mana from ``pool``'s types ``i`` on that pays
    ``cost`` (a module function: see :func:`_assign_hybrid`)."""
    if i == len(MANA_TYPES):
        if left == 0 and can_pay(spent, cost):
            yield spend_text(spent)
        return
    for k in range(min(pool[i], left) + 1):
        yield from _ways_to_spend(pool, cost, i + 1, left - k, [*spent, k])


def spend(pool: list[int], mana: str) -> None:
    """Remove exactly the mana ``mana`` names from ``pool``."""
    for symbol in mana:
        i = MANA_TYPES.index(symbol)
        if pool[i] <= 0:
            raise ValueError(f"no {symbol} mana left to spend")
        pool[i] -= 1


def usable(restriction: tuple[str, ...], spell: CardDef | None) -> bool:
    """Rule 106.6: whether mana that may be spent only to cast spells of these card types
    (``()``: no restriction) may pay for ``spell`` (None: a cost that isn't a spell's)."""
    return not restriction or (spell is not None and
                               any(t in spell.card_types for t in restriction))


def spendable(game: Game, seat: int, spell: CardDef | None = None) -> list[int]:
    """The mana in ``seat``'s pool that may pay for ``spell`` (None: for anything else, e.g.
    an ability), by type: unrestricted mana plus restricted mana allowed for it (106.6)."""
    player = game.player(seat)
    pool = list(player.mana_pool)
    for restriction, counts in player.restricted_mana.items():
        if usable(restriction, spell):
            pool = [a + b for a, b in zip(pool, counts, strict=True)]
    return pool


def spend_for(game: Game, seat: int, mana: str, spell: CardDef | None = None) -> None:
    """Remove exactly the mana ``mana`` names from what ``seat`` may spend on ``spell``:
    restricted mana allowed for it first (rule 106.6) -- it can pay for nothing the
    unrestricted mana of the same type couldn't, so spending it first never costs a choice."""
    player = game.player(seat)
    for symbol in mana:
        i = MANA_TYPES.index(symbol)
        for restriction, counts in player.restricted_mana.items():
            if counts[i] > 0 and usable(restriction, spell):
                counts[i] -= 1
                break
        else:
            if player.mana_pool[i] <= 0:
                raise ValueError(f"no {symbol} mana left to spend")
            player.mana_pool[i] -= 1


def converter_payments(game: Game, object_id: str) -> list[str]:
    """The ways its controller can pay the mana cost of a mana ability whose cost is mana
    (Prismite's {2}, 605.1a), from their pool: each the mana spent (601.2h)."""
    obj = game.objects[object_id]
    cost = obj.card.mana_ability_cost
    assert cost is not None
    return payments(game.player(obj.controller).mana_pool, cost)


def mana_sources(game: Game, seat: int, exclude: str | None = None) -> list[str]:
    """Untapped permanents ``seat`` controls that can tap for mana now (rule 605).

    ``exclude`` is a permanent whose {T} is already committed to another cost.
    """
    out = []
    for obj in board(game).mana_sources:
        if obj.controller != seat:
            continue  # (the cheapest test first: about half the sources are another's)
        card = obj.card
        paid_with = card.mana_ability_cost
        if paid_with is not None:  # "{2}: Add ...": no {T}, paid from the pool (605.1a)
            if can_pay(game.players[seat].mana_pool, paid_with):
                out.append(obj.id)
            continue
        if obj.tapped or not card.mana_abilities:
            continue
        oid = obj.id
        if oid == exclude:
            continue
        # Only a creature can be summoning sick: a creature card, or "Creature" among the
        # types effects added (GameObject.is_creature on the battlefield).
        if (card.creature or obj.types_added) and game.summoning_sick(obj) \
                and not obj.has("Haste"):
            continue  # rules 302.6, 702.10c: {T} abilities of summoning-sick creatures
        out.append(oid)
    return out


#: A mana type's place in a pool (``MANA_TYPES`` order).
_PLACE = {symbol: i for i, symbol in enumerate(MANA_TYPES)}


def _add(pool: list[int], mana: str) -> None:
    for symbol in mana:
        pool[_PLACE[symbol]] += 1


@cache
def _kinds(ability: str) -> tuple[str, ...]:
    """A mana ability's alternatives: ``"B|R"`` -> ``("B", "R")``."""
    return tuple(ability.split("|"))


def one_kind(card: CardDef) -> bool:
    """Whether the card's mana ability adds one kind of mana only (not ``"B|R"``): then
    :func:`mana_choices` has a single entry, whatever "for each" counts (106.4)."""
    return len(_kinds(card.mana_abilities[0])) == 1


def mana_choices(game: Game, object_id: str) -> tuple[str, ...]:
    """The mana a source's ability can add, one entry per choice: ``"B|R"`` is B or R; "for
    each [permanent]" adds it once for each one counted now ("" if none, 106.4)."""
    card = game.objects[object_id].card
    options = _kinds(card.mana_abilities[0])
    spec = card.mana_for_each
    if spec is None:
        return options
    controller = game.objects[object_id].controller
    n = sum(1 for i in game.battlefield
            if filters.matches(game, game.objects[i], spec, controller, object_id))
    return tuple(m * n for m in options)


#: A mana ability whose cost is mana (Prismite's "{2}: Add one mana of any color", 605.1a):
#: its cost and the alternatives it adds. It can be activated again and again while the
#: mana lasts, and never adds more mana than it takes.
Converter = tuple[ManaCost, tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class Potential:
    """Mana a player has plus what their untapped sources could add: a fixed part and, for
    sources that add one of several kinds, the alternatives of each; and the mana abilities
    that turn some of that mana into other mana (601.2g: activated while paying)."""

    fixed: tuple[int, ...]
    choices: tuple[tuple[str, ...], ...]
    converters: tuple[Converter, ...] = ()


#: What "for each" mana sources could add now (:func:`mana_choices`) by source id: kept by
#: the caller while the game doesn't change, shared by the pools it builds.
ForEachMana = dict[str, tuple[str, ...]]


def potential_pool(game: Game, seat: int, exclude: str | None = None,
                   sources: list[str] | None = None,
                   spell: CardDef | None = None, *,
                   for_each: ForEachMana | None = None) -> Potential:
    """What ``seat`` could spend now (see :class:`Potential`) on ``spell`` (None: on any
    other cost; restricted mana counts only where allowed, rule 106.6); ``sources``: their
    :func:`mana_sources`, if known; ``for_each``: what "for each" sources add, as far as
    the caller has counted it since the game last changed (filled in here) -- a priority
    decision builds a pool for each activated ability (602.2b), and counting each Leafkin
    Avenger's creatures again for each one cost the cube of the board (an attacker)."""
    pool = spendable(game, seat, spell)
    choices = []
    restricted = False
    objects = game.objects
    for oid in mana_sources(game, seat, exclude) if sources is None else sources:
        card = objects[oid].card
        if card.mana_ability_cost is not None:
            continue  # (a converter, below)
        if card.mana_only_for:
            if not usable(card.mana_only_for, spell):
                continue  # rule 106.6: its mana can't be spent on this
            restricted = True
        # mana_choices(game, oid), but for "for each" (the usual source adds fixed mana)
        if card.mana_for_each is None:
            options = _kinds(card.mana_abilities[0])
        elif for_each is None:
            options = mana_choices(game, oid)
        else:
            counted = for_each.get(oid)
            options = for_each[oid] = mana_choices(game, oid) if counted is None else counted
        if len(options) == 1:
            _add(pool, options[0])
        else:
            choices.append(tuple(options))
    # Mana abilities that turn mana into other mana -- any mana that could pay them, the
    # pool's or the sources' (601.2g). (Not counted while some of the mana may be spent
    # only on certain spells, 106.6: it couldn't pay them.)
    converters: list[Converter] = []
    for obj in board(game).converters:  # (mostly none)
        cost = obj.card.mana_ability_cost
        if cost is None or obj.controller != seat:
            continue
        if restricted or spendable(game, seat) != spendable(game, seat, spell):
            break
        converter = (cost, mana_choices(game, obj.id))
        if converter not in converters:
            converters.append(converter)
    return Potential(tuple(pool), tuple(choices), tuple(converters))


def affordable(potential: Potential, cost: ManaCost) -> bool:
    """Whether some choice of mana from the sources pays ``cost`` (X fixed).

    The sources that add one of several kinds are folded in one at a time, keeping only the
    distinct pools they can make, each kind counted up to the most of it any payment could
    use (:func:`_useful`): what the cost can't spend is no choice. (Trying every
    combination of choices, as this did, doubled the work with each two-colour land: 21
    such lands and a spell they can't pay held the server 9 s at every priority.)"""
    fixed = list(potential.fixed)
    converters = potential.converters
    if not potential.choices:
        return can_pay(fixed, cost) or (bool(converters) and _converted(fixed, cost, converters))
    total = cost.generic + sum(cost.symbols) + len(cost.hybrid)
    if sum(fixed) + sum(max(len(m) for m in c) for c in potential.choices) < total:
        return False
    even = all(len({len(m) for m in c}) == 1 for c in potential.choices)
    if even and not converters:
        # Each source adds the same amount whichever it picks: only the coloured (and
        # colorless, hybrid) symbols depend on the choices -- the generic part is paid by
        # any mana, and there is enough of it in all (checked above; 601.2h).
        return any(can_pay(list(pool), replace(cost, generic=0))
                   for pool in _choice_pools(fixed, potential.choices, _useful(cost, 0)))
    need = _useful(cost, 0)
    fuel = next((i for i, n in enumerate(need) if n == 0), None)
    if fuel is not None and all(not any(c.symbols) and not c.hybrid for c, _made in converters):
        # Mana abilities paid with generic mana only (Prismite's {2}): mana of a type past
        # what the cost's symbols need pays only generic costs -- the cost's and theirs --
        # which any mana pays; so it is counted as mana of a type the cost doesn't need
        # (``fuel``), and the pools are few. (Capped loosely instead, Prismite, eight
        # Meteorites and eight two-colour lands took 44 s to find ten {W} unpayable.)
        pools = _choice_pools(fixed, potential.choices, need, fuel)
    else:
        room = sum(sum(c.symbols) + c.generic + len(c.hybrid) for c, _made in converters)
        pools = _choice_pools(fixed, potential.choices, _useful(cost, cost.generic + room * total))
    return any(can_pay(list(pool), cost) or (bool(converters)
                                               and _converted(list(pool), cost, converters))
               for pool in pools)


def _useful(cost: ManaCost, extra: int) -> tuple[int, ...]:
    """The most mana of each type paying ``cost`` could use: its symbols of that type, its
    hybrid symbols that take it, and ``extra`` more (its generic part, and what mana
    abilities that turn mana into other mana could spend)."""
    return tuple(cost.symbols[i] + sum(1 for h in cost.hybrid if t in h) + extra
                 for i, t in enumerate(MANA_TYPES))


def _choice_pools(fixed: list[int], choices: tuple[tuple[str, ...], ...],
                  cap: tuple[int, ...], fuel: int | None = None) -> set[tuple[int, ...]]:
    """Every distinct pool ``fixed`` plus one alternative of each of ``choices`` makes,
    each type counted up to ``cap`` -- past it dropped, or with ``fuel`` (a type whose cap
    is 0) counted as mana of that type: at most the product of ``cap`` + 1 pools (times the
    total mana, with ``fuel``), however many the choices (and each step folds only the pools
    distinct so far)."""
    start = [min(n, c) for n, c in zip(fixed, cap, strict=True)]
    if fuel is not None:
        start[fuel] += sum(fixed) - sum(start)
    pools = {tuple(start)}
    for alternatives in choices:
        folded: set[tuple[int, ...]] = set()
        for pool in pools:
            for mana in alternatives:
                after = list(pool)
                for symbol in mana:
                    i = _PLACE[symbol]
                    if after[i] < cap[i]:
                        after[i] += 1
                    elif fuel is not None:
                        after[fuel] += 1
                folded.add(tuple(after))
        pools = folded
    return pools


def _converted(pool: list[int], cost: ManaCost, converters: tuple[Converter, ...]) -> bool:
    """Whether activating mana abilities that turn mana into other mana (each any number of
    times, each paid any way it can be) makes ``pool`` pay ``cost``. Only mana of a kind the
    cost's coloured, colorless or hybrid symbols need is worth making (none of them adds
    mana on the whole), so at most one activation per such symbol is tried."""
    needed = {MANA_TYPES[i] for i, n in enumerate(cost.symbols) if n} | {
        colour for symbol in cost.hybrid for colour in symbol}
    worth = [(paid_with, made) for paid_with, choices in converters
             if (made := tuple(m for m in choices if m and set(m) <= needed))]
    if not worth:
        return False
    return _convert(pool, cost, worth, sum(cost.symbols) + len(cost.hybrid), set())


def _convert(pool: list[int], cost: ManaCost, worth: list[tuple[ManaCost, tuple[str, ...]]],
             depth: int, seen: set[tuple[int, ...]]) -> bool:
    """:func:`_converted`'s search: ``depth`` more activations at most, pools already
    tried in ``seen`` (a module function: see :func:`_assign_hybrid`)."""
    if can_pay(pool, cost):
        return True
    if depth == 0:
        return False
    for paid_with, made in worth:
        for way in payments(pool, paid_with):
            left = list(pool)
            spend(left, way)
            for mana in made:
                after = list(left)
                _add(after, mana)
                key = tuple(after)
                if key not in seen:
                    seen.add(key)
                    if _convert(after, cost, worth, depth - 1, seen):
                        return True
    return False


def most_mana(potential: Potential) -> int:
    """The most mana the player could have at once."""
    if not potential.choices:
        return sum(potential.fixed)  # (only sources of one kind of mana: the usual case)
    return sum(potential.fixed) + sum(max(len(m) for m in c) for c in potential.choices)


def tap_for_mana(game: Game, object_id: str, mana: str, events: list[Event],
                 paid_with: str = "") -> None:
    """Activate a permanent's mana ability: tap it (and sacrifice it, for "{T}, Sacrifice
    this: Add ...", 701.21a -- costs paid together, 605.3b) and add its mana (rules 106.4,
    605.3b); ``mana`` picks one of several kinds it could add, ``paid_with`` the mana that
    pays an ability whose cost is mana (Prismite's {2}; "": :func:`pay`'s way)."""
    obj = game.objects[object_id]
    cost = obj.card.mana_ability_cost
    if obj.zone is not Zone.BATTLEFIELD or (obj.tapped and cost is None):
        raise ValueError("only an untapped permanent can tap for mana")
    options = mana_choices(game, object_id)
    if mana not in options:
        mana = options[0]
    if cost is not None:
        # Rule 605.1a: its cost is mana, paid from the pool the way its controller chose
        # (601.2h, 602.2b).
        pool = game.player(obj.controller).mana_pool
        if paid_with:
            if paid_with not in payments(pool, cost):
                raise ValueError(f"{paid_with!r} doesn't pay {cost}")
            spend(pool, paid_with)
        else:
            pay(pool, cost)
    else:
        obj.tapped = True
    obj.activated_turn = game.turn  # rule 700.10: a mana ability is activated too
    if obj.card.mana_sacrifice:
        events.append(Sacrificed(obj.controller, object_id, obj.card))  # rule 701.21a
        move(game, object_id, Zone.GRAVEYARD, events)
    player = game.player(obj.controller)
    restriction = obj.card.mana_only_for
    _add(player.restricted_mana.setdefault(restriction, [0] * len(MANA_TYPES))
         if restriction else player.mana_pool, mana)  # rule 106.6


def restricted_for(game: Game, seat: int, spell: CardDef) -> bool:
    """Whether ``seat`` has restricted mana, or a source of it, that may pay for ``spell``
    (so what it could spend differs from what any cost could, rule 106.6)."""
    player = game.player(seat)
    return any(usable(r, spell) and any(c) for r, c in player.restricted_mana.items()) or any(
        o.controller == seat and usable(o.card.mana_only_for, spell)
        for o in board(game).mana_only)


def empty_pools(game: Game) -> None:
    """Rule 500.5: unspent mana empties as each step and phase ends."""
    for player in game.players:
        player.mana_pool = [0] * len(MANA_TYPES)
        player.restricted_mana = {}
