"""The replay viewer in the browser (protocol/README.md, "Replays"): SDK bots play a best-of-3
match to its end; a caster opens game 1 from the lobby's room list, steps forward and back,
seeks to a turn and to the end -- the board and the log follow each move -- and opens game 2
of the match; a room id that names no stored game shows the server's refusal. A game's player
replays it as their seat (their hand shown, the opponent's not), every hand and every card
(both hands), the public view (no hand); another seat's view is refused; the every-hand
tier's audience replays every hand once the tier has shown the game, and nothing more."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
import trio
from playwright.sync_api import Page, expect

from client_sdk.bots import RandomBot
from client_sdk.client import Client
from client_sdk.policy import Policy
from protocol.v1 import messages_pb2 as mpb
from tests.browser.conftest import REPO, Pages
from tests.browser.ui import BOARD, GAME_OVER, READ_TIMEOUT_MS, sign_in_guest

pytestmark = pytest.mark.browser

#: Seconds the bots may take to play their match (a few seconds, eagerly).
MATCH_SECONDS = 240
POSITION = "[data-testid=replay-position]"
LOG_LINES = "[data-testid=event-log] li"


def play_match(ws_url: str, log_dir: Path) -> None:
    """Two bots play a best-of-3 match on the server, to its end."""
    with (log_dir / "bots.log").open("wb") as log:
        subprocess.run([sys.executable, "-m", "server.cli", "bots", "--url", ws_url,
                        "--games", "1", "--best-of", "3", "--policy", "eager", "--seed", "3"],
                       stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                       cwd=REPO, timeout=MATCH_SECONDS, check=True)


def at(page: Page, action: int) -> None:
    """Wait until the replay is at ``action`` (its log read, the board drawn)."""
    position = page.locator(POSITION)
    expect(position).to_have_attribute("data-loading", "0", timeout=READ_TIMEOUT_MS)
    expect(position).to_have_attribute("data-action", str(action))
    expect(position).to_contain_text(f"Action {action} of ")


def state_id(page: Page) -> int:
    return int(page.locator(BOARD).get_attribute("data-state-id") or "0")


def log_count(page: Page) -> int:
    return page.locator(LOG_LINES).count()


def test_a_finished_match_replayed_step_by_step_and_by_turn(pages: Pages, tmp_path: Path) -> None:
    ws_url = pages.base_url.replace("http://", "ws://").rstrip("/")
    play_match(ws_url, tmp_path)
    page = pages.open("caster")
    sign_in_guest(page, pages.base_url, "Caster")
    # The finished match is listed (it lingers) with a Replay button for each game.
    page.locator("[data-testid=refresh-rooms]").click()
    games = page.locator("[data-testid=room-row] [data-testid=replay-room]")
    expect(games.first).to_be_visible()
    assert games.count() >= 2, "a match of two games at least"
    room_id = games.first.get_attribute("data-game-id") or ""
    assert games.nth(1).get_attribute("data-game-id") == f"{room_id}.2"
    games.first.click()
    at(page, 0)
    position = page.locator(POSITION)
    actions = int(position.get_attribute("data-actions") or "0")
    assert actions > 50
    start_state = state_id(page)
    assert start_state >= 1
    # Nothing has happened at the game's start: the log says only which game it is.
    expect(page.locator(LOG_LINES)).to_have_text(["— Game 1 of 3 —"])
    expect(page.locator("[data-testid=replay] h2")).to_contain_text(", game 1 of 3")

    # Forward one action at a time with the arrow key: the board's state moves each time and
    # the log grows as things happen.
    page.locator("body").click(position={"x": 5, "y": 5})
    counts = []
    for n in range(1, 26):
        page.keyboard.press("ArrowRight")
        at(page, n)
        counts.append(log_count(page))
    assert state_id(page) > start_state
    assert counts[-1] > 0 and counts == sorted(counts), f"the log didn't grow: {counts}"
    # The forward button, then back one action: the log and the board go back with it.
    page.locator("[data-testid=replay-forward]").click()
    at(page, 26)
    after = (state_id(page), log_count(page))
    page.keyboard.press("ArrowLeft")
    at(page, 25)
    assert state_id(page) < after[0]
    assert log_count(page) == counts[-1]

    # To turn 3: the board says so, and the log has what happened before it.
    page.locator("#replay-turn").fill("3")
    page.locator("[data-testid=replay-go-turn]").click()
    expect(position).to_have_attribute("data-turn", "3")
    expect(position).to_contain_text("turn 3 of ")
    expect(page.locator(".turnbar")).to_contain_text("Turn 3")
    turn3 = int(position.get_attribute("data-action") or "0")
    assert turn3 > 0
    lines_at_turn3 = log_count(page)
    assert lines_at_turn3 > 0
    pages.screenshot(page, "turn3")

    # Play a little, pause: it moved on.
    page.locator("[data-testid=replay-play]").click()
    expect(position).to_have_attribute("data-playing", "1")
    page.wait_for_timeout(1200)
    # Pause acts on the press: the panel is drawn anew at every step played, and a click
    # whose press and release fell on two drawings of the button was lost (on a slow
    # machine Pause seemed not to work). The release, on the Play button drawn since,
    # doesn't start it again.
    # (Its box is read in the page, in one go: a locator's bounding_box() could find the
    # button, then measure it after a step drew it anew -- detached, no box: flaky in CI.)
    box = page.evaluate("""() => {
      const r = document.querySelector("[data-testid=replay-pause]")?.getBoundingClientRect();
      return r ? { x: r.x, y: r.y, width: r.width, height: r.height } : null; }""")
    assert box is not None, "the replay stopped playing before Pause was pressed"
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    expect(position).to_have_attribute("data-playing", "0")
    page.mouse.up()
    paused_at = position.get_attribute("data-action")
    page.wait_for_timeout(600)
    expect(position).to_have_attribute("data-playing", "0")
    assert position.get_attribute("data-action") == paused_at
    played = int(position.get_attribute("data-action") or "0")
    assert played > turn3

    # To the end: the game's result, the whole log.
    page.locator("[data-testid=replay-end]").click()
    at(page, actions)
    expect(page.locator(GAME_OVER)).to_be_visible()
    assert log_count(page) > lines_at_turn3
    pages.screenshot(page, "end")

    # Game 2 of the match.
    page.locator(f"[data-testid=replay-game][data-game-id='{room_id}.2']").click()
    at(page, 0)
    expect(page.locator("[data-testid=replay] h2")).to_contain_text(", game 2 of 3")
    expect(page.locator(LOG_LINES).first).to_have_text("— Game 2 of 3 —")
    page.locator("[data-testid=replay-end]").click()
    expect(page.locator(GAME_OVER)).to_be_visible()
    pages.screenshot(page)

    # Back in the lobby: a room id that names no game shows the server's refusal.
    page.locator("[data-testid=leave-replay]").click()
    expect(page.locator("[data-testid=replay-form]")).to_be_visible()
    page.locator("#replay-room-id").fill("nosuchroom")
    page.locator("[data-testid=open-replay]").click()
    error = page.locator("[data-testid=replay-form] [data-testid=error]")
    expect(error).to_contain_text(re.compile(r"Can't replay “nosuchroom”: no such game"))
    expect(error).to_contain_text("no stored game")
    pages.screenshot(page, "unknown")
    pages.assert_no_errors()


def test_a_replay_link_opens_once_signed_in_and_a_game_not_played_is_refused(pages: Pages) -> None:
    """``#replay=ROOM_ID`` asks for the replay once signed in (the form filled in with it); a
    room whose game hasn't been played is refused, in words."""
    host = pages.open("host")
    sign_in_guest(host, pages.base_url, "Host")
    host.locator("#room-play").set_checked(False)  # hosts a room nobody plays in yet
    host.locator("[data-testid=create-room]").click()
    link = host.locator("[data-testid=invite-link]").first
    expect(link).to_have_value(re.compile(r"#join="))
    room_id = re.search(r"#join=([^&]+)", link.input_value()).group(1)  # type: ignore[union-attr]
    viewer = pages.open("viewer")
    viewer.goto(f"{pages.base_url}#replay={room_id}")
    viewer.locator("#display-name").fill("Viewer")
    viewer.locator("[data-testid=sign-in-guest]").click()
    error = viewer.locator("[data-testid=error]").first
    expect(error).to_contain_text(f"Can't replay “{room_id}”")
    expect(viewer.locator("#replay-room-id")).to_have_value(room_id)
    pages.assert_no_errors()


