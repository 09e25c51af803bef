"""Starting the game (rule 103): the starting player's choice, opening hands, and the London
mulligan (103.5) up to the first turn."""

from __future__ import annotations

from server.engine.events import Event, MulliganTaken
from server.engine.state import Choice, DecisionKind, Game, GamePhase, Step, Zone
from server.engine.zones import draw, move, shuffle_library

OPENING_HAND = 7  # rule 103.5



def start_with(game: Game, starting: int, events: list[Event]) -> None:
    """Rules 103.1-103.5: the starting player is set; everyone draws an opening hand and
    declares mulligans in turn order, starting with the starting player."""
    game.starting_player = starting
    game.active = starting
    game.phase = GamePhase.MULLIGANS
    for seat in range(len(game.players)):
        shuffle_library(game, seat)  # rule 103.3: every card gets a new id too
    for seat in game.apnap():
        for _ in range(OPENING_HAND):
            draw(game, seat, events)
    _declare_round(game, game.apnap())


def repair_start(game: Game, seat: int, events: list[Event]) -> None:
    """A player left before the first turn: the next player makes the starting-player
    choice instead (rule 800.4h), and the mulligan round goes on without them."""
    if game.phase is GamePhase.CHOOSE_STARTING_PLAYER and not game.choices:
        game.choices.append(Choice(DecisionKind.CHOOSE_STARTING_PLAYER, game.next_seat(seat)))
    elif game.phase is GamePhase.MULLIGANS:
        after_mulligan_choice(game, events)


def _declare_round(game: Game, seats: list[int]) -> None:
    game.mulligan_round = []
    for seat in seats:
        game.choices.append(Choice(DecisionKind.MULLIGAN, seat))


def counted_mulligans(game: Game, taken: int) -> int:
    """Rule 103.5c: in a multiplayer game the first mulligan is free."""
    return max(0, taken - 1) if len(game.players) > 2 else taken


def cards_to_bottom(game: Game, seat: int) -> int:
    """Rule 103.5: how many cards ``seat`` puts on the bottom of their library for the
    mulligans taken so far (the first is free in a multiplayer game, 103.5c)."""
    return min(counted_mulligans(game, game.player(seat).mulligans), OPENING_HAND)


def after_mulligan_choice(game: Game, events: list[Event]) -> None:
    """After a declaration (or a bottom card): when everyone has declared, the players who
    chose to mulligan do so at the same time (rule 103.5); when nobody did, turn 1 begins."""
    if any(c.kind in (DecisionKind.MULLIGAN, DecisionKind.BOTTOM_CARD) for c in game.choices):
        return
    takers = [s for s in game.mulligan_round if not game.players[s].has_lost]
    game.mulligan_round = []
    if not takers:
        begin_first_turn(game)
        return
    for seat in takers:
        player = game.player(seat)
        events.append(MulliganTaken(seat, player.mulligans + 1))  # rule 103.5
        for oid in list(player.hand):
            move(game, oid, Zone.LIBRARY, events)
        shuffle_library(game, seat)
        for _ in range(OPENING_HAND):
            draw(game, seat, events)
        player.mulligans += 1
    for seat in takers:
        n = cards_to_bottom(game, seat)
        if n:
            game.choices.append(Choice(DecisionKind.BOTTOM_CARD, seat, count=n))
    _declare_round(game, takers)


def begin_first_turn(game: Game) -> None:
    game.phase = GamePhase.PLAYING
    game.turn = 1
    starting = game.starting_player
    # Rule 800.4k: a starting player who already left doesn't begin a turn.
    game.active = game.next_seat(starting) if game.players[starting].has_lost else starting
    game.last_turn_of[game.active] = 1  # (rule 302.6: its most recent turn)
    game.step = Step.UNTAP
    game.step_begun = False
