"""The web client through a relay port (``manawire serve --relays 1``): the relay serves the
page and speaks the same protocol, so a spectator who opens the watch link on the relay's
port watches the game the players play on the server's own port -- never a hidden card --
while the relay, not the server, sends it the game."""

from __future__ import annotations

import random
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from server.benchload.procs import free_port, wait_listening
from tests.browser.conftest import Pages, ServerProcess
from tests.browser.test_play import check_hidden_cards
from tests.browser.ui import (
    BOARD,
    Player,
    all_over,
    create_room,
    invite_link,
    join_by_link,
    seat,
    sign_in_guest,
)

pytestmark = pytest.mark.browser

@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    """The server with one relay process, on a port of its own (``relay_port``)."""
    relay_port = free_port()
    proc = ServerProcess(tmp_path / "server", args=(
        "--messages-per-second", "1000", "--message-burst", "1000",
        "--relays", "1", "--relay-port", str(relay_port)))
    try:
        proc.start()
        assert proc.proc is not None
        wait_listening(relay_port, proc.proc.pid)  # (the relays', not another process's)
        proc.relay_port = relay_port  # type: ignore[attr-defined]
        yield proc
    finally:
        code = proc.stop()
    if code not in (0, None):
        pytest.fail(f"server exited with {code}; log tail:\n{proc.log_tail()}", pytrace=False)


def test_a_spectator_watches_through_the_relay_port(pages: Pages, server: ServerProcess
                                                     ) -> None:
    relay_port: int = server.relay_port  # type: ignore[attr-defined]
    a = pages.open("A")
    sign_in_guest(a, pages.base_url, "Ann")
    create_room(a, seats=2, private=True)
    link = invite_link(a)
    b = pages.open("B")
    join_by_link(b, link, "Bob")
    # The spectator's page, its files and its WebSocket all come from the relay's port.
    relayed = link.replace(f":{server.port}/", f":{relay_port}/", 1)
    assert relayed != link
    c = pages.open("spectator")
    join_by_link(c, relayed, "Cy", watch=True)
    assert seat(c) == -1
    for page in (a, b, c):
        expect(page.locator(BOARD)).to_have_attribute("data-state-id", re.compile(r"^[1-9]"))
    player = Player([a, b], random.Random(20_261_202))
    player.play(max_clicks=200, seconds=180,
                until=lambda states: player.clicks >= 80 or all_over(states))
    check_hidden_cards(c, [a, b])
    # The relay's spectator followed the game: its view moved on from its first state.
    deadline = time.monotonic() + 10
    while int(c.locator(BOARD).get_attribute("data-state-id") or 0) < 10:
        assert time.monotonic() < deadline, "the relay's spectator saw no deltas"
        c.wait_for_timeout(100)
    pages.screenshot(c, "relay-spectator")
    pages.assert_no_errors()
