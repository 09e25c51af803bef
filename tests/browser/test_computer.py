"""Playing against the computer from the lobby (protocol/README.md, "Computer players"):
"Play against the computer" starts a game at once against the server's computer player,
marked by RoomInfo.computers (a "computer" badge by its name); at the end the computer has
offered a rematch, said in words, and Rematch starts one at once. In a best of 3, game 2
starts with the page at its top (the sideboarding left it scrolled down, the score bar out of
view), and leaving mid-match says the match was conceded (104.3a)."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Pages
from tests.browser.ui import BOARD, GAME_OVER, sign_in_guest

pytestmark = pytest.mark.browser
#: Its tests share one server (tests/browser/conftest.py, shared_server).
SHARED_SERVER = True
#: The badge that marks a computer player's seat.
BADGE = "[data-testid=computer]"


def seat_of(seat: int) -> str:
    return f"[data-testid=player][data-seat='{seat}']"


def play_computer(page: Page, best_of: int = 1) -> None:
    page.locator("#computer-best-of").select_option(str(best_of))
    button = page.locator("[data-testid=play-computer]")
    expect(button).to_be_in_viewport()  # (under the deck box)
    button.click()
    expect(page.locator(BOARD)).to_have_count(1)
    expect(page.locator(BOARD)).to_have_attribute("data-seat", "0")


def concede(page: Page) -> None:
    button = page.locator("[data-key=concede]")
    button.click()
    button.click()


def test_a_game_against_the_computer_starts_at_once_and_its_rematch_too(pages: Pages) -> None:
    page = pages.open("A")
    # A person named "Computer" would be no computer: the badge comes from the room's word.
    sign_in_guest(page, pages.base_url, "Ann")
    pages.screenshot(page, "lobby")
    play_computer(page)
    expect(page.locator(f"{seat_of(1)} {BADGE}")).to_have_text("computer")
    expect(page.locator(f"{seat_of(0)} {BADGE}")).to_have_count(0)
    # The computer plays: the game moves on without anyone else (its turn, or an answer).
    expect(page.locator("[data-testid=prompt]")).not_to_be_empty()
    pages.screenshot(page, "playing")
    room = page.locator("[data-testid=room-id]").text_content()

    concede(page)
    expect(page.locator(GAME_OVER)).to_be_visible()
    # The computer offered a rematch as the game ended: said so, and ours starts it.
    expect(page.locator("[data-testid=rematch-words]")).to_have_text("Computer wants a rematch.")
    pages.screenshot(page, "over")
    page.locator("[data-testid=rematch]").click()
    expect(page.locator("[data-testid=room-id]")).not_to_have_text(room or "")
    expect(page.locator(GAME_OVER)).to_have_count(0)
    expect(page.locator(f"{seat_of(1)} {BADGE}")).to_have_count(1)
    expect(page.locator("[data-testid=event-log] li").first).to_contain_text("Rematch of")
    pages.assert_no_errors()


def test_a_match_against_the_computer_game_2_starts_at_the_top_and_leaving_concedes_it(
        pages: Pages) -> None:
    # 600 px high: game 2's page is taller than the window, as it was at 800 with a fuller
    # board and log (~103 px scrolled down, the score bar out of view: a new player's).
    page = pages.open("A", viewport=(1280, 600))
    sign_in_guest(page, pages.base_url, "Ann")
    play_computer(page, best_of=3)
    score = page.locator("[data-testid=match-score]")
    expect(score).to_contain_text("Game 1 of 3")
    concede(page)  # (in a match: this game)
    keep = page.locator("[data-testid=keep-deck]")
    expect(keep).to_be_visible()
    keep.scroll_into_view_if_needed()
    page.evaluate("window.scrollTo(0, document.scrollingElement.scrollHeight)")
    assert page.evaluate("window.scrollY") > 0, "the sideboarding scrolled the page down"
    keep.click()
    expect(score).to_contain_text("Game 2 of 3")
    # Game 2: the page at its top, the score bar in view.
    expect(page.locator("[data-testid=sideboard]")).to_have_count(0)
    assert page.evaluate("document.scrollingElement.scrollHeight") > 600, "it could stay scrolled"
    # (Polled from here: the page's CSP refuses wait_for_function's eval.)
    deadline = time.monotonic() + 5
    while page.evaluate("window.scrollY") != 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert page.evaluate("window.scrollY") == 0, "game 2 starts at the page's top"

    expect(score).to_be_in_viewport()
    pages.screenshot(page, "game2")

    leave = page.locator("[data-testid=leave-room]")
    expect(leave).to_have_text("Leave (concedes the match)")
    leave.click()
    leave.click()  # ("Leaving concedes the match: leave?")
    expect(page.locator("[data-testid=board]")).to_have_count(0)
    expect(page.locator(".messages")).to_contain_text("You left the match: you conceded it.")
    pages.assert_no_errors()
