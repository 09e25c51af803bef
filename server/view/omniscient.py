"""The omniscient view class's numbered streams: every card in every zone (:data:`OMNISCIENT`,
replays only).

:class:`OmniscientStream` projects the whole game again after each action and sends the
difference of the two projections (:func:`server.view.diff.diff`) -- a delta that is, by
construction, exactly the difference of two projections (invariant 4). That costs a full
projection per action: it is the reference the replay's stream is tested against.

:class:`TrackedOmniscientStream` is the replay's: it sends the very same deltas, but finds
them as a live room does -- the shared :class:`~server.view.track.GameTracker` says which
objects of the public zones, hands and graveyards changed, and the libraries (which it does
not follow) are compared id list against id list -- so an action costs what it changed, not
the game's every card (8 decks of 1,000 cards made each action of a replay project 8,000
objects, ~100 ms). Its work comes as generators that yield every :data:`OBJECTS_PER_YIELD`
objects built, so an event loop can checkpoint between (:mod:`server.rooms.replaying`); it
keeps each object's view and encoding once (no second whole view, no protobuf message per
object), and its snapshot is written from those encodings.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Sequence
from typing import Any, TypeVar, cast

from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from protocol.viewhash import (
    HEADER,
    OBJECT,
    PLAYER,
    ZONE,
    ViewDigest,
    bytes_digest,
    element_digest,
    fully_hashed,
)
from server.engine import Game, Zone
from server.engine.events import Event, LifeLost
from server.view import wire
from server.view.diff import diff
from server.view.encode import (
    ObjectCache,
    encode_header,
    encode_object,
    encode_ops,
    encode_player,
    encode_view,
    zone_contents,
)
from server.view.events import project_events
from server.view.project import (
    OMNISCIENT,
    HeaderView,
    ObjectView,
    PlayerView,
    View,
    ZoneKey,
    project,
    view_of,
    visible_zones,
)
from server.view.stream import _Before
from server.view.track import (
    Changes,
    GameTracker,
    HeaderSource,
    PlayerState,
    header_view,
    player_view,
)
from server.view.wire import delta_message

_T = TypeVar("_T")

def _digest_op(digest: ViewDigest, op: pb.DeltaOp) -> None:
    """Fold one delta operation into the view's digest (protocol/README.md, "Views, state ids
    and hashes": an element replaced, added or dropped)."""
    kind = op.WhichOneof("op")
    if kind == "set_header":
        digest.put(("h",), HEADER, op.set_header)
    elif kind == "set_player":
        digest.put(("p", op.set_player.seat), PLAYER, op.set_player)
    elif kind in ("create_object", "update_object"):
        obj = op.create_object if kind == "create_object" else op.update_object
        digest.put(("o", obj.id), OBJECT, obj)
    elif kind == "remove_object":
        digest.drop(("o", op.remove_object))
    elif kind == "set_zone":
        digest.put(("z", op.set_zone.zone.kind, op.set_zone.zone.owner), ZONE, op.set_zone)
    else:  # diff() makes none of reveal/conceal: every card is in view already
        raise ValueError(f"unexpected delta op {kind!r}")


class OmniscientStream:
    """The current omniscient view, its state id and view digest (the same interface as
    :class:`server.view.stream.ViewStream` where a replay uses it)."""

    def __init__(self, view: View) -> None:
        self.viewer = view.viewer
        self._view = view
        self.state_id = 1
        self.cache = ObjectCache()
        self.digest = ViewDigest()
        self.digest.load(encode_view(view, self.cache))

    @classmethod
    def start(cls, game: Game) -> OmniscientStream:
        """The stream's first state (state id 1): the whole game."""
        return cls(project(game, OMNISCIENT))

    @property
    def view(self) -> View:
        """The current view."""
        return self._view

    def advance(self, game: Game, changes: Changes | None = None,
                events: Sequence[Event] = ()) -> bytes | None:
        """The next ``Delta`` (serialized ServerMessage), or None if nothing changed and no
        event happened. ``changes`` is ignored (accepted for the stream interface)."""
        before, after = self._view, project(game, OMNISCIENT)
        ops: list[bytes] = []
        for message in encode_ops(diff(before, after), self.cache.encode):
            _digest_op(self.digest, message)
            ops.append(message.SerializeToString())
        told = project_events(events, OMNISCIENT, before.objects, after.objects) \
            if events else []
        self._view = after
        if not ops and not told:
            return None
        if len(self.cache) > 2 * len(after.objects) + 64:
            self.cache.keep_only(after)
        prev_id = self.state_id
        self.state_id += 1
        return delta_message(prev_id, self.state_id, ops, self.digest.hash(self.viewer), told)

    def snapshot(self, room_id: str, request_id: int = 0, recent: Sequence[bytes] = ()
                 ) -> bytes:
        """A ``Snapshot`` of the current state (serialized ServerMessage), with ``recent``
        (serialized events) as its ``recent_events``."""
        return mpb.ServerMessage(request_id=request_id, snapshot=pb.Snapshot(
            room_id=room_id, state_id=self.state_id, view=encode_view(self._view, self.cache),
            view_hash=self.digest.hash(self.viewer),
            recent_events=[pb.GameEvent.FromString(e) for e in recent])).SerializeToString()


