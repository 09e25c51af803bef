"""The terminal client: ``manawire play`` (a person plays a game, answering each decision
from a numbered list of its options) and ``manawire watch`` (a spectator's read-only board).

Three trio tasks share one :class:`~client_sdk.client.Client`: one receives (the mirror and
the board keep up while the player thinks), one draws, one reads the keyboard. The keyboard
is read without blocking the event loop: the task waits until standard input is readable
(:func:`trio.lowlevel.wait_readable`) and reads what is there -- standard input is never
put in non-blocking mode, which would make the terminal's output non-blocking too. In a
terminal the keys are read one by one (cbreak mode), so the line being typed is part of the
board and a redraw never loses it; Ctrl-C still interrupts.
"""

from __future__ import annotations

import os
import random
import re
import stat
import sys
import termios
import tty
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator
from contextlib import asynccontextmanager, contextmanager, suppress
from dataclasses import dataclass
from functools import partial
from typing import TextIO
from urllib.parse import urlencode, urlsplit, urlunsplit

import trio
from rich.console import Console

from client_sdk import saved as saved_accounts
from client_sdk.board import WHY_NOTICE, Board, frame_lines, render
from client_sdk.bots import RandomBot
from client_sdk.client import (
    CLOSE_REPLACED,
    Client,
    ConnectionEndedError,
    ConnectionLostError,
    ServerError,
    _lone,
    no_rematch,
)
from client_sdk.describe import (
    NO_BLOCKERS_TEXT,
    alike_order,
    card_words,
    nothing_can_block,
    only_pass,
    option_object_id,
    pool_pays_exactly,
)
from client_sdk.policy import Policy
from client_sdk.stops import (
    AUTO,
    FULL,
    HUMAN_PASS_SECONDS,
    MODES,
    auto_passes,
    mode_words,
    pass_option,
    pool_empty,
)
from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb

#: Seconds between two frames at most (a burst of deltas is drawn once).
FRAME_SECONDS = 0.03
#: Seconds between redraws when nothing happens (the running clock ticks).
TICK_SECONDS = 1.0
#: The longest line the keyboard keeps.
MAX_TYPED = 40
#: Seconds a line typed for a decision gone as Enter came waits for a decision to answer.
REASK_SECONDS = 1.0
#: Decisions drawn kept by prompt id (what a line typed as they showed answered).
SEEN_KEPT = 8
#: Terminal control: the alternate screen on and off, cursor home, erase to the end of
#: the line and of the screen.
ALT_ON, ALT_OFF, HOME, ERASE_LINE, ERASE_DOWN = (
    "\x1b[?1049h", "\x1b[?1049l", "\x1b[H", "\x1b[K", "\x1b[J")


#: What was on the screen as a typed line began: the pending decision's prompt id (None:
#: none) and the time (trio's clock).
Mark = tuple[int | None, float]
#: The saved setting (:func:`client_sdk.saved.load_setting`) of where the client stops for
#: priority (:mod:`client_sdk.stops`).
STOPS_SETTING = "priority_stops"
#: How the notice of a player back in their game begins (the room's id follows).
BACK_NOTICE = "Back in your game in room "
#: Notices about there being no decision, stale once a decision is shown.
_NO_DECISION_NOTICES = ("Nothing to answer now.",)
#: The notice of ``pp`` taken: stale once the passing is over (the turn, the game ended).
PP_NOTICE = ("You pass priority until the turn ends or something new is on the stack "
             "(decisions other than priority still ask).")
#: Why ``pp`` stopped passing: said with the decision it stopped at, stale at the next one.
_PP_STOPPED_NOTICES = (
    "The turn is over: pp no longer passes for you.",
    "Something new is on the stack: you stopped passing. Your decision.")
#: ``pp`` begun less than this long after a new turn began is not taken: the player
#: can't have seen that turn (the client passes a whole opponent's turn by itself in a
#: blink, when they have nothing to answer: ``pp`` typed a second after playing a land
#: passed the player's next turn, never seen).
PP_GUARD_SECONDS = 1.5

#: How long a player resumed outside any room, its rematch offer standing (its connection
#: closed as the last offer came), waits for the server to seat it in the rematch's room
#: (protocol/README.md, "Rematch": RematchStarted, then Joined) before the session ends.
REMATCH_SEAT_SECONDS = 30.0


#: An escape sequence a key sends (``ESC [ A`` for an arrow, ``ESC O P`` for F1 ...).
_ESCAPES = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|O.|.)?")


class Keyboard:
    """Lines typed on a file descriptor, read without blocking trio.

    On a terminal (``keys``) the keys come one at a time: :attr:`typed` is the line being
    typed, Backspace and Ctrl-U edit it, Enter ends it. Otherwise (a pipe, a file) whole
    lines are read."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.keys = os.isatty(fd)
        self.typed = ""
        #: What was on the screen as a line's first key came (:attr:`marker`; None: not
        #: known, or lines read whole): kept with the line, read as :attr:`line_mark`.
        self.marker: Callable[[], Mark] | None = None
        self.line_mark: Mark | None = None
        self._mark: Mark | None = None
        self._lines: list[tuple[str, Mark | None]] = []
        self._partial = ""
        #: Read without waiting first: a regular file is always readable, and epoll can't
        #: wait on it (nor on ``/dev/null``: found out at the first read).
        self._direct = stat.S_ISREG(os.fstat(fd).st_mode)

    @contextmanager
    def cbreak(self) -> Iterator[None]:
        """Keys one by one, not echoed, for the block (a terminal only); restored after."""
        if not self.keys:
            yield
            return
        saved = termios.tcgetattr(self.fd)
        try:
            tty.setcbreak(self.fd)
            yield
        finally:
            termios.tcsetattr(self.fd, termios.TCSADRAIN, saved)

    async def _read(self) -> bytes:
        if not self._direct:
            try:
                await trio.lowlevel.wait_readable(self.fd)
            except PermissionError:  # (EPERM: epoll can't wait on this file; it never blocks)
                self._direct = True
        if self._direct:
            await trio.lowlevel.checkpoint()
        return os.read(self.fd, 1024)

    async def read_line(self, edited: Callable[[], None]) -> str | None:
        """The next line (without its end), or None at the end of the input. ``edited`` is
        called whenever :attr:`typed` changes; :attr:`line_mark` is the line's mark."""
        while not self._lines:
            data = await self._read()
            if not data:
                return None
            text = data.decode("utf-8", errors="replace")
            if self.keys:
                self._keys(text)
                edited()
            else:
                self._partial += text
                *lines, self._partial = self._partial.split("\n")
                self._lines.extend((line.rstrip("\r"), None) for line in lines)
        line, self.line_mark = self._lines.pop(0)
        return line

    def _keys(self, text: str) -> None:
        text = _ESCAPES.sub("", text)  # arrow keys and the like: not ours
        for ch in text:
            if ch in "\r\n":
                self._lines.append((self.typed, self._mark or self._marked()))
                self.typed, self._mark = "", None
            elif ch in "\x7f\x08":
                self.typed = self.typed[:-1]
            elif ch == "\x15":  # Ctrl-U
                self.typed = ""
            elif ch.isprintable() and len(self.typed) < MAX_TYPED:
                if self._mark is None:
                    self._mark = self._marked()
                self.typed += ch

    def _marked(self) -> Mark | None:
        return self.marker() if self.marker is not None else None


