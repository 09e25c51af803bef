"""What a person does on the page, in terms of its test hooks (web/README.md, "Test hooks"):
sign in, create and join rooms, and play by clicking a decision's options.

Everything here waits only for things the page shows, each wait bounded (Playwright's
timeouts, and the explicit limits of :func:`play`)."""

from __future__ import annotations

import random
import re
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypedDict
from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from client_sdk.policy import eager_choice, snake_case

BOARD = "[data-testid=board]"
DECISION = "[data-testid=decision]"
OPTION = "[data-testid=decision] button[data-testid=option]"
GAME_OVER = "[data-testid=game-over]"
_INVITE_LINK = re.compile(r"^http://[^#]+/#join=[^&]+&code=.+$")
#: Zones anyone may see (and "revealed": cards of a hidden zone shown for now, 701.20).
PUBLIC_ZONES = frozenset({"battlefield", "stack", "graveyard", "exile", "command",
                          "revealed"})


# ---- lobby
def sign_in_guest(page: Page, url: str, name: str) -> None:
    """Open ``url`` and play as a guest named ``name``."""
    page.goto(url)
    page.locator("#display-name").fill(name)
    page.locator("[data-testid=sign-in-guest]").click()
    expect(page.locator("[data-testid=account-name]")).to_contain_text(name)


def create_room(page: Page, *, seats: int = 2, private: bool = False, deck: str = "") -> None:
    """Fill in the deck and the create-room form and press create (which joins too)."""
    page.locator("#deck-text").fill(deck)
    page.locator("#room-seats").select_option(str(seats))
    page.locator("#room-private").set_checked(private)
    page.locator("[data-testid=create-room]").click()


def invite_link(page: Page) -> str:
    """The invite link shown after creating a room (a private room's has its code)."""
    link = page.locator("[data-testid=invite-link]:visible").first
    expect(link).to_have_value(_INVITE_LINK)
    return link.input_value()


@dataclass(frozen=True)
class Invite:
    room_id: str
    code: str

    @classmethod
    def parse(cls, link: str) -> Invite:
        params = parse_qs(urlsplit(link).fragment)
        room = params.get("join") or params.get("watch") or [""]
        return cls(room[0], (params.get("code") or [""])[0])


def join_by_link(page: Page, link: str, name: str, *, watch: bool = False) -> None:
    """Open an invite link in a fresh page, sign in and join as a player (or watch)."""
    if watch:
        link = link.replace("#join=", "#watch=", 1)
    sign_in_guest(page, link, name)
    invite = Invite.parse(link)
    # Opening the link pre-filled the join form.
    expect(page.locator("#join-room-id")).to_have_value(invite.room_id)
    expect(page.locator("#join-invite")).to_have_value(invite.code)
    page.locator("[data-testid=watch-room]" if watch else "[data-testid=join-room]").click()
    expect(page.locator(BOARD)).to_have_count(1)


def seat(page: Page) -> int:
    """The viewer's seat shown by the board (-1: spectator)."""
    value = page.locator(BOARD).get_attribute("data-seat")
    assert value is not None
    return int(value)


_OVERFLOW_JS = """() => {
  const width = window.innerWidth;
  const wide = [...document.querySelectorAll('body *')].filter((el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.right > width + 0.5;
  }).slice(0, 8).map((el) => el.tagName.toLowerCase()
    + (el.id ? '#' + el.id : '')
    + (el.getAttribute('data-testid') ? '[data-testid=' + el.getAttribute('data-testid') + ']' : '')
    + (typeof el.className === 'string' && el.className
       ? '.' + el.className.trim().split(/\\s+/).join('.') : ''));
  return { scrollWidth: document.scrollingElement.scrollWidth, innerWidth: width, wide };
}"""


def assert_no_horizontal_overflow(page: Page, where: str) -> None:
    """The page is no wider than the viewport (nothing to scroll sideways)."""
    found: dict[str, object] = page.evaluate(_OVERFLOW_JS)
    scroll, inner = found["scrollWidth"], found["innerWidth"]
    assert isinstance(scroll, int) and isinstance(inner, int)
    assert scroll <= inner, (f"{where}: the page is {scroll} px wide in a {inner} px viewport; "
                             f"elements past the right edge: {found['wide']}")


