"""What a tournament caster found watching a match on the page: a delayed tier between
games read "Waiting for Bob, Ann to choose a deck (0:00 left)." all through the sideboarding
(a tier gets no live time); the bar read "Game 2 of 3 ..." over game 1's last board with "The
game is over"; and the lobby offered every room's invite-only tiers to everyone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from tests.browser.conftest import Pages
from tests.browser.fake_server import FakeServer, game_view, sign_in

pytestmark = pytest.mark.browser
#: Its tests share one server (tests/browser/conftest.py, shared_server) but this one.
SHARED_SERVER = True
FRESH_SERVER_FOR = (
    "test_the_lobby_marks_a_tier_that_needs_the_invite_code_and_hides_one_for_others",)

TIERS = [mpb.SpectatorTier(kind=mpb.TIER_KIND_PUBLIC, delay_seconds=30, invite=True),
         mpb.SpectatorTier(kind=mpb.TIER_KIND_OMNISCIENT, delay_seconds=60, invite=True,
                           accounts=["Ann#0001"]),
         mpb.SpectatorTier(kind=mpb.TIER_KIND_OMNISCIENT, delay_seconds=90,
                           accounts=["Cas#0003"])]


def test_a_delayed_tier_between_games_says_which_game_is_over_and_no_time(
        pages: Pages) -> None:
    page = pages.open("caster")
    fake = FakeServer()
    sign_in(page, pages.base_url, fake)
    room = mpb.RoomInfo(room_id="r", name="final", seats=2, started=True, best_of=3,
                        players=["Bob#0002", "Cy#0004"], tiers=TIERS)
    fake.send(mpb.ServerMessage(joined=mpb.Joined(role=mpb.ROLE_SPECTATOR, seat=-1, tier=2,
                                                  room=room)))
    players = [pb.Player(seat=0, name="Bob#0002", life=20, library_count=40),
               pb.Player(seat=1, name="Cy#0004", life=0, library_count=40, has_lost=True)]
    view = game_view(players, [], pending_seat=None, turn=9)
    view.viewer = -3
    view.header.result.CopyFrom(pb.GameResult(winners=[0], reason="Cy#0004 has 0 or less life"))
    fake.snapshot(view, 300)
    between = mpb.MatchState(room_id="r", best_of=3, game_number=2, wins=[1, 0],
                             phase=mpb.MATCH_PHASE_SIDEBOARDING, sideboard_remaining_ms=0,
                             ready=[False, False], winner=-1)
    fake.send(mpb.ServerMessage(match_state=between))
    expect(page.locator("[data-testid=match-score]")).to_have_text(
        "Game 1 of 3 over · Bob#0002 1 \N{EN DASH} Cy#0004 0 · sideboarding for game 2")
    wait = page.locator("[data-testid=sideboard-wait]")
    expect(wait).to_contain_text("Sideboarding for game 2.")
    expect(wait).not_to_contain_text("left")
    expect(wait).not_to_contain_text("Waiting for")
    between.ready[:] = [False, True]
    fake.send(mpb.ServerMessage(match_state=between))
    expect(wait).to_contain_text("Sideboarding for game 2 (deck chosen: Cy#0004).")
    pages.screenshot(page)
    pages.assert_no_errors()


def test_the_lobby_marks_a_tier_that_needs_the_invite_code_and_hides_one_for_others(
        pages: Pages) -> None:
    page = pages.open("lobby")
    fake = FakeServer()
    sign_in(page, pages.base_url, fake)  # as Ann#0001
    room = mpb.RoomInfo(room_id="r9", name="final", seats=2, started=True, best_of=3,
                        players=["Bob#0002", "Cy#0004"], tiers=TIERS,
                        spectate=mpb.SPECTATE_ALLOWED)
    fake.send(mpb.ServerMessage(room_list=mpb.RoomList(rooms=[room])))
    buttons = page.locator("[data-testid=room-row] [data-testid=join-tier]")
    # Tier 3 is for Cas only: no button; tier 2 names Ann: watched at once; tier 1 takes
    # the invite code, which this page doesn't have: it says so.
    expect(buttons).to_have_count(2)
    expect(buttons.nth(0)).to_have_text(
        "Watch the public view, 30 s behind (with the room's invite code)")
    expect(buttons.nth(1)).to_have_text("Watch every hand, 60 s behind")
    sent = len(fake.received)
    buttons.nth(0).click()  # fills the join form, to type the code in
    expect(page.locator("#join-room-id")).to_have_value("r9")
    expect(page.locator("#join-tier")).to_have_value("1")
    expect(page.locator("#join-invite")).to_be_focused()
    assert not [m for m in fake.received[sent:] if m.WhichOneof("body") == "join_room"]
    buttons.nth(1).click()
    joins: list[mpb.ClientMessage] = []
    for _ in range(40):
        joins = [m for m in fake.received if m.WhichOneof("body") == "join_room"]
        if joins:
            break
        page.wait_for_timeout(50)
    assert joins and joins[-1].join_room.tier == 2 and joins[-1].join_room.room_id == "r9"
    pages.assert_no_errors()
