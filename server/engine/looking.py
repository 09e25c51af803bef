"""Hidden information made visible for a while: look, reveal, scry, fateseal, search, clash
and piles (rules 701.20, 701.22, 701.23, 701.29, 701.30, 700.3).

A :class:`~server.engine.state.Look` lets some seats see some cards in a hidden zone. It is
the only way a card in a library or another player's hand enters a view
(:mod:`server.view.project`), and it ends as soon as the part of the effect the cards are
relevant to is done (701.20a). Every object id is new after a zone change (400.7), so a look
can never follow a card anywhere.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from server.cards import CardDef, verbs
from server.cards.verbs import (
    ExchangeZones,
    ExileLinked,
    LookAndPick,
    LookAtTop,
    RevealUntil,
    Search,
)
from server.engine import madness, permissions
from server.engine.actions import (
    Accept,
    Action,
    ChooseCard,
    ChoosePile,
    ChoosePlayer,
    Decline,
    Discard,
    PlaceCard,
)
from server.engine.events import (
    CardsRevealed,
    ClashResolved,
    Event,
    LibrarySearched,
)
from server.engine.filters import LastKnown, matches_last_known
from server.engine.state import Choice, DecisionKind, Game, GameObject, Look, Zone
from server.engine.zones import (
    aura_hosts,
    enter_together,
    move,
    next_timestamp,
    put_into_graveyards,
    shuffle_library,
)

#: The decision kinds this module poses and answers.
KINDS = (DecisionKind.SCRY, DecisionKind.SEARCH, DecisionKind.CHOOSE_PLAYER,
         DecisionKind.SEPARATE_PILES, DecisionKind.CHOOSE_PILE, DecisionKind.CHOOSE_CARD,
         DecisionKind.CLASH)


# --- looks -------------------------------------------------------------------------------------


def look(game: Game, ids: list[str], seats: tuple[int, ...], source: str,
         events: list[Event], *, placed: bool = True) -> None:
    """Show ``ids`` to ``seats`` until :func:`end_looks` is called with ``source`` (701.20a,
    701.20e). Revealing to every player is a look by every seat. ``placed``: whether their
    places in a library are seen too (:attr:`Look.placed`)."""
    if not ids:
        return
    game.looks.append(Look(list(ids), seats, source, placed))
    events.append(CardsRevealed(tuple(ids), seats,
                                tuple(game.objects[i].card for i in ids)))


def shows_place(game: Game, oid: str) -> bool:
    """Whether a looked-at library card is seen with its place in the library: unless a
    look shows it without (:attr:`Look.placed`)."""
    return all(lk.placed for lk in game.looks if oid in lk.ids)


def end_looks(game: Game, source: str) -> None:
    """The effect that made these looks is done: the cards are hidden again (701.20a)."""
    game.looks = [lk for lk in game.looks if lk.source != source]


def visible_hidden_ids(game: Game, viewer: int) -> list[str]:
    """The cards in hidden zones that ``viewer`` may see now, in look order."""
    out: list[str] = []
    for lk in game.looks:
        if viewer in lk.seats:
            out += [i for i in lk.ids if i in game.objects and i not in out]
    return out


def _key(game: Game) -> str:
    """A fresh key naming one look (a timestamp: deterministic, never reused)."""
    return f"look-{next_timestamp(game)}"


#: The seat number of spectators in a look (they see what every player is shown).
SPECTATORS = -1


def everyone(game: Game) -> tuple[int, ...]:
    """Every player still in the game, and spectators: a reveal shows a card to all players
    (701.20a)."""
    return (*game.in_game(), SPECTATORS)


# --- card qualities ------------------------------------------------------------------------------


def has_quality(card: CardDef, quality: str, named: tuple[str, ...] = ()) -> bool:
    """Whether a card has a stated quality (rules 701.23b, 701.9b); "" is any card;
    ``named``: the names "named" and "same_name_as_target" refer to."""
    checks: dict[str, Callable[[CardDef], bool]] = {
        "": lambda c: True,
        "basic_land": lambda c: c.is_land and "Basic" in c.supertypes,
        "creature": lambda c: c.creature,
        "instant_or_sorcery": lambda c: c.is_type("Instant") or c.is_type("Sorcery"),
        "permanent": lambda c: c.is_permanent_card,  # rule 110.4b
        "land": lambda c: c.is_land,
        "artifact": lambda c: c.is_type("Artifact"),
        "noncreature_nonland": lambda c: not c.creature and not c.is_land,
        "creature_mv_6_or_more": lambda c: c.creature and c.mana_cost.mana_value >= 6,
        # Rule 701.23c: a quality that names nothing finds nothing.
        "same_name_as_target": lambda c: c.name in named,
        # "a card named [name]" (rule 201.2); several names: "... and/or a card named ..."
        "named": lambda c: c.name in named,
        # the card name chosen earlier in this resolution (201.4); none chosen finds nothing
        "chosen_name": lambda c: c.name in named,
    }
    return checks[quality](card)


# --- scry and fateseal -------------------------------------------------------------------------


def start_scry(game: Game, seat: int, library_owner: int, count: int,
               events: list[Event]) -> None:
    """Scry N (701.22a) or, for an opponent's library, fateseal N (701.29a): ``seat`` looks at
    the top N cards, then puts each on the top or the bottom. Scry 0 is no scry (701.22b)."""
    library = game.player(library_owner).library
    top = list(reversed(library[-count:])) if count > 0 else []
    if not top:
        return
    key = _key(game)
    look(game, top, (seat,), key, events)
    game.choices.append(Choice(DecisionKind.SCRY, seat, list(top), count=len(top),
                               owner=library_owner, group=[key]))


def _answer_scry(game: Game, choice: Choice, action: PlaceCard) -> None:
    choice.picked.append(action.object_id)
    choice.bottoms.append(action.bottom)
    choice.pool.remove(action.object_id)
    choice.count -= 1
    if choice.count > 0:
        return
    game.choices.remove(choice)
    library = game.player(choice.owner).library
    placed = set(choice.picked)
    rest = [i for i in library if i not in placed]
    tops = [i for i, b in zip(choice.picked, choice.bottoms, strict=True) if not b]
    bottoms = [i for i, b in zip(choice.picked, choice.bottoms, strict=True) if b]
    # The last card put on the bottom ends up lowest; the last put on top is the new top.
    library[:] = [*reversed(bottoms), *rest, *tops]
    end_looks(game, choice.group[0])


def start_fateseal(game: Game, seat: int, count: int, events: list[Event]) -> None:
    """Rule 701.29a: fateseal N -- scry N an opponent's library; with several opponents,
    ``seat`` chooses whose."""
    opponents = game.opponents(seat)
    if len(opponents) == 1:
        start_scry(game, seat, opponents[0], count, events)
    elif opponents:
        game.choices.insert(0, Choice(DecisionKind.CHOOSE_PLAYER, seat, owner=seat,
                                      count=count, group=["fateseal"]))


# --- search -------------------------------------------------------------------------------------


def zone_cards(game: Game, zone: str, owner: int) -> list[str]:
    player = game.player(owner)
    if zone == "library":
        return player.library
    if zone == "hand":
        return player.hand
    if zone == "graveyard":
        return player.graveyard
    if zone == "all_exile":
        return list(game.exile)  # every card in exile, whoever owns it
    return [i for i in game.exile if game.objects[i].owner == owner]


#: A ``MAY`` choice's group tag: "search your library and/or graveyard for ..." with a card
#: sought in the graveyard -- whether to search the library as well (608.2d). ``group[1]`` is
#: the name chosen for the search, ``count`` its amount, ``pool`` the resolving object.
ALSO_LIBRARY = "also_library"


def start_search(game: Game, seat: int, owner: int, effect: Search, *, amount: int,
                 named: str, events: list[Event], zones_chosen: bool = False) -> None:
    """Rule 701.23: ``seat`` searches ``owner``'s zones for ``amount`` cards with
    ``effect.find`` (all of them with ``find_all``).

    The searcher looks at every card of each searched hidden zone (701.23a). In a public zone
    every match is found; in a hidden zone a stated quality may fail to find some or all
    (701.23b), while "a card" (a quantity) must be found if the zones hold one (701.23d).
    The decision is posed even when nothing matches: the searcher still looks.

    "Search your library and/or graveyard" (``and_or``): the searcher chooses which of the
    zones to search (608.2d). With a card sought in the graveyard they are asked whether to
    search the library too (:data:`ALSO_LIBRARY`; ``zones_chosen`` once answered); without
    one, searching only the graveyard would find nothing, so both are searched.
    """
    names = effect.names if effect.find == "named" else (named,) if named else ()
    if effect.and_or and not zones_chosen and game.resolving is not None and any(
            _search_matches(game, seat, owner, effect, zone, names=names)
            for zone in effect.zones if zone != "library"):
        game.choices.append(Choice(DecisionKind.MAY, seat, [game.resolving.object_id],
                                   count=amount, effect=effect, owner=owner,
                                   group=[ALSO_LIBRARY, named]))
        return
    found: list[str] = []
    candidates: list[str] = []
    seen: list[str] = []
    # "search your library and/or graveyard for a Shrine card": the searcher chooses which
    # card, from either zone (608.2d); "all"/"named" cards in a public zone are all found --
    # unless, searching both zones for "a card named ...", the copy may come from either.
    choose_public = not effect.find_all and (
        effect.find != "named" or (effect.and_or and "library" in effect.zones))
    for zone in effect.zones:
        ids = zone_cards(game, zone, owner)
        matches = _search_matches(game, seat, owner, effect, zone, names=names)
        if zone in ("graveyard", "exile") and choose_public:
            candidates += matches
        elif zone in ("graveyard", "exile"):
            found += matches
        else:
            seen += ids
            candidates += matches
    limit = len(found) + len(candidates) if effect.find_all else amount
    if effect.find == "named":
        found = _one_of_each_name(game, found)  # "A and/or B": one card of each name
        candidates = [i for i in candidates if game.objects[i].card.name not in
                      {game.objects[f].card.name for f in found}]
    if not effect.find_all:
        found = found[:limit]
    wanted = max(0, limit - len(found))
    minimum = min(wanted, len(candidates)) if effect.find == "" and effect.filter is None \
        else 0
    choice = Choice(DecisionKind.SEARCH, seat, candidates, count=wanted, picked=found,
                    effect=effect, owner=owner, minimum=minimum + len(found))
    if not seen and not (candidates and wanted):
        _finish_search(game, choice, events)
        return
    if not seen:
        game.choices.append(choice)  # a public zone's cards to choose among
        return
    key = _key(game)
    choice.group = [key]
    look(game, seen, (seat,), key, events)
    game.choices.append(choice)


def _search_matches(game: Game, seat: int, owner: int, effect: Search, zone: str, *,
                    names: tuple[str, ...]) -> list[str]:
    """The cards of ``owner``'s ``zone`` with the quality the search is for."""
    return [i for i in zone_cards(game, zone, owner)
            if has_quality(game.objects[i].card, effect.find, names)
            and (effect.filter is None or matches_last_known(  # "a Shrine card"
                game, LastKnown(game.objects[i].card, owner, i), effect.filter, seat, ""))]


