"""Moving objects between zones (rules 400-408).

Every zone change makes a new object with a new random id (rule 400.7) so ids never let a
viewer follow a card through a hidden zone or a shuffle.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from server.cards import CardDef, card_pool
from server.engine import replacements
from server.engine.actions import Action, ChooseCard, ChooseReplacement, Decline
from server.engine.events import (
    CardDrawn,
    CountersPut,
    Event,
    LifeLost,
    Sacrificed,
    ZoneChanged,
)
from server.engine.filters import matches
from server.engine.replacements import Modified
from server.engine.state import Choice, DecisionKind, Game, GameObject, Step, Zone
from server.engine.targeting import player_protection_sources, quality_of
from server.engine.watchers import emit

# Enum members read in this module's functions, bound to module names once: in Python
# 3.11 reading a member as a class attribute (``Zone.BATTLEFIELD``) goes through the slow
# attribute hook of ``EnumType.__getattr__``, several times the cost of reading a global.
# They are the same objects (``is`` holds).
_DECISION_KIND_CHOOSE_CARD: Final = DecisionKind.CHOOSE_CARD
_DECISION_KIND_CHOOSE_NAME: Final = DecisionKind.CHOOSE_NAME
_DECISION_KIND_CHOOSE_REPLACEMENT: Final = DecisionKind.CHOOSE_REPLACEMENT
_DECISION_KIND_ORDER_GRAVEYARD: Final = DecisionKind.ORDER_GRAVEYARD
_STEP_DRAW: Final = Step.DRAW
_ZONE_BATTLEFIELD: Final = Zone.BATTLEFIELD
_ZONE_COMMAND: Final = Zone.COMMAND
_ZONE_EXILE: Final = Zone.EXILE
_ZONE_GRAVEYARD: Final = Zone.GRAVEYARD
_ZONE_HAND: Final = Zone.HAND
_ZONE_STACK: Final = Zone.STACK


def fresh_id(game: Game) -> str:
    """A new random object id, unique in this game (rule 400.7; never derived from order)."""
    while True:
        candidate = game.rng.token()
        if candidate not in game.objects:
            return candidate


def next_timestamp(game: Game) -> int:
    """A new timestamp (rule 613.7)."""
    game.clock += 1
    return game.clock


#: Rule 400.4b: cards of these types that would leave the command zone remain there.
COMMAND_ZONE_TYPES = ("Conspiracy", "Phenomenon", "Plane", "Scheme", "Vanguard")

#: Rule 400.2: the hidden zones; every other zone is public.
HIDDEN_ZONES = (Zone.LIBRARY, Zone.HAND)


def put_counters(game: Game, obj: GameObject, kind: str, amount: int,
                 events: list[Event]) -> None:
    """Rule 122.1: put ``amount`` counters of ``kind`` on a permanent, as modified by the
    replacement effects of permanents on the battlefield (614.1a; "that many plus one",
    applied one after another, 616.1), then an event for "whenever counters are put"."""
    if amount <= 0:
        return
    for source, _, rep in replacements.statics(game, Modified.COUNTERS):
        if rep.counter == kind and matches(game, obj, rep.filter, source.controller, source.id):
            amount += rep.extra
    obj.counters[kind] = obj.counters.get(kind, 0) + amount
    events.append(CountersPut(obj.id, kind, amount))


def damage_after_replacements(game: Game, source: GameObject, amount: int) -> int:
    """Rule 614.1a: the damage a source would deal, as modified by the replacement effects of
    permanents on the battlefield ("it deals triple that damage instead"); each applies once
    (616.1; multiplications commute, so their order doesn't matter)."""
    for holder, _, rep in replacements.statics(game, Modified.DAMAGE):
        if matches(game, source, rep.filter, holder.controller, holder.id):
            amount *= rep.factor
    return amount


#: Marks the choice of the prevention effect that applies to damage a source would deal to
#: a player, when more than one would and which one matters (616.1e, 615.1).
DAMAGE_PREVENTION = "damage_prevention"
#: :class:`ChooseReplacement` keys of that choice: a prevention effect prevents the damage --
#: a resolved spell's or ability's (``object_id`` "") or a permanent's static ability
#: (``object_id`` that permanent: Nine Lives) -- or protection does (702.16e, ``object_id``
#: the permanent giving it: Runed Halo).
PREVENT, PROTECTION = "prevent", "protection"


def damage_to_player_preventions(game: Game, source: GameObject, seat: int, *,
                                 combat: bool) -> list[ChooseReplacement]:
    """Rules 615.1, 616.1: the prevention effects that would prevent all the damage
    ``source`` would deal to player ``seat`` now, as the options of the affected player's
    choice among them (616.1e; none of them is a self-replacement effect or one of those
    ranked first by 616.1b-d, which modify how an object enters):

    - ``("", "prevent")``: those of resolved spells and abilities ("prevent all combat
      damage that would be dealt this turn", :func:`server.engine.replacements.prevented`);
    - ``(permanent, "protection")``: protection from a quality of the source (702.16e);
    - ``(permanent, "prevent")``: the permanent's "If a source would deal damage to you,
      prevent that damage and put a [kind] counter on [this]" (Nine Lives), in timestamp
      order.

    Each prevents all the damage; only the last kind does something more (its counter), so
    the first two kinds are one option: the first of them that applies (a choice between
    effects that do the same thing would decide nothing)."""
    plain: list[ChooseReplacement] = []
    if replacements.prevented(game, source, None, combat=combat):
        plain.append(ChooseReplacement("", PREVENT))
    plain += [ChooseReplacement(oid, PROTECTION)
              for oid in player_protection_sources(game, seat, source.card)]
    shields: list[GameObject] = []
    for holder, _, _ in replacements.statics(game, Modified.DAMAGE_TO_YOU):
        if holder.controller == seat and not holder.face_down \
                and all(h.id != holder.id for h in shields):
            shields.append(holder)
    shields.sort(key=lambda h: h.timestamp)
    return plain[:1] + [ChooseReplacement(h.id, PREVENT) for h in shields]


def prevent_damage_to_player(game: Game, prevention: ChooseReplacement,
                             events: list[Event]) -> None:
    """Rules 615.1, 616.1: the chosen prevention effect prevents the damage; a permanent's
    "prevent that damage and put a [kind] counter on [this]" puts its counter (on it if it
    is still on the battlefield)."""
    holder = game.objects.get(prevention.object_id) if prevention.replacement == PREVENT \
        else None
    if holder is None or holder.zone is not _ZONE_BATTLEFIELD:
        return
    for rep in holder.card.replacements:
        if replacements.modifies(rep.kind) is Modified.DAMAGE_TO_YOU:
            put_counters(game, holder, rep.counter, 1, events)
            return


def ask_damage_prevention(game: Game, seat: int,
                          preventions: list[ChooseReplacement]) -> None:
    """Rule 616.1: player ``seat`` chooses which of the prevention effects prevents the
    damage (:func:`damage_to_player_preventions`, two or more). Each would prevent all of it,
    so the damage is prevented now, as it would be dealt, and the choice -- the pending
    decision before anything else happens -- decides which effect did it: which permanent
    gets its counter."""
    game.choices.append(Choice(
        _DECISION_KIND_CHOOSE_REPLACEMENT, seat,
        [f"{p.replacement}:{p.object_id}" for p in preventions], group=[DAMAGE_PREVENTION]))


def prevention_choice_options(choice: Choice) -> tuple[ChooseReplacement, ...]:
    """The options of a :data:`DAMAGE_PREVENTION` choice, in the order they were found."""
    return tuple(ChooseReplacement(oid, key)
                 for key, oid in (entry.split(":", 1) for entry in choice.pool))


def answer_damage_prevention(game: Game, choice: Choice, action: Action,
                             events: list[Event]) -> None:
    """Rule 616.1: the chosen prevention effect applies (the others no longer can: the
    damage is prevented, 616.1f)."""
    game.choices.remove(choice)
    if isinstance(action, ChooseReplacement):
        prevent_damage_to_player(game, action, events)


def restamp_stickers(game: Game, obj: GameObject) -> None:
    """Rule 613.7k: an object just got a new timestamp, so each sticker on it gets a new one
    immediately after, keeping their relative order."""
    obj.stickers = [replace(s, timestamp=next_timestamp(game)) for s in obj.stickers]


def create_object(game: Game, card: CardDef, owner: int, zone: Zone) -> GameObject:
    """Put a new object for ``card`` into ``zone`` (on top, for ordered zones)."""
    obj = GameObject(
        id=fresh_id(game), card=card, owner=owner, controller=owner, zone=zone,
        controlled_since=game.turn, timestamp=next_timestamp(game), base_controller=owner,
    )
    if zone is _ZONE_BATTLEFIELD and card.loyalty is not None:
        obj.counters["loyalty"] = card.loyalty  # rule 306.5b
    game.objects[obj.id] = obj
    game.zone_list(zone, owner).append(obj.id)
    return obj


def enters_as_printed(game: Game, new: GameObject, x_value: int | None,
                      events: list[Event]) -> None:
    """The replacement effects of a permanent's own text that modify how it enters (rule
    614.12): tapped (614.1d), with counters (614.1c; X as cast, 107.3m, else 0), a
    planeswalker with its loyalty (306.5b). For a card moving there and for a token created
    there, a copy too (707.2: it has the copied text)."""
    card = new.card
    new.tapped = card.enters_tapped
    if card.loyalty is not None:
        new.counters["loyalty"] = card.loyalty
    for kind, n in card.enters_with_counters:
        amount = (x_value or 0) if n is None else n
        # It isn't on the battlefield yet: its own replacement effects don't apply to it
        # (rule 614.12 looks only at those already there).
        put_counters(game, new, kind, amount, events)


def ask_as_it_enters(game: Game, new: GameObject) -> None:
    """Rule 614.12a: "As [this] enters, choose a card name" -- any card's name (201.2),
    chosen by its controller."""
    if new.card.enters_naming:
        game.choices.insert(0, Choice(_DECISION_KIND_CHOOSE_NAME, new.controller,
                                      sorted(card_pool()), group=[AS_ENTERS, new.id]))


#: Marks the name choice of a permanent entering with "choose a card name" (614.12a).
AS_ENTERS = "as_enters"
#: Marks the choice of what an Aura entering other than as a spell enchants (303.4f).
AURA_HOST = "aura_host"


def move(
    game: Game, object_id: str, to: Zone, events: list[Event], *, controller: int | None = None,
    bottom: bool = False, face_down: bool = False, attached_to: str | None = None,
) -> GameObject:
    """Move an object to ``to`` as a new object (rule 400.7).

    Cards go to their owner's library, hand or graveyard (rule 400.3). Instants and sorceries
    can't enter the battlefield (rule 400.4a): asked to, they stay where they are (and the
    unchanged object is returned); likewise a conspiracy, phenomenon, plane, scheme or
    vanguard card can't leave the command zone (rule 400.4b), nor a token that has left the
    battlefield its zone (rule 111.8). A permanent that leaves the battlefield is removed
    from combat (rule 506.4). ``bottom`` puts the card under the others of an ordered zone
    (rule 400.5); ``face_down`` exiles it face down (rule 406.3). Stickers go along to a
    public zone (rules 123.5, 400.7m).
    """
    old = game.objects[object_id]
    if to is _ZONE_BATTLEFIELD and not old.card.is_permanent_card:
        return old  # rule 400.4a
    if old.is_token and old.zone is not _ZONE_BATTLEFIELD and not old.spell_copy:
        # Rule 111.8: a token that has left the battlefield can't move to another zone or
        # come back onto the battlefield; it stays, and ceases to exist at the next SBA.
        return old
    if old.zone is _ZONE_BATTLEFIELD and object_id not in game.battlefield:
        return old  # rule 702.26b: phased out, it can't be affected
    if old.zone is _ZONE_COMMAND and to is not _ZONE_COMMAND \
            and any(t in COMMAND_ZONE_TYPES for t in old.card.card_types):
        return old  # rule 400.4b: it remains in the command zone, the same object
    replaced = replacements.zone_change(game, old, to)  # rules 614.1a, 616.1
    if replaced is not to:
        to, controller = replaced, None  # "exile it instead"
    hosts: list[str] = []
    if to is _ZONE_BATTLEFIELD and attached_to is None and old.zone is not _ZONE_STACK \
            and old.card.enchant is not None:
        # Rule 303.4f: an Aura put onto the battlefield other than by resolving as a spell
        # enchants what its controller chooses as it enters (not targeted: hexproof doesn't
        # matter, its enchant ability and protection do) -- or, with nothing it could
        # enchant, it stays where it is (303.4g).
        hosts = aura_hosts(game, old, old.owner if controller is None else controller)
        if not hosts:
            return old
        attached_to = hosts[0]
    game.zone_list(old.zone, old.owner).remove(object_id)
    del game.objects[object_id]
    if old.zone is _ZONE_STACK and old.ability is None:
        game.last_known_spells[object_id] = old  # rule 608.2h
    attacking = object_id in game.combat.attackers
    attacked = attacked_seat(game, object_id)
    if old.zone is _ZONE_BATTLEFIELD:
        game.last_known_permanents[object_id] = old  # rules 113.7a, 608.2h
        if attacked is not None:
            game.combat.left_attacking[object_id] = attacked
        remove_from_combat(game, object_id)
    new_controller = old.owner if controller is None else controller
    new = GameObject(
        id=fresh_id(game),
        card=old.card,
        owner=old.owner,
        controller=new_controller,
        base_controller=new_controller,
        zone=to,
        controlled_since=game.turn,
        face_down=face_down and to is _ZONE_EXILE,
        attached_to=attached_to if to is _ZONE_BATTLEFIELD else None,
        timestamp=next_timestamp(game),
    )
    if to is _ZONE_BATTLEFIELD:
        # "if it entered from your graveyard or you cast it from your graveyard"
        new.from_graveyard = old.zone is _ZONE_GRAVEYARD or (
            old.zone is _ZONE_STACK and old.cast_from is _ZONE_GRAVEYARD)
        enters_as_printed(game, new, old.x_value, events)
    if old.stickers and to not in HIDDEN_ZONES:
        # Rules 123.5, 400.7m: stickers stay on it as it moves to a public zone and apply to
        # the new object (613.7k: new timestamps, same order); a hidden zone loses them.
        new.stickers = list(old.stickers)
        restamp_stickers(game, new)
    game.objects[new.id] = new
    if len(hosts) > 1:  # (one: no choice to make)
        game.choices.insert(0, Choice(_DECISION_KIND_CHOOSE_CARD, new_controller, hosts,
                                      group=[AURA_HOST, new.id]))
    if to is _ZONE_BATTLEFIELD:
        ask_as_it_enters(game, new)
    target = game.zone_list(to, new.owner)
    if bottom:
        target.insert(0, new.id)
    else:
        target.append(new.id)
    # The watchers count what it was as it left (creatures that died, 700.4; permanents
    # to hand, 400.3; descended, 700.11).
    on_battlefield = old.zone is _ZONE_BATTLEFIELD
    creature = old.is_creature
    emit(game, events, ZoneChanged(object_id, new.id, old.owner, old.zone, to, old.controller,
                                   old.card, tuple(old.counters.items()), attacking,
                                   old.attached_to, old.granted_triggers,
                                   creature=creature, token=old.is_token,
                                   subtypes=old.subtypes if on_battlefield else None,
                                   power=old.power if on_battlefield and creature else None,
                                   toughness=old.toughness if on_battlefield and creature
                                   else None))
    new.token = old.token
    new.came_from = object_id  # for the exceptions of rule 400.7 only (zone_rules)
    if (old.is_token and to is not _ZONE_BATTLEFIELD) or old.spell_copy:
        game.stray_tokens.append(new.id)  # it ceases to exist at the next SBA (704.5d-e)
    if old.zone is _ZONE_BATTLEFIELD and game.exiled_until_leaves:
        return_exiled(game, object_id, events)
    return new


def enter_together(game: Game, object_ids: list[str], events: list[Event], *,
                   controller: int | None = None) -> list[GameObject]:
    """Put several objects onto the battlefield at the same time, in one event ("put up to
    seven permanent cards from your hand onto the battlefield"). None of them is on the
    battlefield yet as each enters: an Aura among them can't enchant another of them
    (303.4f-g), and a replacement effect of one (Containment Priest's) doesn't apply to
    another (614.12: only the effects that already exist). So each is kept out of
    ``game.battlefield`` until all have entered; their enters abilities then see one another
    (603.6a). Returns each object where it went (as :func:`move`)."""
    moved: list[GameObject] = []
    held: list[str] = []
    for oid in object_ids:
        new = move(game, oid, _ZONE_BATTLEFIELD, events, controller=controller)
        moved.append(new)
        if new.zone is _ZONE_BATTLEFIELD and new.id in game.battlefield:
            game.battlefield.remove(new.id)
            held.append(new.id)
    game.battlefield.extend(held)
    return moved


def return_exiled(game: Game, source_id: str, events: list[Event]) -> None:
    """Rule 610.3: as the permanent ``source_id`` leaves the battlefield, the cards exiled
    until it does return to their previous zones -- those still the objects exiled (400.7);
    to the battlefield under their owners' control (610.3c)."""
    back = [e for e in game.exiled_until_leaves if e[0] == source_id]
    game.exiled_until_leaves[:] = [e for e in game.exiled_until_leaves if e[0] != source_id]
    for _, oid, zone in back:
        card = game.objects.get(oid)
        if card is not None and card.zone is _ZONE_EXILE:
            move(game, oid, zone, events)


def shuffle_library(game: Game, seat: int) -> None:
    """Rule 701.24a: randomize a library. Every card gets a new id (architecture invariant 5)
    so no viewer can follow a card through the shuffle."""
    library = game.player(seat).library
    game.rng.shuffle(library)
    for i, oid in enumerate(library):
        obj = game.objects.pop(oid)
        obj.id = fresh_id(game)
        game.objects[obj.id] = obj
        library[i] = obj.id


def aura_hosts(game: Game, aura: GameObject, controller: int) -> list[str]:
    """The permanents an Aura that ``controller`` puts onto the battlefield could enchant
    (rules 303.4a, 303.4d, 303.4f, 702.16c), in battlefield order."""
    enchant = aura.card.enchant
    assert enchant is not None
    objects = game.objects
    return [oid for oid in game.battlefield if oid != aura.id
            and not any(quality_of(aura.card, q) for q in objects[oid].protection)
            and matches(game, objects[oid], enchant, controller, aura.id)]


def aura_host_options(game: Game, choice: Choice) -> tuple[Action, ...]:
    """Rule 303.4f: each permanent the entering Aura could enchant (still there; if none
    is, it stays as it entered)."""
    picks = tuple(ChooseCard(oid) for oid in choice.pool if oid in game.battlefield)
    return picks or (Decline(),)


def answer_aura_host(game: Game, choice: Choice, action: Action) -> None:
    """Rule 303.4f: the Aura enchants the permanent chosen (it entered attached to the
    first it could enchant, until this answer)."""
    game.choices.remove(choice)
    aura = game.objects.get(choice.group[1])
    if aura is not None and isinstance(action, ChooseCard):
        aura.attached_to = action.object_id


def remove_from_game(game: Game, object_id: str) -> None:
    """An object leaves the game entirely (rule 800.4a) or ceases to exist (rule 113.7a)."""
    obj = game.objects.pop(object_id)
    if obj.zone is _ZONE_BATTLEFIELD and object_id not in game.battlefield:
        # Rule 702.26k: a phased-out permanent leaves the game with its owner.
        game.phased_out[:] = [p for p in game.phased_out if p.object_id != object_id]
        return
    game.zone_list(obj.zone, obj.owner).remove(object_id)
    if obj.zone is _ZONE_BATTLEFIELD:
        remove_from_combat(game, object_id)


def attacked_seat(game: Game, attacker_id: str) -> int | None:
    """The player an attacking creature attacks, or whose planeswalker it attacks (506.3);
    None if it isn't attacking, or attacks nothing any more: the planeswalker it attacked
    has left the battlefield (rule 506.4c -- it is still an attacking creature)."""
    combat = game.combat
    seat = combat.attackers.get(attacker_id)
    walker = combat.attacking_planeswalker.get(attacker_id)
    if seat is None or (walker is not None and walker not in game.battlefield):
        return None
    return seat


def remove_from_combat(game: Game, object_id: str) -> None:
    """Rule 506.4. A blocked attacker stays blocked when its blockers leave (rule 509.1h)."""
    combat = game.combat
    if object_id in combat.attackers:
        combat.was_attacking[object_id] = combat.attackers.pop(object_id)  # rule 508.5
    combat.attacking_planeswalker.pop(object_id, None)
    combat.blocked_by.pop(object_id, None)
    combat.assignments.pop(object_id, None)
    attacker = combat.blocking.pop(object_id, None)
    if attacker is not None and attacker in combat.blocked_by:
        combat.blocked_by[attacker].remove(object_id)


def draw(game: Game, seat: int, events: list[Event],
         applied: frozenset[tuple[str, int]] = frozenset()) -> None:
    """Rule 121.1: put the top card of the library into hand; 704.5b if the library is empty.
    First the replacement effects of ``seat``'s permanents that draw more instead (614.1a),
    each applying once to a draw and the draws replacing it (614.5, 616.1)."""
    player = game.player(seat)
    in_draw_step = game.step is _STEP_DRAW and game.active == seat
    first_in_step = in_draw_step and game.watchers.draw_step_draws.count == 0
    if not first_in_step:  # rule 504.1
        for holder, index, rep in replacements.statics(game, Modified.DRAW):
            if holder.controller == seat and (holder.id, index) not in applied:
                for _ in range(1 + rep.extra):
                    draw(game, seat, events, applied | {(holder.id, index)})
                return
    if in_draw_step:
        game.watchers.draw_step_draws.attempt()
    if not player.library:
        player.drew_from_empty = True
        return
    move(game, player.library[-1], _ZONE_HAND, events)
    emit(game, events, CardDrawn(seat, game.watchers.cards_drawn.of(seat) + 1))


def death_replacements(game: Game, obj: GameObject) -> list[str]:
    """The replacement effects that apply if this permanent would die (rule 614.1a):
    "exile" (it would be exiled instead) and/or "hand" (returned to its owner's hand)."""
    if obj.zone is not _ZONE_BATTLEFIELD:
        return []
    out = ["exile"] if replacements.exiles_if_dies(game, obj.id) else []
    if obj.is_creature and any(
            game.objects[i].card.creatures_die_to_hand
            and game.objects[i].controller == obj.controller for i in game.battlefield):
        out.append("hand")
    return out


def death_options(game: Game, choice: Choice) -> tuple[ChooseReplacement, ...]:
    """Rule 616.1: the replacement effects the controller of the permanent that would die
    (``choice.pool[0]``) chooses among (:func:`death_replacements`)."""
    oid = choice.pool[0]
    return tuple(ChooseReplacement(oid, key)
                 for key in death_replacements(game, game.objects[oid]))


def die_instead(game: Game, object_id: str, replacement: str, events: list[Event]) -> None:
    """Apply a chosen replacement to a permanent that would die (614.1a, 616.1f: once one
    applies, the other no longer does -- it isn't dying any more)."""
    move(game, object_id, _ZONE_EXILE if replacement == "exile" else _ZONE_HAND, events)


def sacrifice(game: Game, object_ids: list[str], events: list[Event]) -> list[str]:
    """Rule 701.21a: each permanent's controller moves it from the battlefield to its owner's
    graveyard (replacements may send it elsewhere: it is sacrificed all the same) -- a
    :class:`Sacrificed` event each, for "whenever you sacrifice a permanent" (603.2)."""
    for oid in object_ids:
        obj = game.objects.get(oid)
        if obj is not None and obj.zone is _ZONE_BATTLEFIELD:
            events.append(Sacrificed(obj.controller, oid, obj.card))
    return put_into_graveyards(game, object_ids, events)


def put_into_graveyards(game: Game, object_ids: list[str], events: list[Event]) -> list[str]:
    """Put objects into their owners' graveyards at the same time; returns the new ids of
    those that went (to a graveyard, or exiled instead by a rule such as flashback's,
    702.34a; not those a chosen replacement sent elsewhere, 616.1).

    Rule 616.1: a permanent that would die with two or more replacement effects applying
    stays until its controller chooses one; players choose in APNAP order (101.4).

    Rule 404.3: when two or more cards go to the same graveyard at once, their owner
    arranges them in any order -- a pending ORDER_GRAVEYARD choice for that owner. Only
    cards: a token (111.7, 704.5d) or a copy of a spell (707.10, 704.5e) in a graveyard is no
    card and ceases to exist at the next check of state-based actions, so it is never part
    of the arrangement (and no decision may name it once it is gone).
    """
    arrived: dict[int, list[str]] = {}
    moved: list[str] = []
    # Until the owner arranges them, they are filed by name: an order taken from a hidden
    # zone (hand order is draw order) must not become public.
    movers = sorted((game.objects[oid] for oid in object_ids if oid in game.objects),
                    key=lambda o: o.card.name)
    asked = len(game.choices)
    for obj in movers:
        replacements = death_replacements(game, obj)
        if len(replacements) > 1:
            # Rule 616.1: its controller chooses which replacement effect applies.
            game.choices.append(Choice(_DECISION_KIND_CHOOSE_REPLACEMENT, obj.controller,
                                       [obj.id]))
            continue
        if replacements:
            die_instead(game, obj.id, replacements[0], events)
            continue
        card = not (obj.is_token or obj.spell_copy)  # rules 108.2b, 111.1, 707.10
        new = move(game, obj.id, _ZONE_GRAVEYARD, events)
        moved.append(new.id)
        if card and new.zone is _ZONE_GRAVEYARD:
            arrived.setdefault(new.owner, []).append(new.id)
    if len(game.choices) - asked > 1:
        order = game.apnap()  # rule 616.1: choices made at the same time, in APNAP order
        game.choices[asked:] = sorted(
            game.choices[asked:],
            key=lambda c: order.index(c.seat) if c.seat in order else len(order))
    for owner in game.apnap():  # rule 101.4: the active player arranges theirs first
        ids = arrived.get(owner, [])
        if len(ids) >= 2:
            game.choices.append(Choice(_DECISION_KIND_ORDER_GRAVEYARD, owner, list(ids),
                                       count=len(ids) - 1))
    return moved


def destroy(game: Game, object_ids: list[str], events: list[Event], *,
            regenerable: bool = True) -> None:
    """Destroy permanents (rule 701.8a): they go to their owners' graveyards together,
    except as :func:`destroyed_for_real` says."""
    put_into_graveyards(game, destroyed_for_real(game, object_ids, regenerable=regenerable),
                        events)


def destroyed_for_real(game: Game, object_ids: list[str], *,
                       regenerable: bool = True) -> list[str]:
    """Which of the permanents about to be destroyed really go: indestructible ones aren't
    destroyed (702.12b); a regeneration shield or static regeneration replaces the
    destruction (614.8, 701.19): all damage is removed, it's tapped and removed from combat.

    Rule 616.1f: regeneration applies even if a "dies" replacement effect (exile it or
    return it to hand instead) would apply too -- whichever the controller applied first, the
    permanent would still be destroyed, so regeneration would apply next; no choice changes
    the result, so none is asked."""
    doomed = []
    for oid in object_ids:
        obj = game.objects.get(oid)
        if obj is None or obj.has("Indestructible"):
            continue
        if regenerable and (obj.regeneration_shields or obj.card.regenerates):
            if not obj.card.regenerates:
                obj.regeneration_shields -= 1  # a shield is used up (701.19a)
            obj.damage = 0
            obj.deathtouched = False
            obj.tapped = True
            remove_from_combat(game, oid)
            continue
        doomed.append(oid)
    return doomed


def lose_life(game: Game, seat: int, amount: int, events: list[Event]) -> None:
    """Rule 119.3: ``seat`` loses ``amount`` life -- damage to them (120.3a), life paid
    (119.4) or an effect -- as one life-loss event ("whenever [a player] loses life")."""
    if amount <= 0:
        return
    game.player(seat).life -= amount
    emit(game, events, LifeLost(seat, amount))
