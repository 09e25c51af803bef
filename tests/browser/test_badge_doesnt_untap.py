"""The "doesn't untap next turn" badge (rule 502.3: Frost Breath's "don't untap during their
controller's next untap step"), from ``GameObject.doesnt_untap``, with its meaning in a
tooltip; gone once the view says it no longer holds."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from protocol.v1 import game_pb2 as pb
from tests.browser.conftest import Pages
from tests.browser.fake_server import FakeServer, card, game_view, sign_in

pytestmark = pytest.mark.browser
#: Its tests share one server (tests/browser/conftest.py, shared_server).
SHARED_SERVER = True


def _corpse(oid: str, controller: int, doesnt_untap: bool) -> pb.GameObject:
    """A tapped 2/2 of ``controller``'s on the battlefield."""
    corpse = card(oid, "Walking Corpse", pb.ZONE_KIND_BATTLEFIELD, ["Creature"], owner=controller)
    corpse.power, corpse.toughness, corpse.tapped = 2, 2, True
    corpse.doesnt_untap = doesnt_untap
    return corpse


def test_502_3_doesnt_untap_badge_with_its_tooltip(pages: Pages) -> None:
    page = pages.open("A")
    fake = FakeServer()
    sign_in(page, pages.base_url, fake)
    players = [pb.Player(seat=0, name="Ann#0001", life=20),
               pb.Player(seat=1, name="Bob#0002", life=20)]
    fake.seat(seats=2)
    objects = [_corpse("a1", 0, True), _corpse("b1", 1, True), _corpse("b2", 1, False)]
    fake.snapshot(game_view(players, objects, pending_seat=1, turn=3, active=0), 4)
    badge = "[data-testid=card][data-id='{}'] [data-testid=doesnt-untap]"
    expect(page.locator(badge.format("a1"))).to_have_text("doesn't untap next turn")
    expect(page.locator(badge.format("a1"))).to_have_attribute(
        "title", "It doesn't untap during its controller's next untap step.")
    expect(page.locator(badge.format("b1"))).to_have_count(1)
    expect(page.locator(badge.format("b2"))).to_have_count(0)
    objects[1].doesnt_untap = False  # Bob's untap step passed it by
    fake.snapshot(game_view(players, objects, pending_seat=1, turn=4, active=1), 5)
    expect(page.locator(badge.format("b1"))).to_have_count(0)
    expect(page.locator(badge.format("a1"))).to_have_count(1)
