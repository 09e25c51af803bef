"""The decision panel and the game log of a long game, with a scripted server
(tests/browser/fake_server.py): a new user's hand of four Forests and three Volcanic Geysers
listed "Play Forest (1 of 4)" ... "(4 of 4)" (and two untapped Mountains "Tap Mountain for
mana (1 of 2)", "(2 of 2)"), pushing options past key 9 and out of the panel's view; and the
log kept only its last 80 lines, numbered from 1 again."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from protocol.v1 import game_pb2 as pb
from tests.browser.conftest import Pages
from tests.browser.fake_server import BATTLEFIELD, HAND, FakeServer, card, game_view, sign_in
from tests.browser.ui import DECISION, OPTION

pytestmark = pytest.mark.browser
#: Its tests share one server (tests/browser/conftest.py, shared_server).
SHARED_SERVER = True

#: Log lines sent: more than the client keeps (2000), so that its first ones are dropped.
LOG_EVENTS = 2100


def test_alike_options_once_keys_as_shown_every_option_reachable_and_the_whole_log(
        pages: Pages) -> None:
    page = pages.open("A")
    fake = FakeServer()
    sign_in(page, pages.base_url, fake)
    hand = ([card(f"f{i}", "Forest", HAND, ["Land"]) for i in range(4)]
            + [card(f"g{i}", "Volcanic Geyser", HAND, ["Instant"], cost="{X}{R}{R}")
               for i in range(3)]
            + [card("s", "Shock", HAND, ["Instant"], cost="{R}")])
    # Nine lands of nine names, and a tenth Mountain like the first (untapped, nothing on it).
    lands = [card(f"m{i}", name, BATTLEFIELD, ["Land"]) for i, name in enumerate((
        "Mountain", "Island", "Swamp", "Plains", "Wastes", "Radiant Fountain", "Cinder Barrens",
        "Scoured Barrens", "Rugged Highlands", "Mountain"))]
    players = [pb.Player(seat=0, name="Ann#0001", life=20, hand_count=len(hand)),
               pb.Player(seat=1, name="Bob#0002", life=20, hand_count=7)]
    view = game_view(players, hand + lands, prompt_id=9)
    options = [pb.Action(pass_priority=pb.PassPriority())]
    options += [pb.Action(play_land=pb.PlayLand(object_id=c.id)) for c in hand[:4]]
    options += [pb.Action(cast_spell=pb.CastSpell(object_id=c.id)) for c in hand[4:]]
    options += [pb.Action(activate_mana_ability=pb.ActivateManaAbility(object_id=c.id))
                for c in lands]
    fake.seat()
    fake.snapshot(view, 5)
    fake.decision(9, 5, options)

    # Each Forest and each Geyser of the hand once; the two alike Mountains once.
    buttons = page.locator(OPTION)
    expect(buttons).to_have_count(13)
    assert buttons.evaluate_all("(bs) => bs.map((b) => Number(b.dataset.index))") == [
        0, 1, 5, 8, *range(9, 18)]
    labels = page.locator(f"{OPTION} .option-label").all_text_contents()
    assert labels[:5] == ["Pass priority", "Play Forest", "Cast Volcanic Geyser", "Cast Shock",
                          "Tap Mountain for mana"]
    # Keys 1-9 as shown: their numbers on the first nine.
    assert page.locator(f"{OPTION} kbd").all_text_contents() == [str(n) for n in range(1, 10)]

    # More options than the list shows: it says so, and scrolls to them.
    last = buttons.last
    more = page.locator(f"{DECISION} [data-testid=more-options]")
    expect(more).to_be_visible()
    expect(more).to_contain_text("more options below")
    expect(last).not_to_be_in_viewport()
    for _ in range(10):  # (each click scrolls by the list's height)
        more.click()
        page.wait_for_timeout(100)  # (the list's scroll event comes with the next frame)
        if more.is_hidden():
            break
    expect(more).to_be_hidden()
    expect(last).to_be_in_viewport(ratio=1)
    pages.screenshot(page, "decision")

    # Key 3 is the third option shown, "Cast Volcanic Geyser" (option 5 of the decision).
    page.locator("body").press("3")
    expect(buttons.first).to_be_disabled()
    assert fake.acts() == [5]

    # A long game's log: every line kept (2000), numbered as in the game.
    events = [pb.GameEvent(life_changed=pb.LifeChangedEvent(seat=1, amount=-n))
              for n in range(1, LOG_EVENTS + 1)]
    fake.delta(view, 5, events)
    log = page.locator("[data-testid=event-log]")
    expect(log.locator("li")).to_have_count(2000)
    expect(log).to_have_attribute("start", str(LOG_EVENTS - 2000 + 1))
    expect(log.locator("li").first).to_have_text(f"Bob#0002 lost {LOG_EVENTS - 2000 + 1} life")
    expect(log.locator("li").last).to_have_text(f"Bob#0002 lost {LOG_EVENTS} life")
    # Scrolled up to read back, a new line doesn't pull the log down.
    log.evaluate("(el) => { el.scrollTop = 0; }")
    fake.delta(view, 6, [pb.GameEvent(card_drawn=pb.CardDrawnEvent(seat=1))])
    expect(log.locator("li").last).to_have_text("Bob#0002 drew a card")
    assert log.evaluate("(el) => el.scrollTop") == 0
    pages.screenshot(page)
    pages.assert_no_errors()


def test_choosing_x_each_options_key_is_xs_value(pages: Pages) -> None:
    """Options "X = 0", "X = 1" ... had keys 1, 2 ...: a new player pressing the X they
    wanted got one less. Choosing X, the key shown and taken is X's value (0-9)."""
    page = pages.open("A")
    fake = FakeServer()
    sign_in(page, pages.base_url, fake)
    players = [pb.Player(seat=0, name="Ann#0001", life=20, hand_count=1),
               pb.Player(seat=1, name="Bob#0002", life=20, hand_count=7)]
    view = game_view(players, [card("g", "Volcanic Geyser", HAND, ["Instant"],
                                    cost="{X}{R}{R}")], prompt_id=4)
    fake.seat()
    fake.snapshot(view, 5)
    fake.decision(4, 5, [pb.Action(choose_x=pb.ChooseX(value=v)) for v in range(12)],
                  kind=pb.DECISION_KIND_CHOOSE_X)

    buttons = page.locator(OPTION)
    expect(buttons).to_have_count(12)
    labels = page.locator(f"{OPTION} .option-label").all_text_contents()
    assert labels[:3] == ["X = 0", "X = 1", "X = 2"]
    # Each key is X's value, from 0; X = 10 and 11 have none (a click picks them).
    assert page.locator(f"{OPTION} kbd").all_text_contents() == [str(n) for n in range(10)]
    assert buttons.nth(3).locator("kbd").text_content() == "3"
    expect(page.locator(DECISION)).to_contain_text("0-9 pick X's value")

    page.locator("body").press("3")  # X = 3, option 3 (it was X = 2)
    expect(buttons.first).to_be_disabled()
    assert fake.acts() == [3]
    pages.assert_no_errors()


