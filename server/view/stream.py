"""One view class's numbered stream of views (architecture invariants 4 and 8).

Each seat, and the spectators together, form a view class. After every action the room asks
a shared :class:`~server.view.track.GameTracker` what changed, then each class rebuilds only
the changed objects it can see, turns the differences into delta operations, and encodes the
delta once for all its members. The view hash is kept up to date element by element (see
:func:`server.view.encode.element_digest`), so no whole view is ever re-encoded to hash it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from protocol.viewhash import OBJECT, ViewDigest, element_digest, fully_hashed
from server.engine import Game, Zone
from server.engine.ante import state as ante_state
from server.engine.events import Event, MulliganTaken, StartingPlayerChosen
from server.view.encode import (
    ObjectCache,
    encode_view,
)
from server.view.events import project_events
from server.view.project import (
    HeaderView,
    ObjectView,
    PlayerView,
    View,
    ZoneKey,
    header_base,
    hidden_seen,
    hidden_view_of,
    project,
    view_of,
    visible_zones,
)
from server.view.track import (
    Changes,
    GameTracker,
    HeaderSource,
    PlayerState,
    header_view,
    player_view,
)
from server.view.wire import delta_message, with_recent_events, with_request_id

#: Zones each player has their own of (rule 400.1); the others are shared.
_OWN_ZONES = (Zone.LIBRARY, Zone.HAND, Zone.GRAVEYARD)
#: Whether two objects with equal element digests are encoded alike: while no GameObject
#: field is numbered 1000 or above (those are not hashed: protocol/README.md, "Versioning").
_DIGEST_IS_ENCODING = fully_hashed(pb.GameObject)


def _object_op(update: bool, msg: pb.GameObject) -> pb.DeltaOp:
    return pb.DeltaOp(update_object=msg) if update else pb.DeltaOp(create_object=msg)


class _Before(Mapping[str, ObjectView]):
    """The objects of a view before one step, read through the view after it: ``replaced``
    holds what each object changed in the step was before (None: it wasn't there)."""

    __slots__ = ("_now", "_replaced")

    def __init__(self, now: dict[str, ObjectView],
                 replaced: dict[str, ObjectView | None]) -> None:
        self._now, self._replaced = now, replaced

    def __getitem__(self, oid: str) -> ObjectView:
        old = self._replaced[oid] if oid in self._replaced else self._now[oid]
        if old is None:
            raise KeyError(oid)
        return old

    def __iter__(self) -> Iterator[str]:
        yield from (o for o, v in self._replaced.items() if v is not None)
        yield from (o for o in self._now if o not in self._replaced)

    def __len__(self) -> int:
        return sum(1 for _ in self)


@dataclass(slots=True)
class ViewStream:
    """The current view of one view class, its state id, encoding cache and view digest."""

    viewer: int
    #: The header and players as the tracker last reported them (views built when read).
    header_source: HeaderSource
    player_states: tuple[PlayerView | PlayerState, ...]
    objects: dict[str, ObjectView]
    zones: dict[ZoneKey, tuple[str, ...]]
    state_id: int = 1
    cache: ObjectCache = field(default_factory=ObjectCache)
    digest: ViewDigest = field(default_factory=ViewDigest)
    #: Hidden cards this class saw at the last step (701.20).
    looked: frozenset[str] = frozenset()
    #: The last objects that left this class's view for good (their ids are gone, 400.7):
    #: name, owner, controller and card types by id, newest last, at most :data:`DEPARTED`
    #: -- so a snapshot's recent events can name them, and say a creature died
    #: (:meth:`snapshot`).
    departed: dict[str, tuple[str, int, int, tuple[str, ...]]] = field(default_factory=dict)
    #: The tracker versions of the header and players this class has.
    header_version: int = -1
    player_versions: tuple[int, ...] = ()
    #: The tracker step this class last applied (-1: none yet).
    step: int = -1
    _zone_keys: list[ZoneKey] = field(default_factory=list)
    _open: set[ZoneKey] = field(default_factory=set)
    _ante: bool = False
    #: The last snapshot built: (state id, room id, serialized ServerMessage without a
    #: request id).
    _snapshot: tuple[int, str, bytes] | None = None

    @classmethod
    def start(cls, game: Game, viewer: int, step: int = -1) -> ViewStream:
        """The stream's first state: the viewer's projection of ``game``. ``step``: the
        tracker step this state matches (the number of its last :class:`Changes`)."""
        view = project(game, viewer)
        header = view.header
        stream = cls(viewer, (header_base(game), header.priority, header.pending), view.players,
                     dict(view.objects), dict(view.zones), step=step)
        stream.looked = frozenset(hidden_seen(game, viewer)) if game.looks \
            else frozenset()
        stream.digest.load(encode_view(view, stream.cache))
        return stream

    @property
    def header(self) -> HeaderView:
        """The header of the current view."""
        return header_view(self.header_source)

    @property
    def players(self) -> tuple[PlayerView, ...]:
        """The players of the current view."""
        return tuple(p if isinstance(p, PlayerView) else player_view(seat, p)
                     for seat, p in enumerate(self.player_states))

    @property
    def view(self) -> View:
        """The current view (sharing this stream's dictionaries: read it, don't keep it)."""
        return View(self.viewer, self.header, self.players, self.objects, self.zones)

    def advance(self, game: Game, changes: Changes | None = None,
                events: Sequence[Event] = ()) -> bytes | None:
        """The next ``Delta`` message (serialized ServerMessage), or None if nothing this
        viewer may know changed. ``changes``: the shared tracker's report for this action
        (computed here from scratch if not given); ``events``: what the action did, passed
        through the projection (:func:`server.view.events.project_events`)."""
        if changes is None:
            changes = GameTracker().step(game)
        # What each object changed in this step was before (for the events' old ids).
        replaced: dict[str, ObjectView | None] | None = {} if events else None
        ops: list[bytes] = []  # serialized DeltaOps, most of them shared by every class
        digest = self.digest
        # The tracker numbers each new header and player state: a new number is a new
        # value (only the first step after start has to compare the values themselves).
        first = self.header_version < 0
        if changes.header_version != self.header_version:
            self.header_version = changes.header_version
            if not (first and changes.header == self.header):
                self.header_source = changes.header_source
                digest.set(("h",), changes.header_digest)
                ops.append(changes.header_op)
        if changes.player_versions != self.player_versions:
            mine = self.player_versions or (-1,) * len(changes.player_versions)
            now = changes.players if first else ()
            for seat, (before, after) in enumerate(zip(mine, changes.player_versions,
                                                       strict=True)):
                if before != after and not (first and self.players[seat] == now[seat]):
                    digest.set(("p", seat), changes.player_digests[seat])
                    ops.append(changes.player_ops[seat])
            self.player_versions = changes.player_versions
            self.player_states = changes.player_states
        self._objects(game, changes, ops, replaced)
        told = project_events(events, self.viewer, _Before(self.objects, replaced),
                              self.objects) if replaced is not None else []
        if not ops and not told:
            return None
        prev_id = self.state_id
        self.state_id += 1
        return delta_message(prev_id, self.state_id, ops, digest.hash(self.viewer), told)

    def _objects(self, game: Game, changes: Changes, ops: list[bytes],
                 replaced: dict[str, ObjectView | None] | None) -> None:
        """Zones and objects: gone, new and changed ones, then zone orders. ``replaced``:
        where to keep what changed objects were before, if wanted."""
        in_step = changes.number == self.step + 1
        if in_step and not (changes.changed or changes.zones_changed or game.looks
                            or self.looked):
            self.step = changes.number  # nothing moved or changed (a priority pass)
            return
        looked = frozenset(hidden_seen(game, self.viewer)) if game.looks \
            else frozenset()
        keys = self._keys(game)
        zone_changed: list[tuple[ZoneKey, tuple[str, ...]]] = []
        zones = self.zones
        self.step = changes.number
        if in_step:  # only the zones that changed in this step can differ
            candidates = changes.zones_changed
            for key in keys:
                if key in candidates and zones.get(key) != candidates[key]:
                    zone_changed.append((key, candidates[key]))
        else:  # a step was missed: compare everything, rebuild every object
            for key in keys:
                ids = changes.zones.get(key)
                if ids is None:
                    ids = tuple(game.zone_list(*key))
                if zones.get(key) != ids:
                    zone_changed.append((key, ids))
        if not zone_changed and looked == self.looked and not changes.changed and in_step:
            return
        objects = self.objects
        entered: set[str] = set()
        if zone_changed or looked != self.looked:
            for _, ids in zone_changed:
                entered.update(i for i in ids if i not in objects)
            fresh = dict(zone_changed)
            if in_step:
                # Only what left a changed zone or stopped being looked at can leave the
                # view (an object never changes zones under the same id, 400.7).
                gone = {oid for key, _ in zone_changed for oid in zones.get(key, ())}
                gone.difference_update(*fresh.values())
                gone |= self.looked - looked
                gone = {oid for oid in gone - looked
                        if oid in objects and not self._shown(game, oid, fresh)}
            else:
                visible = {oid for key in keys for oid in fresh.get(key, zones.get(key, ()))}
                visible |= looked
                gone = {oid for oid in objects if oid not in visible}
            for oid in sorted(gone):
                if replaced is not None:
                    replaced.setdefault(oid, objects[oid])
                left = objects.pop(oid)
                self.digest.drop(("o", oid))
                # Still in the game in the same place: a look or reveal ended (701.20a).
                if oid in game.objects:
                    ops.append(pb.DeltaOp(conceal_object=oid).SerializeToString())
                    continue
                ops.append(pb.DeltaOp(remove_object=oid).SerializeToString())
                if not left.face_down:
                    departed = self.departed
                    departed[oid] = (left.name, left.owner, left.controller,
                                     left.card_types)
                    if len(departed) > DEPARTED:
                        del departed[next(iter(departed))]
        open_keys = self._open
        rebuild = changes.changed if in_step else set(objects) | set(changes.changed)
        # A card this class goes on seeing is rebuilt only if it changed (the tracker
        # follows every looked-at card, its place in a library included).
        seen = looked - self.looked if in_step else looked
        for oid in sorted(rebuild | entered | seen | (self.looked - looked)):
            obj = game.objects.get(oid)
            if obj is None:
                continue
            key = (obj.zone, obj.owner if obj.zone in _OWN_ZONES else -1)
            shared = key in open_keys and oid not in looked
            if shared:
                view, msg, element = changes.shared_object(game, oid, key[1])
            elif key in open_keys or oid in looked:
                view = view_of(game, oid, key[1], looked) if key in open_keys \
                    else hidden_view_of(game, oid)
                msg = self.cache.encode(view)
                element = element_digest(OBJECT, msg)
            else:
                continue
            old = objects.get(oid)
            # Equal element digests are equal encodings, and every ObjectView field is
            # encoded: the view is unchanged (cheaper than comparing the dataclasses; fields
            # left out of the hash must be compared).
            if old is not None and self.digest.parts.get(("o", oid)) == element \
                    and (_DIGEST_IS_ENCODING or old == view):
                continue
            if replaced is not None:
                replaced.setdefault(oid, old)
            objects[oid] = view
            self.digest.set(("o", oid), element)
            update = old is not None
            if shared:
                ops.append(changes.shared_op((update, oid, key[1]),
                                             partial(_object_op, update, msg)))
            elif not update:
                ops.append(pb.DeltaOp(reveal_object=msg).SerializeToString())  # 701.20
            else:
                ops.append(_object_op(update, msg).SerializeToString())
        for key, ids in zone_changed:
            zones[key] = ids
            element, op = changes.shared_zone(key, ids)
            self.digest.set(("z", int(key[0]), key[1]), element)
            ops.append(op)
        self.looked = looked
        if len(self.cache) > 2 * len(objects) + 64:
            self.cache.keep_only_ids(objects)  # forget what is gone, now and then

    def _shown(self, game: Game, oid: str, fresh: dict[ZoneKey, tuple[str, ...]]) -> bool:
        """Whether ``oid`` is in a zone this class sees (``fresh``: zones just changed)."""
        obj = game.objects.get(oid)
        if obj is None:
            return False
        key = (obj.zone, obj.owner if obj.zone in _OWN_ZONES else -1)
        return key in self._open and oid in fresh.get(key, self.zones.get(key, ()))

    def _keys(self, game: Game) -> list[ZoneKey]:
        """The zones this class sees (they change only when the ante zone appears)."""
        ante = bool(ante_state(game) is not None or game.ante)
        if ante != self._ante or not self._zone_keys:
            self._ante = ante
            self._zone_keys = visible_zones(game, self.viewer)
            self._open = set(self._zone_keys)
        return self._zone_keys

    def snapshot(self, room_id: str, request_id: int = 0, recent: Sequence[bytes] = ()
                 ) -> bytes:
        """A ``Snapshot`` of the current state (serialized ServerMessage), with ``recent``
        (serialized events, see :func:`recent_events`) as its ``recent_events``. The view is
        encoded once per state: spectators joining a game together (a new game of a
        watched room) all get the same bytes, each behind its own request id."""
        cached = self._snapshot
        if cached is None or cached[0] != self.state_id or cached[1] != room_id:
            view_msg = encode_view(self.view, self.cache)
            data = mpb.ServerMessage(snapshot=pb.Snapshot(
                room_id=room_id, state_id=self.state_id, view=view_msg,
                view_hash=self.digest.hash(self.viewer))).SerializeToString()
            cached = self._snapshot = (self.state_id, room_id, data)
        named = sorted({oid for e in recent for oid in event_object_ids(e)
                        if oid in self.departed and oid not in self.objects})
        gone = [pb.GameObject(id=oid, name=name, owner=owner, controller=controller,
                              card_types=types).SerializeToString()
                for oid in named for name, owner, controller, types in (self.departed[oid],)]
        return with_request_id(request_id, with_recent_events(cached[2], recent, gone))


#: Objects that left a view for good whose names a view class keeps (ViewStream.departed).
DEPARTED = 64


def event_object_ids(data: bytes) -> set[str]:
    """The object ids a serialized ``GameEvent`` names (every ``*_id``/``*_ids`` field, in
    whatever event it is)."""
    found: set[str] = set()
    pending: list[Message] = [pb.GameEvent.FromString(data)]
    while pending:
        message = pending.pop()
        for field_desc, value in message.ListFields():
            if field_desc.type == FieldDescriptor.TYPE_MESSAGE:
                pending.extend(value if field_desc.is_repeated else [value])
            elif field_desc.name.endswith(("_id", "_ids")) \
                    and field_desc.type == FieldDescriptor.TYPE_STRING:
                found.update(value if field_desc.is_repeated else [value])
    found.discard("")
    return found


#: Events a snapshot repeats from the deltas before it (``Snapshot.recent_events``).
RECENT_EVENTS = 20
#: Deltas looked through for them, at most (many deltas carry no event).
RECENT_DELTAS = 64


#: The kinds of the events that tell how a game began -- who plays first (rule 103.1) and
#: each mulligan taken (103.5) --, which a snapshot's recent events always begin with
#: (:func:`recent_events`).
OPENING_KINDS = ("starting_player_chosen", "mulligan_taken")


def opening_events(events: Sequence[Event], delta: bytes) -> list[bytes]:
    """The events of ``delta`` (a view class's serialized ``ServerMessage{delta}`` after an
    action whose engine events were ``events``) that tell how the game began
    (:data:`OPENING_KINDS`), serialized; none for nearly every action (only the engine's
    events are looked at then). A view class keeps them for :func:`recent_events`: taken
    from its own deltas, they are nothing it wasn't sent."""
    if not any(isinstance(e, (StartingPlayerChosen, MulliganTaken)) for e in events):
        return []
    return [e.SerializeToString(deterministic=True)
            for e in mpb.ServerMessage.FromString(delta).delta.events
            if e.WhichOneof("kind") in OPENING_KINDS]


def recent_events(history: Sequence[tuple[int, int, bytes]],
                  opening: Sequence[tuple[int, bytes]] = ()) -> list[bytes]:
    """The events (serialized, oldest first) of a view class's last deltas, whole deltas
    only, at most :data:`RECENT_EVENTS` of them -- but for a last delta with more, whose last
    ones they are -- from ``history``: (previous state id, state id, serialized
    ``ServerMessage{delta}``), oldest first, as a room keeps them. Only what that class was
    sent, so a snapshot carrying them shows its viewer nothing new. (Cut within a delta, a
    mulligan's seven draws read "drew a card (x3)" with no mulligan before them.)

    ``opening``: (state id of its delta, serialized event) of the class's
    :func:`opening_events` this game, oldest first. Those of deltas before the last ones
    come first: a late spectator's log (a player's back in a new terminal) begins with who
    played first and the mulligans, as the log of everyone who was there does -- the last
    20 events of a game past its first turns have none of them."""
    found: list[list[bytes]] = []
    count = 0
    oldest: int | None = None  # the state id of the oldest delta whose events are found
    for looked, (_prev, state, data) in enumerate(reversed(history)):
        if looked >= RECENT_DELTAS:
            break
        events = mpb.ServerMessage.FromString(data).delta.events
        if not events:
            oldest = state  # (looked through: an opening event can't be in it)
            continue
        if found and count + len(events) > RECENT_EVENTS:
            break
        found.append([e.SerializeToString(deterministic=True) for e in events])
        oldest = state
        count += len(events)
        if count >= RECENT_EVENTS:
            break
    kept = [e for events in reversed(found) for e in events][-RECENT_EVENTS:]
    # (an opening event is one of a kind in a game: one of the oldest delta's is missing
    # only if that delta was cut -- four players' first draws)
    before = [e for state, e in opening
              if oldest is None or state < oldest or (state == oldest and e not in kept)]
    return before + kept
