"""Game-state quantities cards refer to: devotion (700.5), party (700.8), modified (700.9),
"activated this turn" (700.10), descended (700.11), crimes (700.13) and expend (700.14)."""

from __future__ import annotations

from itertools import permutations
from typing import assert_never

from server.cards import CardDef
from server.cards.amounts import (
    Amount,
    AnyCondition,
    Attackers,
    Cards,
    CardZone,
    Compare,
    Devotion,
    Difference,
    EventAmount,
    Fixed,
    Life,
    Measure,
    ObjectValue,
    Of,
    PartySize,
    Permanents,
    ResolutionFact,
    Scaled,
    ThisWay,
    Trait,
    TurnFact,
    TurnFactKind,
    Whose,
    X,
)
from server.cards.mana import MANA_TYPES
from server.cards.model import Condition, ObjectFilter, Rounding
from server.cards.verbs import Effect
from server.engine.actions import Action, ChooseCard, Decline
from server.engine.events import Event
from server.engine.filters import LastKnown, matches, matches_last_known
from server.engine.state import Choice, DecisionKind, Game, GameObject, Zone
from server.engine.zones import attacked_seat, sacrifice

#: The decision kinds this module poses and answers.
KINDS = (DecisionKind.CHOOSE_PARTY,)

#: The creature types of a party (rule 700.8), in the order the rule lists them.
PARTY_TYPES = ("Cleric", "Rogue", "Warrior", "Wizard")


def devotion(game: Game, seat: int, colors: tuple[str, ...]) -> int:
    """Rules 700.5, 700.5a: the mana symbols of those colours among the mana costs of
    permanents ``seat`` controls (after control effects; a hybrid symbol of two of them
    counts once)."""
    total = 0
    for oid in game.battlefield:
        obj = game.objects[oid]
        if obj.controller != seat or obj.face_down:
            continue
        cost = obj.card.mana_cost
        total += sum(cost.symbols[MANA_TYPES.index(c)] for c in colors)
        total += sum(1 for pair in cost.hybrid if set(pair) & set(colors))
    return total


def _party_types(obj: GameObject) -> set[str]:
    return set(obj.subtypes) & set(PARTY_TYPES)


def party_size(creatures: list[GameObject]) -> int:
    """Rules 700.8a-b: the largest party these creatures can form -- each creature fills at
    most one of the four roles, counted the way that gives the highest number."""
    candidates = [c for c in creatures if _party_types(c)]
    best = 0
    for roles in permutations(PARTY_TYPES):
        used: set[str] = set()
        size = 0
        for role in roles:
            for c in candidates:
                if c.id not in used and role in _party_types(c):
                    used.add(c.id)
                    size += 1
                    break
        best = max(best, size)
    return best


def creatures_of(game: Game, seat: int) -> list[GameObject]:
    """The creatures ``seat`` controls."""
    return [game.objects[i] for i in game.battlefield
            if game.objects[i].controller == seat and game.objects[i].is_creature]


def party_count(game: Game, seat: int) -> int:
    """Rule 700.8a: the number of creatures in ``seat``'s party (0 to 4)."""
    return party_size(creatures_of(game, seat))


def can_join_party(party: list[GameObject], candidate: GameObject) -> bool:
    """Rule 700.8d: whether ``candidate`` can be added to a chosen party (each member still
    fills its own role)."""
    return party_size([*party, candidate]) == len(party) + 1


def activated_this_turn(game: Game, obj: GameObject) -> bool:
    """Rule 700.10: it was the source of an ability activated this turn."""
    return obj.activated_turn == game.turn


def is_crime(game: Game, seat: int, obj: GameObject) -> bool:
    """Rule 700.13: a spell or ability ``seat`` controls targets an opponent, a permanent,
    spell or ability an opponent controls, or a card in an opponent's graveyard."""
    opponents = set(game.opponents(seat))
    for kind, ref in obj.targets:
        if kind == "player":
            if int(ref) in opponents:
                return True
            continue
        target = game.objects.get(str(ref))
        if target is None:
            continue
        if target.zone is Zone.GRAVEYARD and target.owner in opponents:
            return True
        if target.zone in (Zone.BATTLEFIELD, Zone.STACK) and target.controller in opponents:
            return True
    return False


