"""``manawire play`` and ``manawire watch`` driven in a pseudo-terminal against a real
``manawire serve`` subprocess, read and typed as a person would.

* ``play --bot``: a whole game against a RandomBot opponent in the same process, answered
  by typing option numbers (``p`` to pass); the server is restarted mid-game (SIGTERM, close
  code 1012) and the screen says the client reconnected and resumed; the game ends, the
  screen says how, and the process exits 0.
* ``watch``: a spectator's screen of a private room's bot game, from before it starts to its
  end: never a decision to answer, never a hand's cards.
* Errors: a room that doesn't exist, a deck file with bad lines: a clear message, exit 1.
"""

from __future__ import annotations

import random
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import trio

from client_sdk import Client
from client_sdk import saved as saved_accounts
from client_sdk.bots import RandomBot
from client_sdk.policy import Policy
from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from tests.e2e.restart_harness import ServerProcess
from tests.rooms.test_matches import REGISTERED, SIDEBOARDED
from tests.terminal.conftest import Served
from tests.terminal.pty_driver import REPO, PtyProgram, manawire, plain
from tests.test_serve_options import main_each

#: Bounds of the played game: answers typed and seconds.
MAX_ANSWERS, PLAY_SECONDS = 3000, 180
_DECISION = re.compile(r"Your decision #(\d+): ")
_OPTION = re.compile(r"^\s*(\d+)\. (.*?)(?:\s+\[p\])?\s*$")
#: The options the typing player prefers, best first (else the first option): it plays
#: lands, casts spells and attacks, so the game ends by damage in reasonable time.
_PREFERRED = ("Keep this hand", "I play first", "Play ", "Cast ", "Attack ", "Pay ",
              "Done: confirm attackers", "Done: confirm blockers")
_NEVER = ("Concede", "Take a mulligan")
#: A choice of one of many names (Necromentia's card name, 201.3) lists none to number: the
#: name is typed -- the example's first letters, then, if several names begin so, the first
#: of those the notice says.
_NAMES = re.compile(r"to choose from \(too many to list\): .*? e\.g\. '([^']+)'")
_NAMES_FIT = re.compile(r"names begin with '[^']*': (.+?)(?: · | and \d+ more| -- )")


def name_to_type(screen: str) -> str | None:
    """What to type for a choice of one of many names shown on ``screen`` (None if none is
    shown): the first name the last try's notice offers, else the example's letters."""
    if (example := _NAMES.search(" ".join(screen.split()))) is None:
        return None
    fit = _NAMES_FIT.search(" ".join(screen.split()))
    return fit.group(1) if fit is not None else example.group(1)


def decision_on(screen: str) -> tuple[int, list[tuple[int, str]]] | None:
    """The decision shown on a screen: its prompt id and its options in order, each with
    the number that answers it (counted from 1; choosing X, X's value from 0)."""
    lines = screen.splitlines()
    for at, line in enumerate(lines):
        found = _DECISION.search(line)
        if found is None:
            continue
        options: list[tuple[int, str]] = []
        for rest in lines[at + 1:]:
            option = _OPTION.match(rest)
            number = int(option.group(1)) if option is not None else -1
            if option is not None and (number == options[-1][0] + 1 if options
                                       else number in (0, 1)):
                options.append((number, option.group(2)))
            elif options:
                break
        return int(found.group(1)), options
    return None


def choose(options: list[tuple[int, str]]) -> int:
    """The number to type (:func:`decision_on`'s)."""
    for prefix in _PREFERRED:
        for number, option in options:
            if option.startswith(prefix):
                return number
    if all(o != "Pass priority" for _n, o in options):  # paying for a spell: tap what pays
        for number, option in options:
            if option.startswith("Tap "):
                return number
    allowed = [n for n, o in options if not o.startswith(_NEVER)]
    return (allowed or [options[0][0]])[0]


@pytest.fixture(scope="module")
def server(module_server: Served) -> Served:
    """The module's shared server (tests/terminal/conftest.py) for its tests that need no
    fresh one."""
    return module_server