def test_escape_takes_a_cast_back_and_alike_attackers_are_one_option(pages: Pages) -> None:
    """No key took a cast back (its Cancel option, last, is often past key 9): Escape does,
    once nothing is selected (a selection is cleared first), and the keys' hint says so.
    Five alike untapped Grizzly Bears listed "Attack Bob#0002 with Grizzly Bears" five
    times: one option that says so, answered with one of the five."""
    page = pages.open("A")
    fake = FakeServer()
    sign_in(page, pages.base_url, fake)
    lands = [card(f"m{i}", name, BATTLEFIELD, ["Land"]) for i, name in enumerate((
        "Mountain", "Island", "Swamp", "Plains", "Wastes", "Radiant Fountain", "Cinder Barrens",
        "Scoured Barrens", "Rugged Highlands", "Forest"))]
    bears = [card(f"b{i}", "Grizzly Bears", BATTLEFIELD, ["Creature"], cost="{1}{G}")
             for i in range(5)]
    for bear in bears:
        bear.power, bear.toughness = 2, 2
    players = [pb.Player(seat=0, name="Ann#0001", life=20, hand_count=0),
               pb.Player(seat=1, name="Bob#0002", life=20, hand_count=7)]
    view = game_view(players, [card("s", "Shock", pb.ZONE_KIND_STACK, ["Instant"],
                                    cost="{R}"), *lands, *bears], prompt_id=4)
    fake.seat()
    fake.snapshot(view, 5)
    # Paying for Shock: Pay automatically, ten lands to tap, then Cancel (no key of 1-9).
    options = [pb.Action(pay_automatically=pb.PayAutomatically())]
    options += [pb.Action(activate_mana_ability=pb.ActivateManaAbility(object_id=c.id))
                for c in lands]
    options.append(pb.Action(cancel_cast=pb.CancelCast()))
    fake.decision(4, 5, options, kind=pb.DECISION_KIND_PAY_MANA)

    buttons = page.locator(OPTION)
    expect(buttons).to_have_count(12)
    cancel = page.locator(f"{OPTION}[data-kind=cancelCast]")
    expect(cancel).to_have_attribute("title", "Key: C (or Esc)")
    expect(cancel.locator("kbd")).to_have_text("C")  # (never a number)
    hint = page.locator(f"{DECISION} p.hint").last
    expect(hint).to_contain_text("P passes priority, C or Esc cancels the cast (Cancel).")
    # A land selected (it has two options here): Escape clears it first, sending nothing.
    fake.decision(5, 5, [*options[:-1], pb.Action(activate_mana_ability=pb.ActivateManaAbility(
        object_id="m0", mana="B")), options[-1]], kind=pb.DECISION_KIND_PAY_MANA)
    expect(page.locator(DECISION)).to_have_attribute("data-prompt-id", "5")
    page.locator("[data-testid=card][data-id=m0]").click()
    expect(page.locator(f"{DECISION} h3")).to_have_text("For Mountain:")
    expect(hint).to_contain_text(
        "C cancels the cast (Cancel; Esc clears the selection, then cancels it).")
    page.locator("body").press("Escape")
    expect(page.locator(f"{DECISION} h3")).to_have_count(0)
    assert fake.acts() == []
    page.locator("body").press("Escape")
    expect(buttons.first).to_be_disabled()
    assert fake.acts() == [12]

    # Declaring attackers: the five alike Grizzly Bears are one option.
    fake.decision(6, 5, [*(pb.Action(declare_attacker=pb.DeclareAttacker(
        object_id=b.id, defender=1)) for b in bears),
        pb.Action(finish_attackers=pb.FinishAttackers())],
        kind=pb.DECISION_KIND_DECLARE_ATTACKERS)
    expect(buttons).to_have_count(2)
    assert page.locator(f"{OPTION} .option-label").all_text_contents() == [
        "Attack Bob#0002 with Grizzly Bears (one of 5 alike)", "Done: confirm attackers"]
    # No Cancel here: Escape sends nothing, and the hint doesn't offer it.
    expect(hint).not_to_contain_text("Esc")
    page.locator("body").press("Escape")
    page.locator("body").press("1")
    expect(buttons.first).to_be_disabled()
    assert fake.acts() == [12, 0]
    pages.assert_no_errors()


