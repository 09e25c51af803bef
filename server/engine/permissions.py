"""Permissions to cast or play cards, kept in one registry (rules 601.2, 305.1, 118.9).

Resolved spells and abilities let a player cast or play a card from somewhere other than
their hand, or cast a spell without paying its mana cost; ``game.permissions`` holds one
small frozen record each (:data:`Permission`), added with :func:`grant`:

- :class:`PlayFromExile` -- "you may play that card this turn" / "until you exile another
  card with [this]" (400.7h: for that object in exile; 601.2a, 305.1);
- :class:`CastLinked` -- "until end of turn, you may cast a [type] spell from among cards
  exiled with [this] without paying its mana cost" (406.6, 118.9), used up by one spell;
- :class:`FlashbackGranted` -- "each instant and sorcery card in your graveyard gains
  flashback until end of turn; the flashback cost is equal to its mana cost" (702.34a);
- :class:`CastFromHandFree` -- "until end of turn, you may cast spells from your hand
  without paying their mana costs" (118.9).

Two more kinds record what a permission has been used for:

- :class:`Used` -- a permanent's once-each-turn permission (Kess, Dissident Mage: "you may
  cast an instant or sorcery card from your graveyard") was used this turn;
- :class:`CastFor` -- the spell on the stack is being cast for an alternative cost
  (601.2b): without paying its mana cost (118.9) or its madness cost (702.35b).

The one question, "may seat S cast or play object O from its zone now, and at what cost",
is :func:`permit` (the permissions of static abilities -- Future Sight, Kess, ... -- are
read from the battlefield by :func:`server.engine.zone_rules.playable_elsewhere`); the
casting rules ask :func:`cost_of` what a spell on the stack costs. Permissions end in one
place each: "this turn" ones in the cleanup step (:func:`end_of_turn`, 514.2), anything of
an earlier turn as a turn begins (:func:`new_turn`, 500.1); a permission for an object ends
when the object leaves its zone (400.7).

Adding one: a frozen dataclass here, added to :data:`Permission`, to :func:`_turn_of` and to
:func:`permit` (each dispatch over it ends in ``assert_never``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import assert_never

from server.engine.state import Game, GameObject, Zone


class Cost(Enum):
    """What casting a spell with a permission costs (rule 601.2f)."""

    #: Its mana cost -- also a flashback cost "equal to its mana cost" (702.34a).
    MANA_COST = "mana_cost"
    #: "Without paying its mana cost": an alternative cost of nothing; X is 0 (118.9, 107.3).
    WITHOUT_PAYING = "without_paying"
    #: Its madness cost, an alternative cost (702.35b).
    MADNESS = "madness"


@dataclass(frozen=True, slots=True)
class PlayFromExile:
    """Rule 400.7h: ``seat`` may play the exiled card ``object_id`` (601.2a, 305.1) during
    turn ``turn`` -- or, with ``turn`` None, until ``source`` exiles another card."""

    seat: int
    object_id: str
    source: str
    turn: int | None


@dataclass(frozen=True, slots=True)
class CastLinked:
    """Rules 406.6, 118.9: during turn ``turn``, ``seat`` may cast a ``card_type`` spell from
    among the cards exiled with ``source`` without paying its mana cost; one spell uses it
    up."""

    turn: int
    seat: int
    source: str
    card_type: str


@dataclass(frozen=True, slots=True)
class FlashbackGranted:
    """Rule 702.34a: the card ``object_id`` in a graveyard has flashback during turn ``turn``,
    its flashback cost equal to its mana cost."""

    turn: int
    object_id: str


@dataclass(frozen=True, slots=True)
class CastFromHandFree:
    """Rule 118.9: during turn ``turn``, ``seat`` may cast spells from their hand without
    paying their mana costs."""

    turn: int
    seat: int


@dataclass(frozen=True, slots=True)
class Used:
    """The once-each-turn permission of the permanent ``source`` was used during ``turn``."""

    turn: int
    source: str


@dataclass(frozen=True, slots=True)
class CastFor:
    """Rule 601.2b: the spell ``spell_id`` on the stack is cast for the alternative cost
    ``cost`` (until it leaves the stack, 400.7)."""

    spell_id: str
    cost: Cost


#: The permissions to cast or play cards, and what they were used for (module docstring).
Permission = PlayFromExile | CastLinked | FlashbackGranted | CastFromHandFree | Used | CastFor


@dataclass(frozen=True, slots=True)
class Permit:
    """The answer of :func:`permit`: by ``permission``, at ``cost``."""

    permission: Permission
    cost: Cost


def grant(game: Game, permission: Permission) -> None:
    """A permission begins (rule 611.2: its duration starts now). The same permission
    granted twice is two permissions (a :class:`CastLinked` permit twice: two spells)."""
    game.permissions.append(permission)


def _turn_of(permission: Permission) -> int | None:
    """The turn a permission is for (None: until the object or the source is gone)."""
    if isinstance(permission, PlayFromExile):
        return permission.turn
    if isinstance(permission, CastLinked | FlashbackGranted | CastFromHandFree | Used):
        return permission.turn
    if isinstance(permission, CastFor):
        return None
    assert_never(permission)


def end_of_turn(game: Game) -> None:
    """Rule 514.2: the permissions that last "this turn" / "until end of turn" end in the
    cleanup step (a use of a once-each-turn permission is remembered until the turn ends)."""
    game.permissions[:] = [p for p in game.permissions
                           if _turn_of(p) is None or isinstance(p, Used)]


def new_turn(game: Game) -> None:
    """Rule 500.1: nothing of an earlier turn is left."""
    game.permissions[:] = [p for p in game.permissions if _turn_of(p) in (None, game.turn)]


def _current(game: Game, permission: Permission) -> bool:
    """Whether a permission applies now: its turn, and its object still in its zone."""
    turn = _turn_of(permission)
    if turn is not None and turn != game.turn:
        return False
    if isinstance(permission, PlayFromExile):
        obj = game.objects.get(permission.object_id)
        return obj is not None and obj.zone is Zone.EXILE
    if isinstance(permission, FlashbackGranted):
        obj = game.objects.get(permission.object_id)
        return obj is not None and obj.zone is Zone.GRAVEYARD
    if isinstance(permission, CastFor):
        return permission.spell_id in game.stack
    if isinstance(permission, CastLinked | CastFromHandFree | Used):
        return True
    assert_never(permission)


def _drop_stale(game: Game) -> None:
    """Permissions to play an exiled card that left exile (400.7), alternative costs of
    spells that left the stack, and anything of an earlier turn are gone. (A granted
    flashback is kept to the end of the turn: the spell cast with it still has it,
    400.7g.)"""
    game.permissions[:] = [p for p in game.permissions if _turn_of(p) in (None, game.turn) and (
        _current(game, p) or not isinstance(p, PlayFromExile | CastFor))]


def permits(game: Game, seat: int, obj: GameObject) -> list[Permit]:
    """Every permission of the registry by which ``seat`` may cast or play ``obj`` from its
    zone now, with the cost (rules 601.2a, 305.1, 118.9, 702.34a); timing and the land-play
    rules still apply (the caller checks them, 601.3, 305.2). A spell on the stack: the
    alternative cost it is cast for (601.2b)."""
    out: list[Permit] = []
    if not game.permissions:
        return out  # the usual case: no effect has granted anything
    for p in game.permissions:
        if not _current(game, p):
            continue
        if isinstance(p, PlayFromExile):
            if p.seat == seat and p.object_id == obj.id:
                out.append(Permit(p, Cost.MANA_COST))
        elif isinstance(p, CastLinked):
            if p.seat == seat and obj.zone is Zone.EXILE and not obj.face_down \
                    and obj.exiled_with == p.source and obj.card.is_type(p.card_type):
                out.append(Permit(p, Cost.WITHOUT_PAYING))
        elif isinstance(p, FlashbackGranted):
            if p.object_id == obj.id and obj.owner == seat:
                out.append(Permit(p, Cost.MANA_COST))  # 702.34a: "equal to its mana cost"
        elif isinstance(p, CastFromHandFree):
            if p.seat == seat and obj.zone is Zone.HAND and obj.owner == seat:
                out.append(Permit(p, Cost.WITHOUT_PAYING))
        elif isinstance(p, CastFor):
            if p.spell_id == obj.id:
                out.append(Permit(p, p.cost))
        elif isinstance(p, Used):
            pass  # not a permission itself
        else:
            assert_never(p)
    return out


def permit(game: Game, seat: int, obj: GameObject, *,
           kind: type[Permission] | None = None) -> Permit | None:
    """The first permission by which ``seat`` may cast or play ``obj`` from its zone now, and
    at what cost (:func:`permits`); ``kind``: only permissions of that kind."""
    if not game.permissions:
        return None
    return next((p for p in permits(game, seat, obj)
                 if kind is None or isinstance(p.permission, kind)), None)


def any_for(game: Game, seat: int) -> bool:
    """Whether ``seat`` has any permission to cast or play a card from outside their hand
    (a quick test; the usual answer is no)."""
    if not game.permissions:
        return False  # the usual case: no effect has granted anything
    return any((isinstance(p, PlayFromExile | CastLinked) and p.seat == seat)
               or isinstance(p, FlashbackGranted) for p in game.permissions)


def in_exile(game: Game, seat: int, kind: type[PlayFromExile] | type[CastLinked]) -> list[str]:
    """The exiled cards ``seat`` may play (:class:`PlayFromExile`, in the order granted) or
    cast (:class:`CastLinked`, in exile's order) by a permission of ``kind`` now."""
    if kind is PlayFromExile:
        return [p.object_id for p in game.permissions if isinstance(p, PlayFromExile)
                and p.seat == seat and _current(game, p)]
    return [i for i in game.exile if game.objects[i].owner == seat
            and permit(game, seat, game.objects[i], kind=kind) is not None]


def flashback(game: Game, seat: int) -> list[str]:
    """The cards in ``seat``'s graveyard that have flashback now by a grant (702.34a)."""
    return [i for i in game.player(seat).graveyard
            if permit(game, seat, game.objects[i], kind=FlashbackGranted) is not None]


def revoke_exile_plays(game: Game, source: str) -> None:
    """"You may play that card until you exile another card with [source]": ``source`` exiles
    another card, so the permission for the one it exiled before ends."""
    game.permissions[:] = [p for p in game.permissions if not (
        isinstance(p, PlayFromExile) and p.source == source and p.turn is None)]


def grant_play(game: Game, seat: int, object_id: str, *, source: str = "",
               turn: int | None) -> None:
    """Rule 400.7h: "you may play [the exiled card ``object_id``]" during ``turn`` (None: until
    ``source`` exiles another card)."""
    _drop_stale(game)
    game.permissions.append(PlayFromExile(seat, object_id, source, turn))


def cast_with(game: Game, seat: int, card: GameObject) -> Cost:
    """Rule 601.2a-b: as ``seat`` begins casting ``card``, the registry's permission that lets
    them cast it for an alternative cost is used: a :class:`CastLinked` permit is used up (one
    spell), and the cost is nothing (118.9) -- also by :class:`CastFromHandFree` from the
    hand. Else its mana cost."""
    found = permit(game, seat, card, kind=CastLinked) or \
        permit(game, seat, card, kind=CastFromHandFree)
    if found is None:
        return Cost.MANA_COST
    if isinstance(found.permission, CastLinked):
        game.permissions.remove(found.permission)
    return found.cost


def cast_for(game: Game, spell_id: str, cost: Cost) -> None:
    """Rule 601.2b: the spell ``spell_id``, now on the stack, is cast for ``cost``."""
    _drop_stale(game)
    grant(game, CastFor(spell_id, cost))


def cast_for_madness(game: Game, spell_id: str) -> bool:
    """Rules 702.35b, 601.2f: whether the spell ``spell_id`` is cast for its madness cost."""
    return CastFor(spell_id, Cost.MADNESS) in game.permissions


def free(game: Game, seat: int, object_id: str) -> bool:
    """Rule 118.9: whether ``object_id`` is cast without paying its mana cost -- a spell on
    the stack cast that way, or a card a :class:`CastLinked` permit lets ``seat`` cast
    (a spell cast from the hand by :class:`CastFromHandFree` is the former)."""
    if not game.permissions:
        return False
    if CastFor(object_id, Cost.WITHOUT_PAYING) in game.permissions:
        return True
    obj = game.objects.get(object_id)
    return obj is not None and permit(game, seat, obj, kind=CastLinked) is not None


def flashback_cast(game: Game, spell: GameObject) -> bool:
    """Rule 702.34a: whether the spell ``spell`` was cast from a graveyard by a flashback
    granted to its card this turn (400.7g: it goes on applying to the spell)."""
    return FlashbackGranted(game.turn, spell.came_from) in game.permissions


def use(game: Game, source: str) -> None:
    """The once-each-turn permission of the permanent ``source`` is used this turn."""
    grant(game, Used(game.turn, source))


def used(game: Game, source: str) -> bool:
    """Whether the once-each-turn permission of ``source`` was used this turn."""
    return Used(game.turn, source) in game.permissions
