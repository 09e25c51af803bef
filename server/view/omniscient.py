"""The omniscient view class's numbered stream (replays only: :data:`OMNISCIENT`).

It sees every card in every zone, so the shared :class:`~server.view.track.GameTracker`
(which follows only what some player or spectator can see) isn't enough: each step projects
the whole game again and sends the difference of the two projections
(:func:`server.view.diff.diff`) -- a delta that is, by construction, exactly the difference
of two projections (invariant 4). It costs a full projection per action, which a replay can
afford; no live room streams this class.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from protocol.viewhash import HEADER, OBJECT, PLAYER, ZONE, ViewDigest
from server.engine import Game, Zone
from server.engine.events import Event
from server.view.diff import diff
from server.view.encode import ObjectCache, encode_ops, encode_view
from server.view.events import project_events
from server.view.project import (
    OMNISCIENT,
    ObjectView,
    View,
    ZoneKey,
    hidden_view_of,
    project,
    project_header,
    project_players,
    view_of,
    visible_zones,
)
from server.view.track import Changes
from server.view.wire import delta_message

#: The viewer id of the delayed omniscient spectator tier (protocol/README.md, "Spectator
#: tiers"): every hand, every card some player may look at now and every face-down card a
#: player may look at -- but no library's order, which would tell the game's next draws.
EVERY_HAND = -3


def project_every_hand(game: Game) -> View:
    """The :data:`EVERY_HAND` view of ``game``: what all its players may see together."""
    seen = frozenset(oid for lk in game.looks for oid in lk.ids if oid in game.objects)
    zones: dict[ZoneKey, tuple[str, ...]] = {}
    objects: dict[str, ObjectView] = {}
    for key in visible_zones(game, OMNISCIENT):
        zone, owner = key
        if zone is Zone.LIBRARY:
            continue
        ids = tuple(game.zone_list(zone, owner))
        zones[key] = ids
        for oid in ids:
            objects[oid] = view_of(game, oid, owner, seen)
    for oid in sorted(seen):
        if game.objects[oid].zone is Zone.LIBRARY:
            objects[oid] = hidden_view_of(game, oid)  # with its library_position
    return View(EVERY_HAND, project_header(game), project_players(game), objects, zones)


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


def _project_omniscient(game: Game) -> View:
    return project(game, OMNISCIENT)


class OmniscientStream:
    """The current omniscient view, its state id and view digest (the same interface as
    :class:`server.view.stream.ViewStream` where a replay uses it). ``projector``: the
    view of a game this class has (default: :data:`OMNISCIENT`; :func:`every_hand` makes
    the delayed omniscient spectators' :data:`EVERY_HAND` class)."""

    def __init__(self, view: View,
                 projector: Callable[[Game], View] = _project_omniscient) -> None:
        self.viewer = view.viewer
        self._project = projector
        self._view = view
        self.state_id = 1
        self.cache = ObjectCache()
        self.digest = ViewDigest()
        self.digest.load(encode_view(view, self.cache))

    @classmethod
    def start(cls, game: Game) -> OmniscientStream:
        """The stream's first state (state id 1): the whole game."""
        return cls(project(game, OMNISCIENT))

    @classmethod
    def every_hand(cls, game: Game) -> OmniscientStream:
        """The :data:`EVERY_HAND` class's first state (state id 1)."""
        return cls(project_every_hand(game), project_every_hand)

    @property
    def view(self) -> View:
        """The current view."""
        return self._view

    def advance(self, game: Game, changes: Changes | None = None,
                events: Sequence[Event] = ()) -> bytes | None:
        """The next ``Delta`` (serialized ServerMessage), or None if nothing changed and no
        event happened. ``changes`` is ignored (accepted for the stream interface)."""
        before, after = self._view, self._project(game)
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
