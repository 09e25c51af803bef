"""The terminal client's keyboard (read without blocking trio) and its dependencies: the
client side imports the protocol, never the server (nor its engine)."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import trio

from client_sdk.terminal import Keyboard

CLIENT_SDK = Path(__file__).resolve().parents[2] / "client_sdk"


async def test_lines_from_a_pipe_are_read_while_other_tasks_run() -> None:
    read_fd, write_fd = os.pipe()
    try:
        keyboard = Keyboard(read_fd)
        assert not keyboard.keys
        got: list[str | None] = []

        async def reader() -> None:
            for _ in range(3):
                got.append(await keyboard.read_line(lambda: None))

        with trio.fail_after(10):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(reader)
                # The reader waits for input; the event loop goes on: this task runs.
                for _ in range(3):
                    await trio.sleep(0.01)
                assert got == []
                os.write(write_fd, b"3\r\np\n")
                os.close(write_fd)
                write_fd = -1
        assert got == ["3", "p", None]
    finally:
        os.close(read_fd)
        if write_fd >= 0:
            os.close(write_fd)


async def test_keys_one_by_one_edit_the_typed_line() -> None:
    read_fd, write_fd = os.pipe()
    try:
        keyboard = Keyboard(read_fd)
        keyboard.keys = True  # as on a terminal in cbreak mode
        edits: list[str] = []
        os.write(write_fd, b"12\x7f3")
        os.write(write_fd, b"\x1b[A")  # an arrow key: ignored
        os.write(write_fd, b"\r")
        line = await keyboard.read_line(lambda: edits.append(keyboard.typed))
        assert line == "13" and keyboard.typed == "" and edits
    finally:
        os.close(read_fd)
        os.close(write_fd)


async def test_a_typed_line_keeps_what_was_on_the_screen_as_its_first_key_came() -> None:
    read_fd, write_fd = os.pipe()
    try:
        keyboard = Keyboard(read_fd)
        keyboard.keys = True
        shown = [(7, 1.0)]
        keyboard.marker = lambda: shown[0]
        os.write(write_fd, b"p")
        assert keyboard.typed == "" and await _typed(keyboard) == "p"
        shown[0] = (8, 2.0)  # a new decision before Enter: the line is still decision 7's
        os.write(write_fd, b"p\r\r")
        assert await keyboard.read_line(lambda: None) == "pp" and keyboard.line_mark == (7, 1.0)
        assert await keyboard.read_line(lambda: None) == "" and keyboard.line_mark == (8, 2.0)
    finally:
        os.close(read_fd)
        os.close(write_fd)


async def _typed(keyboard: Keyboard) -> str:
    """Read what is waiting (without a line end): the line typed so far."""
    keyboard._keys((await keyboard._read()).decode())
    return keyboard.typed


async def test_input_from_dev_null_or_a_file_is_read_not_waited_on(tmp_path: Path) -> None:
    """``manawire watch ... < /dev/null`` (a service, a script): epoll can't wait on
    /dev/null (EPERM), which once ended the command as "can't connect to the server"."""
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        with trio.fail_after(5):
            assert await Keyboard(null).read_line(lambda: None) is None
    finally:
        os.close(null)
    (tmp_path / "keys").write_text("1\np\n")
    fd = os.open(tmp_path / "keys", os.O_RDONLY)
    try:
        keyboard = Keyboard(fd)
        lines = [await keyboard.read_line(lambda: None) for _ in range(3)]
        assert lines == ["1", "p", None]
    finally:
        os.close(fd)


def test_the_client_sdk_never_imports_the_server() -> None:
    for path in sorted(CLIENT_SDK.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            for name in names:
                assert name.split(".")[0] != "server", f"{path.name} imports {name}"
