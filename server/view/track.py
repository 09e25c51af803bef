"""What changed in a game since the last action, computed once for every view class.

:func:`server.view.project.project` builds a whole view; doing that for every view class after
every action costs far more than the protocol budget allows (architecture.md). A
:class:`GameTracker` instead keeps, for every object in a zone some viewer can see, a
*signature*: the object fields the projection reads (:data:`PROJECTED`, read at C speed by
one ``attrgetter``), copies of its mutable ones, and the combat facts it shows. An object
whose signature is unchanged projects to the same :class:`~server.view.project.ObjectView`,
so each view class rebuilds only the objects in ``changed``. The header and the players are
serialized once per action for all classes -- written by hand (:mod:`server.view.wire`) around
the parts that did not change, their views built only when read -- and an object seen the
same way by several classes is built and encoded once (:meth:`Changes.shared_object`). The
engine stays untouched (invariant 1: it knows nothing of views); property tests check the
streams equal a full projection after every action, and the hand-written bytes equal
protobuf's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import compress, count, repeat
from operator import attrgetter, ne
from typing import Any

from protocol.v1 import game_pb2 as pb
from protocol.viewhash import (
    HEADER,
    OBJECT,
    PLAYER,
    UNHASHED_FROM,
    ZONE,
    bytes_digest,
    element_digest,
    fully_hashed,
)
from server.engine import Game, Player, Zone, looking, planar
from server.engine.actions import PassPriority
from server.engine.state import DecisionKind
from server.view.encode import encode_header_parts, encode_object, zone_contents
from server.view.project import (
    HeaderBase,
    HeaderView,
    ObjectView,
    PlayerView,
    ZoneKey,
    combat_damage_step,
    header_base,
    header_of,
    view_of,
)
from server.view.wire import (
    header_message,
    header_unhashed,
    player_message,
    set_header_op,
    set_player_op,
)

# The header and player bytes written by hand (server.view.wire) are digested as written
# (bytes_digest), which is right only while no field they may hold is numbered 1000 or above:
# those are not hashed (protocol/README.md, "Versioning"). Such fields come last in a
# message's deterministic serialization: write them after the hashed part, digest that alone
# -- as the header's combat damage step is (wire.header_unhashed, GameTracker._header).
if not fully_hashed(pb.Player):
    raise ImportError("manawire.v1.Player has a field numbered 1000 or above: digest its "
                      "hand-written bytes without it (server.view.track)")
if {f.name for f in pb.GameHeader.DESCRIPTOR.fields if f.number >= UNHASHED_FROM} \
        != {"combat_damage_step"}:
    raise ImportError("manawire.v1.GameHeader's fields numbered 1000 or above changed: write "
                      "them in wire.header_unhashed, digested without (server.view.track)")

#: The GameObject fields an ObjectView depends on (directly or through its properties:
#: power/toughness, mana value, keywords, is_creature...) that may change while the object
#: stays where it is. A test keeps these lists together equal to the dataclass's fields.
PROJECTED = ("owner", "controller", "tapped", "damage", "controlled_since", "x_value",
             "targets", "modes", "attached_to", "face_down", "pt_now", "keywords_now",
             "subtypes_now", "types_added", "chosen_name", "skip_next_untap", "restrictions")
#: Projected fields set as the object is created and never changed afterwards: a different
#: card or zone is a different object with a new id (rule 400.7). Not read by the scan; a
#: test checks that no action changes them on an object already in the game.
PROJECTED_FIXED = ("card", "zone", "token", "ability")
#: Mutable projected fields, copied into the signature.
PROJECTED_MUTABLE = ("counters", "stickers")
#: Fields no view shows (bookkeeping of the rules engine).
NOT_PROJECTED = ("id", "target_groups", "deathtouched", "base_controller",
                 "regeneration_shields", "spell_copy", "loyalty_turn",
                 "timestamp", "source_power", "source_attached", "activated_turn", "chooser",
                 "came_from", "exiled_with", "exile_pile",
                 "cast_from", "granted_triggers", "granted_abilities", "top_casts",
                 "from_graveyard", "protection_added")

_READ = attrgetter(*PROJECTED)
_SINCE = PROJECTED.index("controlled_since")
_COUNTERS = attrgetter("counters")
_STICKERS = attrgetter("stickers")
_PLAYER_SCALARS = attrgetter("life", "lands_played", "has_lost", "poison", "mulligans",
                             "max_hand_size", "name")


def _zone_keys(players: int) -> list[ZoneKey]:
    """Every zone some viewer may see, by (kind, owner), in :func:`_zone_lists` order."""
    keys: list[ZoneKey] = [(Zone.BATTLEFIELD, -1), (Zone.STACK, -1), (Zone.EXILE, -1),
                           (Zone.COMMAND, -1), (Zone.ANTE, -1)]  # 400.2, 407.2: public
    for seat in range(players):
        keys += [(Zone.HAND, seat), (Zone.GRAVEYARD, seat)]
    return keys


def _zone_lists(game: Game) -> list[list[str]]:
    """The id list of every zone of :func:`_zone_keys`."""
    lists = [game.battlefield, game.stack, game.exile, game.command, game.ante]
    for player in game.players:
        lists += (player.hand, player.graveyard)
    return lists


def _player_signature(player: Player, planar_deck: int) -> tuple[Any, ...]:
    """Everything :func:`project_players` reads of a player, cheaply (with the size of
    their planar deck, 901.3)."""
    return (_PLAYER_SCALARS(player), len(player.library), len(player.hand),
            player.all_mana(), planar_deck)

#: How many recent public states of one player are kept (a turn's worth, about).
_PLAYER_CACHE_SIZE = 64

#: What an object without counters, stickers or combat facts (attacking, blocking, attacking
#: a planeswalker) has in those columns of a scan.
_EMPTY: tuple[Any, ...] = ({}, [], (None, None, None))


def _fight(game: Game, ids: list[str]) -> list[tuple[Any, ...]] | None:
    """Each object's combat facts, or None outside combat (rules 506-511)."""
    combat = game.combat
    attackers, blocking, walkers = (combat.attackers, combat.blocking,
                                    combat.attacking_planeswalker)
    if not (attackers or blocking or walkers):
        return None
    return [(attackers.get(i), blocking.get(i), walkers.get(i)) for i in ids]