class Screen:
    """Draws the board: on a terminal, each frame over the last one on the alternate screen
    (the normal screen is left as it was); elsewhere, a plain frame whenever the decision or
    the game's state changes."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.console = Console(file=out, highlight=False, emoji=False)
        self.terminal = self.console.is_terminal
        self._alt = False
        self._last_key: tuple[object, ...] | None = None

    def enter(self) -> None:
        if self.terminal and not self._alt:
            self._write(ALT_ON)
            self._alt = True

    def leave(self) -> None:
        if self._alt:
            self._write(ALT_OFF)
            self._alt = False

    def _write(self, text: str) -> None:
        self.out.write(text)
        self.out.flush()

    def draw(self, board: Board, now: float) -> None:
        if self._alt:
            lines = frame_lines(self.console, board, now)
            self._write(HOME + f"{ERASE_LINE}\n".join(lines) + ERASE_LINE + ERASE_DOWN)
            return
        header = board.mirror.header
        # (The room and a match's game too: the next game's first decision has the same
        # prompt id as the last one's first, in a rematch's room as in a match's next game.)
        key = (board.decision.prompt_id if board.decision is not None else None,
               header.pending.prompt_id, board.mirror.game_over, board.notice,
               board.connected, board.waiting, board.room.room_id,
               board.match.game_number if board.match is not None else 0)
        if key != self._last_key:
            self._last_key = key
            self.console.print(render(board, now))
            self.console.rule()

    def final(self, board: Board, now: float, line: str) -> None:
        """Back on the normal screen: the last board and how it ended."""
        self.leave()
        if board.mirror.ready:
            self.console.print(render(board, now, events=8, keys=False))
        self.console.print(line, style="bold", markup=False, soft_wrap=True)


def closed_text(exc: ConnectionEndedError) -> str:
    """Why the server closed a connection the client doesn't resume, in words."""
    code, reason = exc.code, exc.reason
    if code == CLOSE_REPLACED:
        return ("This session was taken over by a newer connection of this account (another "
                "`play --token`, a browser tab, or `manawire account`): this terminal stops.")
    if code is None:
        return "The connection dropped (reconnecting is off)."
    return f"The server closed the connection ({code}{': ' + reason if reason else ''})."


@dataclass
class Outcome:
    """How a session ended: the line to print and the exit code."""

    line: str
    code: int