_CUT_CHOICES_JS = """() => [...document.querySelectorAll('.lobby select')].flatMap((s) => {
  const was = s.value;
  const cut = [...s.options].filter((o) => !o.hidden).map((o) => {
    s.value = o.value;
    return s.scrollWidth > s.clientWidth ? s.id + ': ' + o.text : '';
  });
  s.value = was;
  return cut.filter(Boolean);
})"""


def cut_choices(page: Page) -> list[str]:
    """The lobby's list choices whose words don't fit their list ("id: words"), each tried."""
    found: list[str] = page.evaluate(_CUT_CHOICES_JS)
    return found


# ---- reading the board
class PageState(TypedDict):
    over: bool
    prompt: str | None
    #: (data-index, data-kind, disabled) of each option button, in page order.
    options: list[tuple[int, str, bool]]
    error: str


_STATE_JS = """() => {
  const d = document.querySelector('[data-testid=decision]');
  const err = document.querySelector('[data-testid=error]');
  return {
    over: document.querySelector('[data-testid=game-over]') !== null,
    prompt: d ? d.getAttribute('data-prompt-id') : null,
    options: d ? [...d.querySelectorAll('button[data-testid=option]')].map(
      (b) => [Number(b.dataset.index), b.dataset.kind || '', b.disabled]) : [],
    error: err ? err.textContent : '',
  };
}"""

#: One round trip for a click a person could make (what Playwright's click checks before it
#: presses, the page having no animations: the button is there and enabled, shown, and on top
#: at its centre once scrolled into view): focus and click it, then wait for its prompt to be
#: answered (polling every 20 ms, as :meth:`Player.play` did), at most ``ms``. Returns "" once
#: answered, "timeout", or why it did not click ("stale": another prompt is shown by now).
_CLICK_JS = """async ([prompt, index, ms]) => {
  const d = document.querySelector('[data-testid=decision]');
  if (d === null || d.getAttribute('data-prompt-id') !== prompt) return 'stale';
  const b = d.querySelector(`button[data-testid=option][data-index="${index}"]`);
  if (b === null) return 'stale';
  if (b.disabled) return 'disabled';
  b.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  const r = b.getBoundingClientRect();
  if (r.width === 0 || r.height === 0 || !b.checkVisibility({ visibilityProperty: true }))
    return 'not visible';
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  if (hit === null || !b.contains(hit)) return 'covered';
  b.focus();
  b.click();
  const end = Date.now() + ms;
  for (;;) {
    const now = document.querySelector('[data-testid=decision]');
    if (now === null || now.getAttribute('data-prompt-id') !== prompt) return '';
    if (Date.now() > end) return 'timeout';
    await new Promise((done) => setTimeout(done, 20));
  }
}"""

_PROMPT_DONE_JS = """(prompt) => {
  const d = document.querySelector('[data-testid=decision]');
  return d === null || d.getAttribute('data-prompt-id') !== prompt;
}"""


class CardInfo(TypedDict):
    id: str
    name: str
    #: data-zone and data-owner of the nearest zone around the card ("" if none).
    zone: str
    owner: str


_CARDS_JS = """() => [...document.querySelectorAll(
    '[data-testid=board] [data-testid=card]')].map((c) => {
  const z = c.closest('[data-zone]');
  return { id: c.dataset.id || '', name: c.dataset.name || '',
           zone: z ? (z.dataset.zone || '') : '', owner: z ? (z.dataset.owner || '') : '' };
})"""


def page_state(page: Page) -> PageState:
    state: PageState = page.evaluate(_STATE_JS)
    return state


def cards(page: Page) -> list[CardInfo]:
    """Every card the board shows, with the zone it is shown in."""
    found: list[CardInfo] = page.evaluate(_CARDS_JS)
    return found


# ---- playing
class GameStuckError(AssertionError):
    """No page had a decision for too long, or a click was not answered."""


