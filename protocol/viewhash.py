"""The view hash of protocol v1 (protocol/README.md, "Views, state ids and hashes").

A view is a set of elements: its header, each player, each object and each zone's contents.
Each element's digest is the SHA-256 of a one-byte tag (``h``, ``p``, ``o``, ``z``) followed
by the element message serialized deterministically, read as a 256-bit big-endian integer.
The view hash is the SHA-256 of ``b"manawire.view.v1"``, the viewer seat as a signed 32-bit
big-endian integer, and the sum of all element digests modulo 2**256 as 32 big-endian bytes.

A sum can be kept up to date element by element, so neither the server nor a client has to
re-encode a whole view to check one delta. Shared by the server and the Python SDK.
"""

from __future__ import annotations

import hashlib
from typing import Protocol

from protocol.v1 import game_pb2 as pb

MODULUS = 1 << 256
HEADER, PLAYER, OBJECT, ZONE = b"h", b"p", b"o", b"z"


class _Message(Protocol):
    def SerializeToString(self, *, deterministic: bool = ...) -> bytes: ...


def element_digest(tag: bytes, message: _Message) -> int:
    """One element's digest."""
    return bytes_digest(tag, message.SerializeToString(deterministic=True))


def bytes_digest(tag: bytes, serialized: bytes) -> int:
    """One element's digest from its deterministic serialization."""
    return int.from_bytes(hashlib.sha256(tag + serialized).digest(), "big")


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
    """The hash of a whole view message (the order of its repeated fields doesn't matter)."""
    total = element_digest(HEADER, view.header)
    total += sum(element_digest(PLAYER, p) for p in view.players)
    total += sum(element_digest(OBJECT, o) for o in view.objects)
    total += sum(element_digest(ZONE, z) for z in view.zones)
    return combine(view.viewer, total)


class ViewDigest:
    """A view's element digests and their sum, updated element by element."""

    def __init__(self) -> None:
        self.parts: dict[tuple[object, ...], int] = {}
        self.total = 0

    def put(self, key: tuple[object, ...], tag: bytes, message: _Message) -> None:
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
