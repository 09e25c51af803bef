"""A card's name breaks between its words, never inside one: "Fiery Emancipation" beside
its four mana symbols read "Fiery Emancipatio / n" on a 1920x1080 screen (a new player's
round 12). With a scripted server (tests/browser/fake_server.py)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from protocol.v1 import game_pb2 as pb
from tests.browser.conftest import Pages
from tests.browser.fake_server import BATTLEFIELD, HAND, FakeServer, card, game_view, sign_in

pytestmark = pytest.mark.browser
#: Its tests share one server (tests/browser/conftest.py, shared_server).
SHARED_SERVER = True

#: Each word's number of line boxes in every card name shown: 2 or more is a word broken.
_BROKEN_WORDS_JS = """() => {
  const broken = [];
  for (const el of document.querySelectorAll('[data-testid=board] .card-name')) {
    const text = el.firstChild;
    if (!text || text.nodeType !== Node.TEXT_NODE) continue;
    const words = text.textContent.matchAll(/\\S+/g);
    for (const w of words) {
      const range = document.createRange();
      range.setStart(text, w.index);
      range.setEnd(text, w.index + w[0].length);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (lines.size > 1) broken.push(w[0]);
    }
  }
  return broken;
}"""


@pytest.mark.parametrize("viewport", [(1920, 1080), (1280, 800)])
def test_a_long_card_name_breaks_between_words(pages: Pages, viewport: tuple[int, int]) -> None:
    page = pages.open("A", viewport=viewport)
    fake = FakeServer()
    sign_in(page, pages.base_url, fake)
    players = [pb.Player(seat=s, name=n, life=20) for s, n in enumerate(("Ann#0001", "Bob#0002"))]
    fake.seat(seats=2)
    names = [("Fiery Emancipation", "{3}{R}{R}{R}"), ("Heartfire Immolator", "{1}{R}"),
             ("Barrin, Tolarian Archmage", "{1}{U}{U}"), ("Sparkhunter Masticore", "{3}")]
    objects = [card(f"o{seat}-{zone}-{n}", name, zone, ["Enchantment"], owner=seat, cost=cost)
               for seat in (0, 1) for zone in (BATTLEFIELD, HAND)
               if seat == 0 or zone is BATTLEFIELD
               for n, (name, cost) in enumerate(names)]
    fake.snapshot(game_view(players, objects, pending_seat=0, active=1), 4)
    expect(page.locator("[data-testid=board] .card-name").first).to_be_visible()
    fiery = page.locator("[data-testid=board] .card-name", has_text="Fiery Emancipation")
    assert fiery.count() >= 2
    assert page.evaluate(_BROKEN_WORDS_JS) == []
    pages.screenshot(page, f"{viewport[0]}")
    pages.assert_no_errors()
