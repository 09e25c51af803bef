"""The engine's public entry points: :func:`new_game`, :func:`legal_actions`, :func:`apply`.

One entry point changes a game (architecture invariant 1); exactly one decision is pending at a
time (invariant 2); the game is deterministic from its seed and the actions applied (invariant 3).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import assert_never

from server.cards import CardDef
from server.cards.model import TriggerStep
from server.engine import ante as ante_rules
from server.engine import (
    autopay,
    casting,
    choosing,
    combat,
    counting,
    effects,
    layers,
    looking,
    madness,
    modes,
    permissions,
    phasing,
    planar,
    replacements,
    start,
    triggers,
    unless,
    variants,
    watchers,
    zone_rules,
    zones,
)
from server.engine.actions import (
    Accept,
    Action,
    ActionLimitDraw,
    ActivateAbility,
    ActivateManaAbility,
    AssignCombatDamage,
    CancelCast,
    CastSpell,
    ChooseOrder,
    ChooseReplacement,
    ChooseStartingPlayer,
    Concede,
    ConcedeReason,
    DeclareAttacker,
    DeclareBlocker,
    Decline,
    Discard,
    FinishAttackers,
    FinishBlockers,
    KeepHand,
    KeepLegend,
    PassPriority,
    PayAutomatically,
    PayMana,
    PlayLand,
    PutOnBottom,
    ResetAttackers,
    ResetBlockers,
    RollPlanarDie,
    Sacrifice,
    TakeMulligan,
)
from server.engine.board import board
from server.engine.errors import GameOverError, IllegalActionError
from server.engine.events import (
    Event,
    GameEnded,
    StartingPlayerChosen,
    Untapped,
)
from server.engine.mana import (
    ForEachMana,
    Potential,
    converter_payments,
    empty_pools,
    is_payment,
    mana_sources,
    potential_pool,
    spendable,
    tap_for_mana,
)
from server.engine.rng import GameRng
from server.engine.sba import check_game_over, check_state_based_actions, exile_unclaimed, lose
from server.engine.state import (
    Choice,
    Combat,
    Decision,
    DecisionKind,
    Game,
    GamePhase,
    GameResult,
    Player,
    Step,
    Zone,
)
from server.engine.zones import (
    create_object,
    die_instead,
    draw,
    move,
    sacrifice,
)

STARTING_LIFE = 20  # rule 103.4
MIN_PLAYERS, MAX_PLAYERS = 2, 8  # free-for-all (rule 806)

# Enum members the main loop reads, bound to module names once: in Python 3.11 reading a
# member as a class attribute (``Step.UNTAP``) goes through the slow attribute hook of
# ``EnumType.__getattr__``, several times the cost of reading a global. They are the same
# objects (``is`` holds).
_UNTAP = Step.UNTAP
_UPKEEP = Step.UPKEEP
_DRAW = Step.DRAW
_PRECOMBAT_MAIN = Step.PRECOMBAT_MAIN
_BEGINNING_OF_COMBAT = Step.BEGINNING_OF_COMBAT
_DECLARE_ATTACKERS = Step.DECLARE_ATTACKERS
_DECLARE_BLOCKERS = Step.DECLARE_BLOCKERS
_COMBAT_DAMAGE = Step.COMBAT_DAMAGE
_END_OF_COMBAT = Step.END_OF_COMBAT
_END = Step.END
_CLEANUP = Step.CLEANUP
_PRIORITY = DecisionKind.PRIORITY
_PLAYING = GamePhase.PLAYING


@dataclass(frozen=True, slots=True)
class PlayerSetup:
    """A player joining a game: display name, a deck (rule 103.2) and an optional sideboard
    kept outside the game (rule 400.11)."""

    name: str
    deck: Sequence[CardDef]
    sideboard: Sequence[CardDef] = field(default=())
    #: Planechase (rule 901.3): the player's planar deck, top card LAST (shuffled at the
    #: start like the library).
    planar_deck: Sequence[CardDef] = field(default=())


def new_game(seed: bytes, players: Sequence[PlayerSetup], *, planechase: bool = False,
             ante: bool = False, chooser: int | None = None) -> Game:
    """Start a game of 2-8 players (rule 103): each deck becomes its owner's library, a random
    player chooses who takes the first turn (103.1) -- the first pending decision; then the
    libraries are shuffled (103.3) and the opening hands drawn (103.5).

    ``chooser``: the seat that chooses who takes the first turn instead of a random one --
    rule 103.1 in a game after the first of a match: the loser of the previous game, or after
    a draw the player who chose in that game. The random draw is made either way, so the
    game's random stream is the same whoever chooses.

    ``seed`` is the game's secret: together with the actions applied it determines everything.

    ``planechase``: play the Planechase variant (rule 901) with each player's planar deck
    (901.3, validated). ``ante``: play for ante (rule 407); ante cards are legal only then
    (407.3). Plane cards are never part of a deck or sideboard (311.1, 901.3).
    """
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise ValueError(f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                         f"got {len(players)}")
    for seat, setup in enumerate(players):
        if not setup.deck:
            raise ValueError(f"player {seat} has an empty deck")
    for seat, setup in enumerate(players):
        cards = [*setup.deck, *setup.sideboard]
        if any(planar.is_plane(c) for c in cards):
            raise planar.PlanarDeckError(f"player {seat}'s deck or sideboard holds a plane "
                                         "card; planes belong in a planar deck (rule 901.3)")
        ante_rules.validate_ante_cards(seat, cards, ante)
        if planechase:
            planar.validate_planar_deck(seat, setup.planar_deck)
        elif setup.planar_deck:
            raise planar.PlanarDeckError(f"player {seat} has a planar deck but the game is "
                                         "not a Planechase game (rule 901)")
    game = Game(rng=GameRng(seed), players=[
        Player(seat=i, name=p.name, life=STARTING_LIFE, sideboard=list(p.sideboard))
        for i, p in enumerate(players)
    ])
    for seat, setup in enumerate(players):
        for card in setup.deck:  # rule 103.2: the starting decks (shuffled at 103.3)
            create_object(game, card, seat, Zone.LIBRARY)
    if planechase:
        record = planar.Planechase()
        for seat, setup in enumerate(players):
            record.decks[seat] = list(setup.planar_deck)
            game.rng.shuffle(record.decks[seat])  # a random planar deck order
        game.variants.append(record)
    if ante:
        game.variants.append(ante_rules.Ante())
    drawn = game.rng.randbelow(len(players))  # rule 103.1: a random player chooses ...
    if chooser is None:
        chooser = drawn
    elif not 0 <= chooser < len(players):  # ... or the one the match says (103.1)
        raise ValueError(f"chooser must be a seat 0-{len(players) - 1}, got {chooser}")
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


def priority_options(game: Game, seat: int) -> tuple[Action, ...]:
    """The options of a priority decision for ``seat`` in the game's current state, built by
    the engine's own option builder without changing the game: while ``seat``'s priority
    decision is pending it equals that decision's options. (``manawire sim`` times it.)"""
    return _priority_options(game, seat)


