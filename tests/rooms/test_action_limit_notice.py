"""The warning that a game nears ``--max-game-actions`` is a ``Notice``, not an error
(protocol/README.md, "Notices"), and a delayed spectator tier is told it when its view
reaches the action that set it off -- never ahead of its feed."""

from __future__ import annotations

import random

from protocol.v1 import messages_pb2 as mpb
from server.decks import DeckFormat, resolve
from server.rooms.commands import Join, Tick
from server.rooms.room import Room, RoomConfig, action_warning_at
from server.store.records import RoomSettings, Spectate, SpectatorTier, TierKind, secret_hash
from tests.rooms.test_room_machine import Driver, seat_conn

LIMIT = 40
DELAY = 30


def _stream(msgs: list[mpb.ServerMessage]) -> list[str]:
    """A member's messages as "delta" / "notice" (the rest left out)."""
    return [m.WhichOneof("body") or "" for m in msgs
            if m.HasField("delta") or m.HasField("notice")]


def test_live_members_get_the_notice_at_once_and_a_delayed_tier_in_step_with_its_view(
) -> None:
    settings = RoomSettings(spectate=Spectate.ALLOWED, invite_hash=secret_hash("code"),
                            tiers=(SpectatorTier(TierKind.PUBLIC, delay_seconds=DELAY,
                                                 accounts=(("aw", "w"),)),))
    d = Driver(Room("r1", "t", 2, 0.0, RoomConfig(max_game_actions=LIMIT), settings=settings))
    for conn, deck in ((1, "naya-pets"), (2, "golgari-grind")):
        d.rid += 1
        assert d.do(Join(conn, d.rid, f"s{conn}", f"p{conn}", False,
                         resolve(deck, DeckFormat.CONSTRUCTED), f"a{conn}")).accepted
    for conn, tier in ((10, 0), (20, 1)):  # a live spectator, and the delayed tier's
        d.rid += 1
        assert d.do(Join(conn, d.rid, f"s{conn}", f"w{conn}", True, None, "aw", "",
                         tier)).accepted
    got: dict[int, list[mpb.ServerMessage]] = {c: [] for c in (1, 2, 10, 20)}
    rng = random.Random(4)
    game = d.room.game
    assert game is not None
    while game.action_count < action_warning_at(LIMIT):
        assert game.pending is not None
        d.now += 1.0
        d.act(seat_conn(d, game.pending.seat), rng.randrange(len(game.pending.options)))
        for conn, msgs in got.items():
            msgs.extend(d.take(conn))
    warned_at = d.now
    for conn in (1, 2, 10):
        notices = [m.notice for m in got[conn] if m.HasField("notice")]
        assert [(n.code, n.message) for n in notices] == [(
            mpb.NOTICE_CODE_ACTION_LIMIT_NEAR,
            f"this game has taken {action_warning_at(LIMIT)} actions: at the server's limit "
            f"of {LIMIT} it ends as a draw")]
        assert not any(m.HasField("error") for m in got[conn])
    live = _stream(got[10])
    assert live[-1] == "notice"
    # The delayed tier's spectator hasn't seen the warning's action yet: nor the notice.
    assert "notice" not in _stream(got[20])
    d.now = warned_at + DELAY - 0.5
    d.do(Tick())
    got[20].extend(d.take(20))
    assert "notice" not in _stream(got[20])
    d.now = warned_at + DELAY
    d.do(Tick())
    got[20].extend(d.take(20))
    # Now it has: right after the same delta the live spectator had it after.
    assert _stream(got[20]) == live
