"""The choices waiting to be made when a player leaves the game (rules 800.4a, 800.4g-h).

Everything the player owns has just left the game and anything else they controlled has been
exiled (800.4a), so a waiting :class:`~server.engine.state.Choice` may be the leaver's own, or
may name objects that no longer exist. Each kind of choice is dealt with in its own way --
never left with options naming objects that are gone, nor with no options at all:

- a choice the leaver had to make goes (their decisions end with them), except a choice an
  opponent makes for another player's effect -- a pile separation (700.3), the modes of a
  spell being cast (700.2e) -- which another opponent makes (800.4g); a clash or a party
  choice they were the last to make is completed without them;
- another player's choice loses the objects that are gone; an ordering or a choice among
  fewer than two is no choice any more, nor is a choice with nothing left to choose from;
- a look that was shown for a choice that goes ends with it (701.20a): nothing stays
  revealed.
"""

from __future__ import annotations

from typing import assert_never

from server.engine import counting, looking, modes, zones
from server.engine.events import Event
from server.engine.state import Choice, DecisionKind, Game


def after_leaving(game: Game, seat: int, events: list[Event]) -> None:
    """Settle every waiting choice now that ``seat`` has left the game (see the module)."""
    casting = game.casting
    if casting is not None and casting.mode_chooser == seat:
        # Rule 800.4g: the opponent choosing the modes of a spell being cast (700.2e) left;
        # its caster chooses another opponent, who chooses the modes from the start.
        obj = game.objects[casting.object_id]
        obj.modes, obj.chooser = (), -1
        modes.start_choosing(game, casting, obj)
    for choice in list(game.choices):
        if choice in game.choices:  # settling one may have completed another
            _settle(game, choice, seat, events)