async def test_play_a_whole_game_against_a_bot_by_typing(fresh_server: ServerProcess) -> None:
    server = fresh_server
    program = PtyProgram(manawire("play", server.url, "--bot", "--name", "Typist"))
    answers, restarted, last = 0, False, (-1, 0.0)
    try:
        await program.start()
        with trio.fail_after(PLAY_SECONDS):
            await program.wait_for(r"Your decision #\d+: ")
            while answers < MAX_ANSWERS:
                screen = program.screen() or ""
                if "Game over" in screen:
                    # (It stays for a rematch with the computer -- r -- until q.)
                    await program.send("q\r")
                    break
                shown = decision_on(screen)
                now = trio.current_time()
                named = name_to_type(screen) if shown is not None and not shown[1] else None
                if named is not None and shown is not None and (
                        shown[0] != last[0] or now - last[1] > 3):
                    await program.send(named + "\r")
                    answers += 1
                    last = (shown[0], now)
                # Answer a decision once (again only if it is still shown after 3 s).
                if shown is not None and shown[1] and (
                        shown[0] != last[0] or now - last[1] > 3):
                    number = choose(shown[1])
                    keys = "p" if dict(shown[1])[number] == "Pass priority" else str(number)
                    await program.send(keys + "\r")
                    answers += 1
                    last = (shown[0], now)
                    if answers == 15 and not restarted:
                        # The server restarts mid-game: the client resumes by itself.
                        assert await server.stop(signal.SIGTERM) == 0
                        await server.start()
                        restarted = True
                        await program.wait_for(r"connected \(resumed once\)")
                if not await program.read_some():
                    break
            code = await program.wait_exit()
    finally:
        await program.aclose()
    final = program.after_screen()
    assert code == 0, program.text()[-3000:]
    assert restarted, f"the game ended after {answers} answers, before the restart"
    assert answers < MAX_ANSWERS
    assert re.search(r"Game over: (you|Computer) won|The game is a draw", final), final
    # The final board is printed on the normal screen, with the last events.
    assert "Last events" in final and "You (Typist#" in final


async def test_a_guest_whose_terminal_closed_takes_its_seat_back_with_the_same_command(
        server: Served) -> None:
    """A guest's token is its only way back to its seat, and ``play`` never showed it: a
    person whose terminal closed mid-game could only watch the clocks run (found playing
    as a new user). The account is saved for the server; the same command takes the seat
    back. A second terminal playing meanwhile never cuts the first off: it is a new guest."""
    command = manawire("play", server.url, "--bot", "--name", "Lost")
    first = PtyProgram(command)
    try:
        await first.start()
        with trio.fail_after(60):
            await first.wait_for(r"Your decision #\d+: ")
            found = re.search(r"Playing as (Lost#\d+), saved in ", first.text())
            assert found, first.text()[-2000:]
            name = found.group(1)
            other = PtyProgram(command)  # meanwhile, the same command in another terminal
            try:
                await other.start()
                await other.wait_for(r"Your decision #\d+: ")
                assert (f"Your saved account {name} is playing elsewhere now (another "
                        f"terminal?): this one plays as a new guest.") in other.text()
            finally:
                await other.aclose()
            assert "Your decision" in (first.screen() or "")  # (still playing)
    finally:
        await first.aclose()  # the terminal is gone, its process killed
    again = PtyProgram(command)
    try:
        await again.start()
        with trio.fail_after(60):
            await again.wait_for(f"you are {re.escape(name)}")
            assert re.search(r"Back in your game in room [0-9a-f]+\.", again.text())
    finally:
        await again.aclose()