def answer_also_library(game: Game, choice: Choice, action: Action,
                        events: list[Event]) -> None:
    """"Search your library and/or graveyard": accepted, both zones are searched (the copy
    found may come from either); declined, the graveyard alone -- the library is neither
    looked at nor shuffled ("If you search your library this way, shuffle", 701.23a,
    701.24a)."""
    game.choices.remove(choice)
    effect = choice.effect
    assert isinstance(effect, Search)
    if not isinstance(action, Accept):
        effect = replace(effect, zones=tuple(z for z in effect.zones if z != "library"))
    start_search(game, choice.seat, choice.owner, effect, amount=choice.count,
                 named=choice.group[1], events=events, zones_chosen=True)


def _finish_search(game: Game, choice: Choice, events: list[Event]) -> None:
    """Put the found cards where the effect says (revealing them only if it says so,
    701.23e), then shuffle if told (701.24a)."""
    effect = choice.effect
    assert isinstance(effect, (Search, LookAtTop))
    if choice in game.choices:
        game.choices.remove(choice)
    if choice.group:
        end_looks(game, choice.group[0])
    found = [i for i in choice.picked if i in game.objects]
    if isinstance(effect, Search) and effect.rest_to and len(found) > 1:
        # "reveal those cards, put one onto the battlefield and the other into your hand":
        # the searcher chooses which, the cards revealed meanwhile (rules 701.20a, 608.2d).
        key = _key(game)
        look(game, found, everyone(game), key, events, placed=False)
        game.choices.insert(0, Choice(DecisionKind.CHOOSE_CARD, choice.seat, found,
                                      effect=effect, owner=choice.owner, group=[key, _SPLIT]))
        return
    if effect.reveal and found:
        look(game, found, everyone(game), "", events, placed=False)
        end_looks(game, "")
    _put_found(game, choice.seat, effect, found, events)
    if isinstance(effect, LookAtTop):
        # "Put the rest on the bottom of your library in a random order" (401.1).
        rest = [i for i in choice.group[1:] if i not in found
                and i in game.player(choice.owner).library]
        game.rng.shuffle(rest)
        for oid in rest:
            move(game, oid, Zone.LIBRARY, events, bottom=True)
    if isinstance(effect, Search):
        _after_search(game, choice.seat, choice.owner, effect, found=len(found), events=events)


