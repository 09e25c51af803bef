"""Zone rules (400-408) that go beyond moving an object: the exceptions to "a moved object is
a new object" (400.7a-400.7j), exiling an exiled card (400.8, 406.7), an object turned face
down in or put into the command zone again (400.9, 400.10), cards brought in from outside the
game (400.11b), actions on a whole zone (400.12), playing with the top card of a library
revealed and playing it (401.5, 401.6), "Nth from the top" (401.7), cards exiled with an
object and piles of face-down exiled cards (406.4-406.6), and permissions to play cards from
other zones than the hand (Future Sight, Kess, flashback).

Rule 400.7: a moved object is a new object with no memory of its previous existence. The
engine keeps ``GameObject.came_from`` (never shown to anyone) only so that the exceptions of
400.7 can find the new object -- and only in a public zone.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final, TypeAlias, assert_never

from server.cards.model import ObjectRef
from server.cards.verbs import (
    ChooseExiled,
    ExileLinked,
    ExileTopFaceDown,
    ExileTopPlayable,
    ExileZone,
    GrantFlashback,
    MoveCommandCards,
    MoveFound,
    MoveLinked,
    PermitCastLinked,
    PreventDamageFrom,
    PutIntoCommand,
    PutIntoLibraryBeneath,
    ShuffleIntoLibrary,
    TurnFaceDown,
    Wish,
    who_of,
)
from server.engine import filters, looking, permissions, replacements
from server.engine.actions import (
    Action,
    ChooseCard,
    ChooseExilePile,
    ChooseOutsideCard,
    Decline,
)
from server.engine.board import board, graveyard
from server.engine.events import Event
from server.engine.replacements import ExileInstead, FlashbackExile
from server.engine.state import (
    Choice,
    ContinuousEffect,
    DecisionKind,
    Game,
    GameObject,
    Zone,
)
from server.engine.zones import (
    create_object,
    fresh_id,
    move,
    next_timestamp,
    restamp_stickers,
    shuffle_library,
)

# Enum members read in this module's functions, bound to module names once: in Python
# 3.11 reading a member as a class attribute (``Zone.BATTLEFIELD``) goes through the slow
# attribute hook of ``EnumType.__getattr__``, several times the cost of reading a global.
# They are the same objects (``is`` holds).
_DECISION_KIND_CHOOSE_EXILED_CARD: Final = DecisionKind.CHOOSE_EXILED_CARD
_DECISION_KIND_CHOOSE_OUTSIDE_CARD: Final = DecisionKind.CHOOSE_OUTSIDE_CARD
_ZONE_BATTLEFIELD: Final = Zone.BATTLEFIELD
_ZONE_COMMAND: Final = Zone.COMMAND
_ZONE_EXILE: Final = Zone.EXILE
_ZONE_GRAVEYARD: Final = Zone.GRAVEYARD
_ZONE_HAND: Final = Zone.HAND
_ZONE_LIBRARY: Final = Zone.LIBRARY

Target = tuple[str, int | str]

#: The effect verbs this module performs (see :func:`perform`).
VERBS = (MoveFound, PutIntoLibraryBeneath, ShuffleIntoLibrary, Wish, ExileLinked, MoveLinked,
         ExileZone, PutIntoCommand, TurnFaceDown, PreventDamageFrom, ExileTopFaceDown,
         ChooseExiled, GrantFlashback, MoveCommandCards, ExileTopPlayable, PermitCastLinked)
#: The effects of :data:`VERBS`.
ZoneRuleEffect: TypeAlias = (
    MoveFound | PutIntoLibraryBeneath | ShuffleIntoLibrary | Wish | ExileLinked | MoveLinked |
    ExileZone | PutIntoCommand | TurnFaceDown | PreventDamageFrom |
    ExileTopFaceDown | ChooseExiled | GrantFlashback | MoveCommandCards | ExileTopPlayable |
    PermitCastLinked)

#: The decision kinds this module poses and answers.
KINDS = (DecisionKind.CHOOSE_OUTSIDE_CARD, DecisionKind.CHOOSE_EXILED_CARD)

#: Public zones (rule 400.2): where the exceptions of 400.7 may find a moved object.
PUBLIC_ZONES = (Zone.BATTLEFIELD, Zone.GRAVEYARD, Zone.STACK, Zone.EXILE, Zone.COMMAND,
                Zone.ANTE)

#: A static ability's rules change: "Play with the top card of your library revealed."
TOP_REVEALED = "top_revealed"
#: A static ability's rules change: "You may play the top card of your library."
PLAY_FROM_TOP = "play_from_top"
#: "During each of your turns, you may cast an instant or sorcery card from your graveyard.
#: If a card cast this way would be put into your graveyard this turn, exile it instead."
CAST_FROM_GRAVEYARD = "cast_from_graveyard"
#: "During each of your turns, you may play a land card from your graveyard. A land played
#: this way enters tapped." (Test Wayfinder)
PLAY_LAND_FROM_GRAVEYARD = "play_land_from_graveyard"
#: "During each of your turns, you may cast a creature spell from your graveyard. A creature
#: cast this way has haste." (Test Grave Banner)
CAST_CREATURE_FROM_GRAVEYARD = "cast_creature_from_graveyard"
#: "You may cast instant spells from among face-down cards in exile." (Test Hidden Cache)
CAST_FROM_FACE_DOWN_EXILE = "cast_instants_from_face_down_exile"
#: "You may look at the top card of your library any time" (rule 401.5): shown to its
#: controller only (Radha, Heart of Keld).
LOOK_AT_TOP = "look_at_top"
#: "You may play lands from the top of your library" (Radha, Heart of Keld): the land-play
#: rules still apply (305.2).
PLAY_LANDS_FROM_TOP = "play_lands_from_top"
#: The restrictions that let a player play cards from outside their hand.
_PERMISSIONS = frozenset({PLAY_FROM_TOP, PLAY_LANDS_FROM_TOP, CAST_FROM_GRAVEYARD,
                          PLAY_LAND_FROM_GRAVEYARD,
                          CAST_CREATURE_FROM_GRAVEYARD, CAST_FROM_FACE_DOWN_EXILE})

_ZONES = {"hand": Zone.HAND, "battlefield": Zone.BATTLEFIELD, "graveyard": Zone.GRAVEYARD,
          "exile": Zone.EXILE, "library": Zone.LIBRARY}


# --- finding the new object (400.7e, 400.7j) ------------------------------------------------


def found(game: Game, old_id: str) -> GameObject | None:
    """The object ``old_id`` is now, for the exceptions of rule 400.7: itself if it hasn't
    moved; else the new object it became by its last move (the zone it moved to, 400.7e) if
    that zone is public (400.7e, 400.7j). A card that moved on again, or into a hidden
    zone, can't be found."""
    obj = game.objects.get(old_id)
    if obj is not None:
        return obj
    child = next((o for o in game.objects.values() if o.came_from == old_id), None)
    if child is None or child.zone not in PUBLIC_ZONES or child.is_ability:
        return None
    return child