def _changed(before: tuple[Any, ...], after: tuple[Any, ...]) -> set[str]:
    """The ids whose signature differs between two scans ``(ids, fields, counters,
    stickers, combat)``; an id new in ``after`` counts as changed. A column of None stands
    for every object having none (no counters, stickers or combat)."""
    ids, old_ids = after[0], before[0]
    if ids == old_ids:  # the usual case: compare whole columns, then objects, at C speed
        changed: set[str] = set()
        if before[1] != after[1]:
            changed.update(compress(ids, map(ne, before[1], after[1])))
        for n, empty in enumerate(_EMPTY, start=2):
            if before[n] != after[n]:
                changed.update(compress(ids, map(ne, before[n] or repeat(empty),
                                                 after[n] or repeat(empty))))
        return changed
    # Zones changed: match objects by id (a column of None is an endless repeat).
    old_columns = [c or repeat(e) for c, e in zip(before[2:], _EMPTY, strict=True)]
    new_columns = [c or repeat(e) for c, e in zip(after[2:], _EMPTY, strict=True)]
    get = dict(zip(old_ids, zip(before[1], *old_columns, strict=False), strict=True)).get
    return {oid for oid, sig in zip(ids, zip(after[1], *new_columns, strict=False),
                                    strict=True) if get(oid) != sig}


def _library_places(game: Game, ids: list[str]) -> dict[str, int]:
    """Each library card of ``ids``: its place from the top of its library (0: the top), as
    :func:`server.view.project.hidden_view_of` shows it (``library_position``)."""
    places: dict[str, int] = {}
    libraries: dict[int, dict[str, int]] = {}
    for oid in ids:
        obj = game.objects[oid]
        if obj.zone is Zone.LIBRARY and looking.shows_place(game, oid):
            where = libraries.get(obj.owner)
            if where is None:
                library = game.player(obj.owner).library
                top = len(library) - 1
                where = libraries[obj.owner] = {i: top - n for n, i in enumerate(library)}
            places[oid] = where[oid]
    return places


#: Zones whose cards can't change while they stay there (hands, graveyards, the ante).
_SETTLED_ZONES = (Zone.HAND, Zone.GRAVEYARD, Zone.ANTE)


#: A header as (its base, priority, pending decision); the :class:`HeaderView` is built
#: only when someone reads it (:func:`header_view`).
HeaderSource = tuple[HeaderBase, int | None, tuple[int, DecisionKind, int] | None]
#: A player's public state as the tracker reads it (:func:`_player_signature`).
PlayerState = tuple[Any, ...]