class Session:
    """One game in the terminal, as a player or a spectator, until it ends or the user
    quits."""

    def __init__(self, client: Client, board: Board, screen: Screen, keyboard: Keyboard, *,
                 player: bool) -> None:
        self.client = client
        self.board = board
        self.screen = screen
        self.keyboard = keyboard
        self.player = player
        self.answers = 0
        self._dirty = trio.Event()
        self._confirm_quit = False
        self._confirm_concede = False
        self._outcome: Outcome | None = None
        #: What to say if the session stops otherwise (Ctrl-C).
        self.stopped: Callable[[], str] = lambda: "Stopped."
        #: Passing priority for the rest of a turn (``pp``): that turn and what was on the
        #: stack then (None: not passing).
        self._passing: tuple[int, frozenset[str]] | None = None
        #: Where the client stops for priority (:mod:`client_sdk.stops`): a lasting setting,
        #: kept across turns and games (and saved for the next runs by ``play``).
        self.stops = AUTO
        #: Save a changed :attr:`stops` for the next runs (``play``; a test's session doesn't).
        self.save_stops: Callable[[str], object] | None = None
        #: ``a`` answered the order of cards put into the graveyard at once: the rest of
        #: that order is taken as listed, by itself.
        self._any_order = False
        #: The turn on the screen and when it began (trio's clock).
        self._turn: tuple[int, float] = (-1, 0.0)
        #: The turn in which ``pp`` was last refused as typed when it began
        #: (:data:`PP_GUARD_SECONDS`): the next ``pp`` in it is taken.
        self._pp_refused = -1
        #: The prompt id of the decision last drawn (None: none), and the last decisions
        #: drawn by prompt id (what a line typed for one of them answered).
        self._drawn: int | None = None
        self._seen: dict[int, pb.Decision] = {}
        #: Tapping sources for mana while paying a cost (601.2g): the mana that was in the
        #: pool as the first of them was tapped (None: the last answer was no such tap).
        self._tapped_from: int | None = None
        #: The decision a notice of :data:`_PP_STOPPED_NOTICES` was said with.
        self._stopped_at: int | None = None
        #: The seconds to wait before passing by itself a priority at a stop with nothing
        #: but passing to do (:data:`client_sdk.stops.HUMAN_PASS_SECONDS`, drawn afresh).
        self.pass_delay: Callable[[], float] = partial(
            random.SystemRandom().uniform, *HUMAN_PASS_SECONDS)
        #: The decision being passed after that wait (its prompt id) and the wait's scope.
        self._pass_wait: tuple[int, trio.CancelScope] | None = None
        #: Where the receiving task starts that wait.
        self._waits: trio.Nursery | None = None
        #: At the game's (a match's: the match's) end, stay for a rematch (``r``) instead
        #: of ending there: ``play`` against people sets it; with bots, or watching, the
        #: session ends with the game (protocol/README.md, "Rematch").
        self.rematch = False
        #: The game's end was said (the rematch offered on the screen), and the request id
        #: of this player's last rematch offer (its refusal is said).
        self._end_said = False
        self._rematch_rid = 0
        #: Who offered a rematch as last told (a new offer is logged once).
        self._offered: list[bool] = []
        #: The last RematchOffers said to this board's room (the client keeps only its own
        #: room's), and the client's resumes as it came (an offer gone across a resume was
        #: forgotten by a restart, not withdrawn).
        self._last_offers: mpb.RematchOffers | None = None
        self._offers_resumes = client.resumes
        #: This player's last ``r`` offered a rematch (not took it back): its offer stands
        #: even if the server's answer was lost with the connection.
        self._offer_sent = False
        #: The wait for the rematch's seat of a player resumed outside any room ran out.
        self._seat_waited = False
        #: Watching: at the game's (a match's: the match's) end, stay for the players'
        #: rematch, which ``w`` then watches (``watch`` sets it; protocol/README.md,
        #: "Rematch": RematchStarted tells the spectators where it is).
        self.follows = False
        #: The input ended (nobody can type ``w``), and the request id of the rematch's
        #: JoinRoom sent by ``w`` (0: none pending).
        self._keys_gone = False
        self._follow_rid = 0
        keyboard.marker = self._marked

    def _marked(self) -> Mark:
        """What the screen shows now: the decision last drawn (the client may hold a newer
        one, not drawn yet: the player typed for the one they saw)."""
        return (self._drawn, trio.current_time())

    def changed(self) -> None:
        """Redraw soon."""
        self._dirty.set()

    def _sync(self) -> None:
        client, board = self.client, self.board
        board.decision = client.my_decision if self.player else None
        board.sideboard_needed = self.player and client.must_sideboard
        if not board.sideboard_needed:
            board.pasting = None
        board.connected = client.connected
        board.resumes = client.resumes
        board.typed = self.keyboard.typed
        board.stops = self.stops
        board.rematch_offerable = self._at_end()  # ("r: rematch" among the keys)
        board.rematch_watchable = self._started_here() is not None and self._watching_on()
        if board.decision is not None and board.notice in _NO_DECISION_NOTICES:
            board.notice = ""  # (a new decision came: "Nothing to answer now." is stale)
        if not board.game_running:
            self._passing = None  # (the game is over: a pp of its last turn ends with it)
        passing = self._passing
        if board.notice == PP_NOTICE and (
                passing is None or passing[0] != board.mirror.header.turn):
            board.notice = ""  # (it passes no more: between games, a new turn)
        if board.notice in _PP_STOPPED_NOTICES and (
                not board.game_running or (board.decision is not None
                                           and board.decision.prompt_id != self._stopped_at)):
            board.notice = ""  # (said with the decision it stopped at: the next one is on)
        if self._end_said and not board.notice and self._at_end():
            # At the end the screen always says what r and q do: a line typed (Enter alone,
            # say) or a notice gone with the match's end took the words off, and only
            # "q: leave" was left (a new player's review).
            board.notice = self._rematch_words()
        if self._end_said and not board.notice and self._watching_on():
            board.notice = self._watch_words()

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
            outcome = self._outcome or Outcome(self.stopped(), 1)
            self.screen.final(self.board, trio.current_time(), outcome.line)
        return outcome

    def _end(self, outcome: Outcome, scope: trio.CancelScope) -> None:
        if self._outcome is None:
            self._outcome = outcome
        scope.cancel()

    async def _receive(self, setup: Callable[[], Awaitable[None]] | None,
                       scope: trio.CancelScope) -> None:
        """Process what the server sends until the session ends (``scope`` cancelled), and
        answer the decisions the client answers by itself."""
        try:
            async with trio.open_nursery() as waits:
                self._waits = waits
                try:
                    await self._receive_all(setup, scope)
                finally:
                    self._waits = None
                    waits.cancel_scope.cancel()
        except BaseExceptionGroup as group:  # (what the receiving raised, as it was raised)
            lone = _lone(group)
            if lone is None:
                raise
            raise lone from None

    async def _receive_all(self, setup: Callable[[], Awaitable[None]] | None,
                           scope: trio.CancelScope) -> None:
        client, board = self.client, self.board
        if setup is not None:
            await setup()
            self.changed()
        while True:
            if client.finished and not self._at_end() and not self._watching_on():
                # The game, or the match of several games, is over (and no rematch waited
                # for, or none can be had any more: an opponent left, the room closed).
                self._sync()
                self._end(Outcome(self._end_line(), 0), scope)
                return
            if client.room_id is None and not self._at_end() and not self._watching_on():
                why = board.notice or "The room closed before the game ended."
                self._end(Outcome(why, 1), scope)
                return
            if client.finished and not self._end_said:
                self._end_said = True
                board.notice = self._rematch_words() if self.player else self._watch_words()
            try:
                # Resumed outside any room with its rematch offer standing: the server seats
                # this player in the rematch's room (else says there is none) -- waited for.
                with trio.move_on_after(REMATCH_SEAT_SECONDS if client.room_id is None
                                        else float("inf")) as seat_wait:
                    msg = await client.next_message()
                if seat_wait.cancelled_caught:
                    self._seat_waited = True
                    board.notice = "No rematch: the server seated you in no new game."
                    board.add_event("No rematch: the server seated you in no new game.")
                    continue
            except ConnectionEndedError as exc:  # one the client may not resume
                self._end(Outcome(closed_text(exc), 1), scope)
                return
            except ConnectionLostError as exc:
                self._end(Outcome(f"The connection was lost and could not be resumed: {exc}",
                                  1), scope)
                return
            body = msg.WhichOneof("body")
            if body == "joined" and self.player and \
                    msg.joined.room.room_id != board.room.room_id:
                board = self._rematch_board(msg.joined)  # (placed in the rematch's room)
            elif body == "joined" and not self.player and self._follow_rid and \
                    msg.joined.room.room_id != board.room.room_id:
                board = self._watch_board(msg.joined)  # (``w``: watching the rematch)
            elif body == "error" and self._follow_rid and msg.request_id == self._follow_rid:
                # (It left the old room for this one: nothing more to watch.)
                self._end(Outcome(f"Could not watch the rematch: {msg.error.message}", 1),
                          scope)
                return
            elif self.rematch and self.player and client.room is not None and \
                    client.room_id not in (None, board.room.room_id):
                # Resumed into another room than the board's: back in the old room after a
                # restart lost a rematch that hadn't started (its game never stored).
                board = self._rematch_board(mpb.Joined(
                    room=client.room, role=mpb.ROLE_PLAYER, seat=client.seat or 0,
                    deck=client.deck_text), back=True)
            board.absorb(msg, trio.current_time())
            if body in ("rematch_offers", "rematch_started") or (
                    body == "error" and msg.request_id and
                    msg.request_id == self._rematch_rid) or (
                    self.rematch and self.player and no_rematch(msg) is not None):
                if self.player:
                    self._rematch_news(msg)
                else:
                    self._watch_news(msg)
            if board.mirror.header.turn != self._turn[0]:
                self._turn = (board.mirror.header.turn, trio.current_time())
            self._sync()
            decision = board.decision
            waiting = self._pass_wait
            if waiting is not None and (decision is None or decision.prompt_id != waiting[0]):
                waiting[1].cancel()  # (the decision changed: that pass is not to be made)
                self._pass_wait = None
            if decision is not None and nothing_can_block(decision):
                await self._answer(0, auto=True, logged=NO_BLOCKERS_TEXT)
            elif decision is not None and (index := self._pays_exactly(decision)) is not None:
                await self._answer(index, auto=True)  # (601.2h: one way to pay, all tapped)
            elif decision is not None and (index := self._passing_on()) is not None:
                # (where the stops pass -- what everyone sees says so -- or ``pp``: at once)
                await self._answer(index, auto=True)
            elif decision is not None and self._passes_later(decision):
                if self._pass_wait is None:
                    self._pass_after(decision.prompt_id, self.pass_delay())
            elif decision is not None and alike_order(board, decision,
                                                      board.mirror.objects.values()):
                await self._answer(0, auto=True)  # (the cards' moves say it)
            elif decision is not None and self._any_order and \
                    decision.kind == pb.DECISION_KIND_ORDER_GRAVEYARD:
                await self._answer(0, auto=True)  # (``a``: the rest of that order as listed)
            if decision is not None and decision.kind != pb.DECISION_KIND_ORDER_GRAVEYARD:
                self._any_order = False  # (that order is done: the next one asks again)
            self.changed()

    async def _render(self) -> None:
        while True:
            self._sync()
            self.screen.draw(self.board, trio.current_time())
            decision = self.board.decision
            self._drawn = decision.prompt_id if decision is not None else None
            if decision is not None and decision.prompt_id not in self._seen:
                self._seen[decision.prompt_id] = decision
                while len(self._seen) > SEEN_KEPT:
                    del self._seen[next(iter(self._seen))]
            await trio.sleep(FRAME_SECONDS)
            with trio.move_on_after(TICK_SECONDS):
                await self._dirty.wait()
            self._dirty = trio.Event()

    async def _input(self, scope: trio.CancelScope) -> None:
        while True:
            line = await self.keyboard.read_line(self.changed)
            if line is None:  # the input ended: nobody can answer any more
                if not self.player:
                    # A spectator goes on watching, to the game's end (nobody can type w).
                    self._keys_gone = True
                    if self.client.finished and not self._watching_on():
                        self._end(Outcome(self._end_line(), 0), scope)
                    return
                line = "q"
                self._confirm_quit = True
            outcome = await self._command(line)
            self.changed()
            if outcome is not None:
                self._end(outcome, scope)
                return

    async def _command(self, text: str) -> Outcome | None:
        """Do what the user typed (a line as typed: a pasted deck list keeps its case);
        an outcome if the session is over."""
        board = self.board
        self._sync()
        if board.pasting is not None:  # a deck list is being pasted: every line is its
            return await self._paste(text)
        board.notice = ""
        if text.strip().lower() in ("q", "quit", "exit"):
            return await self._quit()
        self._confirm_quit = False
        text = text.strip().lower()
        if text != "concede":
            self._confirm_concede = False
        if text == "":
            return None
        if not self.player:
            if text in ("w", "watch"):
                await self._watch_rematch()
            else:
                board.notice = ("You are watching: w watches the players' rematch once they "
                                "start one, q stops watching." if self.follows else
                                "You are watching: q stops watching.")
            return None
        if text == "concede":
            await self._concede()
            return None
        if text in ("h", "?", "help"):
            board.notice = ("Type the number of an option and Enter; p passes priority, pp "
                            "until the turn ends or something new is on the stack; stops "
                            "says where the client passes priority for you, full turns full "
                            "control (stop at every step) on or off; ?N reads the card option "
                            "N names, ?NAME a card you can see (?shock); why says why the "
                            "cards in your hand can't be cast now (why NAME: that one); "
                            "invite shows the "
                            "room's invite code and how others join or watch; c takes back a "
                            "spell being cast (cancel); q quits"
                            + ("; once the game is over, r offers a rematch." if self.rematch
                               else "."))
            return None
        if text in ("stops", "stop"):
            board.notice = mode_words(self.stops)
            return None
        if text in ("full", "full control"):
            self._set_stops(AUTO if self.stops == FULL else FULL)
            return None
        if text == "invite":
            board.notice = invite_words(board)
            return None
        if text.startswith("?"):
            board.notice = self._card_text(text[1:].strip())
            return None
        if text == "why" or text.startswith("why "):
            await self._why(text[3:].strip())
            return None
        if self._at_end():
            if text in ("r", "rematch"):
                await self._offer_rematch()
            else:
                board.notice = self._rematch_words()
            return None
        if board.sideboard_needed:
            if text in ("k", "keep"):
                await self._send_deck(keep=True)
            elif text in ("d", "deck", "paste"):
                board.pasting = []
            else:
                board.notice = ("Between games: k keeps your deck, d pastes a deck list, q "
                                "quits (and concedes the match).")
            return None
        decision = board.decision
        mark = self.keyboard.line_mark
        if decision is None and mark is not None and mark[0] is not None:
            # Typed for a decision on the screen, gone as Enter came: most often it comes
            # again at once (the opponent kept, the connection was resumed). Said "Nothing
            # to answer now.", the line was dropped with no word left: that notice went
            # as the decision came back (a new player's review).
            decision = await self._decision_soon()
            board = self.board
        if decision is None:
            board.notice = "Nothing to answer now."
            return None
        if mark is not None and mark[0] != decision.prompt_id and \
                not self._same_question(mark[0], decision):
            # Typed for another decision (options are numbered anew for each one).
            board.notice = "The decision changed as you typed: nothing was sent. Answer this one."
            return None
        turn = board.mirror.header.turn
        if mark is not None and text in ("pp", "pass turn") and \
                mark[1] - self._turn[1] < PP_GUARD_SECONDS and self._pp_refused != turn:
            # (Once: the notice names the turn, so a pp typed after it is meant for it --
            # "type pp again" was refused again within the turn's first 1.5 s.)
            self._pp_refused = turn
            board.notice = (f"Turn {turn} ({board.possessive(board.mirror.header.active_seat)}"
                            f" turn) began as you typed pp: nothing was passed. Type pp again "
                            f"to pass turn {turn}.")
            return None
        if text in ("pp", "pass turn"):
            index = board.option_index("pass_priority")
            if index is None:
                board.notice = "Passing priority is not an option now: choose a number."
                return None
            self._passing = (board.mirror.header.turn, self._stack())
            board.notice = PP_NOTICE
        elif text in ("p", "pass"):
            index = board.option_index("pass_priority")
            if index is None:
                board.notice = "Passing priority is not an option now: choose a number."
                return None
        elif text in ("a", "any", "any order") and \
                decision.kind == pb.DECISION_KIND_ORDER_GRAVEYARD:
            index = 0  # (404.3: the order as listed, this card and the ones after it)
            self._any_order = True
        elif text in ("c", "cancel") and (found := board.option_index("cancel_cast")) is not None:
            index = found  # (733.1: on a letter, never a number a land had a moment ago)
        elif text.isdigit() and (found := board.answering(int(text))) is not None:
            index = found
        else:
            passing = ", p to pass priority" if board.option_index("pass_priority") is not None \
                else ""
            cancel = ", c to cancel" if board.option_index("cancel_cast") is not None else ""
            numbers = [n for n, _i, _label in board.numbered_options]
            choose = f"a number from {min(numbers)} to {max(numbers)}" if numbers else \
                "an answer"
            board.notice = f"Type {choose}{passing}{cancel} or q to quit (not {text!r})."
            return None
        await self._answer(index)
        return None

    async def _decision_soon(self) -> pb.Decision | None:
        """The decision pending within :data:`REASK_SECONDS` (None: none came)."""
        with trio.move_on_after(REASK_SECONDS):
            while True:
                self._sync()
                if self.board.decision is not None:
                    return self.board.decision
                await trio.sleep(FRAME_SECONDS)
        return None

    def _same_question(self, prompt_id: int | None, decision: pb.Decision) -> bool:
        """Whether the decision drawn under ``prompt_id`` asked what ``decision`` asks:
        the same kind, words and options (numbered alike) under a new number -- asked
        again after a resume, or after another player's answer changed nothing of it."""
        drawn = self._seen.get(prompt_id) if prompt_id is not None else None
        return drawn is not None and _question(drawn) == _question(decision)

    def _stack(self) -> frozenset[str]:
        return frozenset(self.board.mirror.zones.get((pb.ZONE_KIND_STACK, -1), ()))

    def _set_stops(self, mode: str) -> None:
        """Change where the client stops for priority, for this game and the next ones
        (saved for the next runs when it can be)."""
        self.stops = mode
        self.board.stops = mode
        said = mode_words(mode)
        if self.save_stops is not None:
            try:
                self.save_stops(mode)
            except (OSError, ValueError, TypeError) as exc:
                said += f" (Kept for this run only: it could not be saved: {exc}.)"
        self.board.notice = said

    def _passing_on(self) -> int | None:
        """The pass option of a priority decision the client passes by itself (None: ask
        the player). While passing for the rest of the turn (``pp``): any priority of that
        turn whose stack has nothing new on it -- a new turn, or something new on the
        stack (an opponent's spell to answer, perhaps), ends the passing, and the player is
        told. Otherwise as the lasting setting :attr:`stops` says
        (:func:`client_sdk.stops.auto_passes`). Only a priority decision with
        ``PassPriority`` among its options is ever passed."""
        passing, board = self._passing, self.board
        decision = board.decision
        if decision is None:
            return None
        if passing is not None:
            turn, stack = passing
            if board.mirror.header.turn != turn:
                self._passing = None
                board.notice = _PP_STOPPED_NOTICES[0]
                self._stopped_at = decision.prompt_id
            elif self._stack() - stack:
                self._passing = None
                board.notice = _PP_STOPPED_NOTICES[1]
                self._stopped_at = decision.prompt_id
                return None
            else:
                # (blockers, a target...: the player's; passing goes on after)
                return pass_option(decision)
        me = board.mirror.players.get(board.seat)
        if auto_passes(self.stops, decision, board.mirror.header, board.seat,
                       stack=self._stack(), objects=board.mirror.objects.values(),
                       pool=None if me is None else me.mana_pool):
            return pass_option(decision)
        return None

    def _pays_exactly(self, decision: pb.Decision) -> int | None:
        """The option paying a cost by itself (None: ask the player): once sources tapped
        for this payment (601.2g) have put in the pool all it holds -- none of it was there
        before -- and the pool pays the cost exactly in one way only
        (:func:`client_sdk.describe.pool_pays_exactly`: never a cost the player may
        decline), for the view shown. Asked again "your mana pool covers it -- choose the
        mana to spend", its one way to pay "Pay {R}" (a new player's review); as the web
        client."""
        board = self.board
        if self._tapped_from != 0 or (decision.state_id and
                                      decision.state_id != board.mirror.state_id):
            return None
        me = board.mirror.players.get(board.seat)
        return pool_pays_exactly(decision, None if me is None else me.mana_pool)

    def _passes_later(self, decision: pb.Decision) -> bool:
        """Whether the client passes ``decision`` by itself after a human-like wait: a
        priority at a stop (:meth:`_passing_on` asks the player) with nothing to cast or
        activate (117.3), under the usual stops and with no mana in the player's pool.
        Passed at once, its timing told the opponents and spectators whether the hand
        held anything castable (the clocks show it to the millisecond); under full control
        the player is always asked."""
        board = self.board
        me = board.mirror.players.get(board.seat)
        return (self.stops == AUTO and only_pass(decision, board.mirror.objects)
                and pool_empty(None if me is None else me.mana_pool))

    def _pass_after(self, prompt_id: int, seconds: float) -> None:
        """Pass the decision ``prompt_id`` after ``seconds``, unless it has changed by then
        (answered by the player, say: the wait is cancelled)."""
        waits = self._waits
        if waits is None:
            return
        scope = trio.CancelScope()
        self._pass_wait = (prompt_id, scope)

        async def wait_and_pass() -> None:
            with scope:
                await trio.sleep(seconds)
                self._sync()
                decision = self.board.decision
                if decision is not None and decision.prompt_id == prompt_id and \
                        (index := pass_option(decision)) is not None:
                    await self._answer(index, auto=True)
                    self.changed()
            if self._pass_wait is not None and self._pass_wait[1] is scope:
                self._pass_wait = None

        waits.start_soon(wait_and_pass)

    async def _why(self, query: str) -> None:
        """``why``: ask the server why each card in your hand you can't cast now can't be
        (``why NAME``: the card whose name starts so) -- the answers come as lines under
        the decision (ExplainCard, the board's ``why_requests``)."""
        board, seat = self.board, self.client.seat
        hand = board.mirror.zone(pb.ZONE_KIND_HAND, seat) if seat is not None else []
        offered = {option_object_id(o) for o in board.decision.options} \
            if board.decision is not None else set()
        if query:
            cards = [o for o in hand if o.name.lower().startswith(query)][:1]
            if not cards:
                board.notice = f"No card in your hand is named {query!r}."
                return
        else:
            # Each name once (copies of a card are alike, 400.7), lands left out (played).
            cards = list({o.name: o for o in reversed(hand) if o.id not in offered
                          and "Land" not in o.card_types}.values())[::-1]
            if not cards:
                board.notice = ("Every spell in your hand can be cast now." if hand else
                                "Your hand is empty.")
                return
        board.notice = WHY_NOTICE
        for obj in cards:
            rid = await self.client.send_explain_card(obj.id)
            board.why_requests[rid] = obj.name

    def _card_text(self, query: str) -> str:
        """The card a ``?`` line asks about: option N's (``?3``), or the first card in view
        whose name starts with the words typed (``?burl``), in words."""
        board = self.board
        obj: pb.GameObject | None = None
        if query.isdigit():
            decision = board.decision
            index = board.answering(int(query))
            if decision is None or index is None:
                return f"No option {query} to read."
            object_id = option_object_id(decision.options[index])
            obj = board.object(object_id) if object_id else None
            if obj is None:
                return f"Option {query} names no card."
        else:
            obj = next((o for o in board.mirror.objects.values()
                        if o.name.lower().startswith(query)), None)
            if obj is None:
                return f"No card you can see is named {query!r}."
        return card_words(obj)

    async def _answer(self, index: int, *, auto: bool = False, logged: str = "") -> None:
        """Answer the pending decision with its option ``index`` (and log ``logged``).
        ``auto``: the answer is the client's own, to a decision with no choice in it (one
        not sent is sent again when the server repeats the decision after a resume)."""
        board = self.board
        decision = board.decision
        tapped = decision is not None and decision.kind == pb.DECISION_KIND_PAY_MANA and \
            0 <= index < len(decision.options) and \
            decision.options[index].WhichOneof("kind") == "activate_mana_ability"
        try:
            await self.client.act(index)
        except RuntimeError:  # no decision: a drop cleared it, or it was answered for you
            if not auto:
                board.notice = ("Nothing to answer now." if self.client.connected else
                                "Not connected: answer again once the connection is back.")
            return
        except ConnectionLostError:
            if not auto:
                board.notice = "Not connected: answer again once the connection is back."
            return
        if logged:
            board.add_event(logged)
        if not tapped:
            self._tapped_from = None
        elif self._tapped_from is None:  # (the first source tapped for this payment)
            self._tapped_from = _pool_total(board)
        self.answers += 1
        board.decision = None

    async def _paste(self, line: str) -> Outcome | None:
        """A line of the deck list being pasted: ``.`` sends it, ``cancel`` stops."""
        board = self.board
        assert board.pasting is not None
        if line.strip().lower() == "cancel":
            board.pasting = None
            board.notice = "Not pasting any more: k keeps your deck, d pastes a list."
        elif line.strip() == ".":
            text = "\n".join(board.pasting)
            board.pasting = None
            if not text.strip():
                board.notice = "That list was empty: k keeps your deck, d pastes a list."
            else:
                await self._send_deck(deck=text + "\n")
        else:
            board.pasting.append(line)
        return None

    async def _send_deck(self, *, keep: bool = False, deck: str = "") -> None:
        board, client = self.board, self.client
        try:
            board.deck_request = await client.send_deck(keep=keep, deck=deck)
        except ConnectionLostError:
            board.notice = "Not connected: answer again once the connection is back."
            return
        board.notice = "Sent: waiting for the server's answer..."

    async def _quit(self) -> Outcome | None:
        board, client = self.board, self.client
        if self._at_end():  # the game (match) is over: leaving offers no rematch any more
            with suppress(ConnectionLostError):
                await client.leave_room()
            return Outcome(board.result_line() or "You left.", 0)
        match = client.match
        in_match = self.player and match is not None and \
            match.phase != mpb.MATCH_PHASE_OVER
        seated = self.player and (board.game_running or in_match) and not self._seat_lost()
        if seated and not self._confirm_quit:
            self._confirm_quit = True
            board.notice = ("Quitting now concedes the " + ("game and the match" if in_match
                                                            else "game")
                            + ": q and Enter again to quit, anything else to stay.")
            return None
        score = self._final_score() if seated and in_match else ""
        if client.room_id is not None:
            with suppress(ConnectionLostError):
                await client.leave_room()
        if seated and in_match:
            return Outcome(f"You left the match: you conceded it. {score}".rstrip(), 0)
        if seated:
            return Outcome("You left the game: you conceded.", 0)
        if not self.player and self.client.finished and board.result_line():
            return Outcome(f"{self._end_line()} Stopped watching.", 0)
        return Outcome("You left." if self.player else "Stopped watching.", 0)

    async def _concede(self) -> None:
        """``concede``: this game only (rule 104.3a) -- in a match, the next game follows (``q``
        leaves the match, conceding it). Asked twice, like ``q``."""
        board = self.board
        if not board.game_running or self._seat_lost():
            board.notice = "No game of yours is being played: nothing to concede."
            return
        if not self._confirm_concede:
            self._confirm_concede = True
            board.notice = ("Concede this game" + (" (the match goes on)" if self.client.match
                                                   is not None else "")
                            + "? concede and Enter again to concede, anything else to play on.")
            return
        self._confirm_concede = False
        try:
            await self.client.concede()
        except ConnectionLostError:
            board.notice = "Not connected: concede again once the connection is back."
            return
        board.notice = "You conceded this game."

    # ---- the rematch (protocol/README.md, "Rematch")
    def _at_end(self) -> bool:
        """Whether the game (match) is over and this player stays for a rematch: one can
        still be had (nobody left, the room is open)."""
        client = self.client
        if not (self.rematch and self.player and client.finished):
            return False
        offers = self._offers()
        if offers is not None and offers.cancelled:
            return False
        if client.room_id is None:
            # In no room: the room closed, or this player's connection closed as the last
            # offer came and it resumed outside the old room -- the server then seats it
            # in the rematch's room (its own offer stands), waited for a while.
            seat = self.board.seat
            mine = self._offer_sent or (offers is not None and 0 <= seat < len(
                offers.offered) and offers.offered[seat])
            return mine and not self._seat_waited and getattr(client, "closed", None) is None
        return True

    def _end_line(self) -> str:
        """The last line once the session ends with the game: how it ended, and why no
        rematch if one was waited for."""
        line = self.board.result_line()
        offers = self._offers() if self.rematch and self.player else None
        if offers is not None and offers.cancelled:
            line += f" No rematch: {offers.cancelled}."
        elif self._seat_waited:
            line += " No rematch: the server seated you in no new game."
        offers = self.client.rematch if not self.player else None
        started = self._started_here() if not self.player else None
        if offers is not None and offers.cancelled and offers.room_id in (
                "", self.board.room.room_id):
            line += f" No rematch: {offers.cancelled}."
        elif started is not None and not started.new_room_id:
            line += " The players started a rematch, in a private room."
        return line.strip()

    def _names(self, seats: Iterable[int]) -> str:
        """The players of these seats, named (``Bob``, ``Bob and Cy``)."""
        board = self.board
        names = [board.player(s) if s in board.mirror.players else
                 (board.room.players[s] if s < len(board.room.players) else f"seat {s + 1}")
                 for s in seats]
        return " and ".join(names) if len(names) < 3 else \
            ", ".join(names[:-1]) + " and " + names[-1]

    def _offers(self) -> mpb.RematchOffers | None:
        """Who offers a rematch now: the client's, else the last one said to this board's
        room (:meth:`_rematch_news`)."""
        offers = self.client.rematch
        return offers if offers is not None else self._last_offers

    def _rematch_words(self) -> str:
        """What the screen says at the game's end about the rematch, from who offers."""
        offers = self._offers()
        seat = self.board.seat
        offered = list(offers.offered) if offers is not None else []
        others = [s for s in range(len(offered)) if s != seat]
        asking = [s for s in others if s < len(offered) and offered[s]]
        waiting = [s for s in others if not (s < len(offered) and offered[s])]
        mine = seat is not None and 0 <= seat < len(offered) and offered[seat]
        if mine:
            return (f"You offered a rematch: waiting for {self._names(waiting)} "
                    f"(r takes it back, q leaves).")
        if asking:
            return (f"{self._names(asking)} {'wants' if len(asking) == 1 else 'want'} a "
                    f"rematch: r accepts, q leaves.")
        what = "match" if getattr(self.client, "best_of", 1) > 1 else "game"
        return f"The {what} is over: r offers a rematch, q leaves."

    async def _offer_rematch(self) -> None:
        """``r`` at the game's end: offer a rematch, or take the offer back."""
        offers = self._offers()
        seat = self.board.seat
        mine = offers is not None and seat is not None and \
            0 <= seat < len(offers.offered) and offers.offered[seat]
        try:
            self._rematch_rid = await self.client.send_rematch(not mine)
        except ConnectionLostError:
            self.board.notice = "Not connected: try again once the connection is back."
            return
        self._offer_sent = not mine
        self.board.notice = "Taking the rematch offer back..." if mine else \
            "Offering a rematch..."

    def _rematch_news(self, msg: mpb.ServerMessage) -> None:
        """Who offers a rematch changed, the rematch started, or the offer was refused."""
        board = self.board
        body = msg.WhichOneof("body")
        why = no_rematch(msg)
        if why is not None:  # every player offered, but the server couldn't make it
            board.notice = f"No rematch: {why}."
            board.add_event(f"No rematch: {why}.")
            self._last_offers = mpb.RematchOffers(room_id=board.room.room_id,
                                                  offered=self._offered, cancelled=why)
        elif body == "error":
            board.notice = \
                f"No rematch: {msg.error.message.removeprefix('no rematch: ')}"
        elif body == "rematch_started":
            board.notice = "Rematch! The new game starts..."
            board.add_event("-- Rematch: every player offered; a new game starts --")
        else:
            offers = msg.rematch_offers
            if offers.room_id not in ("", board.room.room_id):
                return  # (an old room's, after this player moved on)
            self._last_offers = offers
            if offers.cancelled:
                board.notice = f"No rematch: {offers.cancelled}."
                board.add_event(f"No rematch: {offers.cancelled}.")
                return
            before = self._offered
            self._offered = list(offers.offered)
            # A resume between (a restart forgets every offer) is no one's withdrawal.
            resumed = self.client.resumes != self._offers_resumes
            self._offers_resumes = self.client.resumes
            gone: list[int] = []
            for s, offered in enumerate(offers.offered):  # (each change once in the log)
                was = s < len(before) and before[s]
                if s == board.seat or offered == was:
                    continue
                if offered:
                    board.add_event(f"{self._names([s])} wants a rematch.")
                else:
                    gone.append(s)
            words = self._rematch_words()
            if gone:
                who = self._names(gone)
                said = (f"{who}'s rematch offer no longer stands (the connection was resumed)"
                        if resumed else f"{who} withdrew the rematch offer")
                if len(gone) > 1:
                    said = (f"The rematch offers of {who} no longer stand (the connection was "
                            f"resumed)" if resumed else f"{who} withdrew their rematch offers")
                board.add_event(f"{said}.")
                words = f"{said}. {words}"
            board.notice = words

    def _rematch_board(self, joined: mpb.Joined, *, back: bool = False) -> Board:
        """A new board for the rematch's room this player was just placed in (its invite
        code, if the rematch said it, kept as ``play`` keeps a created room's)."""
        old = self.board
        board = Board(self.client.mirror, url=old.url, account=old.account)
        board.stops = old.stops
        board.joined(joined)
        started = getattr(self.client, "rematch_started", None)
        room_id = joined.room.room_id
        if started is not None and started.new_room_id == room_id and started.invite_code:
            board.invite_code = started.invite_code
            if joined.room.private:
                with suppress(OSError, ValueError, TypeError):
                    saved_accounts.save_invite(old.url, room_id, started.invite_code)
        board.add_event(f"-- Back in room {room_id} --" if back
                        else f"-- Rematch in room {room_id} --")
        self.board = board
        self._end_said, self._offered, self._last_offers = False, [], None
        self._offer_sent = False
        self._passing, self._any_order = None, False
        self._turn = (-1, 0.0)
        return board

    # ---- a spectator and the players' rematch (protocol/README.md, "Rematch")
    def _started_here(self) -> mpb.RematchStarted | None:
        """The rematch the players of the watched room started, as the server told this
        spectator (None: none yet)."""
        started: mpb.RematchStarted | None = getattr(self.client, "rematch_started", None)
        if started is None or started.old_room_id != self.board.room.room_id:
            return None
        return started

    def _watching_on(self) -> bool:
        """Whether a spectator whose game (match) is over stays: the players may still
        start a rematch, or have started one it may watch (``w``), or ``w`` was typed and
        the rematch's room is being joined. Not when the input ended (nobody can type
        ``w``), the rematch was cancelled, the room closed, or the rematch is in a private
        room (no room id is told)."""
        client = self.client
        if self.player or not self.follows:
            return False
        if self._follow_rid:
            return True
        if not client.finished or self._keys_gone or client.room_id is None:
            return False
        offers = client.rematch
        if offers is not None and offers.cancelled:
            return False
        started = self._started_here()
        return started is None or bool(started.new_room_id)

    def _watch_words(self) -> str:
        """What a spectator's screen says at the end about the players' rematch."""
        if self._started_here() is not None:
            return "The players started a rematch: w watches it, q stops watching."
        offers = self.client.rematch
        asking = [s for s, offered in enumerate(offers.offered) if offered] \
            if offers is not None else []
        what = "match" if getattr(self.client, "best_of", 1) > 1 else "game"
        if asking:
            return (f"{self._names(asking)} {'wants' if len(asking) == 1 else 'want'} a "
                    f"rematch: once every player offers, w watches it; q stops watching.")
        return (f"The {what} is over: if the players start a rematch, w watches it; q "
                f"stops watching.")

    def _watch_news(self, msg: mpb.ServerMessage) -> None:
        """A spectator is told who offers a rematch, or that the players started one."""
        board = self.board
        if msg.WhichOneof("body") == "rematch_started":
            started = msg.rematch_started
            if started.old_room_id != board.room.room_id:
                return
            board.add_event("The players started a rematch: w watches it."
                            if started.new_room_id else
                            "The players started a rematch, in a private room.")
            board.notice = self._watch_words() if started.new_room_id else ""
            return
        offers = msg.rematch_offers
        if msg.WhichOneof("body") != "rematch_offers" or \
                offers.room_id not in ("", board.room.room_id):
            return
        if offers.cancelled:
            board.add_event(f"No rematch: {offers.cancelled}.")
            board.notice = f"No rematch: {offers.cancelled}."
            return
        before, self._offered = self._offered, list(offers.offered)
        for s, offered in enumerate(offers.offered):  # (each change once in the log)
            was = s < len(before) and before[s]
            if offered != was:
                board.add_event(f"{self._names([s])} wants a rematch." if offered else
                                f"{self._names([s])} withdrew the rematch offer.")
        board.notice = self._watch_words()

    async def _watch_rematch(self) -> None:
        """``w``, watching: leave the finished room for the rematch the players started,
        as a spectator of the same tier (the Joined, or the refusal, comes to the receiving
        task)."""
        board, client = self.board, self.client
        started = self._started_here()
        if self._follow_rid:
            board.notice = "Joining the rematch's room..."
            return
        if started is None or not started.new_room_id or not self._watching_on():
            board.notice = ("The players started their rematch in a private room: it can't "
                            "be watched from here." if started is not None else
                            "No rematch to watch: w watches the players' rematch once they "
                            "start one; q stops watching.")
            return
        try:
            await client.leave_room()
            self._follow_rid = await client.send_join(
                started.new_room_id, spectator=True, invite_code=started.invite_code,
                tier=board.tier)
        except ConnectionLostError:
            board.notice = "Not connected: try again once the connection is back."
            return
        board.notice = f"Joining the rematch in room {started.new_room_id}..."

    def _watch_board(self, joined: mpb.Joined) -> Board:
        """A new board for the rematch's room this spectator joined (``w``)."""
        old = self.board
        board = Board(self.client.mirror, seat=-1, watching=True, room=joined.room,
                      url=old.url, account=old.account, tier=joined.tier)
        board.joined(joined)
        board.add_event(f"-- Watching the rematch in room {joined.room.room_id} --")
        self.board = board
        self._end_said, self._offered, self._follow_rid = False, [], 0
        self._turn = (-1, 0.0)
        return board

    def _final_score(self) -> str:
        """The match's score once this player has left it (conceding it): a game of two
        players being played is the opponent's (104.3a) -- the server scores it so, and
        tells nobody gone."""
        board, match = self.board, self.client.match
        if match is None:
            return ""
        final = mpb.MatchState()
        final.CopyFrom(match)
        seats = [s for s in board.mirror.players if s != board.seat]
        if board.game_running and len(seats) == 1 and 0 <= seats[0] < len(final.wins):
            final.wins[seats[0]] += 1
        kept, board.match = board.match, final
        try:
            return f"Final score: {board.score_text()}."
        finally:
            board.match = kept

    def _seat_lost(self) -> bool:
        me = self.board.mirror.players.get(self.board.seat)
        return me is not None and me.has_lost


