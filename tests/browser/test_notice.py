"""A server's Notice in the browser (protocol/README.md, "Notices"), with a scripted server
(tests/browser/fake_server.py): the warning that the game nears the server's limit of actions
is a banner and a log line -- no error -- and the decision on the screen stays to answer; the
game the limit ended says it is a draw, and why."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from tests.browser.conftest import Pages
from tests.browser.fake_server import HAND, FakeServer, card, game_view, sign_in
from tests.browser.ui import DECISION, GAME_OVER, OPTION

pytestmark = pytest.mark.browser
#: Its tests share one server (tests/browser/conftest.py, shared_server).
SHARED_SERVER = True

WARNING = "this game has taken 270 actions: at the server's limit of 300 it ends as a draw"


def test_a_notice_is_no_error_and_the_draw_at_the_limit_is_said(pages: Pages) -> None:
    page = pages.open("A")
    fake = FakeServer()
    sign_in(page, pages.base_url, fake)
    hand = [card("s", "Shock", HAND, ["Instant"], cost="{R}")]
    players = [pb.Player(seat=0, name="Ann#0001", life=20, hand_count=1),
               pb.Player(seat=1, name="Bob#0002", life=20, hand_count=7)]
    view = game_view(players, hand, prompt_id=9)
    fake.seat()
    fake.snapshot(view, 5)
    fake.decision(9, 5, [pb.Action(pass_priority=pb.PassPriority())])
    expect(page.locator(OPTION)).to_have_count(1)
    fake.send(mpb.ServerMessage(notice=mpb.Notice(
        code=mpb.NOTICE_CODE_ACTION_LIMIT_NEAR, message=WARNING)))
    said = f"Server notice: {WARNING}"
    expect(page.locator("p.notice", has_text=said)).to_be_visible()
    expect(page.locator("[data-testid=event-log]")).to_contain_text(said)
    expect(page.locator("[data-testid=error]")).to_have_count(0)
    # The decision is still there: answered once.
    expect(page.locator(DECISION)).to_be_visible()
    page.locator(OPTION).first.click()
    for _ in range(50):  # (the fake server reads the page's messages as they come)
        if fake.acts():
            break
        page.wait_for_timeout(100)
    assert fake.acts() == [0]
    # The 300th action: the game is a draw.
    over = game_view(players, hand, pending_seat=None)
    over.header.result.CopyFrom(pb.GameResult(
        reason="the game reached the server's limit of 300 actions: a draw"))
    fake.delta(over, 5, [], [pb.DeltaOp(set_header=over.header)])
    panel = page.locator(GAME_OVER)
    expect(panel).to_contain_text("The game is a draw.")
    expect(panel.locator("[data-testid=result-reason]")).to_have_text(
        "The game reached the server's limit of 300 actions")
    expect(page.locator("[data-testid=error]")).to_have_count(0)
    pages.assert_no_errors()
