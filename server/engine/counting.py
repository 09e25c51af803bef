"""Game-state quantities cards refer to: devotion (700.5), party (700.8), modified (700.9),
"activated this turn" (700.10), descended (700.11), crimes (700.13) and expend (700.14)."""

from __future__ import annotations

from itertools import permutations
from typing import assert_never

from server.cards.mana import MANA_TYPES
from server.cards.model import Condition, Count, CountCondition, Effect, ObjectFilter
from server.engine.actions import Action, ChooseCard, Decline
from server.engine.events import Event
from server.engine.filters import LastKnown, matches, matches_last_known
from server.engine.state import Choice, DecisionKind, Game, GameObject, Zone
from server.engine.zones import sacrifice

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


def is_modified(game: Game, obj: GameObject) -> bool:
    """Rule 700.9: it has a counter, is equipped, or is enchanted by an Aura its controller
    controls."""
    if any(n > 0 for n in obj.counters.values()):
        return True
    for oid in game.battlefield:
        other = game.objects[oid]
        if other.attached_to == obj.id and (
                other.card.is_equipment
                or (other.card.is_aura and other.controller == obj.controller)):
            return True
    return False


def activated_this_turn(game: Game, obj: GameObject) -> bool:
    """Rule 700.10: it was the source of an ability activated this turn."""
    return obj.activated_turn == game.turn


def descended(game: Game, seat: int) -> bool:
    """Rule 700.11: a permanent card was put into ``seat``'s graveyard this turn."""
    return game.watchers.descended.of(seat) > 0


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