def test_cancel_has_no_number_and_key_c_takes_the_cast_back(pages: Pages) -> None:
    """While casting, the list said "3 Cancel: take it back" and key 3 took the cast back: a
    number pressed as the list changed could. As the terminal's `c` (never numbered), Cancel
    is a button of its own under the numbered options, its key C (601.2i)."""
    page = pages.open("A")
    fake = FakeServer()
    sign_in(page, pages.base_url, fake)
    lands = [card("m0", "Mountain", BATTLEFIELD, ["Land"])]
    players = [pb.Player(seat=0, name="Ann#0001", life=20, hand_count=0),
               pb.Player(seat=1, name="Bob#0002", life=20, hand_count=7)]
    view = game_view(players, [card("s", "Shock", pb.ZONE_KIND_STACK, ["Instant"], cost="{R}"),
                               *lands], prompt_id=4)
    fake.seat()
    fake.snapshot(view, 5)
    # Cancel among the others, as a server may list it: it is shown apart all the same.
    fake.decision(4, 5, [pb.Action(pay_automatically=pb.PayAutomatically()),
                         pb.Action(cancel_cast=pb.CancelCast()),
                         pb.Action(activate_mana_ability=pb.ActivateManaAbility(object_id="m0"))],
                  kind=pb.DECISION_KIND_PAY_MANA)
    numbered = page.locator(f"{DECISION} ol.options {OPTION.split(' ', 1)[1]}")
    expect(numbered).to_have_count(2)
    assert numbered.locator("kbd").all_text_contents() == ["1", "2"]
    assert numbered.evaluate_all("(bs) => bs.map((b) => b.dataset.kind)") == [
        "payAutomatically", "activateManaAbility"]
    cancel = page.locator(f"{DECISION} .cancel-cast {OPTION.split(' ', 1)[1]}")
    expect(cancel).to_have_attribute("data-kind", "cancelCast")
    expect(cancel.locator("kbd")).to_have_text("C")
    # Cancel sits under the numbered list.
    list_box = page.locator(f"{DECISION} ol.options").last.bounding_box()
    cancel_box = cancel.bounding_box()
    assert list_box is not None and cancel_box is not None
    assert cancel_box["y"] >= list_box["y"] + list_box["height"] - 1
    pages.screenshot(page, "paying")
    page.locator("body").press("3")  # no option has key 3: nothing sent
    page.locator("body").press("c")
    expect(cancel).to_be_disabled()
    assert fake.acts() == [1]
    pages.assert_no_errors()