#: Marks the choice of which found card goes to the search's destination (the rest go to
#: its ``rest_to``).
_SPLIT = "split"


def _answer_split(game: Game, choice: Choice, card_id: str, events: list[Event]) -> None:
    effect = choice.effect
    assert isinstance(effect, Search)
    game.choices.remove(choice)
    end_looks(game, choice.group[0])
    _put_found(game, choice.seat, effect, [card_id], events)
    rest = [i for i in choice.pool if i != card_id and i in game.objects]
    _put_found(game, choice.seat, effect, rest, events, destination=effect.rest_to)
    _after_search(game, choice.seat, choice.owner, effect, found=len(choice.pool),
                  events=events)


def _put_found(game: Game, seat: int, effect: Search | LookAtTop, found: list[str],
               events: list[Event],
               *, destination: str = "") -> None:
    # "put it into your hand" (look_at_top).
    destination = destination or (
        "hand" if isinstance(effect, LookAtTop) else effect.destination)
    tapped = isinstance(effect, Search) and effect.tapped
    may_play = isinstance(effect, Search) and effect.may_play
    if destination == "graveyard":
        put_into_graveyards(game, found, events)
    elif destination == "battlefield":
        # The cards found enter at the same time (Ugin's "put up to seven permanent cards
        # from your hand onto the battlefield", 614.12, 303.4f).
        if game.resolving is not None:
            game.resolving.found_from_hand += sum(
                1 for oid in found if game.objects[oid].zone is Zone.HAND)
        for new in enter_together(game, found, events, controller=seat):
            # Where it went: one exiled instead (614.1a) is neither tapped (110.5) nor "that
            # land" on the battlefield.
            if new.zone is Zone.BATTLEFIELD and tapped:
                new.tapped = True
            if new.zone is Zone.BATTLEFIELD and game.resolving is not None:
                game.resolving.found.append(new.id)  # "that land" (400.7)
    else:
        to = {"hand": Zone.HAND, "exile": Zone.EXILE, "library_top": Zone.LIBRARY}[destination]
        for oid in found:
            if game.resolving is not None and game.objects[oid].zone is Zone.HAND:
                game.resolving.found_from_hand += 1  # "exiled from their hand this way"
            new = move(game, oid, to, events)
            if to is Zone.EXILE and may_play:
                # "You may cast them this turn" (400.7h)
                permissions.grant_play(game, seat, new.id, turn=game.turn)