def expended(before: int, after: int) -> list[int]:
    """Rule 700.14: the amounts N a player expends as their mana spent on spells this turn
    goes from ``before`` to ``after`` (less than N before, at least N after)."""
    return list(range(before + 1, after + 1))


def start_choosing_parties(game: Game, obj: GameObject, effect: Effect, players: list[int],
                           events: list[Event]) -> None:
    """Stick Together (rule 700.8d): each player, in APNAP order, chooses a party from among
    the creatures they control -- up to one each of Cleric, Rogue, Warrior and Wizard --
    then everyone sacrifices the rest at the same time."""
    group: list[str] = []
    seats = [s for s in game.apnap() if s in players]
    for seat in seats:
        game.choices.append(Choice(DecisionKind.CHOOSE_PARTY, seat, owner=seat, group=group))
    if not seats:
        return
    group.extend(f"seat:{s}" for s in seats)


def options(game: Game, choice: Choice) -> tuple[Action, ...]:
    """The creatures that can still join the party being chosen, and stopping."""
    party = [game.objects[i] for i in choice.picked if i in game.objects]
    joinable = [c for c in creatures_of(game, choice.seat)
                if c.id not in choice.picked and can_join_party(party, c)]
    return (*(ChooseCard(c.id) for c in joinable), Decline())


def answer(game: Game, choice: Choice, action: Action, events: list[Event]) -> None:
    """Add a creature to the party, or finish; the last player to finish triggers the
    sacrifice of every creature outside the chosen parties (701.21a)."""
    if isinstance(action, ChooseCard):
        choice.picked.append(action.object_id)
        party = [game.objects[i] for i in choice.picked]
        if len(party) < len(PARTY_TYPES) and any(
                can_join_party(party, c) for c in creatures_of(game, choice.seat)
                if c.id not in choice.picked):
            return
    game.choices.remove(choice)
    choice.group.extend(choice.picked)
    finish_parties_if_done(game, choice.group, events)


def finish_parties_if_done(game: Game, group: list[str], events: list[Event]) -> None:
    """Once every player has chosen a party (or left the game, 800.4a), every creature
    outside the chosen parties is sacrificed at the same time (700.8d, 701.21a)."""
    if any(c.group is group for c in game.choices):
        return
    seats = [int(g.split(":", 1)[1]) for g in group if g.startswith("seat:")]
    kept = set(group)
    doomed = [c.id for s in seats for c in creatures_of(game, s) if c.id not in kept]
    sacrifice(game, doomed, events)