def count(game: Game, you: int, source_id: str, kind: Count, *,
          spec: ObjectFilter | None = None,
          colors: tuple[str, ...] = (), counter: str = "") -> int:
    """A game-state count from ``you``'s point of view (rules 700.5, 700.8, 608.2h): an
    effect's amount or a count condition's left-hand side."""
    if kind is Count.DEVOTION:
        return devotion(game, you, colors)
    if kind is Count.PARTY:
        return party_count(game, you)
    if kind is Count.LIFE_LOST:
        return game.resolving.life_lost if game.resolving is not None else 0
    if kind in (Count.CREATURE_CARDS_IN_YOUR_GRAVEYARD, Count.CREATURE_CARDS_IN_THEIR_GRAVEYARD):
        return sum(1 for i in game.player(you).graveyard if game.objects[i].card.creature)
    if kind is Count.NONCOMBAT_DAMAGE_TO_OPPONENTS_THIS_TURN:
        return game.watchers.noncombat_damage.to_opponents_of(game, you)
    if kind is Count.YOUR_CREATURES_DIED_THIS_TURN:
        return game.watchers.creatures_died.of(you)
    if kind is Count.CARDS_DRAWN_THIS_TURN:
        return game.watchers.cards_drawn.of(you)  # rule 121.1
    if kind is Count.CARDS_IN_AN_OPPONENTS_GRAVEYARD:
        return max((len(game.player(s).graveyard) for s in game.opponents(you)), default=0)
    if kind is Count.PERMANENTS:
        assert spec is not None  # the loader requires it
        return sum(1 for i in game.battlefield
                   if matches(game, game.objects[i], spec, you, source_id))
    if kind is Count.OPPONENT_HAS_MORE:
        assert spec is not None  # the loader requires it

        def controls(seat: int) -> int:
            return sum(1 for i in game.battlefield
                       if matches(game, game.objects[i], spec, seat, source_id))
        return max((controls(s) for s in game.opponents(you)), default=0) - controls(you)
    if kind is Count.COLORS_AMONG_PERMANENTS:
        assert spec is not None  # the loader requires it
        return len({c for i in game.battlefield
                    if matches(game, game.objects[i], spec, you, source_id)
                    for c in game.objects[i].card.colors})
    if kind is Count.TOTAL_POWER:
        assert spec is not None  # the loader requires it
        return sum(game.objects[i].power for i in game.battlefield
                   if matches(game, game.objects[i], spec, you, source_id))
    if kind is Count.PERMANENTS_TO_YOUR_HAND_THIS_TURN:
        return game.watchers.permanents_to_hand.of(you)  # rules 400.3, 400.7
    if kind is Count.GREATEST_POWER_IN_YOUR_GRAVEYARD:
        cards = [game.objects[i] for i in game.player(you).graveyard]
        return max((card_power(game, o) for o in cards if o.card.creature), default=0)
    if kind is Count.COUNTERS_ON_SOURCE:
        source = game.objects.get(source_id)
        return source.counters.get(counter, 0) if source is not None else 0
    if kind is Count.CREATURES_DIED_THIS_TURN:
        return game.watchers.creatures_died.total  # rule 700.4
    if kind is Count.NONTOKEN_CREATURES_DIED_THIS_TURN:
        return game.watchers.creatures_died.nontoken
    if kind is Count.LIFE_ABOVE_STARTING:
        player = game.player(you)
        return player.life - player.starting_life  # rule 103.4
    if kind is Count.CARDS_IN_LIBRARY:
        return len(game.player(you).library)  # rule 401.1
    if kind is Count.LIFE:
        return game.player(you).life  # rule 119.1
    if kind is Count.PERMANENTS_SHARING_A_NAME:
        assert spec is not None  # the loader requires it
        names: dict[str, int] = {}
        for i in game.battlefield:
            obj = game.objects[i]
            if not obj.face_down and matches(game, obj, spec, you, source_id):
                names[obj.card.name] = names.get(obj.card.name, 0) + 1  # rule 201.2
        return max(names.values(), default=0)
    if kind is Count.TARGET_MANA_VALUE:
        # Rule 608.2h: the target's card as resolution began (202.3e: X is 0 off the stack).
        known = game.resolving.cards if game.resolving is not None else {}
        return next((c.mana_cost.mana_value for c in known.values()), 0)
    if kind is Count.CARDS_IN_YOUR_GRAVEYARD:
        assert spec is not None  # the loader requires it
        return sum(1 for i in game.player(you).graveyard if matches_last_known(
            game, LastKnown(game.objects[i].card, you, i), spec, you, source_id))
    if kind is Count.CHOSEN_THIS_WAY:
        return len(game.resolving.chosen) if game.resolving is not None else 0
    if kind is Count.FOUND_FROM_HAND:
        return game.resolving.found_from_hand if game.resolving is not None else 0
    if kind is Count.CREATURES_ATTACKING_YOU:
        # Rule 506.3: attacking you or a planeswalker you control (its defending player); an
        # attacker that has left the battlefield as it last existed (608.2h).
        attacked = [*game.combat.attackers.values(), *game.combat.left_attacking.values()]
        return sum(1 for seat in attacked if seat == you)
    if kind is Count.CARDS_IN_YOUR_HAND:
        return len(game.player(you).hand)  # rule 402.1
    if kind is Count.SPELLS_CAST_THIS_TURN:
        assert spec is not None  # the loader requires it
        return sum(1 for card in game.watchers.spells_cast.of(you)
                   if matches_last_known(game, LastKnown(card, you, ""), spec, you, source_id))
    assert_never(kind)


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
                  condition: Condition | CountCondition | None) -> bool:
    """Evaluate an "if" clause (rules 603.4, 602.5b) or an "as long as" (611.3b) for
    ``controller``."""
    if condition is None:
        return True
    if isinstance(condition, CountCondition):
        # "if you control a Basri planeswalker": a count compared with its bounds.
        n = count(game, controller, source_id or "", condition.count,
                  spec=condition.filter, counter=condition.counter)
        return (condition.at_least is None or n >= condition.at_least) and \
            (condition.at_most is None or n <= condition.at_most)
    if condition is Condition.CREATURE_DIED_THIS_TURN:
        return game.watchers.creatures_died.total > 0
    if condition is Condition.NO_CREATURE_DIED_THIS_TURN:
        return game.watchers.creatures_died.total == 0
    if condition is Condition.GAINED_3_LIFE_THIS_TURN:
        return game.watchers.life_gained.of(controller) >= 3
    if condition is Condition.NO_CARDS_IN_HAND:
        return not game.player(controller).hand
    if condition is Condition.DESCENDED_THIS_TURN:
        return descended(game, controller)  # rule 700.11
    if condition is Condition.FULL_PARTY:
        return party_count(game, controller) == len(PARTY_TYPES)
    if condition is Condition.CONTROL_MODIFIED_CREATURE:
        return any(is_modified(game, c) for c in creatures_of(game, controller))
    if condition is Condition.NOT_CAST_FROM_HAND:
        # Rule 601.2a: the spell was cast from another zone (a copy wasn't cast, 707.10).
        spell = game.objects.get(source_id or "")
        return spell is not None and spell.cast_from not in (None, Zone.HAND)
    if condition is Condition.YOUR_TURN:
        return game.active == controller  # rule 102.1: the active player's turn
    if condition is Condition.CAME_FROM_GRAVEYARD:
        source = game.objects.get(source_id or "")
        return source is not None and source.zone is Zone.BATTLEFIELD and source.from_graveyard
    if condition is Condition.SOURCE_UNTAPPED:
        source = game.objects.get(source_id or "")
        return source is not None and source.zone is Zone.BATTLEFIELD and not source.tapped
    res = game.resolving
    if condition is Condition.WON_CLASH:
        return res is not None and res.won_clash  # rule 701.30d
    if condition is Condition.WON_FLIP:
        return res is not None and res.won_flip  # rule 705.2
    if condition is Condition.TARGET_WAS_CREATURE_CARD:
        # "If it was a creature card": the target's card as resolution began (608.2h).
        return res is not None and any(c.creature for c in res.cards.values())
    if condition is Condition.YOU_DID:
        return res is not None and res.did  # "If you do" (608.2d)
    if condition is Condition.REVEALED_CREATURE_OR_LAND:
        shown = [game.objects[i].card for i in (res.revealed if res else []) if i in game.objects]
        return any(c.creature or c.is_land for c in shown)
    mine = [game.objects[i] for i in game.battlefield
            if game.objects[i].controller == controller and game.objects[i].is_creature]
    if condition is Condition.CONTROL_FLYING_CREATURE:
        return any(o.has("Flying") for o in mine)
    if condition is Condition.CONTROL_POWER_4:
        return any(o.power >= 4 for o in mine)  # "a creature": it may be the source itself
    if condition is Condition.CONTROL_ANOTHER_POWER_4:
        return any(o.power >= 4 and o.id != source_id for o in mine)
    assert_never(condition)