def apply(game: Game, seat: int, action: Action) -> list[Event]:
    """Apply ``seat``'s action and run the game until the next decision.

    Raises :class:`IllegalActionError` (changing nothing) unless ``action`` is one of the
    options of the decision pending for ``seat``, a concession, or the server's own
    :class:`ActionLimitDraw` of a game that has taken at least its ``limit`` of actions
    (never an option: a client can't send it; the room applies it, and the log replays it).
    """
    if game.result is not None:
        raise GameOverError("the game is over")
    if not 0 <= seat < len(game.players) or game.players[seat].has_lost:
        raise IllegalActionError(f"seat {seat} is not playing in this game")
    events: list[Event] = []
    if isinstance(action, Concede):
        game.action_count += 1
        lose(game, seat, _concession(game.players[seat].name, action.reason), events)
        if not check_game_over(game, events):
            start.repair_start(game, seat, events)
        _advance(game, events)
        return events
    if isinstance(action, ActionLimitDraw):
        if not 0 < action.limit <= game.action_count:
            raise IllegalActionError(f"a game of {game.action_count} actions hasn't reached a "
                                     f"limit of {action.limit}")
        game.action_count += 1
        _limit_draw(game, action.limit, events)
        return events
    pending = game.pending
    if pending is None or pending.seat != seat:
        raise IllegalActionError(f"no decision is pending for seat {seat}")
    if isinstance(action, ActivateManaAbility) and not action.paid_with:
        action = _default_payment(game, action)
    try:
        # Perform the engine's own option (equal to, but maybe not typed like, what was sent).
        action = pending.options[pending.options.index(action)]
    except ValueError:
        if not _whole_answer(game, pending, action):
            raise IllegalActionError(f"{action!r} is not a legal option of this decision") \
                from None
    game.action_count += 1
    if isinstance(action, (CancelCast, ResetAttackers, ResetBlockers)):
        game.player(seat).take_backs += 1  # (MAX_TAKE_BACKS a turn)
    if isinstance(action, PayAutomatically):
        # A shortcut (732.2a): the options the player could have taken one by one.
        stepped = False
        for _ in range(autopay.MAX_STEPS):
            step = autopay.next_payment(game, seat)
            if step is None:
                break
            _take(game, seat, step, events)
            stepped = True
        if not stepped:
            _advance(game, events)  # asked again, under a new prompt: the sender is answered
        return events
    _take(game, seat, action, events)
    return events


def _take(game: Game, seat: int, action: Action, events: list[Event]) -> None:
    """Perform ``action``, an option of the decision pending for ``seat``, and run the game
    until the next decision."""
    if not (isinstance(action, PayMana) and action.types):
        game.mana_prefix = None  # (a payment's steps end with any other answer)
    if _perform(game, seat, action, events):
        # Rule 117.3d: a pass that isn't the last in succession only moved priority on,
        # changing nothing else -- so the checks made before the passing player received
        # priority (state-based actions, triggers, the step's actions: rules 117.5, 704.3)
        # would find what they found then (that decision was made by _advance at its end,
        # the only place one is made, after every check came out empty; nothing else
        # changes a game between two actions), and the next player's priority follows at
        # once. (A test that sets a life total directly sees it checked only when the
        # engine next advances the game.)
        nxt = game.priority
        assert nxt is not None  # the pass gave it to the next player
        _decide(game, nxt, _PRIORITY, _priority_options(game, nxt))
    else:
        _advance(game, events)