@dataclass
class Player:
    """Clicks options on the pages of a game's players."""

    pages: Sequence[Page]
    rng: random.Random
    #: Seconds with no decision on any page (and the game not over) before giving up.
    idle_limit: float = 30.0
    #: Milliseconds a click's decision may take to be answered (its prompt to change).
    answer_ms: float = 15_000
    clicks: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    #: Clicks on each page (by its index in :attr:`pages`).
    by_page: Counter[int] = field(default_factory=Counter)

    def play(self, *, max_clicks: int, seconds: float,
             until: Callable[[list[PageState]], bool],
             after_click: Callable[[int], None] | None = None) -> list[PageState]:
        """Click options until ``until(states)`` is true (checked before every click; the
        states of :attr:`pages`), at most ``max_clicks`` clicks and ``seconds`` seconds
        (:class:`GameStuckError` past either). ``after_click(clicks)`` runs after each
        answered click. Returns the last states."""
        deadline = time.monotonic() + seconds
        limit = self.clicks + max_clicks
        idle_since = time.monotonic()
        while True:
            states = [page_state(p) for p in self.pages]
            if until(states):
                return states
            now = time.monotonic()
            if self.clicks >= limit or now > deadline:
                raise GameStuckError(f"not done after {self.clicks} clicks and "
                                     f"{seconds:g} s: {self._describe(states)}")
            ready = [(i, p, s) for i, (p, s) in enumerate(zip(self.pages, states, strict=True))
                     if s["prompt"] is not None and any(not o[2] for o in s["options"])]
            if not ready:
                if now - idle_since > self.idle_limit:
                    raise GameStuckError(f"no decision on any page for {self.idle_limit:g} s "
                                         f"after {self.clicks} clicks: "
                                         f"{self._describe(states)}")
                self.pages[0].wait_for_timeout(20)
                continue
            at, page, state = ready[0] if len(ready) == 1 else self.rng.choice(ready)
            options = [o for o in state["options"] if not o[2]]
            kinds = [o[1] for o in options]
            index, kind = options[eager_choice(self.rng, [snake_case(k) for k in kinds])][:2]
            # An option of a kind clicked before is clicked in one round trip (_CLICK_JS):
            # Playwright's click costs the page several layouts and the test several round
            # trips, most of a whole game's time. The first of each kind, and any the quick
            # click finds not clickable, get Playwright's (the mouse's) click.
            quick = _click_answered(page, state["prompt"], index, self.answer_ms) \
                if kind in self.kinds else "first of its kind"
            if quick == "stale":
                continue  # (the page moved on since its state was read: read it again)
            self.kinds[kind] += 1
            self.clicks += 1
            self.by_page[at] += 1
            if quick:
                page.locator(f'{OPTION}[data-index="{index}"]').click()
            if quick == "timeout" or (quick and not _answered(page, state["prompt"],
                                                              self.answer_ms)):
                raise GameStuckError(
                    f"clicking option {index} ({kind}) of prompt {state['prompt']} was not "
                    f"answered in {self.answer_ms / 1000:g} s: "
                    f"{self._describe([page_state(p) for p in self.pages])}")
            idle_since = time.monotonic()
            if after_click is not None:
                after_click(self.clicks)

    def _describe(self, states: list[PageState]) -> str:
        parts = []
        for i, (page, s) in enumerate(zip(self.pages, states, strict=True)):
            prompt = page.locator("[data-testid=prompt]")
            words = prompt.first.text_content() if prompt.count() else ""
            parts.append(f"page {i}: prompt {s['prompt']}, options "
                         f"{[o[1] for o in s['options']]}, over {s['over']}, "
                         f"says {words!r}, error {s['error']!r}")
        return "; ".join(parts) + f"; kinds clicked {dict(self.kinds)}"


def _click_answered(page: Page, prompt: str | None, index: int, ms: float) -> str:
    """:data:`_CLICK_JS`: "" once the click is answered, else what it found."""
    found: str = page.evaluate(_CLICK_JS, [prompt, index, ms])
    return found


def _answered(page: Page, prompt: str | None, ms: float) -> bool:
    """Whether the page leaves ``prompt`` within ``ms`` milliseconds."""
    try:
        page.wait_for_function(_PROMPT_DONE_JS, arg=prompt, timeout=ms, polling=20)
    except PlaywrightTimeoutError:
        return False
    return True


def all_over(states: list[PageState]) -> bool:
    return all(s["over"] for s in states)


#: How long reading a replayed game may take ("Reading the game: 92 of 568 actions"): the
#: server's work, at most a tenth of its time for one client address once a 2 s burst is
#: spent -- and every browser test has the same address: on a loaded CI box a 568-action game
#: took over 15 s (the default wait) to read.
READ_TIMEOUT_MS = 60_000
