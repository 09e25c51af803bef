"""Whitelist projection of a game for one viewer (architecture invariant 4).

An object's identity appears in a view only where a rule grants it to the viewer:

- the battlefield, the stack, graveyards and exile are public zones (rule 400.2);
- a player's hand is hidden (rule 400.2) and is shown to its owner only;
- libraries are hidden from everyone (rule 401.2): only their sizes are shown;
- the command zone is public (rule 408.2); so is the ante zone (400.2, 407.2);
- a planar deck (901.3) is hidden: only its size is shown (its cards aren't objects);
- a card exiled face down shows no characteristics to anyone (rule 406.3);
- a card in a hidden zone that a rule lets the viewer see for now -- revealed to all players
  (701.20a), looked at by the viewer (701.20e: scry, fateseal, search) -- is shown for as long
  as the look lasts (:mod:`server.engine.looking`), with its position from the top when it is
  in a library.

Anything else is absent, not masked: a hidden object contributes only to a count.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import IntEnum
from functools import cache

from server.cards.mana import ManaCost
from server.engine import Game, GameObject, Player, Zone, looking, planar
from server.engine.ante import state as ante_state
from server.engine.state import DecisionKind, GamePhase, Step

#: The viewer id of a spectator, who sees public zones only.
SPECTATOR = -1
#: The viewer id of the omniscient view class (replays of finished games only, for whom
#: :func:`server.replay.may_replay` allows): every card in every zone -- each hand, each
#: library in order, face-down cards with their faces. Its view hash's ``viewer`` is -2.
#: No live room streams it; no seat's or spectator's projection depends on it.
OMNISCIENT = -2
#: The viewer id of the delayed omniscient spectator tier (protocol/README.md, "Spectator
#: tiers"): every hand, every card some player may look at now and every face-down card a
#: player may look at -- but no library's order, which would tell the game's next draws. A
#: room streams it only delayed (:mod:`server.rooms.tiers`), like any other view class.
EVERY_HAND = -3

ZoneKey = tuple[Zone, int]


class CombatDamageStep(IntEnum):
    """Which combat damage step the game is in (rule 510.4; the protocol's enum of the same
    name, ``GameHeader.combat_damage_step``)."""

    NONE = 0          # not a combat damage step
    ONLY = 1          # the combat's one combat damage step
    FIRST_STRIKE = 2  # only first and double strikers deal damage (510.4)
    REGULAR = 3       # the second, after a first-strike one


def combat_damage_step(game: Game) -> CombatDamageStep:
    """Rule 510.4: which combat damage step this is, as the engine decided it as the step
    began (``Combat.first_strike_step``; ``first_strikers`` is set once a first-strike step
    dealt its damage). A step not begun yet after a first-strike one is the regular one."""
    if game.step is not Step.COMBAT_DAMAGE:
        return CombatDamageStep.NONE
    combat = game.combat
    if combat.first_strike_step:
        return CombatDamageStep.FIRST_STRIKE if game.step_begun else CombatDamageStep.REGULAR
    return CombatDamageStep.REGULAR if combat.first_strikers else CombatDamageStep.ONLY


@dataclass(frozen=True, slots=True)
class ObjectView:
    """What a viewer sees of one object it is allowed to see."""

    id: str
    zone: Zone
    zone_owner: int
    owner: int
    controller: int
    name: str
    mana_cost: str
    mana_value: int
    supertypes: tuple[str, ...]
    card_types: tuple[str, ...]
    subtypes: tuple[str, ...]
    colors: tuple[str, ...]
    rules_text: str
    power: int | None
    toughness: int | None
    tapped: bool
    damage: int
    summoning_sick: bool
    attacking: int | None
    blocking: tuple[str, ...]
    x_value: int | None
    targets: tuple[tuple[str, int | str], ...]
    counters: tuple[tuple[str, int], ...] = ()
    attached_to: str | None = None
    face_down: bool = False
    is_ability: bool = False
    ability_text: str = ""
    modes: tuple[int, ...] = ()
    attacking_planeswalker: str = ""
    keywords: tuple[str, ...] = ()
    is_token: bool = False
    #: The card name chosen as it entered (614.12a): public, like the permanent itself.
    chosen_name: str = ""
    #: Rule 502.3: it doesn't untap during its controller's next untap step (a resolved
    #: effect's, e.g. Frost Breath's, or a static ability's while it applies, Capture
    #: Sphere's): public, like the effect.
    doesnt_untap: bool = False
    #: A library card the viewer may see for now: its position counted from the top (0).
    library_position: int = -1
    #: Rule 123: the stickers on it, oldest timestamp first (613.7k): (kind, what it shows),
    #: kind "power_toughness", "ability" or "art".
    stickers: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class PlayerView:
    """A player's public information."""

    seat: int
    name: str
    life: int
    library_count: int
    hand_count: int
    mana_pool: tuple[int, ...]
    lands_played: int
    has_lost: bool
    poison: int = 0
    mulligans: int = 0
    max_hand_size: int = 7
    #: Planechase (rule 901.3): the number of cards in the player's planar deck -- its
    #: contents and order are hidden from everyone.
    planar_deck_count: int = 0