def test_alike_blocks_are_one_option_and_a_blocked_attacker_says_so(pages: Pages) -> None:
    """Found playing: three alike Walking Corpses attacking, four Walking Corpses (two
    summoning sick) to block with: six options "Block Walking Corpse with Walking Corpse (one
    of 2 alike) (k of 6)". Alike attackers are one, a blocker's sickness nothing (302.6);
    once one attacker is blocked, its card and its options say so."""
    page = pages.open("A")
    fake = FakeServer()
    sign_in(page, pages.base_url, fake)

    def corpse(obj_id: str, owner: int) -> pb.GameObject:
        c = card(obj_id, "Walking Corpse", BATTLEFIELD, ["Creature"], owner=owner, cost="{1}{B}")
        c.power, c.toughness = 2, 2
        if owner == 1:
            c.attacking, c.tapped = 0, True
        return c

    attackers = [corpse(f"w{i}", 1) for i in range(3)]
    blockers = [corpse(f"c{i}", 0) for i in range(4)]
    blockers[2].summoning_sick = blockers[3].summoning_sick = True
    players = [pb.Player(seat=0, name="Ann#0001", life=20, hand_count=0),
               pb.Player(seat=1, name="Bob#0002", life=20, hand_count=7)]
    view = game_view(players, [*attackers, *blockers], prompt_id=4, active=1)
    fake.seat()
    fake.snapshot(view, 5)
    blocks = [pb.Action(declare_blocker=pb.DeclareBlocker(object_id=b.id, attacker_id=a.id))
              for b in blockers for a in attackers]
    fake.decision(4, 5, [*blocks, pb.Action(finish_blockers=pb.FinishBlockers())],
                  kind=pb.DECISION_KIND_DECLARE_BLOCKERS)
    labels = page.locator(f"{OPTION} .option-label")
    expect(labels).to_have_text(["Block Walking Corpse with Walking Corpse (one of 4 alike)",
                                 "Done: confirm blockers"])
    page.locator("body").press("1")
    assert fake.acts() == [0]

    # c0 blocks w0: w0's card says so, and its options stay apart from the others'.
    blockers[0].blocking.append("w0")
    after = game_view(players, [*attackers, *blockers], prompt_id=4, active=1)
    fake.delta(after, 5, [], ops=[pb.DeltaOp(update_object=blockers[0])])
    fake.decision(5, 6, [*blocks[3:], pb.Action(finish_blockers=pb.FinishBlockers())],
                  kind=pb.DECISION_KIND_DECLARE_BLOCKERS)
    expect(labels).to_have_text([
        "Block Walking Corpse (already blocked) with Walking Corpse (one of 3 alike)",
        "Block Walking Corpse with Walking Corpse (one of 3 alike)", "Done: confirm blockers"])
    expect(page.locator("[data-testid=card][data-id=w0]")).to_contain_text(
        "blocked by Walking Corpse")
    expect(page.locator("[data-testid=card][data-id=w1]")).not_to_contain_text("blocked by")
    pages.assert_no_errors()


