"""The terminal client: ``manawire play`` (a person plays a game, answering each decision
from a numbered list of its options) and ``manawire watch`` (a spectator's read-only board).

Three trio tasks share one :class:`~client_sdk.client.Client`: one receives (the mirror and
the board keep up while the player thinks), one draws, one reads the keyboard. The keyboard
is read without blocking the event loop: the task waits until standard input is readable
(:func:`trio.lowlevel.wait_readable`) and reads what is there -- standard input is never
put in non-blocking mode, which would make the terminal's output non-blocking too. In a
terminal the keys are read one by one (cbreak mode), so the line being typed is part of the
board and a redraw never loses it; Ctrl-C still interrupts.


Its parts: the keyboard and screen (:mod:`client_sdk.terminal_io`); the session, built of
layers each a module -- its state (:mod:`client_sdk.terminal_state`), the end of a game and
the rematch (:mod:`client_sdk.terminal_rematch`), what comes from the server and the answers
the client makes by itself (:mod:`client_sdk.terminal_receive`), what the user types
(:mod:`client_sdk.terminal_commands`) --; invite words and links (:mod:`client_sdk.invites`).
Here: :class:`Session` itself and the commands ``play`` and ``watch``.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from functools import partial
from typing import TextIO

import trio

from client_sdk import saved as saved_accounts
from client_sdk.board import Board
from client_sdk.client import Client, ServerError
from client_sdk.invites import invite_text, invite_words, web_link
from client_sdk.stops import AUTO, MODES
from client_sdk.terminal_commands import PP_GUARD_SECONDS, REASK_SECONDS, Commands
from client_sdk.terminal_io import (
    ALT_OFF,
    ALT_ON,
    ERASE_DOWN,
    ERASE_LINE,
    HOME,
    MAX_TYPED,
    Keyboard,
    Mark,
    Screen,
)
from client_sdk.terminal_receive import (
    FRAME_SECONDS,
    PP_NOTICE,
    REMATCH_SEAT_SECONDS,
    SEEN_KEPT,
    TICK_SECONDS,
    closed_text,
)
from client_sdk.terminal_state import Outcome
from protocol.v1 import messages_pb2 as mpb

__all__ = [
    "ALT_OFF", "ALT_ON", "BACK_NOTICE", "ERASE_DOWN", "ERASE_LINE", "FRAME_SECONDS", "HOME",
    "MAX_TYPED", "PP_GUARD_SECONDS", "PP_NOTICE", "REASK_SECONDS", "REMATCH_SEAT_SECONDS",
    "SEEN_KEPT", "STOPS_SETTING", "TICK_SECONDS", "Keyboard", "Mark", "Outcome",
    "PlayOptions", "Screen", "Session", "closed_text", "invite_text", "invite_words", "play",
    "watch", "web_link",
]

#: The saved setting (:func:`client_sdk.saved.load_setting`) of where the client stops for
#: priority (:mod:`client_sdk.stops`).
STOPS_SETTING = "priority_stops"
#: How the notice of a player back in their game begins (the room's id follows).
BACK_NOTICE = "Back in your game in room "



class Session(Commands):
    """One game in the terminal, as a player or a spectator, until it ends or the user
    quits."""

    async def run(self, setup: Callable[[], Awaitable[None]] | None = None) -> Outcome:
        """Play (or watch) until the game ends or the user quits; ``setup`` first runs in
        the receiving task (a quick match's wait for a table, drawn meanwhile)."""
        self.screen.enter()
        try:
            with self.keyboard.cbreak():
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(self._receive, setup, nursery.cancel_scope)
                    nursery.start_soon(self._input, nursery.cancel_scope)
                    nursery.start_soon(self._render)
        finally:
            self._end_said = False  # (no rematch words on the last board: the session is over)
            self._sync()
            self.board.decision, self.board.typed, self.board.ended = None, "", True
            if self.board.notice.startswith(BACK_NOTICE):  # (long past: not on the last board)
                self.board.notice = ""
            outcome = self._outcome or Outcome(self.stopped("Interrupted"), 1)
            self.screen.final(self.board, trio.current_time(), outcome.line)
        return outcome



# ---- the commands
@dataclass
class PlayOptions:
    """What ``manawire play`` was asked to do."""

    url: str
    name: str = "player"
    token: str = ""
    deck: str = ""
    room_id: str = ""
    invite_code: str = ""
    quick_match: bool = False
    bots: int = 0
    seats: int = 2
    public: bool = False
    clock_seconds: int = 0
    deck_format: mpb.DeckFormat = mpb.DECK_FORMAT_CONSTRUCTED
    #: A match of several games (3 or 5) in the room created; 1: a single game.
    best_of: int = 1
    #: Without ``token``: play as the account saved for this server on this machine, if any
    #: (:mod:`client_sdk.saved`), and save a new guest's; False: a new guest, not saved.
    remember: bool = True


@asynccontextmanager
async def _connected(o: PlayOptions, out: TextIO) -> AsyncIterator[tuple[Client, bool]]:
    """The client ``play`` plays with, and whether its account is the one saved for this
    server (the same command comes back as it): as ``o.token``'s account; else as the saved
    account (its seat in a game in progress back) -- unless another terminal plays as it
    now, which this one never cuts off -- else as a new guest, saved for next time."""
    saved: saved_accounts.SavedAccount | None = None
    if o.remember and not o.token:
        try:
            saved = saved_accounts.load(o.url)
        except (OSError, ValueError, TypeError) as exc:
            print(f"Can't read the saved accounts ({exc}): playing as a new guest.",
                  file=out, flush=True)
    keep = o.remember and not o.token
    if saved is not None:
        entered = False
        try:
            async with Client.connect(o.url, o.name, token=saved.token,
                                      take_over=False) as client:
                entered = True
                yield client, True
        except ServerError as exc:
            if entered:
                raise
            if exc.code == mpb.ERROR_CODE_ACCOUNT_IN_USE:
                print(f"Your saved account {saved.name} is playing elsewhere now (another "
                      f"terminal?): this one plays as a new guest.", file=out, flush=True)
                keep = False
            elif exc.code == mpb.ERROR_CODE_UNAUTHENTICATED:
                print(f"The server no longer knows your saved account {saved.name}: "
                      f"playing as a new guest.", file=out, flush=True)
            else:
                raise
        else:
            return
    async with Client.connect(o.url, o.name, token=o.token) as client:
        saved_now = False
        if keep:
            try:
                path = saved_accounts.save(o.url, saved_accounts.SavedAccount(
                    client.account.name, client.account_token))
            except (OSError, ValueError, TypeError) as exc:
                print(f"Can't save your account ({exc}): if this terminal closes, your seat "
                      f"can't be taken back.", file=out, flush=True)
            else:
                print(f"Playing as {client.account.name}, saved in {path}: the same command "
                      f"takes your seat back if this terminal closes.", file=out, flush=True)
                saved_now = True
        yield client, saved_now


async def play(options: PlayOptions, out: TextIO | None = None, stdin_fd: int = 0) -> int:
    """``manawire play``: join (or create, or quick-match) a game and play it in the
    terminal. Returns the exit code."""
    out = out or sys.stdout
    screen = Screen(out)
    o = options
    async with _connected(o, out) as (client, remembered):
        if client.room_id is not None and (client.seat is None or client.seat < 0 or (
                client.room is not None and client.room.finished)):
            # The account's session was watching a room, or was in one whose game (or
            # match) is over and which lingers: that is no game to go back to.
            watching = client.seat is None or client.seat < 0
            print(f"You were watching room {client.room_id}: you stop watching it to play."
                  if watching else f"Your game in room {client.room_id} is over.",
                  file=out, flush=True)
            await client.leave_room(wait=True)
        board = Board(client.mirror, url=o.url, account=client.account.name)
        setup: Callable[[], Awaitable[None]] | None = None
        if client.room_id is not None and client.seat is not None:
            board.seat = client.seat
            if client.room is not None:  # its name, its match... as when it was joined
                board.room.CopyFrom(client.room)
            board.room.room_id = client.room_id
            board.deck_text = client.deck_text  # (to sideboard with: the Resumed's Joined)
            # A private room this machine created: its invite code, kept when it was made
            # (``invite`` said only "known to the terminal that created it").
            board.invite_code = saved_accounts.load_invite(o.url, client.room_id)
            board.audience_code = saved_accounts.load_invite(o.url, client.room_id,
                                                             audience=True)
            # (On the screen, not printed before it: printed, the line was still there
            # over the last board once the match had ended.)
            board.notice = f"{BACK_NOTICE}{client.room_id}."
        elif o.room_id:
            board.joined(await client.join(o.room_id, deck=o.deck, invite_code=o.invite_code))
            board.joined_code = o.invite_code  # (``invite`` says it)
        elif o.quick_match:
            kind = "limited" if o.deck_format == mpb.DECK_FORMAT_LIMITED else "constructed"
            board.waiting = (f"Queued for a quick match ({o.seats} players, {kind}): waiting for "
                             "opponents... (q leaves the queue)")

            async def setup() -> None:
                board.joined(await client.quick_match(seats=o.seats, deck=o.deck,
                                                      deck_format=o.deck_format))
                board.waiting = "Seated: the game starts..."
        else:
            # One request (CreateRoom.join): the server checks the deck before it makes the
            # room, so a refused deck leaves no empty room behind -- one created, then joined
            # with a deck refused, counted against the player's 4 open rooms until it closed.
            # ``--bot``: the server's computer players take the other seats (README, "Play
            # against the computer"): they play on if this terminal closes, through a
            # server restart, and into a rematch.
            room, joined = await client.create_and_join(
                f"{client.account.name}'s game", seats=o.seats, clock_seconds=o.clock_seconds,
                deck=o.deck, private=not o.public, deck_format=o.deck_format,
                best_of=o.best_of, computers=o.bots)
            code = client.invite_codes[room.room_id]
            audience = client.audience_codes.get(room.room_id, "")
            board.joined(joined)
            board.invite_code, board.audience_code = code, audience
            if not o.public:  # (for ``invite`` after this terminal closes and comes back)
                with suppress(OSError, ValueError, TypeError):
                    saved_accounts.save_invite(o.url, room.room_id, code, audience)
            # (Printed with bots too: the alternate screen hides it, but it is there after,
            # and the screen's title and `invite` say it meanwhile -- the bots fill the room
            # at once, and the waiting screen was gone before anyone could read the code.)
            told = invite_text(o.url, room.room_id, code, o.public, seats_open=not o.bots,
                               audience=audience)
            print(told, file=out, flush=True)
            board.waiting = told
        session = Session(client, board, screen, Keyboard(stdin_fd), player=True)
        session.rematch = True  # (the server's computers offer theirs at once)
        stops = saved_accounts.load_setting(STOPS_SETTING, AUTO)
        session.stops = stops if stops in MODES else AUTO
        session.save_stops = partial(saved_accounts.save_setting, STOPS_SETTING)

        def stopped(why: str = "Interrupted") -> str:
            if not session.board.game_running:  # (a rematch's board, after one)
                return f"{why}."
            back = (f"manawire play {o.url}" if remembered
                    else f"manawire play {o.url} --token {client.account_token}")
            return f"{why}: your seat is kept while your clock runs. To take it back: {back}"

        session.stopped = stopped
        outcome = await session.run(setup)
    return outcome.code


async def watch(url: str, room_id: str, *, invite_code: str = "", name: str = "spectator",
                token: str = "", tier: int = 0, out: TextIO | None = None,
                stdin_fd: int = 0) -> int:
    """``manawire watch``: the board of a game as a spectator (of delayed ``tier`` n, or
    the live public view), until it ends."""
    out = out or sys.stdout
    # Never take the account's session over from its other connection (a bot, a game
    # played elsewhere): that would cut it off. Refused instead (ACCOUNT_IN_USE).
    async with Client.connect(url, name, token=token, take_over=False) as client:
        if client.room_id is not None and client.seat is not None and client.seat >= 0:
            print(f"manawire watch: this account has a seat in room {client.room_id}: "
                  f"watching doesn't play it -- take your seat back with manawire play "
                  f"{url} --token ... (or watch with another account)", file=sys.stderr)
            return 1
        if client.room_id == room_id and client.room is not None:
            room = client.room  # its session was watching this very room: on it goes
        else:
            if client.room_id is not None:
                await client.leave_room(wait=True)  # it watched another room
            room = (await client.join(room_id, spectator=True, invite_code=invite_code,
                                      tier=tier)).room
        board = Board(client.mirror, seat=-1, watching=True, room=room, url=url,
                      account=client.account.name, tier=tier)
        session = Session(client, board, Screen(out), Keyboard(stdin_fd), player=False)
        session.follows = True  # (at the end: w watches the players' rematch)
        outcome = await session.run()
    return outcome.code
