"""A card's rules text on the board is cut at a whole line, with an ellipsis, never through
the middle of a line (a new player at 1280x800 read a card's last line as half-drawn,
clipped letters); its full text stays in the card's title."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import Pages
from tests.browser.test_computer import play_computer
from tests.browser.ui import BOARD, OPTION, sign_in_guest

pytestmark = pytest.mark.browser
#: Its tests share one server (tests/browser/conftest.py, shared_server).
SHARED_SERVER = True

#: Creatures with long rules text only: every card of the opening hand has more text than
#: a card shows.
LONG = "\n".join(f"4 {name}" for name in (
    "Squad Commander", "Alpine Houndmaster", "Garruk's Harbinger", "Rin and Seri, Inseparable",
    "Chandra's Incinerator", "Basri's Lieutenant", "Vadmir, New Blood", "Kinetic Augur",
    "Gadrak, the Crown-Scourge", "Archfiend's Vessel", "Radha, Heart of Keld",
    "Pursued Whale", "Paperfin Rascal", "Thieves' Guild Enforcer", "Niambi, Esteemed Speaker"))


def test_long_card_text_ends_at_a_whole_line(pages: Pages) -> None:
    page = pages.open("A", viewport=(1280, 800))
    sign_in_guest(page, pages.base_url, "Ann")
    page.locator("#deck-text").fill(LONG)
    play_computer(page)
    page.locator(OPTION).first.click()  # who plays first: then the opening hand is dealt
    texts = page.locator(f"{BOARD} [data-testid=card] .card-text")
    expect(texts.first).to_be_visible()
    pages.screenshot(page, "hand")
    # Each card text's line boxes (a range over its text): none may cross its bottom edge,
    # drawn in part -- a line is shown whole, or not at all.
    cut = texts.evaluate_all("""(els) => els.map((e) => {
      const bottom = e.getBoundingClientRect().bottom;
      const range = document.createRange();
      range.selectNodeContents(e);
      const lines = [...range.getClientRects()];
      return { crossing: lines.filter((q) => q.top < bottom - 1 && q.bottom > bottom + 1).length,
               clipped: e.scrollHeight > e.clientHeight + 1,
               title: e.closest("[data-testid=card]").title.length,
               shown: e.textContent.length };
    })""")
    assert cut, "no card text on the board"
    assert all(c["crossing"] == 0 for c in cut), cut
    clipped = [c for c in cut if c["clipped"]]
    assert clipped, f"no card's text was long enough to be cut: {cut}"
    for card in clipped:
        assert card["title"] >= card["shown"], "the full text is in the card's title"
    pages.assert_no_errors()