def test_alike_divisions_of_damage_and_alike_tapped_targets_are_one_option(
        pages: Pages) -> None:
    """Colossal Dreadmaw blocked by two alike Grizzly Bears listed every division of its 4
    damage in both orders ("deals 1 to Grizzly Bears, 3 to Grizzly Bears" and "3 ..., 1
    ..."): one option each (510.1c), answered with a valid one. Then Shock's targets: two
    tapped alike Bears and an untapped one were "(1 of 3)" ... "(3 of 3)", which was tapped
    unsaid: the tapped ones are one option, said tapped, apart from the untapped one."""
    page = pages.open("A")
    fake = FakeServer()
    sign_in(page, pages.base_url, fake)
    dreadmaw = card("d1", "Colossal Dreadmaw", BATTLEFIELD, ["Creature"], cost="{4}{G}{G}")
    dreadmaw.power, dreadmaw.toughness, dreadmaw.attacking, dreadmaw.tapped = 4, 6, 1, True
    bears = [card(f"b{i}", "Grizzly Bears", BATTLEFIELD, ["Creature"], owner=1, cost="{1}{G}")
             for i in range(2)]
    for bear in bears:
        bear.power, bear.toughness = 2, 2
        bear.blocking.append("d1")
    players = [pb.Player(seat=0, name="Ann#0001", life=20, hand_count=0),
               pb.Player(seat=1, name="Bob#0002", life=20, hand_count=7)]
    view = game_view(players, [dreadmaw, *bears], prompt_id=4)
    fake.seat()
    fake.snapshot(view, 5)
    fake.decision(4, 5, [pb.Action(assign_combat_damage=pb.AssignCombatDamage(
        attacker_id="d1", assignments=[pb.DamageAssignment(object_id="b0", amount=a),
                                       pb.DamageAssignment(object_id="b1", amount=4 - a)]))
        for a in range(5)], kind=pb.DECISION_KIND_ASSIGN_COMBAT_DAMAGE)
    labels = page.locator(f"{OPTION} .option-label")
    expect(labels).to_have_text([
        "Colossal Dreadmaw deals 0 to Grizzly Bears, 4 to Grizzly Bears",
        "Colossal Dreadmaw deals 1 to Grizzly Bears, 3 to Grizzly Bears",
        "Colossal Dreadmaw deals 2 to Grizzly Bears, 2 to Grizzly Bears"])
    page.locator("body").press("2")
    expect(page.locator(OPTION).first).to_be_disabled()
    assert fake.acts() == [1]

    # Shock's targets: Bob's two tapped alike Bears (b0, b2) and an untapped one (b1).
    shock = card("s", "Shock", pb.ZONE_KIND_STACK, ["Instant"], cost="{R}")
    targets = [card(f"b{i}", "Grizzly Bears", BATTLEFIELD, ["Creature"], owner=1,
                    cost="{1}{G}") for i in range(3)]
    for i, bear in enumerate(targets):
        bear.power, bear.toughness, bear.tapped = 2, 2, i != 1
    fake.snapshot(game_view(players, [shock, *targets], prompt_id=5), 6)
    fake.decision(5, 6, [pb.Action(choose_target=pb.ChooseTarget(target=pb.Target(player=1))),
                         *(pb.Action(choose_target=pb.ChooseTarget(target=pb.Target(
                             object_id=b.id))) for b in targets)],
                  kind=pb.DECISION_KIND_CHOOSE_TARGET)
    # (Whose each target is, always: a new player's review.)
    expect(labels).to_have_text(["Target Bob#0002", "Target Grizzly Bears (Bob#0002's) (tapped)",
                                 "Target Grizzly Bears (Bob#0002's)"])
    # The second tapped one clicked on the board: its own option.
    page.locator("[data-testid=card][data-id=b2]").click()
    expect(page.locator(OPTION).first).to_be_disabled()
    assert fake.acts() == [1, 3]
    pages.assert_no_errors()