def _after_search(game: Game, seat: int, owner: int, effect: Search, *, found: int,
                  events: list[Event]) -> None:
    """Shuffle if told (701.24a); the search is an event ("whenever a player searches")."""
    searched_library = "library" in effect.zones
    if effect.shuffle and searched_library:
        shuffle_library(game, owner)
    if searched_library:
        events.append(LibrarySearched(seat, owner, found))


def start_look_at_top(game: Game, seat: int, count: int, effect: LookAtTop,
                      events: list[Event]) -> None:
    """"Look at the top N cards of your library. You may reveal a [take] card from among
    them and put it into your hand. Put the rest on the bottom of your library in a random
    order" (rules 701.20a, 401.1): a choice of at most one card among those looked at (none
    is a choice too), posed as a search of them."""
    library = game.player(seat).library
    top = list(reversed(library[-count:])) if count > 0 else []  # the top card first
    if not top:
        return
    key = _key(game)
    look(game, top, (seat,), key, events)
    pool = [i for i in top if any(
        matches_last_known(game, LastKnown(game.objects[i].card, seat, i), spec, seat, "")
        for spec in effect.take)]
    game.choices.append(Choice(DecisionKind.SEARCH, seat, pool, count=1, effect=effect,
                               owner=seat, minimum=0, group=[key, *top]))


def exile_top(game: Game, seat: int, count: int, *, may_play: bool,
              events: list[Event]) -> None:
    """"Exile the top N cards of your library" (rule 701.13a), face up; ``may_play``: the
    player may play them this turn."""
    library = game.player(seat).library
    for oid in list(reversed(library[-count:])) if count > 0 else []:
        new = move(game, oid, Zone.EXILE, events)
        if may_play:
            permissions.grant_play(game, seat, new.id, turn=game.turn)


def _one_of_each_name(game: Game, ids: list[str]) -> list[str]:
    """The first card of each name among ``ids``."""
    seen: set[str] = set()
    out = []
    for i in ids:
        name = game.objects[i].card.name
        if name not in seen:
            seen.add(name)
            out.append(i)
    return out


