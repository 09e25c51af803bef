"""The rematch in ``manawire play`` (protocol/README.md, "Rematch"), in a pseudo-terminal
against a real ``manawire serve``: at the game's end the screen offers ``r`` (a rematch)
besides leaving, says when the opponent wants one, and once both have offered the terminal
plays the new game in the new room; ``q`` at the end leaves with the result. When the
opponent leaves instead, the terminal says there is no rematch and ends. The tests share one
server (tests/terminal/conftest.py, ``module_server``): each plays as guests and in rooms of
its own."""

from __future__ import annotations

import re

import trio

from client_sdk import Client
from tests.terminal.conftest import Served
from tests.terminal.pty_driver import PtyProgram, manawire


async def _until(client: Client, done: object) -> None:
    while not done():  # type: ignore[operator]
        await client.next_message()


async def _typist_concedes(program: PtyProgram) -> None:
    """The typist's game is under way (whoever decides): concede it (asked twice)."""
    await program.wait_for(r"Your decision #\d+: |Turn \d|Choosing who|Mulligan")
    await program.send("concede\r")
    await program.wait_for(r"concede and Enter again to concede")
    await program.send("concede\r")


async def test_rule_103_1_both_offer_a_rematch_and_the_terminal_plays_the_new_game(
        module_server: Served) -> None:
    """The new game's starting player is chosen by its own procedure (103.1)."""
    program = PtyProgram(manawire("play", module_server.url, "--name", "Typist", "--public"))
    try:
        await program.start()
        found = await program.wait_for(r"Room (\S+) created; invite code (\S+)\.")
        room_id = found.group(1)
        async with Client.connect(module_server.url, "Bob") as bob:
            with trio.fail_after(60):
                await bob.join(room_id)
                await _typist_concedes(program)
                await _until(bob, lambda: bob.finished)
                await program.wait_for(r"The game is over: r offers a rematch, q leaves\.")
                await bob.offer_rematch()
                await program.wait_for(r"Bob#\d+ wants a rematch: r accepts, q leaves\.")
                assert re.search(r"Bob#\d+ wants a rematch\.", program.screen() or "")
                await program.send("r\r")
                await _until(bob, lambda: bob.room_id not in (room_id, None)
                             and bob.mirror.ready)
                started = bob.rematch_started
                assert started is not None and started.old_room_id == room_id
                new_id = started.new_room_id
                await program.wait_for(re.escape(f"-- Rematch in room {new_id} --"))
                assert "Game over" not in (program.screen() or "")
                # The new game is played: the typist concedes it too, and leaves at its end.
                await _typist_concedes(program)
                await _until(bob, lambda: bob.finished)
                await program.wait_for(r"The game is over: r offers a rematch, q leaves\.")
                await program.send("q\r")
                code = await program.wait_exit()
    finally:
        await program.aclose()
    assert code == 0, program.text()[-3000:]
    assert re.search(r"Game over: Bob#\d+ won", program.after_screen())


async def test_an_opponent_who_leaves_ends_the_wait_with_no_rematch(
        module_server: Served) -> None:
    program = PtyProgram(manawire("play", module_server.url, "--name", "Typist", "--public"))
    try:
        await program.start()
        found = await program.wait_for(r"Room (\S+) created; invite code (\S+)\.")
        async with Client.connect(module_server.url, "Bob") as bob:
            with trio.fail_after(60):
                await bob.join(found.group(1))
                await _typist_concedes(program)
                await program.wait_for(r"r offers a rematch")
                await program.send("r\r")
                await program.wait_for(r"You offered a rematch: waiting for Bob#\d+ "
                                       r"\(r takes it back, q leaves\)\.")
                await _until(bob, lambda: bob.finished)
                await bob.leave_room(wait=True)
                code = await program.wait_exit()
    finally:
        await program.aclose()
    assert code == 0, program.text()[-3000:]
    assert re.search(r"No rematch: Bob#\d+ left the room\.", program.after_screen())