def test_pass_until_end_of_turn_the_graveyard_orders_any_order_and_the_tap_symbol(
        pages: Pages) -> None:
    """A new player's review: the web had no "pass until end of turn" (the terminal's pp);
    the graveyard's order (404.3) was asked with no reason and no "any order"; an ability's
    {T} on the stack read "{T}". Passing stops at anything new on the stack, and says so."""
    page = pages.open("A")
    fake = FakeServer()
    sign_in(page, pages.base_url, fake)
    players = [pb.Player(seat=0, name="Ann#0001", life=20, hand_count=1),
               pb.Player(seat=1, name="Bob#0002", life=20, hand_count=7)]
    mountain = card("m0", "Mountain", BATTLEFIELD, ["Land"])
    shock = card("s0", "Shock", HAND, ["Instant"], cost="{R}")
    ability = pb.GameObject(id="a1", name="Prodigal Pyromancer", owner=1, controller=1,
                            zone=pb.ZoneRef(kind=pb.ZONE_KIND_STACK, owner=-1), is_ability=True,
                            ability_text="{T}: Prodigal Pyromancer deals 1 damage to any target.")
    fake.seat()
    fake.snapshot(game_view(players, [mountain, shock], prompt_id=4), 5)
    priority = [pb.Action(pass_priority=pb.PassPriority()),
                pb.Action(cast_spell=pb.CastSpell(object_id="s0"))]
    fake.decision(4, 5, priority)
    page.locator("[data-testid=pass-turn]").click()
    expect(page.locator("[data-testid=passing]")).to_contain_text("until the end of turn 3")
    assert fake.acts() == [0]
    # The turn's next priority is passed by itself: no decision shown.
    fake.decision(5, 5, priority)
    for _ in range(200):
        if len(fake.acts()) == 2:
            break
        page.wait_for_timeout(20)
    assert fake.acts() == [0, 0]
    # Bob's ability on the stack: passing stops, and says why; its {T} is the tap symbol.
    fake.snapshot(game_view(players, [mountain, shock, ability], prompt_id=6), 6)
    fake.decision(6, 6, priority)
    expect(page.locator(DECISION)).to_have_attribute("data-prompt-id", "6")
    expect(page.locator("[data-testid=passing-note]")).to_contain_text("new is on the stack")
    expect(page.locator("[data-testid=passing]")).to_have_count(0)
    on_stack = page.locator("[data-testid=card][data-id=a1] .card-text")
    expect(on_stack.locator(".mana-tap")).to_have_attribute("aria-label", "tap")
    expect(on_stack).not_to_contain_text("{T}")
    pages.screenshot(page, "stopped")
    # "Pass until end of turn" as wide as the numbered options (it was wider).
    option_box = page.locator(OPTION).first.bounding_box()
    pass_box = page.locator("[data-testid=pass-turn]").bounding_box()
    assert option_box and pass_box and abs(option_box["width"] - pass_box["width"]) < 1, \
        (option_box, pass_box)
    assert fake.acts() == [0, 0]
    # The graveyard's order: why it is asked, and "Any order" (the order offered).
    fake.decision(7, 6, [pb.Action(choose_order=pb.ChooseOrder(object_id=i))
                         for i in ("m0", "s0", "a1")], kind=pb.DECISION_KIND_ORDER_GRAVEYARD)
    why = page.locator("[data-testid=graveyard-order-why]")
    expect(why).to_contain_text("you may choose their order: it matters only to a card")
    expect(why).not_to_contain_text("rule")  # (404.3: player-facing words cite no rule)
    expect(page.locator("[data-testid=passing-note]")).to_have_count(0)  # (said once)
    pages.screenshot(page, "order")
    option_box = page.locator(OPTION).first.bounding_box()
    any_box = page.locator("[data-testid=any-order]").bounding_box()
    assert option_box and any_box and abs(option_box["width"] - any_box["width"]) < 1, \
        (option_box, any_box)
    page.locator("[data-testid=any-order]").click()
    expect(page.locator("[data-testid=any-order]")).to_be_disabled()
    assert fake.acts() == [0, 0, 0]
    pages.assert_no_errors()
