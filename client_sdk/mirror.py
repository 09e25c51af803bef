"""A client's local mirror of its view, kept current by applying deltas.

Each delta names the state it applies to (``prev_state_id``) and carries the hash of the
resulting view (:mod:`protocol.viewhash`); the mirror checks both and raises
:class:`MirrorDesyncError` on a gap or a mismatch, after which the client asks for a snapshot.
"""

from __future__ import annotations

from protocol.v1 import game_pb2 as pb
from protocol.viewhash import view_hash

ZoneKey = tuple[int, int]


class MirrorDesyncError(Exception):
    """The mirror missed a state or disagrees with the server's view hash."""


class Mirror:
    """The latest known view of one game, as protocol messages."""

    def __init__(self) -> None:
        self.state_id = 0
        self.viewer = 0
        self.header = pb.GameHeader()
        self.players: dict[int, pb.Player] = {}
        self.objects: dict[str, pb.GameObject] = {}
        self.zones: dict[ZoneKey, list[str]] = {}

    @property
    def ready(self) -> bool:
        """Whether a snapshot has been received."""
        return self.state_id != 0

    def load_snapshot(self, snapshot: pb.Snapshot) -> None:
        """Replace the mirror with a full view."""
        view = snapshot.view
        self.viewer = view.viewer
        self.header = pb.GameHeader()
        self.header.CopyFrom(view.header)
        self.players = {p.seat: p for p in view.players}
        self.objects = {o.id: o for o in view.objects}
        self.zones = {(z.zone.kind, z.zone.owner): list(z.object_ids) for z in view.zones}
        self.state_id = snapshot.state_id
        self._check(snapshot.view_hash)

    def apply_delta(self, delta: pb.Delta) -> None:
        """Apply a delta in order; raise :class:`MirrorDesyncError` if it does not fit."""
        if delta.prev_state_id != self.state_id:
            raise MirrorDesyncError(
                f"delta from state {delta.prev_state_id}, mirror is at {self.state_id}")
        for op in delta.ops:
            kind = op.WhichOneof("op")
            if kind in ("create_object", "update_object", "reveal_object"):
                obj = getattr(op, kind)
                self.objects[obj.id] = obj
            elif kind in ("remove_object", "conceal_object"):
                self.objects.pop(getattr(op, kind), None)
            elif kind == "set_zone":
                self.zones[(op.set_zone.zone.kind, op.set_zone.zone.owner)] = list(
                    op.set_zone.object_ids)
            elif kind == "set_player":
                self.players[op.set_player.seat] = op.set_player
            elif kind == "set_header":
                self.header = op.set_header
            else:
                raise MirrorDesyncError(f"unknown delta op {kind!r}")
        self.state_id = delta.state_id
        self._check(delta.view_hash)

    def view(self) -> pb.View:
        """The mirrored view in canonical order (the form the view hash is computed over)."""
        return pb.View(
            viewer=self.viewer,
            header=self.header,
            players=[self.players[s] for s in sorted(self.players)],
            objects=[self.objects[i] for i in sorted(self.objects)],
            zones=[pb.ZoneContents(zone=pb.ZoneRef(kind=k, owner=o),  # type: ignore[arg-type]
                                   object_ids=ids)
                   for (k, o), ids in sorted(self.zones.items())],
        )

    def _check(self, expected: bytes) -> None:
        actual = view_hash(self.view())
        if actual != expected:
            raise MirrorDesyncError(f"view hash mismatch at state {self.state_id}")

    # ---- convenience queries
    def zone(self, kind: int, owner: int = -1) -> list[pb.GameObject]:
        """The visible objects of a zone, in order."""
        return [self.objects[i] for i in self.zones.get((kind, owner), [])]

    @property
    def game_over(self) -> bool:
        """Whether the game has a result."""
        return self.header.HasField("result")
