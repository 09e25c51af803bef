"""Fixtures of the browser tests: a real ``manawire serve`` subprocess per test, one headless
Chromium per run of this package, and pages in separate browser contexts (separate storage:
each page is its own browser, as far as the server can tell).

Chromium is the system's, at ``$MANAWIRE_CHROMIUM``, else the first of :data:`CHROMIUM_PATHS`
found: Debian's ``chromium-headless-shell`` (``make browser-deps`` installs it), then its
``chromium``. Playwright never downloads a browser of its own. Without one the tests are
skipped, or fail when ``$CI`` is set (CI must run them).

Every test saves screenshots under ``test-results/screenshots/`` at the repository root
(gitignored): the board at the end as ``TEST.png`` (and ``TEST-LABEL.png`` for other
pages), and every open page as ``TEST-failed-LABEL.png`` when the test failed.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Generator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    Playwright,
    expect,
    sync_playwright,
)
from playwright.sync_api import Error as PlaywrightError

REPO = Path(__file__).resolve().parents[2]
SCREENSHOTS = REPO / "test-results" / "screenshots"
CHROMIUM_ENV = "MANAWIRE_CHROMIUM"
#: Where Chromium is looked for, in order. The headless shell is the same engine without the
#: full browser around it: the package's tests took 14 s of CPU with it against 27 s with
#: ``chromium`` (tests/browser/test_board.py, measured in a cgroup), and they are the suite's
#: largest part.
CHROMIUM_PATHS = ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium")
#: Headless and quiet: the background-networking flags keep Chromium from calling home, which
#: a closed network answers by refusing connections (and slow start-ups).
CHROMIUM_ARGS = ("--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync")
#: The board's screenshots, and every page unless a test says otherwise.
VIEWPORT = (1280, 800)
#: Milliseconds Playwright waits for an element or a navigation by default.
DEFAULT_TIMEOUT_MS = 15_000
#: Seconds for the server to start listening, and to stop after SIGTERM before it is killed.
SERVER_START_S = 60.0
SERVER_STOP_S = 15.0
expect.set_options(timeout=DEFAULT_TIMEOUT_MS)
_LOG_PROBLEM = re.compile(r" (ERROR|CRITICAL) |^Traceback ")
_LISTENING = re.compile(r"manawire listening on ws://127\.0\.0\.1:(\d+)")


def chromium_path() -> str:
    """The Chromium binary the tests launch: ``$MANAWIRE_CHROMIUM``, else the first of
    :data:`CHROMIUM_PATHS` that is there (the first, to name in an error, when none is)."""
    named = os.environ.get(CHROMIUM_ENV)
    if named:
        return named
    for path in CHROMIUM_PATHS:
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return CHROMIUM_PATHS[0]


def _no_chromium(reason: str) -> None:
    """Skip (a developer's machine), or fail when ``$CI`` is set: CI must run these tests."""
    if os.environ.get("CI", "").lower() not in ("", "0", "false"):
        pytest.fail(f"{reason} (CI is set: the browser tests must run; `make browser-deps`)",
                    pytrace=False)
    pytest.skip(f"{reason}: install it with `make browser-deps` (Debian's "
                f"chromium-headless-shell) or set {CHROMIUM_ENV}")


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    """One headless Chromium for the whole package (each test opens its own contexts)."""
    path = chromium_path()
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        _no_chromium(f"no Chromium at {path}" if os.environ.get(CHROMIUM_ENV)
                     else f"no Chromium at {' or '.join(CHROMIUM_PATHS)}")
    with sync_playwright() as pw:
        browser = _launch(pw, path)
        try:
            yield browser
        finally:
            browser.close()


def _launch(pw: Playwright, path: str) -> Browser:
    try:
        return pw.chromium.launch(executable_path=path, headless=True,
                                  args=list(CHROMIUM_ARGS), timeout=60_000)
    except PlaywrightError as exc:
        pytest.fail(f"Chromium at {path} did not start: {exc}", pytrace=False)


# ---- the server
class ServerStartError(Exception):
    """``manawire serve`` did not come up."""


class ServerProcess:
    """``python -m server.cli serve`` on 127.0.0.1, a port the OS picks (``--port 0``), in its
    own process group, so that stopping it never leaves a process behind. Its stdout (the
    listening line) and stderr (the log) go to files in ``data_dir``."""

    def __init__(self, data_dir: Path, args: tuple[str, ...] = ()) -> None:
        self.data_dir = data_dir
        self.args = args
        self.port = 0
        self.out_path = data_dir / "server.out"
        self.log_path = data_dir / "server.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self._files: list[IO[bytes]] = []

    @property
    def base_url(self) -> str:
        """Where the page is served: ``http://127.0.0.1:PORT/``."""
        return f"http://127.0.0.1:{self.port}/"

    def start(self) -> None:
        """Start the server; return once it listens (:class:`ServerStartError` if it exits
        first or takes longer than :data:`SERVER_START_S`)."""
        assert self.proc is None
        self.data_dir.mkdir(parents=True, exist_ok=True)
        out = self.out_path.open("wb")
        log = self.log_path.open("wb")
        self._files = [out, log]
        cmd = [sys.executable, "-m", "server.cli", "serve", "--host", "127.0.0.1",
               "--port", "0", "--data-dir", str(self.data_dir), "--grace", "2", *self.args]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=log,
                                     cwd=REPO, start_new_session=True)
        deadline = time.monotonic() + SERVER_START_S
        while time.monotonic() < deadline:
            found = _LISTENING.search(self.out_path.read_text(errors="replace"))
            if found:
                self.port = int(found.group(1))
                return
            if self.proc.poll() is not None:
                raise ServerStartError(f"server exited with {self.proc.returncode} before "
                                       f"listening; log tail:\n{self.log_tail()}")
            time.sleep(0.05)
        raise ServerStartError(f"server not listening after {SERVER_START_S:g} s; log tail:\n"
                               f"{self.log_tail()}")

    def stop(self) -> int | None:
        """SIGTERM, then SIGKILL to the whole process group if it is still there after
        :data:`SERVER_STOP_S`. Returns the exit code (None if it was never started)."""
        proc, self.proc = self.proc, None
        code: int | None = None
        try:
            if proc is not None:
                if proc.poll() is None:
                    proc.send_signal(signal.SIGTERM)
                try:
                    code = proc.wait(timeout=SERVER_STOP_S)
                except subprocess.TimeoutExpired:
                    # Not reaped yet, so its process group is still the one it leads: kill
                    # the group (whatever it may have started goes too).
                    os.killpg(proc.pid, signal.SIGKILL)
                    code = proc.wait(timeout=SERVER_STOP_S)
        finally:
            for f in self._files:
                f.close()
            self._files = []
        return code

    def log_size(self) -> int:
        """How many bytes the log has so far (where :meth:`log_problems` may start)."""
        try:
            return self.log_path.stat().st_size
        except OSError:
            return 0

    def log_problems(self, since: int = 0) -> list[str]:
        """The log's lines at level ERROR or above, and tracebacks (from byte ``since``)."""
        try:
            with self.log_path.open("rb") as log:
                log.seek(since)
                text = log.read().decode(errors="replace")
        except OSError:
            return []
        return [line for line in text.splitlines()
                if _LOG_PROBLEM.search(line)]

    def log_tail(self, lines: int = 30) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])


