"""The engine's public entry points: :func:`new_game`, :func:`legal_actions`, :func:`apply`.

One entry point changes a game (architecture invariant 1); exactly one decision is pending at a
time (invariant 2); the game is deterministic from its seed and the actions applied (invariant 3).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from server.cards import CardDef
from server.cards.model import PROWESS, TriggeredAbility, TriggerEvent
from server.engine import casting, combat, effects, layers
from server.engine.actions import (
    Action,
    ActivateAbility,
    ActivateManaAbility,
    AssignCombatDamage,
    CastSpell,
    ChooseOrder,
    ChooseReplacement,
    ChooseStartingPlayer,
    Concede,
    DeclareAttacker,
    DeclareBlocker,
    Decline,
    Discard,
    FinishAttackers,
    FinishBlockers,
    KeepHand,
    KeepLegend,
    PassPriority,
    PlayLand,
    PutOnBottom,
    ResetBlockers,
    Sacrifice,
    TakeMulligan,
)
from server.engine.errors import GameOverError, IllegalActionError
from server.engine.events import (
    AttackersDeclared,
    BlockersDeclared,
    CardDrawn,
    Event,
    SpellCast,
    TokenCreated,
    ZoneChanged,
)
from server.engine.mana import empty_pools, potential_pool, tap_for_mana
from server.engine.rng import GameRng
from server.engine.sba import check_game_over, check_state_based_actions, lose
from server.engine.state import (
    Choice,
    Combat,
    Decision,
    DecisionKind,
    Game,
    GameObject,
    GamePhase,
    PendingTrigger,
    Player,
    Step,
    Zone,
)
from server.engine.zones import (
    create_object,
    death_replacements,
    die_instead,
    draw,
    fresh_id,
    move,
    put_into_graveyards,
    shuffle_library,
)

STARTING_LIFE = 20  # rule 103.4
OPENING_HAND = 7  # rule 103.5
MIN_PLAYERS, MAX_PLAYERS = 2, 8  # free-for-all (rule 806)


@dataclass(frozen=True, slots=True)
class PlayerSetup:
    """A player joining a game: display name, a deck (rule 103.2) and an optional sideboard
    kept outside the game (rule 400.11)."""

    name: str
    deck: Sequence[CardDef]
    sideboard: Sequence[CardDef] = field(default=())


def new_game(seed: bytes, players: Sequence[PlayerSetup]) -> Game:
    """Start a game of 2-8 players (rule 103): each deck becomes its owner's library, a random
    player chooses who takes the first turn (103.1) -- the first pending decision; then the
    libraries are shuffled (103.3) and the opening hands drawn (103.5).

    ``seed`` is the game's secret: together with the actions applied it determines everything.
    """
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise ValueError(f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                         f"got {len(players)}")
    for seat, setup in enumerate(players):
        if not setup.deck:
            raise ValueError(f"player {seat} has an empty deck")
    game = Game(rng=GameRng(seed), players=[
        Player(seat=i, name=p.name, life=STARTING_LIFE, sideboard=list(p.sideboard))
        for i, p in enumerate(players)
    ])
    for seat, setup in enumerate(players):
        for card in setup.deck:  # rule 103.2: the starting decks (shuffled at 103.3)
            create_object(game, card, seat, Zone.LIBRARY)
    chooser = game.rng.randbelow(len(players))  # rule 103.1: a random player chooses
    game.choices.append(Choice(DecisionKind.CHOOSE_STARTING_PLAYER, chooser))
    _advance(game, [])
    return game


def blank_game(seed: bytes, names: Sequence[str]) -> Game:
    """An empty game already past the start (rule 103), for building a position by hand --
    the rules scenarios do this. Fill its zones, set turn and step, then call
    :func:`settle` to run it to its first decision."""
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise ValueError(f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(names)}")
    game = Game(rng=GameRng(seed), players=[
        Player(seat=i, name=name, life=STARTING_LIFE) for i, name in enumerate(names)])
    game.phase = GamePhase.PLAYING
    game.turn = 1
    return game


def settle(game: Game) -> list[Event]:
    """Run a hand-built position until the next decision (performing state-based actions and
    putting triggered abilities on the stack first, as before any priority, rule 704.3)."""
    events: list[Event] = []
    _advance(game, events)
    return events


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
        game.action_count += 1
        lose(game, seat, f"player {seat} conceded (104.3a)", events)
        if not check_game_over(game, events):
            _repair_start(game, seat, events)
        _advance(game, events)
        return events
    pending = game.pending
    if pending is None or pending.seat != seat:
        raise IllegalActionError(f"no decision is pending for seat {seat}")
    if action not in pending.options:
        raise IllegalActionError(f"{action!r} is not a legal option of this decision")
    # Perform the engine's own option (equal to, but maybe not typed like, what was sent).
    action = pending.options[pending.options.index(action)]
    game.action_count += 1
    _perform(game, seat, action, events)
    _advance(game, events)
    return events


def _perform(game: Game, seat: int, action: Action, events: list[Event]) -> None:
    if game.casting is not None:
        casting.continue_cast(game, action, events)
    elif game.choices:
        _perform_choice(game, game.choices[0], action, events)
    elif isinstance(action, PassPriority):
        _pass_priority(game, seat, events)
    elif isinstance(action, PlayLand):
        # Rules 116.2a, 305.1: a special action; the player keeps priority (117.3c).
        move(game, action.object_id, Zone.BATTLEFIELD, events)
        game.player(seat).lands_played += 1
        game.passes = 0
    elif isinstance(action, CastSpell):
        casting.begin_cast(game, seat, action, events)
    elif isinstance(action, ActivateAbility):
        casting.begin_activation(game, seat, action, events)
    elif isinstance(action, ActivateManaAbility):
        # Rule 605.3b: a mana ability resolves at once; the player keeps priority and has
        # taken an action (117.4: the passes so far don't count).
        tap_for_mana(game, action.object_id, action.mana)
        game.passes = 0
    elif isinstance(action, DeclareAttacker):
        combat.declare_attacker(game, action)
    elif isinstance(action, FinishAttackers):
        combat.finish_attackers(game, events)
    elif isinstance(action, DeclareBlocker):
        combat.declare_blocker(game, action)
    elif isinstance(action, ResetBlockers):
        combat.reset_blockers(game, seat)
    elif isinstance(action, FinishBlockers):
        combat.finish_blockers(game, seat, events)
    elif isinstance(action, AssignCombatDamage):
        game.combat.assignments[action.attacker_id] = action.assignments
    else:  # pragma: no cover - every option kind is handled above
        raise IllegalActionError(f"unhandled action {action!r}")


def _perform_choice(game: Game, choice: Choice, action: Action, events: list[Event]) -> None:
    """Apply an answer to the first pending :class:`Choice`."""
    kind = choice.kind
    if isinstance(action, ChooseStartingPlayer):
        game.choices.pop(0)
        _start_with(game, action.seat, events)
    elif isinstance(action, KeepHand | TakeMulligan):
        game.choices.pop(0)
        if isinstance(action, TakeMulligan):
            game.mulligan_round.append(choice.seat)
        _after_mulligan_choice(game, events)
    elif isinstance(action, PutOnBottom):
        # Rule 103.5: the card goes on the bottom of the library, as a new hidden object.
        move(game, action.object_id, Zone.LIBRARY, events, bottom=True)
        _count_down(game, choice)
    elif isinstance(action, Discard):
        choice.picked.append(action.object_id)
        choice.pool.remove(action.object_id)
        if _count_down(game, choice):
            # Rules 514.1, 701.9: the chosen cards are discarded at the same time.
            put_into_graveyards(game, choice.picked, events)
    elif isinstance(action, ChooseOrder) and kind is DecisionKind.ORDER_TRIGGERS:
        game.choices.pop(0)
        trigger = next(t for t in game.pending_triggers if t.id == action.object_id)
        casting.put_trigger_on_stack(game, trigger, events)
    elif isinstance(action, ChooseOrder):
        # Rule 404.3: the owner arranges cards that reached their graveyard together; the
        # first chosen is lowest.
        choice.picked.append(action.object_id)
        choice.pool.remove(action.object_id)
        if _count_down(game, choice):
            order = [*choice.picked, *choice.pool]
            graveyard = game.player(choice.seat).graveyard
            kept = [i for i in graveyard if i not in order]
            graveyard[:] = kept + [i for i in order if i in graveyard]
    elif isinstance(action, Sacrifice):
        game.choices.pop(0)
        put_into_graveyards(game, [action.object_id], events)  # rule 701.21a
        if choice.reflexive is not None:
            game.pending_triggers.append(choice.reflexive)  # rule 603.12a: "when you do"
    elif isinstance(action, Decline):
        game.choices.pop(0)
    elif isinstance(action, ChooseReplacement):
        game.choices.pop(0)
        die_instead(game, action.object_id, action.replacement, events)  # rule 616.1
    elif isinstance(action, KeepLegend):
        game.choices.pop(0)
        # Rule 704.5j; they go to the graveyard with the rest of this SBA check (704.3).
        game.legend_rule_losers += [i for i in choice.pool if i != action.object_id]
    else:  # pragma: no cover - options always match the choice kind
        raise IllegalActionError(f"{action!r} doesn't answer a {kind.name} choice")


def _count_down(game: Game, choice: Choice) -> bool:
    """One pick made; True (and the choice removed) when it is complete."""
    choice.count -= 1
    if choice.count > 0:
        return False
    game.choices.remove(choice)
    return True


def _choice_options(game: Game, choice: Choice) -> tuple[Action, ...]:
    kind, seat = choice.kind, choice.seat
    if kind is DecisionKind.CHOOSE_STARTING_PLAYER:
        return tuple(ChooseStartingPlayer(s) for s in game.apnap(seat))
    if kind is DecisionKind.MULLIGAN:
        player = game.player(seat)
        # Rule 103.5: mulligans are allowed until the opening hand would be zero cards.
        if _counted_mulligans(game, player.mulligans) < OPENING_HAND:
            return (KeepHand(), TakeMulligan())
        return (KeepHand(),)
    if kind is DecisionKind.BOTTOM_CARD:
        return tuple(PutOnBottom(oid) for oid in game.player(seat).hand)
    if kind is DecisionKind.DISCARD:
        return tuple(Discard(oid) for oid in choice.pool)
    if kind is DecisionKind.LEGEND_RULE:
        return tuple(KeepLegend(oid) for oid in choice.pool)
    if kind is DecisionKind.CHOOSE_REPLACEMENT:
        oid = choice.pool[0]
        return tuple(ChooseReplacement(oid, r)
                     for r in death_replacements(game, game.objects[oid]))
    if kind is DecisionKind.SACRIFICE:
        declining: tuple[Action, ...] = (Decline(),) if choice.optional else ()
        return (*(Sacrifice(oid) for oid in choice.pool), *declining)
    return tuple(ChooseOrder(oid) for oid in choice.pool)


# --- starting the game (rule 103) -------------------------------------------------------------


def _start_with(game: Game, starting: int, events: list[Event]) -> None:
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


def _repair_start(game: Game, seat: int, events: list[Event]) -> None:
    """A player left before the first turn: the next player makes the starting-player
    choice instead (rule 800.4h), and the mulligan round goes on without them."""
    if game.phase is GamePhase.CHOOSE_STARTING_PLAYER and not game.choices:
        game.choices.append(Choice(DecisionKind.CHOOSE_STARTING_PLAYER, game.next_seat(seat)))
    elif game.phase is GamePhase.MULLIGANS:
        _after_mulligan_choice(game, events)


def _declare_round(game: Game, seats: list[int]) -> None:
    game.mulligan_round = []
    for seat in seats:
        game.choices.append(Choice(DecisionKind.MULLIGAN, seat))


def _counted_mulligans(game: Game, taken: int) -> int:
    """Rule 103.5c: in a multiplayer game the first mulligan is free."""
    return max(0, taken - 1) if len(game.players) > 2 else taken


def _after_mulligan_choice(game: Game, events: list[Event]) -> None:
    """After a declaration (or a bottom card): when everyone has declared, the players who
    chose to mulligan do so at the same time (rule 103.5); when nobody did, turn 1 begins."""
    if any(c.kind in (DecisionKind.MULLIGAN, DecisionKind.BOTTOM_CARD) for c in game.choices):
        return
    takers = [s for s in game.mulligan_round if not game.players[s].has_lost]
    game.mulligan_round = []
    if not takers:
        _begin_first_turn(game)
        return
    for seat in takers:
        player = game.player(seat)
        for oid in list(player.hand):
            move(game, oid, Zone.LIBRARY, events)
        shuffle_library(game, seat)
        for _ in range(OPENING_HAND):
            draw(game, seat, events)
        player.mulligans += 1
    for seat in takers:
        n = min(_counted_mulligans(game, game.player(seat).mulligans), OPENING_HAND)
        if n:
            game.choices.append(Choice(DecisionKind.BOTTOM_CARD, seat, count=n))
    _declare_round(game, takers)


def _begin_first_turn(game: Game) -> None:
    game.phase = GamePhase.PLAYING
    game.turn = 1
    starting = game.starting_player
    # Rule 800.4k: a starting player who already left doesn't begin a turn.
    game.active = game.next_seat(starting) if game.players[starting].has_lost else starting
    game.step = Step.UNTAP
    game.step_begun = False


# --- priority, steps and turns -----------------------------------------------------------------


def _pass_priority(game: Game, seat: int, events: list[Event]) -> None:
    """Rules 117.3d, 117.4, 405.5: pass; when all pass in succession, resolve or end the step."""
    game.passes += 1
    if game.passes < len(game.in_game()):
        game.priority = game.next_seat(seat)
        return
    game.passes = 0
    if game.stack:
        effects.resolve_top(game, events)
    else:
        _end_step(game)


def lands_allowed(game: Game, seat: int) -> int:
    """Rule 305.2: one land per turn, plus what continuous effects add."""
    return 1 + sum(game.objects[oid].card.extra_lands for oid in game.battlefield
                   if game.objects[oid].controller == seat)


def _priority_options(game: Game, seat: int) -> tuple[Action, ...]:
    options: list[Action] = [PassPriority()]
    player = game.player(seat)
    pool = potential_pool(game, seat)
    for oid in player.hand:
        obj = game.objects[oid]
        if obj.card.is_land:
            # Rules 305.1-305.2: main phase, own turn, empty stack, lands left to play.
            if casting.is_sorcery_speed(game, seat) and \
                    player.lands_played < lands_allowed(game, seat):
                options.append(PlayLand(oid))
        elif casting.can_cast_now(game, seat, obj, pool):
            options.append(CastSpell(oid))
    for oid in game.battlefield:
        obj = game.objects[oid]
        if obj.controller == seat:
            options += [ActivateAbility(oid, i) for i in range(len(obj.card.abilities))
                        if casting.can_activate(game, seat, obj, i)]
    # Rules 117.1d, 605.3a: mana abilities may be activated whenever the player has priority.
    options += casting.mana_ability_options(game, seat)
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
        game.cleanup_done = True
        active = game.player(game.active)
        if not active.has_lost and len(active.hand) > active.max_hand_size:  # rule 514.1
            effects.start_discard(game, active.seat, len(active.hand) - active.max_hand_size,
                                  events)
            if game.choices:
                game.cleanup_discarding = True
                return False
        _cleanup_end_effects(game)
    elif step is Step.CLEANUP and game.cleanup_discarding:
        game.cleanup_discarding = False
        _cleanup_end_effects(game)
    return False


def _cleanup_end_effects(game: Game) -> None:
    """Rule 514.2: damage wears off and "until end of turn" effects end, simultaneously."""
    for oid in game.battlefield:
        obj = game.objects[oid]
        obj.damage = 0
        obj.exile_if_dies = False
        obj.regeneration_shields = 0  # shields last "this turn" (701.19a)
    game.effects.clear()
    game.prevent_combat_damage = False


def _begin_step(game: Game, events: list[Event]) -> None:
    """Turn-based actions at the start of a step (rule 703.4) and "at the beginning of"
    triggers (rule 603.2)."""
    game.step_begun = True
    active_in_game = not game.players[game.active].has_lost
    if game.step is Step.UNTAP and active_in_game:
        for oid in game.battlefield:  # rule 502.3: unless an effect keeps it tapped
            obj = game.objects[oid]
            if obj.controller == game.active and "doesnt_untap" not in obj.restrictions:
                obj.tapped = False
    elif game.step is Step.COMBAT_DAMAGE:
        combat.begin_damage_step(game)  # rule 510.4
        game.combat.damage_dealt = False
    elif game.step is Step.UPKEEP and active_in_game:
        _each_permanent(game, TriggerEvent.YOUR_UPKEEP, game.active)  # rule 503.1a
    elif game.step is Step.BEGINNING_OF_COMBAT and active_in_game:
        _each_permanent(game, TriggerEvent.YOUR_BEGINNING_OF_COMBAT, game.active)  # 603.2
    elif game.step is Step.END and active_in_game:
        _each_permanent(game, TriggerEvent.YOUR_END_STEP, game.active)  # rule 513.1a
    elif game.step is Step.DRAW and active_in_game:
        # Rule 103.8a: in a two-player game the starting player skips their first draw;
        # rule 103.8c: in other multiplayer games nobody skips it.
        if not (game.turn == 1 and len(game.players) == 2):
            draw(game, game.active, events)  # rule 504.1
    elif game.step is Step.CLEANUP:
        game.cleanup_done = False


def _end_step(game: Game) -> None:
    """Rule 500.5: as a step ends, unspent mana empties; then the next step (or turn) begins."""
    empty_pools(game)
    step = game.step
    if step is Step.END_OF_COMBAT:
        game.combat = Combat()  # rule 511.3: everything is removed from combat
    if step is Step.CLEANUP:
        if game.cleanup_priority:
            game.step = Step.CLEANUP  # rule 514.3a: another cleanup step follows
        else:
            _next_turn(game)
    elif step is Step.DECLARE_ATTACKERS and not game.combat.any_attacker_declared:
        game.step = Step.END_OF_COMBAT  # rule 508.8: skip blockers and combat damage
    elif step is Step.COMBAT_DAMAGE and game.combat.first_strike_step:
        game.step = Step.COMBAT_DAMAGE  # rule 510.4: a second combat damage step
    else:
        game.step = Step(step + 1)
    game.cleanup_priority = False
    game.step_begun = False
    game.priority = None
    game.passes = 0


def _next_turn(game: Game) -> None:
    """Rules 500.1, 101.4, 800.4k: the next player in turn order still in the game takes a
    turn."""
    game.active = game.next_seat(game.active)
    game.turn += 1
    game.step = Step.UNTAP
    game.creatures_died = 0
    game.delayed = [d for d in game.delayed if not d.this_turn]  # "this turn" is over
    for player in game.players:
        player.lands_played = 0
        player.life_gained_this_turn = 0


# --- triggered abilities (rule 603) ----------------------------------------------------------


def _trigger(game: Game, controller: int, card: CardDef, source_id: str,
             event: TriggerEvent, *, event_player: int | None = None,
             keywords: bool = False, blocked: GameObject | None = None,
             spell: CardDef | None = None) -> None:
    """Rule 603.2: ``card``'s abilities with this trigger event trigger. An intervening "if"
    must hold now (603.4). ``keywords``: the source's keyword triggers (prowess) too."""
    if game.players[controller].has_lost:
        return  # rule 800.4d
    found: list[tuple[int, TriggeredAbility]] = list(enumerate(card.triggers))
    if keywords and event is TriggerEvent.YOU_CAST_NONCREATURE:
        source = game.objects.get(source_id)
        if source is not None and source.has("Prowess"):
            found.append((-1, PROWESS))  # rule 702.108a
    for index, ability in found:
        if ability.event is not event:
            continue
        if ability.quality and (blocked is None or not blocked.has(ability.quality)):
            continue
        if ability.colors and (spell is None or not set(ability.colors) & set(spell.colors)):
            continue
        if not casting.condition_met(game, controller, source_id, ability.condition):
            continue
        game.pending_triggers.append(PendingTrigger(
            fresh_id(game), controller, card, index, source_id, ability, event_player))


