"""What kinds of abilities the permanents on the battlefield have: found once, asked often.

Deciding what a player may do scans the battlefield many times for rare abilities ("spend mana
as though it were mana of any color", cost changes, mana only for some spells, permissions to
play from other zones). :func:`board` answers those questions from one pass, and gives the
permanents each question is about, so a scan is skipped when no permanent has such an
ability -- the usual case.

Correctness (the summary equals what a scan of the battlefield would find now):

- It is keyed by the battlefield's membership: a permanent that enters or leaves (a new
  object, rule 400.7; a phasing change) changes the key, and the next call recomputes it.
- What it holds of each permanent is its card (never reassigned: a new characteristic means
  a new object) or a result of the layers (its rules changes, granted abilities), which only
  :func:`server.engine.layers.refresh` changes -- and it calls :func:`invalidate` unless
  the pass left every permanent without rules changes, as the summary already said (and
  without granted abilities: a permanent listed for those it had is only looked at in vain).
- Everything else (controller, tapped, counters) is read from the objects by the callers at
  the time they ask; the summary only narrows down which permanents to look at.
"""

from __future__ import annotations

from dataclasses import dataclass

from server.engine.state import Game, GameObject


@dataclass(slots=True)
class Board:
    """The permanents with each kind of ability, in battlefield order (fixed once made, but
    for :attr:`at_start`)."""

    #: The battlefield's ids when it was made (a copy, never changed).
    key: list[str]
    #: "Spend mana as though it were mana of any color" (rule 609.4b).
    any_color: tuple[GameObject, ...]
    #: Sources of mana that may be spent only on some spells (rule 106.6).
    mana_only: tuple[GameObject, ...]
    #: A triggered ability (603) of its own or granted by the layers (613.1f).
    triggering: tuple[GameObject, ...]
    #: A mana ability (605) of either kind: {T} or paid from the pool.
    mana_sources: tuple[GameObject, ...]
    #: A mana ability whose cost is mana, paid from the pool (605.1a: Prismite's {2}).
    converters: tuple[GameObject, ...]
    #: An activated ability (602) of its own or granted by the layers (613.1f).
    activated: tuple[GameObject, ...]
    #: A static ability changing spells' costs (601.2f): taxes on noncreature spells and
    #: increases or reductions by a filter.
    cost_changers: tuple[GameObject, ...]
    #: "Spells your opponents cast that target [this] cost {3} more / an additional 3 life"
    #: (601.2f): what a spell pays more for choosing it as a target.
    taxed: tuple[GameObject, ...]
    #: "You may play an additional land on each of your turns" (305.2).
    extra_lands: tuple[GameObject, ...]
    #: Rules changes the layers gave it: restrictions, or "you may cast [filter] spells from
    #: the top of your library" (``GameObject.restrictions`` or ``top_casts`` not empty).
    restricted: tuple[GameObject, ...]
    #: A static ability or a characteristic-defining P/T (the layers may apply, 613).
    layered: tuple[GameObject, ...]
    #: Legendary permanents (the legend rule, 704.5j).
    legendary: tuple[GameObject, ...]
    #: A state trigger (603.8).
    state_triggers: bool
    #: Every permanent, in battlefield order (the objects of :attr:`key`).
    permanents: tuple[GameObject, ...]
    #: Set by the layers when nothing applied to these permanents (none had a static
    #: ability, a characteristic-defining P/T or a sticker, each was under its owner's
    #: control) and they were left as the layers' start leaves them (613.1: nothing granted
    #: or computed): while there is no resolved effect, the next pass has nothing to do.
    #: It stays true only while that does: the permanents are the same (the key), their
    #: cards don't change, only the layers change what they compute and who controls a
    #: permanent, a pass that applies something invalidates the summary, and so does
    #: putting on a sticker (:func:`server.engine.stickers.put_sticker`).
    at_start: bool = False


def board(game: Game) -> Board:
    """The summary of ``game``'s battlefield now (made again only when it changed)."""
    found = game.board
    if found is not None and found.key == game.battlefield:
        return found
    any_color: list[GameObject] = []
    mana_only: list[GameObject] = []
    triggering: list[GameObject] = []
    sources: list[GameObject] = []
    activated: list[GameObject] = []
    cost_changers: list[GameObject] = []
    taxed: list[GameObject] = []
    extra_lands: list[GameObject] = []
    restricted: list[GameObject] = []
    converters: list[GameObject] = []
    layered: list[GameObject] = []
    legendary: list[GameObject] = []
    state_triggers = False
    objects = game.objects
    permanents = tuple(objects[oid] for oid in game.battlefield)
    for obj in permanents:  # one pass, in battlefield order
        card = obj.card
        if card.spend_as_any_color:
            any_color.append(obj)
        if card.mana_only_for:
            mana_only.append(obj)
        if card.triggers or obj.granted_triggers:
            triggering.append(obj)
        if card.mana_abilities or card.mana_ability_cost is not None:
            sources.append(obj)
            if card.mana_ability_cost is not None:
                converters.append(obj)
        if card.abilities or obj.granted_abilities:
            activated.append(obj)
        if card.noncreature_tax or card.spell_costs:
            cost_changers.append(obj)
        if card.targeted_cost is not None:
            taxed.append(obj)
        if card.extra_lands:
            extra_lands.append(obj)
        if obj.restrictions or obj.top_casts:
            restricted.append(obj)
        if card.statics or card.power_cda:
            layered.append(obj)
        if card.legendary:
            legendary.append(obj)
        if card.state_triggers:
            state_triggers = True
    made = Board(list(game.battlefield), tuple(any_color), tuple(mana_only), tuple(triggering),
                 tuple(sources), tuple(converters),
                 tuple(activated), tuple(cost_changers), tuple(taxed), tuple(extra_lands),
                 tuple(restricted),
                 tuple(layered), tuple(legendary), state_triggers, permanents)
    game.board = made
    return made


def invalidate(game: Game) -> None:
    """Forget the summary: the layers have just changed what it holds of the permanents."""
    game.board = None


@dataclass(slots=True)
class Graveyard:
    """The cards of one graveyard with rare abilities, in graveyard order: found once for
    its contents, asked at every decision (what may be cast, what may trigger).

    Correct for the same reason as :class:`Board`: it is keyed by the graveyard's ids (a card
    that enters or leaves, or a new order, changes the key), and it holds only what the
    cards say -- an object's card is never reassigned (a new characteristic is a new object
    with a new id, rule 400.7)."""

    #: The graveyard's ids when it was made (a copy, never changed).
    key: list[str]
    #: A triggered ability that functions in the graveyard (rule 113.6k).
    triggering: tuple[str, ...]
    #: Its own permission to be cast from the graveyard (601.2f: ``graveyard_cast``).
    castable: tuple[str, ...]


def graveyard(game: Game, seat: int) -> Graveyard:
    """The summary of ``seat``'s graveyard now (made again only when it changed)."""
    ids = game.players[seat].graveyard
    found = game.graveyards.get(seat)
    if found is not None and found.key == ids:
        return found
    objects = game.objects
    cards = [objects[i].card for i in ids]
    made = Graveyard(list(ids),
                     tuple(i for i, c in zip(ids, cards, strict=True)
                           if c.triggers_from_graveyard),
                     tuple(i for i, c in zip(ids, cards, strict=True)
                           if c.graveyard_cast is not None))
    game.graveyards[seat] = made
    return made
