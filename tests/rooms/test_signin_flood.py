"""Password checks under a flood from many addresses, and Register's taken names metered (app
over memory sockets; the real clock where checks run on threads).

Security round 16: sixty addresses, each within its own rate of password checks, sent
sign-ins with made-up names; served in arrival order, the checks queued by the hundred and
a real user's sign-in from another address waited 4-10 s. And ``Register`` answered
``NAME_TAKEN`` at once and unmetered, ~170 names probed a second. The checks here are held
on their worker threads until the test lets one finish, so the tests count who waits, who
runs next and who is refused -- never seconds."""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path

import pytest
import trio
import trio.testing

from protocol.v1 import messages_pb2 as mpb
from server import accounts, sessions
from server.app import App, Limits
from server.sessions import HASHING_WORKERS, MOST_WAITING_CHECKS
from tests.rooms.passwords import cheap_passwords
from tests.rooms.test_app_memory import MemorySocket, running_app

BUSY = "the server is checking too many passwords at once"
#: The addresses' checks refill (next to) never and failures are never forgotten.
SLOW_REFILL = Limits(password_checks_per_minute=1e-6, login_window=1e6)
#: Seconds (real: the checks run on worker threads, which an autojump clock takes for idle
#: -- it jumped to this deadline while a held check was being let go, and the tests failed
#: at random) a test may take before it fails instead of hanging. It takes about one.
DEADLOCK = 60


@pytest.fixture(autouse=True)
def _cheap_passwords(monkeypatch: pytest.MonkeyPatch) -> None:
    cheap_passwords(monkeypatch)


def _login(name: str, password: str) -> dict[str, object]:
    hello = mpb.Hello(protocol_version=1, display_name="")
    hello.login.name, hello.login.password = name, password
    return {"hello": hello}


class _Gate:
    """Holds each password check on its worker thread until :meth:`let_one` (or
    :meth:`open`) lets it finish, and tells which checks started, in order (by password)."""

    def __init__(self, check: Callable[[str, str], bool]) -> None:
        self._check = check
        self._permits = threading.Semaphore(0)
        self.started_send, self.started = trio.open_memory_channel[str](1000)

    def verify(self, stored: str, password: str) -> bool:
        trio.from_thread.run_sync(self.started_send.send_nowait, password)
        # (bounded: a test that fails never leaves a thread behind for long)
        self._permits.acquire(timeout=30)
        return self._check(stored, password)

    def let_one(self) -> None:
        self._permits.release()

    def open(self) -> None:
        self._permits.release(1000)


