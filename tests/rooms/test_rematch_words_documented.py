"""docs/playing.md quotes each reason a room gives for "No rematch: ..." when a player left:
it said only "Bob left the room", where a player who left a game in play (conceding it, rule
104.3a) is said to have "left the game" (a new player's review, round 12)."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
#: The rooms' reasons: ``f"{member.name} left the room"``, ``f"{gone} left the game"``, ...
REASON = re.compile(r'f"\{[\w.]+\} (left the \w+)"')


def test_every_left_reason_a_room_gives_is_quoted_in_the_guide() -> None:
    reasons = {m for path in ("server/rooms/room.py", "server/rooms/recovery.py")
               for m in REASON.findall((REPO / path).read_text(encoding="utf-8"))}
    assert reasons == {"left the room", "left the game"}
    guide = " ".join((REPO / "docs" / "playing.md").read_text(encoding="utf-8").split())
    for reason in reasons:
        assert f'"No rematch: Bob {reason}"' in guide, reason