def _each_permanent(game: Game, event: TriggerEvent, seat: int | None = None,
                    **kwargs: Any) -> None:
    """Trigger ``event`` for every permanent and emblem (rule 114.4) controlled by
    ``seat``, if given."""
    for oid in [*game.battlefield, *game.command]:
        obj = game.objects[oid]
        if seat is None or obj.controller == seat:
            _trigger(game, obj.controller, obj.card, oid, event, **kwargs)


def _collect_triggers(game: Game, events: list[Event], seen: int) -> int:
    """Rule 603.2: abilities trigger when their event happens; they wait to be put on the
    stack the next time a player would receive priority (603.3). Leaves-the-battlefield
    triggers look back in time (603.10a)."""
    fresh = events[seen:]
    # Rule 603.10a: leaves-the-battlefield abilities look back in time, so permanents that
    # left the battlefield in these same events still see what left with them.
    departed = [(e.old_id, e.controller, e.card) for e in fresh
                if isinstance(e, ZoneChanged) and e.from_zone is Zone.BATTLEFIELD]
    for event in fresh:
        if isinstance(event, TokenCreated):
            _trigger(game, event.controller, event.card, event.object_id, TriggerEvent.ENTERS)
        elif isinstance(event, SpellCast):
            if not event.card.creature:
                _each_permanent(game, TriggerEvent.YOU_CAST_NONCREATURE, event.controller,
                                keywords=True)
            _each_permanent(game, TriggerEvent.YOU_CAST_COLORED, event.controller,
                            spell=event.card)
        elif isinstance(event, CardDrawn):
            _each_permanent(game, TriggerEvent.YOU_DRAW, event.seat)
        elif isinstance(event, AttackersDeclared):
            for oid in event.attackers:
                obj = game.objects.get(oid)
                if obj is not None:
                    _trigger(game, obj.controller, obj.card, oid, TriggerEvent.ATTACKS)
            _delayed_attack_triggers(game, event)
        elif isinstance(event, BlockersDeclared):
            for blocker_id, attacker_id in event.blocks:
                obj = game.objects.get(blocker_id)
                if obj is not None:
                    _trigger(game, obj.controller, obj.card, blocker_id, TriggerEvent.BLOCKS,
                             blocked=game.objects.get(attacker_id))
        elif isinstance(event, ZoneChanged):
            if event.to_zone is Zone.BATTLEFIELD:
                obj = game.objects.get(event.new_id)
                controller = obj.controller if obj is not None else event.owner
                _trigger(game, controller, event.card, event.new_id, TriggerEvent.ENTERS)
            if event.from_zone is Zone.BATTLEFIELD and event.to_zone is Zone.GRAVEYARD:
                _trigger(game, event.controller, event.card, event.old_id, TriggerEvent.DIES)
                if event.card.creature:
                    watchers = [(o.id, o.controller, o.card) for o in
                                (game.objects[i] for i in game.battlefield)]
                    for oid, controller, card in [*watchers, *departed]:
                        if controller != event.controller:
                            _trigger(game, controller, card, oid,
                                     TriggerEvent.OPPONENT_CREATURE_DIES,
                                     event_player=event.controller)
    return len(events)


