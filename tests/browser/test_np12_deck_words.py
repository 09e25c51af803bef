"""What a player bringing a deck reads in the browser (new player round 12): a list whose
lands, after a blank line, were read as its sideboard says so and how to keep them in the
main deck (rules 100.2a, 100.4a); a demo deck's name typed with a space is taken, and one
typed nearly right is asked about."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import Pages
from tests.browser.ui import BOARD, sign_in_guest

pytestmark = pytest.mark.browser
#: Each test signs in as guests of its own and reads no lobby.
SHARED_SERVER = True

SPELLS = "".join(f"4 {name}\n" for name in (
    "Shock", "Scorching Dragonfire", "Volcanic Geyser", "Goblin Arsonist", "Bolt Hound",
    "Onakke Ogre", "Heartfire Immolator", "Hobblefiend", "Pitchburn Devils"))
#: /tmp/np12/twoblock.txt: 45 cards, a blank line (line 11), 15 Mountains.
TWO_BLOCKS = SPELLS + "9 Mountain\n\n15 Mountain\n"
WHOLE = '[data-testid=deck-errors] li[data-line="0"]'


def test_lands_after_a_blank_line_read_as_the_sideboard_are_said_so(pages: Pages) -> None:
    page = pages.open("twoblock")
    sign_in_guest(page, pages.base_url, "Tess")
    page.locator("#deck-text").fill(TWO_BLOCKS)
    page.locator("[data-testid=play-computer]").click()
    problems = page.locator(WHOLE)
    expect(problems).to_have_count(2)
    expect(problems.nth(0)).to_have_text(
        "A constructed deck has at least 60 cards in its main deck: yours has 45.")
    expect(problems.nth(1)).to_have_text(
        "The 15 cards after the blank line at line 11 were read as the sideboard (a blank "
        "line before a last block of 15 cards or fewer starts the sideboard); to play them in "
        "the main deck, remove that blank line -- the main deck would then have 60 cards.")
    expect(page.locator(BOARD)).to_have_count(0)
    pages.screenshot(page)
    pages.assert_no_errors()


def test_a_demo_decks_name_nearly_right(pages: Pages) -> None:
    page = pages.open("demo")
    sign_in_guest(page, pages.base_url, "Dora")
    # The lobby names them, folded under the deck box (one line: an invited player's join
    # form stays in view at 1280x800).
    names = page.locator("[data-testid=demo-decks]")
    expect(names.locator("p")).to_be_hidden()
    names.locator("summary").click()
    expect(names.locator("p")).to_contain_text("dimir-mill, gainland-mosaic")
    page.locator("#deck-text").fill("dimir mil")
    page.locator("[data-testid=play-computer]").click()
    expect(page.locator('[data-testid=deck-errors] li[data-line="1"]')).to_contain_text(
        "did you mean the demo deck 'dimir-mill'?")
    page.locator("#deck-text").fill("Dimir Mill")
    page.locator("[data-testid=play-computer]").click()
    expect(page.locator(BOARD)).to_be_visible()
    expect(page.locator("body")).to_contain_text("dimir-mill")
    pages.assert_no_errors()
