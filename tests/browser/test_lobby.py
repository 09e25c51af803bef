"""The lobby in the browser: a refused deck's problems by line, and the page at a phone's
width (no sideways scrolling; a decision's options reachable with the keyboard), and who is
seated in a room waiting for players."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import Pages
from tests.browser.ui import (
    BOARD,
    DECISION,
    OPTION,
    Invite,
    Player,
    assert_no_horizontal_overflow,
    create_room,
    cut_choices,
    invite_link,
    join_by_link,
    page_state,
    sign_in_guest,
)

pytestmark = pytest.mark.browser
#: Its tests share one server (tests/browser/conftest.py, shared_server), each signing in as
#: guests of its own and finding its own rooms by id -- but this one, which counts the rooms
#: the lobby lists.
SHARED_SERVER = True
FRESH_SERVER_FOR = ("test_refused_deck_lists_its_lines",)

PHONE = (390, 844)
#: Tab presses allowed to reach an option button.
MAX_TABS = 150


def test_refused_deck_lists_its_lines(pages: Pages) -> None:
    page = pages.open("deck")
    sign_in_guest(page, pages.base_url, "Dee")
    create_room(page, deck="4 Not A Real Card\n4 Shock\n")
    problems = page.locator("[data-testid=deck-errors] li[data-line]")
    expect(page.locator('[data-testid=deck-errors] li[data-line="1"]')).to_contain_text(
        "Not A Real Card")
    # Too few cards is a problem of the whole deck: line 0.
    expect(page.locator('[data-testid=deck-errors] li[data-line="0"]')).to_have_count(1)
    # A sentence of its own (after a bold "Deck" it read "Deck a constructed deck has at
    # least 60 cards in its main deck, got 8").
    expect(page.locator('[data-testid=deck-errors] li[data-line="0"]')).to_have_text(
        "A constructed deck has at least 60 cards in its main deck: yours has 8.")
    lines = problems.evaluate_all("(els) => els.map((e) => e.dataset.line)")
    assert sorted(lines) == ["0", "1"], lines
    expect(page.locator("[data-testid=error]")).to_be_visible()
    expect(page.locator(BOARD)).to_have_count(0)
    # The deck was checked before any room was made (CreateRoom.join): no empty room of
    # Dee's stands listed, counted against her 4 open rooms. The lobby lists Eve's only.
    other = pages.open("other")
    sign_in_guest(other, pages.base_url, "Eve")
    create_room(other)
    expect(other.locator("[data-testid=seated]")).to_be_visible()
    page.locator("[data-testid=refresh-rooms]").click()
    expect(page.locator("[data-testid=room-row]")).to_have_count(1)
    expect(page.locator("[data-testid=room-row]")).to_contain_text("Eve")
    pages.screenshot(page)
    pages.assert_no_errors()


def test_a_deck_line_without_spaces_wraps_instead_of_widening_the_page(pages: Pages) -> None:
    """A 20,000-character line quoted in the deck's problems made the page 180,689 px wide."""
    page = pages.open("wide")
    sign_in_guest(page, pages.base_url, "Wes")
    create_room(page, deck="4 " + "X" * 20_000 + "\n")
    expect(page.locator('[data-testid=deck-errors] li[data-line="1"]')).to_have_count(1)
    assert_no_horizontal_overflow(page, "a refused deck's long line")
    pages.assert_no_errors()