def spell_became_permanent(game: Game, spell_id: str) -> None:
    """Rule 400.7a: effects from spells and abilities that changed the characteristics or
    the controller of a permanent spell on the stack continue to apply to the permanent
    that spell becomes as it resolves (608.3a); so do abilities granted to the spell by a
    static ability's permission to cast it (400.7b) and prevention effects for damage from
    that spell (400.7c)."""
    permanent = found(game, spell_id)
    if permanent is None or permanent.zone is not _ZONE_BATTLEFIELD:
        return
    game.effects[:] = [
        replace(e, affected=tuple(permanent.id if a == spell_id else a for a in e.affected))
        if spell_id in e.affected else e for e in game.effects]
    # Rule 400.7c: prevention effects for damage from the spell go on with the permanent.
    replacements.follow(game, spell_id, permanent.id)


def _referenced(obj: GameObject, effect: ZoneRuleEffect, targets: list[Target]) -> list[str]:
    """The ids an effect refers to: its source ("[this]") or its (previous effect's)
    targets ("that card")."""
    if who_of(effect) is ObjectRef.SELF:
        return [obj.ability.source_id if obj.ability is not None else obj.id]
    return [str(ref) for kind, ref in targets if kind == "object"]


def _source_id(obj: GameObject) -> str:
    return obj.ability.source_id if obj.ability is not None else obj.id


def _move_found(game: Game, obj: GameObject, effect: MoveFound, targets: list[Target],
                events: list[Event]) -> None:
    """Rules 400.7e, 400.7j: "return that card to the battlefield", "return [this] to its
    owner's hand" -- the new object the referenced one became, in the public zone it
    moved to, goes to ``destination`` (onto the battlefield under the effect's controller) --
    with ``zones``, only from one of those zones ("from your graveyard"); ``tapped``: it
    enters tapped."""
    to = _ZONES[effect.destination]
    for ref in _referenced(obj, effect, targets):
        card = found(game, ref)
        if card is None or card.zone is to:
            continue
        if effect.zones and card.zone not in [_ZONES[z] for z in effect.zones]:
            continue  # "return [this] from your graveyard": it is no longer there (400.7)
        new = move(game, card.id, to, events,
                   controller=obj.controller if to is _ZONE_BATTLEFIELD else None)
        if new.zone is _ZONE_BATTLEFIELD and effect.tapped:
            # "... to the battlefield tapped" (614.1d) -- where it went: a card exiled
            # instead (614.1a, Containment Priest) isn't tapped (110.5: only permanents are)
            new.tapped = True


