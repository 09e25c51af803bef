"""State-based actions (rule 704), leaving the game (rule 800.4a) and its end (rule 104)."""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from server.engine import filters, layers, leaving, variants
from server.engine.board import board
from server.engine.casting import abandon_impossible_cast
from server.engine.events import Event, GameEnded, LeftGame, PlayerLost
from server.engine.state import Choice, DecisionKind, Game, GameObject, GameResult, Zone
from server.engine.targeting import quality_of
from server.engine.zones import (
    destroyed_for_real,
    move,
    put_into_graveyards,
    remove_from_game,
    return_exiled,
)

# Enum members read in this module's functions, bound to module names once: in Python
# 3.11 reading a member as a class attribute (``Zone.BATTLEFIELD``) goes through the slow
# attribute hook of ``EnumType.__getattr__``, several times the cost of reading a global.
# They are the same objects (``is`` holds).
_DECISION_KIND_LEGEND_RULE: Final = DecisionKind.LEGEND_RULE
_ZONE_BATTLEFIELD: Final = Zone.BATTLEFIELD
_ZONE_EXILE: Final = Zone.EXILE
_ZONE_STACK: Final = Zone.STACK

POISON_LIMIT = 10  # rule 704.5c


def lose(game: Game, seat: int, reason: str, events: list[Event]) -> None:
    """A player loses (rule 104.3): see :func:`lose_together`."""
    lose_together(game, [(seat, reason)], events)


def lose_together(game: Game, losers: list[tuple[int, str]], events: list[Event]) -> None:
    """Players lose at once (rule 104.3; several by one check of state-based actions,
    704.3, or one effect) and, if the game goes on without them (a multiplayer game, 800.1),
    leave it (800.4a). If no more than one player is left the game is over (104.2a, 104.4a)
    and nothing leaves: the last board stays as it was (in a two-player game the loser's
    permanents, hand and library went, and the final board showed none). All are marked
    first: of two players losing together as a three-player game ends, one left and the
    other stayed."""
    fresh: list[tuple[int, str]] = []
    for seat, reason in losers:
        if not game.player(seat).has_lost and all(seat != s for s, _r in fresh):
            fresh.append((seat, reason))
    passed = _recent_passers(game)
    for seat, reason in fresh:
        game.player(seat).has_lost = True
        events.append(PlayerLost(seat, reason))
    for seat, _reason in fresh:
        variants.player_leaving(game, seat)  # e.g. the planar controller passes on (901.6)
    if len(game.in_game()) <= 1:
        return  # (check_game_over ends it)
    for seat, _reason in fresh:
        _leave_game(game, seat, events)
        variants.player_left(game, seat, events)  # e.g. planeswalking away (901.10)
        if seat in passed:
            game.passes -= 1  # rule 117.4: the others' passes in succession still count


def _recent_passers(game: Game) -> list[int]:
    """The players who passed priority in succession just before the current holder."""
    if game.priority is None or not game.passes:
        return []
    order = game.apnap(game.priority)
    return order[len(order) - game.passes:]


def _leave_game(game: Game, seat: int, events: list[Event]) -> None:
    """Rule 800.4a: everything the player owns leaves the game and the effects giving them
    control of anything end (so what they merely borrowed returns to whoever controls it
    now, layer 2 recomputed: 613.1b, 800.4b); abilities they control on the stack cease to
    exist; anything else they still control is exiled; if they have priority, it passes to
    the next player. Their triggers waiting to be put on the stack and choices go too
    (800.4d); a spell or ability being cast that can no longer be completed is reversed
    (733.1)."""
    owned = [o.id for o in game.objects.values() if o.owner == seat]
    left = [oid for oid in owned if oid in game.battlefield]
    for oid in left:  # rule 603.6c: leaving the game, they leave the battlefield
        obj = game.objects[oid]
        events.append(LeftGame(oid, obj.owner, obj.controller, obj.card,
                               tuple(obj.counters.items()), obj.attached_to,
                               obj.granted_triggers))
    for oid in owned:
        if oid in game.objects:
            remove_from_game(game, oid)
    if game.exiled_until_leaves:
        # Rule 610.3 (603.6c: leaving the game with its owner is leaving the battlefield):
        # what its permanents exiled "until [this] leaves the battlefield" comes back -- to
        # players still in the game (their own cards left with them).
        for oid in left:
            return_exiled(game, oid, events)
    game.effects[:] = [replace(e, controller=-1) if e.controller == seat else e
                       for e in game.effects]
    layers.refresh(game)  # the player has left: no control-changing effect gives them any
    for oid in [o.id for o in game.objects.values()
                if o.controller == seat and o.zone is _ZONE_STACK and o.is_ability]:
        remove_from_game(game, oid)
    for oid in [o.id for o in game.objects.values()
                if o.controller == seat and o.zone is not _ZONE_EXILE]:
        move(game, oid, _ZONE_EXILE, events)
    game.pending_triggers = [t for t in game.pending_triggers if t.controller != seat]
    if game.casting is not None and game.casting.object_id not in game.objects:
        game.casting = None
    leaving.after_leaving(game, seat, events)  # the choices waiting (800.4a, 800.4g)
    abandon_impossible_cast(game, events)
    if game.priority == seat:
        game.priority = game.next_seat(seat)


