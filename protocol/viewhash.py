"""The view hash of protocol v1 (protocol/README.md, "Views, state ids and hashes").

A view is a set of elements: its header, each player, each object and each zone's contents.
Each element's digest is the SHA-256 of a one-byte tag (``h``, ``p``, ``o``, ``z``) followed
by the element message serialized deterministically, read as a 256-bit big-endian integer.
The view hash is the SHA-256 of ``b"manawire.view.v1"``, the viewer seat as a signed 32-bit
big-endian integer, and the sum of all element digests modulo 2**256 as 32 big-endian bytes.

Fields numbered :data:`UNHASHED_FROM` (1000) or above, at any depth of an element, are not
hashed (protocol/README.md, "Versioning"): an element is serialized with them cleared, so a
client built from an older v1 schema, which does not know them, computes the same hash. Only
message types whose schema has such fields pay for the check (today ``GameObject``, for
``chosen_name``, 1010).

A sum can be kept up to date element by element, so neither the server nor a client has to
re-encode a whole view to check one delta. Shared by the server and the Python SDK.
"""

from __future__ import annotations

import hashlib
from typing import NamedTuple, TypeVar

from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

from protocol.v1 import game_pb2 as pb

MODULUS = 1 << 256
HEADER, PLAYER, OBJECT, ZONE = b"h", b"p", b"o", b"z"
#: The first field number the view hash leaves out (hash revision 1 is every field below).
UNHASHED_FROM = 1000

M = TypeVar("M", bound=Message)
_sha256 = hashlib.sha256


def element_digest(tag: bytes, message: Message) -> int:
    """One element's digest (of ``message`` with its fields numbered 1000 and above
    cleared). ``message`` must hold no unknown fields: true of a message built rather than
    decoded; drop them from a decoded one first (``DiscardUnknownFields()``, as
    :func:`view_hash` does)."""
    if type(message) not in _FULLY_HASHED:
        message = hashed(message)
    # bytes_digest, inlined: this runs for every changed object on the server.
    return int.from_bytes(
        _sha256(tag + message.SerializeToString(deterministic=True)).digest(), "big")


def bytes_digest(tag: bytes, serialized: bytes) -> int:
    """One element's digest from its deterministic serialization (with no field numbered
    1000 or above: see :func:`hashed`)."""
    return int.from_bytes(_sha256(tag + serialized).digest(), "big")


def combine(viewer: int, total: int) -> bytes:
    """The view hash from the viewer and the sum of element digests."""
    prefix = _PREFIXES.get(viewer)
    if prefix is None:
        prefix = b"manawire.view.v1" + viewer.to_bytes(4, "big", signed=True)
        if len(_PREFIXES) < 64:
            _PREFIXES[viewer] = prefix
    return hashlib.sha256(prefix + (total % MODULUS).to_bytes(32, "big")).digest()


#: The hash input before the digest sum, per viewer (seats and spectators: a few).
_PREFIXES: dict[int, bytes] = {}


def view_hash(view: pb.View) -> bytes:
    """The hash of a whole view (the order of its repeated fields doesn't matter).

    ``view`` may have been decoded from a newer server's bytes: fields this schema doesn't
    know are kept by protobuf as unknown fields and would be serialized again, so they are
    dropped (from a copy). Under the Versioning rule they are all numbered 1000 or above."""
    clean = type(view)()
    clean.CopyFrom(view)
    clean.DiscardUnknownFields()
    total = element_digest(HEADER, clean.header)
    total += sum(element_digest(PLAYER, p) for p in clean.players)
    total += sum(element_digest(OBJECT, o) for o in clean.objects)
    total += sum(element_digest(ZONE, z) for z in clean.zones)
    return combine(clean.viewer, total)


class ViewDigest:
    """A view's element digests and their sum, updated element by element. Messages given
    to it must hold no unknown fields (see :func:`element_digest`)."""

    def __init__(self) -> None:
        self.parts: dict[tuple[object, ...], int] = {}
        self.total = 0

    def put(self, key: tuple[object, ...], tag: bytes, message: Message) -> None:
        """Set (add or replace) the element named ``key``."""
        digest = element_digest(tag, message)
        self.total += digest - self.parts.get(key, 0)
        self.parts[key] = digest

    def set(self, key: tuple[object, ...], digest: int) -> None:
        """Set the element named ``key`` to an already computed digest."""
        self.total += digest - self.parts.get(key, 0)
        self.parts[key] = digest

    def drop(self, key: tuple[object, ...]) -> None:
        """Remove the element named ``key`` (if present)."""
        self.total -= self.parts.pop(key, 0)

    def load(self, view: pb.View) -> None:
        """Start over from a whole view."""
        self.parts.clear()
        self.total = 0
        self.put(("h",), HEADER, view.header)
        for p in view.players:
            self.put(("p", p.seat), PLAYER, p)
        for o in view.objects:
            self.put(("o", o.id), OBJECT, o)
        for z in view.zones:
            self.put(("z", z.zone.kind, z.zone.owner), ZONE, z)

    def hash(self, viewer: int) -> bytes:
        """The view hash now."""
        return combine(viewer, self.total)


