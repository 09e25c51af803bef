"""The opponents of a three-player game share the row above the player's own side: a new
user's 1920x1080 screen showed the two opponents in two narrow 17rem columns with most of
the row empty, and one opponent's lands and creatures cut off below them (a new player's
round). With a scripted server (tests/browser/fake_server.py)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from protocol.v1 import game_pb2 as pb
from tests.browser.conftest import Pages
from tests.browser.fake_server import BATTLEFIELD, FakeServer, card, game_view, sign_in

pytestmark = pytest.mark.browser
#: Its tests share one server (tests/browser/conftest.py, shared_server).
SHARED_SERVER = True

#: Permanents each opponent has: a board of mid-game size.
PERMANENTS = 14


@pytest.mark.parametrize("viewport", [(1920, 1080), (1280, 800)])
def test_two_opponents_fill_the_row_between_them(pages: Pages,
                                                 viewport: tuple[int, int]) -> None:
    page = pages.open("A", viewport=viewport)
    fake = FakeServer()
    sign_in(page, pages.base_url, fake)
    players = [pb.Player(seat=s, name=n, life=20)
               for s, n in enumerate(("Ann#0001", "Bob#0002", "Cy#0003"))]
    fake.seat(seats=3)
    objects = [card(f"o{seat}-{n}", "Forest" if n % 2 else "Grizzly Bears", BATTLEFIELD,
                    ["Land"] if n % 2 else ["Creature"], owner=seat)
               for seat in (1, 2) for n in range(PERMANENTS)]
    fake.snapshot(game_view(players, objects, pending_seat=1, active=1), 4)
    others = page.locator(".others")
    sides = [page.locator(f"[data-testid=player][data-seat='{s}']") for s in (1, 2)]
    for side in sides:
        expect(side).to_be_visible()
    row = others.bounding_box()
    boxes = [side.bounding_box() for side in sides]
    assert row is not None and all(b is not None for b in boxes)
    # Side by side, the two of them as wide as the row (less the gap): no empty columns.
    widths = sum(b["width"] for b in boxes if b is not None)
    assert widths >= 0.95 * row["width"], (widths, row["width"])
    pages.screenshot(page, f"{viewport[0]}")
    pages.assert_no_errors()
