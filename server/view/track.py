"""What changed in a game since the last action, computed once for every view class.

:func:`server.view.project.project` builds a whole view; doing that for every view class after
every action costs far more than the protocol budget allows (architecture.md). A
:class:`GameTracker` instead keeps, for every object in a zone some viewer can see, a
*signature*: the object fields the projection reads (:data:`PROJECTED`, read at C speed by
one ``attrgetter``), copies of its mutable ones, and the combat facts it shows. An object
whose signature is unchanged projects to the same :class:`~server.view.project.ObjectView`,
so each view class rebuilds only the objects in ``changed``. The header and the players are
projected and encoded once per action for all classes, and an object seen the same way by
several classes is built and encoded once (:meth:`Changes.shared_object`). The engine stays
untouched (invariant 1: it knows nothing of views); property tests check the streams equal a
full projection after every action.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import compress, repeat
from operator import attrgetter, ne
from typing import Any, cast

from protocol.v1 import game_pb2 as pb
from protocol.viewhash import HEADER, OBJECT, PLAYER, ZONE, element_digest
from server.engine import Game, Player, Zone, looking
from server.engine.actions import PassPriority
from server.view.encode import ObjectCache, encode_header, encode_player, zone_contents
from server.view.project import (
    HeaderView,
    ObjectView,
    PlayerView,
    ZoneKey,
    project_header,
    project_player,
    view_of,
)

#: The GameObject fields an ObjectView depends on (directly or through its properties:
#: power/toughness, mana value, keywords, is_creature...). A test keeps this list and
#: :data:`NOT_PROJECTED` together equal to the dataclass's fields.
PROJECTED = ("card", "owner", "controller", "zone", "tapped", "damage", "controlled_since",
             "x_value", "targets", "modes", "attached_to", "face_down", "pt_now",
             "keywords_now", "subtypes_now", "token", "ability")
#: Mutable projected fields, copied into the signature.
PROJECTED_MUTABLE = ("counters", "stickers")
#: Fields no view shows (bookkeeping of the rules engine).
NOT_PROJECTED = ("id", "target_groups", "deathtouched", "base_controller", "restrictions",
                 "exile_if_dies", "regeneration_shields", "spell_copy", "loyalty_turn",
                 "timestamp", "source_power", "source_attached", "activated_turn", "chooser",
                 "came_from", "exiled_with", "exile_pile")

_READ = attrgetter(*PROJECTED)
_COUNTERS = attrgetter("counters")
_STICKERS = attrgetter("stickers")
_PLAYER_SCALARS = attrgetter("life", "lands_played", "has_lost", "poison", "mulligans",
                             "max_hand_size", "name")


def _zone_contents(game: Game) -> dict[ZoneKey, tuple[str, ...]]:
    """The contents of every zone some viewer may see, by (kind, owner)."""
    out: dict[ZoneKey, tuple[str, ...]] = {
        (Zone.BATTLEFIELD, -1): tuple(game.battlefield), (Zone.STACK, -1): tuple(game.stack),
        (Zone.EXILE, -1): tuple(game.exile), (Zone.COMMAND, -1): tuple(game.command),
    }
    for player in game.players:
        out[Zone.HAND, player.seat] = tuple(player.hand)
        out[Zone.GRAVEYARD, player.seat] = tuple(player.graveyard)
    out[Zone.ANTE, -1] = tuple(game.ante)  # rules 400.2, 407.2: public
    return out


def _player_signature(player: Player) -> tuple[Any, ...]:
    """Everything :func:`project_players` reads of a player, cheaply."""
    return (_PLAYER_SCALARS(player), len(player.library), len(player.hand),
            tuple(player.mana_pool), len(player.planar_deck))

#: How many recent public states of one player are kept (a turn's worth, about).
_PLAYER_CACHE_SIZE = 64

#: The combat facts of an object in no combat (attacking, blocking, attacking a planeswalker).
_NO_FIGHT = (None, None, None)


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
    stickers, combat)``; an id new in ``after`` counts as changed."""
    ids, old_ids = after[0], before[0]
    old_fight, new_fight = before[4] or repeat(_NO_FIGHT), after[4] or repeat(_NO_FIGHT)
    if ids == old_ids:  # the usual case: compare column by column at C speed
        changed: set[str] = set()
        for old, new in zip(before[1:4], after[1:4], strict=True):
            if old != new:
                changed.update(compress(ids, map(ne, old, new)))
        if before[4] != after[4]:
            changed.update(compress(ids, map(ne, old_fight, new_fight)))
        return changed
    # Zones changed: match objects by id (the combat column may be an endless repeat).
    get = dict(zip(old_ids, zip(*before[1:4], old_fight, strict=False), strict=True)).get
    return {oid for oid, sig in zip(ids, zip(*after[1:4], new_fight, strict=False),
                                    strict=True) if get(oid) != sig}


