"""One view class's numbered stream of views (architecture invariants 4 and 8).

Each seat, and the spectators together, form a view class: the game is projected for it once,
diffed against the view it last received, and the delta encoded once for all its members.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from server.engine import Game
from server.view.diff import diff
from server.view.encode import ObjectCache, encode_ops, encode_view, view_hash
from server.view.project import View, project


@dataclass(slots=True)
class ViewStream:
    """The last view one view class received, its state id and its encoding cache."""

    viewer: int
    view: View
    state_id: int = 1
    cache: ObjectCache = field(default_factory=ObjectCache)

    @classmethod
    def start(cls, game: Game, viewer: int) -> ViewStream:
        """The stream's first state: the viewer's projection of ``game``."""
        return cls(viewer, project(game, viewer))

    def advance(self, game: Game) -> bytes | None:
        """The next ``Delta`` message (serialized ServerMessage), or None if this viewer's
        view did not change. Every delta names its base and result state and carries the
        hash of the resulting canonical view."""
        nxt = project(game, self.viewer)
        ops = diff(self.view, nxt)
        if not ops:
            return None
        prev_id = self.state_id
        self.state_id += 1
        self.view = nxt
        full = encode_view(nxt, self.cache)
        self.cache.keep_only(nxt)
        delta = pb.Delta(prev_state_id=prev_id, state_id=self.state_id, ops=encode_ops(ops),
                         view_hash=view_hash(full))
        return mpb.ServerMessage(delta=delta).SerializeToString()

    def snapshot(self, room_id: str, request_id: int = 0) -> bytes:
        """A ``Snapshot`` of the current state (serialized ServerMessage)."""
        view_msg = encode_view(self.view, self.cache)
        return mpb.ServerMessage(request_id=request_id, snapshot=pb.Snapshot(
            room_id=room_id, state_id=self.state_id, view=view_msg,
            view_hash=view_hash(view_msg))).SerializeToString()