@dataclass(frozen=True, slots=True)
class TriggerView:
    """A triggered ability waiting to be put on the stack (rule 603.3)."""

    id: str
    controller: int
    source_name: str
    text: str


@dataclass(frozen=True, slots=True)
class HeaderView:
    """Turn, step, priority, whose decision is pending and the result."""

    turn: int
    active: int
    step: Step
    priority: int | None
    pending: tuple[int, DecisionKind, int] | None
    result: tuple[tuple[int, ...], str] | None
    phase: GamePhase = GamePhase.PLAYING
    starting_seat: int = 0
    triggers: tuple[TriggerView, ...] = ()
    #: Planechase: the planar controller (rule 901.6); -1 when not playing Planechase.
    planar_controller: int = -1
    #: Rule 510.4: which combat damage step this is (NONE outside one).
    combat_damage_step: CombatDamageStep = CombatDamageStep.NONE


@dataclass(frozen=True, slots=True)
class View:
    """Everything one viewer may know about a game."""

    viewer: int
    header: HeaderView
    players: tuple[PlayerView, ...]
    objects: dict[str, ObjectView]
    zones: dict[ZoneKey, tuple[str, ...]]


def visible_zones(game: Game, viewer: int) -> list[ZoneKey]:
    """The zones whose contents ``viewer`` may see, in canonical order (kind, owner)."""
    keys: list[ZoneKey] = []
    for seat in range(len(game.players)):
        if viewer in (seat, OMNISCIENT, EVERY_HAND):
            keys.append((Zone.HAND, seat))
        if viewer == OMNISCIENT:
            keys.append((Zone.LIBRARY, seat))
        keys.append((Zone.GRAVEYARD, seat))
    keys += [(Zone.BATTLEFIELD, -1), (Zone.STACK, -1), (Zone.EXILE, -1), (Zone.COMMAND, -1)]
    if ante_state(game) is not None or game.ante:
        keys.append((Zone.ANTE, -1))  # rules 400.2, 407.2: the ante is public
    return sorted(keys)


def _face_down_view(obj: GameObject, zone_owner: int, library_position: int = -1
                    ) -> ObjectView:
    """Rule 406.3a: a face-down exiled card has no characteristics; only its id shows."""
    return ObjectView(
        id=obj.id, zone=obj.zone, zone_owner=zone_owner, owner=obj.owner,
        controller=obj.controller, name="", mana_cost="", mana_value=0, supertypes=(),
        card_types=(), subtypes=(), colors=(), rules_text="", power=None, toughness=None,
        tapped=False, damage=0, summoning_sick=False, attacking=None, blocking=(),
        x_value=None, targets=(), face_down=True, library_position=library_position,
    )


@cache
def _mana_text(cost: ManaCost) -> str:
    """A mana cost as text (rule 202.1), worked out once per distinct cost."""
    return str(cost)


