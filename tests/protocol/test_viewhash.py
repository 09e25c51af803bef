"""The view hash as protocol/README.md defines it, computed independently of
:mod:`protocol.viewhash` (which the server and the SDK share)."""

from __future__ import annotations

import hashlib

from protocol.v1 import game_pb2 as pb
from protocol.viewhash import combine, view_hash


def _by_the_readme(view: pb.View) -> bytes:
    def digest(tag: bytes, message: pb.GameHeader | pb.Player | pb.GameObject
               | pb.ZoneContents) -> int:
        return int.from_bytes(hashlib.sha256(
            tag + message.SerializeToString(deterministic=True)).digest(), "big")

    total = digest(b"h", view.header) + sum(digest(b"p", p) for p in view.players) \
        + sum(digest(b"o", o) for o in view.objects) + sum(digest(b"z", z) for z in view.zones)
    return hashlib.sha256(b"manawire.view.v1" + view.viewer.to_bytes(4, "big", signed=True)
                          + (total % 2**256).to_bytes(32, "big")).digest()


def test_view_hash_follows_the_readme_for_seats_and_spectators() -> None:
    for viewer in (0, 1, 7, -1, 0, -1):  # repeated: the per-viewer prefix is reused
        view = pb.View(
            viewer=viewer, header=pb.GameHeader(turn=3, active_seat=1, priority_seat=0),
            players=[pb.Player(seat=0, name="a", life=20), pb.Player(seat=1, life=-2)],
            objects=[pb.GameObject(id="o-1", name="Opt"), pb.GameObject(id="o-2")],
            zones=[pb.ZoneContents(zone=pb.ZoneRef(kind=pb.ZONE_KIND_BATTLEFIELD, owner=-1),
                                   object_ids=["o-1", "o-2"])])
        assert view_hash(view) == _by_the_readme(view)
    assert combine(-1, 2**256 + 5) == combine(-1, 5)  # the sum is taken modulo 2**256