def _whole_answer(game: Game, pending: Decision, action: Action) -> bool:
    """Whether ``action`` is the whole answer to a decision that asks it in steps (past
    :data:`~server.engine.state.MAX_OPTIONS` ways): a full payment (601.2h) or division of
    combat damage (510.1c) that the steps reach -- as a game logged before the steps sent
    it, and replays it."""
    if isinstance(action, AssignCombatDamage) and not action.partial and \
            pending.kind is DecisionKind.ASSIGN_COMBAT_DAMAGE:
        # Only for the attacker being asked about, and agreeing with the steps taken for it
        # (the amounts chosen so far): the answer is to the pending decision alone.
        asked = {o.attacker_id for o in pending.options if isinstance(o, AssignCombatDamage)}
        taken = game.combat.dividing.get(action.attacker_id, ())
        return asked == {action.attacker_id} and \
            action.assignments[:len(taken)] == taken and combat.is_division(game, action)
    if isinstance(action, PayMana) and not action.types and \
            pending.kind is DecisionKind.PAY_MANA and \
            any(isinstance(o, PayMana) and o.types for o in pending.options):
        cost, spell = autopay.being_paid(game)
        pool = spendable(game, pending.seat, spell) if game.casting is not None \
            else game.player(pending.seat).mana_pool
        return is_payment(pool, cost, action.mana)
    return False


def _default_payment(game: Game, action: ActivateManaAbility) -> ActivateManaAbility:
    """A game logged before the mana paying a mana ability's mana cost (Prismite's {2}) was
    the player's choice activated it with none named: the engine paid it its own way, the
    first of the ways now offered -- so that log replays as it was played."""
    obj = game.objects.get(action.object_id)
    if obj is None or obj.card.mana_ability_cost is None:
        return action
    ways = converter_payments(game, action.object_id)
    return replace(action, paid_with=ways[0]) if ways else action


def limit_draw_reason(limit: int) -> str:
    """Why a game that reached the server's limit of ``limit`` actions ended (a draw)."""
    return f"the game reached the server's limit of {limit:,} actions: a draw"


def _limit_draw(game: Game, limit: int, events: list[Event]) -> None:
    """:class:`ActionLimitDraw`: the game ends at once, a draw -- nobody wins or loses
    (as 104.4b's loop: no ante changes hands, 104.4a)."""
    game.result = GameResult((), limit_draw_reason(limit))
    game.pending = None
    game.casting = None
    game.choices.clear()
    events.append(GameEnded((), game.result.reason))


def _concession(name: str, reason: ConcedeReason) -> str:
    """The reason a conceding player lost (rule 104.3a), as players read it: plain words
    naming the player first, no rule number (clients put "you" for the viewer's name)."""
    if reason is ConcedeReason.CHOSE:
        return f"{name} conceded"
    if reason is ConcedeReason.OUT_OF_TIME:
        return f"{name} ran out of time, which concedes the game"
    if reason is ConcedeReason.LEFT:
        return f"{name} left the game, which concedes it"
    if reason is ConcedeReason.ABSENT:
        return f"{name} stayed disconnected too long, which concedes the game"
    if reason is ConcedeReason.NO_PERSON_LEFT:
        return f"{name} conceded: no person was left playing"
    assert_never(reason)


def _perform(game: Game, seat: int, action: Action, events: list[Event]) -> bool:
    """Carry out the chosen option; True if it was a pass that only moved priority on
    (:func:`_pass_priority`)."""
    if game.casting is not None:
        casting.continue_cast(game, action, events)
    elif game.choices:
        _perform_choice(game, game.choices[0], action, events)
    elif isinstance(action, PassPriority):
        return _pass_priority(game, seat, events)
    elif isinstance(action, ActivateManaAbility):
        # Rule 605.3b: a mana ability resolves at once; the player keeps priority and has
        # taken an action (117.4: the passes so far don't count). (The second most frequent
        # option: tested before the others, each action being of exactly one class.)
        tap_for_mana(game, action.object_id, action.mana, events, action.paid_with)
        game.passes = 0
    elif isinstance(action, PlayLand):
        # Rules 116.2a, 305.1: a special action; the player keeps priority (117.3c).
        origin = game.objects[action.object_id].zone
        land = move(game, action.object_id, Zone.BATTLEFIELD, events)
        zone_rules.played_from(game, origin, land)  # rule 400.7i
        game.player(seat).lands_played += 1
        game.passes = 0
    elif isinstance(action, CastSpell):
        casting.begin_cast(game, seat, action, events)
    elif isinstance(action, ActivateAbility):
        casting.begin_activation(game, seat, action, events)
    elif isinstance(action, DeclareAttacker):
        effects.declare_attack(game, action)
    elif isinstance(action, FinishAttackers):
        combat.finish_attackers(game, events)
    elif isinstance(action, DeclareBlocker):
        combat.declare_blocker(game, action)
    elif isinstance(action, ResetBlockers):
        combat.reset_blockers(game, seat)
    elif isinstance(action, ResetAttackers):
        combat.reset_attackers(game)
    elif isinstance(action, FinishBlockers):
        combat.finish_blockers(game, seat, events)
    elif isinstance(action, AssignCombatDamage):
        combat.take_assignment(game, action)
    elif isinstance(action, RollPlanarDie):
        planar.roll_planar_die(game, seat, action.mana, events)  # rules 901.9, 116.2i
    else:  # pragma: no cover - every option kind is handled above
        raise IllegalActionError(f"unhandled action {action!r}")
    return False