# --- "Nth from the top" (401.7) ----------------------------------------------------------------


def put_beneath(game: Game, object_id: str, above: int, events: list[Event]) -> GameObject:
    """Rule 401.7: put an object into its owner's library just beneath the top ``above``
    cards ("second from the top": ``above`` 1). If that library has fewer cards than the
    position asked for, it goes on the bottom."""
    new = move(game, object_id, _ZONE_LIBRARY, events)
    library = game.player(new.owner).library
    library.remove(new.id)
    position = above + 1  # "Nth from the top"
    if len(library) < position:
        library.insert(0, new.id)  # fewer than N cards: on the bottom
    else:
        library.insert(len(library) - above, new.id)  # the top is the last element
    return new


# --- a whole zone (400.12) and exile (400.8, 406.5-406.7) ------------------------------------


def shuffle_into_library(game: Game, seat: int, zones: tuple[str, ...],
                         events: list[Event]) -> None:
    """Rule 400.12: "Shuffle your hand [and graveyard] into your library" is done to every
    card in those zones (each becomes a new object in the library, 400.7); the zones
    themselves are unaffected. Then the library is shuffled (701.24a)."""
    for name in zones:
        for oid in list(looking.zone_cards(game, name, seat)):
            if game.objects[oid].owner == seat:
                move(game, oid, _ZONE_LIBRARY, events)  # to its owner's library (400.3)
    shuffle_library(game, seat)


def reexile(game: Game, object_id: str) -> GameObject:
    """Rules 400.8, 406.7: an exiled object that is exiled doesn't change zones but becomes a
    new object that has just been exiled -- in no pile of cards exiled with anything
    (406.6), newest in the exile zone."""
    return _anew(game, object_id)


def put_into_command(game: Game, object_id: str, events: list[Event]) -> GameObject:
    """Put an object into the command zone; one already there doesn't change zones but
    becomes a new object that has just entered the command zone (rule 400.10)."""
    if game.objects[object_id].zone is _ZONE_COMMAND:
        return _anew(game, object_id)
    return move(game, object_id, _ZONE_COMMAND, events)


def turn_face_down(game: Game, object_id: str) -> GameObject:
    """Rule 400.9: a face-up object in the command zone turned face down becomes a new
    object -- one with no characteristics (708.2), so its abilities don't work."""
    new = _anew(game, object_id)
    new.face_down = True
    return new


def _anew(game: Game, object_id: str) -> GameObject:
    """The object becomes a new one in the same zone (exile or the command zone), without
    changing zones: a new id and timestamp, the newest object there, no other memory."""
    old = game.objects.pop(object_id)
    zone = game.zone_list(old.zone, old.owner)
    zone.remove(object_id)
    new = GameObject(
        id=fresh_id(game), card=old.card, owner=old.owner, controller=old.owner,
        zone=old.zone, controlled_since=game.turn, face_down=old.face_down,
        base_controller=old.owner, timestamp=next_timestamp(game), token=old.token,
        came_from=object_id, stickers=list(old.stickers),  # 123.5: still in a public zone
    )
    restamp_stickers(game, new)  # rule 613.7k
    game.objects[new.id] = new
    zone.append(new.id)
    return new


def is_card(obj: GameObject) -> bool:
    """Whether an object is a card: not a token (111.1), an emblem (114.5), a copy of a
    spell (707.10) or an ability (113.7)."""
    return not (obj.is_token or obj.spell_copy or obj.is_ability
                or "Emblem" in obj.card.card_types)


def move_command_cards(game: Game, seat: int, to: Zone, events: list[Event]) -> None:
    """"Put each card [seat] owns in the command zone into its owner's [zone]": each card
    moves as a new object (400.7) -- except that a conspiracy, phenomenon, plane, scheme or
    vanguard card remains in the command zone, the same object (rule 400.4b)."""
    for oid in [i for i in game.command if game.objects[i].owner == seat
                and is_card(game.objects[i])]:
        move(game, oid, to, events)


def exile(game: Game, object_id: str, events: list[Event], *, linked_to: str = "") -> GameObject:
    """Exile an object (rule 701.13a); an object already in exile becomes a new one (400.8).
    ``linked_to``: the object whose ability exiled it -- its pile of cards "exiled with"
    that object (406.5, 406.6)."""
    obj = game.objects[object_id]
    new = reexile(game, object_id) if obj.zone is _ZONE_EXILE else \
        move(game, object_id, _ZONE_EXILE, events)
    new.exiled_with = linked_to
    return new