def _answer_search(game: Game, choice: Choice, action: Action, events: list[Event]) -> None:
    if isinstance(action, ChooseCard):
        choice.picked.append(action.object_id)
        choice.pool.remove(action.object_id)
        if isinstance(choice.effect, Search) and choice.effect.find == "named":
            # "a card named A and/or a card named B": no second card of a name found.
            name = game.objects[action.object_id].card.name
            choice.pool[:] = [i for i in choice.pool if game.objects[i].card.name != name]
        choice.count -= 1
        if isinstance(choice.effect, Search) and choice.group:
            # A hidden zone searched (701.23b: a stated quality may fail to find): the search
            # ends when its searcher stops or has found the amount its text says -- never
            # because no other card in the zone matches, which told everyone else so (whether
            # a basic land is left after a Cultivate's first, whether a Splinter took every
            # copy: a security tester's round 15). "All" has no amount to reach.
            if choice.count > 0 or choice.effect.find_all:
                return
        elif choice.count > 0 and choice.pool:
            return
    _finish_search(game, choice, events)


# --- clash ---------------------------------------------------------------------------------------


def start_clash(game: Game, seat: int, events: list[Event]) -> None:
    """Rule 701.30b: "clash with an opponent" -- choose an opponent; you both clash."""
    opponents = game.opponents(seat)
    if len(opponents) == 1:
        clash(game, (seat, opponents[0]), events)
    elif opponents:
        game.choices.insert(0, Choice(DecisionKind.CHOOSE_PLAYER, seat, owner=seat,
                                      group=["clash"]))


def clash(game: Game, seats: tuple[int, int], events: list[Event]) -> None:
    """Rules 701.30a, 701.30c: both players reveal their top card at the same time, then in
    APNAP order each decides whether to put it on the bottom; the cards move together."""
    key = _key(game)
    revealed = [game.player(s).library[-1] for s in seats if game.player(s).library]
    look(game, revealed, everyone(game), key, events)
    # group: [key, "seat:mana value" ("" for no card), ...] shared by the clashers' choices:
    # the values as revealed (a card that leaves the game with its owner still counts, 701.30d).
    group = [key, *(f"{s}:{game.objects[game.player(s).library[-1]].mana_value}"
                    if game.player(s).library else f"{s}:" for s in seats)]
    clashers = [s for s in game.apnap() if s in seats and game.player(s).library]
    choices = [Choice(DecisionKind.CLASH, s, [game.player(s).library[-1]], owner=s,
                      group=group) for s in clashers]
    if not choices:
        _finish_clash(game, group, [], events)
        return
    game.choices[0:0] = choices


def _answer_clash(game: Game, choice: Choice, action: PlaceCard, events: list[Event]) -> None:
    game.choices.remove(choice)
    if action.bottom:
        choice.group.append(f"bottom:{action.object_id}")
    finish_clash_if_done(game, choice.group, events)


def finish_clash_if_done(game: Game, group: list[str], events: list[Event]) -> None:
    """Rule 701.30c: once every clasher has decided (or left the game, 800.4a), the cards
    put on the bottom move at the same time and the clash is decided."""
    if not any(c.group is group for c in game.choices):
        bottoms = [g.split(":", 1)[1] for g in group if g.startswith("bottom:")]
        _finish_clash(game, group, bottoms, events)


def _finish_clash(game: Game, group: list[str], bottoms: list[str],
                  events: list[Event]) -> None:
    entries = [g.split(":", 1) for g in group[1:] if not g.startswith("bottom:")]
    values = {int(s): int(value) if value else None for s, value in entries}
    winner = None
    for seat, value in values.items():
        others = [v for s, v in values.items() if s != seat and v is not None]
        if value is not None and all(value > v for v in others):
            winner = seat  # rule 701.30d: higher than every other revealed card
    for oid in bottoms:  # rule 701.30c: the cards move at the same time
        obj = game.objects.get(oid)
        if obj is None:
            continue  # it left the game with its owner (800.4a)
        library = game.player(obj.owner).library
        library.remove(oid)
        library.insert(0, oid)
    end_looks(game, group[0])
    seats = tuple(values)
    res = game.resolving
    if res is not None and winner is not None:
        source = game.objects.get(res.object_id)
        res.won_clash = source is not None and source.controller == winner
    events.append(ClashResolved(seats, winner))


# --- piles ----------------------------------------------------------------------------------------


def start_piles(game: Game, seat: int, count: int, events: list[Event]) -> None:
    """Fact or Fiction (rule 700.3): reveal the top N cards; an opponent separates them into
    two piles (they don't leave the library, 700.3c); ``seat`` puts one pile into their hand
    and the other into their graveyard."""
    library = game.player(seat).library
    top = list(reversed(library[-count:])) if count > 0 else []
    if not top:
        return
    key = _key(game)
    look(game, top, everyone(game), key, events)
    separate_piles(game, seat, top, key)