async def test_with_bots_the_invite_code_stays_on_the_screen_and_invite_says_it_again(
        server: Served) -> None:
    """``play --bot``: the bots took the other seats at once, so the waiting screen that told
    the invite code was gone in a frame and a player could not share it (a friend to watch).
    The title keeps it for as long as the game lasts; ``invite`` says the commands again."""
    program = PtyProgram(manawire("play", server.url, "--bot", "--new-guest"))
    try:
        await program.start()
        with trio.fail_after(60):
            found = await program.wait_for(
                r"room (\S+) [\s\S]*\nInvite code (\S+) · invite: how others[\s\S]*"
                r"Your decision #\d+: ")
            room_id, code = found.group(1), found.group(2)
            await program.send("help\r")
            await program.wait_for(r"invite shows the room's invite code")
            await program.send("invite\r")
            await program.wait_for(re.escape(f"Room {room_id}, invite code {code}: every "
                                             "seat is taken."))
            screen = await program.wait_for(r"anyone watches with: .*")
            words = screen.group(0).split()
            # The watch command carries the room's audience code, never the players' invite
            # code (which would let the audience take a seat).
            assert words[:-1] == [
                "anyone", "watches", "with:", "manawire", "watch", server.url, room_id,
                "--invite"] and words[-1] != code and len(words[-1]) == len(code)
            # Answering on: the code is still in the title, decisions later.
            for _ in range(3):
                shown = decision_on(program.screen() or "")
                assert shown is not None and shown[1], program.screen()
                number = choose(shown[1])
                await program.send(("p" if dict(shown[1])[number] == "Pass priority"
                                    else str(number)) + "\r")
                await program.wait_for(rf"Your decision #(?!{shown[0]}\b)\d+: ")
            assert f"Invite code {code} · invite" in (program.screen() or "")
    finally:
        await program.aclose()
    # Printed on the normal screen too, before the board took the alternate screen.
    before = plain(bytes(program.output).split(b"\x1b[?1049h")[0].decode())
    assert f"manawire watch {server.url} {room_id} --invite " in before, before
    assert f"#watch={room_id}&code={code}" not in before, before  # (the audience code)
    assert f"Room {room_id}, invite code {code}" in before, before


async def test_the_bot_opponents_keep_their_hands(server: Served) -> None:
    """``play --bot``'s opponent was a uniform RandomBot: it took a mulligan half the time
    it was asked (to no cards at all), tapped lands for nothing and passed with spells in
    hand. Its opponents are the server's computer players now, as ``--bot --players 8``
    asks for them (``CreateRoom.computers``): they keep their hands. (Seven uniform bots
    each kept their seven cards 1 time in 128.)"""
    async with Client.connect(server.url, "Host") as host:
        room, _joined = await host.create_and_join("against bots", seats=8, private=True,
                                                   computers=7)
        assert list(room.computers) == list(range(1, 8))
        with trio.fail_after(60):
            while not host.mirror.ready or host.mirror.header.phase != pb.GAME_PHASE_PLAYING:
                decision = host.my_decision
                if decision is None:
                    await host.next_message()
                    continue
                kinds = [o.WhichOneof("kind") for o in decision.options]
                await host.act(kinds.index("keep_hand") if "keep_hand" in kinds else 0)
        bots = [p for p in host.mirror.players.values() if p.seat != host.seat]
    assert len(bots) == 7
    assert [(p.mulligans, p.hand_count) for p in bots] == [(0, 7)] * 7, bots