def _on_battlefield(game: Game, object_id: str) -> bool:
    found = game.objects.get(object_id)
    return found is not None and found.zone is _ZONE_BATTLEFIELD


def exile_linked(game: Game, object_id: str, source_id: str, until_leaves: bool,
                 events: list[Event]) -> None:
    """Exile a card with the object ``source_id`` (406.6); "until [it] leaves the
    battlefield" (610.3): remembered to return to the zone it was in -- not exiled at all if
    the source has already left (610.3a-b)."""
    if until_leaves and not _on_battlefield(game, source_id):
        return
    before = game.objects[object_id].zone
    new = exile(game, object_id, events, linked_to=source_id)
    if until_leaves:
        game.exiled_until_leaves.append((source_id, new.id, before))


def exiled_with(game: Game, source_id: str) -> list[str]:
    """Rule 406.6: the cards in exile exiled with the object ``source_id`` (its pile, 406.5),
    oldest first."""
    return [i for i in game.exile if game.objects[i].exiled_with == source_id]


def exile_top_face_down(game: Game, seat: int, count: int, *, linked_to: str, pile: str,
                        may_look: bool, events: list[Event]) -> None:
    """Exile the top ``count`` cards of ``seat``'s library face down (406.3): nobody may look
    at them -- unless ``may_look``: "you may look at it for as long as it remains exiled"
    (406.3: ``seat`` goes on seeing it until it leaves exile). They form one pile --
    exiled at the same time, the same way (406.4) -- of cards exiled with ``linked_to``
    (406.6)."""
    library = game.player(seat).library
    exiled = []
    for oid in list(reversed(library[-count:])) if count > 0 else []:
        new = move(game, oid, _ZONE_EXILE, events, face_down=True)
        new.exiled_with, new.exile_pile = linked_to, pile
        exiled.append(new.id)
    if may_look:
        looking.look(game, exiled, (seat,), f"{EXILE_LOOK}{pile}", events)


#: The key prefix of looks at face-down exiled cards (406.3); they end as the cards leave.
EXILE_LOOK = "exile-look-"


def start_exile_choice(game: Game, seat: int, effect: ChooseExiled) -> None:
    """Rule 406.4: ``seat`` is instructed to choose a card in exile."""
    if game.exile:
        game.choices.insert(0, Choice(_DECISION_KIND_CHOOSE_EXILED_CARD, seat,
                                      list(game.exile), effect=effect))


def _exile_options(game: Game, choice: Choice) -> tuple[Action, ...]:
    """Rule 406.4: a face-up card, or a face-down one the chooser may look at (406.3), can
    be chosen itself; the other face-down cards only by their pile."""
    seen = looking.visible_hidden_ids(game, choice.seat)
    singles: list[Action] = []
    piles: dict[str, list[str]] = {}
    for oid in choice.pool:
        obj = game.objects.get(oid)
        if obj is None or obj.zone is not _ZONE_EXILE:
            continue
        if obj.face_down and oid not in seen:
            piles.setdefault(obj.exile_pile, []).append(oid)
        else:
            singles.append(ChooseCard(oid))
    return (*singles, *(ChooseExilePile(tuple(ids)) for ids in piles.values()))


def _answer_exile_choice(game: Game, choice: Choice, action: Action,
                         events: list[Event]) -> None:
    # Rule 406.4: a chosen pile gives a card at random from it.
    chosen = action.object_ids[game.rng.randbelow(len(action.object_ids))] \
        if isinstance(action, ChooseExilePile) else getattr(action, "object_id", "")
    assert isinstance(choice.effect, ChooseExiled) and chosen in game.objects
    move(game, chosen, _ZONES[choice.effect.destination], events)


# --- outside the game (400.11b) ------------------------------------------------------------------


def start_wish(game: Game, seat: int, effect: Wish) -> None:
    """Rule 400.11b: "You may reveal a [type] card you own from outside the game and put it
    into your hand" -- ``seat`` chooses among the cards of that type in their sideboard
    (400.11a), or none."""
    sideboard = game.player(seat).sideboard
    pool = [str(i) for i, card in enumerate(sideboard) if card.is_type(effect.card_type)]
    game.choices.insert(0, Choice(_DECISION_KIND_CHOOSE_OUTSIDE_CARD, seat, pool, optional=True,
                                  effect=effect, owner=seat))


