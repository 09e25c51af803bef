"""When the web client stops for priority (web/src/stops.ts): a player holding an instant
isn't asked at every step of the opponent's turn (a new player's review: pressing P many
times a turn, the clock running each time). By default only the opponent's end step stops
(nothing on the stack, nobody attacks); "Stop at every step" asks again at each step, and the
setting outlives a reload. The log marks each turn's beginning."""

from __future__ import annotations

import re
import time
from collections import defaultdict

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Pages
from tests.browser.ui import BOARD, OPTION, page_state, seat, sign_in_guest

pytestmark = pytest.mark.browser
#: Its tests share one server (tests/browser/conftest.py, shared_server).
SHARED_SERVER = True

#: Ann holds Shock (an instant) with Mountains; Bob has only Forests (nothing he does can
#: go on the stack or attack).
ANN_DECK = "20 Mountain\n20 Shock"
BOB_DECK = "40 Forest"
TURNBAR = "[data-testid=turnbar]"
STOP_EVERY_STEP = "[data-testid=stop-every-step]"
_PROMPT_DONE_JS = """(prompt) => {
  const d = document.querySelector('[data-testid=decision]');
  return d === null || d.getAttribute('data-prompt-id') !== prompt;
}"""


def _turn(page: Page) -> tuple[int, int, str]:
    bar = page.locator(TURNBAR)
    return (int(bar.get_attribute("data-turn") or 0),
            int(bar.get_attribute("data-active-seat") or 0), bar.get_attribute("data-step") or "")


def _choose(kinds: list[str], prefer: tuple[str, ...]) -> int:
    for kind in prefer:
        if kind in kinds:
            return kinds.index(kind)
    return 0


def test_holding_an_instant_the_opponents_turn_stops_only_at_its_end_step(pages: Pages) -> None:
    ann = pages.open("ann")
    sign_in_guest(ann, pages.base_url, "Ann")
    ann.locator("#deck-text").fill(ANN_DECK)
    ann.locator("#room-format").select_option("limited")
    ann.locator("#room-private").set_checked(True)
    ann.locator("[data-testid=create-room]").click()
    expect(ann.locator(BOARD)).to_have_count(1)
    link = ann.locator("[data-testid=invite-link]:visible").first.input_value()
    bob = pages.open("bob")
    sign_in_guest(bob, link, "Bob")
    bob.locator("#deck-text").fill(BOB_DECK)
    bob.locator("[data-testid=join-room]").click()
    for page in (ann, bob):
        expect(page.locator(BOARD)).to_have_attribute("data-state-id", re.compile(r"^[1-9]"))
    # The default, said in words.
    expect(ann.locator("[data-testid=stops-text]")).to_contain_text("stack")
    expect(ann.locator(STOP_EVERY_STEP)).not_to_be_checked()
    bob_seat = seat(bob)
    # Ann's priority stops in Bob's turns, by turn: the step of each.
    stops: dict[int, list[str]] = defaultdict(list)
    full_control_from = 0  # the first Bob turn played with "Stop at every step"
    measured: int | None = None
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        turn, active, _ = _turn(ann) if ann.locator(TURNBAR).count() else (0, -1, "")
        bob_turns = sorted(t for t in stops if t >= 3)
        # The first Bob turn after Ann had a turn of her own (a Mountain on her side), ended:
        # the default's turn; then Ann stops at every step for Bob's next turn.
        if measured is None and active != bob_seat and turn > 3 and bob_turns:
            measured = bob_turns[0]
            ann.locator(STOP_EVERY_STEP).check()
            expect(ann.locator("[data-testid=stops-text]")).to_contain_text("every step")
            full_control_from = turn + 1
        if full_control_from and turn > full_control_from and active != bob_seat:
            break
        acted = False
        for page, prefer in ((ann, ("playLand", "passPriority", "keepHand")),
                             (bob, ("passPriority", "keepHand"))):
            state = page_state(page)
            enabled = [o for o in state["options"] if not o[2]]
            if state["prompt"] is None or not enabled:
                continue
            kinds = [o[1] for o in enabled]
            turn, active, step = _turn(page)
            if (page is ann and active == bob_seat and "passPriority" in kinds
                    and step not in stops[turn]):
                stops[turn].append(step)
            index = enabled[_choose(kinds, prefer)][0]
            page.locator(f'{OPTION}[data-index="{index}"]').click()
            page.wait_for_function(_PROMPT_DONE_JS, arg=state["prompt"], timeout=15_000, polling=20)
            acted = True
        if not acted:
            ann.wait_for_timeout(20)
    else:
        pytest.fail(f"the game didn't get that far: stops {dict(stops)}")
    assert measured is not None
    # Holding Shock with a Mountain untapped, nothing on the stack, nobody attacking: one stop.
    assert stops[measured] == ["End step"], stops
    full = [s for t, s in stops.items() if t >= full_control_from]
    assert full, stops
    assert len(full[0]) >= 5, stops
    assert {"Upkeep", "Draw step", "Precombat main phase", "End step"} <= set(full[0]), stops
    # The log says when each turn began (whose), and counts no draws across turns.
    log = ann.locator("[data-testid=event-log]")
    expect(log).to_contain_text(re.compile(r"— Turn \d+: your turn —"))
    expect(log).to_contain_text(re.compile(r"— Turn \d+: Bob#\d+'s turn —"))
    assert not re.search(r"drew a card \(\u00d7[89]\)", log.inner_text())
    pages.screenshot(ann, "ann")
    # The setting outlives a reload (localStorage).
    ann.reload()
    expect(ann.locator(BOARD)).to_have_attribute("data-state-id", re.compile(r"^[1-9]"))
    expect(ann.locator(STOP_EVERY_STEP)).to_be_checked()