@pytest.mark.parametrize("tier", [0, 1])
async def test_watch_a_bot_game_to_its_end(server: Served, tier: int) -> None:
    """Live, or (``--tier 1``) a delayed tier of a room that allows no live spectators."""
    async with Client.connect(server.url, "host") as host, \
            Client.connect(server.url, "guest") as guest:
        if tier:
            room = await host.create_room("watched", private=True, spectate=mpb.SPECTATE_NONE,
                                          tiers=(mpb.SpectatorTier(kind=mpb.TIER_KIND_PUBLIC,
                                                                   delay_seconds=1,
                                                                   invite=True),))
        else:
            room = await host.create_room("watched", private=True,
                                          spectate=mpb.SPECTATE_INVITE)
        code = host.invite_codes[room.room_id]
        program = PtyProgram(manawire("watch", server.url, room.room_id, "--invite", code,
                                      "--tier", str(tier)))
        try:
            await program.start()
            await program.wait_for(r"Waiting for the game to start")
            await host.join(room.room_id)
            await guest.join(room.room_id, invite_code=code)
            screens = 0
            with trio.fail_after(60):
                async with trio.open_nursery() as nursery:
                    for i, client in enumerate((host, guest)):
                        nursery.start_soon(RandomBot(client, random.Random(i), Policy.EAGER).play)
                    while await program.read_some():
                        screen = program.screen() or ""
                        screens += 1
                        assert "Your decision" not in screen
                        # A spectator sees hand sizes, never a hand's cards.
                        assert not re.search(r"^\s+hand:", screen, re.MULTILINE), screen
                        # (It stays at the end, saying q stops watching: a private
                        # room's rematch can't be watched from here, so it promises none.)
                        if "The game is over; q stops watching" in " ".join(screen.split()):
                            break
                await program.send("q\r")
                code_ = await program.wait_exit()
        finally:
            await program.aclose()
    final = program.after_screen()
    assert code_ == 0, program.text()[-3000:]
    assert re.search(r"Game over: (host|guest)#\d+ won|The game is a draw", final), final
    assert "watching" in program.text() and screens > 1
    if tier:
        assert "watching the public view, 1 s behind" in program.text()


async def _to_the_mulligans(client: Client, mulligans: int) -> None:
    """Answer ``client``'s decisions (the first option) up to the mulligans, take
    ``mulligans`` of them (0: keep), and stop at the next keep-or-mulligan decision."""
    taken = 0
    while True:
        decision = client.my_decision
        if decision is not None and decision.kind == pb.DECISION_KIND_MULLIGAN:
            if taken == mulligans:
                if not mulligans:
                    await client.act(0)  # (keep this hand)
                return
            taken += 1
            await client.act(next(i for i, o in enumerate(decision.options)
                                  if o.WhichOneof("kind") == "take_mulligan"))
        elif decision is not None:
            await client.act(0)
        await client.next_message()


async def test_a_spectator_joining_during_the_mulligans_reads_the_hands_not_fragments(
        server: Served) -> None:
    """Joined while Ann took her second mulligan, a spectator read the snapshot's last
    events cut at a count: "Ann put a card from their hand into their library (x4)" (a hand
    of six), "Ann drew a card (x7)", with no mulligan before them. The log says the
    mulligans as they stand instead; what follows is told as it happens."""
    async with Client.connect(server.url, "Ann") as ann, \
            Client.connect(server.url, "Bob") as bob:
        room = await ann.create_room("mulligans")
        await ann.join(room.room_id)
        await bob.join(room.room_id)
        with trio.fail_after(30):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(_to_the_mulligans, ann, 2)
                nursery.start_soon(_to_the_mulligans, bob, 0)
        program = PtyProgram(manawire("watch", server.url, room.room_id))
        try:
            await program.start()
            with trio.fail_after(30):
                await program.wait_for(r"Waiting: Ann#\d+ is deciding \(keep or mulligan\)")
                screen = program.screen() or ""
        finally:
            await program.aclose()
    log = screen[screen.index("Last events"):screen.index("Waiting: Ann")]
    assert "The mulligans so far --" in log, screen
    assert re.search(r"Ann#\d+ has taken 2 mulligans: \d cards in hand", log), log
    assert re.search(r"Bob#\d+ has taken no mulligan: 7 cards in hand", log), log
    assert "(x" not in log and "drew a card" not in log, log


def _run_each(commands: list[list[str]]) -> list[subprocess.CompletedProcess[str]]:
    """``manawire ARGS`` for each of ``commands``, one after the other in one interpreter
    (:func:`tests.test_serve_options.main_each`: a process spends a second of CPU importing
    the server before it parses its arguments), standard input empty."""
    return main_each([(args, {}) for args in commands], timeout=60, cwd=REPO)


