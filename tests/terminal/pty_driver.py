"""A program run in a pseudo-terminal, its screen read as a person would see it.

The terminal client draws each frame over the last one, starting at the cursor's home
(``ESC [ H``) and ending by erasing what is below (``ESC [ J``); :meth:`PtyProgram.screen`
is the last complete frame with the terminal's control sequences taken out.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import signal
import struct
import sys
import termios
from collections.abc import Sequence
from pathlib import Path

import trio

REPO = Path(__file__).resolve().parents[2]
HOME, ERASE_DOWN, ALT_OFF = b"\x1b[H", b"\x1b[J", b"\x1b[?1049l"
_CONTROL = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][0-9A-Za-z]|\x1b[=>]")


def plain(text: str) -> str:
    """``text`` without terminal control sequences."""
    return _CONTROL.sub("", text)


class PtyProgram:
    """``argv`` with a pseudo-terminal of ``rows`` x ``cols`` as its standard input, output
    and error, in a process group of its own (killed whole by :meth:`aclose`)."""

    def __init__(self, argv: Sequence[str], *, rows: int = 50, cols: int = 120) -> None:
        self.argv = list(argv)
        self.rows, self.cols = rows, cols
        self.proc: trio.Process | None = None
        self.stream: trio.lowlevel.FdStream | None = None
        #: Everything the program wrote (bytes).
        self.output = bytearray()
        self.eof = False
        self._frame_from = 0

    async def start(self) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", self.rows, self.cols, 0, 0))
        env = {**os.environ, "TERM": "xterm-256color"}
        for name in ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR"):
            env.pop(name, None)
        try:
            self.proc = await trio.lowlevel.open_process(
                self.argv, stdin=slave, stdout=slave, stderr=slave, cwd=REPO, env=env,
                start_new_session=True)
        finally:
            os.close(slave)
        self.stream = trio.lowlevel.FdStream(master)

    async def read_some(self) -> bool:
        """Read what the program wrote next; False once it has closed the terminal."""
        assert self.stream is not None
        if self.eof:
            return False
        try:
            data = await self.stream.receive_some(1 << 16)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            data = b""  # EIO: the program exited and the terminal is closed
        if not data:
            self.eof = True
            return False
        self.output += data
        return True

    def screen(self) -> str | None:
        """The last complete frame drawn, as plain text (None: none yet)."""
        end = self.output.rfind(ERASE_DOWN)
        if end < 0:
            return None
        start = self.output.rfind(HOME, 0, end)
        if start < 0:
            return None
        return plain(self.output[start + len(HOME):end].decode("utf-8", errors="replace"))

    def text(self) -> str:
        """Everything written, as plain text."""
        return plain(self.output.decode("utf-8", errors="replace"))

    def after_screen(self) -> str:
        """What was written after the last frame (back on the normal screen)."""
        at = self.output.rfind(ALT_OFF)
        return "" if at < 0 else plain(self.output[at:].decode("utf-8", errors="replace"))

    async def send(self, keys: str) -> None:
        assert self.stream is not None
        await self.stream.send_all(keys.encode())

    async def wait_for(self, pattern: str, seconds: float = 20.0) -> re.Match[str]:
        """Read until the current screen matches ``pattern`` (a regular expression)."""
        with trio.fail_after(seconds):
            while True:
                screen = self.screen()
                if screen is not None and (found := re.search(pattern, screen)):
                    return found
                if not await self.read_some():
                    raise AssertionError(f"the program ended before {pattern!r}: "
                                         f"{self.text()[-3000:]}")

    async def wait_exit(self, seconds: float = 20.0) -> int:
        """Read to the end and return the exit code."""
        assert self.proc is not None
        with trio.fail_after(seconds):
            while await self.read_some():
                pass
            return await self.proc.wait()

    async def aclose(self) -> None:
        """Kill the program's process group if it still runs; close the terminal."""
        with trio.CancelScope(shield=True):
            proc = self.proc
            if proc is not None and proc.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                await proc.wait()
            if self.stream is not None:
                await self.stream.aclose()


def manawire(*args: str) -> list[str]:
    """The ``manawire`` command of this checkout."""
    return [sys.executable, "-m", "server.cli", *args]