#: Zones whose cards can't change while they stay there (hands, graveyards, the ante).
_SETTLED_ZONES = (Zone.HAND, Zone.GRAVEYARD, Zone.ANTE)

#: The zones whose objects some viewer may see (libraries only through looks).
_OPEN_ZONES = (Zone.BATTLEFIELD, Zone.STACK, Zone.EXILE, Zone.COMMAND)


@dataclass(slots=True)
class Changes:
    """What one action changed, as every view class needs it."""

    header: HeaderView
    players: tuple[PlayerView, ...]
    #: Ids of objects whose projection may differ from last time (new ones included).
    changed: set[str]
    #: Version numbers: a class that saw this header / these players needs nothing new.
    header_version: int
    player_versions: tuple[int, ...]
    #: The encoded header and players with their element digests (shared by the classes).
    header_msg: pb.GameHeader
    header_digest: int
    player_msgs: tuple[pb.Player, ...]
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
    _cache: ObjectCache = field(default_factory=ObjectCache)

    def shared_object(self, game: Game, oid: str, zone_owner: int
                      ) -> tuple[ObjectView, pb.GameObject, int]:
        """An object as every viewer without a special look sees it: its view, message and
        element digest, built once per action."""
        key = (oid, zone_owner)
        hit = self._built.get(key)
        if hit is None:
            view = view_of(game, oid, zone_owner, frozenset())
            msg = self._cache.encode(view)
            hit = (view, msg, element_digest(OBJECT, msg))
            self._built[key] = hit
        return hit


