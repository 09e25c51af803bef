"""What the page keeps across a reload (a new player's review, round 7): the deck list last
played with is put back in the deck box (and an empty box says plainly that a demo deck will
be dealt), and the game log this tab showed is shown again after a reload of the same game,
then continues after a "(reconnected)" line."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import Pages
from tests.browser.test_play import start_game
from tests.browser.ui import BOARD, GAME_OVER, Player, create_room, seat, sign_in_guest

pytestmark = pytest.mark.browser
#: Its tests share one server (tests/browser/conftest.py, shared_server).
SHARED_SERVER = True

LOG = "[data-testid=event-log] li"
DECK = "20 Mountain\n20 Forest\n4 Shock\n4 Llanowar Visionary\n12 Island\n"


def test_the_deck_box_keeps_the_last_deck_and_an_empty_one_says_demo_deck(pages: Pages) -> None:
    a = pages.open("A")
    sign_in_guest(a, pages.base_url, "Ann")
    # Empty: taking a seat deals a demo deck, said under the box and on the buttons.
    note = a.locator("[data-testid=demo-deck-note]")
    expect(note).to_be_visible()
    expect(note).to_contain_text("demo deck")
    expect(a.locator("[data-testid=create-room]")).to_have_text("Create room with a demo deck")
    expect(a.locator("[data-testid=join-room]")).to_have_text("Join as player with a demo deck")
    expect(a.locator("[data-testid=quick-match]")).to_have_text("Find a game with a demo deck")
    # Hosting only (no seat): no deck is dealt.
    a.locator("#room-play").set_checked(False)
    expect(a.locator("[data-testid=create-room]")).to_have_text("Create room")
    a.locator("#room-play").set_checked(True)
    a.locator("#deck-text").fill(DECK)
    expect(note).to_be_hidden()
    expect(a.locator("[data-testid=create-room]")).to_have_text("Create room")
    create_room(a, seats=2, private=True, deck=DECK)
    expect(a.locator("[data-testid=your-deck]")).to_be_visible()
    a.locator("[data-testid=leave-room]").click()
    expect(a.locator("#deck-text")).to_have_value(DECK)
    # A reload (a new page of this browser) puts the deck played with back in the box.
    a.reload()
    expect(a.locator("[data-testid=account-name]")).to_contain_text("Ann")
    expect(a.locator("#deck-text")).to_have_value(DECK)
    expect(note).to_be_hidden()
    expect(a.locator("[data-testid=create-room]")).to_have_text("Create room")
    pages.assert_no_errors()


def test_a_reload_keeps_the_game_log(pages: Pages) -> None:
    a, b, _ = start_game(pages, spectator=False)
    player = Player([a, b], random.Random(7))
    player.play(max_clicks=300, seconds=120, until=lambda _: player.clicks >= 40)
    before = b.locator(LOG).all_inner_texts()
    assert len(before) > 5, before
    b_seat = seat(b)
    b.reload()
    expect(b.locator(BOARD)).to_have_attribute("data-seat", str(b_seat))
    expect(b.locator(BOARD)).to_have_attribute("data-state-id", re.compile(r"^[1-9]"))
    expect(b.locator("[data-testid=connection]")).to_have_attribute("data-state", "connected")
    expect(b.locator(LOG).filter(has_text="(reconnected)")).to_have_count(1)
    after = b.locator(LOG).all_inner_texts()
    # The lines shown before, then the mark.
    at = after.index("(reconnected)")
    assert after[:at] == before, (before, after)
    # Play goes on and the log with it.
    count = len(after)
    player.play(max_clicks=300, seconds=120,
                until=lambda _: len(b.locator(LOG).all_inner_texts()) > count + 2)
    assert b.locator(LOG).all_inner_texts()[:count] == after
    # Leaving the room forgets it: another game's log starts afresh.
    # (Kept while the game goes on; forgotten once it is over.)
    over = b.locator(GAME_OVER).count() > 0
    b.wait_for_function("(over) => (sessionStorage.getItem('manawire.gameLog') === null) === over",
                        arg=over)
    leave = b.locator("[data-testid=leave-room]")
    leave.click()
    if "leave?" in leave.inner_text():
        leave.click()  # (a second click: leaving concedes)
    expect(b.locator(BOARD)).to_have_count(0)
    b.wait_for_function("() => sessionStorage.getItem('manawire.gameLog') === null")
    pages.screenshot(b)
    pages.assert_no_errors()
