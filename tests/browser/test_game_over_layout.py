"""The game-over panel's buttons in the narrow side panel: "Rematch" stayed on one line
only when the panel happened to have room (it wrapped to "Remat / ch" beside "Back to the
lobby"), and "Back to the lobby" and "Replay" touched each other. They sit in one row with
gaps, wrapping whole to the next line, each on one line -- at 1280x800, at a narrow width
and in the narrowest side panel. Screenshots:
test-results/screenshots/test_game_over_buttons_*.png."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import FloatRect, Locator, Page, expect

from tests.browser.conftest import Pages
from tests.browser.ui import (
    BOARD,
    GAME_OVER,
    assert_no_horizontal_overflow,
    create_room,
    invite_link,
    join_by_link,
    sign_in_guest,
)

pytestmark = pytest.mark.browser
SHARED_SERVER = True

#: A narrow window: the side panel under the table, as wide as the page.
NARROW = (600, 900)
#: The narrowest window with the side panel beside the board (app.css: max-width 900px).
SIDE_BY_SIDE = (901, 800)


def _box(locator: Locator) -> FloatRect:
    box = locator.bounding_box()
    assert box is not None, locator
    return box


def _one_line(button: Locator) -> None:
    """The button's words on one line: as tall as a button of one word."""
    lines = button.evaluate("(el) => Math.round(el.getBoundingClientRect().height / "
                            "parseFloat(getComputedStyle(el).lineHeight))")
    height = _box(button)["height"]
    assert lines <= 2 and height < 48, f"{button}: {height} px high ({lines} line heights)"
    assert button.evaluate("(el) => el.scrollWidth <= el.clientWidth"), button


def _apart(a: Locator, b: Locator, gap: float = 4) -> None:
    """The two don't touch: at least ``gap`` px between them, across or down."""
    ba, bb = _box(a), _box(b)
    across = max(bb["x"] - (ba["x"] + ba["width"]), ba["x"] - (bb["x"] + bb["width"]))
    down = max(bb["y"] - (ba["y"] + ba["height"]), ba["y"] - (bb["y"] + bb["height"]))
    assert max(across, down) >= gap, f"{a} and {b} touch: {ba} {bb}"


def _check(page: Page) -> None:
    panel = page.locator(GAME_OVER)
    rematch = panel.locator("[data-testid=rematch]")
    back = panel.locator("[data-key=back]")
    replay = panel.locator("[data-testid=replay-finished]")
    for button in (rematch, back, replay):
        expect(button).to_be_visible()
        _one_line(button)
    _apart(rematch, back)
    _apart(back, replay)
    _apart(rematch, replay)
    # (Taller than a line means the words wrapped: "Rematch" is one word.)
    assert _box(rematch)["height"] == pytest.approx(_box(back)["height"], abs=1)


def test_game_over_buttons_each_on_one_line_and_apart(pages: Pages) -> None:
    ann = pages.open("ann")
    sign_in_guest(ann, pages.base_url, "Ann")
    create_room(ann, seats=2, private=False)
    expect(ann.locator(BOARD)).to_have_count(1)
    bob = pages.open("bob", viewport=NARROW)
    join_by_link(bob, invite_link(ann), "Bob")
    for page in (ann, bob):
        expect(page.locator(BOARD)).to_have_attribute("data-state-id", re.compile(r"^[1-9]"))
    concede = ann.locator("[data-key=concede]")
    concede.click()
    concede.click()
    for page, label in ((ann, "1280x800"), (bob, "narrow")):
        expect(page.locator(GAME_OVER)).to_have_count(1)
        page.locator(GAME_OVER).scroll_into_view_if_needed()
        _check(page)
        assert_no_horizontal_overflow(page, label)
        pages.screenshot(page, label)
    # Offered: "Take back", one line too; and in the side panel of a window just wide enough
    # for one (the narrowest it gets beside the board).
    ann.locator("[data-testid=rematch]").click()
    expect(ann.locator("[data-testid=rematch]")).to_have_text("Take back")
    _check(ann)
    pages.screenshot(ann, "offered")
    ann.set_viewport_size({"width": SIDE_BY_SIDE[0], "height": SIDE_BY_SIDE[1]})
    _check(ann)
    assert_no_horizontal_overflow(ann, "side by side")
    pages.screenshot(ann, "side-by-side")
    pages.assert_no_errors()
