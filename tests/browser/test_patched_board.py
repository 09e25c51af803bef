"""The board is changed in place from state to state, not built again (web/src/dom.ts
``patchChildren``): rebuilding the whole board for every state had the browser style, lay
out and paint all of it again -- most of a game's CPU in the browser -- and lost what the page
held on its elements (a card hovered, the focus, a slider being dragged)."""

from __future__ import annotations

import random

from playwright.sync_api import expect

from tests.browser.conftest import Pages
from tests.browser.test_play import start_game
from tests.browser.ui import BOARD, Player

_MARKED = "[data-testid=board], [data-testid=player], [data-testid=event-log]"
_MARK = f"""() => {{ for (const el of document.querySelectorAll('{_MARKED}')) el.__kept = 1; }}"""
_KEPT = f"""() => [...document.querySelectorAll('{_MARKED}')].map((el) => el.__kept === 1)"""
#: Counts the log's list taken out of its panel (it lost its scrolling, and was laid out again).
_WATCH_LOG = """() => { window.__logOut = 0; new MutationObserver((changes) => {
    for (const c of changes) for (const n of c.removedNodes)
      if (n.dataset && n.dataset.testid === 'event-log') window.__logOut++; })
  .observe(document.querySelector('.log-panel'), { childList: true }); }"""


def test_a_new_state_changes_the_board_in_place_and_keeps_its_elements(pages: Pages) -> None:
    """The board, each side and the log are the same elements after three clicks."""
    a, b, _ = start_game(pages, spectator=False)
    before = {}
    for page in (a, b):
        page.evaluate(_MARK)
        page.evaluate(_WATCH_LOG)
        before[page] = page.locator(BOARD).get_attribute("data-state-id")
    player = Player([a, b], random.Random(20_261_207))
    player.play(max_clicks=3, seconds=60, until=lambda _states: player.clicks >= 3)
    for page in (a, b):
        expect(page.locator(BOARD)).not_to_have_attribute("data-state-id", before[page] or "")
        kept = page.evaluate(_KEPT)
        # The board, each player's side and the log: the same elements, changed.
        assert len(kept) >= 4 and all(kept), kept
        # The log's list stayed in its panel: never taken out and put back.
        assert page.evaluate("() => window.__logOut") == 0
    pages.assert_no_errors()