def _perform_choice(game: Game, choice: Choice, action: Action, events: list[Event]) -> None:
    """Apply an answer to the first pending :class:`Choice`."""
    kind = choice.kind
    if kind is DecisionKind.MAY and choice.group[:1] == [looking.ALSO_LIBRARY]:
        looking.answer_also_library(game, choice, action, events)  # rule 608.2d
    elif kind is DecisionKind.MAY:
        game.choices.remove(choice)
        if isinstance(action, Accept):
            effects.perform_optional(game, choice, events)
    elif kind is DecisionKind.CHOOSE_CARD and choice.group[:1] == [effects.CHOSEN_ONE]:
        effects.answer_chosen(game, choice, action, events)  # "a Liliana you control"
    elif kind is DecisionKind.CHOOSE_CARD and choice.group[:1] == [zones.AURA_HOST]:
        zones.answer_aura_host(game, choice, action)  # rule 303.4f
    elif kind is DecisionKind.CHOOSE_COLOR:
        choosing.answer_color(game, choice, action)  # rule 105.4
    elif kind is DecisionKind.CHOOSE_NAME:
        choosing.answer_name(game, choice, action)  # rule 608.2d
    elif choosing.owns(choice):
        if choosing.answer(game, choice, action):
            effects.perform_chosen(game, choice, events)  # rule 608.2d
    elif kind in looking.KINDS:
        looking.answer(game, choice, action, events)
    elif kind in counting.KINDS:
        counting.answer(game, choice, action, events)
    elif kind in zone_rules.KINDS:
        zone_rules.answer(game, choice, action, events)  # rule 400.11b
    elif kind in madness.KINDS:
        madness.answer(game, choice, action, events)  # rule 702.35a
    elif kind in unless.KINDS:
        unless.answer(game, choice, action, events)  # rule 118.12a
    elif isinstance(action, ChooseStartingPlayer):
        game.choices.pop(0)
        events.append(StartingPlayerChosen(choice.seat, action.seat))  # rule 103.1
        game.starting_player = action.seat
        variants.starting_player_chosen(game, events)  # e.g. the ante (407.2)
        start.start_with(game, action.seat, events)
    elif isinstance(action, KeepHand | TakeMulligan):
        game.choices.pop(0)
        if isinstance(action, TakeMulligan):
            game.mulligan_round.append(choice.seat)
        start.after_mulligan_choice(game, events)
    elif isinstance(action, PutOnBottom):
        # Rule 103.5: the card goes on the bottom of the library, as a new hidden object.
        move(game, action.object_id, Zone.LIBRARY, events, bottom=True)
        _count_down(game, choice)
    elif isinstance(action, Discard):
        choice.picked.append(action.object_id)
        choice.pool.remove(action.object_id)
        if _count_down(game, choice):
            _discard_chosen(game, choice, events)
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
        sacrifice(game, [action.object_id], events)  # rule 701.21a
        if choice.optional and game.resolving is not None:
            game.resolving.did = True  # "you may sacrifice ... If you do" (608.2d)
        if choice.reflexive is not None:
            game.pending_triggers.append(choice.reflexive)  # rule 603.12a: "when you do"
    elif isinstance(action, Decline):
        game.choices.pop(0)
        if kind is DecisionKind.DISCARD:
            _discard_chosen(game, choice, events)  # "up to N": no more (608.2d)
    elif isinstance(action, ChooseReplacement) and \
            choice.group[:1] == [zones.DAMAGE_PREVENTION]:
        zones.answer_damage_prevention(game, choice, action, events)  # rules 616.1, 615.1
    elif isinstance(action, ChooseReplacement):
        game.choices.pop(0)
        die_instead(game, action.object_id, action.replacement, events)  # rule 616.1
    elif isinstance(action, DeclareAttacker):
        game.choices.pop(0)
        effects.declare_attack(game, action)  # rule 508.4: what it enters attacking
    elif isinstance(action, KeepLegend):
        game.choices.pop(0)
        # Rule 704.5j; they go to the graveyard with the rest of this SBA check (704.3).
        game.legend_rule_losers += [i for i in choice.pool if i != action.object_id]
    else:  # pragma: no cover - options always match the choice kind
        raise IllegalActionError(f"{action!r} doesn't answer a {kind.name} choice")


