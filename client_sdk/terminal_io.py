"""The terminal client's keyboard and screen (:mod:`client_sdk.terminal`): :class:`Keyboard`
reads the lines typed without blocking trio -- on a terminal key by key, so the line being
typed is part of the board --, :class:`Screen` draws the board: on a terminal each frame over
the last on the alternate screen, elsewhere a plain frame whenever what it shows changes."""

from __future__ import annotations

import os
import re
import stat
import termios
import tty
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

import trio
from rich.console import Console

from client_sdk.board import Board, frame_lines, render

#: The longest line the keyboard keeps.
MAX_TYPED = 40
#: Terminal control: the alternate screen on and off, cursor home, erase to the end of
#: the line and of the screen.
ALT_ON, ALT_OFF, HOME, ERASE_LINE, ERASE_DOWN = (
    "\x1b[?1049h", "\x1b[?1049l", "\x1b[H", "\x1b[K", "\x1b[J")


#: What was on the screen as a typed line began: the pending decision's prompt id (None:
#: none) and the time (trio's clock).
Mark = tuple[int | None, float]


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
