"""A new player's review, web client, in a real game: nobody's keep was in the log (the
protocol tells a mulligan taken, not a hand kept: the page says who kept once each round of
declarations is over), and paying by tapping a land asked once more, "Pay {R}: your mana
pool covers it -- choose the mana to spend", with "Pay {R}" its one way to pay."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Pages
from tests.browser.ui import (
    BOARD,
    DECISION,
    OPTION,
    invite_link,
    join_by_link,
    page_state,
    sign_in_guest,
)

pytestmark = pytest.mark.browser
#: Its tests share one server (tests/browser/conftest.py, shared_server).
SHARED_SERVER = True

ANN_DECK = "20 Mountain\n20 Shock"
LOG = "[data-testid=event-log]"


def _hand(page: Page) -> list[str]:
    names: list[str] = page.locator(f"{BOARD} [data-zone=hand] [data-testid=card]").evaluate_all(
        "(cards) => cards.map((c) => c.dataset.name || '')")
    return names


def _click(page: Page, kind: str, text: str = "") -> None:
    option = page.locator(f'{OPTION}[data-kind="{kind}"]:not([disabled])')
    if text:
        option = option.filter(has_text=text)
    prompt = page.locator(DECISION).get_attribute("data-prompt-id")
    option.first.click()
    page.wait_for_function("""(prompt) => {
      const d = document.querySelector('[data-testid=decision]');
      return d === null || d.getAttribute('data-prompt-id') !== prompt
        || d.querySelector('button[data-testid=option]:not([disabled])') === null;
    }""", arg=prompt)


def test_the_log_says_who_kept_and_a_tapped_mountain_pays_shock_without_asking_again(
        pages: Pages) -> None:
    ann = pages.open("ann")
    sign_in_guest(ann, pages.base_url, "Ann")
    ann.locator("#deck-text").fill(ANN_DECK)
    ann.locator("#room-format").select_option("limited")
    ann.locator("[data-testid=create-room]").click()
    expect(ann.locator(BOARD)).to_have_count(1)
    bob = pages.open("bob")
    join_by_link(bob, invite_link(ann), "Bob")
    ann_name = (ann.locator("[data-testid=account-name]").text_content() or "").strip()
    bob_name = (bob.locator("[data-testid=account-name]").text_content() or "").strip()
    pay_decisions = 0
    deadline = time.monotonic() + 90
    while "cast Shock" not in (ann.locator(LOG).text_content() or ""):
        assert time.monotonic() < deadline, "Ann never cast Shock"
        acted = False
        for page in (ann, bob):
            kinds = {o[1] for o in page_state(page)["options"] if not o[2]}
            if not kinds:
                continue
            acted = True
            hand = _hand(page)
            if "chooseStartingPlayer" in kinds:  # Ann plays first
                _click(page, "chooseStartingPlayer", "I play" if page is ann else "Ann")
            elif "keepHand" in kinds:  # Ann keeps a hand with a Mountain and a Shock
                keep = page is bob or ("Mountain" in hand and "Shock" in hand)
                _click(page, "keepHand" if keep or "takeMulligan" not in kinds else "takeMulligan")
            elif "putOnBottom" in kinds:
                _click(page, "putOnBottom", "Mountain" if hand.count("Mountain") > 1 else "Shock")
            elif page is ann and "playLand" in kinds:
                _click(page, "playLand")
            elif page is ann and "castSpell" in kinds:
                _click(page, "castSpell")
            elif page is ann and "chooseTarget" in kinds:
                _click(page, "chooseTarget", bob_name)
            elif page is ann and "activateManaAbility" in kinds:
                pay_decisions += 1  # tap the Mountain for {R}
                _click(page, "activateManaAbility")
            elif "passPriority" in kinds:
                _click(page, "passPriority")
            else:
                pytest.fail(f"{'Ann' if page is ann else 'Bob'}: no option to take in {kinds}")
        if not acted:
            ann.wait_for_timeout(20)
    # Paying Shock by tapping the Mountain asked once: the pool paying {R} exactly, it was paid.
    assert pay_decisions == 1
    expect(ann.locator(LOG)).to_contain_text(f"You cast Shock targeting {bob_name}")
    # Who kept, once the mulligans were over, in each player's words (the terminal's).
    expect(ann.locator(LOG)).to_contain_text(re.compile(r"You kept \d cards?"))
    expect(ann.locator(LOG)).to_contain_text(re.compile(re.escape(bob_name) + r" kept 7 cards"))
    expect(bob.locator(LOG)).to_contain_text(re.compile(re.escape(ann_name) + r" kept \d cards?"))
    pages.screenshot(ann, "ann")
    pages.assert_no_errors()