# ---- a player's replays: their seat, every hand, every card


async def accounts_game(url: str) -> dict[str, str | int]:
    """Ann and Bob (bots on guest accounts whose tokens are kept) play a game to its end, in a
    room whose every-hand tier, 1 s behind, Cy may watch; they leave it (back in the lobby,
    as a replay opens). Returns the room id and each account's name, token and seat
    (``ann_token``, ``bob_seat`` ...)."""
    async with Client.connect(url, "Cy") as cy:
        accounts: dict[str, str | int] = {"cy_name": cy.account.name,
                                          "cy_token": cy.account_token}
    async with Client.connect(url, "Ann") as ann, Client.connect(url, "Bob") as bob:
        tier = mpb.SpectatorTier(kind=mpb.TIER_KIND_OMNISCIENT, delay_seconds=1,
                                 accounts=[cy.account.name])
        room, _joined = await ann.create_and_join("hands", tiers=(tier,))
        await bob.join(room.room_id)
        async with trio.open_nursery() as nursery:
            for n, client in enumerate((ann, bob)):
                nursery.start_soon(RandomBot(client, random.Random(n), Policy.EAGER).play)
            nursery.start_soon(_concede_at_turn, ann, 3)
        for who, client in (("ann", ann), ("bob", bob)):
            accounts |= {f"{who}_name": client.account.name,
                         f"{who}_token": client.account_token,
                         f"{who}_seat": -1 if client.seat is None else client.seat}
            await client.leave_room(wait=True)
    await trio.sleep(1.5)  # (the tier has shown the whole game)
    return {"room_id": room.room_id, **accounts}