def _bring_in(game: Game, choice: Choice, action: ChooseOutsideCard,
              events: list[Event]) -> None:
    """Reveal the chosen card (701.20a) and put it into its owner's hand: it is in the game
    from now on, until the game ends or it is removed from the game (400.11b)."""
    card = game.player(choice.seat).sideboard.pop(action.index)
    new = create_object(game, card, choice.seat, _ZONE_HAND)
    looking.look(game, [new.id], looking.everyone(game), "", events)
    looking.end_looks(game, "")


# --- the top card of a library revealed (401.5, 401.6) ---------------------------------------


#: The key prefix of looks at the top card of a library played revealed (401.5).
TOP_LOOK = "top-revealed-"


def _look_key(seat: int) -> str:
    return f"{TOP_LOOK}{seat}"


def refresh_revealed_tops(game: Game, events: list[Event]) -> None:
    """Rules 401.5, 401.6: a player "plays with the top card of their library revealed"
    while they control a permanent whose static ability says so: that card is shown to
    every player (a look, so views show it).

    401.5: while a spell is being cast or an ability activated, a new top card isn't
    revealed until that is done. 401.6: a card that stops being revealed while it stays in
    the library becomes a new object (so if it's revealed again, nobody can tell it was
    the card seen before). Also ends the looks at face-down exiled cards that have all
    left exile (406.3). Called as the game advances, after the layers are applied."""
    # Rule 406.3: a look at face-down exiled cards ends once they have all left exile.
    if game.looks:
        game.looks[:] = [lk for lk in game.looks if not lk.source.startswith(EXILE_LOOK)
                         or any(i in game.objects for i in lk.ids)]
    if game.casting is not None:
        return  # rule 401.5
    summary = board(game)
    if not summary.restricted and not game.revealed_tops:
        return  # nothing is revealed, nor should be (the usual case)
    # Per library owner: the top card and who sees it -- every player (and spectators) if
    # it is played revealed, else only the player who may look at it (401.5).
    wanted: dict[int, tuple[str, tuple[int, ...]]] = {}
    for obj in summary.restricted:
        revealed = TOP_REVEALED in obj.restrictions
        if not revealed and LOOK_AT_TOP not in obj.restrictions:
            continue
        seat = obj.controller
        library = game.player(seat).library
        if library and not game.players[seat].has_lost:
            seats = looking.everyone(game) if revealed or \
                wanted.get(seat, ("", ()))[1] == looking.everyone(game) else (seat,)
            wanted[seat] = (library[-1], seats)
    for seat in sorted(game.revealed_tops):
        oid = game.revealed_tops[seat]
        if wanted.get(seat, ("", ()))[0] == oid:
            if _top_seats(game, seat) != wanted[seat][1]:  # now revealed, or no longer
                looking.end_looks(game, _look_key(seat))
                looking.look(game, [oid], wanted[seat][1], _look_key(seat), events)
            continue
        del game.revealed_tops[seat]
        looking.end_looks(game, _look_key(seat))
        card = game.objects.get(oid)
        if card is not None and card.zone is _ZONE_LIBRARY:
            _reissue(game, oid)  # rule 401.6
    for seat in sorted(wanted):
        if seat not in game.revealed_tops:
            game.revealed_tops[seat] = wanted[seat][0]
            looking.look(game, [wanted[seat][0]], wanted[seat][1], _look_key(seat), events)


def _top_seats(game: Game, seat: int) -> tuple[int, ...]:
    """Who sees ``seat``'s top card by :func:`refresh_revealed_tops` now."""
    key = _look_key(seat)
    return next((lk.seats for lk in game.looks if lk.source == key), ())


def playable_elsewhere(game: Game, seat: int) -> list[str]:
    """Cards outside ``seat``'s hand they may play now, by a permission from an effect (the
    caller checks timing and costs): the top card of their library (Future Sight), cards in
    their graveyard (Kess, Test Wayfinder, flashback, Test Grave Banner) and face-down
    exiled cards they may look at (Test Hidden Cache, 406.3b)."""
    own = list(graveyard(game, seat).castable)  # its own permission (601.2f)
    if not permissions.any_for(game, seat) and not _grants_permission(game, seat):
        return own  # the usual case, found in one pass over the battlefield
    return [*own, *playable_in_library(game, seat), *castable_from_graveyard(game, seat),
            *playable_from_exile(game, seat),
            *playable_lands_in_graveyard(game, seat), *flashback_cards(game, seat),
            *creatures_castable_from_graveyard(game, seat),
            *castable_from_face_down_exile(game, seat), *castable_linked(game, seat)]


