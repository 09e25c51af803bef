"""The game log's words and the keys, with a scripted server (tests/browser/fake_server.py),
as a new player's review found them: a pump resolving said nothing in the log (the terminal
says "... is now 7/6 (was 3/2)"), the viewer's own card entering read "Llanowar Visionary
(Ann#0001's)" where damage lines say "(yours)", lines began "you ..." in lower case, and after
ticking "Stop at every step" no shortcut worked (the checkbox kept the focus)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from protocol.v1 import game_pb2 as pb
from tests.browser.conftest import Pages
from tests.browser.fake_server import BATTLEFIELD, HAND, FakeServer, card, game_view, sign_in
from tests.browser.ui import OPTION

pytestmark = pytest.mark.browser
#: Its tests share one server (tests/browser/conftest.py, shared_server).
SHARED_SERVER = True

LOG = "[data-testid=event-log]"
STOP_EVERY_STEP = "[data-testid=stop-every-step]"


def test_strength_changes_your_cards_capitals_and_keys_after_a_checkbox(pages: Pages) -> None:
    page = pages.open("A")
    fake = FakeServer()
    sign_in(page, pages.base_url, fake)
    cat = card("p1", "Pridemalkin", BATTLEFIELD, ["Creature"])
    cat.power, cat.toughness = 3, 2
    hand = [card("s", "Shock", HAND, ["Instant"], cost="{R}")]
    players = [pb.Player(seat=0, name="Ann#0001", life=20, hand_count=1),
               pb.Player(seat=1, name="Bob#0002", life=20, hand_count=7)]
    view = game_view(players, [*hand, cat], prompt_id=9)
    cat = view.objects[1]  # (the view's own copy)
    fake.seat()
    fake.snapshot(view, 5)

    # Titanic Growth resolves: +4/+4.
    cat.power, cat.toughness = 7, 6
    fake.delta(view, 5, [pb.GameEvent(card_drawn=pb.CardDrawnEvent(seat=0))],
               ops=[pb.DeltaOp(update_object=cat)])
    log = page.locator(f"{LOG} li")
    expect(log).to_have_text(["You drew a card", "Your Pridemalkin is now 7/6 (was 3/2)"])

    # The viewer's own creature entering: "your", not "(Ann#0001's)".
    visionary = card("v1", "Llanowar Visionary", BATTLEFIELD, ["Creature"])
    view.objects.append(visionary)
    visionary = view.objects[-1]
    battlefield = next(z for z in view.zones if z.zone.kind == BATTLEFIELD)
    battlefield.object_ids.append("v1")
    entered = pb.ZoneChangeEvent(owner=0, from_zone=pb.ZONE_KIND_STACK, to_zone=BATTLEFIELD,
                                 old_id="st", new_id="v1", name="Llanowar Visionary")
    fake.delta(view, 6, [pb.GameEvent(zone_change=entered)],
               ops=[pb.DeltaOp(create_object=visionary), pb.DeltaOp(set_zone=battlefield)])
    expect(log.last).to_have_text("Your Llanowar Visionary entered the battlefield")

    # The cleanup (514.2): the pump wears off -- back to its size, not "(-4/-4)".
    cat.power, cat.toughness = 3, 2
    view.header.step = pb.STEP_CLEANUP
    fake.delta(view, 7, [], ops=[pb.DeltaOp(update_object=cat), pb.DeltaOp(set_header=view.header)])
    expect(log.last).to_have_text("Your Pridemalkin is 3/2 again (the +4/+4 ended)")
    expect(page.locator(LOG)).not_to_contain_text("-4/-4")

    # A priority decision; "Stop at every step" ticked with a click keeps the focus; P still
    # passes priority.
    view.header.step = pb.STEP_PRECOMBAT_MAIN
    fake.delta(view, 8, [], ops=[pb.DeltaOp(set_header=view.header)])
    fake.decision(9, 9, [pb.Action(pass_priority=pb.PassPriority()),
                         pb.Action(cast_spell=pb.CastSpell(object_id="s"))])
    expect(page.locator(OPTION)).to_have_count(2)
    page.locator(STOP_EVERY_STEP).click()
    expect(page.locator(STOP_EVERY_STEP)).to_be_checked()
    assert page.evaluate("() => document.activeElement?.getAttribute('data-testid')") \
        == "stop-every-step"
    page.keyboard.press("p")
    expect(page.locator(OPTION).first).to_be_disabled()
    assert fake.acts() == [0]
    pages.screenshot(page)
    pages.assert_no_errors()