def test_phone_layout_and_keyboard(pages: Pages) -> None:
    phone = pages.open("phone", viewport=PHONE)
    phone.goto(pages.base_url)
    assert_no_horizontal_overflow(phone, "sign-in")
    sign_in_guest(phone, pages.base_url, "Pia")
    assert_no_horizontal_overflow(phone, "lobby")
    assert cut_choices(phone) == []
    create_room(phone, seats=2, private=True)
    expect(phone.locator(BOARD)).to_have_count(1)
    assert_no_horizontal_overflow(phone, "waiting room")
    desk = pages.open("desk")
    join_by_link(desk, invite_link(phone), "Dan")
    # The desk player answers until the phone has a decision.
    Player([desk], random.Random(3)).play(
        max_clicks=200, seconds=120, until=lambda _: page_state(phone)["prompt"] is not None)
    expect(phone.locator(DECISION)).to_have_count(1)
    assert_no_horizontal_overflow(phone, "board")
    prompt = page_state(phone)["prompt"]
    phone.evaluate("() => document.activeElement && document.activeElement.blur()")
    for _ in range(MAX_TABS):
        phone.keyboard.press("Tab")
        if phone.evaluate(f"() => document.activeElement.matches({OPTION!r})"):
            break
    else:
        pytest.fail(f"{MAX_TABS} Tab presses never focused an option of the decision")
    pages.screenshot(phone)
    # Enter on the focused option answers the decision.
    phone.keyboard.press("Enter")
    phone.wait_for_function(
        "(p) => { const d = document.querySelector('[data-testid=decision]');"
        " return !d || d.getAttribute('data-prompt-id') !== p; }", arg=prompt)
    assert_no_horizontal_overflow(phone, "board, after the answer")
    pages.screenshot(desk, "desk")
    pages.assert_no_errors()


def test_the_waiting_room_shows_who_takes_and_leaves_a_seat(pages: Pages) -> None:
    """The host of a 3-player room saw only "Waiting for players" until the game started:
    not who had joined. Each seat taken or freed is pushed (RoomUpdate) and shown."""
    host = pages.open("host")
    sign_in_guest(host, pages.base_url, "Hal")
    create_room(host, seats=3)
    seated = host.locator("[data-testid=seated]")
    expect(seated).to_have_text(re.compile(r"^Seated \(1 of 3\): Hal#\d+$"))
    guest = pages.open("guest")
    join_by_link(guest, invite_link(host), "Gus")
    expect(seated).to_have_text(re.compile(r"^Seated \(2 of 3\): Hal#\d+, Gus#\d+$"))
    guest.locator("[data-testid=leave-room]").click()
    expect(seated).to_have_text(re.compile(r"^Seated \(1 of 3\): Hal#\d+$"))
    pages.screenshot(host)
    pages.assert_no_errors()


def test_a_refusal_far_down_the_lobby_is_shown_where_the_player_is(pages: Pages) -> None:
    """At 1280x800, joining a full room by its id under "Join by room id" showed the error
    at the top of the page, out of view: nothing seemed to happen. It is shown beside the
    form, in view."""
    host = pages.open("host")
    sign_in_guest(host, pages.base_url, "Hal")
    create_room(host, seats=2)
    room_id = Invite.parse(invite_link(host)).room_id
    join_by_link(pages.open("guest"), invite_link(host), "Gus")
    late = pages.open("late")
    sign_in_guest(late, pages.base_url, "Lou")
    # Down to the form, as a person scrolls to it.
    late.evaluate("() => window.scrollTo(0, document.scrollingElement.scrollHeight)")
    late.locator("#join-room-id").fill(room_id)
    late.locator("[data-testid=join-room]").click()
    error = late.locator("[data-testid=error]")
    expect(error).to_be_visible()
    expect(error).to_be_in_viewport(ratio=1)
    expect(late.locator("form:has(#join-room-id) [data-testid=error]")).to_have_count(1)
    pages.screenshot(late)
    pages.assert_no_errors()