@dataclass(slots=True)
class GameTracker:
    """Per game: the last signature of every object in an open zone or looked at."""

    turn: int = -1
    looks: tuple[tuple[tuple[str, ...], tuple[int, ...]], ...] = ()
    header: HeaderView | None = None
    header_version: int = 0
    header_msg: pb.GameHeader = field(default_factory=pb.GameHeader)
    header_digest: int = 0
    players: tuple[PlayerView, ...] = ()
    player_versions: tuple[int, ...] = ()
    player_msgs: tuple[pb.Player, ...] = ()
    player_digests: tuple[int, ...] = ()
    cache: ObjectCache = field(default_factory=ObjectCache)
    raw_players: tuple[tuple[Any, ...], ...] = ()
    number: int = 0
    zones: dict[ZoneKey, tuple[str, ...]] = field(default_factory=dict)
    #: The last signatures as whole lists (ids, fields, counters, stickers, combat).
    sigs: tuple[Any, ...] = ()
    #: Turn, step, phase, stack and looks at the last full examination.
    moment: tuple[Any, ...] = ()
    #: What the header shows besides priority and the pending decision, at the last call.
    header_rest: tuple[Any, ...] = ()
    #: Per seat: recent public states of the player, with their view, message and digest.
    _player_cache: list[dict[tuple[Any, ...], tuple[PlayerView, pb.Player, int]]] = field(
        default_factory=list)

    def step(self, game: Game, action: object = None) -> Changes:
        """Compare the game with the last call; call once after every action, with the
        action just applied if known.

        A priority pass that neither resolved anything nor ended the step (rules 117.3d,
        117.4: passes in succession still counting; same turn, step and stack) changes only
        who has priority: objects and zones are not re-examined then.
        """
        self._header_and_players(game)
        moment = (game.turn, game.step, game.phase, tuple(game.stack), len(game.looks))
        # After a pass that only moved priority, the count of passes in succession is
        # positive (117.4); resolving (even paused, 608.2c) or ending the step resets it.
        if isinstance(action, PassPriority) and game.passes > 0 and game.resolving is None \
                and moment == self.moment and self.number:
            self.number += 1
            return self._changes(set(), self.zones, {})
        self.moment = moment
        looks = tuple((tuple(lk.ids), lk.seats) for lk in game.looks) if game.looks else ()
        everything = game.turn != self.turn or looks != self.looks or not self.sigs
        self.turn, self.looks = game.turn, looks
        # The open zones (rule 400.2: battlefield, stack, exile; 408.2: command), then the
        # hidden cards some viewer may see for now.
        ids = game.battlefield + game.stack + game.exile + game.command
        if looks:
            ids += looking.visible_hidden_ids(game, looking.SPECTATORS)
            for seat in range(len(game.players)):
                ids += looking.visible_hidden_ids(game, seat)
        objs = list(map(game.objects.__getitem__, ids))
        # Every signature is read with C-level maps, and compared list against list (most
        # actions change no object, or one).
        sigs = (ids, list(map(_READ, objs)),
                list(map(tuple, map(dict.items, map(_COUNTERS, objs)))),
                list(map(tuple, map(_STICKERS, objs))), _fight(game, ids))
        changed = set(ids) if everything else _changed(self.sigs, sigs)
        self.sigs = sigs
        self.number += 1
        zones = _zone_contents(game)
        previous = self.zones
        zones_changed = {k: v for k, v in zones.items() if previous.get(k) != v}
        self.zones = zones
        # A card in a hand, a graveyard or the ante can't change without changing zones (a
        # new object, 400.7): only the ones new in those zones need building.
        for key, now in (zones.items() if everything else zones_changed.items()):
            if key[0] in _SETTLED_ZONES:
                changed.update(now if everything else set(now).difference(previous.get(key, ())))
        if len(self.cache) > 4 * len(game.objects):
            self.cache.keep_only_ids(game.objects)  # forget what is gone
        return self._changes(changed, zones, zones_changed)

    def _changes(self, changed: set[str], zones: dict[ZoneKey, tuple[str, ...]],
                 zones_changed: dict[ZoneKey, tuple[str, ...]]) -> Changes:
        assert self.header is not None
        return Changes(self.header, self.players, changed, self.header_version,
                       self.player_versions, self.header_msg, self.header_digest,
                       self.player_msgs, self.player_digests, self.number, zones,
                       zones_changed, _cache=self.cache)

    def _header_and_players(self, game: Game) -> None:
        pending = game.pending
        pending_info = (pending.seat, pending.kind, pending.prompt_id) if pending else None
        triggers = game.pending_triggers
        rest = (game.turn, game.active, game.step, game.result, game.phase,
                game.starting_player, tuple([t.id for t in triggers]) if triggers else (),
                game.planar_controller, game.planechase)
        header = self.header
        if rest == self.header_rest and header is not None and pending_info is not None:
            # Only priority and the pending decision moved (the usual case): update the
            # header view and its message in place instead of rebuilding them.
            if game.priority != header.priority or pending_info != header.pending:
                assert pending is not None
                self.header = HeaderView(header.turn, header.active, header.step,
                                         game.priority, pending_info, header.result,
                                         header.phase, header.starting_seat, header.triggers,
                                         header.planar_controller)
                msg = self.header_msg
                if game.priority is None:
                    msg.ClearField("priority_seat")
                else:
                    msg.priority_seat = game.priority
                shown = msg.pending
                shown.seat = pending.seat
                shown.kind = cast(pb.DecisionKind, int(pending.kind))
                shown.prompt_id = pending.prompt_id
                self.header_version += 1
                self.header_digest = element_digest(HEADER, msg)
        else:
            self.header_rest = rest
            header = project_header(game)
            if header != self.header:
                self.header = header
                self.header_version += 1
                self.header_msg = encode_header(header)
                self.header_digest = element_digest(HEADER, self.header_msg)
        raw = tuple(map(_player_signature, game.players))
        if raw == self.raw_players:
            return
        if len(raw) != len(self.raw_players):  # the first call
            self.raw_players = tuple(() for _ in raw)
            self.player_versions = (0,) * len(raw)
            self.player_msgs = (pb.Player(),) * len(raw)
            self.player_digests = (0,) * len(raw)
            self.players = tuple(project_player(p) for p in game.players)
            self._player_cache = [{} for _ in raw]
        versions, msgs, digests = (list(self.player_versions), list(self.player_msgs),
                                   list(self.player_digests))
        players = list(self.players)
        for seat, (before, after) in enumerate(zip(self.raw_players, raw, strict=True)):
            if before != after:
                # A player's public state often returns to an earlier one (mana added to
                # the pool, then spent): reuse what was built for it then.
                cache = self._player_cache[seat]
                hit = cache.get(after)
                if hit is None:
                    if len(cache) >= _PLAYER_CACHE_SIZE:
                        cache.clear()
                    view = project_player(game.players[seat])
                    encoded = encode_player(view)
                    hit = cache[after] = (view, encoded, element_digest(PLAYER, encoded))
                players[seat], msgs[seat], digests[seat] = hit
                versions[seat] += 1
        self.raw_players = raw
        self.players = tuple(players)
        self.player_versions, self.player_msgs, self.player_digests = (
            tuple(versions), tuple(msgs), tuple(digests))