def _delayed_attack_triggers(game: Game, event: AttackersDeclared) -> None:
    """Delayed "whenever one or more nontoken creatures attack" abilities (603.7)."""
    nontoken = [game.objects[i] for i in event.attackers
                if i in game.objects and not game.objects[i].is_token]
    for delayed in list(game.delayed):
        if delayed.ability.event is not TriggerEvent.NONTOKEN_CREATURES_ATTACK:
            continue
        mine = [o for o in nontoken if o.controller == delayed.controller]
        if not mine or game.players[delayed.controller].has_lost:
            continue
        game.pending_triggers.append(PendingTrigger(
            fresh_id(game), delayed.controller, delayed.card, -1, "", delayed.ability,
            event_player=game.combat.attackers.get(mine[0].id), event_amount=len(mine)))
        if not delayed.this_turn:
            game.delayed.remove(delayed)  # rule 603.7b: only the next time


def _put_triggers(game: Game, events: list[Event]) -> None:
    """Rules 603.3b, 405.3: the active player puts their triggered abilities on the stack
    first, then each other player in turn order; a player with several orders them."""
    for seat in game.apnap():
        mine = [t for t in game.pending_triggers if t.controller == seat]
        if len(mine) == 1:
            casting.put_trigger_on_stack(game, mine[0], events)
            return
        if mine:
            game.choices.append(Choice(DecisionKind.ORDER_TRIGGERS, seat, [t.id for t in mine]))
            return
    game.pending_triggers.clear()  # only triggers of players who left remained