async def test_errors_are_clear_and_exit_nonzero(server: Served,
                                                 tmp_path: Path) -> None:
    deck = tmp_path / "bad.txt"
    deck.write_text("4 Shock\n4 Not A Real Card\nfour Plains\n", encoding="utf-8")
    missing, bad, down, page = await trio.to_thread.run_sync(_run_each, [
        ["watch", server.url, "no-such-room"], ["play", server.url, "--deck", str(deck)],
        ["play", "ws://127.0.0.1:9", "--bot"],
        # The page's address pasted instead of the server's: the WebSocket URL it means.
        ["play", server.url.replace("ws://", "http://")]])
    assert missing.returncode == 1
    assert "manawire watch:" in missing.stderr and "no-such-room" in missing.stderr
    assert bad.returncode == 1, bad.stderr
    assert "line 2:" in bad.stderr and "line 3:" in bad.stderr, bad.stderr
    assert down.returncode == 1 and "can't connect" in down.stderr, down.stderr
    assert page.returncode == 2
    assert f"(the server's WebSocket URL is {server.url})" in page.stderr, page.stderr
    assert sys.executable  # (the checkout's interpreter runs every command)


async def test_a_refused_deck_creates_no_room_so_typos_never_use_up_the_rooms_allowed(
        fresh_server: ServerProcess, tmp_path: Path) -> None:
    """``play`` created the room, then joined it with the deck: a refused deck left an empty
    room counted against the account's 4 open rooms, so after four typos the saved account
    could create no room (for ten minutes). The deck is checked before any room is made."""
    server = fresh_server
    deck = tmp_path / "typo.txt"
    deck.write_text("4 Shokc\n56 Mountain\n", encoding="utf-8")
    for bad in await trio.to_thread.run_sync(
            _run_each, [["play", server.url, "--public", "--deck", str(deck)]] * 4):
        assert bad.returncode == 1, bad.stderr
        assert "line 1: unknown or unsupported card 'Shokc'" in bad.stderr, bad.stderr
    saved = saved_accounts.load(server.url)
    assert saved is not None  # (each try played as the account saved by the first)
    async with Client.connect(server.url, "lister", token=saved.token) as client:
        assert await client.list_rooms() == [], "an empty room was left behind"
        room = await client.create_room("after four typos")  # (the 5th was refused)
        assert room.room_id


async def test_play_a_best_of_3_match_sideboarding_by_pasting_a_list(
        server: Served, tmp_path: Path) -> None:
    """Rules 100.4 and 100.6a in the terminal: between games the screen offers to keep the
    deck or paste a list; a bad list is refused with its problems and changes nothing, a
    sideboarded one is accepted; the score shows, and the match's end is said in words."""
    registered = tmp_path / "registered.txt"
    registered.write_text(REGISTERED, encoding="utf-8")
    program = PtyProgram(manawire("play", server.url, "--best-of", "3", "--name", "Typist",
                                  "--deck", str(registered)))
    try:
        await program.start()
        found = await program.wait_for(r"Room (\S+) created; invite code (\S+)\.")
        room_id, code = found.group(1), found.group(2)
        async with Client.connect(server.url, "Bob") as bob:
            await bob.join(room_id, invite_code=code)
            conceded: set[int] = set()
            accepted = trio.Event()  # the typist's screen said its deck was accepted

            async def opponent() -> None:  # concedes every game at once, keeps its deck
                while not bob.finished:
                    match = bob.match
                    if bob.must_sideboard:
                        await bob.keep_deck()
                    elif match is not None and match.phase == mpb.MATCH_PHASE_PLAYING and \
                            match.game_number not in conceded and bob.mirror.ready and \
                            not bob.mirror.game_over:
                        if match.game_number == 2:  # (the match's end clears that notice)
                            await accepted.wait()
                        conceded.add(match.game_number)
                        await bob.concede()
                    else:
                        await bob.next_message()

            with trio.fail_after(60):
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(opponent)
                    await program.wait_for(r"Between games: your deck for game 2")
                    screen = program.screen() or ""
                    assert "k. Keep my deck" in screen and "d. Paste" in screen, screen
                    assert "Game 1 of 3 over: you won" in screen, screen
                    assert "sideboarding for game 2" in screen, screen
                    await program.send("d\r4 Not A Real Card\r.\r")
                    await program.wait_for(r"Deck refused: ")
                    await program.send("d\r" + "\r".join(SIDEBOARDED.splitlines()) + "\r.\r")
                    await program.wait_for(
                        r"Deck accepted for game 2: 60 cards, 4 in the sideboard")
                    accepted.set()
                    # At the match's end the terminal offers a rematch: q leaves instead.
                    await program.wait_for(r"r offers a rematch, q leaves")
                    await program.send("q\r")
                    code_ = await program.wait_exit()
    finally:
        await program.aclose()
    final = program.after_screen()
    assert code_ == 0, program.text()[-3000:]
    assert re.search("Match over: you won the match, (you 2 \N{EN DASH} .+ 0|"
                     ".+ 0 \N{EN DASH} you 2)", final), final
    assert "Deck accepted for game" not in final  # no next game to keep a deck for


