"""Madness (rule 702.35): a static ability that works while the card is in its owner's hand,
and a triggered ability that works when the static ability is applied.

702.35a: "Madness [cost]" means "If a player would discard this card, that player discards it,
but exiles it instead of putting it into their graveyard" (a replacement effect, 614.1a) and
"When this card is exiled this way, its owner may cast it by paying [cost] rather than paying
its mana cost. If that player doesn't, they put this card into their graveyard."

- Every discard goes through :func:`discard`: for an effect (701.9a-b), to the maximum hand
  size in the cleanup step (514.1), and as a cost (601.2f-h, :func:`pay_cost`).
- The trigger (:data:`TRIGGER`) resolves as the coded effect ``madness``: its owner chooses
  (a ``CAST_MADNESS`` decision, :func:`options`) to cast the card -- following rule 601.2 with
  the madness cost as an alternative cost (702.35b, 601.2f; see
  :func:`server.engine.casting.total_cost`), during the resolution and so whatever the card's
  timing permissions (608.2g) -- or not, and then it goes to their graveyard.
- Rule 400.7k (702.35c): after the trigger has resolved, if the card wasn't cast and was moved
  to a public zone, effects referring to the discarded card find that object
  (:func:`find_discarded`).

Exile is a public zone (400.2): a card exiled this way is seen by everyone.
"""

from __future__ import annotations

from dataclasses import replace

from server.cards import CardDef
from server.cards.mana import ManaCost
from server.cards.model import TriggeredAbility, TriggerEvent
from server.cards.verbs import Coded, Effect
from server.engine import casting, replacements, zone_rules
from server.engine.actions import Action, CastSpell, Decline
from server.engine.events import Event
from server.engine.state import Choice, DecisionKind, Game, GameObject, PendingTrigger, Zone
from server.engine.targeting import Target
from server.engine.zones import fresh_id, move, put_into_graveyards, sacrifice

#: The decision kinds this module poses and answers.
KINDS = (DecisionKind.CAST_MADNESS,)

#: Rule 702.35a: the triggered ability of madness (its source is the exiled card).
TRIGGER = TriggeredAbility(
    text="Madness: when this card is exiled this way, its owner may cast it by paying its "
         "madness cost rather than paying its mana cost. If that player doesn't, they put "
         "this card into their graveyard.",
    event=TriggerEvent.EXILED_WITH_MADNESS,
    effects=(Coded(code="madness"),),
)


# --- the static ability: discarded into exile (702.35a) ------------------------------------------


def discard(game: Game, object_ids: list[str], events: list[Event]) -> list[str]:
    """Rule 701.9a: discard these cards at the same time -- each goes from its owner's hand to
    their graveyard, except that a card with madness is exiled instead (702.35a, 614.1a); its
    madness ability triggers (603.2: it waits to be put on the stack). Returns the ids of the
    cards put into graveyards (see :func:`server.engine.zones.put_into_graveyards`)."""
    # Filed by name, like the graveyard arrivals: the hand's order must not become public.
    mad = sorted((game.objects[i] for i in object_ids if i in game.objects
                  and replacements.discarded_to(game.objects[i]) is Zone.EXILE),
                 key=lambda o: o.card.name)
    mad_ids = [o.id for o in mad]
    arrived = put_into_graveyards(game, [i for i in object_ids if i not in mad_ids], events)
    for obj in mad:
        exiled = move(game, obj.id, Zone.EXILE, events)  # 702.35a: "exiles it instead"
        if not game.players[exiled.owner].has_lost:  # rule 800.4d
            game.pending_triggers.append(PendingTrigger(
                fresh_id(game), exiled.owner, exiled.card, -1, exiled.id, TRIGGER))
    return arrived


def pay_cost(game: Game, spell: GameObject, paid_id: str, events: list[Event]) -> None:
    """Rule 601.2h: pay a spell's additional cost (601.2f) with ``paid_id``: a card from the
    hand is discarded (701.9a, so madness applies), a permanent sacrificed (701.21a). The
    spell remembers what paid it: its effects can find the object that card or permanent
    becomes in a public zone (400.7j) -- see :func:`find_discarded`."""
    for stale in [k for k in game.costs_paid if k not in game.objects]:
        del game.costs_paid[stale]  # spells that have left the stack
    game.costs_paid[spell.id] = paid_id
    paid = game.objects.get(paid_id)
    if paid is not None and paid.zone is Zone.HAND:
        discard(game, [paid_id], events)
    else:
        sacrifice(game, [paid_id], events)