def castable_linked(game: Game, seat: int) -> list[str]:
    """Cards exiled with a source whose effect lets ``seat`` cast a spell of that type from
    among them this turn, without paying its mana cost (timing still applies; 406.6,
    118.9: :class:`~server.engine.permissions.CastLinked`)."""
    return permissions.in_exile(game, seat, permissions.CastLinked)


def _grants_permission(game: Game, seat: int) -> bool:
    """Whether a permanent ``seat`` controls gives them any permission to play cards from
    outside their hand (the restrictions :func:`playable_elsewhere` looks for)."""
    for obj in board(game).restricted:
        if obj.controller == seat and (obj.top_casts
                                       or not _PERMISSIONS.isdisjoint(obj.restrictions)):
            return True
    return False


def exile_top_playable(game: Game, seat: int, source: str, *, this_turn: bool,
                       events: list[Event]) -> None:
    """"Exile the top card of your library. You may play that card until you exile another
    card with [source]" (or "this turn"): ``seat`` may play it while it stays in exile (a new
    object elsewhere, 400.7) -- even after the source has left the battlefield."""
    library = game.player(seat).library
    if not this_turn:  # the card this source exiled before can't be played any more
        permissions.revoke_exile_plays(game, source)
    if not library:
        return
    card = exile(game, library[-1], events)
    permissions.grant_play(game, seat, card.id, source=source,
                           turn=game.turn if this_turn else None)


def playable_from_exile(game: Game, seat: int) -> list[str]:
    """The exiled cards ``seat`` may play now by a permission of
    :class:`~server.engine.permissions.PlayFromExile` (timing and costs still apply, 601.3,
    305.2)."""
    return permissions.in_exile(game, seat, permissions.PlayFromExile)


def castable_from_face_down_exile(game: Game, seat: int) -> list[str]:
    """Rule 406.3b: "You may cast instant spells from among face-down cards in exile" --
    only a card ``seat`` may look at (406.3) and whose spell is an instant. It is turned
    face up as it is cast (406.3a: it moves to the stack face up)."""
    if not any(CAST_FROM_FACE_DOWN_EXILE in game.objects[i].restrictions
               and game.objects[i].controller == seat for i in game.battlefield):
        return []
    seen = looking.visible_hidden_ids(game, seat)
    return [i for i in game.exile if game.objects[i].face_down and i in seen
            and game.objects[i].owner == seat and game.objects[i].card.is_type("Instant")]


def _banners(game: Game, seat: int) -> bool:
    return game.active == seat and any(
        CAST_CREATURE_FROM_GRAVEYARD in game.objects[i].restrictions
        and game.objects[i].controller == seat for i in game.battlefield)


def creatures_castable_from_graveyard(game: Game, seat: int) -> list[str]:
    """Test Grave Banner: "During each of your turns, you may cast a creature spell from your
    graveyard" (timing and costs still apply)."""
    return [i for i in game.player(seat).graveyard
            if game.objects[i].card.creature] if _banners(game, seat) else []


def grant_flashback(game: Game, seat: int) -> None:
    """"Each instant and sorcery card in your graveyard gains flashback until end of turn.
    The flashback cost is equal to its mana cost": the cards there now (611.2c)."""
    for i in game.player(seat).graveyard:
        if game.objects[i].card.is_type("Instant") or game.objects[i].card.is_type("Sorcery"):
            permissions.grant(game, permissions.FlashbackGranted(game.turn, i))


def flashback_cards(game: Game, seat: int) -> list[str]:
    """Cards in ``seat``'s graveyard with flashback now (702.34a): cast from there for their
    flashback cost -- their mana cost -- with the card's normal timing."""
    granted = permissions.flashback(game, seat)
    return [i for i in granted if i not in castable_from_graveyard(game, seat)] \
        if granted else []


def playable_lands_in_graveyard(game: Game, seat: int) -> list[str]:
    """Test Wayfinder: "During each of your turns, you may play a land card from your
    graveyard" (the land-play rules still apply, 305.2)."""
    allowed = game.active == seat and any(
        PLAY_LAND_FROM_GRAVEYARD in game.objects[i].restrictions
        and game.objects[i].controller == seat for i in game.battlefield)
    return [i for i in game.player(seat).graveyard
            if game.objects[i].card.is_land] if allowed else []


def played_from(game: Game, origin: Zone, land: GameObject) -> None:
    """Rule 400.7i: a land played with a permission from an effect -- the effect's other
    parts find the new object on the battlefield: "A land played this way enters tapped"
    (Test Wayfinder; 614.1d)."""
    if origin is _ZONE_GRAVEYARD and land.zone is _ZONE_BATTLEFIELD and any(
            PLAY_LAND_FROM_GRAVEYARD in game.objects[i].restrictions
            and game.objects[i].controller == land.controller for i in game.battlefield):
        land.tapped = True