def _settle(game: Game, choice: Choice, seat: int, events: list[Event]) -> None:
    kind = choice.kind
    mine = choice.seat == seat
    objects = game.objects
    match kind:
        case (DecisionKind.PRIORITY | DecisionKind.CHOOSE_X | DecisionKind.CHOOSE_TARGET
              | DecisionKind.DECLARE_ATTACKERS
              | DecisionKind.DECLARE_BLOCKERS | DecisionKind.ASSIGN_COMBAT_DAMAGE
              | DecisionKind.CHOOSE_MODE | DecisionKind.CHOOSE_COST):
            raise AssertionError(f"a {kind.name} decision is never a waiting choice")
        case (DecisionKind.CHOOSE_STARTING_PLAYER | DecisionKind.MULLIGAN
              | DecisionKind.BOTTOM_CARD | DecisionKind.CHOOSE_OUTSIDE_CARD):
            # Nothing of another player's to lose (an outside card's pool is indices into
            # the chooser's own sideboard, 400.11b); the start is repaired elsewhere (103).
            if mine:
                _drop(game, choice)
        case (DecisionKind.ORDER_GRAVEYARD | DecisionKind.LEGEND_RULE):
            choice.pool = [i for i in choice.pool if i in objects]
            if mine or len(choice.pool) < 2:
                _drop(game, choice)  # an ordering of fewer than two is no choice (404.3)
            else:
                choice.count = min(choice.count, len(choice.pool) - 1)
        case DecisionKind.ORDER_TRIGGERS:
            waiting = {t.id for t in game.pending_triggers}
            choice.pool = [i for i in choice.pool if i in waiting]
            if mine or len(choice.pool) < 2:
                _drop(game, choice)  # 603.3b: a single trigger needs no order
            else:
                choice.count = min(choice.count, len(choice.pool) - 1)
        case DecisionKind.PAY_MANA:
            # Rule 118.12a: "unless its controller pays" -- the spell or ability it is about
            # left the game with the player who would pay (800.4a), or is gone.
            choice.pool = [i for i in choice.pool if i in objects]
            if mine or not choice.pool:
                _drop(game, choice)
        case DecisionKind.CHOOSE_REPLACEMENT if choice.group[:1] == [zones.DAMAGE_PREVENTION]:
            # The damage was prevented; the options naming a permanent that left go. With one
            # option left, it applies (616.1: no choice), as it would have without the others.
            left = [o for o in zones.prevention_choice_options(choice)
                    if not o.object_id or o.object_id in objects]
            choice.pool = [f"{o.replacement}:{o.object_id}" for o in left]
            if mine or len(left) < 2:
                _drop(game, choice)
            if not mine and len(left) == 1:
                zones.prevent_damage_to_player(game, left[0], events)
        case (DecisionKind.SACRIFICE | DecisionKind.CHOOSE_REPLACEMENT | DecisionKind.DISCARD
              | DecisionKind.CAST_MADNESS | DecisionKind.CHOOSE_DEFENDER | DecisionKind.MAY
              | DecisionKind.CHOOSE_CARD | DecisionKind.CHOOSE_EXILED_CARD):
            # MAY and CHOOSE_DEFENDER name the object the choice is about; the others the
            # objects to choose from.
            choice.pool = [i for i in choice.pool if i in objects]
            if mine or not choice.pool:
                _drop(game, choice)
            elif kind is DecisionKind.DISCARD:
                choice.count = min(choice.count, len(choice.pool))
        case DecisionKind.SCRY:
            choice.pool = [i for i in choice.pool if i in objects]
            choice.count = min(choice.count, len(choice.pool))
            if mine or not choice.pool:
                _drop(game, choice)  # a fatesealed library left with its owner (701.29a)
        case DecisionKind.SEARCH:
            pool_before, picked_before = len(choice.pool), len(choice.picked)
            choice.pool = [i for i in choice.pool if i in objects]
            choice.picked = [i for i in choice.picked if i in objects]
            # 701.23d: what must still be found can't exceed what is left to find.
            choice.minimum = min(choice.minimum - (picked_before - len(choice.picked)),
                                 len(choice.picked) + len(choice.pool))
            gone = (pool_before or picked_before) and not (choice.pool or choice.picked)
            if mine or choice.owner == seat or gone:
                _drop(game, choice)  # the searched zones left with their owner
        case DecisionKind.CHOOSE_PLAYER:
            if mine:
                _drop(game, choice)
        case DecisionKind.SEPARATE_PILES:
            cards = [i for i in (*choice.picked, *choice.pool) if i in objects]
            if mine and cards and not game.players[choice.owner].has_lost:
                # Rule 800.4g: the effect's controller chooses another opponent to separate
                # the cards (still revealed) from the start.
                game.choices.remove(choice)
                looking.separate_piles(game, choice.owner, cards, choice.group[0])
            else:
                _drop(game, choice)  # the cards left the game with their owner
        case DecisionKind.CHOOSE_PILE | DecisionKind.CHOOSE_COLOR | DecisionKind.CHOOSE_NAME:
            if mine:
                _drop(game, choice)
        case DecisionKind.CLASH:
            if mine:
                game.choices.remove(choice)
                looking.finish_clash_if_done(game, choice.group, events)  # 701.30c
        case DecisionKind.CHOOSE_PARTY:
            choice.picked = [i for i in choice.picked if i in objects]
            if mine:
                game.choices.remove(choice)
                counting.finish_parties_if_done(game, choice.group, events)  # 700.8d
        case _:
            assert_never(kind)


def _drop(game: Game, choice: Choice) -> None:
    """The choice goes; so does a look shown for it (701.20a)."""
    game.choices.remove(choice)
    kind = choice.kind
    if kind in (DecisionKind.SCRY, DecisionKind.SEARCH, DecisionKind.SEPARATE_PILES,
                DecisionKind.CHOOSE_PILE) and choice.group:
        looking.end_looks(game, choice.group[0])
    elif kind is DecisionKind.CHOOSE_CARD and choice.group:
        looking.end_looks(game, choice.group[0])  # a revealed hand or search (701.20a)
    elif kind is DecisionKind.CHOOSE_PLAYER and choice.group[:1] == ["piles"]:
        looking.end_looks(game, choice.group[1])
