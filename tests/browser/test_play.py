"""Whole games in the browser: two players in separate browsers (contexts) meet through a
private room's invite link, a third watches, and the players click options until the game is
over; a player reloads the page in the middle of a game and plays on; and the server
restarts under a game."""

from __future__ import annotations

import random
import re
import time

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Pages
from tests.browser.ui import (
    BOARD,
    GAME_OVER,
    PUBLIC_ZONES,
    Invite,
    Player,
    all_over,
    cards,
    create_room,
    invite_link,
    join_by_link,
    seat,
    sign_in_guest,
)

pytestmark = pytest.mark.browser
#: Its tests share one server (tests/browser/conftest.py, shared_server) but this one.
SHARED_SERVER = True
FRESH_SERVER_FOR = (
    "test_a_server_restart_mid_game_is_said_in_words_and_the_game_goes_on",)

#: A whole game: clicks and seconds it may take (seeded games here take a few hundred).
GAME_CLICKS = 5_000
GAME_SECONDS = 8 * 60.0
#: How often (in clicks) the spectator's board is checked for hidden cards.
SPECTATOR_CHECK_EVERY = 20
#: Seconds a hidden card may seem to show on the spectator's page while the pages catch up
#: with each other (an object that changes zones gets a new id, 400.7, which one page may
#: show a moment before another).
CATCH_UP_S = 3.0


def start_game(pages: Pages, *, spectator: bool) -> tuple[Page, Page, Page | None]:
    """Ann creates a private two-seat room (and joins it), Bob opens its invite link and
    joins; with ``spectator``, Cy opens its ``#watch=`` form and watches."""
    a = pages.open("A")
    sign_in_guest(a, pages.base_url, "Ann")
    create_room(a, seats=2, private=True)
    expect(a.locator(BOARD)).to_have_count(1)
    link = invite_link(a)
    b = pages.open("B")
    join_by_link(b, link, "Bob")
    c = None
    if spectator:
        c = pages.open("spectator")
        join_by_link(c, link, "Cy", watch=True)
        assert seat(c) == -1
    # The game has started for both players: a board with a state, each in its own seat.
    for page in (a, b):
        expect(page.locator(BOARD)).to_have_attribute("data-state-id", re.compile(r"^[1-9]"))
    assert sorted([seat(a), seat(b)]) == [0, 1]
    return a, b, c


def hidden_cards_shown(spectator: Page, players: list[Page]) -> list[str]:
    """What the pages show that their viewers may not see: a spectator sees cards only in
    public zones (or revealed), each of them on every player's page too; a player sees no
    other player's hand."""
    problems = []
    shown = cards(spectator)
    for card in shown:
        if card["zone"] not in PUBLIC_ZONES:
            problems.append(f"spectator sees {card}")
    on_every_page = set.intersection(*({c["id"] for c in cards(p)} for p in players))
    problems.extend(f"spectator sees {card}, which not every player sees"
                    for card in shown if card["id"] not in on_every_page)
    for page in players:
        mine = str(seat(page))
        problems.extend(f"seat {mine} sees {card}" for card in cards(page)
                        if card["zone"] == "hand" and card["owner"] != mine)
    return problems


def check_hidden_cards(spectator: Page, players: list[Page]) -> None:
    """:func:`hidden_cards_shown` finds nothing (within :data:`CATCH_UP_S`)."""
    deadline = time.monotonic() + CATCH_UP_S
    while problems := hidden_cards_shown(spectator, players):
        if time.monotonic() > deadline:
            raise AssertionError(f"hidden cards shown: {problems[:5]}")
        spectator.wait_for_timeout(100)


def test_whole_game_with_spectator(pages: Pages) -> None:
    a, b, spectator = start_game(pages, spectator=True)
    assert spectator is not None
    # Before anything is played every card is in a hand or library: the spectator sees none.
    expect(spectator.locator(BOARD)).to_have_attribute("data-state-id", re.compile(r"^[1-9]"))
    assert cards(spectator) == []
    check_hidden_cards(spectator, [a, b])
    player = Player([a, b], random.Random(20_251_202))
    seen_public = 0

    def after_click(clicks: int) -> None:
        nonlocal seen_public
        if clicks % SPECTATOR_CHECK_EVERY == 0:
            check_hidden_cards(spectator, [a, b])
            seen_public = max(seen_public, len(cards(spectator)))

    began = time.monotonic()
    player.play(max_clicks=GAME_CLICKS, seconds=GAME_SECONDS, until=all_over,
                after_click=after_click)
    seconds = time.monotonic() - began
    expect(spectator.locator(GAME_OVER)).to_have_count(1)
    check_hidden_cards(spectator, [a, b])
    # The spectator did see the game: cards on the battlefield, in graveyards ...
    assert max(seen_public, len(cards(spectator))) > 0
    print(f"game over after {player.clicks} clicks in {seconds:.1f} s "
          f"({dict(player.kinds)})")
    pages.screenshot(a)
    pages.screenshot(b, "B")
    pages.screenshot(spectator, "spectator")
    pages.assert_no_errors()


