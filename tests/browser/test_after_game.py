"""A new player's review, web client: the room's creator can hand out its invite link after
the game started (a page reload too); "Really concede?" waits for its answer; the game-over
panel replays the game (a single game offers no "Game 2?"); an invite link opened on a
finished game's board goes to the lobby's join form."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Pages
from tests.browser.ui import (
    BOARD,
    GAME_OVER,
    READ_TIMEOUT_MS,
    create_room,
    invite_link,
    join_by_link,
    sign_in_guest,
)

pytestmark = pytest.mark.browser
#: Its tests share one server (tests/browser/conftest.py, shared_server) but this one.
SHARED_SERVER = True
FRESH_SERVER_FOR = (
    "test_lobby_lists_finished_rooms_apart_and_a_signed_out_replay_link_says_why",)


def _ann_and_bob(pages: Pages, *, private: bool) -> tuple[Page, Page, str]:
    """Ann creates a two-seat room and Bob joins it by its invite link: their pages, and
    the link."""
    ann = pages.open("ann")
    sign_in_guest(ann, pages.base_url, "Ann")
    create_room(ann, seats=2, private=private)
    expect(ann.locator(BOARD)).to_have_count(1)
    link = invite_link(ann)
    bob = pages.open("bob")
    join_by_link(bob, link, "Bob")
    return ann, bob, link


def test_invite_link_concede_question_replay_and_a_link_on_a_finished_board(
        pages: Pages) -> None:
    ann, bob, link = _ann_and_bob(pages, private=True)
    for page in (ann, bob):
        expect(page.locator(BOARD)).to_have_attribute("data-state-id", re.compile(r"^[1-9]"))
    # The game started: the creator's room panel still has the link (and after a reload).
    invite = ann.locator("[data-testid=room-invite]")
    invite.locator("summary").click()
    expect(invite.locator("[data-testid=invite-link]").first).to_have_value(link)
    expect(bob.locator("[data-testid=room-invite]")).to_have_count(0)
    ann.reload()
    expect(ann.locator(BOARD)).to_have_attribute("data-state-id", re.compile(r"^[1-9]"))
    invite.locator("summary").click()
    expect(invite.locator("[data-testid=invite-link]").first).to_have_value(link)
    # The question stays until answered ("No" takes it back).
    concede = ann.locator("[data-key=concede]")
    concede.click()
    expect(concede).to_have_text("Really concede?")
    ann.wait_for_timeout(5_000)
    expect(concede).to_have_text("Really concede?")
    ann.locator("[data-testid=confirm-no]").click()
    expect(concede).to_have_text("Concede")
    concede.click()
    concede.click()
    for page in (ann, bob):
        expect(page.locator(GAME_OVER)).to_have_count(1)
    # Said once: "You won." and the loser's result, not a bullet "You won" again.
    expect(bob.locator(f"{GAME_OVER} > p").first).to_have_text("You won.")
    expect(bob.locator(f"{GAME_OVER} [data-testid=results] li")).to_have_text(
        [re.compile(r"^Ann#\d+ lost: Ann#\d+ conceded$")])
    # The game-over panel replays the private room's game, in a new tab; a single game
    # offers no other. Ann's tab stays in the room: replaying left it, and Bob read "No
    # rematch: Ann left the room" (a new player's finding).
    with ann.context.expect_page() as opened:
        ann.locator("[data-testid=replay-finished]").click()
    tab = opened.value
    expect(tab.locator("[data-testid=replay]")).to_be_visible()
    expect(tab.locator("[data-testid=replay-position]")).to_have_attribute(
        "data-loading", "0", timeout=READ_TIMEOUT_MS)
    expect(tab.locator("[data-testid=replay-games]")).to_have_count(0)
    expect(tab.locator("[data-testid=error]")).to_have_count(0)
    expect(ann.locator(GAME_OVER)).to_have_count(1)
    expect(ann.locator("[data-testid=rematch]")).to_be_visible()
    expect(bob.get_by_text("left the room")).to_have_count(0)
    tab.close()
    # Bob, still on the finished game's board, opens a new invite link: the join form.
    bob.evaluate("location.hash = '#join=abcdef123456&code=sesame'")
    expect(bob.locator("[data-testid=join-room]")).to_be_visible()
    expect(bob.locator("#join-room-id")).to_have_value("abcdef123456")
    expect(bob.locator("#join-invite")).to_have_value("sesame")
    expect(bob.get_by_text("choose your deck and press “Join as player”")).to_be_visible()


def test_lobby_lists_finished_rooms_apart_and_a_signed_out_replay_link_says_why(
        pages: Pages) -> None:
    ann, _bob, link = _ann_and_bob(pages, private=False)
    expect(ann.locator(BOARD)).to_have_attribute("data-state-id", re.compile(r"^[1-9]"))
    concede = ann.locator("[data-key=concede]")
    concede.click()
    concede.click()
    expect(ann.locator(GAME_OVER)).to_have_count(1)
    # A finished room is listed for its replay, not among the open rooms.
    cy = pages.open("cy")
    sign_in_guest(cy, pages.base_url, "Cy")
    cy.locator("[data-testid=refresh-rooms]").click()
    expect(cy.locator("[data-testid=finished-rooms] [data-testid=room-row]")).to_have_count(1)
    expect(cy.locator("[data-testid=open-rooms]")).to_have_count(0)
    expect(cy.locator("[data-testid=no-open-rooms]")).to_be_visible()
    # Quick match names where its settings are (it said "(set above)": they are not above).
    expect(cy.get_by_text("“Deck format” and “Players” in “Create a room”")).to_be_visible()
    # A replay link opened signed out: the sign-in form says why it comes first.
    dee = pages.open("dee")
    dee.goto(pages.base_url + "#replay=" + link.split("#join=")[1].split("&")[0])
    expect(dee.get_by_text("sign in, or play as a guest, first")).to_be_visible()
    dee.locator("#display-name").fill("Dee")
    dee.locator("[data-testid=sign-in-guest]").click()
    expect(dee.locator("[data-testid=replay]")).to_be_visible()


def test_a_replay_link_in_a_second_tab_opens_the_replay_and_the_first_tab_keeps_its_seat(
        pages: Pages) -> None:
    """A new player's review: a ``#replay=`` link opened in a second tab of the browser
    while the account is seated in a game in the first said "This session was taken over by
    another tab or device" in the first and never showed the replay. The second tab (no
    session of its own) now says Hello for replays only: the replay opens there, and the
    first tab plays on."""
    ann, bob, _link = _ann_and_bob(pages, private=False)
    expect(ann.locator(BOARD)).to_have_attribute("data-state-id", re.compile(r"^[1-9]"))
    concede = ann.locator("[data-key=concede]")
    concede.click()
    concede.click()
    expect(ann.locator(GAME_OVER)).to_have_count(1)
    finished = ann.locator("[data-testid=replay-finished]").get_attribute("data-game-id")
    assert finished
    # A second game: Ann seated in it, Bob joins from his finished board's lobby.
    ann.locator("[data-key=back]").click()
    create_room(ann, seats=2)
    second = invite_link(ann)
    bob.evaluate(f"location.hash = '{second[second.index('#'):]}'")
    bob.locator("[data-testid=join-room]").click()
    for page in (ann, bob):
        expect(page.locator(BOARD)).to_have_attribute("data-state-id", re.compile(r"^[1-9]"))
    # Ann's second tab: the same browser (its localStorage: the same account), a new tab.
    tab = ann.context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    tab.goto(f"{pages.base_url}#replay={finished}")
    expect(tab.locator("[data-testid=replay]")).to_be_visible()
    expect(tab.locator("[data-testid=replay-position]")).to_have_attribute(
        "data-loading", "0", timeout=READ_TIMEOUT_MS)
    expect(tab.locator("[data-testid=error]")).to_have_count(0)
    # The first tab still holds its seat: connected, and its concession ends the game for Bob.
    expect(ann.locator("[data-testid=connection]")).to_have_attribute("data-state", "connected")
    expect(ann.get_by_text("taken over")).to_have_count(0)
    concede = ann.locator("[data-key=concede]")
    concede.click()
    concede.click()
    expect(bob.locator(GAME_OVER)).to_have_count(1)
    expect(tab.locator("[data-testid=replay]")).to_be_visible()
    # Back in the lobby, the replays' tab may not take a seat (the account would play twice):
    # the server says why, and the first tab is untouched.
    tab.locator("[data-testid=leave-replay]").click()
    tab.locator("[data-testid=create-room]").click()
    expect(tab.locator("[data-testid=error]")).to_contain_text("for replays only")
    expect(ann.locator("[data-testid=connection]")).to_have_attribute("data-state", "connected")
    expect(ann.locator(GAME_OVER)).to_have_count(1)
    assert errors == []
    pages.assert_no_errors()


def test_a_duplicated_tab_takes_no_seat_over_unless_asked_and_a_reload_still_resumes(
        pages: Pages) -> None:
    """A duplicated tab (the browser copies its sessionStorage, the resume token with it)
    resumed the first tab's session and took its seat over: "This session was taken over by
    another tab or device" in the first. The copy now finds the first tab alive (tabs.ts),
    says Hello for replays only and offers "Play here"; a reload of the first tab, the copy
    open, still resumes its seat; "Play here" takes the seat over. (Playwright can't
    duplicate a tab: a new tab of the same browser gets a copy of the first's
    sessionStorage before its scripts run, as a duplicate does.)"""
    ann, bob, _link = _ann_and_bob(pages, private=False)
    for page in (ann, bob):
        expect(page.locator(BOARD)).to_have_attribute("data-state-id", re.compile(r"^[1-9]"))
    stored = ann.evaluate("JSON.stringify(Object.entries(sessionStorage))")
    assert "manawire.resumeToken" in stored and "manawire.tabId" in stored
    copy = ann.context.new_page()
    errors: list[str] = []
    copy.on("pageerror", lambda exc: errors.append(str(exc)))
    copy.add_init_script(
        "if (!sessionStorage.getItem('copied')) {"
        f" for (const [k, v] of {stored}) sessionStorage.setItem(k, v);"
        " sessionStorage.setItem('copied', '1'); }")
    copy.goto(pages.base_url)
    expect(copy.locator("[data-testid=connection]")).to_have_attribute("data-state", "connected")
    expect(copy.locator(".notice").first).to_contain_text(
        "copy of another tab that holds your seat")
    expect(copy.locator(BOARD)).to_have_count(0)
    play_here = copy.locator("[data-testid=play-here]")
    expect(play_here).to_be_visible()
    # The first tab plays on; reloaded, it resumes its seat (not taken for a copy).
    expect(ann.locator("[data-testid=connection]")).to_have_attribute("data-state", "connected")
    expect(ann.get_by_text("taken over")).to_have_count(0)
    ann.reload()
    expect(ann.locator(BOARD)).to_have_attribute("data-state-id", re.compile(r"^[1-9]"))
    expect(ann.locator("[data-testid=connection]")).to_have_attribute("data-state", "connected")
    expect(ann.locator("[data-key=concede]")).to_have_count(1)
    # Asked, the copy takes the seat: the first tab says so.
    play_here.click()
    expect(copy.locator(BOARD)).to_have_attribute("data-state-id", re.compile(r"^[1-9]"))
    expect(copy.locator("[data-key=concede]")).to_have_count(1)
    expect(ann.get_by_text("taken over")).to_have_count(1)
    assert errors == []
    pages.assert_no_errors()