#: Objects :class:`TrackedOmniscientStream` builds (projects, encodes, hashes) between two
#: yields of its generators -- about half a millisecond of work.
OBJECTS_PER_YIELD = 16
#: Zone ids, object encodings or events handled between two yields where each costs little
#: (set operations and joins at C speed, an event's projection).
ITEMS_PER_YIELD = 2048
EVENTS_PER_YIELD = 64
#: Objects removed (or views let go of) between two yields.
REMOVALS_PER_YIELD = 256
#: Zones each player has their own of (rule 400.1); the others are shared.
_OWN_ZONES = (Zone.LIBRARY, Zone.HAND, Zone.GRAVEYARD)
_NOTHING: frozenset[str] = frozenset()
#: Whether a zone's element digest is that of its serialization as written.
_ZONES_FULLY_HASHED = fully_hashed(pb.ZoneContents)


def _key(descriptor: Any, name: str, wire_type: int) -> bytes:
    number: int = descriptor.fields_by_name[name].number
    return wire.varint(number << 3 | wire_type)


_CREATE = _key(pb.DeltaOp.DESCRIPTOR, "create_object", 2)
_UPDATE = _key(pb.DeltaOp.DESCRIPTOR, "update_object", 2)
_REMOVE = _key(pb.DeltaOp.DESCRIPTOR, "remove_object", 2)
_SET_ZONE = _key(pb.DeltaOp.DESCRIPTOR, "set_zone", 2)
_VIEW_FIELDS = {name: _key(pb.View.DESCRIPTOR, name, wire_type) for name, wire_type in (
    ("viewer", 0), ("header", 2), ("players", 2), ("objects", 2), ("zones", 2))}
_SNAPSHOT_FIELDS = {name: _key(pb.Snapshot.DESCRIPTOR, name, wire_type) for name, wire_type in (
    ("room_id", 2), ("state_id", 0), ("view", 2), ("view_hash", 2))}
_SNAPSHOT = _key(mpb.ServerMessage.DESCRIPTOR, "snapshot", 2)


def _in_order(descriptor: Any) -> tuple[str, ...]:
    """A message's field names in field-number order (what serialization writes first)."""
    return tuple(f.name for f in sorted(descriptor.fields, key=lambda f: f.number))


# The bytes written here by hand follow these messages' fields as they are numbered.
if _in_order(pb.View.DESCRIPTOR) != ("viewer", "header", "players", "objects", "zones") \
        or _in_order(pb.Snapshot.DESCRIPTOR)[:4] != ("room_id", "state_id", "view", "view_hash") \
        or _in_order(pb.Delta.DESCRIPTOR) != ("prev_state_id", "state_id", "ops", "view_hash",
                                              "events"):
    raise ImportError("View, Snapshot or Delta changed: update server.view.omniscient")


def _omniscient_view(game: Game, oid: str, zone_owner: int) -> ObjectView:
    """What the omniscient class sees of ``oid`` (a face-down card with its characteristics
    and ``face_down`` set, rule 406.3b: as :func:`project` with every card looked at)."""
    return view_of(game, oid, zone_owner,
                   frozenset((oid,)) if game.objects[oid].face_down else _NOTHING)


def _zone_element(key: ZoneKey, ids: tuple[str, ...]) -> tuple[bytes, int]:
    """A zone's contents serialized, and its element digest."""
    contents = zone_contents(key, ids)
    data = contents.SerializeToString(deterministic=True)
    return data, (bytes_digest(ZONE, data) if _ZONES_FULLY_HASHED
                  else element_digest(ZONE, contents))


