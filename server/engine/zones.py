"""Moving objects between zones (rules 400-408).

Every zone change makes a new object with a new random id (rule 400.7) so ids never let a
viewer follow a card through a hidden zone or a shuffle.
"""

from __future__ import annotations

from server.cards import CardDef
from server.engine.events import Event, ZoneChanged
from server.engine.state import Game, GameObject, Zone


def fresh_id(game: Game) -> str:
    """A new random object id, unique in this game (rule 400.7; never derived from order)."""
    while True:
        candidate = game.rng.token()
        if candidate not in game.objects:
            return candidate


def create_object(game: Game, card: CardDef, owner: int, zone: Zone) -> GameObject:
    """Put a new object for ``card`` into ``zone`` (on top, for ordered zones)."""
    obj = GameObject(
        id=fresh_id(game), card=card, owner=owner, controller=owner, zone=zone,
        controlled_since=game.turn,
    )
    game.objects[obj.id] = obj
    game.zone_list(zone, owner).append(obj.id)
    return obj


def move(
    game: Game, object_id: str, to: Zone, events: list[Event], *, controller: int | None = None
) -> GameObject:
    """Move an object to ``to`` as a new object (rule 400.7).

    Cards go to their owner's library, hand or graveyard (rule 400.3). Instants and sorceries
    can't enter the battlefield (rule 400.4a). A permanent that leaves the battlefield is
    removed from combat (rule 506.4).
    """
    old = game.objects[object_id]
    if to is Zone.BATTLEFIELD and not old.card.is_permanent_card:
        raise ValueError(f"{old.card.name} can't enter the battlefield (rule 400.4a)")
    game.zone_list(old.zone, old.owner).remove(object_id)
    del game.objects[object_id]
    if old.zone is Zone.BATTLEFIELD:
        _remove_from_combat(game, object_id)
    new = GameObject(
        id=fresh_id(game),
        card=old.card,
        owner=old.owner,
        controller=old.owner if controller is None else controller,
        zone=to,
        controlled_since=game.turn,
    )
    game.objects[new.id] = new
    game.zone_list(to, new.owner).append(new.id)
    events.append(ZoneChanged(object_id, new.id, old.owner, old.zone, to))
    return new


def _remove_from_combat(game: Game, object_id: str) -> None:
    """Rule 506.4. A blocked attacker stays blocked when its blockers leave (rule 509.1h)."""
    combat = game.combat
    combat.attackers.pop(object_id, None)
    combat.blocked_by.pop(object_id, None)
    combat.assignments.pop(object_id, None)
    attacker = combat.blocking.pop(object_id, None)
    if attacker is not None and attacker in combat.blocked_by:
        combat.blocked_by[attacker].remove(object_id)


def draw(game: Game, seat: int, events: list[Event]) -> None:
    """Rule 121.1: put the top card of the library into hand; 704.5b if the library is empty."""
    player = game.player(seat)
    if not player.library:
        player.drew_from_empty = True
        return
    move(game, player.library[-1], Zone.HAND, events)