def evaluate(game: Game, amount: Amount, you: int, source_id: str, *,
             affected: int | None = None, spell: GameObject | None = None) -> int:
    """The value of an amount (rule 107.1) from ``you``'s point of view, ``source_id`` being
    "this object" and ``affected`` "their" (the player an effect affects; ``you`` if none). X,
    the event's amount, the target and "this way" are those of the resolving spell or ability
    (608.2c, 608.2h; 0 when nothing resolves) -- or of ``spell``, the spell or ability
    performing the effect, when given."""
    match amount:
        case Fixed(n=n):
            return n
        case X():
            performing = _performing(game, spell)
            return (performing.x_value or 0) if performing is not None else 0  # rule 107.3b
        case Permanents(filter=spec, measure=measure, whose=whose):
            # A face-down permanent has no name and no color (rule 708.2).
            named = measure in (Measure.COLORS, Measure.MOST_SHARING_A_NAME)
            return _most_or_total(whose, [
                _measure(game, [(o.card, o.power) for o in _permanents(game, spec, seat,
                                                                        source_id)
                                if not (named and o.face_down)], measure)
                for seat in _players(game, whose, you, affected)])
        case Cards(zone=zone, whose=whose, filter=spec, measure=measure):
            return _most_or_total(whose, [
                _measure(game, [(o.card, card_power(game, o))
                                for o in _cards(game, zone, seat, spec, source_id)], measure)
                for seat in _players(game, whose, you, affected)])
        case ObjectValue(of=of, trait=trait, counter=counter):
            return _object_value(game, of, trait, counter, source_id, spell=spell)
        case EventAmount():
            performing = _performing(game, spell)
            ability = performing.ability if performing is not None else None
            return ability.event_amount if ability is not None else 0
        case Devotion(colors=colors):
            return devotion(game, you, colors)
        case PartySize():
            return party_count(game, you)
        case Life(whose=whose, above_starting=above):
            return _most_or_total(whose, [
                game.player(s).life - (game.player(s).starting_life if above else 0)
                for s in _players(game, whose, you, affected)])  # rules 119.1, 103.4
        case TurnFact(fact=fact, whose=whose, filter=spec):
            if fact is TurnFactKind.CREATURES_DIED and whose is Whose.ALL_PLAYERS:
                # Rule 700.4: also the creatures of players who have since left the game.
                died = game.watchers.creatures_died
                return died.nontoken if spec is not None and spec.nontoken else died.total
            return _most_or_total(whose, [_turn_fact(game, fact, s, spec, source_id)
                                          for s in _players(game, whose, you, affected)])
        case ThisWay(fact=fact):
            return _this_way(game, fact)
        case Attackers(whose=whose):
            # Rule 506.3: attacking the player or a planeswalker they control (its defending
            # player) -- not one whose planeswalker has left (506.4c: it attacks nothing);
            # an attacker that has left the battlefield as it last existed (608.2h).
            attacked = [*(attacked_seat(game, a) for a in game.combat.attackers),
                        *game.combat.left_attacking.values()]
            seats = _players(game, whose, you, affected)
            return _most_or_total(whose, [sum(1 for d in attacked if d == s) for s in seats])
        case Scaled(amount=inner, factor=factor, half=half):
            n = factor * evaluate(game, inner, you, source_id, affected=affected, spell=spell)
            if half is None:
                return n
            # Rule 107.1a; a negative result is zero (107.1b: "half their life" of a negative
            # life total is none).
            if half is Rounding.UP:
                return max(0, -(-n // 2))
            if half is Rounding.DOWN:
                return max(0, n // 2)
            assert_never(half)
        case Difference(amount=left, minus=right):
            return evaluate(game, left, you, source_id, affected=affected, spell=spell) - \
                evaluate(game, right, you, source_id, affected=affected, spell=spell)
        case _:
            assert_never(amount)


def _performing(game: Game, spell: GameObject | None) -> GameObject | None:
    """The spell or ability an amount's X and event are of: ``spell`` if given, else the one
    resolving (608.2), if any."""
    if spell is not None:
        return spell
    res = game.resolving
    return game.objects.get(res.object_id) if res is not None else None


def _players(game: Game, whose: Whose, you: int, affected: int | None) -> list[int]:
    """The seats ``whose`` names from ``you``'s point of view (rule 102.2)."""
    if whose is Whose.YOU:
        return [you]
    if whose is Whose.THEIR:
        return [you if affected is None else affected]
    if whose in (Whose.AN_OPPONENT, Whose.OPPONENTS):
        return [p.seat for p in game.players if p.seat != you] if whose is Whose.OPPONENTS \
            else game.opponents(you)
    if whose is Whose.ALL_PLAYERS:
        return [p.seat for p in game.players]
    assert_never(whose)


def _most_or_total(whose: Whose, values: list[int]) -> int:
    """Each player's value combined: the most of any one opponent, else their sum."""
    if whose is Whose.AN_OPPONENT:
        return max(values, default=0)
    return sum(values)


def _permanents(game: Game, spec: ObjectFilter, seat: int, source_id: str) -> list[GameObject]:
    """The permanents ``spec`` describes from ``seat``'s point of view."""
    return [game.objects[i] for i in game.battlefield
            if matches(game, game.objects[i], spec, seat, source_id)]


def _cards(game: Game, zone: CardZone, seat: int, spec: ObjectFilter | None,
           source_id: str) -> list[GameObject]:
    """The cards in ``seat``'s ``zone`` that ``spec`` describes (their characteristics there,
    109.3); the filter's "you" is that player."""
    player = game.player(seat)
    if zone is CardZone.LIBRARY:
        ids = player.library
    elif zone is CardZone.HAND:
        ids = player.hand
    elif zone is CardZone.GRAVEYARD:
        ids = player.graveyard
    else:
        assert_never(zone)
    return [game.objects[i] for i in ids if spec is None or matches_last_known(
        game, LastKnown(game.objects[i].card, seat, i), spec, seat, source_id)]


def _measure(game: Game, things: list[tuple[CardDef, int]], measure: Measure) -> int:
    """``measure`` of objects given as (card, power) pairs."""
    if measure is Measure.NUMBER:
        return len(things)
    if measure is Measure.TOTAL_POWER:
        return sum(power for _, power in things)
    if measure is Measure.GREATEST_POWER:
        return max((power for card, power in things if card.creature), default=0)
    if measure is Measure.COLORS:
        return len({c for card, _ in things for c in card.colors})  # rule 105.1
    if measure is Measure.MOST_SHARING_A_NAME:
        names: dict[str, int] = {}
        for card, _ in things:
            names[card.name] = names.get(card.name, 0) + 1  # rule 201.2
        return max(names.values(), default=0)
    assert_never(measure)


def _object_value(game: Game, of: Of, trait: Trait, counter: str, source_id: str, *,
                  spell: GameObject | None) -> int:
    """A characteristic of the source, the event's object or the resolution's target, as it
    is or as it last existed (rules 608.2h, 603.10a)."""
    res = game.resolving
    if of is Of.TARGET:
        # Rule 608.2h: the target's card as resolution began (202.3e: X is 0 off the stack).
        card = next(iter(res.cards.values()), None) if res is not None else None
        if card is None:
            return 0
        return _card_trait(card, trait, counter)
    if of is Of.SOURCE:
        ref = source_id
    elif of is Of.EVENT_OBJECT:
        performing = _performing(game, spell)
        ref = (performing.ability.event_object or "") \
            if performing is not None and performing.ability is not None else ""
    else:
        assert_never(of)
    obj = game.objects.get(ref)
    if obj is not None and obj.zone is Zone.BATTLEFIELD:
        if trait is Trait.POWER:
            return obj.power
        if trait is Trait.TOUGHNESS:
            return obj.toughness
        if trait is Trait.MANA_VALUE:
            return obj.mana_value
        if trait is Trait.COUNTERS:
            return obj.counters.get(counter, 0)
        assert_never(trait)
    if trait is Trait.POWER:
        # As it last existed (608.2h): the source's power as resolution began.
        if of is Of.SOURCE and res is not None:
            return res.source_power
        return game.power_as_it_left(ref)
    if obj is None:
        return 0
    if trait is Trait.COUNTERS:
        return obj.counters.get(counter, 0)
    return _card_trait(obj.card, trait, counter)


def _card_trait(card: CardDef, trait: Trait, counter: str) -> int:
    """A characteristic of a card off the battlefield (its printed values, 109.3)."""
    if trait is Trait.POWER:
        return card.power or 0
    if trait is Trait.TOUGHNESS:
        return card.toughness or 0
    if trait is Trait.MANA_VALUE:
        return card.mana_cost.mana_value
    if trait is Trait.COUNTERS:
        return 0  # a card has no counters once it has left the battlefield (122.2)
    assert_never(trait)


def _turn_fact(game: Game, fact: TurnFactKind, seat: int, spec: ObjectFilter | None,
               source_id: str) -> int:
    """One player's fact of this turn, as the watchers have kept it from the events
    (:mod:`server.engine.watchers`)."""
    watchers = game.watchers
    if fact is TurnFactKind.CREATURES_DIED:
        return watchers.creatures_died.of(seat)  # rule 700.4: creatures they controlled
    if fact is TurnFactKind.CARDS_DRAWN:
        return watchers.cards_drawn.of(seat)  # rule 121.1
    if fact is TurnFactKind.SPELLS_CAST:
        return sum(1 for card in watchers.spells_cast.of(seat) if spec is None or
                   matches_last_known(game, LastKnown(card, seat, ""), spec, seat, source_id))
    if fact is TurnFactKind.PERMANENTS_TO_HAND:
        return watchers.permanents_to_hand.of(seat)  # rules 400.3, 400.7
    if fact is TurnFactKind.LIFE_GAINED:
        return watchers.life_gained.of(seat)  # rule 119.3
    if fact is TurnFactKind.NONCOMBAT_DAMAGE_TAKEN:
        return watchers.noncombat_damage.by_seat.get(seat, 0)  # rules 120.3a, 510.2
    if fact is TurnFactKind.PERMANENT_CARDS_TO_GRAVEYARD:
        return watchers.descended.of(seat)  # rule 700.11
    assert_never(fact)


def _this_way(game: Game, fact: ResolutionFact) -> int:
    """What the previous effects of the resolving spell or ability did (608.2c)."""
    res = game.resolving
    if res is None:
        return 0
    if fact is ResolutionFact.LIFE_LOST:
        return res.life_lost
    if fact is ResolutionFact.CHOSEN:
        return len(res.chosen)
    if fact is ResolutionFact.FOUND_FROM_HAND:
        return res.found_from_hand
    assert_never(fact)


def card_power(game: Game, obj: GameObject) -> int:
    """A card's power outside the battlefield: printed, or what its characteristic-defining
    ability says, which works in every zone (rule 604.3)."""
    if obj.card.power_cda:
        return cda_power(game, obj)
    return obj.card.power or 0


def cda_power(game: Game, obj: GameObject) -> int:
    """Rule 604.3: "[This]'s power is equal to the number of instant and sorcery cards in
    your graveyard" -- it works in every zone (its owner's graveyard outside the
    battlefield); on the battlefield through layer 7a."""
    seat = obj.controller if obj.zone is Zone.BATTLEFIELD else obj.owner
    return sum(1 for oid in game.player(seat).graveyard
               if not game.objects[oid].card.is_permanent_card)


def condition_met(game: Game, controller: int, source_id: str | None,
                  condition: AnyCondition | None) -> bool:
    """Evaluate an "if" clause (rules 603.4, 602.5b) or an "as long as" (611.3b) for
    ``controller``: a comparison of an amount, or a named condition."""
    if condition is None:
        return True
    if isinstance(condition, Compare):
        return condition.holds(evaluate(game, condition.amount, controller, source_id or ""))
    res = game.resolving
    source = game.objects.get(source_id or "")
    match condition:
        case Condition.NOT_CAST_FROM_HAND:
            # Rule 601.2a: the spell was cast from another zone (a copy wasn't cast, 707.10).
            return source is not None and source.cast_from not in (None, Zone.HAND)
        case Condition.YOUR_TURN:
            return game.active == controller  # rule 102.1: the active player's turn
        case Condition.CAME_FROM_GRAVEYARD:
            # "If it entered from your graveyard or you cast it from your graveyard": a card
            # is only ever in its owner's graveyard (404.2), so it is "your" graveyard only if
            # you own it -- not one put onto the battlefield under your control from an
            # opponent's graveyard (Liliana, Waker of the Dead's emblem).
            return source is not None and source.zone is Zone.BATTLEFIELD and \
                source.from_graveyard and source.owner == controller
        case Condition.SOURCE_UNTAPPED:
            return source is not None and source.zone is Zone.BATTLEFIELD and \
                not source.tapped
        case Condition.WON_CLASH:
            return res is not None and res.won_clash  # rule 701.30d
        case Condition.WON_FLIP:
            return res is not None and res.won_flip  # rule 705.2
        case Condition.TARGET_WAS_CREATURE_CARD:
            # "If it was a creature card": the target's card as resolution began (608.2h).
            return res is not None and any(c.creature for c in res.cards.values())
        case Condition.YOU_DID:
            return res is not None and res.did  # "If you do" (608.2d)
        case Condition.REVEALED_CREATURE_OR_LAND:
            shown = [game.objects[i].card for i in (res.revealed if res else [])
                     if i in game.objects]
            return any(c.creature or c.is_land for c in shown)
        case _:
            assert_never(condition)