def castable_from_graveyard(game: Game, seat: int) -> list[str]:
    """Kess, Dissident Mage: "During each of your turns, you may cast an instant or sorcery
    card from your graveyard" -- once each turn for each such permanent (its permission is
    used up when a card is cast this way)."""
    if game.active != seat or not _graveyard_permissions(game, seat):
        return []
    return [i for i in game.player(seat).graveyard
            if game.objects[i].card.is_type("Instant") or game.objects[i].card.is_type("Sorcery")]


def _graveyard_permissions(game: Game, seat: int) -> list[str]:
    """The permanents ``seat`` controls whose permission to cast an instant or sorcery card
    from their graveyard is unused this turn."""
    return [i for i in game.battlefield if CAST_FROM_GRAVEYARD in game.objects[i].restrictions
            and game.objects[i].controller == seat
            and not permissions.used(game, i)]


def cast_from(game: Game, seat: int, origin: Zone, spell: GameObject) -> None:
    """Rule 400.7h: a card cast with a permission from an effect -- the effect's other parts
    find the new object on the stack: a card cast from the graveyard with Kess's
    permission uses it up, and "if a card cast this way would be put into your graveyard
    this turn, exile it instead" applies to that spell (see :func:`server.engine.zones.move`)."""
    if origin is not _ZONE_GRAVEYARD or spell.card.graveyard_cast is not None:
        return  # (a card cast by its own permission uses no other, 601.2f)
    if spell.card.creature and _banners(game, seat):
        # Rules 400.7b, 611.3d: "A creature cast this way has haste" -- granted to the
        # permanent spell, it goes on applying to the permanent it becomes; no duration is
        # stated, so until the end of the game.
        game.effects.append(ContinuousEffect(next_timestamp(game), (spell.id,),
                                             gains=("Haste",), lasting=True))
        return
    if permissions.flashback_cast(game, spell):
        # Rule 400.7g: the granted flashback goes on applying to the spell on the stack.
        replacements.register(game, FlashbackExile(spell.id))
        return
    sources = _graveyard_permissions(game, seat)
    if not sources:
        return
    permissions.use(game, sources[0])
    # "If a card cast this way would be put into your graveyard this turn, exile it instead."
    replacements.register(game, ExileInstead(spell.id, game.turn))  # rule 614.1a


def playable_in_library(game: Game, seat: int) -> list[str]:
    """Cards of ``seat``'s library they may play now: the top card, while they control a
    permanent saying "You may play the top card of your library" (Future Sight), a land
    card there while one says "you may play lands from the top of your library" (Radha),
    or a spell card a permanent's filter describes while it says "You may cast [filter]
    spells from the top of your library" (Conspicuous Snoop; casting isn't playing a land,
    so never a land card). The timing and cost rules still apply (the caller checks them)."""
    library = game.player(seat).library
    if not library or game.objects[library[-1]].owner != seat:
        return []
    top = game.objects[library[-1]]
    lands = top.card.is_land
    for i in game.battlefield:
        permanent = game.objects[i]
        if permanent.controller != seat:
            continue
        if PLAY_FROM_TOP in permanent.restrictions or (
                lands and PLAY_LANDS_FROM_TOP in permanent.restrictions) or (
                not lands and any(filters.matches(game, top, spec, seat, i)
                                  for spec in permanent.top_casts)):
            return [top.id]
    return []


def _reissue(game: Game, object_id: str) -> None:
    """Rule 401.6: the hidden card becomes a new object (a new id, in place). A look or a
    choice still under way that holds the card -- a scry begun by the same action that
    ended the reveal -- goes on with it under its new id (701.22a: its player is still
    looking at it)."""
    obj = game.objects.pop(object_id)
    library = game.player(obj.owner).library
    obj.id = fresh_id(game)
    obj.came_from = ""
    game.objects[obj.id] = obj
    library[library.index(object_id)] = obj.id
    for ids in (*(c.pool for c in game.choices), *(c.picked for c in game.choices),
                *(lk.ids for lk in game.looks)):
        if object_id in ids:
            ids[ids.index(object_id)] = obj.id


# --- effects and decisions ---------------------------------------------------------------------