def _discard_chosen(game: Game, choice: Choice, events: list[Event]) -> None:
    """Rules 514.1, 701.9: the chosen cards are discarded at the same time; "that many" of
    an "up to N" discard is how many were (608.2c)."""
    if choice.optional and game.resolving is not None:
        game.resolving.chosen = list(choice.picked)
    madness.discard(game, choice.picked, events)  # madness may apply (702.35a)


def _count_down(game: Game, choice: Choice) -> bool:
    """One pick made; True (and the choice removed) when it is complete."""
    choice.count -= 1
    if choice.count > 0:
        return False
    game.choices.remove(choice)
    return True


def _choice_options(game: Game, choice: Choice) -> tuple[Action, ...]:
    """The answers to a pending :class:`Choice`, by its kind (exhaustive: a new
    :class:`DecisionKind` fails type checking here until it is placed)."""
    kind, seat = choice.kind, choice.seat
    match kind:
        case DecisionKind.MAY:
            return (Accept(), Decline())
        case DecisionKind.CHOOSE_COLOR:
            return choosing.color_options()  # rule 105.4
        case DecisionKind.CHOOSE_NAME:
            return choosing.name_options(choice)  # rule 608.2d
        case DecisionKind.CHOOSE_CARD if choosing.owns(choice):
            return choosing.options(choice)  # rule 608.2d
        case DecisionKind.CHOOSE_CARD if choice.group[:1] == [zones.AURA_HOST]:
            return zones.aura_host_options(game, choice)  # rule 303.4f
        case (DecisionKind.SCRY | DecisionKind.SEARCH | DecisionKind.CHOOSE_PLAYER
              | DecisionKind.SEPARATE_PILES | DecisionKind.CHOOSE_PILE
              | DecisionKind.CHOOSE_CARD | DecisionKind.CLASH):
            return looking.options(game, choice)  # looking.KINDS
        case DecisionKind.CHOOSE_PARTY:
            return counting.options(game, choice)  # rule 700.8
        case DecisionKind.CHOOSE_OUTSIDE_CARD | DecisionKind.CHOOSE_EXILED_CARD:
            return zone_rules.options(game, choice)  # rule 400.11b
        case DecisionKind.CAST_MADNESS:
            return madness.options(game, choice)  # rule 702.35a
        case DecisionKind.PAY_MANA:
            return unless.options(game, choice)  # rule 118.12a
        case DecisionKind.CHOOSE_STARTING_PLAYER:
            return tuple(ChooseStartingPlayer(s) for s in game.apnap(seat))
        case DecisionKind.MULLIGAN:
            player = game.player(seat)
            # Rule 103.5: mulligans are allowed until the opening hand would be zero cards.
            if start.counted_mulligans(game, player.mulligans) < start.OPENING_HAND:
                return (KeepHand(), TakeMulligan())
            return (KeepHand(),)
        case DecisionKind.BOTTOM_CARD:
            return tuple(PutOnBottom(oid) for oid in game.player(seat).hand)
        case DecisionKind.DISCARD:
            stop: tuple[Action, ...] = (Decline(),) if choice.optional else ()  # "up to N"
            return (*(Discard(oid) for oid in choice.pool), *stop)
        case DecisionKind.LEGEND_RULE:
            return tuple(KeepLegend(oid) for oid in choice.pool)
        case DecisionKind.CHOOSE_DEFENDER:
            return tuple(effects.attack_targets(game, choice.pool[0]))
        case DecisionKind.CHOOSE_REPLACEMENT if choice.group[:1] == [zones.DAMAGE_PREVENTION]:
            return zones.prevention_choice_options(choice)  # rules 616.1, 615.1
        case DecisionKind.CHOOSE_REPLACEMENT:
            return zones.death_options(game, choice)  # rule 616.1
        case DecisionKind.SACRIFICE:
            declining: tuple[Action, ...] = (Decline(),) if choice.optional else ()
            return (*(Sacrifice(oid) for oid in choice.pool), *declining)
        case DecisionKind.ORDER_TRIGGERS | DecisionKind.ORDER_GRAVEYARD:
            return tuple(ChooseOrder(oid) for oid in choice.pool)  # rules 603.3b, 404.3
        case (DecisionKind.PRIORITY | DecisionKind.CHOOSE_X | DecisionKind.CHOOSE_TARGET
              | DecisionKind.DECLARE_ATTACKERS | DecisionKind.DECLARE_BLOCKERS
              | DecisionKind.ASSIGN_COMBAT_DAMAGE | DecisionKind.CHOOSE_MODE
              | DecisionKind.CHOOSE_COST):
            # Posed by the game's state (priority, casting, combat), never as a Choice.
            raise AssertionError(f"{kind.name} is not a pending choice")
        case _:
            assert_never(kind)


# --- priority, steps and turns -----------------------------------------------------------------


def _pass_priority(game: Game, seat: int, events: list[Event]) -> bool:
    """Rules 117.3d, 117.4, 405.5: pass; when all pass in succession, resolve or end the
    step. True if priority only moved on to the next player."""
    game.passes += 1
    if game.passes < len(game.in_game()):
        game.priority = game.next_seat(seat)
        return True
    game.passes = 0
    if game.stack:
        effects.resolve_top(game, events)
    else:
        _end_step(game)
    return False