def _object_view(game: Game, obj: GameObject, zone_owner: int,
                 library_position: int = -1) -> ObjectView:
    if obj.face_down:
        return _face_down_view(obj, zone_owner, library_position)
    card = obj.card
    combat = game.combat
    on_battlefield = obj.zone is Zone.BATTLEFIELD
    blocking = combat.blocking.get(obj.id)
    if obj.is_ability:
        return ObjectView(
            id=obj.id, zone=obj.zone, zone_owner=zone_owner, owner=obj.owner,
            controller=obj.controller, name=card.name, mana_cost="", mana_value=0,
            supertypes=(), card_types=(), subtypes=(), colors=(), rules_text="",
            power=None, toughness=None, tapped=False, damage=0, summoning_sick=False,
            attacking=None, blocking=(), x_value=None, targets=obj.targets,
            is_ability=True, ability_text=obj.ability_def.text if obj.ability_def else "",
        )
    creature_or_printed = obj.is_creature or card.power is not None
    return ObjectView(
        id=obj.id,
        zone=obj.zone,
        zone_owner=zone_owner,
        owner=obj.owner,
        controller=obj.controller,
        name=card.name,
        mana_cost=_mana_text(card.mana_cost) if card.has_mana_cost else "",
        mana_value=obj.mana_value,
        supertypes=card.supertypes,
        # Types and subtypes now, after type-changing effects (layer 4, rule 613.1d): Dub's
        # "it's a Knight in addition to its other types" shows on the card.
        card_types=card.card_types if not (obj.types_added and on_battlefield)
        else tuple(dict.fromkeys((*card.card_types, *obj.types_added))),
        subtypes=obj.subtypes,
        colors=card.colors,
        rules_text=card.rules_text,
        power=obj.power if creature_or_printed else None,
        toughness=obj.toughness if creature_or_printed else None,
        tapped=obj.tapped,
        damage=obj.damage,
        # Rule 302.6. The only field that depends on the turn: the tracker re-examines just
        # the objects that were sick when it changed (server/view/track.py).
        summoning_sick=on_battlefield and game.summoning_sick(obj),
        attacking=combat.attackers.get(obj.id),
        blocking=(blocking,) if blocking is not None else (),
        x_value=obj.x_value if obj.zone is Zone.STACK else None,
        targets=obj.targets,
        counters=tuple(sorted((k, n) for k, n in obj.counters.items() if n)),
        attached_to=obj.attached_to,
        modes=obj.modes,
        attacking_planeswalker=combat.attacking_planeswalker.get(obj.id, ""),
        keywords=tuple(sorted(obj.keywords_now if obj.keywords_now is not None and on_battlefield
                              else {*card.keywords, *(k for s in obj.stickers  # rule 123.7
                                                       for k in s.definition.keywords)})),
        is_token=obj.is_token,
        chosen_name=obj.chosen_name,
        # Rule 502.3: its controller's next untap step passes it by -- once (Frost Breath),
        # or while a static ability says so (Capture Sphere's "doesn't untap during its
        # controller's untap step", a restriction the layers apply).
        doesnt_untap=on_battlefield and (obj.skip_next_untap
                                         or "doesnt_untap" in obj.restrictions),
        stickers=tuple((s.definition.kind.value, s.text) for s in obj.stickers),
        library_position=library_position,
    )


def _looked_at_view(game: Game, obj: GameObject) -> ObjectView:
    """A card in a hidden zone the viewer may see for now (701.20a, 701.20e): a library
    card with its place from the top, unless it is seen without it (a search's found
    cards, :func:`server.engine.looking.shows_place`)."""
    if obj.zone is Zone.LIBRARY and looking.shows_place(game, obj.id):
        library = game.player(obj.owner).library
        return _object_view(game, obj, obj.owner, len(library) - 1 - library.index(obj.id))
    return _object_view(game, obj, obj.owner)


def view_of(game: Game, oid: str, zone_owner: int,
            looked: set[str] | frozenset[str]) -> ObjectView:
    """What a viewer sees of an object in a zone it can see; ``looked``: the hidden cards it
    may see now (:func:`server.engine.looking.visible_hidden_ids`)."""
    obj = game.objects[oid]
    if obj.face_down and oid in looked:
        # Rules 406.3, 406.3b: a face-down exiled card this viewer may look at.
        seen = replace(obj, face_down=False)
        return replace(_object_view(game, seen, zone_owner), face_down=True)
    return _object_view(game, obj, zone_owner)


def hidden_view_of(game: Game, oid: str) -> ObjectView:
    """A card in a library or another player's hand that the viewer may see for now."""
    return _looked_at_view(game, game.objects[oid])


def hidden_seen(game: Game, viewer: int) -> list[str]:
    """The cards in hidden zones ``viewer`` may see now (701.20a, 701.20e), in look order:
    a seat's or the spectators' looks (:func:`server.engine.looking.visible_hidden_ids`);
    :data:`EVERY_HAND`: every look's, whoever looks."""
    if viewer != EVERY_HAND:
        return looking.visible_hidden_ids(game, viewer)
    seen: dict[str, None] = {}
    for lk in game.looks:
        seen.update((i, None) for i in lk.ids if i in game.objects)
    return list(seen)