def perform(game: Game, obj: GameObject, effect: ZoneRuleEffect, targets: list[Target], *,
            players: list[int], amount: int, events: list[Event]) -> None:
    """Perform one of :data:`VERBS` for the spell or ability ``obj`` (rule 608.2c)."""
    if isinstance(effect, MoveFound):
        _move_found(game, obj, effect, targets, events)
    elif isinstance(effect, PutIntoLibraryBeneath):
        for ref in _referenced(obj, effect, targets):
            if ref in game.objects and game.objects[ref].zone is _ZONE_BATTLEFIELD:
                put_beneath(game, ref, amount, events)
    elif isinstance(effect, ShuffleIntoLibrary):
        for seat in players:
            shuffle_into_library(game, seat, effect.zones, events)
    elif isinstance(effect, Wish):
        for seat in players:
            start_wish(game, seat, effect)
    elif isinstance(effect, ExileLinked) and effect.zones:
        # "Exile all [filter] cards from your graveyard [until ...]" (the loader requires
        # 'you', 'graveyard' and a filter).
        assert effect.filter is not None
        source = _source_id(obj)
        for seat in players:
            for oid in [i for i in game.player(seat).graveyard if filters.matches(
                    game, game.objects[i], effect.filter, seat, source)]:
                exile_linked(game, oid, source, effect.until_leaves, events)
    elif isinstance(effect, ExileLinked) and effect.chooser:
        # "Target opponent reveals their hand. You choose a [quality] card from it. Exile
        # that card" (701.20a): the choice is a CHOOSE_CARD decision (server.engine.looking);
        # the hand is revealed even if the source has left, but nothing is exiled (610.3b).
        for seat in players:
            looking.start_hand_choice(game, obj.controller, seat, effect, events,
                                      linked_to=_source_id(obj))
    elif isinstance(effect, ExileLinked):
        for ref in _referenced(obj, effect, targets):
            if ref in game.objects:
                exile_linked(game, ref, _source_id(obj), effect.until_leaves, events)
    elif isinstance(effect, MoveLinked):
        to = _ZONES[effect.destination]
        for oid in exiled_with(game, _source_id(obj)):
            move(game, oid, to, events)  # a permanent enters under its owner's control
    elif isinstance(effect, PutIntoCommand):
        for seat in players:
            for oid in [i for i in game.command if game.objects[i].owner == seat]:
                put_into_command(game, oid, events)
    elif isinstance(effect, PreventDamageFrom):
        for ref in _referenced(obj, effect, targets):  # "this turn" (615.1, 514.2)
            if ref in game.objects:
                replacements.register(game, replacements.DamageFromPrevented(ref, game.turn))
    elif isinstance(effect, ExileTopFaceDown):
        for seat in players:
            exile_top_face_down(game, seat, amount, linked_to=_source_id(obj), pile=obj.id,
                                may_look=effect.may_look, events=events)
    elif isinstance(effect, GrantFlashback):
        for seat in players:
            grant_flashback(game, seat)
    elif isinstance(effect, ExileTopPlayable):
        for seat in players:
            exile_top_playable(game, seat, _source_id(obj), this_turn=effect.this_turn,
                               events=events)
    elif isinstance(effect, PermitCastLinked):
        for seat in players:  # "until end of turn" (514.2)
            permissions.grant(game, permissions.CastLinked(game.turn, seat, _source_id(obj),
                                                           effect.card_type))
    elif isinstance(effect, ChooseExiled):
        for seat in players:
            start_exile_choice(game, seat, effect)
    elif isinstance(effect, TurnFaceDown):
        for seat in players:
            for oid in [i for i in game.command if game.objects[i].owner == seat
                        and not game.objects[i].face_down]:
                turn_face_down(game, oid)
    elif isinstance(effect, MoveCommandCards):
        for seat in players:
            move_command_cards(game, seat, _ZONES[effect.destination], events)
    elif isinstance(effect, ExileZone):
        for seat in players:
            for name in effect.zones:
                for oid in list(looking.zone_cards(game, name, seat)):
                    if game.objects[oid].owner == seat:
                        exile(game, oid, events)
    else:
        assert_never(effect)


def options(game: Game, choice: Choice) -> tuple[Action, ...]:
    """The legal options of a choice this module posed."""
    if choice.kind is _DECISION_KIND_CHOOSE_EXILED_CARD:
        return _exile_options(game, choice)
    sideboard = game.player(choice.seat).sideboard
    return (*(ChooseOutsideCard(int(i), sideboard[int(i)].name) for i in choice.pool),
            Decline())


def answer(game: Game, choice: Choice, action: Action, events: list[Event]) -> None:
    """Apply an answer to a choice this module posed."""
    game.choices.remove(choice)
    if choice.kind is _DECISION_KIND_CHOOSE_EXILED_CARD:
        _answer_exile_choice(game, choice, action, events)
    elif isinstance(action, ChooseOutsideCard):
        _bring_in(game, choice, action, events)