# --- the triggered ability: cast it or put it into the graveyard (702.35a-b) -------------------


def coded_madness(game: Game, obj: GameObject, effect: Effect, players: list[int],
                  events: list[Event]) -> None:
    """The madness trigger ``obj`` resolves (608.2): if the card is still the object exiled
    this way, its owner decides whether to cast it (a CAST_MADNESS choice); a card that left
    exile is a new object the ability can't find (400.7), and nothing happens."""
    source = obj.ability.source_id if obj.ability is not None else ""
    card = game.objects.get(source)
    if card is None or card.zone is not Zone.EXILE:
        return
    game.choices.insert(0, Choice(DecisionKind.CAST_MADNESS, card.owner, [card.id]))


def cost(game: Game, card: CardDef, x: int, seat: int, spell_id: str, *,
         extra: tuple[Target, ...] = ()) -> ManaCost:
    """Rules 702.35b, 601.2f: the total mana cost of casting ``card`` by its madness ability:
    the madness cost (an alternative cost, 118.9) instead of the mana cost, plus cost
    increases -- those its targets add too, with ``extra`` targets besides those chosen --
    minus reductions (:func:`server.engine.casting.spell_cost`)."""
    assert card.madness_cost is not None
    return casting.spell_cost(game, replace(card, mana_cost=card.madness_cost), x, seat,
                              spell_id, extra=extra)


def castable(game: Game, seat: int, obj: GameObject) -> bool:
    """Whether ``seat`` can cast the exiled card ``obj`` by paying its madness cost now: some
    legal way to choose its modes and targets (601.2b-c, 700.2a) and to pay the total cost
    (601.2f-h) exists. Timing permissions don't matter: it is cast while the trigger resolves
    (608.2g)."""
    card = obj.card
    if card.is_land or card.madness_cost is None or obj.zone is not Zone.EXILE \
            or obj.owner != seat:
        return False
    return casting.choices_payable(game, seat, obj, cost(game, card, 0, seat, obj.id))


def options(game: Game, choice: Choice) -> tuple[Action, ...]:
    """The legal options of a CAST_MADNESS choice: cast the card (only if that is possible)
    or don't."""
    card = game.objects.get(choice.pool[0])
    cast: tuple[Action, ...] = (CastSpell(card.id),) \
        if card is not None and castable(game, choice.seat, card) else ()
    return (*cast, Decline())


def answer(game: Game, choice: Choice, action: Action, events: list[Event]) -> None:
    """Rule 702.35a: cast the card -- it becomes the topmost object of the stack and no player
    receives priority after it is cast (608.2g); or put it into its owner's graveyard, and if
    that is a public zone, effects referring to the discarded card find it there (400.7k)."""
    game.choices.remove(choice)
    card = game.objects.get(choice.pool[0])
    if card is None or card.zone is not Zone.EXILE:
        return
    if isinstance(action, CastSpell):
        casting.begin_cast(game, choice.seat, action, events, for_madness=True)
        if game.casting is not None:
            game.casting.had_priority = False  # rule 608.2g
        return
    discarded = card.came_from  # the card as it was in the hand
    new = move(game, card.id, Zone.GRAVEYARD, events)
    if new.zone in zone_rules.PUBLIC_ZONES and discarded:
        game.madness_found[discarded] = new.id  # rule 400.7k


# --- "the discarded card" (400.7j, 400.7k) ------------------------------------------------------


def find_discarded(game: Game, discarded_id: str) -> GameObject | None:
    """The object a discarded card (known by its id in the hand) is now, for an effect that
    refers to "the discarded card": where a madness trigger put it without its being cast, as
    long as it stays that object (400.7k); otherwise the object it became in the public zone
    it was discarded to -- the graveyard, or exile while its madness trigger waits (400.7j).
    A card cast with madness is found nowhere."""
    if discarded_id in game.madness_found:
        return game.objects.get(game.madness_found[discarded_id])
    return zone_rules.found(game, discarded_id)


def coded_discarded_card_to_library_bottom(game: Game, obj: GameObject, effect: Effect,
                                           players: list[int], events: list[Event]) -> None:
    """"Put the discarded card on the bottom of its owner's library." -- the card discarded to
    pay this spell's additional cost (Test Recycle), if it can be found (400.7j, 400.7k)."""
    paid = game.costs_paid.get(obj.id, "")
    card = find_discarded(game, paid) if paid else None
    if card is not None:
        move(game, card.id, Zone.LIBRARY, events, bottom=True)  # its owner's library (400.3)