def project(game: Game, viewer: int) -> View:
    """The view of ``game`` for seat ``viewer`` (or :data:`SPECTATOR`, :data:`EVERY_HAND`
    or :data:`OMNISCIENT`)."""
    if viewer == OMNISCIENT:
        return _project_omniscient(game)
    if viewer not in (SPECTATOR, EVERY_HAND) and not 0 <= viewer < len(game.players):
        raise ValueError(f"no such viewer {viewer}")
    zones: dict[ZoneKey, tuple[str, ...]] = {}
    objects: dict[str, ObjectView] = {}
    looked = set(hidden_seen(game, viewer)) if game.looks else set()
    for key in visible_zones(game, viewer):
        zone, owner = key
        ids = tuple(game.zone_list(zone, owner))
        zones[key] = ids
        for oid in ids:
            objects[oid] = view_of(game, oid, owner, looked)
    for oid in looked:
        if oid not in objects:
            objects[oid] = _looked_at_view(game, game.objects[oid])
    return View(viewer, project_header(game), project_players(game), objects, zones)


def _project_omniscient(game: Game) -> View:
    """Every zone's contents and every object in them (:data:`OMNISCIENT`): hands and
    libraries too (a library's ids in the engine's order, the top card last, with no
    ``library_position``), and a face-down card with its characteristics and ``face_down``
    set (as a player allowed to look at it sees it, 406.3b)."""
    zones: dict[ZoneKey, tuple[str, ...]] = {}
    objects: dict[str, ObjectView] = {}
    every = frozenset(game.objects)
    for key in visible_zones(game, OMNISCIENT):
        zone, owner = key
        ids = tuple(game.zone_list(zone, owner))
        zones[key] = ids
        for oid in ids:
            objects[oid] = view_of(game, oid, owner, every)
    return View(OMNISCIENT, project_header(game), project_players(game), objects, zones)


#: A header without priority and the pending decision: (turn, active, step, result, phase,
#: starting seat, waiting triggers, planar controller, combat damage step) --
#: :class:`HeaderView`'s other fields.
HeaderBase = tuple[int, int, Step, tuple[tuple[int, ...], str] | None, GamePhase, int,
                   tuple[TriggerView, ...], int, CombatDamageStep]


def header_base(game: Game) -> HeaderBase:
    """What the header shows besides priority and the pending decision."""
    result = game.result
    return (game.turn, game.active, game.step,
            (result.winners, result.reason) if result else None, game.phase,
            game.starting_player,
            tuple(TriggerView(t.id, t.controller, t.card.name, t.definition.text)
                  for t in game.pending_triggers),
            planar.controller(game), combat_damage_step(game))


def header_of(base: HeaderBase, priority: int | None,
              pending: tuple[int, DecisionKind, int] | None) -> HeaderView:
    """The header made of a :func:`header_base`, priority and the pending decision."""
    turn, active, step, result, phase, starting, triggers, planar, damage_step = base
    return HeaderView(turn, active, step, priority, pending, result, phase, starting, triggers,
                      planar, damage_step)


def project_header(game: Game) -> HeaderView:
    """Turn, step, priority, the pending decision's seat and kind, waiting triggers and the
    result: the same for every viewer."""
    pending = game.pending
    return header_of(header_base(game), game.priority,
                     (pending.seat, pending.kind, pending.prompt_id) if pending else None)


def project_players(game: Game) -> tuple[PlayerView, ...]:
    """Every player's public information (counts of hidden zones only, 401.3, 402.3)."""
    return tuple(project_player(p, planar.deck_size(game, p.seat)) for p in game.players)


def project_player(p: Player, planar_deck: int = 0) -> PlayerView:
    """One player's public information (with the size of their planar deck, 901.3)."""
    return PlayerView(
        seat=p.seat, name=p.name, life=p.life, library_count=len(p.library),
        hand_count=len(p.hand), mana_pool=p.all_mana(),
        lands_played=p.lands_played, has_lost=p.has_lost, poison=p.poison,
        mulligans=p.mulligans, max_hand_size=p.max_hand_size,
        planar_deck_count=planar_deck,
    )