async def _concede_at_turn(client: Client, turn: int) -> None:
    """``client`` concedes once its game reaches ``turn`` (a short game: every replay opened
    plays it whole, to build its log)."""
    for _ in range(6000):  # (at most 10 minutes)
        if client.mirror.game_over:
            return
        if client.mirror.header.turn >= turn:
            await client.concede()
            return
        await trio.sleep(0.1)


def play_accounts_game(ws_url: str, log_dir: Path) -> dict[str, str | int]:
    """:func:`accounts_game` in a process of its own (its JSON line)."""
    code = ("import json, sys, trio; from tests.browser.test_replay import accounts_game; "
            "print(json.dumps(trio.run(accounts_game, sys.argv[1])))")
    with (log_dir / "accounts.log").open("wb") as log:
        out = subprocess.run([sys.executable, "-c", code, ws_url], stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=log, cwd=REPO,
                             timeout=MATCH_SECONDS, check=True)
    result: dict[str, str | int] = json.loads(out.stdout.decode().strip().splitlines()[-1])
    return result


def open_as(pages: Pages, label: str, token: str, link: str) -> Page:
    """A page of the account holding ``token`` (kept in this browser, as signing in keeps
    it) opened at ``link``."""
    page = pages.open(label)
    page.context.add_init_script(
        f"window.localStorage.setItem('manawire.accountToken', {json.dumps(token)})")
    page.goto(link)
    return page


def shown_at(page: Page, viewer: int, turn: int) -> None:
    """Wait until the replay as ``viewer`` is shown, ready, at the beginning of ``turn``."""
    position = page.locator(POSITION)
    expect(position).to_have_attribute("data-loading", "0", timeout=READ_TIMEOUT_MS)
    expect(position).to_have_attribute("data-turn", str(turn))
    expect(page.locator(BOARD)).to_have_attribute("data-seat", str(viewer))