def run_steps(steps: Generator[None, None, _T]) -> _T:
    """Run a generator of work to its end, without pausing; its result."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return cast(_T, done.value)


class TrackedOmniscientStream:
    """The :data:`OMNISCIENT` class's stream for a replay: the same state ids, deltas (op for
    op, in the same order) and view hashes as :class:`OmniscientStream`, its work bounded
    by what each action changed and cut into small pieces. Build it with
    :meth:`start_steps` (or :meth:`start`), then :meth:`advance_steps` after each action."""

    viewer = OMNISCIENT

    def __init__(self) -> None:
        self.state_id = 1
        self.digest = ViewDigest()
        self._tracker = GameTracker()
        #: The view: every object in a zone (its view, and its ``GameObject`` serialized),
        #: each zone's ids, the header and the players as the tracker reported them.
        self.objects: dict[str, ObjectView] = {}
        self._encoded: dict[str, bytes] = {}
        self.zones: dict[ZoneKey, tuple[str, ...]] = {}
        self._header: HeaderSource | None = None
        self._players: tuple[PlayerState, ...] = ()

    @classmethod
    def start(cls, game: Game) -> TrackedOmniscientStream:
        """The stream's first state (state id 1), built at once."""
        stream = cls()
        run_steps(stream.start_steps(game))
        return stream

    # ---- the view
    @property
    def header(self) -> HeaderView:
        assert self._header is not None
        return header_view(self._header)

    @property
    def players(self) -> tuple[PlayerView, ...]:
        return tuple(player_view(seat, p) for seat, p in enumerate(self._players))

    @property
    def view(self) -> View:
        """The current view (sharing this stream's dictionaries: read it, don't keep it)."""
        return View(OMNISCIENT, self.header, self.players, self.objects, self.zones)

    def _keys(self, game: Game) -> list[ZoneKey]:
        """The zones this class sees, in canonical order (:func:`visible_zones`)."""
        return visible_zones(game, OMNISCIENT)

    def _build(self, game: Game, oid: str, zone_owner: int
               ) -> tuple[ObjectView, pb.GameObject, bytes] | None:
        """``oid``'s view, message and serialization, unless its view is unchanged."""
        view = _omniscient_view(game, oid, zone_owner)
        if self.objects.get(oid) == view:
            return None
        msg = encode_object(view)
        return view, msg, msg.SerializeToString()

    # ---- work
    def start_steps(self, game: Game) -> Generator[None, None, None]:
        """Build the whole view of ``game`` (state id 1), yielding every
        :data:`OBJECTS_PER_YIELD` objects."""
        changes = self._tracker.step(game)
        self._header, self._players = changes.header_source, changes.player_states
        digest = self.digest
        digest.set(("h",), changes.header_digest)
        for seat, element in enumerate(changes.player_digests):
            digest.set(("p", seat), element)
        built = 0
        for key in self._keys(game):
            ids = tuple(game.zone_list(*key))
            self.zones[key] = ids
            digest.set(("z", int(key[0]), key[1]), _zone_element(key, ids)[1])
            for oid in ids:
                view = _omniscient_view(game, oid, key[1])
                msg = encode_object(view)
                self.objects[oid] = view
                self._encoded[oid] = msg.SerializeToString()
                digest.set(("o", oid), element_digest(OBJECT, msg))
                built += 1
                if built % OBJECTS_PER_YIELD == 0:
                    yield
        yield

    def advance(self, game: Game, action: object = None, events: Sequence[Event] = ()
                ) -> bytes | None:
        """:meth:`advance_steps` at once."""
        return run_steps(self.advance_steps(game, action, events))

    def advance_steps(self, game: Game, action: object = None, events: Sequence[Event] = ()
                      ) -> Generator[None, None, bytes | None]:
        """After ``action`` (which made ``events``): the next ``Delta`` (serialized
        ServerMessage), or None if nothing changed and no event happened -- exactly
        :class:`OmniscientStream`'s. Yields every :data:`OBJECTS_PER_YIELD` objects built
        (and every :data:`ITEMS_PER_YIELD` ids of changed zones compared)."""
        changes = self._tracker.step(game, action)
        digest = self.digest
        ops: list[bytes] = []  # each framed as a Delta's op field (_delta_message)
        frame = _op_field
        # The header and the players: the same for every class, serialized by the tracker.
        if changes.header_source != self._header:
            self._header = changes.header_source
            digest.set(("h",), changes.header_digest)
            ops.append(frame(changes.header_op))
        if changes.player_states != self._players:
            for seat, (before, after) in enumerate(zip(self._players, changes.player_states,
                                                       strict=True)):
                if before != after:
                    digest.set(("p", seat), changes.player_digests[seat])
                    ops.append(frame(changes.player_ops[seat]))
            self._players = changes.player_states
        # The zones that changed: the tracker's, and the libraries compared here (it follows
        # no library: no seat or spectator sees one, 401.2).
        keys = self._keys(game)
        zones = self.zones
        moved: list[tuple[ZoneKey, tuple[str, ...]]] = []
        work = 0
        for key in keys:
            if key[0] is Zone.LIBRARY or key not in zones:
                ids = tuple(game.zone_list(*key))
                work += len(ids)
            else:
                found = changes.zones_changed.get(key)
                if found is None:
                    continue
                ids = found
            if zones.get(key) != ids:
                moved.append((key, ids))
        visible = set(keys)
        vanished = [key for key in zones if key not in visible]  # (an ante zone, once)
        if work >= ITEMS_PER_YIELD:
            yield
        old_ids: set[str] = set()
        new_ids: set[str] = set()
        for key in vanished:
            old_ids.update(zones[key])
        for key, ids in moved:
            old_ids.update(zones.get(key, ()))
            new_ids.update(ids)
        gone = old_ids - new_ids
        # New in a zone: a new object (400.7), or one that changed zones keeping its id.
        rebuild: dict[ZoneKey, set[str]] = {}
        for key, ids in moved:
            fresh = set(ids).difference(zones.get(key, ()))
            if fresh:
                rebuild[key] = fresh
        # Changed where they are (the tracker's signatures; hands and graveyards: only new
        # cards, they can't change there, 400.7).
        objects = game.objects
        for oid in changes.changed:
            obj = objects.get(oid)
            if obj is None:
                continue
            key = (obj.zone, obj.owner if obj.zone in _OWN_ZONES else -1)
            if key in visible:
                rebuild.setdefault(key, set()).add(oid)
        if len(old_ids) + len(new_ids) >= ITEMS_PER_YIELD:
            yield
        # What each changed object was before the action, for the events (None: it wasn't).
        replaced: dict[str, ObjectView | None] = {}
        # Removals in the order of the view before (zone by zone, in each zone's order).
        if gone:
            removed = 0
            for key in sorted({*vanished, *(k for k, _ in moved)}):
                for oid in filter(gone.__contains__, zones.get(key, ())):
                    replaced[oid] = self.objects.pop(oid)
                    del self._encoded[oid]
                    digest.drop(("o", oid))
                    ops.append(frame(wire.length_delimited(_REMOVE, oid.encode())))
                    removed += 1
                    if removed % REMOVALS_PER_YIELD == 0:
                        yield
        for key in vanished:
            del zones[key]
        new_zones = dict(moved)
        # New and changed objects in the order of the view after.
        built = 0
        for key in keys:
            wanted = rebuild.get(key)
            if not wanted:
                continue
            ids = new_zones[key] if key in new_zones else zones[key]
            for oid in filter(wanted.__contains__, ids):
                made = self._build(game, oid, key[1])
                built += 1
                if built % OBJECTS_PER_YIELD == 0:
                    yield
                if made is None:
                    continue
                view, msg, data = made
                old = self.objects.get(oid)
                replaced.setdefault(oid, old)
                self.objects[oid] = view
                self._encoded[oid] = data
                digest.set(("o", oid), element_digest(OBJECT, msg))
                ops.append(frame(wire.length_delimited(
                    _UPDATE if old is not None else _CREATE, data)))
        for key, ids in moved:
            data, element = _zone_element(key, ids)
            zones[key] = ids
            digest.set(("z", int(key[0]), key[1]), element)
            ops.append(frame(wire.length_delimited(_SET_ZONE, data)))
        # The events, as this class may learn them (all of it but other views' secrets).
        told: list[pb.GameEvent] = []
        if events:
            was = _Before(self.objects, replaced)
            for part in _event_slices(events):
                told += project_events(part, OMNISCIENT, was, self.objects)
                if len(part) >= EVENTS_PER_YIELD:
                    yield
        if len(replaced) >= REMOVALS_PER_YIELD:  # (freeing many views takes time too)
            yield
            while replaced:
                for _ in range(min(REMOVALS_PER_YIELD, len(replaced))):
                    replaced.popitem()
                yield
        if not ops and not told:
            return None
        prev_id = self.state_id
        self.state_id += 1
        return _delta_message(prev_id, self.state_id, ops, digest.hash(OMNISCIENT), told)

    def snapshot(self, room_id: str, request_id: int = 0) -> bytes:
        """:meth:`snapshot_steps` at once."""
        return run_steps(self.snapshot_steps(room_id, request_id))

    def snapshot_steps(self, room_id: str, request_id: int = 0
                       ) -> Generator[None, None, bytes]:
        """A ``Snapshot`` of the current state (serialized ServerMessage): the bytes
        protobuf writes for :class:`OmniscientStream`'s, written from the encodings kept
        (objects by id, zones by kind then owner), yielding every :data:`ITEMS_PER_YIELD`
        objects."""
        length = wire.length_delimited
        keys = _VIEW_FIELDS
        parts = [wire.varint_field(keys["viewer"], OMNISCIENT),
                 length(keys["header"], encode_header(self.header).SerializeToString())]
        parts += [length(keys["players"], encode_player(p).SerializeToString())
                  for p in self.players]
        ids = sorted(self._encoded)
        yield
        encoded = self._encoded
        for start in range(0, len(ids), ITEMS_PER_YIELD):
            parts += [length(keys["objects"], encoded[oid])
                      for oid in ids[start:start + ITEMS_PER_YIELD]]
            yield
        for key, zone_ids in sorted(self.zones.items()):
            parts.append(length(keys["zones"], _zone_element(key, zone_ids)[0]))
            if len(zone_ids) >= ITEMS_PER_YIELD // 4:
                yield
        fields = _SNAPSHOT_FIELDS
        snapshot = b"".join([
            length(fields["room_id"], room_id.encode()) if room_id else b"",
            wire.varint_field(fields["state_id"], self.state_id),
            length(fields["view"], b"".join(parts)),
            length(fields["view_hash"], self.digest.hash(OMNISCIENT))])
        return wire.with_request_id(request_id, length(_SNAPSHOT, snapshot))


