"""A four-player game in the browser at 1280x800: Ann plays in the page, three SDK bots
(``manawire bots --join``) take the other seats. Her own side must start on the screen: the
others' sides stood one above the other at full width, and pushed hers below the fold."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import REPO, VIEWPORT, Pages
from tests.browser.ui import (
    BOARD,
    Invite,
    PageState,
    Player,
    assert_no_horizontal_overflow,
    create_room,
    invite_link,
    sign_in_guest,
)

pytestmark = pytest.mark.browser
#: Its tests share one server (tests/browser/conftest.py, shared_server).
SHARED_SERVER = True

#: The turn the board is looked at (by then the bots, who play lands and cast spells, have
#: boards), and the clicks and seconds Ann may take to get there.
LOOK_AT_TURN = 14
MAX_CLICKS = 400
SECONDS = 180.0
#: Seconds a bot may take to stop after SIGTERM before it is killed.
BOT_STOP_S = 10.0


@contextmanager
def bots_joining(ws_url: str, invite: Invite, count: int, log_dir: Path) -> Iterator[None]:
    """``count`` bots, each its own ``manawire bots --join`` process, take seats in the
    room; all of them are stopped on the way out."""
    procs: list[subprocess.Popen[bytes]] = []
    try:
        for i in range(count):
            log = (log_dir / f"bot{i}.log").open("wb")
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "server.cli", "bots", "--url", ws_url,
                 "--join", invite.room_id, "--invite", invite.code, "--policy", "eager",
                 "--seed", str(i)],
                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, cwd=REPO))
            log.close()
        yield
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=BOT_STOP_S)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=BOT_STOP_S)


_BOXES_JS = """() => {
  const box = (el) => { const r = el.getBoundingClientRect();
                        return { x: r.x, y: r.y, width: r.width, height: r.height }; };
  const all = (sel) => [...document.querySelectorAll(sel)];
  return {
    others: all('[data-testid=others] [data-testid=player]').map(box),
    mine: all('[data-testid=board] .player.me').map(box),
    othersText: all('[data-testid=others] .card-text').filter((el) => el.offsetParent !== null)
      .map((el) => el.textContent),
  };
}"""


def turn(page: Page) -> int:
    found = re.search(r"Turn (\d+)", page.locator(".turnbar .phase").text_content() or "")
    return int(found.group(1)) if found else 0


def test_four_players_own_side_in_view_with_the_others_side_by_side(
        pages: Pages, tmp_path: Path) -> None:
    ann = pages.open("Ann")
    sign_in_guest(ann, pages.base_url, "Ann")
    create_room(ann, seats=4, private=True)
    invite = Invite.parse(invite_link(ann))
    ws_url = pages.base_url.replace("http://", "ws://").rstrip("/")
    with bots_joining(ws_url, invite, 3, tmp_path):
        expect(ann.locator(BOARD)).to_have_attribute("data-state-id", re.compile(r"^[1-9]"))

        def looked_at(states: list[PageState]) -> bool:
            return states[0]["over"] or turn(ann) >= LOOK_AT_TURN

        Player([ann], random.Random(4)).play(max_clicks=MAX_CLICKS, seconds=SECONDS,
                                             until=looked_at)
        # One look at the page (it is redrawn as the bots play).
        found: dict[str, list[dict[str, float]]] = ann.evaluate(_BOXES_JS)
        others, mine = found["others"], found["mine"]
        assert len(others) == 3, f"not three other sides: {others}"
        tops = {round(b["y"]) for b in others}
        lefts = {round(b["x"]) for b in others}
        assert len(tops) == 1 and len(lefts) == 3, f"the others' sides aren't in a row: {others}"
        # Their cards are compact: the rules text is on hover (the title), not on the card.
        assert found["othersText"] == [], f"card text shown on the others' sides: {found}"
        assert len(mine) == 1
        assert mine[0]["y"] + 60 < VIEWPORT[1], (
            f"Ann's own side starts at y={mine[0]['y']:.0f}, below a {VIEWPORT[1]} px window")
        assert_no_horizontal_overflow(ann, "a four-player board")
        pages.screenshot(ann)
    pages.assert_no_errors()