def header_view(source: HeaderSource) -> HeaderView:
    """The header a :data:`HeaderSource` stands for."""
    return header_of(*source)


def player_view(seat: int, state: PlayerState) -> PlayerView:
    """The :class:`PlayerView` of a player state (equal to :func:`project_player`'s)."""
    (life, lands, lost, poison, mulligans, max_hand, name), library, hand, pool, planar = state
    return PlayerView(seat, name, life, library, hand, pool, lands, lost, poison, mulligans,
                      max_hand, planar)


@dataclass(slots=True)
class Changes:
    """What one action changed, as every view class needs it."""

    header_source: HeaderSource
    player_states: tuple[PlayerState, ...]
    #: Ids of objects whose projection may differ from last time (new ones included).
    changed: set[str]
    #: Version numbers: a class that saw this header / these players needs nothing new.
    header_version: int
    player_versions: tuple[int, ...]
    #: The header and each player as a serialized ``DeltaOp`` (set_header, set_player) and
    #: an element digest, shared by every class.
    header_op: bytes
    header_digest: int
    player_ops: tuple[bytes, ...]
    player_digests: tuple[int, ...]
    #: The number of this step (a class that missed one resynchronizes fully), every zone's
    #: contents and the zones whose contents changed since the last step.
    number: int
    zones: dict[ZoneKey, tuple[str, ...]]
    zones_changed: dict[ZoneKey, tuple[str, ...]]
    _built: dict[tuple[str, int], tuple[ObjectView, pb.GameObject, int]] = field(
        default_factory=dict)
    _ops: dict[tuple[object, ...], bytes] = field(default_factory=dict)
    _zones: dict[ZoneKey, tuple[int, bytes]] = field(default_factory=dict)

    @property
    def header(self) -> HeaderView:
        """The header after this action."""
        return header_view(self.header_source)

    @property
    def players(self) -> tuple[PlayerView, ...]:
        """The players after this action."""
        return tuple(player_view(seat, p) for seat, p in enumerate(self.player_states))

    def shared_op(self, key: tuple[object, ...], build: Callable[[], pb.DeltaOp]) -> bytes:
        """A serialized delta op the same for every class that sends it, built once."""
        hit = self._ops.get(key)
        if hit is None:
            hit = self._ops[key] = build().SerializeToString()
        return hit

    def shared_zone(self, key: ZoneKey, ids: tuple[str, ...]) -> tuple[int, bytes]:
        """A zone's contents as an element digest and a serialized ``set_zone`` op."""
        hit = self._zones.get(key)
        if hit is None or self.zones.get(key) != ids:
            contents = zone_contents(key, ids)
            hit = (element_digest(ZONE, contents),
                   pb.DeltaOp(set_zone=contents).SerializeToString())
            if self.zones.get(key) == ids:
                self._zones[key] = hit
        return hit

    def shared_object(self, game: Game, oid: str, zone_owner: int
                      ) -> tuple[ObjectView, pb.GameObject, int]:
        """An object as every viewer without a special look sees it: its view, message and
        element digest, built once per action."""
        key = (oid, zone_owner)
        hit = self._built.get(key)
        if hit is None:
            view = view_of(game, oid, zone_owner, frozenset())
            msg = encode_object(view)  # only changed objects get here: no cache to ask
            hit = (view, msg, element_digest(OBJECT, msg))
            self._built[key] = hit
        return hit