def lands_allowed(game: Game, seat: int) -> int:
    """Rule 305.2: one land per turn, plus what continuous effects add."""
    return 1 + sum(o.card.extra_lands for o in board(game).extra_lands if o.controller == seat)


_PASS = PassPriority()


def _priority_options(game: Game, seat: int) -> tuple[Action, ...]:
    options: list[Action] = [_PASS]
    player = game.player(seat)
    sources = mana_sources(game, seat)
    # What "for each" sources add, counted once for every pool built here.
    for_each: ForEachMana = {}
    # The mana the player could spend, found once and only if some card could be cast now.
    pool: Potential | None = None
    most: int | None = None
    # Copies of one card in a hand are alike but for their ids (400.7), so whether one can be
    # cast now is whether each can: decided once per card.
    castable: dict[int, bool] = {}
    sorcery_speed = casting.is_sorcery_speed(game, seat)
    # Rules 305.1-305.2: main phase, own turn, empty stack, lands left to play.
    land_now = sorcery_speed and player.lands_played < lands_allowed(game, seat)
    # Rule 113.6m: "Discard [this]: ..." works from the hand -- offered after the abilities
    # of permanents, found in the same pass over the hand.
    from_hand: list[Action] = []
    objects = game.objects
    for oid in player.hand:  # rule 401.5
        obj = objects[oid]
        card = obj.card
        if card.abilities:
            from_hand += [ActivateAbility(oid, i) for i, a in enumerate(card.abilities)
                          if a.discard_self
                          and casting.can_activate(game, seat, obj, i, for_each)]
        if card.is_land:
            if land_now:
                options.append(PlayLand(oid))
            continue
        if not sorcery_speed and not card.instant_speed:
            continue  # rules 117.1a, 307.1: not now (can_cast_now would say the same)
        known = castable.get(id(card))
        if known is None:
            if pool is None:
                pool = potential_pool(game, seat, sources=sources, for_each=for_each)
                most = casting.most_for_any_spell(game, seat, pool)
            if most is not None and card.cost_reduction is None \
                    and card.mana_cost.mana_value > most:
                known = castable[id(card)] = False  # too little mana (601.2g-h)
            else:
                known = castable[id(card)] = casting.can_cast_now(game, seat, obj, pool)
        if known:
            options.append(CastSpell(oid))
    for oid in zone_rules.playable_elsewhere(game, seat):  # rule 400.7h
        obj = game.objects[oid]
        if obj.card.is_land:
            if casting.is_sorcery_speed(game, seat) and \
                    player.lands_played < lands_allowed(game, seat):
                options.append(PlayLand(oid))
            continue
        if pool is None:
            pool = potential_pool(game, seat, sources=sources, for_each=for_each)
        if casting.can_cast_now(game, seat, obj, pool):
            options.append(CastSpell(oid))
    for obj in board(game).activated:
        if obj.controller == seat:
            options += [ActivateAbility(obj.id, i) for i in range(len(obj.activated_abilities))
                        if casting.can_activate(game, seat, obj, i, for_each)]
    options += from_hand
    if game.variants:
        options += variants.special_actions(game, seat)  # e.g. the planar die (901.9, 116.2i)
    # Rules 117.1d, 605.3a: mana abilities may be activated whenever the player has priority.
    options += casting.mana_ability_options(game, seat, sources=sources)
    return tuple(options)


def _decide(game: Game, seat: int, kind: DecisionKind, options: tuple[Action, ...]) -> None:
    game.prompt_counter += 1
    game.pending = Decision(game.prompt_counter, seat, kind, options)


def _step_choice(game: Game, events: list[Event]) -> bool:
    """Turn-based choices and actions of the current step; True if a decision is now pending."""
    step, fight = game.step, game.combat
    if step is _DECLARE_ATTACKERS and not fight.attackers_declared:
        if combat.has_possible_attacker(game):
            _decide(game, game.active, DecisionKind.DECLARE_ATTACKERS, combat.attack_options(game))
            return True
        fight.attackers_declared = True
    elif step is _DECLARE_BLOCKERS:
        for seat in combat.defenders(game):
            if seat not in fight.blockers_done:
                _decide(game, seat, DecisionKind.DECLARE_BLOCKERS,
                        combat.block_options(game, seat))
                return True
    elif step is _COMBAT_DAMAGE and not fight.damage_dealt:
        needed = combat.pending_assignment(game)
        if needed is not None:
            _decide(game, needed[0], DecisionKind.ASSIGN_COMBAT_DAMAGE, needed[1])
            return True
        combat.deal_combat_damage(game, events)
    elif step is _CLEANUP and not game.cleanup_done:
        game.cleanup_done = True
        active = game.player(game.active)
        if not active.has_lost and len(active.hand) > active.max_hand_size:  # rule 514.1
            effects.start_discard(game, active.seat, len(active.hand) - active.max_hand_size,
                                  events)
            if game.choices:
                game.cleanup_discarding = True
                return False
        _cleanup_end_effects(game)
    elif step is _CLEANUP and game.cleanup_discarding:
        game.cleanup_discarding = False
        _cleanup_end_effects(game)
    return False


