"""State-based actions (rule 704) and the end of the game (rule 104)."""

from __future__ import annotations

from server.engine.events import Event, GameEnded, PlayerLost
from server.engine.state import Game, GameResult, Zone
from server.engine.zones import move


def lose(game: Game, seat: int, reason: str, events: list[Event]) -> None:
    """A player loses and leaves the game (rules 104.3, 800.4a)."""
    player = game.player(seat)
    if player.has_lost:
        return
    player.has_lost = True
    events.append(PlayerLost(seat, reason))


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
    events.append(GameEnded(game.result.winners, game.result.reason))
    return True


def check_state_based_actions(game: Game, events: list[Event]) -> bool:
    """Perform every applicable state-based action simultaneously (rule 704.3).

    Returns True if any was performed; the caller checks again until none apply.
    """
    performed = False
    for player in game.players:
        if player.has_lost:
            continue
        if player.life <= 0:  # 704.5a
            lose(game, player.seat, f"player {player.seat} has 0 or less life (704.5a)", events)
            performed = True
        elif player.drew_from_empty:  # 704.5b
            lose(game, player.seat,
                 f"player {player.seat} drew from an empty library (704.5b)", events)
            performed = True
        player.drew_from_empty = False
    dying = []
    for oid in game.battlefield:
        obj = game.objects[oid]
        if not obj.is_creature:
            continue
        if obj.toughness <= 0 or obj.damage >= obj.toughness:  # 704.5f
            dying.append(oid)
    # Rule 404.3: cards put into the same graveyard at once are ordered by their owner; the
    # engine keeps battlefield order (a choice becomes a decision when an ordering matters).
    for oid in dying:
        move(game, oid, Zone.GRAVEYARD, events)
    performed = performed or bool(dying)
    if performed:
        check_game_over(game, events)
    return performed
