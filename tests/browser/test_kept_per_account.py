"""What a shared browser keeps for an account is that account's only (attacker round 7c):
a duplicated tab (its sessionStorage copied, as Chromium's "Duplicate tab" does) of a
player's tab, signed out and signed in as another account watching the same game, showed the
player's kept log (her own draws and looks) at the top of the spectator's; and Sign out
left the deck list last played with in the next account's deck box. Now the kept log comes
back only to the same account in the same seat, and Sign out forgets the log, the tab's
invite links, the deck list and the guest's name."""

from __future__ import annotations

import json
import random

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Pages
from tests.browser.test_play import start_game
from tests.browser.ui import BOARD, Invite, Player, create_room, sign_in_guest

pytestmark = pytest.mark.browser
#: Its tests share one server (tests/browser/conftest.py, shared_server).
SHARED_SERVER = True

LOG = "[data-testid=event-log] li"
DECK = "# Ann's sideboard plan\n20 Mountain\n20 Forest\n4 Shock\n4 Llanowar Visionary\n12 Island\n"
KEPT = ("manawire.gameLog", "manawire.invites")


def duplicate(page: Page) -> Page:
    """A duplicate of ``page``'s tab: same browser, this tab's sessionStorage copied."""
    copied = page.evaluate("JSON.stringify(Object.fromEntries(Object.entries(sessionStorage)))")
    dup = page.context.new_page()
    dup.add_init_script(
        "if (!window.name) { window.name = 'dup'; const s = " + json.dumps(json.loads(copied))
        + "; for (const k in s) sessionStorage.setItem(k, s[k]); }")
    dup.goto(page.url)
    return dup


def test_a_duplicated_tab_signed_in_as_another_account_shows_no_kept_log(pages: Pages) -> None:
    a, b, _ = start_game(pages, spectator=False)
    player = Player([a, b], random.Random(7))
    player.play(max_clicks=300, seconds=120, until=lambda _: player.clicks >= 20)
    # Ann's page keeps her log (her own view's lines: "You ...") and invite link.
    a.wait_for_function("() => /\"You /.test(sessionStorage.getItem('manawire.gameLog') || '')")
    link = a.evaluate("Object.values(JSON.parse(sessionStorage.getItem('manawire.invites')))[0]")
    assert "code=" in link, link
    dup = duplicate(a)
    dup.locator("[data-testid=sign-out]").click()
    expect(dup.locator("#display-name")).to_be_visible()
    # Sign out forgot what this tab kept for Ann, and her name in the guest form.
    for key in KEPT:
        assert dup.evaluate(f"sessionStorage.getItem('{key}')") is None, key
    expect(dup.locator("#display-name")).to_have_value("")
    dup.locator("#display-name").fill("Carol")
    dup.locator("[data-testid=sign-in-guest]").click()
    expect(dup.locator("[data-testid=account-name]")).to_contain_text("Carol")
    invite = Invite.parse(link)
    expect(dup.locator("#join-room-id")).to_have_value("")
    dup.locator("#join-room-id").fill(invite.room_id)
    dup.locator("#join-invite").fill(invite.code)
    dup.locator("[data-testid=watch-room]").click()
    expect(dup.locator(BOARD)).to_have_attribute("data-seat", "-1")
    expect(dup.locator(LOG).first).to_be_visible()
    carol = dup.locator(LOG).all_inner_texts()
    assert "(reconnected)" not in carol, carol
    assert not [line for line in carol if line.startswith(("You ", "Your "))], carol
    # Ann's own tab, reloaded, still has her log back.
    before = a.locator(LOG).all_inner_texts()
    a.reload()
    expect(a.locator(LOG).filter(has_text="(reconnected)")).to_have_count(1)
    after = a.locator(LOG).all_inner_texts()
    assert after[:len(before)] == before, (before, after)
    pages.assert_no_errors()


def test_sign_out_forgets_the_deck_list(pages: Pages) -> None:
    a = pages.open("A")
    sign_in_guest(a, pages.base_url, "Ann")
    create_room(a, seats=2, private=True, deck=DECK)
    expect(a.locator("[data-testid=your-deck]")).to_be_visible()
    a.locator("[data-testid=leave-room]").click()
    expect(a.locator("#deck-text")).to_have_value(DECK)
    a.locator("[data-testid=sign-out]").click()
    expect(a.locator("#display-name")).to_have_value("")
    assert a.evaluate("localStorage.getItem('manawire.deck')") is None
    a.locator("#display-name").fill("Bob")
    a.locator("[data-testid=sign-in-guest]").click()
    expect(a.locator("[data-testid=account-name]")).to_contain_text("Bob")
    expect(a.locator("#deck-text")).to_have_value("")
    expect(a.locator("[data-testid=demo-deck-note]")).to_be_visible()
    # A new tab of this browser: Bob, and no list.
    b = a.context.new_page()
    b.goto(pages.base_url)
    expect(b.locator("[data-testid=account-name]")).to_contain_text("Bob")
    expect(b.locator("#deck-text")).to_have_value("")
    pages.assert_no_errors()