@asynccontextmanager
async def _gated(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[_Gate]:
    gate = _Gate(accounts.verify_password)
    monkeypatch.setattr(sessions, "verify_password", gate.verify)
    try:
        yield gate
    finally:
        gate.open()


async def _register(app: App, address: str, name: str, password: str) -> None:
    sock = MemorySocket(address=address)
    app.lobby.nursery.start_soon(app.handle_connection, sock)
    await sock.request(hello=mpb.Hello(protocol_version=1, display_name="g"))
    reply = await sock.request(register=mpb.Register(name=name, password=password))
    assert reply.HasField("welcome"), reply


async def test_a_real_sign_in_is_checked_next_and_the_flood_beyond_a_second_refused_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Twenty addresses send three sign-ins each with made-up names at once. Two checks run
    and MOST_WAITING_CHECKS wait; the rest are refused at once (``RATE_LIMITED``, in words),
    not queued for seconds. Ann then signs in from a fresh address: her check takes the place
    of one of the flood's (which is refused) and is the next to run -- her address used no
    checks lately, theirs used three each. Without the bound and the order, all sixty
    waited and Ann's check ran after twenty of theirs."""
    async with running_app(tmp_path, SLOW_REFILL) as app:
        await _register(app, "198.51.100.1", "Ann", "correct horse")
        answers: list[str] = []

        async def sign_in(address: str, name: str, password: str) -> None:
            sock = MemorySocket(address=address)
            app.lobby.nursery.start_soon(app.handle_connection, sock)
            reply = await sock.request(**_login(name, password))
            if reply.HasField("error"):
                answers.append(f"{address} {mpb.ErrorCode.Name(reply.error.code)} "
                               f"{reply.error.message}")
            else:
                answers.append(f"{address} {reply.WhichOneof('body')}")

        with trio.fail_after(DEADLOCK):
            async with _gated(monkeypatch) as gate, trio.open_nursery() as nursery:
                for n in range(3):
                    for a in range(20):
                        nursery.start_soon(sign_in, f"203.0.113.{a}", f"nobody{a}x{n}", "guess")
                for _ in range(HASHING_WORKERS):
                    assert (await gate.started.receive()) == "guess"
                await trio.testing.wait_all_tasks_blocked()
                busy = [a for a in answers if "RATE_LIMITED" in a]
                assert len(busy) == 60 - HASHING_WORKERS - MOST_WAITING_CHECKS, answers
                assert all(BUSY in a and "try again in a few seconds" in a for a in busy)
                assert len(answers) == len(busy)  # (the others wait or run)

                nursery.start_soon(sign_in, "192.0.2.7", "Ann", "correct horse")
                await trio.testing.wait_all_tasks_blocked()
                # Ann's check waits in the place of one of the flood's, refused at once.
                assert len([a for a in answers if "RATE_LIMITED" in a]) == len(busy) + 1
                assert not any(a.startswith("192.0.2.7") for a in answers)
                gate.let_one()  # one running check ends: the next to start is Ann's
                assert (await gate.started.receive()) == "correct horse"
                gate.open()
        assert "192.0.2.7 welcome" in answers
        flood = [a for a in answers if a.startswith("203.0.113.")]
        assert len(flood) == 60
        assert sum("UNAUTHENTICATED" in a for a in flood) == \
            HASHING_WORKERS + MOST_WAITING_CHECKS - 1
        assert not app.session_desk._hashing_by_address  # nothing kept once idle


async def test_a_sign_in_refused_for_a_full_queue_is_no_failed_sign_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sign-in refused because the queue of checks is full was never checked: it counts
    as no failed sign-in with its name, so a user refused so (however often) is not then
    locked out ("too many failed sign-ins", here after one)."""
    async with running_app(tmp_path, replace(SLOW_REFILL, login_failures=1)) as app:
        await _register(app, "198.51.100.1", "Ann", "correct horse")
        waiting: list[mpb.ServerMessage] = []

        async def sign_in(address: str, name: str, password: str) -> mpb.ServerMessage:
            sock = MemorySocket(address=address)
            app.lobby.nursery.start_soon(app.handle_connection, sock)
            return await sock.request(**_login(name, password))

        async def flood(a: int) -> None:
            waiting.append(await sign_in(f"203.0.113.{a}", f"nobody{a}", "guess"))

        with trio.fail_after(DEADLOCK):
            async with _gated(monkeypatch) as gate, trio.open_nursery() as nursery:
                # Fresh addresses, one sign-in each: as fresh as Ann's, and there first.
                for a in range(HASHING_WORKERS + MOST_WAITING_CHECKS):
                    nursery.start_soon(flood, a)
                for _ in range(HASHING_WORKERS):
                    await gate.started.receive()
                await trio.testing.wait_all_tasks_blocked()
                refused = await sign_in("192.0.2.7", "Ann", "correct horse")
                assert refused.error.code == mpb.ERROR_CODE_RATE_LIMITED, refused
                assert BUSY in refused.error.message
                gate.open()
        assert len(waiting) == HASHING_WORKERS + MOST_WAITING_CHECKS
        assert all(r.error.code == mpb.ERROR_CODE_UNAUTHENTICATED for r in waiting)
        again = await sign_in("192.0.2.7", "Ann", "correct horse")
        assert again.HasField("welcome"), again


async def test_register_with_a_taken_name_costs_a_password_check_as_a_sign_in_does(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """``Register`` with a taken name answered ``NAME_TAKEN`` at once and unmetered: a name
    oracle (55 names in 0.3 s). Now each registration takes one of the address's password
    checks first, taken name or not, and past them every one is refused alike, in the
    sign-ins' words -- a taken name and a free one can't be told apart."""
    limits = Limits(password_check_burst=3, password_checks_per_minute=1)
    async with running_app(tmp_path, limits) as app:
        await _register(app, "198.51.100.1", "Ann", "correct horse")
        probe = MemorySocket(address="203.0.113.9")
        app.lobby.nursery.start_soon(app.handle_connection, probe)
        await probe.request(hello=mpb.Hello(protocol_version=1, display_name="p"))
        for name in ("Ann", "ANN", "ann"):  # the address's burst of checks
            taken = await probe.request(register=mpb.Register(name=name, password="x" * 12))
            assert taken.error.code == mpb.ERROR_CODE_NAME_TAKEN, taken
        answers = {name: await probe.request(register=mpb.Register(name=name,
                                                                   password="x" * 12))
                   for name in ("Ann", "Zed")}
        for reply in answers.values():
            assert reply.error.code == mpb.ERROR_CODE_RATE_LIMITED, reply
            assert "too many sign-ins and registrations from your address" in \
                reply.error.message
        assert answers["Ann"].error.message == answers["Zed"].error.message
        # The same meter as sign-ins: the taken names used the address's checks.
        other = MemorySocket(address="203.0.113.9")
        app.lobby.nursery.start_soon(app.handle_connection, other)
        signin = await other.request(**_login("Ann", "correct horse"))
        assert signin.error.code == mpb.ERROR_CODE_RATE_LIMITED
        # A name refused as malformed tells nothing, and costs nothing.
        other_address = MemorySocket(address="203.0.113.10")
        app.lobby.nursery.start_soon(app.handle_connection, other_address)
        await other_address.request(hello=mpb.Hello(protocol_version=1, display_name="q"))
        for _ in range(5):
            bad = await other_address.request(register=mpb.Register(name="a#1",
                                                                    password="x" * 12))
            assert bad.error.code == mpb.ERROR_CODE_INVALID_ARGUMENT
        ok = await other_address.request(register=mpb.Register(name="Zed", password="x" * 12))
        assert ok.HasField("welcome"), ok
