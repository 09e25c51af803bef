"""Protobuf's wire format, written by hand for the few messages sent after every action.

The delta of every view class and the header of every action are framed here from parts
that are already serialized (ops shared by several classes, the unchanging part of a header)
instead of being built as messages and serialized again. Every function writes exactly the
bytes protobuf's own deterministic serialization writes -- fields in field-number order,
proto3 scalars omitted at zero, set ``optional`` fields and submessages always written -- and
tests compare the two byte for byte. Field keys come from the generated descriptors, so a
renumbered field cannot be missed.
"""

from __future__ import annotations

from collections.abc import Sequence

from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb


def varint(value: int) -> bytes:
    """An integer as a base-128 varint (a negative one as its 64-bit two's complement, as
    protobuf writes negative int32 and int64 values)."""
    value &= (1 << 64) - 1
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


#: Varints of every value below 16 Ki (lengths, seats, ids of a session), precomputed.
_LIMIT = 1 << 14
_SMALL = [varint(n) for n in range(_LIMIT)]


def _key(descriptor: object, name: str, wire_type: int) -> bytes:
    number: int = descriptor.fields_by_name[name].number  # type: ignore[attr-defined]
    return varint(number << 3 | wire_type)


def length_delimited(key: bytes, payload: bytes) -> bytes:
    """One length-delimited field (wire type 2): a string, bytes or a submessage."""
    size = len(payload)
    return key + (_SMALL[size] if size < _LIMIT else varint(size)) + payload


def varint_field(key: bytes, value: int, always: bool = False) -> bytes:
    """One varint field (wire type 0); a zero is omitted unless the field is ``optional``
    and set (``always``)."""
    if not value and not always:
        return b""
    return key + (_SMALL[value] if 0 <= value < _LIMIT else varint(value))



def varints(keys: tuple[bytes, ...], values: tuple[int, ...]) -> bytes:
    """Varint fields in field-number order (``keys`` from :func:`_keys`), zeros omitted."""
    small = _SMALL
    return b"".join([key + (small[value] if 0 <= value < _LIMIT else varint(value))
                     for key, value in zip(keys, values, strict=True) if value])


def _keys(descriptor: object, names: tuple[str, ...], wire_types: str) -> tuple[bytes, ...]:
    """The keys of a message's fields, checked to be all of its fields in number order."""
    fields = sorted(descriptor.fields, key=lambda f: f.number)  # type: ignore[attr-defined]
    if tuple(f.name for f in fields) != names:
        raise ImportError(f"{descriptor.full_name} changed: update server.view.wire")  # type: ignore[attr-defined]
    return tuple(_key(descriptor, n, int(w)) for n, w in zip(names, wire_types, strict=True))


_HEADER = _keys(pb.GameHeader.DESCRIPTOR, (
    "turn", "active_seat", "step", "priority_seat", "pending", "result", "phase",
    "starting_seat", "triggers", "planar_controller", "combat_damage_step"), "00002200200")
_HEADER_HEAD = _HEADER[:3]
_PRIORITY, _PENDING = _HEADER[3:5]
_DELTA = _key(mpb.ServerMessage.DESCRIPTOR, "delta", 2)
_REQUEST_ID = _key(mpb.ServerMessage.DESCRIPTOR, "request_id", 0)


def with_request_id(request_id: int, message: bytes) -> bytes:
    """A serialized ServerMessage without a request id (``message``), answering
    ``request_id``: field 1 comes before every other field, so it is written in front."""
    return varint_field(_REQUEST_ID, request_id) + message


_SNAPSHOT = _key(mpb.ServerMessage.DESCRIPTOR, "snapshot", 2)
_RECENT, _RECENT_OBJECT = _keys(pb.Snapshot.DESCRIPTOR, (
    "room_id", "state_id", "view", "view_hash", "recent_events", "recent_objects"),
    "202222")[-2:]


def _read_varint(data: bytes, at: int) -> tuple[int, int]:
    """The varint at ``data[at:]`` and the index after it."""
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, at
        shift += 7


def with_recent_events(snapshot: bytes, events: Sequence[bytes],
                       objects: Sequence[bytes] = ()) -> bytes:
    """A serialized ``ServerMessage{snapshot}`` (without a request id) with ``events``
    (serialized ``GameEvent``s) added as its ``recent_events`` and ``objects`` (serialized
    ``GameObject``s) as its ``recent_objects``: the snapshot's last fields, so they are
    written after the rest of its payload, whose length grows."""
    if not events and not objects:
        return snapshot
    if not snapshot.startswith(_SNAPSHOT):
        raise ValueError("not a serialized ServerMessage{snapshot}")
    size, at = _read_varint(snapshot, len(_SNAPSHOT))
    if at + size != len(snapshot):
        raise ValueError("a ServerMessage with more than its snapshot")
    return length_delimited(_SNAPSHOT, snapshot[at:] + b"".join(
        [length_delimited(_RECENT, e) for e in events]
        + [length_delimited(_RECENT_OBJECT, o) for o in objects]))


_PREV, _STATE, _OPS, _HASH, _EVENTS = _keys(pb.Delta.DESCRIPTOR, (
    "prev_state_id", "state_id", "ops", "view_hash", "events"), "00222")