def separate_piles(game: Game, seat: int, cards: list[str], key: str) -> None:
    """An opponent of ``seat`` separates ``cards`` (revealed under ``key``) into two piles:
    ``seat`` chooses which opponent if there are several -- also when the opponent who was
    separating them left the game (800.4g)."""
    opponents = game.opponents(seat)
    if not opponents:
        _pile_choice(game, seat, cards, [], key)
        return
    if len(opponents) > 1:
        game.choices.insert(0, Choice(DecisionKind.CHOOSE_PLAYER, seat, list(cards),
                                      owner=seat, group=["piles", key]))
        return
    _separate(game, seat, opponents[0], cards, key)


def _separate(game: Game, seat: int, separator: int, cards: list[str], key: str) -> None:
    game.choices.insert(0, Choice(DecisionKind.SEPARATE_PILES, separator, list(cards),
                                  count=len(cards), owner=seat, group=[key]))


def _pile_choice(game: Game, seat: int, rest: list[str], first: list[str], key: str) -> None:
    game.choices.insert(0, Choice(DecisionKind.CHOOSE_PILE, seat, list(rest), picked=first,
                                  owner=seat, group=[key]))


def _answer_piles(game: Game, choice: Choice, action: Action, events: list[Event]) -> None:
    if isinstance(action, ChooseCard):
        choice.picked.append(action.object_id)
        choice.pool.remove(action.object_id)
        if choice.pool:
            return
    game.choices.remove(choice)
    _pile_choice(game, choice.owner, choice.pool, choice.picked, choice.group[0])


def _answer_pile(game: Game, choice: Choice, action: ChoosePile, events: list[Event]) -> None:
    game.choices.remove(choice)
    chosen, other = (choice.picked, choice.pool) if action.pile == 0 else \
        (choice.pool, choice.picked)
    end_looks(game, choice.group[0])
    for oid in chosen:
        move(game, oid, Zone.HAND, events)
    put_into_graveyards(game, list(other), events)


# --- a card chosen from a revealed hand ------------------------------------------------------


def start_hand_choice(game: Game, chooser: int, owner: int, effect: verbs.Discard | ExileLinked,
                      events: list[Event], *, linked_to: str = "") -> None:
    """Rules 701.20a, 701.9b: ``owner`` reveals their hand; ``chooser`` chooses a card with
    the stated quality from it, which ``owner`` discards -- or, with ``linked_to``, which is
    exiled with that object (406.6; "until it leaves the battlefield", 610.3, if the effect
    says so). The hand stays revealed while the choice is made."""
    hand = game.player(owner).hand
    if not hand:
        return
    key = _key(game)
    look(game, list(hand), everyone(game), key, events)
    pool = [i for i in hand if has_quality(game.objects[i].card, effect.find)]
    if not pool:
        end_looks(game, key)
        return
    game.choices.insert(0, Choice(DecisionKind.CHOOSE_CARD, chooser, pool, owner=owner,
                                  group=[key, linked_to] if linked_to else [key],
                                  effect=effect if linked_to else None))


def start_look_and_pick(game: Game, seat: int, count: int, effect: LookAndPick, *,
                        every: bool,
                        events: list[Event]) -> None:
    """``seat`` looks at the top ``count`` cards of their library (701.20) and chooses
    ``effect.pick`` of them (or takes them all, ``every``) to put into their hand; the rest go
    into their graveyard or, in the order they choose, to the bottom of their library."""
    library = game.player(seat).library
    top = list(reversed(library[-count:])) if count > 0 else []
    if not top:
        return
    key = _key(game)
    look(game, top, (seat,), key, events)
    choice = Choice(DecisionKind.CHOOSE_CARD, seat, list(top), count=min(effect.pick, len(top)),
                    effect=effect, owner=seat, group=[key])
    if every or choice.count == len(top):
        _finish_pick(game, choice, list(top), events)
        return
    game.choices.insert(0, choice)


def _answer_look_and_pick(game: Game, choice: Choice, card_id: str,
                          events: list[Event]) -> None:
    choice.pool.remove(card_id)
    if len(choice.group) > 1:  # ordering the rest: each goes beneath the others (401.4)
        library = game.player(choice.owner).library
        library.remove(card_id)
        library.insert(0, card_id)
        if len(choice.pool) == 1:
            library.remove(choice.pool[0])
            library.insert(0, choice.pool[0])
            choice.pool.clear()
        if not choice.pool:
            game.choices.remove(choice)
            end_looks(game, choice.group[0])
        return
    choice.picked.append(card_id)
    choice.count -= 1
    if choice.count > 0:
        return
    game.choices.remove(choice)
    _finish_pick(game, choice, choice.picked, events)


