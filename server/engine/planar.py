"""Planechase (rule 901): planar decks, the face-up plane, the planar controller, the planar
die and planeswalking (701.31).

Model. The variant's state is its own record, :class:`Planechase`, in ``game.variants`` (its
hooks are called through :mod:`server.engine.variants`; a game without the record isn't a
Planechase game). Each player's planar deck (901.3) is ``Planechase.decks[seat]``, a list of
card definitions with the top card LAST, like a library. Cards in a planar deck are not
objects: they have no ids, so nothing a client sees can reveal the deck's order; only its
size is public. A face-up plane is an object in the command zone (901.4, 311.2) owned by the
player who started the game with it in their planar deck (901.6) and controlled by the
planar controller (:attr:`Planechase.controller`). Turning it face down makes it a card
again, on the bottom of its owner's planar deck (701.31b); turning a card face up creates a
new object (901.7a, 311.6).

Its static abilities work from the command zone (311.4, 901.7; see
:func:`server.engine.layers.refresh`), its triggered abilities trigger there (each_permanent
covers the command zone) and its chaos ability triggers "whenever chaos ensues" (311.7).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from server.cards import CardDef
from server.cards.mana import ManaCost
from server.cards.model import TriggeredAbility, TriggerEvent
from server.cards.verbs import Coded, Effect
from server.engine.events import Event
from server.engine.state import Choice, DecisionKind, Game, GameObject, PendingTrigger, Zone
from server.engine.triggers import trigger
from server.engine.zones import (
    create_object,
    draw,
    fresh_id,
    put_counters,
    remove_from_game,
    sacrifice,
)

#: Rule 901.3: a planar deck holds at least ten cards.
MIN_PLANAR_DECK = 10

#: Rule 901.3a: the six faces of the planar die.
PLANESWALKER_FACE = "planeswalk"
CHAOS_FACE = "chaos"
BLANK_FACE = "blank"
DIE_FACES = (PLANESWALKER_FACE, CHAOS_FACE, BLANK_FACE, BLANK_FACE, BLANK_FACE, BLANK_FACE)

#: The inherent "planeswalking ability" (rule 901.8): it has no source; this definition only
#: names it on the stack.
PLANESWALKING_ABILITY = TriggeredAbility(
    text="Whenever you roll the Planeswalker symbol on the planar die, planeswalk.",
    event=TriggerEvent.ROLL_PLANESWALKER,
    effects=(Coded(code="planeswalk"),),
)
PLANAR_DIE = CardDef(
    name="Planar die", mana_cost=ManaCost(), has_mana_cost=False, supertypes=(),
    card_types=(), subtypes=(), colors=(), rules_text=PLANESWALKING_ABILITY.text,
    power=None, toughness=None, triggers=(PLANESWALKING_ABILITY,),
)


class PlanarDeckError(ValueError):
    """A planar deck that breaks rule 901.3 (or planes where they don't belong)."""


@dataclass(slots=True)
class Planechase:
    """The Planechase variant's record (rule 901): each player's planar deck (901.3; top
    card LAST; cards, not objects: hidden, only the size is public), whether the starting
    plane was turned face up (901.5), the planar controller (901.6, -1 before the start),
    every planar die roll as (turn, seat, face) (901.9), and for each seat the times they
    rolled the die as a special action in a turn: (turn, times) (116.2i)."""

    decks: dict[int, list[CardDef]] = field(default_factory=dict)
    started: bool = False
    controller: int = -1
    rolls: list[tuple[int, int, str]] = field(default_factory=list)
    special_rolls: dict[int, tuple[int, int]] = field(default_factory=dict)

    def deck(self, seat: int) -> list[CardDef]:
        """``seat``'s planar deck, top card last."""
        return self.decks.setdefault(seat, [])


def state(game: Game) -> Planechase | None:
    """The Planechase record, if this is a Planechase game (rule 901)."""
    return next((v for v in game.variants if isinstance(v, Planechase)), None)


def controller(game: Game) -> int:
    """The planar controller (rule 901.6); -1 outside Planechase or before the start."""
    record = state(game)
    return record.controller if record is not None else -1


def deck_size(game: Game, seat: int) -> int:
    """How many cards ``seat``'s planar deck holds (public, 901.3)."""
    record = state(game)
    return len(record.decks.get(seat, ())) if record is not None else 0


def is_plane(card: CardDef) -> bool:
    """Rule 311.1: plane is a card type."""
    return "Plane" in card.card_types


def validate_planar_deck(seat: int, deck: Sequence[CardDef], *,
                         minimum: int = MIN_PLANAR_DECK) -> None:
    """Rule 901.3: at least ten plane (or phenomenon) cards, each with a different English
    name. Phenomena (312) are not supported, so every card must be a plane."""
    if len(deck) < minimum:
        raise PlanarDeckError(f"player {seat}'s planar deck has {len(deck)} cards; "
                              f"it needs at least {minimum} (rule 901.3)")
    seen: set[str] = set()
    for card in deck:
        if not is_plane(card):
            raise PlanarDeckError(f"player {seat}'s planar deck holds {card.name!r}, which is "
                                  "not a plane card (rules 901.3, 311.1)")
        if card.name in seen:
            raise PlanarDeckError(f"player {seat}'s planar deck holds {card.name!r} twice; "
                                  "each card must have a different name (rule 901.3)")
        seen.add(card.name)


def face_up(game: Game) -> list[GameObject]:
    """The face-up plane cards in the command zone (901.4), oldest first."""
    return [game.objects[i] for i in game.command if is_plane(game.objects[i].card)]


def set_planar_controller(game: Game, seat: int) -> None:
    """Rules 901.6, 311.5: ``seat`` becomes the planar controller and controls every face-up
    plane."""
    record = state(game)
    if record is None:
        return
    record.controller = seat
    for plane in face_up(game):
        plane.controller = plane.base_controller = seat


def new_turn(game: Game) -> None:
    """Rule 901.6: the planar controller is normally the active player -- the designation
    moves as a different player becomes the active player."""
    set_planar_controller(game, game.active)


def turn_face_up(game: Game, seat: int) -> GameObject | None:
    """Move the top card of ``seat``'s planar deck off that deck and turn it face up in the
    command zone (a new object, 901.7a) under the planar controller's control. None if the
    deck is empty."""
    record = state(game)
    deck = record.deck(seat) if record is not None else []
    if record is None or not deck:
        return None
    card = deck.pop()
    plane = create_object(game, card, seat, Zone.COMMAND)
    chosen = record.controller if record.controller >= 0 else game.active
    plane.controller = plane.base_controller = chosen
    return plane


def start_if_needed(game: Game) -> None:
    """Rules 103.7, 901.5: once the opening hands are kept, the starting player turns the top
    card of their planar deck face up: the starting plane. No ability triggers (901.5).
    (Phenomena, which would go to the bottom, are not supported.)"""
    record = state(game)
    if record is None or record.started:
        return
    record.started = True
    set_planar_controller(game, game.active)
    starter = game.starting_player
    if game.players[starter].has_lost:
        starter = game.active
    turn_face_up(game, starter)


def roll_cost(game: Game, seat: int) -> int:
    """Rules 901.9, 116.2i: {X} generic mana, X the number of times ``seat`` has already
    taken this special action this turn (rolls caused by effects don't count)."""
    record = state(game)
    turn, times = record.special_rolls.get(seat, (-1, 0)) if record is not None else (-1, 0)
    return times if turn == game.turn else 0


def can_roll(game: Game, seat: int) -> bool:
    """Rule 901.9: the active player, with priority, during a main phase of their turn,
    with an empty stack (mana affordability is checked by the caller)."""
    return (state(game) is not None and seat == game.active and game.step.is_main
            and not game.stack and game.casting is None and not game.choices)


#: The mana types in pool order.
_LETTERS = "WUBRGC"


def payments(pool: Sequence[int], amount: int) -> list[str]:
    """Every way to pay ``amount`` generic mana from a mana pool (counts in WUBRGC order),
    as letters in WUBRGC order -- the player chooses which mana pays (601.2h)."""
    out: list[str] = []
    _walk_payments(pool, 0, amount, "", out)
    return out


def _walk_payments(pool: Sequence[int], index: int, left: int, chosen: str,
                   out: list[str]) -> None:
    """Add to ``out`` each way to pay ``left`` more from ``pool``'s types ``index`` on (a
    module function: a closure calling itself would be a reference cycle, see
    :mod:`server.gctune`)."""
    if left == 0:
        out.append(chosen)
        return
    if index == len(_LETTERS):
        return
    for n in range(min(left, pool[index]), -1, -1):
        _walk_payments(pool, index + 1, left - n, chosen + _LETTERS[index] * n, out)


def roll_planar_die(game: Game, seat: int, mana: str, events: list[Event]) -> str:
    """Rules 901.9, 116.2i: the special action. Pay {X} from the mana pool, roll the six-sided
    planar die (901.3a) with the game's RNG, then:

    - blank: nothing happens (901.9a);
    - chaos: chaos ensues -- each face-up plane's chaos ability triggers, controlled by the
      planar controller (901.9b, 311.7);
    - Planeswalker symbol: the planeswalking ability triggers, controlled by the roller
      (901.9c, 901.8).

    The active player keeps priority (117.3c); the special action doesn't use the stack.
    """
    record = state(game)
    assert record is not None, "the planar die is rolled only in Planechase (901.9)"
    player = game.player(seat)
    for letter in mana:
        player.mana_pool["WUBRGC".index(letter)] -= 1
    record.special_rolls[seat] = (game.turn, roll_cost(game, seat) + 1)
    face = DIE_FACES[game.rng.randbelow(len(DIE_FACES))]
    record.rolls.append((game.turn, seat, face))
    if face == CHAOS_FACE:
        chaos_ensues(game)
    elif face == PLANESWALKER_FACE:
        game.pending_triggers.append(PendingTrigger(
            fresh_id(game), seat, PLANAR_DIE, 0, "", PLANESWALKING_ABILITY))
    game.passes = 0
    return face


def chaos_ensues(game: Game) -> None:
    """Rule 311.7: every face-up plane's "whenever chaos ensues" ability triggers; it is
    controlled by the planar controller."""
    for plane in face_up(game):
        trigger(game, plane.controller, plane.card, plane.id, TriggerEvent.CHAOS_ENSUES)


def planeswalk(game: Game, seat: int, events: list[Event]) -> GameObject | None:
    """Rule 701.31b: put each face-up plane on the bottom of its owner's planar deck face down
    (each becomes a card again, 901.7a), then move the top card of ``seat``'s planar deck off
    it and turn it face up: the plane ``seat`` planeswalks to (701.31d). "When you planeswalk
    to [this]" abilities trigger (901.11). Only the planar controller planeswalks (701.31a).
    """
    record = state(game)
    if record is None or seat != record.controller:
        return None
    for plane in face_up(game):
        remove_from_game(game, plane.id)
        if not game.players[plane.owner].has_lost:  # gone with its owner (901.10)
            record.deck(plane.owner).insert(0, plane.card)
    arrived = turn_face_up(game, seat)
    if arrived is not None:
        trigger(game, arrived.controller, arrived.card, arrived.id, TriggerEvent.PLANESWALK_TO)
    return arrived


def before_leaving(game: Game, seat: int) -> None:
    """Rule 901.6: if the planar controller would leave the game, the next player in turn
    order who wouldn't leave becomes the planar controller first (so the face-up plane is
    never "controlled" by the player who leaves and exiled with their things, 800.4a)."""
    if controller(game) == seat:
        set_planar_controller(game, game.next_seat(seat))


def after_leaving(game: Game, seat: int, events: list[Event]) -> None:
    """Rule 901.10: everything the player owned left the game, their planar deck too. If that
    included a face-up plane, the planar controller turns the top card of their planar deck
    face up -- they planeswalk (701.31c, 901.11a), at once, not as a state-based action. A
    planeswalking ability on the stack then ceases to exist (901.10a)."""
    record = state(game)
    if record is None:
        return
    record.deck(seat).clear()
    if not record.started or face_up(game) or not game.in_game():
        return
    for oid in list(game.stack):
        obj = game.objects[oid]
        if obj.ability is not None and obj.ability.definition is PLANESWALKING_ABILITY:
            remove_from_game(game, oid)
    game.pending_triggers = [t for t in game.pending_triggers
                             if t.definition is not PLANESWALKING_ABILITY]
    planeswalk(game, record.controller, events)


# --- coded effects of the inherent planeswalking ability and of plane cards ------------------
# (registered in server.engine.coded; signature: game, resolving object, effect, players
# the effect names, events)


def _source(game: Game, obj: GameObject) -> GameObject | None:
    ref = obj.ability
    return game.objects.get(ref.source_id) if ref is not None and ref.source_id else None


def coded_planeswalk(game: Game, obj: GameObject, effect: Effect, players: list[int],
                     events: list[Event]) -> None:
    """Rule 901.8: the planeswalking ability's controller planeswalks (701.31b) -- if they
    are the planar controller (701.31a)."""
    planeswalk(game, obj.controller, events)


def coded_flame_counter_then_damage_you(game: Game, obj: GameObject, effect: Effect,
                                        players: list[int], events: list[Event]) -> None:
    """Naar Isle: "put a flame counter on Naar Isle, then Naar Isle deals damage to you equal
    to the number of flame counters on it" (rules 122.1, 120.3a). A plane that was turned
    face down is a new object (901.7a): the ability then does nothing."""
    plane = _source(game, obj)
    if plane is None or plane.zone is not Zone.COMMAND:
        return
    put_counters(game, plane, "flame", 1, events)  # rule 122.1
    # Damage as any source deals it (120.3a): prevention effects (615.1, Nine Lives, with
    # the player's choice among them, 616.1) and replacement effects (614.1a) apply.
    from server.engine.effects import deal_damage_at_once  # (effects imports this module)
    deal_damage_at_once(game, [(plane, ("player", seat), plane.counters["flame"])
                               for seat in players if not game.players[seat].has_lost], events)


def coded_draw_per_land_you_control(game: Game, obj: GameObject, effect: Effect,
                                    players: list[int], events: list[Event]) -> None:
    """Tazeem: "draw a card for each land you control" -- counted as the effect is performed
    (608.2c)."""
    for seat in players:
        lands = sum(1 for i in game.battlefield if game.objects[i].controller == seat
                    and game.objects[i].card.is_land)
        for _ in range(lands):
            draw(game, seat, events)


def coded_sacrifice_nonblack_creature(game: Game, obj: GameObject, effect: Effect,
                                      players: list[int], events: list[Event]) -> None:
    """The Fourth Sphere: "sacrifice a nonblack creature" -- the player chooses one they
    control (701.21a); with only one, there is nothing to choose."""
    for seat in players:
        pool = [i for i in game.battlefield if game.objects[i].controller == seat
                and game.objects[i].is_creature and "B" not in game.objects[i].card.colors]
        if len(pool) == 1:
            sacrifice(game, pool, events)
        elif pool:
            game.choices.append(Choice(DecisionKind.SACRIFICE, seat, pool))