def delta_message(prev_id: int, state_id: int, ops: list[bytes], view_hash: bytes,
                  events: list[pb.GameEvent]) -> bytes:
    """A serialized ``ServerMessage{delta}`` from already serialized ops (most of them shared
    by every view class that sends them); the events are serialized by protobuf."""
    small, limit = _SMALL, _LIMIT
    parts = [_PREV, small[prev_id] if 0 < prev_id < limit else varint(prev_id),
             _STATE, small[state_id] if 0 < state_id < limit else varint(state_id)] \
        if prev_id > 0 and state_id > 0 \
        else [varint_field(_PREV, prev_id), varint_field(_STATE, state_id)]
    for op in ops:  # length_delimited, inlined: a delta often carries several ops
        size = len(op)
        parts += (_OPS, small[size] if size < limit else varint(size), op)
    if view_hash:
        parts.append(length_delimited(_HASH, view_hash))
    parts += [length_delimited(_EVENTS, e.SerializeToString(deterministic=True))
              for e in events]
    return length_delimited(_DELTA, b"".join(parts))


_SET_HEADER = _key(pb.DeltaOp.DESCRIPTOR, "set_header", 2)
_PENDING_SEAT, _PENDING_KIND, _PENDING_PROMPT = _keys(
    pb.PendingInfo.DESCRIPTOR, ("seat", "kind", "prompt_id"), "000")


def header_parts(*, turn: int, active_seat: int, step: int, result: pb.GameResult | None,
                 phase: int, starting_seat: int, triggers: list[pb.WaitingTrigger],
                 planar_controller: int | None) -> tuple[bytes, bytes]:
    """A ``GameHeader``'s serialized fields before and after priority and the pending
    decision (the only ones that change on most actions), for :func:`header_message`."""
    k = _HEADER
    head = header_head(turn, active_seat, step)
    tail = b"".join([
        length_delimited(k[5], result.SerializeToString(deterministic=True))
        if result is not None else b"",
        varint_field(k[6], phase), varint_field(k[7], starting_seat),
        *[length_delimited(k[8], t.SerializeToString(deterministic=True)) for t in triggers],
        varint_field(k[9], planar_controller, always=True)
        if planar_controller is not None else b""])
    return head, tail


def header_head(turn: int, active_seat: int, step: int) -> bytes:
    """The head part of :func:`header_parts` alone (it changes every step; the tail seldom
    does)."""
    return varints(_HEADER_HEAD, (turn, active_seat, step))


def header_unhashed(combat_damage_step: int) -> bytes:
    """A ``GameHeader``'s fields numbered 1000 or above (not hashed: protocol/README.md,
    "Versioning"), serialized: the last of its fields, written after :func:`header_message`'s
    bytes, which alone are digested."""
    return varint_field(_HEADER[10], combat_damage_step)


def header_message(head: bytes, priority: int | None, pending: tuple[int, int, int] | None,
                   tail: bytes) -> bytes:
    """A serialized ``GameHeader``: ``head`` and ``tail`` from :func:`header_parts`, with
    this priority seat (None: nobody) and pending decision (seat, kind, prompt id; None:
    none, once the game is over). Straight-line code: it runs after every action."""
    small, limit = _SMALL, _LIMIT
    parts = [head]
    if priority is not None:  # optional: written even when 0
        parts += (_PRIORITY, small[priority] if 0 <= priority < limit else varint(priority))
    if pending is not None:  # a set submessage is written even when empty
        seat, kind, prompt = pending
        shown = b"".join([
            _PENDING_SEAT + small[seat] if 0 < seat < limit else varint_field(
                _PENDING_SEAT, seat),
            _PENDING_KIND + small[kind] if 0 < kind < limit else varint_field(
                _PENDING_KIND, kind),
            _PENDING_PROMPT + small[prompt] if 0 < prompt < limit else varint_field(
                _PENDING_PROMPT, prompt)])
        parts += (_PENDING, small[len(shown)], shown)
    parts.append(tail)
    return b"".join(parts)


def set_header_op(header: bytes) -> bytes:
    """A serialized ``DeltaOp{set_header}``."""
    return length_delimited(_SET_HEADER, header)


_PLAYER = _keys(pb.Player.DESCRIPTOR, (
    "seat", "name", "life", "library_count", "hand_count", "mana_pool",
    "lands_played_this_turn", "has_lost", "poison", "mulligans", "max_hand_size",
    "planar_deck_count"), "020002000000")
_POOL = _keys(pb.ManaPool.DESCRIPTOR, ("white", "blue", "black", "red", "green", "colorless"),
              "000000")
_SET_PLAYER = _key(pb.DeltaOp.DESCRIPTOR, "set_player", 2)


def player_message(*, seat: int, name: str, life: int, library_count: int, hand_count: int,
                   mana_pool: tuple[int, ...], lands_played: int, has_lost: bool, poison: int,
                   mulligans: int, max_hand_size: int, planar_deck_count: int) -> bytes:
    """A serialized ``Player`` (the fields of :func:`server.view.encode.encode_player`, which
    a test checks it matches); ``mana_pool``: W, U, B, R, G, C."""
    k = _PLAYER
    return b"".join([
        varints(k[:1], (seat,)), length_delimited(k[1], name.encode()) if name else b"",
        varints(k[2:5], (life, library_count, hand_count)),
        length_delimited(k[5], varints(_POOL, mana_pool)),
        varints(k[6:], (lands_played, int(has_lost), poison, mulligans, max_hand_size,
                        planar_deck_count))])


def set_player_op(player: bytes) -> bytes:
    """A serialized ``DeltaOp{set_player}``."""
    return length_delimited(_SET_PLAYER, player)