#: The tests' server options. Its message rate limit is raised: the tests click as fast as
#: the page answers, faster than a person (and than the default 20 messages a second); what
#: they test is the page, not the rate limit. So is the least delay of an every-hand tier
#: (60 s): the tests watch one 2 s behind.
SERVER_ARGS = ("--messages-per-second", "1000", "--message-burst", "1000",
               "--hidden-tier-seconds", "0")


def _stopped(proc: ServerProcess) -> None:
    """Stop ``proc``; fail the test if it exited with an error."""
    code = proc.stop()
    if code not in (0, None):
        pytest.fail(f"server exited with {code}; log tail:\n{proc.log_tail()}", pytrace=False)


@pytest.fixture(scope="session")
def shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for the modules that say ``SHARED_SERVER = True`` (a start costs a second
    of CPU, several on a busy machine): those whose tests neither stop it nor read its
    lobby, each signing in as guests of its own, or whose pages talk to a scripted server
    (tests/browser/fake_server.py: the real one only serves the page)."""
    proc = ServerProcess(tmp_path_factory.mktemp("shared") / "server", args=SERVER_ARGS)
    try:
        proc.start()
        yield proc
    finally:
        _stopped(proc)
    if bad := proc.log_problems():  # (also what was logged after its last test)
        pytest.fail("the shared server logged errors:\n" + "\n".join(bad[:20]),
                    pytrace=False)


@pytest.fixture
def server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[ServerProcess]:
    """A fresh server and data directory for the test (:data:`SERVER_ARGS`), or the shared
    one if its module says ``SHARED_SERVER = True`` and doesn't name the test in
    ``FRESH_SERVER_FOR`` (one that stops its server or reads the lobby); either way the test
    fails if the server logged an error while it ran."""
    if getattr(request.module, "SHARED_SERVER", False) and \
            request.function.__name__ not in getattr(request.module, "FRESH_SERVER_FOR", ()):
        shared: ServerProcess = request.getfixturevalue("shared_server")
        since = shared.log_size()
        yield shared
        if shared.proc is None or shared.proc.poll() is not None:
            pytest.fail(f"the shared server stopped; log tail:\n{shared.log_tail()}",
                        pytrace=False)
        if bad := shared.log_problems(since):
            pytest.fail("the server logged errors:\n" + "\n".join(bad[:20]), pytrace=False)
        return
    proc = ServerProcess(tmp_path / "server", args=SERVER_ARGS)
    try:
        proc.start()
        yield proc
    finally:
        _stopped(proc)
    if bad := proc.log_problems():
        pytest.fail("the server logged errors:\n" + "\n".join(bad[:20]), pytrace=False)


# ---- pages
@dataclass
class OpenPage:
    label: str
    context: BrowserContext
    page: Page
    #: Console errors and warnings and uncaught exceptions, in words.
    errors: list[str] = field(default_factory=list)


class Pages:
    """Opens pages of the test's server, each in a new browser context, and keeps what they
    logged."""

    def __init__(self, browser: Browser, server: ServerProcess, test_name: str) -> None:
        self.browser = browser
        self.server = server
        self.test_name = re.sub(r"[^\w.-]+", "_", test_name)
        self.opened: list[OpenPage] = []

    @property
    def base_url(self) -> str:
        return self.server.base_url

    def open(self, label: str, *, url: str | None = None,
             viewport: tuple[int, int] = VIEWPORT) -> Page:
        """A new context and page (not yet navigated unless ``url`` is given)."""
        width, height = viewport
        context = self.browser.new_context(viewport={"width": width, "height": height})
        context.set_default_timeout(DEFAULT_TIMEOUT_MS)
        page = context.new_page()
        opened = OpenPage(label, context, page)
        self.opened.append(opened)

        def on_console(msg: ConsoleMessage) -> None:
            # Warnings too: the client warns when its mirror falls out of sync with the
            # server's view (and asks for a snapshot), which a healthy game never does.
            if msg.type in ("error", "warning"):
                where = msg.location.get("url", "")
                opened.errors.append(f"console.{msg.type}: {msg.text} ({where})")

        def on_page_error(exc: PlaywrightError) -> None:
            opened.errors.append(f"uncaught: {exc.name}: {exc.message}")

        page.on("console", on_console)
        page.on("pageerror", on_page_error)
        if url is not None:
            page.goto(url)
        return page

    def errors(self) -> dict[str, list[str]]:
        """Each page's console errors and uncaught exceptions so far (pages with none left
        out)."""
        return {p.label: list(p.errors) for p in self.opened if p.errors}

    def assert_no_errors(self) -> None:
        errors = self.errors()
        assert not errors, f"the pages logged errors: {errors}"

    def screenshot(self, page: Page, suffix: str = "") -> Path:
        """A full-page screenshot, ``test-results/screenshots/TEST[-SUFFIX].png``."""
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{self.test_name}{'-' + suffix if suffix else ''}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    def close(self, failed: bool) -> None:
        for opened in self.opened:
            if failed:
                try:
                    path = self.screenshot(opened.page, f"failed-{opened.label}")
                    print(f"screenshot of {opened.label}: {path}")
                except PlaywrightError as exc:
                    print(f"no screenshot of {opened.label}: {exc.message}")
            try:
                opened.context.close()
            except PlaywrightError as exc:
                print(f"closing {opened.label}: {exc.message}")
        errors = self.errors()
        if failed and errors:
            print(f"the pages logged errors: {errors}")
        self.opened = []


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(
        item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, pytest.TestReport,
                                                                     pytest.TestReport]:
    """Keep each phase's report on the item, so that fixtures can tell a failed test."""
    report = yield
    item.stash.setdefault(_REPORTS, {})[report.when] = report
    return report


_REPORTS = pytest.StashKey[dict[str, pytest.TestReport]]()


@pytest.fixture
def pages(browser: Browser, server: ServerProcess,
          request: pytest.FixtureRequest) -> Iterator[Pages]:
    """Pages of this test's server; closed after the test, with screenshots of every one of
    them if it failed."""
    opened = Pages(browser, server, request.node.name)
    for stale in SCREENSHOTS.glob(f"{opened.test_name}-failed-*.png"):
        stale.unlink()  # a previous run's: this run decides whether there is one
    try:
        yield opened
    finally:
        reports = request.node.stash.get(_REPORTS, {})
        failed = any(r.failed for r in reports.values())
        opened.close(failed or "call" not in reports)