# --- the main loop ---------------------------------------------------------------------------


def _advance(game: Game, events: list[Event]) -> None:
    """Run the game until a player must decide something (or it ends)."""
    game.pending = None
    seen = 0
    while game.result is None:
        layers.refresh(game)
        seen = _collect_triggers(game, events, seen)
        if game.casting is not None:
            kind, options = casting.casting_decision(game)
            _decide(game, game.casting.seat, kind, options)
            return
        if game.choices:
            choice = game.choices[0]
            _decide(game, choice.seat, choice.kind, _choice_options(game, choice))
            return
        if game.resolving is not None:
            effects.continue_resolution(game, events)
            continue
        if game.phase is not GamePhase.PLAYING:
            raise AssertionError("the start of the game always has a pending choice")
        if not game.step_begun:
            _begin_step(game, events)
            continue
        if _step_choice(game, events):
            return
        if game.choices:
            continue
        if game.step is Step.UNTAP:
            _end_step(game)  # rule 502.4: no player receives priority during the untap step
            continue
        # Rule 704.3: state-based actions before any player would receive priority, then
        # triggered abilities go on the stack (603.3), repeating until neither happens.
        if check_state_based_actions(game, events):
            if game.step is Step.CLEANUP:
                game.cleanup_priority = True  # rule 514.3a
            continue
        if game.pending_triggers:
            _put_triggers(game, events)
            if game.step is Step.CLEANUP:
                game.cleanup_priority = True  # rule 514.3a
            continue
        if game.step is Step.CLEANUP and not game.cleanup_priority:
            _end_step(game)  # rule 514.3: normally no priority in the cleanup step
            continue
        if game.priority is None or game.players[game.priority].has_lost:
            order = game.apnap()
            game.priority = order[0]  # rules 117.3a, 800.4j
            game.passes = 0
        _decide(game, game.priority, DecisionKind.PRIORITY, _priority_options(game, game.priority))
        return
