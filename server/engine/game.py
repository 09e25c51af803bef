"""The engine's public entry points: :func:`new_game`, :func:`legal_actions`, :func:`apply`.

One entry point changes a game (architecture invariant 1); exactly one decision is pending at a
time (invariant 2); the game is deterministic from its seed and the actions applied (invariant 3).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from server.cards import CardDef
from server.engine import casting, combat
from server.engine.actions import (
    Action,
    AssignCombatDamage,
    CastSpell,
    Concede,
    DeclareAttacker,
    DeclareBlocker,
    Discard,
    FinishAttackers,
    FinishBlockers,
    PassPriority,
    PlayLand,
)
from server.engine.errors import GameOverError, IllegalActionError
from server.engine.events import Event
from server.engine.mana import empty_pools
from server.engine.rng import GameRng
from server.engine.sba import check_game_over, check_state_based_actions, lose
from server.engine.state import Combat, Decision, DecisionKind, Game, Player, Step, Zone
from server.engine.zones import create_object, draw, move

STARTING_LIFE = 20  # rule 103.4
OPENING_HAND = 7  # rule 103.5
MAX_HAND_SIZE = 7  # rule 402.2


@dataclass(frozen=True, slots=True)
class PlayerSetup:
    """A player joining a game: display name and a deck (rule 103.2)."""

    name: str
    deck: Sequence[CardDef]


def new_game(seed: bytes, players: Sequence[PlayerSetup]) -> Game:
    """Start a two-player game (rule 103): pick the starting player, shuffle, draw 7.

    ``seed`` is the game's secret: together with the actions applied it determines everything.
    """
    if len(players) != 2:
        raise ValueError("this engine version plays two-player games only")
    game = Game(rng=GameRng(seed), players=[
        Player(seat=i, name=p.name, life=STARTING_LIFE) for i, p in enumerate(players)
    ])
    for seat, setup in enumerate(players):
        if not setup.deck:
            raise ValueError(f"player {seat} has an empty deck")
    # Rule 103.1: a random player takes the first turn. (Choosing play or draw, and
    # mulligans, rule 103.5, come with the full game-start rules.)
    game.starting_player = game.rng.randbelow(len(players))
    events: list[Event] = []
    for seat, setup in enumerate(players):
        cards = list(setup.deck)
        game.rng.shuffle(cards)  # rule 103.3
        for card in cards:
            create_object(game, card, seat, Zone.LIBRARY)
        for _ in range(OPENING_HAND):  # rule 103.5
            draw(game, seat, events)
    game.active = game.starting_player
    game.turn = 1
    game.step = Step.UNTAP
    _advance(game, events)
    return game


def legal_actions(game: Game, seat: int) -> tuple[Action, ...]:
    """Every legal option for ``seat`` now: the options of the pending decision if it is theirs.

    (Conceding, rule 104.3a, is always possible and is not listed.)
    """
    pending = game.pending
    if pending is None or pending.seat != seat:
        return ()
    return pending.options


def apply(game: Game, seat: int, action: Action) -> list[Event]:
    """Apply ``seat``'s action and run the game until the next decision.

    Raises :class:`IllegalActionError` (changing nothing) unless ``action`` is one of the
    options of the decision pending for ``seat``, or a concession.
    """
    if game.result is not None:
        raise GameOverError("the game is over")
    if not 0 <= seat < len(game.players) or game.players[seat].has_lost:
        raise IllegalActionError(f"seat {seat} is not playing in this game")
    events: list[Event] = []
    if isinstance(action, Concede):
        lose(game, seat, f"player {seat} conceded (104.3a)", events)
        game.action_count += 1
        check_game_over(game, events)
        _advance(game, events)
        return events
    pending = game.pending
    if pending is None or pending.seat != seat:
        raise IllegalActionError(f"no decision is pending for seat {seat}")
    if action not in pending.options:
        raise IllegalActionError(f"{action!r} is not a legal option of this decision")
    game.action_count += 1
    _perform(game, seat, pending.kind, action, events)
    _advance(game, events)
    return events


def _perform(game: Game, seat: int, kind: DecisionKind, action: Action,
             events: list[Event]) -> None:
    if game.casting is not None:
        casting.continue_cast(game, action)
    elif isinstance(action, PassPriority):
        _pass_priority(game, seat, events)
    elif isinstance(action, PlayLand):
        # Rules 116.2a, 305.1: a special action; the player keeps priority (117.3c).
        move(game, action.object_id, Zone.BATTLEFIELD, events)
        game.player(seat).lands_played += 1
        game.passes = 0
    elif isinstance(action, CastSpell):
        casting.begin_cast(game, seat, action, events)
    elif isinstance(action, DeclareAttacker):
        game.combat.attackers[action.object_id] = action.defender
    elif isinstance(action, FinishAttackers):
        combat.finish_attackers(game)
    elif isinstance(action, DeclareBlocker):
        combat.declare_blocker(game, action)
    elif isinstance(action, FinishBlockers):
        game.combat.blockers_done.append(seat)
    elif isinstance(action, AssignCombatDamage):
        game.combat.assignments[action.attacker_id] = action.assignments
    elif isinstance(action, Discard):
        move(game, action.object_id, Zone.GRAVEYARD, events)
    else:  # pragma: no cover - every option kind is handled above
        raise IllegalActionError(f"unhandled action {action!r} for {kind.name}")


def _pass_priority(game: Game, seat: int, events: list[Event]) -> None:
    """Rules 117.3d, 117.4, 405.5: pass; when all pass in succession, resolve or end the step."""
    game.passes += 1
    if game.passes < len(game.in_game()):
        game.priority = game.next_seat(seat)
        return
    game.passes = 0
    if game.stack:
        casting.resolve_top(game, events)
        game.priority = game.active  # rule 117.3b
    else:
        _end_step(game)


def _priority_options(game: Game, seat: int) -> tuple[Action, ...]:
    options: list[Action] = [PassPriority()]
    player = game.player(seat)
    for oid in player.hand:
        obj = game.objects[oid]
        if obj.card.is_land:
            # Rules 305.1-305.2: main phase, own turn, empty stack, one land per turn.
            if casting.is_sorcery_speed(game, seat) and player.lands_played < 1:
                options.append(PlayLand(oid))
        elif casting.can_cast_now(game, seat, obj):
            options.append(CastSpell(oid))
    return tuple(options)


def _decide(game: Game, seat: int, kind: DecisionKind, options: tuple[Action, ...]) -> None:
    game.prompt_counter += 1
    game.pending = Decision(game.prompt_counter, seat, kind, options)


def _step_choice(game: Game, events: list[Event]) -> bool:
    """Turn-based choices and actions of the current step; True if a decision is now pending."""
    step, fight = game.step, game.combat
    if step is Step.DECLARE_ATTACKERS and not fight.attackers_declared:
        if combat.has_possible_attacker(game):
            _decide(game, game.active, DecisionKind.DECLARE_ATTACKERS, combat.attack_options(game))
            return True
        fight.attackers_declared = True
    elif step is Step.DECLARE_BLOCKERS:
        for seat in combat.defenders(game):
            if seat not in fight.blockers_done:
                _decide(game, seat, DecisionKind.DECLARE_BLOCKERS,
                        combat.block_options(game, seat))
                return True
    elif step is Step.COMBAT_DAMAGE and not fight.damage_dealt:
        needed = combat.pending_assignment(game)
        if needed is not None:
            _decide(game, needed[0], DecisionKind.ASSIGN_COMBAT_DAMAGE, needed[1])
            return True
        combat.deal_combat_damage(game, events)
    elif step is Step.CLEANUP and not game.cleanup_done:
        hand = game.player(game.active).hand
        if len(hand) > MAX_HAND_SIZE:  # rule 514.1
            _decide(game, game.active, DecisionKind.DISCARD,
                    tuple(Discard(oid) for oid in hand))
            return True
        # Rule 514.2: damage wears off (and "until end of turn" effects end).
        for oid in game.battlefield:
            game.objects[oid].damage = 0
        game.cleanup_done = True
    return False


def _begin_step(game: Game, events: list[Event]) -> None:
    """Turn-based actions at the start of a step (rule 703.4)."""
    game.step_begun = True
    if game.step is Step.UNTAP:
        for oid in game.battlefield:  # rule 502.3
            obj = game.objects[oid]
            if obj.controller == game.active:
                obj.tapped = False
    elif game.step is Step.DRAW:
        # Rule 103.8a: in a two-player game the starting player skips their first draw.
        if not (game.turn == 1 and len(game.players) == 2):
            draw(game, game.active, events)  # rule 504.1
    elif game.step is Step.CLEANUP:
        game.cleanup_done = False


def _end_step(game: Game) -> None:
    """Rule 500.5: the step ends, mana empties, and the next step (or turn) begins."""
    empty_pools(game)
    step = game.step
    if step is Step.END_OF_COMBAT:
        game.combat = Combat()  # rule 511.3: everything is removed from combat
    if step is Step.CLEANUP:
        if game.cleanup_priority:
            game.step = Step.CLEANUP  # rule 514.3a: another cleanup step follows
        else:
            _next_turn(game)
    elif step is Step.DECLARE_ATTACKERS and not game.combat.attackers:
        game.step = Step.END_OF_COMBAT  # rule 508.8: skip blockers and combat damage
    else:
        game.step = Step(step + 1)
    game.cleanup_priority = False
    game.step_begun = False
    game.priority = None
    game.passes = 0


def _next_turn(game: Game) -> None:
    """Rule 500.1 and 101.4: the next player in turn order takes a turn."""
    game.active = game.next_seat(game.active)
    game.turn += 1
    game.step = Step.UNTAP
    for player in game.players:
        player.lands_played = 0


def _advance(game: Game, events: list[Event]) -> None:
    """Run the game until a player must decide something (or it ends)."""
    game.pending = None
    while game.result is None:
        if game.casting is not None:
            kind, options = casting.casting_decision(game)
            _decide(game, game.casting.seat, kind, options)
            return
        if not game.step_begun:
            _begin_step(game, events)
            continue
        if _step_choice(game, events):
            return
        if game.step is Step.UNTAP:
            _end_step(game)  # rule 502.4: no player receives priority during the untap step
            continue
        # Rule 704.3: state-based actions before any player would receive priority.
        if check_state_based_actions(game, events):
            if game.step is Step.CLEANUP:
                game.cleanup_priority = True  # rule 514.3a
            continue
        if game.step is Step.CLEANUP and not game.cleanup_priority:
            _end_step(game)  # rule 514.3: normally no priority in the cleanup step
            continue
        if game.priority is None:
            game.priority = game.active  # rule 117.3a
            game.passes = 0
        _decide(game, game.priority, DecisionKind.PRIORITY, _priority_options(game, game.priority))
        return
