"""The board in the browser, as a new player uses it: declaring a block by clicking the two
creatures (either first), a tapped card's power/toughness on one line, and what a waiting
player is told when the opponent's connection is gone."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Pages
from tests.browser.ui import (
    BOARD,
    DECISION,
    OPTION,
    PageState,
    Player,
    create_room,
    invite_link,
    page_state,
    sign_in_guest,
)

pytestmark = pytest.mark.browser
#: Its tests share one server (tests/browser/conftest.py, shared_server).
SHARED_SERVER = True

#: Clicks and seconds the players may take to reach a declaration of blockers with a block
#: to choose (a few turns of cheap creatures: about a hundred clicks).
BLOCK_CLICKS = 1_000
BLOCK_SECONDS = 120.0
#: Cheap ground creatures and plenty of lands, for both players: attacks and blocks come
#: within a few turns, whatever the shuffles. (None has vigilance: the block test reads a
#: tapped attacker.)
CREATURES = "\n".join(["24 Plains"] + [f"4 {name}" for name in (
    "Staunch Shieldmate", "Celestial Enforcer", "Daybreak Charger", "Anointed Chorister",
    "Tempered Veteran", "Makeshift Battalion", "Pack Leader", "Palladium Myr", "Prismite")])


def two_players(pages: Pages, deck: str = "") -> tuple[Page, Page]:
    """Ann creates a private two-seat room, Bob joins it by its invite link (each with
    ``deck``, or a demo deck): the game starts."""
    a = pages.open("A")
    sign_in_guest(a, pages.base_url, "Ann")
    create_room(a, seats=2, private=True, deck=deck)
    expect(a.locator(BOARD)).to_have_count(1)
    b = pages.open("B")
    link = invite_link(a)
    sign_in_guest(b, link, "Bob")
    b.locator("#deck-text").fill(deck)
    b.locator("[data-testid=join-room]").click()
    for page in (a, b):
        expect(page.locator(BOARD)).to_have_attribute("data-state-id", re.compile(r"^[1-9]"))
    return a, b


def can_block(state: PageState) -> bool:
    return any(kind == "declareBlocker" for _, kind, _ in state["options"])


def test_a_block_is_declared_by_clicking_the_attacker_then_the_blocker(pages: Pages) -> None:
    """A new player clicked their creature, then the attacker: nothing happened, and
    "Done: confirm blockers" declared no block. Clicking the attacker and a creature of
    yours (either first) declares that block; "Done" with one selected says so first."""
    a, b = two_players(pages, CREATURES)
    player = Player([a, b], random.Random(509))
    states = player.play(max_clicks=BLOCK_CLICKS, seconds=BLOCK_SECONDS,
                         until=lambda states: any(can_block(s) or s["over"] for s in states))
    assert any(can_block(s) for s in states), f"the game ended with no block to declare: {states}"
    page = a if can_block(states[0]) else b
    prompt = page_state(page)["prompt"]
    board = page.locator(BOARD)
    me = board.locator("[data-testid=player].me")
    attacker = board.locator("[data-testid=player]:not(.me) button[data-testid=card].attacking")
    expect(attacker.first).to_be_visible()
    # A tapped attacker's power/toughness stays on one line beside its badges.
    tapped_pt = board.locator("[data-testid=card].tapped .pt").first
    expect(tapped_pt).to_be_visible()
    lines = tapped_pt.evaluate(
        "(el) => el.getBoundingClientRect().height"
        " / parseFloat(getComputedStyle(el).lineHeight)")
    assert lines < 1.5, f"a tapped card's power/toughness takes {lines:.1f} lines"
    target = attacker.first
    target_name = target.get_attribute("data-name")
    target.click()
    expect(target).to_have_class(re.compile(r"\bselected\b"))
    expect(page.locator("[data-testid=pair-hint]")).to_contain_text("creature of yours")
    # "Done" now would leave the attacker unblocked: the page says so, and sends nothing.
    page.locator(f'{OPTION}[data-kind="finishBlockers"]').click()
    expect(page.locator("[data-testid=decision-note]")).to_contain_text(
        "nothing blocks it yet")
    expect(page.locator(DECISION)).to_have_attribute("data-prompt-id", prompt or "")
    pages.screenshot(page, "done-held")
    # The blocks of the selected attacker are listed first ("Block Drake with Wall"):
    # click the creature the first names.
    label = page.locator(f"{DECISION} .option.related .option-label").first.text_content() or ""
    # (a label may end with what tells alike creatures apart: "(yours)", "(2/2)", "(1 of 2)",
    # "(one of 2 alike)"; of two of a name, one may be tapped from attacking last turn)
    found = re.match(r"^Block .+? with (.+?)(?: \([^()]*\))*$", label)
    assert found, label
    blocker = me.locator(f'button[data-testid=card][data-name="{found.group(1)}"]'
                         ".actionable:not(.tapped)").first
    blocker.click()
    # The block is declared: the log says so once the blocks are confirmed.
    page.wait_for_function(
        "(p) => { const d = document.querySelector('[data-testid=decision]');"
        " return !d || d.getAttribute('data-prompt-id') !== p; }", arg=prompt)
    done = page.locator(f'{OPTION}[data-kind="finishBlockers"]:not([disabled])')
    for _ in range(10):  # (more blocks may be offered: confirm them as they are)
        if page.locator("[data-testid=event-log]").get_by_text(
                re.compile(rf"\bblocks {re.escape(target_name or '')}\b")).count():
            break
        if done.count():
            done.click()
        page.wait_for_timeout(200)
    expect(page.locator("[data-testid=event-log]")).to_contain_text(
        # (each said whose it is when both players have one of that name)
        re.compile(rf"{re.escape(found.group(1))}( \([^)]*\))? blocks "
                   rf"{re.escape(target_name or '')}"))
    pages.screenshot(page)
    pages.assert_no_errors()

def test_a_disconnected_opponent_is_explained(pages: Pages) -> None:
    """The board said only "disconnected" next to the opponent's name: the waiting player
    is told what that means for the game."""
    a, _ = two_players(pages)
    bob = a.locator("[data-testid=player]:not(.me) .pname").text_content() or ""
    pages.opened[-1].context.close()  # Bob's browser is gone
    note = a.locator("[data-testid=presence-note]")
    expect(note).to_contain_text("is disconnected")
    expect(note).to_contain_text("seat is kept")
    expect(note).to_contain_text("they lose the game")  # (rule 104.3a, in words: no rule number)
    assert bob.split("#")[0] in (note.text_content() or "")
    pages.screenshot(a)
    pages.assert_no_errors()