def exile_unclaimed(game: Game, events: list[Event]) -> bool:
    """Rule 800.4c: a control-changing effect giving a player control of a permanent ended,
    no other gives it to anyone, and the player who controls it by default has left the
    game -- it is exiled (not a state-based action: as soon as the effect ends). True if any
    was."""
    players = game.players
    for player in players:
        if player.has_lost:
            break
    else:
        return False  # nobody has left the game (the usual case)
    objects = game.objects
    unclaimed = [i for i in game.battlefield if players[objects[i].controller].has_lost]
    for oid in unclaimed:
        move(game, oid, _ZONE_EXILE, events)
    return bool(unclaimed)


def check_game_over(game: Game, events: list[Event]) -> bool:
    """Rules 104.2a and 104.4a: the last player standing wins; if none is left, a draw."""
    if game.result is not None:
        return True
    remaining = game.in_game()
    if len(remaining) > 1:
        return False
    lost = [e for e in events if isinstance(e, PlayerLost)]
    reason = lost[-1].reason if lost else "game over"
    game.result = GameResult(tuple(remaining), reason if remaining else f"draw: {reason}")
    game.pending = None
    game.casting = None
    game.choices.clear()
    events.append(GameEnded(game.result.winners, game.result.reason))
    return True


def _attachment_legal(game: Game, aura_or_equipment: str, host_id: str | None) -> bool:
    """Whether an Aura may enchant / an Equipment may equip this host (rules 303.4, 702.5a
    its enchant restriction, 301.5c creatures only, 702.16c-d protection)."""
    host = game.objects.get(host_id) if host_id is not None else None
    if host is None or host.zone is not _ZONE_BATTLEFIELD or host.id == aura_or_equipment:
        return False  # rule 303.4d: an Aura can't enchant itself
    attached = game.objects[aura_or_equipment]
    if any(quality_of(attached, q) for q in host.protection):
        return False  # rules 702.16c-d: can't be enchanted or equipped by that quality
    enchant = attached.card.enchant
    if enchant is None:
        return host.is_creature  # rule 301.5c: an Equipment equips only a creature
    # Rule 303.4d: "enchant creature you control" and the like must still hold.
    return filters.matches(game, host, enchant, attached.controller, attached.id)