async def test_back_in_a_match_the_invite_and_the_deck_to_sideboard_are_there(
        server: Served, tmp_path: Path) -> None:
    """The creator's terminal closed and came back mid-game 1: ``invite`` answered that the
    code was "known to the terminal that created it", and between games the sideboarding
    screen showed no "Your deck now" (the other player's did). And the deck was shown on one
    line joined with " · ", refused when pasted back ("unknown or unsupported card 'Shock ·
    3 Scorching Dragonfire'"). Found by a new player. The code is kept on the machine that
    made the room (0600), the deck is the resumed seat's, one card a line, pasted back as is;
    "Back in your game" is said on the screen, not left over the last board after the
    match."""
    registered = tmp_path / "registered.txt"
    registered.write_text(REGISTERED, encoding="utf-8")
    command = manawire("play", server.url, "--best-of", "3", "--name", "Host", "--deck",
                       str(registered))
    first = PtyProgram(command)
    try:
        await first.start()
        found = await first.wait_for(r"Room (\S+) created; invite code (\S+)\.")
        room_id, code = found.group(1), found.group(2)
        invites = saved_accounts.state_dir() / saved_accounts.INVITES_FILE
        assert invites.stat().st_mode & 0o777 == 0o600
        async with Client.connect(server.url, "Bob") as bob:
            await bob.join(room_id, invite_code=code)
            await first.wait_for(r"Choosing who plays first|Mulligans|Turn \d")
            await first.aclose()  # the terminal is gone mid-game 1
            again = PtyProgram(command)
            try:
                await again.start()
                await again.wait_for(re.escape(f"Back in your game in room {room_id}."))
                await again.wait_for(rf"Invite code {code} · invite")
                await again.send("invite\r")
                await again.wait_for(re.escape(f"Room {room_id}, invite code {code}: every "
                                               "seat is taken."))
                with trio.fail_after(60):
                    while not (bob.mirror.ready and bob.match is not None):
                        await bob.next_message()
                    await bob.concede()
                    screen = (await again.wait_for(r"Your deck now[^\n]*\n((?:.+\n)+?)\s*k\. "
                                                   r"Keep my deck"))
                shown = [line.strip() for line in screen.group(1).splitlines()]
                assert shown == [line.strip() for line in REGISTERED.strip().splitlines()], \
                    shown
                # Pasted back as shown, Sideboard line and all: accepted.
                await again.send("d\r" + "\r".join(shown) + "\r.\r")
                await again.wait_for(r"Deck accepted for game 2: 60 cards, 4 in the sideboard")
                await again.send("q\rq\r")
                assert await again.wait_exit() == 0
            finally:
                await again.aclose()
    finally:
        await first.aclose()
    # (Printed on the normal screen, the line stayed there over the last board.)
    before = plain(bytes(again.output).split(b"\x1b[?1049h")[0].decode())
    assert "Back in your game" not in before + again.after_screen(), before
    assert "You left the match: you conceded it." in again.after_screen()


