"""Why a card in hand can't be cast, in the browser (np7 finding 2: hovering Titanic Growth,
uncastable, showed only its rules text): hovering a spell of your hand that isn't
highlighted asks the server (ExplainCard), and the card shows the reason."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import Pages
from tests.browser.ui import BOARD, invite_link, join_by_link, sign_in_guest

pytestmark = pytest.mark.browser
#: Its tests share one server (tests/browser/conftest.py, shared_server).
SHARED_SERVER = True

#: Spells only: whatever hand is dealt holds one.
DECK = "20 Titanic Growth\n20 Shock"


def test_hovering_a_spell_you_cant_cast_says_why(pages: Pages) -> None:
    ann = pages.open("ann")
    sign_in_guest(ann, pages.base_url, "Ann")
    ann.locator("#deck-text").fill(DECK)
    ann.locator("#room-format").select_option("limited")
    ann.locator("[data-testid=create-room]").click()
    expect(ann.locator(BOARD)).to_have_count(1)
    bob = pages.open("bob")
    join_by_link(bob, invite_link(ann), "Bob")
    # The first decision is who plays first; the hands come after it.
    for page in (ann, bob):
        choose = page.locator(
            '[data-testid=option][data-kind="chooseStartingPlayer"]:not([disabled])')
        if choose.count():
            choose.first.click()
    card = ann.locator(f"{BOARD} [data-zone=hand] [data-testid=card]").first
    expect(card).to_be_visible(timeout=20_000)
    card.hover()
    # During the mulligans nobody casts a spell (103.5): the card says so.
    why = card.locator("[data-testid=why]")
    expect(why).to_contain_text("The game hasn't begun", timeout=10_000)
    assert "103.5" not in (why.text_content() or "")  # (a player's words: no rule numbers)
    pages.screenshot(ann, "ann")
    pages.assert_no_errors()