def hand(page: Page, seat: int, shown: bool) -> tuple[int, list[str]]:
    """A player's hand as shown: its count, and the names of the cards shown in it -- read
    together, once the board shows what the view chosen should (``shown``: every card named,
    else none), or as it is after ~10 s. A view just chosen may still be drawn: its count and
    its cards were once read from two different moments (6 against 7), and a read once found
    the count but no card yet."""
    side = page.locator(f"[data-testid=player][data-seat='{seat}']")
    got: tuple[int, list[str]] = (0, [])
    for _ in range(100):  # (at most ~10 s)
        got = side.evaluate(
            "(s) => [Number((s.querySelector(\"[title='cards in hand']\")?.textContent ?? '')"
            ".replace('Hand ', '')), [...s.querySelectorAll('[data-zone=hand] "
            "[data-testid=card]')].map((c) => c.dataset.name)]")
        count, names = got
        if count > 0 and (len(names) == count and all(names) if shown else not names):
            break
        page.wait_for_timeout(100)
    return int(got[0]), list(got[1])


def test_a_player_replays_their_seat_every_hand_and_every_card_others_what_they_may(
        pages: Pages, tmp_path: Path) -> None:
    ws_url = pages.base_url.replace("http://", "ws://").rstrip("/")
    game = play_accounts_game(ws_url, tmp_path)
    room_id, ann_name, ann_token, cy_token = (str(game[k]) for k in (
        "room_id", "ann_name", "ann_token", "cy_token"))
    ann, bob = int(game["ann_seat"]), int(game["bob_seat"])
    assert {ann, bob} == {0, 1}
    link = f"{pages.base_url}#replay={room_id}"

    # Ann as her seat, at turn 1: her hand is shown card by card, Bob's only counted.
    page = open_as(pages, "ann", ann_token, f"{link}&seat={ann}&turn=1")
    expect(page.locator("[data-testid=account-name]")).to_have_text(ann_name)
    shown_at(page, ann, 1)
    count, names = hand(page, ann, True)
    assert count > 0 and len(names) == count and all(names), names
    count, names = hand(page, bob, False)
    assert count > 0 and names == [], names
    expect(page.locator("[data-testid=replay-as]")).to_have_value(str(ann))
    pages.screenshot(page, "seat")

    # Every hand, then every card: both hands shown, where they were.
    as_view = page.locator("[data-testid=replay-as]")
    for view, viewer in (("hands", -3), ("all", -2)):
        as_view.select_option(view)
        shown_at(page, viewer, 1)
        for seat in (ann, bob):
            count, names = hand(page, seat, True)
            assert count > 0 and len(names) == count and all(names), (view, seat, names)
        expect(page.locator("[data-testid=replay-link]")).to_have_value(
            re.compile(rf"#replay={re.escape(room_id)}&view={view}&action=\d+$"))
    pages.screenshot(page, "all")

    # The public view: no hand shown.
    as_view.select_option("public")
    shown_at(page, -1, 1)
    for seat in (ann, bob):
        count, names = hand(page, seat, False)
        assert count > 0 and names == [], (seat, names)

    # Bob's seat is his only: refused, said in words, and the public view stays.
    as_view.select_option(str(bob))
    expect(page.locator("[data-testid=replay-error]")).to_contain_text(
        f"Can't replay “{room_id}”: you may not replay it as that view")
    shown_at(page, -1, 1)
    assert hand(page, ann, False)[1] == [] and hand(page, bob, False)[1] == []

    # Cy, the every-hand tier's audience, once it has shown the game: every hand ...
    caster = open_as(pages, "cy", cy_token, f"{link}&view=hands&turn=1")
    shown_at(caster, -3, 1)
    for seat in (ann, bob):
        count, names = hand(caster, seat, True)
        assert count > 0 and len(names) == count and all(names), (seat, names)
    # ... but never every card (the players' only), nor a seat.
    for view in ("all", str(ann)):
        caster.locator("[data-testid=replay-as]").select_option(view)
        expect(caster.locator("[data-testid=replay-error]")).to_contain_text(
            "you may not replay it as that view")
        shown_at(caster, -3, 1)
    pages.screenshot(caster, "tier")
    pages.assert_no_errors()
