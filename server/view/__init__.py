"""Per-viewer views: ``project(game, viewer)``, ``diff(prev, next)`` and protobuf encoding.

Every byte a client receives about a game is built from a projection (architecture invariant 4).
"""

from server.view.diff import DeltaOp, apply_ops, diff
from server.view.project import SPECTATOR, HeaderView, ObjectView, PlayerView, View, project

__all__ = [
    "SPECTATOR",
    "DeltaOp",
    "HeaderView",
    "ObjectView",
    "PlayerView",
    "View",
    "apply_ops",
    "diff",
    "project",
]