_DELTA_PREV = _key(pb.Delta.DESCRIPTOR, "prev_state_id", 0)
_DELTA_STATE = _key(pb.Delta.DESCRIPTOR, "state_id", 0)
_DELTA_OPS = _key(pb.Delta.DESCRIPTOR, "ops", 2)
_DELTA_HASH = _key(pb.Delta.DESCRIPTOR, "view_hash", 2)
_DELTA_EVENTS = _key(pb.Delta.DESCRIPTOR, "events", 2)
_DELTA = _key(mpb.ServerMessage.DESCRIPTOR, "delta", 2)


def _op_field(op: bytes) -> bytes:
    """A serialized ``DeltaOp`` as a ``Delta``'s ``ops`` field."""
    return wire.length_delimited(_DELTA_OPS, op)


def _delta_message(prev_id: int, state_id: int, framed_ops: list[bytes], view_hash: bytes,
                   events: list[pb.GameEvent]) -> bytes:
    """:func:`server.view.wire.delta_message`'s bytes, from ops already framed as fields
    (:func:`_op_field`, as they were made: a delta of thousands of ops is joined at C speed,
    not framed op by op in one go)."""
    length = wire.length_delimited
    parts = [wire.varint_field(_DELTA_PREV, prev_id), wire.varint_field(_DELTA_STATE, state_id),
             *framed_ops]
    if view_hash:
        parts.append(length(_DELTA_HASH, view_hash))
    parts += [length(_DELTA_EVENTS, e.SerializeToString(deterministic=True)) for e in events]
    return length(_DELTA, b"".join(parts))


def _event_slices(events: Sequence[Event]) -> Iterator[Sequence[Event]]:
    """``events`` in slices of about :data:`EVENTS_PER_YIELD`, each cut before an event
    whose projection doesn't depend on the one before it (:func:`project_events` reads the
    event before a LifeLost: damage to a player already says the life it lost, 120.3a)."""
    start = 0
    while start < len(events):
        end = min(start + EVENTS_PER_YIELD, len(events))
        while end < len(events) and isinstance(events[end], LifeLost):
            end += 1
        yield events[start:end]
        start = end