def test_reload_mid_game(pages: Pages) -> None:
    a, b, _ = start_game(pages, spectator=False)
    player = Player([a, b], random.Random(7))
    player.play(max_clicks=200, seconds=120, until=lambda _: player.clicks >= 20)
    b_seat = seat(b)
    b.reload()
    expect(b.locator(BOARD)).to_have_attribute("data-seat", str(b_seat))
    expect(b.locator(BOARD)).to_have_attribute("data-state-id", re.compile(r"^[1-9]"))
    expect(b.locator("[data-testid=connection]")).to_have_attribute("data-state", "connected")
    # Play goes on, on both pages: B's reloaded page answers decisions too.
    clicks, b_clicks = player.clicks, player.by_page[1]
    player.play(max_clicks=200, seconds=120,
                until=lambda states: all_over(states) or (
                    player.clicks >= clicks + 10 and player.by_page[1] > b_clicks))
    assert player.clicks > clicks
    pages.screenshot(b)
    pages.screenshot(a, "A")
    pages.assert_no_errors()


def test_delayed_every_hand_tier(pages: Pages) -> None:
    """A room offering a delayed "every hand" tier (protocol/README.md, "Spectator tiers"):
    its watcher, joined through the tier's own link, sees both hands -- but only states the
    players had at least the delay earlier, never the live one. The players are told."""
    a = pages.open("A")
    sign_in_guest(a, pages.base_url, "Ann")
    a.locator(".tier-settings summary").click()
    a.locator("#room-tier").select_option("omniscient")
    a.locator("#room-tier-delay").fill("2")
    create_room(a, seats=2, private=True)
    links = a.locator("[data-testid=invite-link]:visible")
    expect(links).to_have_count(3)  # players, live spectators, the tier
    tier_link = links.nth(2).input_value()
    assert "#watch=" in tier_link and tier_link.endswith("&tier=1")
    # The watch links carry the room's audience code, never the players' invite code
    # (with it, anyone in the audience could take a seat: new-user round HIGH).
    seat_code = Invite.parse(invite_link(a)).code
    live_link = links.nth(1).input_value()
    assert "#watch=" in live_link
    for link in (live_link, tier_link):
        assert Invite.parse(link).code not in ("", seat_code), link
    b = pages.open("B")
    join_by_link(b, invite_link(a), "Bob")
    # The players are told their hands are shown, how late and to whom (the host chose).
    for page in (a, b):
        expect(page.locator("[data-testid=hidden-tiers]")).to_have_text(
            "This room shows hidden cards to watchers the host chose: every hand, 2 s behind "
            "(to anyone with the invite code).")
    caster = pages.open("caster")
    sign_in_guest(caster, pages.base_url, "Cas")
    caster.goto(tier_link)
    expect(caster.locator("#join-tier")).to_have_value("1")
    # A watch link's form offers only "Watch", and says why.
    expect(caster.locator("[data-testid=join-room]")).to_be_hidden()
    expect(caster.locator("[data-testid=join-watch-only]")).to_have_text(
        "This is a watch link: it lets you watch, not play. For a seat, ask the host for a "
        "seat link.")
    caster.locator("[data-testid=watch-room]").click()
    expect(caster.locator(BOARD)).to_have_attribute("data-seat", "-1")
    player = Player([a, b], random.Random(11))
    player.play(max_clicks=300, seconds=120, until=lambda _: player.clicks >= 40)
    live = int(a.locator(BOARD).get_attribute("data-state-id") or 0)
    # The delay has not passed for the latest actions: the watcher is behind the players.
    assert int(caster.locator(BOARD).get_attribute("data-state-id") or 0) < live
    # Once it has, the watcher sees every hand (both players have cards in hand by now).
    expect(caster.locator("[data-zone=hand][data-owner='0'] [data-testid=card]").first
           ).to_be_visible(timeout=10_000)
    expect(caster.locator("[data-zone=hand][data-owner='1'] [data-testid=card]").first
           ).to_be_visible(timeout=10_000)
    expect(caster.locator(".controls")).to_contain_text("every hand, 2 s behind")
    pages.screenshot(caster)
    pages.assert_no_errors()