def _cleanup_end_effects(game: Game) -> None:
    """Rule 514.2: damage wears off and "until end of turn" effects end, simultaneously."""
    for oid in [*game.battlefield, *(p.object_id for p in game.phased_out)]:  # 702.26d
        obj = game.objects[oid]
        obj.damage = 0
        obj.regeneration_shields = 0  # shields last "this turn" (701.19a)
    # Rule 611.2a: only effects that last until end of turn end now.
    game.effects[:] = [e for e in game.effects if e.lasting]
    replacements.end_of_turn(game)  # "... exile it instead", "prevent ... this turn" (615.1)
    permissions.end_of_turn(game)  # "you may play that card this turn", ...
    # What the ended effects did is undone now: the state-based actions checked next, in
    # this cleanup step (514.3a), see it (a creature whose pump ended dies now, 704.5f).
    layers.refresh(game)


def _begin_step(game: Game, events: list[Event]) -> None:
    """Turn-based actions at the start of a step (rule 703.4) and "at the beginning of"
    triggers (rule 603.2)."""
    game.step_begun = True
    step = game.step
    active_in_game = not game.players[game.active].has_lost
    if step is _UNTAP and active_in_game:
        rules = {r for plane in planar.face_up(game) for r in plane.card.plane_rules}
        # The Eon Fog (901.7): players skip their untap steps, so nothing untaps.
        if "skip_untap_steps" not in rules:
            phasing.phase_in(game, game.active)  # rule 702.26a: before untapping (702.26m)
            everyone = "all_permanents_untap" in rules  # Horizon Boughs (901.7)
            for oid in game.battlefield:  # rule 502.3: unless an effect keeps it tapped
                obj = game.objects[oid]
                if obj.controller == game.active and obj.skip_next_untap:
                    # "doesn't untap during its controller's next untap step": this one.
                    obj.skip_next_untap = False
                    continue
                if (everyone or obj.controller == game.active) \
                        and "doesnt_untap" not in obj.restrictions:
                    if obj.tapped:
                        events.append(Untapped(oid))  # "whenever [this] becomes untapped"
                    obj.tapped = False
    elif step is _COMBAT_DAMAGE:
        combat.begin_damage_step(game)  # rule 510.4
        game.combat.damage_dealt = False
    elif step is _UPKEEP and active_in_game:
        triggers.step_begins(game, TriggerStep.UPKEEP)  # rule 503.1a
    elif step is _BEGINNING_OF_COMBAT and active_in_game:
        triggers.step_begins(game, TriggerStep.BEGINNING_OF_COMBAT)  # 507.2
    elif step is _PRECOMBAT_MAIN and active_in_game:
        # Rules 505.1a, 603.2: "at the beginning of your precombat main phase".
        triggers.step_begins(game, TriggerStep.PRECOMBAT_MAIN)
    elif step is _END and active_in_game:
        triggers.step_begins(game, TriggerStep.END)  # rule 513.1a
    elif step is _DRAW and active_in_game:
        watchers.new_draw_step(game)  # rule 504.1
        # (Rule 103.8a: a two-player game's first draw step is skipped, in _end_step;
        # rule 103.8c: in other multiplayer games nobody skips it.)
        draw(game, game.active, events)  # rule 504.1
        # Rule 504.2: then "at the beginning of [each player's] draw step" abilities trigger.
        triggers.step_begins(game, TriggerStep.DRAW)
    elif step is _CLEANUP:
        game.cleanup_done = False


def _end_step(game: Game) -> None:
    """Rule 500.5: as a step ends, unspent mana empties; then the next step (or turn) begins."""
    empty_pools(game)
    step = game.step
    if step is _END_OF_COMBAT:
        game.combat = Combat()  # rule 511.3: everything is removed from combat
    if step is _CLEANUP:
        if game.cleanup_priority:
            game.step = _CLEANUP  # rule 514.3a: another cleanup step follows
        else:
            _next_turn(game)
    elif step is _DECLARE_ATTACKERS and not game.combat.any_attacker_declared:
        game.step = _END_OF_COMBAT  # rule 508.8: skip blockers and combat damage
    elif step is _COMBAT_DAMAGE and game.combat.first_strike_step:
        game.step = _COMBAT_DAMAGE  # rule 510.4: a second combat damage step
    elif step is _UPKEEP and game.turn == 1 and len(game.players) == 2:
        # Rule 103.8a: in a two-player game the starting player skips the draw step of
        # their first turn -- the whole step: no draw, no triggers, no priority (500.11).
        game.step = _PRECOMBAT_MAIN
    else:
        game.step = _NEXT_STEP[step]
    game.cleanup_priority = False
    game.step_begun = False
    game.priority = None
    game.passes = 0


#: Each step but the last and the one after it (rule 500.1), found without calling the enum.
_NEXT_STEP: dict[Step, Step] = {step: Step(step + 1) for step in Step if step is not Step.CLEANUP}