def _finish_pick(game: Game, choice: Choice, picked: list[str], events: list[Event]) -> None:
    """Put the picked cards into the hand, then the rest where the effect says."""
    effect = choice.effect
    assert isinstance(effect, LookAndPick)
    for oid in picked:
        move(game, oid, Zone.HAND, events)
    rest = [i for i in choice.pool if i not in picked]
    if effect.rest == "graveyard" or len(rest) <= 1:
        end_looks(game, choice.group[0])
        if effect.rest == "graveyard":
            put_into_graveyards(game, rest, events)  # their owner orders them (404.3)
        elif rest:
            library = game.player(choice.owner).library
            library.remove(rest[0])
            library.insert(0, rest[0])
        return
    # "the rest on the bottom of your library in any order" (401.4): chosen one at a time.
    game.choices.insert(0, Choice(DecisionKind.CHOOSE_CARD, choice.seat, rest, count=len(rest),
                                  effect=effect, owner=choice.owner,
                                  group=[choice.group[0], "bottom"]))


def start_attachment_exchange(game: Game, seat: int, aura: GameObject, effect: ExchangeZones,
                              events: list[Event]) -> None:
    """Rules 701.12a, 701.12d-e: exchange an Aura on the battlefield with an Aura card in
    ``seat``'s hand: the card from the hand becomes attached to what the Aura was attached to.
    Only cards one player owns are exchanged, and only the whole exchange happens."""
    host = aura.attached_to
    if aura.zone is not Zone.BATTLEFIELD or aura.owner != seat or host is None:
        return
    pool = [i for i in game.player(seat).hand if game.objects[i].card.is_aura]
    if pool:
        game.choices.insert(0, Choice(DecisionKind.CHOOSE_CARD, seat, pool, owner=seat,
                                      effect=effect, group=[aura.id]))


def _exile_chosen(game: Game, choice: Choice, card_id: str, events: list[Event]) -> None:
    """"Exile that card [until [this] leaves the battlefield]" (406.6, 610.3): with the source,
    unless the source has left the battlefield by now (610.3b)."""
    assert isinstance(choice.effect, ExileLinked)
    source_id = choice.group[1]
    source = game.objects.get(source_id)
    if choice.effect.until_leaves and (source is None or source.zone is not Zone.BATTLEFIELD):
        return
    new = move(game, card_id, Zone.EXILE, events)
    new.exiled_with = source_id
    if choice.effect.until_leaves:
        game.exiled_until_leaves.append((source_id, new.id, Zone.HAND))


def _finish_attachment_exchange(game: Game, choice: Choice, card_id: str,
                                events: list[Event]) -> None:
    aura = game.objects.get(choice.group[0])
    if aura is None or aura.zone is not Zone.BATTLEFIELD or aura.attached_to is None:
        return  # rule 701.12a: the exchange can't be completed, so nothing happens
    host = aura.attached_to
    card = game.objects.get(card_id)
    if card is None or host not in aura_hosts(game, card, choice.seat):
        # Rules 303.4i, 701.12a: the Aura card can't legally enchant that object (its
        # enchant ability, protection), so the exchange can't be completed: nothing happens.
        return
    move(game, aura.id, Zone.HAND, events)
    move(game, card_id, Zone.BATTLEFIELD, events, controller=choice.seat, attached_to=host)


def random_discard(game: Game, seat: int, count: int, events: list[Event]) -> None:
    """Rule 701.9b: discard cards at random (from the game's random generator)."""
    hand = list(game.player(seat).hand)
    chosen = []
    for _ in range(min(count, len(hand))):
        chosen.append(hand.pop(game.rng.randbelow(len(hand))))
    madness.discard(game, chosen, events)  # rules 701.9a, 702.35a


# --- the decisions -------------------------------------------------------------------------------