def test_the_lobby_says_what_a_new_visitor_needs(pages: Pages) -> None:
    """A new user's play test: a red "offline" before signing in (the server looked down),
    an empty "Sign in" doing nothing, an invite saying to choose a deck while the sign-in
    form was on screen, delayed views offered for a room without any, a registration that
    said nothing, no word of which deck an empty deck box plays, a Spectators choice cut off
    and a waiting match room that didn't say it was best of 3."""
    host = pages.open("host", url=pages.base_url)
    badge = host.locator("[data-testid=connection]")
    expect(badge).to_have_text("not signed in")
    expect(badge).to_have_attribute("data-state", "signed-out")
    host.locator("[data-testid=sign-in]").click()
    expect(host.locator("[data-testid=sign-in-missing]")).to_have_text(
        "Type your account name and your password to sign in (or play as a guest, beside).")
    sign_in_guest(host, pages.base_url, "Hal")
    # Every choice of the lobby's lists shows whole ("Default (public: anyone, private: inv").
    assert cut_choices(host) == []
    # A match says so while it waits for its players.
    host.locator("#room-best-of").select_option("3")
    create_room(host, seats=2)
    expect(host.locator("[data-testid=best-of]")).to_have_text(
        "A best-of-3 match: the first to win 2 games wins it; between games each player may "
        "sideboard.")
    expect(host.locator("[data-testid=your-deck]")).to_have_text(
        "You play the demo deck “azorius-fliers”, chosen by the server (your deck box was "
        "empty).")
    link = invite_link(host)
    room_id = Invite.parse(link).room_id
    guest = pages.open("guest", url=link)
    notice = guest.locator(".messages .notice")
    expect(notice).to_contain_text("sign in, or play as a guest, first")
    sign_in_guest(guest, link, "Gus")
    expect(notice).to_have_text(
        "You were invited to a game: choose your deck and press “Join as player”.")
    # Once the room is listed, the join form offers only the views it has: the live one.
    row = guest.locator(f'[data-testid=room-row][data-room-id="{room_id}"]')
    for _ in range(20):  # (the list may be a second old)
        if row.count():
            break
        guest.locator("[data-testid=refresh-rooms]").click()
        guest.wait_for_timeout(250)
    expect(row).to_have_count(1)
    expect(guest.locator("#join-tier option:not([hidden])")).to_have_count(1)
    guest.locator("#register-name").fill("Gussie")
    guest.locator("#register-password").fill("a long enough password")
    guest.locator("#register button[type=submit]").click()
    expect(notice).to_contain_text("Registered as Gussie")
    expect(notice).to_be_in_viewport(ratio=1)
    pages.screenshot(guest, "guest")
    pages.screenshot(host)
    pages.assert_no_errors()


def test_registering_with_a_short_password_says_so_in_the_form(pages: Pages) -> None:
    """The browser's own "minlength" bubble showed nothing in headless Chromium (a new
    player's review): the form says what is wrong."""
    page = pages.open("A")
    sign_in_guest(page, pages.base_url, "Gus")
    page.locator("#register-name").fill("Gussie")
    page.locator("#register-password").fill("short")
    page.locator("#register button[type=submit]").click()
    expect(page.locator("#register [data-testid=error]")).to_have_text(
        "The password needs 8 characters or more.")
    expect(page.locator("#register-password")).to_be_focused()


def test_an_invited_player_finds_the_join_form_under_the_deck_box(pages: Pages) -> None:
    """Invited by a link, the join form was far down the right-hand column, under the room
    list and the create form (a new player's review): it follows the deck box, in view."""
    ann = pages.open("ann")
    sign_in_guest(ann, pages.base_url, "Ann")
    create_room(ann, seats=2, private=True)
    expect(ann.locator(BOARD)).to_have_count(1)
    link = invite_link(ann)
    eve = pages.open("eve")
    sign_in_guest(eve, link, "Eve")
    form = eve.locator("[data-testid=join-form]")
    expect(form).to_be_visible()
    deck_box = eve.locator("#deck-text").bounding_box()
    button = eve.locator("[data-testid=join-room]").bounding_box()
    assert deck_box is not None and button is not None
    assert button["y"] > deck_box["y"]
    assert button["y"] + button["height"] <= 800, button
    eve.locator("[data-testid=join-room]").click()
    expect(eve.locator(BOARD)).to_have_count(1)