def _question(decision: pb.Decision) -> bytes:
    """What a decision asks, without its number and state: equal for the same question."""
    asked = pb.Decision()
    asked.CopyFrom(decision)
    asked.ClearField("prompt_id")
    asked.ClearField("state_id")
    return asked.SerializeToString(deterministic=True)


def _pool_total(board: Board) -> int:
    """How much mana is in the viewer's pool."""
    me = board.mirror.players.get(board.seat)
    if me is None:
        return 0
    p = me.mana_pool
    return p.white + p.blue + p.black + p.red + p.green + p.colorless


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


async def _bot(url: str, room_id: str, invite_code: str, index: int, board: Board, *,
               task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
    """An opponent in this process: takes a seat, plays the game to its end. It plays
    eagerly (:data:`Policy.EAGER`: keeps its hand, plays lands, casts spells, attacks): a
    uniform RandomBot mulliganed to no cards, tapped lands for nothing and passed with
    spells in hand -- no game for a person to play against."""
    try:
        async with Client.connect(url, f"bot-{index}") as client:
            await client.join(room_id, invite_code=invite_code)
            task_status.started()
            await RandomBot(client, random.Random(), Policy.EAGER).play()
    except Exception as exc:  # the player's game goes on: say so, don't crash it
        board.notice = f"The bot stopped: {exc}"
        task_status.started()


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
        bots: list[tuple[str, str]] = []
        if client.room_id is not None and client.seat is not None:
            board.seat = client.seat
            if client.room is not None:  # its name, its match... as when it was joined
                board.room.CopyFrom(client.room)
            board.room.room_id = client.room_id
            board.deck_text = client.deck_text  # (to sideboard with: the Resumed's Joined)
            # A private room this machine created: its invite code, kept when it was made
            # (``invite`` said only "known to the terminal that created it").
            board.invite_code = saved_accounts.load_invite(o.url, client.room_id)
            # (On the screen, not printed before it: printed, the line was still there
            # over the last board once the match had ended.)
            board.notice = f"{BACK_NOTICE}{client.room_id}."
        elif o.room_id:
            board.joined(await client.join(o.room_id, deck=o.deck, invite_code=o.invite_code))
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
            room, joined = await client.create_and_join(
                f"{client.account.name}'s game", seats=o.seats, clock_seconds=o.clock_seconds,
                deck=o.deck, private=not o.public, deck_format=o.deck_format,
                best_of=o.best_of)
            code = client.invite_codes[room.room_id]
            board.joined(joined)
            board.invite_code = code
            if not o.public:  # (for ``invite`` after this terminal closes and comes back)
                with suppress(OSError, ValueError, TypeError):
                    saved_accounts.save_invite(o.url, room.room_id, code)
            # (Printed with bots too: the alternate screen hides it, but it is there after,
            # and the screen's title and `invite` say it meanwhile -- the bots fill the room
            # at once, and the waiting screen was gone before anyone could read the code.)
            told = invite_text(o.url, room.room_id, code, o.public, seats_open=not o.bots)
            print(told, file=out, flush=True)
            board.waiting = told
            bots = [(room.room_id, code)] * o.bots
        session = Session(client, board, screen, Keyboard(stdin_fd), player=True)
        session.rematch = not bots  # (bots play one game: no rematch with them)
        stops = saved_accounts.load_setting(STOPS_SETTING, AUTO)
        session.stops = stops if stops in MODES else AUTO
        session.save_stops = partial(saved_accounts.save_setting, STOPS_SETTING)

        def stopped() -> str:
            if not session.board.game_running or bots:  # (a rematch's board, after one)
                return "Interrupted."
            back = (f"manawire play {o.url}" if remembered
                    else f"manawire play {o.url} --token {client.account_token}")
            return f"Interrupted: your seat is kept while your clock runs. To take it back: {back}"

        session.stopped = stopped
        async with trio.open_nursery() as nursery:
            for i, (room_id, code) in enumerate(bots):
                await nursery.start(_bot, o.url, room_id, code, i + 1, board)
            outcome = await session.run(setup)
            nursery.cancel_scope.cancel()
    return outcome.code


def web_link(url: str, role: str, room_id: str, code: str = "") -> str:
    """The web client's invite link to a room (web/README.md: ``#join=ROOM_ID&code=CODE``,
    ``#watch=`` to spectate), on the server the WebSocket URL names -- it serves the web
    client on the same port: ``ws://`` is ``http://``, ``wss://`` ``https://``. Empty for
    a URL that is neither."""
    parts = urlsplit(url)
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme.lower())
    if scheme is None or not parts.netloc:
        return ""
    path = parts.path if parts.path.endswith("/") else parts.path + "/"
    fragment = urlencode({role: room_id, **({"code": code} if code else {})})
    return urlunsplit((scheme, parts.netloc, path, "", fragment))