@dataclass(slots=True)
class GameTracker:
    """Per game: the last signature of every object in an open zone or looked at."""

    turn: int = -1
    #: Each player's last turn (``Game.last_turn_of``) as of the last turn change seen.
    last_turns: dict[int, int] = field(default_factory=dict)
    #: Each looked-at library card's place from the top (:func:`_library_places`).
    places: dict[str, int] = field(default_factory=dict)
    header_source: HeaderSource | None = None
    header_version: int = 0
    header_op: bytes = b""
    header_digest: int = 0
    #: The header's serialized fields around priority and the pending decision
    #: (:func:`server.view.wire.header_parts`).
    header_parts: tuple[bytes, bytes] = (b"", b"")
    player_states: tuple[PlayerState, ...] = ()
    player_versions: tuple[int, ...] = ()
    player_ops: tuple[bytes, ...] = ()
    player_digests: tuple[int, ...] = ()
    number: int = 0
    zones: dict[ZoneKey, tuple[str, ...]] = field(default_factory=dict)
    #: The last signatures as whole lists (ids, fields, counters, stickers, combat).
    sigs: tuple[Any, ...] = ()
    #: Turn, step, phase, stack and looks at the last full examination.
    moment: tuple[Any, ...] = ()
    #: What the header shows besides priority and the pending decision, at the last call.
    header_rest: tuple[Any, ...] = ()
    #: A copy of every visible zone's id list at the last call (in :func:`_zone_lists` order).
    _zone_copies: list[list[str]] = field(default_factory=list)
    _zone_names: list[ZoneKey] = field(default_factory=list)
    #: Encoded header tails by what they show (:func:`encode_header_parts`).
    _header_tails: dict[tuple[object, ...], bytes] = field(default_factory=dict)
    #: Per seat: recent states of the player, with their op and digest.
    _player_cache: list[dict[PlayerState, tuple[bytes, int]]] = field(default_factory=list)

    def step(self, game: Game, action: object = None) -> Changes:
        """Compare the game with the last call; call once after every action, with the
        action just applied if known.

        A priority pass that neither resolved anything nor ended the step (rules 117.3d,
        117.4: passes in succession still counting; same turn, step and stack) changes only
        who has priority: players, objects and zones are not re-examined then.
        """
        moment = (game.turn, game.step, game.phase, tuple(game.stack), len(game.looks))
        # After a pass that only moved priority, the count of passes in succession is
        # positive (117.4); resolving (even paused, 608.2c) or ending the step resets it.
        if isinstance(action, PassPriority) and game.passes > 0 and game.resolving is None \
                and moment == self.moment and self.number:
            self._header(game)
            self.number += 1
            return self._changes(set(), self.zones, {})
        self._header(game)
        self._players(tuple(_player_signature(p, planar.deck_size(game, p.seat))
                            for p in game.players))
        self.moment = moment
        everything = not self.sigs
        last_turn = self.turn
        self.turn = game.turn
        # The open zones (rule 400.2: battlefield, stack, exile; 408.2: command; 407: ante,
        # whose cards change owner as the game ends, 407.2), then the hidden cards some
        # viewer may see for now (701.20a). A look that starts or ends changes no
        # signature: each view class rebuilds the cards it starts or stops seeing itself
        # (ViewStream._objects).
        ids = game.battlefield + game.stack + game.exile + game.command + game.ante
        looked: list[str] = []
        if game.looks:
            looked += looking.visible_hidden_ids(game, looking.SPECTATORS)
            for seat in range(len(game.players)):
                looked += looking.visible_hidden_ids(game, seat)
            ids += looked
        objs = list(map(game.objects.__getitem__, ids))
        # Every signature is read with C-level maps, and compared list against list (most
        # actions change no object, or one).
        counters, stickers = list(map(_COUNTERS, objs)), list(map(_STICKERS, objs))
        sigs = (ids, list(map(_READ, objs)),
                list(map(dict.copy, counters)) if any(counters) else None,
                list(map(list.copy, stickers)) if any(stickers) else None, _fight(game, ids))
        changed = set(ids) if everything else _changed(self.sigs, sigs)
        # A looked-at library card also shows its place in the library, which moves with
        # the cards put into or taken from the library above it.
        places = _library_places(game, looked) if looked else {}
        if places != self.places:
            changed.update(oid for oid, at in places.items() if self.places.get(oid) != at)
            # (and a card still looked at now seen without its place: a search's reveal)
            changed.update(oid for oid in self.places.keys() - places.keys() if oid in looked)
            self.places = places
        if game.turn != last_turn and not everything:
            # The only part of a view that depends on the turn is summoning sickness (rule
            # 302.6; ``summoning_sick`` in project.py): it can end only for objects that
            # came under their controller's control since that player's last turn began --
            # none before the earliest of the players' last turns as they were.
            floor = min((self.last_turns.get(s, 0) for s in range(len(game.players))),
                        default=0)
            changed.update(compress(ids, [f[_SINCE] >= floor for f in sigs[1]]))
        if game.turn != last_turn:
            self.last_turns = dict(game.last_turn_of)
        self.sigs = sigs
        self.number += 1
        zones, zones_changed = self._zones(game)
        previous = self.zones
        self.zones = zones
        # A card in a hand, a graveyard or the ante can't change without changing zones (a
        # new object, 400.7): only the ones new in those zones need building.
        for key, now in (zones.items() if everything else zones_changed.items()):
            if key[0] in _SETTLED_ZONES:
                changed.update(now if everything else set(now).difference(previous.get(key, ())))
        return self._changes(changed, zones, zones_changed)

    def _zones(self, game: Game) -> tuple[dict[ZoneKey, tuple[str, ...]],
                                          dict[ZoneKey, tuple[str, ...]]]:
        """Every visible zone's contents, and those that changed since the last call
        (compared list against list at C speed; only changed zones are copied)."""
        lists = _zone_lists(game)
        copies = self._zone_copies
        if len(copies) != len(lists):  # the first call
            copies[:] = [[] for _ in lists]
            self._zone_names = _zone_keys(len(game.players))
            which: Iterable[int] = range(len(lists))
        else:
            which = compress(count(), map(ne, copies, lists))
        changed = {}
        keys = self._zone_names
        for n in which:
            copies[n] = lists[n].copy()
            changed[keys[n]] = tuple(lists[n])
        return ({**self.zones, **changed} if changed else self.zones), changed

    def _changes(self, changed: set[str], zones: dict[ZoneKey, tuple[str, ...]],
                 zones_changed: dict[ZoneKey, tuple[str, ...]]) -> Changes:
        assert self.header_source is not None
        return Changes(self.header_source, self.player_states, changed, self.header_version,
                       self.player_versions, self.header_op, self.header_digest,
                       self.player_ops, self.player_digests, self.number, zones,
                       zones_changed)

    def _set_header(self, header: bytes, unhashed: bytes = b"") -> None:
        """A new header (serialized ``GameHeader``: its hashed fields, then those numbered
        1000 or above, :func:`server.view.wire.header_unhashed`)."""
        self.header_version += 1
        self.header_op = set_header_op(header + unhashed)
        self.header_digest = bytes_digest(HEADER, header)

    def _header(self, game: Game) -> None:
        pending = game.pending
        pending_info = (pending.seat, pending.kind, pending.prompt_id) if pending else None
        triggers = game.pending_triggers
        damage_step = combat_damage_step(game)
        rest = (game.turn, game.active, game.step, game.result, game.phase,
                game.starting_player, tuple([t.id for t in triggers]) if triggers else (),
                planar.controller(game), damage_step)
        source = self.header_source
        if rest != self.header_rest or source is None:
            # Something besides priority and the pending decision changed: a new base.
            self.header_rest = rest
            base = header_base(game)
            if source is None or base != source[0]:
                self.header_parts = encode_header_parts(base, self._header_tails)
                source = (base, None, None)
        if source != self.header_source or game.priority != source[1] \
                or pending_info != source[2]:
            # Priority and the pending decision are written around the other fields'
            # bytes, which change far less often.
            self.header_source = (source[0], game.priority, pending_info)
            head, tail = self.header_parts
            self._set_header(header_message(head, game.priority, (
                pending_info[0], int(pending_info[1]), pending_info[2])
                if pending_info is not None else None, tail), header_unhashed(damage_step))

    def _players(self, states: tuple[PlayerState, ...]) -> None:
        """Each player whose public state changed gets a new version, op and digest."""
        if states == self.player_states:
            return
        if len(states) != len(self.player_states):  # the first call
            self.player_states = tuple(() for _ in states)
            self.player_versions = (0,) * len(states)
            self.player_ops = (b"",) * len(states)
            self.player_digests = (0,) * len(states)
            self._player_cache = [{} for _ in states]
        versions, ops, digests = (list(self.player_versions), list(self.player_ops),
                                  list(self.player_digests))
        for seat, (before, after) in enumerate(zip(self.player_states, states, strict=True)):
            if before != after:
                # A player's public state often returns to an earlier one (mana added to
                # the pool, then spent): reuse what was built for it then.
                cache = self._player_cache[seat]
                hit = cache.get(after)
                if hit is None:
                    if len(cache) >= _PLAYER_CACHE_SIZE:
                        cache.clear()
                    (life, lands, lost, poison, mulligans, max_hand, name), library, hand, \
                        pool, planar = after
                    msg = player_message(
                        seat=seat, name=name, life=life, library_count=library,
                        hand_count=hand, mana_pool=pool, lands_played=lands, has_lost=lost,
                        poison=poison, mulligans=mulligans, max_hand_size=max_hand,
                        planar_deck_count=planar)
                    hit = cache[after] = (set_player_op(msg), bytes_digest(PLAYER, msg))
                ops[seat], digests[seat] = hit
                versions[seat] += 1
        self.player_states = states
        self.player_versions, self.player_ops, self.player_digests = (
            tuple(versions), tuple(ops), tuple(digests))