def options(game: Game, choice: Choice) -> tuple[Action, ...]:
    """The legal options of a choice this module posed."""
    kind = choice.kind
    if kind in (DecisionKind.SCRY, DecisionKind.CLASH):
        return tuple(PlaceCard(oid, bottom) for oid in choice.pool for bottom in (False, True))
    if kind is DecisionKind.SEARCH:
        stop: tuple[Action, ...] = (Decline(),) if len(choice.picked) >= choice.minimum else ()
        finds = choice.pool if choice.count > 0 else []
        return (*(ChooseCard(oid) for oid in finds), *stop)
    if kind is DecisionKind.CHOOSE_PLAYER:
        return tuple(ChoosePlayer(s) for s in game.opponents(choice.owner))
    if kind is DecisionKind.SEPARATE_PILES:
        return (*(ChooseCard(oid) for oid in choice.pool), Decline())
    if kind is DecisionKind.CHOOSE_PILE:
        return (ChoosePile(0), ChoosePile(1))
    if choice.effect is not None:  # a looked-at card to pick, an Aura card to exchange
        return tuple(ChooseCard(oid) for oid in choice.pool)
    return tuple(Discard(oid) for oid in choice.pool)  # CHOOSE_CARD


def answer(game: Game, choice: Choice, action: Action, events: list[Event]) -> None:
    """Apply an answer to a choice this module posed."""
    kind = choice.kind
    if kind is DecisionKind.SCRY and isinstance(action, PlaceCard):
        _answer_scry(game, choice, action)
    elif kind is DecisionKind.CLASH and isinstance(action, PlaceCard):
        _answer_clash(game, choice, action, events)
    elif kind is DecisionKind.SEARCH:
        _answer_search(game, choice, action, events)
    elif kind is DecisionKind.CHOOSE_PLAYER and isinstance(action, ChoosePlayer):
        game.choices.remove(choice)
        if choice.group[0] == "clash":
            clash(game, (choice.owner, action.seat), events)
        elif choice.group[0] == "fateseal":
            start_scry(game, choice.owner, action.seat, choice.count, events)
        else:
            _separate(game, choice.owner, action.seat, choice.pool, choice.group[1])
    elif kind is DecisionKind.SEPARATE_PILES:
        _answer_piles(game, choice, action, events)
    elif kind is DecisionKind.CHOOSE_PILE and isinstance(action, ChoosePile):
        _answer_pile(game, choice, action, events)
    elif kind is DecisionKind.CHOOSE_CARD and isinstance(action, ChooseCard) and \
            choice.effect is not None and isinstance(choice.effect, LookAndPick):
        _answer_look_and_pick(game, choice, action.object_id, events)
    elif kind is DecisionKind.CHOOSE_CARD and isinstance(action, ChooseCard) \
            and choice.group[1:2] == [_SPLIT]:
        _answer_split(game, choice, action.object_id, events)  # rule 608.2d
    elif kind is DecisionKind.CHOOSE_CARD and isinstance(action, ChooseCard) and \
            choice.effect is not None and isinstance(choice.effect, ExileLinked):
        game.choices.remove(choice)
        end_looks(game, choice.group[0])
        _exile_chosen(game, choice, action.object_id, events)
    elif kind is DecisionKind.CHOOSE_CARD and isinstance(action, ChooseCard):
        game.choices.remove(choice)
        _finish_attachment_exchange(game, choice, action.object_id, events)
    elif kind is DecisionKind.CHOOSE_CARD and isinstance(action, Discard):
        game.choices.remove(choice)
        end_looks(game, choice.group[0])
        madness.discard(game, [action.object_id], events)  # 701.9b: that player discards
    else:  # pragma: no cover - options always match the choice kind
        raise ValueError(f"{action!r} doesn't answer a {kind.name} choice")


def revealed_top(game: Game, seat: int, source: str, events: list[Event]) -> GameObject | None:
    """Reveal the top card of ``seat``'s library (701.20a) until ``source`` is done."""
    library = game.player(seat).library
    if not library:
        return None
    look(game, [library[-1]], everyone(game), source, events)
    return game.objects[library[-1]]


def reveal_until(game: Game, seat: int, effect: RevealUntil, source: str,
                 events: list[Event]) -> None:
    """``seat`` reveals cards from the top of their library until they reveal a card of the
    effect's ``find`` quality (rule 701.20a; all of them if none has it), puts that card into
    the effect's ``destination`` -- onto the battlefield under their control (110.2) -- then
    shuffles the rest, still in the library, into it (701.24a)."""
    library = game.player(seat).library
    revealed: list[str] = []
    found = None
    for oid in reversed(library):  # the top card is last
        revealed.append(oid)
        if has_quality(game.objects[oid].card, effect.find):
            found = oid
            break
    look(game, revealed, everyone(game), source, events)
    end_looks(game, source)  # the revealed cards are shuffled away (new objects, 400.7)
    if found is not None:
        to = Zone.BATTLEFIELD if effect.destination == "battlefield" else Zone.HAND
        move(game, found, to, events, controller=seat)
    shuffle_library(game, seat)