def invite_text(url: str, room_id: str, code: str, public: bool, *,
                seats_open: bool = True) -> str:
    """How others join the room just created (``seats_open``: a seat is free), or watch it:
    in a terminal, and in a browser (the web client's invite links)."""
    invite = f" --invite {code}" if code else ""
    shown = "" if public else code
    watch = f"  anyone watches with:  manawire watch {url} {room_id}{'' if public else invite}"
    if link := web_link(url, "watch", room_id, shown):
        watch += f"\n      or in a browser:  {link}"
    if not seats_open:
        return f"Room {room_id}, invite code {code}: every seat is taken.\n{watch}"
    join = f"  a friend joins with:  manawire play {url} --room {room_id}{invite}\n"
    if link := web_link(url, "join", room_id, shown):
        join += f"      or in a browser:  {link}\n"
    return (f"Room {room_id} created; invite code {code}. Waiting for players...\n{join}"
            f"  a bot joins with:     manawire bots --url {url} --join {room_id}{invite}\n"
            f"{watch}")


def invite_words(board: Board) -> str:
    """What ``invite`` says: the room's invite code and the commands that join it (while a
    seat is free) or watch it."""
    room = board.room
    if not room.room_id:
        return "You are in no room yet."
    seats_open = not room.started and not board.mirror.ready and \
        len(room.players) < room.seats
    if board.invite_code:
        return invite_text(board.url, room.room_id, board.invite_code, not room.private,
                           seats_open=seats_open)
    if not room.private:
        text = invite_text(board.url, room.room_id, "", True, seats_open=seats_open)
        return f"Room {room.room_id} is public: no invite code is needed.\n" + "".join(
            text.splitlines(keepends=True)[1:])
    return (f"Room {room.room_id} is private and was created elsewhere: its invite code is "
            f"known to its creator, who was shown it as the room was made (their terminal "
            f"keeps it: 'invite' there says it again) -- ask them for it.")


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