def check_state_based_actions(game: Game, events: list[Event]) -> bool:
    """Perform every applicable state-based action simultaneously (rule 704.3).

    Returns True if any was performed (or a legend-rule choice is now pending); the caller
    checks again until none apply, before any player receives priority.
    """
    summary = board(game)  # (the legend rule below doesn't move a permanent)
    if _legend_rule(game, summary.legendary):
        return True  # rule 704.3: the other SBAs happen together with it, after the choice
    performed = False
    # Rules 704.5d-e: the tokens and spell copies already off the battlefield / stack as this
    # check begins (704.3: all at once); one that leaves during it goes at the next check.
    stray = game.stray_tokens
    if stray:
        game.stray_tokens = []
    losers: list[tuple[int, str]] = []
    for player in game.players:
        if player.has_lost:
            continue
        s = player.seat
        if player.life <= 0:
            losers.append((s, f"{player.name} has 0 or less life"))  # 704.5a
        elif player.drew_from_empty:
            losers.append((s, f"{player.name} tried to draw from an empty library"))  # 704.5b
        elif player.poison >= POISON_LIMIT:
            losers.append((s, f"{player.name} has ten or more poison counters"))  # 704.5c
        player.drew_from_empty = False
    # Rule 704.5j: the legendary permanents not kept go with everything else (704.3).
    dying: list[str] = []
    if game.legend_rule_losers:
        dying += [i for i in game.legend_rule_losers if i in game.objects]
        game.legend_rule_losers.clear()
    destroyed: list[str] = []  # lethal or deathtouch damage: destruction (704.5g-h)
    annihilating: list[GameObject] = []  # +1/+1 and -1/-1 counters on it (704.5q)
    for obj in summary.permanents:  # (nothing below moves a permanent)
        oid = obj.id
        card = obj.card
        # obj.is_creature, as it reads on the battlefield (a permanent is no ability).
        if (card.creature or "Creature" in obj.types_added) and oid not in dying:
            toughness = obj.toughness
            if toughness <= 0:  # 704.5f
                dying.append(oid)
            elif obj.damage and (obj.damage >= toughness or obj.deathtouched) \
                    and not obj.has("Indestructible"):  # rule 702.12b
                destroyed.append(oid)  # 704.5g lethal damage, 704.5h deathtouch
        if obj.deathtouched:
            obj.deathtouched = False
        if card.planeswalker and obj.loyalty <= 0 and oid not in dying:  # 704.5i
            dying.append(oid)
        if card.is_aura:
            if not _attachment_legal(game, oid, obj.attached_to) and oid not in dying:
                dying.append(oid)  # 704.5m
        elif obj.attached_to is not None:
            if card.is_equipment:
                if not _attachment_legal(game, oid, obj.attached_to):  # 704.5n
                    obj.attached_to = None
                    performed = True
            else:  # 704.5p: a creature or other permanent can't be attached
                obj.attached_to = None
                performed = True
        if obj.counters and "+1/+1" in obj.counters and "-1/-1" in obj.counters:
            annihilating.append(obj)  # 704.5q
    if dying or destroyed:
        # One event (704.3): regeneration can replace only the destructions (704.5g-h).
        put_into_graveyards(game, dying + destroyed_for_real(game, destroyed), events)
        performed = True
    # Rule 704.5q, with the others at once (704.3): a permanent dying in this same check
    # leaves with its counters as they were (a Basri's Lieutenant sees its +1/+1 counter).
    for obj in annihilating:
        if game.objects.get(obj.id) is obj and _annihilate(obj.counters):
            performed = True
    # Rules 704.5d-e: a token off the battlefield, or a copy of a spell off the stack,
    # ceases to exist.
    for oid in stray:
        if oid in game.objects and game.objects[oid].zone is not _ZONE_BATTLEFIELD:
            remove_from_game(game, oid)
            performed = True
    if losers:
        lose_together(game, losers, events)
        performed = True
    if performed:
        check_game_over(game, events)
    return performed or bool(game.choices)


def _annihilate(counters: dict[str, int]) -> bool:
    """Rule 704.5q: N +1/+1 and N -1/-1 counters are removed, N the smaller count."""
    plus, minus = counters.get("+1/+1", 0), counters.get("-1/-1", 0)
    if not (plus and minus):
        return False
    n = min(plus, minus)
    for kind, left in (("+1/+1", plus - n), ("-1/-1", minus - n)):
        if left:
            counters[kind] = left
        else:
            del counters[kind]
    return True


def _legend_rule(game: Game, legendary: tuple[GameObject, ...]) -> bool:
    """Rule 704.5j: a player with two or more legendary permanents of the same name chooses
    one to keep (a LEGEND_RULE choice); True if a choice is now pending. The rest go to the
    graveyard with the other state-based actions of the same check."""
    legends = [o.id for o in legendary if o.id not in game.legend_rule_losers]
    if len(legends) < 2:
        return False
    for seat in game.apnap():
        names: dict[str, list[str]] = {}
        for oid in legends:
            obj = game.objects[oid]
            if obj.controller == seat:
                names.setdefault(obj.card.name, []).append(oid)
        for ids in names.values():
            if len(ids) >= 2:
                game.choices.append(Choice(_DECISION_KIND_LEGEND_RULE, seat, ids))
                return True
    return False