# ---- fields numbered 1000 and above


class _Plan(NamedTuple):
    """Where a message type's unhashed fields are: its own (name, and how to tell it is set:
    :data:`_HAS_FIELD`, :data:`_TRUTHY` or :data:`_LISTED`) and, below it, the fields
    numbered under 1000 whose message type has some (name, kind, that type)."""

    own: tuple[tuple[str, int], ...]
    nested: tuple[tuple[str, str, Descriptor], ...]


#: How an unhashed field is known to be set: it has presence; it is serialized when truthy
#: (a repeated field, a proto3 scalar); only ``ListFields`` tells (a float: -0.0 is written).
_HAS_FIELD, _TRUTHY, _LISTED = range(3)


#: Per message type: its plan, or None if no field at any depth is numbered 1000 or above.
_PLANS: dict[Descriptor, _Plan | None] = {}
#: The message classes whose plan is None: hashed as they are serialized.
_FULLY_HASHED: set[type[Message]] = set()


def hashed(message: M) -> M:
    """``message`` as the view hash sees it: ``message`` itself if no field numbered 1000 or
    above is set at any depth, else a copy with all of them cleared."""
    plan = _plan(message.DESCRIPTOR)  # type: ignore[arg-type]
    if plan is None:
        _FULLY_HASHED.add(type(message))
        return message
    if not _any_set(message, plan):
        return message
    copy = type(message)()
    copy.CopyFrom(message)
    _clear(copy, plan)
    return copy


def fully_hashed(message_type: type[Message]) -> bool:
    """Whether no field of ``message_type``, at any depth, is numbered 1000 or above (every
    field of its serialization is hashed)."""
    return _plan(message_type.DESCRIPTOR) is None  # type: ignore[arg-type]


def _plan(descriptor: Descriptor) -> _Plan | None:
    if descriptor in _PLANS:
        return _PLANS[descriptor]
    # Every message type reachable through hashed fields, then which of them reach an
    # unhashed field (a fixpoint: message types may be recursive).
    reachable: list[Descriptor] = []
    todo = [descriptor]
    while todo:
        d = todo.pop()
        if d in reachable or d in _PLANS:
            continue
        reachable.append(d)
        todo += [f.message_type for f in d.fields
                 if f.message_type is not None and f.number < UNHASHED_FROM]
    reaches = {d: any(f.number >= UNHASHED_FROM for f in d.fields) for d in reachable}

    def below(d: Descriptor) -> list[tuple[str, str, Descriptor]]:
        out = []
        for f in d.fields:
            sub = f.message_type
            if sub is None or f.number >= UNHASHED_FROM:
                continue
            kind = "repeated" if f.is_repeated else "one"
            if sub.GetOptions().map_entry:
                kind, sub = "map", sub.fields_by_name["value"].message_type
                if sub is None:
                    continue
            if reaches[sub] if sub in reaches else _PLANS[sub] is not None:
                out.append((f.name, kind, sub))
        return out

    changed = True
    while changed:
        changed = False
        for d in reachable:
            if not reaches[d] and below(d):
                reaches[d] = changed = True
    for d in reachable:
        _PLANS[d] = _Plan(
            tuple((f.name, _how_set(f)) for f in d.fields if f.number >= UNHASHED_FROM),
            tuple(below(d))) if reaches[d] else None
    return _PLANS[descriptor]


def _how_set(field: FieldDescriptor) -> int:
    if field.has_presence:
        return _HAS_FIELD
    if field.is_repeated or field.cpp_type not in (field.CPPTYPE_FLOAT, field.CPPTYPE_DOUBLE):
        return _TRUTHY
    return _LISTED


def _any_set(message: Message, plan: _Plan) -> bool:
    for name, how in plan.own:
        if how == _HAS_FIELD:
            present = message.HasField(name)
        elif how == _TRUTHY:
            present = bool(getattr(message, name))
        else:
            present = any(f.name == name for f, _ in message.ListFields())
        if present:
            return True
    for name, kind, sub in plan.nested:
        subplan = _PLANS[sub]
        assert subplan is not None
        if kind == "one":
            if message.HasField(name) and _any_set(getattr(message, name), subplan):
                return True
        elif any(_any_set(m, subplan) for m in (
                getattr(message, name).values() if kind == "map" else getattr(message, name))):
            return True
    return False


def _clear(message: Message, plan: _Plan) -> None:
    for name, _ in plan.own:
        message.ClearField(name)
    for name, kind, sub in plan.nested:
        subplan = _PLANS[sub]
        assert subplan is not None
        if kind == "one":
            if message.HasField(name):
                _clear(getattr(message, name), subplan)
        else:
            for m in getattr(message, name).values() if kind == "map" \
                    else getattr(message, name):
                _clear(m, subplan)


# Plan this schema's elements now (not on the server's first action).
_FULLY_HASHED.update(m for m in (pb.GameHeader, pb.Player, pb.GameObject, pb.ZoneContents)
                     if fully_hashed(m))