def _next_turn(game: Game) -> None:
    """Rules 500.1, 101.4, 800.4k: the next player in turn order still in the game takes a
    turn."""
    extra = [s for s in game.extra_turns if not game.players[s].has_lost]
    if extra:  # rule 500.7: the most recently created extra turn is taken first
        game.active = extra[-1]
        game.extra_turns[:] = extra[:-1]
    else:
        game.extra_turns.clear()
        before, game.active = game.active, game.next_seat(game.active)
        # Rule 800.4m: the turn of a player who left would have begun between these two;
        # what lasts "until the end of [their] next turn" lasts until then (phasing).
        n = len(game.players)
        seat = (before + 1) % n
        while seat != game.active:
            game.last_turn_of[seat] = game.turn
            seat = (seat + 1) % n
    game.turn += 1
    game.last_turn_of[game.active] = game.turn
    variants.turn_began(game)  # e.g. the new planar controller (901.6)
    game.step = _UNTAP
    watchers.new_turn(game)  # rule 500.1: the turn facts start afresh
    replacements.new_turn(game)
    permissions.new_turn(game)
    game.last_known_permanents.clear()  # its dies triggers were put on the stack by now
    game.last_known_spells.clear()
    game.delayed = [d for d in game.delayed if not d.this_turn]  # "this turn" is over
    for player in game.players:
        player.lands_played = 0
        player.take_backs = 0


# --- the main loop ---------------------------------------------------------------------------


#: Steps whose beginning in this engine (:func:`_begin_step`) changes nothing but, perhaps,
#: the triggered abilities waiting (rule 603.3). Their other turn-based actions come later
#: (declaring attackers and blockers, 703.4i-j, are choices: :func:`_step_choice`) or not
#: at all here (703.4e-h: schemes, Saga lore counters, Attractions, choosing defending
#: players); :func:`_advance` still takes the shortcut only if the beginning added no event
#: or choice and no variant is played.
_QUIET_BEGINNINGS = frozenset({
    Step.UPKEEP, Step.PRECOMBAT_MAIN, Step.BEGINNING_OF_COMBAT, Step.DECLARE_ATTACKERS,
    Step.DECLARE_BLOCKERS, Step.END_OF_COMBAT, Step.POSTCOMBAT_MAIN, Step.END})


def _advance(game: Game, events: list[Event]) -> None:
    """Run the game until a player must decide something (or it ends)."""
    game.pending = None
    seen = 0
    while game.result is None:
        layers.refresh(game)
        if exile_unclaimed(game, events):  # rule 800.4c
            layers.refresh(game)
        zone_rules.refresh_revealed_tops(game, events)  # rules 401.5, 401.6
        seen = triggers.collect_triggers(game, events, seen)
        if game.casting is not None:
            kind, options = casting.casting_choice(game)
            _decide(game, modes.decider(game.casting), kind, options)
            return
        if game.choices:
            choice = game.choices[0]
            _decide(game, choice.seat, choice.kind, _choice_options(game, choice))
            return
        if game.resolving is not None:
            effects.continue_resolution(game, events)
            continue
        if game.phase is not _PLAYING:
            raise AssertionError("the start of the game always has a pending choice")
        if not game.step_begun:
            variants.step_beginning(game)  # e.g. the starting plane (103.7, 901.5)
            before = len(events)
            _begin_step(game, events)
            if not (game.step in _QUIET_BEGINNINGS and len(events) == before
                    and not game.choices and not game.variants):
                continue
            # The step began with nothing but "at the beginning of" abilities triggering
            # (603.2: they wait to be put on the stack, 603.3): the checks above would find
            # what they found before it began -- on to the step's own actions.
        if _step_choice(game, events):
            return
        if game.choices or len(events) > seen:
            continue  # rule 603.2: what the step's actions did triggers (e.g. lifelink, 119.9)
        if game.step is _UNTAP:
            _end_step(game)  # rule 502.4: no player receives priority during the untap step
            continue
        # Rule 704.3: state-based actions before any player would receive priority, then
        # triggered abilities go on the stack (603.3), repeating until neither happens.
        if check_state_based_actions(game, events):
            if game.step is _CLEANUP:
                game.cleanup_priority = True  # rule 514.3a
            continue
        if game.pending_triggers:
            triggers.put_triggers(game, events)
            if game.step is _CLEANUP:
                game.cleanup_priority = True  # rule 514.3a
            continue
        if game.step is _CLEANUP and not game.cleanup_priority:
            _end_step(game)  # rule 514.3: normally no priority in the cleanup step
            continue
        if game.priority is None or game.players[game.priority].has_lost:
            # Rules 117.3a, 800.4j: the first player in APNAP order (the active player,
            # unless they have left the game).
            first = game.active
            game.priority = first if not game.players[first].has_lost else game.apnap()[0]
            game.passes = 0
        _decide(game, game.priority, _PRIORITY, _priority_options(game, game.priority))
        return
    variants.game_over(game)  # e.g. the winner owns the ante (407.2)
