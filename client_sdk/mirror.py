"""A client's local mirror of its view, kept current by applying deltas.

Each delta names the state it applies to (``prev_state_id``) and carries the hash of the
resulting view (:mod:`protocol.viewhash`); the mirror checks both and raises
:class:`MirrorDesyncError` on a gap or a mismatch, after which the client asks for a snapshot.

A newer v1 server may send fields this schema doesn't know (protocol/README.md, "Versioning":
all numbered 1000 or above, and not hashed). Protobuf keeps them as unknown fields and would
serialize them again, so the mirror drops them from every element it keeps, as a client whose
runtime discards unknown fields (protobufjs) does when decoding.
"""

from __future__ import annotations

from typing import TypeVar

from google.protobuf.message import Message

from protocol.v1 import game_pb2 as pb
from protocol.viewhash import ViewDigest

ZoneKey = tuple[int, int]


_M = TypeVar("_M", bound=Message)


def _known(message: _M) -> _M:
    """``message`` (an element the mirror keeps) without the fields its schema doesn't know."""
    message.DiscardUnknownFields()
    return message


class MirrorDesyncError(Exception):
    """The mirror missed a state or disagrees with the server's view hash."""


class Mirror:
    """The latest known view of one game, as protocol messages."""

    def __init__(self) -> None:
        self.clear()

    def clear(self) -> None:
        """Forget the view (another room's game comes next), in place: whoever holds this
        mirror (a board drawing it) sees the next game's."""
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
        self.header.DiscardUnknownFields()
        self.players = {p.seat: _known(p) for p in view.players}
        self.objects = {o.id: _known(o) for o in view.objects}
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
                self.objects[obj.id] = _known(obj)
            elif kind in ("remove_object", "conceal_object"):
                self.objects.pop(getattr(op, kind), None)
            elif kind == "set_zone":
                self.zones[(op.set_zone.zone.kind, op.set_zone.zone.owner)] = list(
                    op.set_zone.object_ids)
            elif kind == "set_player":
                self.players[op.set_player.seat] = _known(op.set_player)
            elif kind == "set_header":
                self.header = _known(op.set_header)
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
        # protocol.viewhash.view_hash(self.view()), without its copy to drop unknown fields:
        # the mirror's elements hold none.
        digest = ViewDigest()
        digest.load(self.view())
        actual = digest.hash(self.viewer)
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