def test_a_server_restart_mid_game_is_said_in_words_and_the_game_goes_on(pages: Pages) -> None:
    """While the server was down only the small badge turned orange: a player could think
    the game had frozen. The page says the connection was lost and that the seat is kept,
    and, once the server is back on its port, resumes the game with nothing else to do."""
    a, b, _ = start_game(pages, spectator=False)
    player = Player([a, b], random.Random(11))
    player.play(max_clicks=200, seconds=120, until=lambda _: player.clicks >= 10)
    server = pages.server
    port = server.port
    assert server.stop() == 0  # SIGTERM: a graceful restart
    for page in (a, b):
        lost = page.locator("[data-testid=connection-lost]")
        expect(lost).to_contain_text("reconnecting")
        expect(lost).to_contain_text("Your seat is kept")
    pages.screenshot(a, "server-down")
    server.args = (*server.args, "--port", str(port))  # (the last --port wins)
    server.start()
    for page in (a, b):
        expect(page.locator("[data-testid=connection]")).to_have_attribute(
            "data-state", "connected", timeout=30_000)
        expect(page.locator("[data-testid=connection-lost]")).to_have_count(0)
    clicks = player.clicks
    player.play(max_clicks=200, seconds=120,
                until=lambda states: all_over(states) or player.clicks >= clicks + 10)
    assert player.clicks > clicks
    # The only errors: the browser's own lines for the connections tried while it was down.
    unexpected = {label: [e for e in errors if "WebSocket connection to" not in e]
                  for label, errors in pages.errors().items()}
    assert not any(unexpected.values()), unexpected


def test_a_caster_hosts_a_game_for_two_players_and_watches_its_delayed_tier(
        pages: Pages) -> None:
    """"Create and join" always seated the creator: a caster couldn't set up a broadcast of
    other people's game -- and, seated, could never watch it. With "Take a seat myself"
    unchecked the room is only created: its links go out, two players join by theirs, and
    the caster watches the delayed tier."""
    caster = pages.open("caster")
    sign_in_guest(caster, pages.base_url, "Cas")
    caster.locator(".tier-settings summary").click()
    caster.locator("#room-tier").select_option("public")
    caster.locator("#room-tier-delay").fill("2")
    caster.locator("#room-play").set_checked(False)
    create_room(caster, seats=2, private=True)
    expect(caster.locator(".messages .notice")).to_contain_text("you have no seat in it")
    expect(caster.locator(BOARD)).to_have_count(0)  # still in the lobby
    links = caster.locator("[data-testid=invite-link]:visible")
    expect(links).to_have_count(3)  # players, live spectators, the tier
    players_link, tier_link = links.nth(0).input_value(), links.nth(2).input_value()
    assert Invite.parse(tier_link).code != Invite.parse(players_link).code
    a, b = pages.open("A"), pages.open("B")
    join_by_link(a, players_link, "Ann")
    join_by_link(b, players_link, "Bob")
    assert sorted([seat(a), seat(b)]) == [0, 1]
    caster.goto(tier_link)
    expect(caster.locator("#join-tier")).to_have_value("1")
    # The join form says what the tier is (the room is known: the caster created it).
    expect(caster.locator("#join-tier option[value='1']")).to_have_text(
        "Delayed: the public view, 2 s behind")
    expect(caster.locator("#join-tier option[value='2']")).to_be_disabled()
    caster.locator("[data-testid=watch-room]").click()
    expect(caster.locator(BOARD)).to_have_attribute("data-seat", "-1")
    player = Player([a, b], random.Random(5))
    player.play(max_clicks=200, seconds=120, until=lambda _: player.clicks >= 20)
    expect(caster.locator(BOARD)).to_have_attribute("data-state-id", re.compile(r"^[1-9]"),
                                                    timeout=10_000)
    expect(caster.locator(".controls")).to_contain_text("the public view, 2 s behind")
    pages.screenshot(caster)
    pages.assert_no_errors()
