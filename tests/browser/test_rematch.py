"""A rematch in the browser (protocol/README.md, "Rematch"): at the game's end the game-over
panel offers "Rematch" (again: "Take back"); the opponent's offer is said ("Ann wants a
rematch") and logged once (not again after a take-back); once both have offered, the
players are seated in the new room and a new board starts (its invite link the new code); a
spectator is told where the rematch is and watches it by its link."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Pages
from tests.browser.ui import (
    BOARD,
    GAME_OVER,
    Invite,
    create_room,
    invite_link,
    join_by_link,
    sign_in_guest,
)

pytestmark = pytest.mark.browser

REMATCH = "[data-testid=rematch]"
WORDS = "[data-testid=rematch-words]"
LOG = "[data-testid=event-log] li"


def _started(page: Page) -> None:
    expect(page.locator(BOARD)).to_have_attribute("data-state-id", re.compile(r"^[1-9]"))
    expect(page.locator(GAME_OVER)).to_have_count(0)


def test_two_players_finish_a_game_and_rematch_into_a_new_one_a_spectator_follows(
        pages: Pages) -> None:
    ann = pages.open("ann")
    sign_in_guest(ann, pages.base_url, "Ann")
    create_room(ann, seats=2, private=False)
    expect(ann.locator(BOARD)).to_have_count(1)
    link = invite_link(ann)
    bob = pages.open("bob")
    join_by_link(bob, link, "Bob")
    cy = pages.open("cy")
    join_by_link(cy, link, "Cy", watch=True)
    for page in (ann, bob, cy):
        _started(page)
    # No rematch while the game goes on.
    expect(ann.locator(REMATCH)).to_have_count(0)
    concede = ann.locator("[data-key=concede]")
    concede.click()
    concede.click()
    for page in (ann, bob, cy):
        expect(page.locator(GAME_OVER)).to_have_count(1)
    expect(cy.locator(REMATCH)).to_have_count(0)  # (a spectator offers nothing)
    # Ann offers, takes it back, offers again: Bob is told (and his log says it once).
    button = ann.locator(REMATCH)
    expect(button).to_have_text("Rematch")
    button.click()
    expect(button).to_have_text("Take back")
    expect(ann.locator(WORDS)).to_have_text(
        re.compile(r"^You offered a rematch: waiting for Bob#\d+\.$"))
    expect(bob.locator(WORDS)).to_have_text(re.compile(r"^Ann#\d+ wants a rematch\.$"))
    expect(cy.locator(WORDS)).to_have_text(re.compile(r"^Ann#\d+ wants a rematch\.$"))
    button.click()
    expect(button).to_have_text("Rematch")
    expect(bob.locator(WORDS)).to_have_count(0)
    button.click()
    expect(button).to_have_text("Take back")
    expect(bob.locator(WORDS)).to_have_text(re.compile(r"^Ann#\d+ wants a rematch\.$"))
    expect(bob.locator(LOG).filter(has_text="wants a rematch")).to_have_text(  # (once)
        [re.compile(r"^Ann#\d+ wants a rematch\.$")])
    old = Invite.parse(link).room_id
    # Bob accepts: both are seated in a new room, on a new board.
    bob.locator(REMATCH).click()
    for page in (ann, bob):
        _started(page)
        expect(page.locator(LOG).first).to_have_text(
            re.compile(r"^— Rematch of “.*”: a new game —$"))
        expect(page.locator(REMATCH)).to_have_count(0)
    # Ann (the creator) has the new room's invite link, a new code.
    invite = ann.locator("[data-testid=room-invite]")
    invite.locator("summary").click()
    new_link = invite.locator("[data-testid=invite-link]").first.input_value()
    new = Invite.parse(new_link)
    assert new.room_id and new.room_id != old, (new_link, link)
    assert new.code and new.code != Invite.parse(link).code
    for page in (ann, bob):  # the new room's id, in the turn bar (np8)
        expect(page.locator("[data-testid=room-id]")).to_have_text(f"room {new.room_id}")
    # Cy, still on the old board, is told and watches the rematch by its link.
    expect(cy.locator(WORDS)).to_have_text("The players started a rematch.")
    watch = cy.locator("[data-testid=watch-rematch]")
    expect(watch).to_have_attribute("href", re.compile(rf"#watch={new.room_id}$"))
    expect(watch).to_have_attribute("role", "button")  # drawn as the panel's buttons (np8)
    watch.click()
    _started(cy)
    expect(cy.locator(BOARD)).to_have_attribute("data-seat", "-1")
    # The rematch is a game: Bob concedes it, and may offer again.
    concede = bob.locator("[data-key=concede]")
    concede.click()
    concede.click()
    for page in (ann, bob, cy):
        expect(page.locator(GAME_OVER)).to_have_count(1)
    expect(ann.locator(REMATCH)).to_have_text("Rematch")
    pages.assert_no_errors()