_TURN_LINE = re.compile(r"Turn (\d+) · (your|\S+'s) turn · ([^·\n]+?)(?: · priority|\s*$)",
                        re.MULTILINE)


async def _passer(bob: Client, ann_seat: int) -> None:
    """An opponent that does nothing: lets Ann play first, keeps, passes, never attacks."""
    while True:
        decision = bob.my_decision
        if decision is None:
            await bob.next_message()
            continue
        kinds = [o.WhichOneof("kind") for o in decision.options]
        if "choose_starting_player" in kinds:
            index = next(i for i, o in enumerate(decision.options)
                         if o.choose_starting_player.seat == ann_seat)
        else:
            index = next((kinds.index(k) for k in ("keep_hand", "pass_priority",
                                                   "finish_attackers", "finish_blockers")
                          if k in kinds), 0)
        await bob.act(index)


async def test_holding_shock_through_the_opponents_turns_the_stops_are_few_unless_full(
        server: Served, tmp_path: Path) -> None:
    """Holding Shock with an untapped Mountain, a new player answered priority ~9 times in
    each of the opponent's turns, with nothing on the stack. Played in the terminal: the
    opponent's empty turn stops once (its end step); with ``full`` typed, at every step."""
    deck = tmp_path / "shocks.txt"
    deck.write_text("20 Shock\n20 Mountain\n", encoding="utf-8")
    program = PtyProgram(manawire("play", server.url, "--format", "limited", "--name", "Ann",
                                  "--deck", str(deck)))
    stops: dict[int, list[str]] = {}  # Bob's turns: the steps Ann was asked in
    try:
        await program.start()
        found = await program.wait_for(r"Room (\S+) created; invite code (\S+)\.")
        async with Client.connect(server.url, "Bob") as bob, trio.open_nursery() as nursery:
            await bob.join(found.group(1), invite_code=found.group(2),
                           deck="40 Mountain\n")
            nursery.start_soon(_passer, bob, 0)
            last, full_typed = -1, False
            with trio.fail_after(90):
                while len(stops) < 2 or max(stops) >= bob.mirror.header.turn:
                    screen = program.screen() or ""
                    shown = decision_on(screen)
                    turn = _TURN_LINE.search(screen)
                    if shown is None or shown[0] == last or not shown[1]:
                        assert await program.read_some()
                        continue
                    last = shown[0]
                    options = dict((o, n) for n, o in shown[1])
                    if "Keep this hand" in options:  # (a hand with Shock and a Mountain)
                        hand = re.search(r"hand: (.*)", screen)
                        good = hand is not None and "Shock" in hand.group(1) and \
                            "Mountain" in hand.group(1)
                        await program.send(
                            f"{options['Keep this hand' if good else 'Take a mulligan']}\r")
                        continue
                    if turn is None or "Pass priority" not in options:
                        await program.send(f"{choose(shown[1])}\r")
                        continue
                    number, whose, step = int(turn.group(1)), turn.group(2), turn.group(3)
                    if whose == "your":
                        if number >= 3 and not full_typed:
                            await program.send("full\r")
                            await program.wait_for(r"Full control: you are asked at every step")
                            full_typed = True
                        land = next((n for o, n in options.items() if o == "Play Mountain"),
                                    None)
                        await program.send(f"{land}\r" if land is not None else "p\r")
                        continue
                    if "Shock" in screen.split("hand:")[-1]:
                        stops.setdefault(number, []).append(step.strip())
                    await program.send("p\r")
            nursery.cancel_scope.cancel()
    finally:
        await program.aclose()
    first, second = sorted(stops)[:2]
    assert stops[first] == ["End step"], stops  # usual stops: the end step only
    assert len(stops[second]) >= 5 and "Upkeep" in stops[second], stops  # full control
