"""Deltas between two views of the same viewer (architecture invariant 4: diff after project).

Because a delta is computed from two projections, it cannot carry anything the view hides.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from server.view.project import HeaderView, ObjectView, PlayerView, View, ZoneKey

OpKind = Literal["create", "update", "remove", "zone", "player", "header"]


@dataclass(frozen=True, slots=True)
class DeltaOp:
    """One semantic change; exactly the field matching ``kind`` is set."""

    kind: OpKind
    obj: ObjectView | None = None
    object_id: str | None = None
    zone: ZoneKey | None = None
    zone_ids: tuple[str, ...] = ()
    player: PlayerView | None = None
    header: HeaderView | None = None


def diff(prev: View, nxt: View) -> list[DeltaOp]:
    """The operations that turn ``prev`` into ``nxt`` (see :func:`apply_ops`)."""
    if prev.viewer != nxt.viewer:
        raise ValueError("a delta relates two views of the same viewer")
    ops: list[DeltaOp] = []
    if prev.header != nxt.header:
        ops.append(DeltaOp("header", header=nxt.header))
    for before, after in zip(prev.players, nxt.players, strict=True):
        if before != after:
            ops.append(DeltaOp("player", player=after))
    for oid in prev.objects:
        if oid not in nxt.objects:
            ops.append(DeltaOp("remove", object_id=oid))
    for oid, obj in nxt.objects.items():
        old = prev.objects.get(oid)
        if old is None:
            ops.append(DeltaOp("create", obj=obj))
        elif old != obj:
            ops.append(DeltaOp("update", obj=obj))
    for key, ids in nxt.zones.items():
        if prev.zones.get(key) != ids:
            ops.append(DeltaOp("zone", zone=key, zone_ids=ids))
    return ops


def apply_ops(view: View, ops: list[DeltaOp]) -> View:
    """Apply a delta to a view, returning the new view (the input is not changed)."""
    header = view.header
    players = list(view.players)
    objects = dict(view.objects)
    zones = dict(view.zones)
    for op in ops:
        if op.kind == "header" and op.header is not None:
            header = op.header
        elif op.kind == "player" and op.player is not None:
            players[op.player.seat] = op.player
        elif op.kind == "remove" and op.object_id is not None:
            del objects[op.object_id]
        elif op.kind in ("create", "update") and op.obj is not None:
            objects[op.obj.id] = op.obj
        elif op.kind == "zone" and op.zone is not None:
            zones[op.zone] = op.zone_ids
        else:
            raise ValueError(f"malformed delta op {op!r}")
    ordered = {oid: objects[oid] for key in zones for oid in zones[key]}
    if len(ordered) != len(objects):
        raise ValueError("delta leaves objects outside every zone")
    return View(view.viewer, header, tuple(players), ordered, zones)
