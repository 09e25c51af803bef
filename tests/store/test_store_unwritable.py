"""A store that can't be written (a full disk, a disk I/O error, a read-only file system):
refused in words, said once in the log, shown by /healthz and the metrics, nothing stored
lost, and everything works again by itself once the store can be written
(server/store/health.py; docs/operating.md, "Restarts and crashes")."""

from __future__ import annotations

import contextlib
import logging
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest
import trio
import trio.testing
from prometheus_client import generate_latest
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as sync_connect

from protocol.v1 import game_pb2 as game_pb
from protocol.v1 import messages_pb2 as mpb
from server import incidents
from server.metrics import registry_for
from server.store import Store
from server.store.health import Condition, StoreUnwritableError, cant_write
from server.store.records import AbortGame, CreateGame, StoreOp
from server.store.writer import StoreWriter
from server.transport.metrics import answer
from tests.rooms.test_app_memory import MemorySocket, _two_players, running_app

ROOT = Path(__file__).resolve().parents[2]
FULL = "database or disk is full"


def _full(_ops: object) -> None:
    raise sqlite3.OperationalError(FULL)


def _game(room_id: str) -> CreateGame:
    return CreateGame(room_id, "t", b"seed", (("Ann", "naya-pets", "s1"),
                                              ("Bob", "naya-pets", "s2")), 60.0)


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize(("exc", "expected"), [
    (sqlite3.OperationalError(FULL), True),
    (sqlite3.OperationalError("disk I/O error"), True),
    (sqlite3.OperationalError("attempt to write a readonly database"), True),
    (StoreUnwritableError(FULL), True),
    (sqlite3.OperationalError("no such table: games"), False),
    (sqlite3.IntegrityError("UNIQUE constraint failed: games.room_id"), False),
    (ValueError(FULL), False),
])
def test_what_counts_as_a_store_that_cant_be_written(exc: BaseException,
                                                     expected: bool) -> None:
    assert cant_write(exc) is expected


def test_a_condition_is_said_once_reminded_and_said_to_end_once_writes_settle(
        caplog: pytest.LogCaptureFixture) -> None:
    clock = _Clock()
    writes = Condition("writes", "writing works", remind_seconds=60, settle_seconds=10,
                       clock=clock)
    with caplog.at_level(logging.DEBUG, logger="manawire.store"):
        for _ in range(50):  # a connection a second would each have logged a traceback
            writes.failed(sqlite3.OperationalError(FULL))
            clock.now += 1
        assert writes.down and writes.failures == 50
        lines = [r.getMessage() for r in caplog.records]
        assert len(lines) == 1 and lines[0].startswith(f"store: writes fail: {FULL}")
        assert writes.describe() == f"store writes fail for 50 s: {FULL}"
        clock.now += 10
        writes.failed(sqlite3.OperationalError(FULL))  # 60 s after the first line
        assert len(caplog.records) == 2
        assert "still fail" in caplog.records[1].getMessage()
        assert "51 failed meanwhile" in caplog.records[1].getMessage()
        writes.failed(sqlite3.OperationalError("disk I/O error"))  # another condition
        assert len(caplog.records) == 3 and "disk I/O error" in caplog.records[2].getMessage()
        clock.now += 5
        writes.succeeded()  # a small write that fit, 5 s after the last failure: still down
        assert writes.down and len(caplog.records) == 3
        clock.now += 5
        writes.succeeded()
        assert not writes.down and writes.describe() == ""
        assert len(caplog.records) == 4
        assert caplog.records[3].getMessage().startswith("store: writing works again")
        writes.succeeded()
        assert len(caplog.records) == 4


@pytest.mark.parametrize("inline", [True, False])
async def test_a_write_the_store_refuses_raises_store_unwritable_and_loses_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, inline: bool) -> None:
    store = Store(tmp_path / "db.sqlite3")
    writer = StoreWriter(store, inline=inline, on_loop=False)
    try:
        await writer.write([_game("r1")])
        monkeypatch.setattr(store, "apply", _full)
        with pytest.raises(StoreUnwritableError) as refused:
            await writer.write([_game("r2")])
        assert refused.value.reason == FULL
        assert isinstance(refused.value, sqlite3.OperationalError)  # (old handlers catch it)
        assert not writer.writable and writer.writes.failures == 1
        monkeypatch.undo()
        writer.writes.settle_seconds = 0.0
        await writer.write([_game("r2")])
        assert writer.writable
        assert [g.room_id for g in store.unfinished_games()] == ["r1", "r2"]
    finally:
        writer.close()
        store.close()


async def test_a_write_that_breaks_a_rule_is_no_full_disk(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite3")
    writer = StoreWriter(store, inline=True)
    try:
        await writer.write([_game("r1")])
        with pytest.raises(sqlite3.IntegrityError):
            await writer.write([_game("r1")])
        assert writer.writable and writer.writes.failures == 0
    finally:
        writer.close()
        store.close()


async def test_the_writer_probes_a_store_that_cant_be_written_and_sees_it_work_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        autojump_clock: trio.testing.MockClock) -> None:
    """Nobody needs to write for the server to see writing work again: /healthz turns ok."""
    store = Store(tmp_path / "db.sqlite3")
    writer = StoreWriter(store, inline=True)
    writer.writes.settle_seconds = 0.0
    probes: list[int] = []

    def probe() -> None:
        probes.append(1)
        if len(probes) < 3:
            raise sqlite3.OperationalError(FULL)

    monkeypatch.setattr(store, "probe", probe)
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(writer.watch_health, 1.0)
            await trio.sleep(10)
            assert probes == []  # nothing failed: no probe
            writer.writes.failed(sqlite3.OperationalError(FULL))
            await trio.sleep(10)
            assert len(probes) == 3 and writer.writable
            nursery.cancel_scope.cancel()
    finally:
        writer.close()
        store.close()


async def test_the_writer_calls_its_hooks_once_each_time_writing_works_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        autojump_clock: trio.testing.MockClock) -> None:
    """Not while writes work, nor while they fail: once when they work again (whoever's
    write it was), on the event loop, from the health watch; a hook that raises is logged
    and the watch goes on."""
    store = Store(tmp_path / "db.sqlite3")
    writer = StoreWriter(store, inline=True)
    writer.writes.settle_seconds = 0.0
    called: list[float] = []

    def broken() -> None:
        raise RuntimeError("a broken hook")

    writer.when_writable(broken)
    writer.when_writable(lambda: called.append(trio.current_time()))
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(writer.watch_health, 1.0)
            await writer.write([_game("r1")])
            await trio.sleep(10)
            assert called == []  # (writes work: nothing came back)
            monkeypatch.setattr(store, "apply", _full)
            monkeypatch.setattr(store, "probe", lambda: _full(()))
            with pytest.raises(StoreUnwritableError):
                await writer.write([_game("r2")])
            await trio.sleep(10)
            assert called == [] and not writer.writable
            monkeypatch.undo()
            await writer.write([_game("r2")])  # a room's write works: not the probe's
            await trio.sleep(10)
            assert len(called) == 1 and writer.writable
            writer.writes.failed(sqlite3.OperationalError(FULL))  # once more, briefly
            writer.writes.succeeded()
            await trio.sleep(10)
            assert len(called) == 2
            nursery.cancel_scope.cancel()
    finally:
        writer.close()
        store.close()


def test_the_probe_writes_and_changes_nothing(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite3")
    try:
        store.apply([_game("r1")])
        store.probe()
        assert [g.room_id for g in store.unfinished_games()] == ["r1"]
        wal = tmp_path / "db.sqlite3-wal"
        size = wal.stat().st_size
        store.probe()
        assert wal.stat().st_size > size  # (a write: a frame more in the log)
    finally:
        store.close()


async def test_a_failed_rooms_end_is_recorded_once_writes_work_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        autojump_clock: trio.testing.MockClock, caplog: pytest.LogCaptureFixture) -> None:
    store = Store(tmp_path / "db.sqlite3")
    writer = StoreWriter(store, inline=True)
    real = store.apply
    tries: list[Sequence[StoreOp]] = []

    def flaky(ops: Sequence[StoreOp]) -> None:
        tries.append(ops)
        if len(tries) < 4:
            raise sqlite3.OperationalError(FULL)
        real(ops)

    try:
        store.apply([_game("r1")])
        monkeypatch.setattr(store, "apply", flaky)
        with caplog.at_level(logging.WARNING, logger="manawire.store"):
            await writer.write_when_possible([AbortGame("r1", "incident x")], "room r1's end",
                                             retry_seconds=5)
        assert len(tries) == 4
        assert store.unfinished_games() == []  # aborted: never reloaded
        said = [r.getMessage() for r in caplog.records]
        assert sum("can't be recorded now" in line for line in said) == 1
        assert "store: room r1's end is recorded now" in said
    finally:
        writer.close()
        store.close()


async def test_a_hello_the_store_cant_record_is_refused_in_words_not_an_incident(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        autojump_clock: trio.testing.MockClock) -> None:
    async with running_app(tmp_path) as app:
        before = incidents.totals()["connection"]
        registry = registry_for(app)
        monkeypatch.setattr(app.writer.store, "apply", _full)
        sock = MemorySocket()
        app.lobby.nursery.start_soon(app.handle_connection, sock)
        reply = await sock.request(hello=mpb.Hello(protocol_version=1, display_name="Ann"))
        assert reply.error.code == mpb.ERROR_CODE_INTERNAL and not reply.error.incident_id
        assert reply.error.message == (f"the server can't save anything now ({FULL}): "
                                       f"nothing was done; try again later")
        await trio.sleep(1)
        assert sock.closed == (1013, reply.error.message)
        assert incidents.totals()["connection"] == before
        assert app.refusals.totals["slow"] == 0  # (1013 is no client too slow here)
        scraped = generate_latest(registry).decode()
        assert "manawire_store_writable 0.0" in scraped
        failed = re.search(r"^manawire_store_failed_writes_total (\S+)$", scraped, re.M)
        assert failed is not None and float(failed.group(1)) >= 1  # (and the session's drop)
        why = app.writer.writes.describe()
        health = answer(registry, Request("/healthz", Headers()), app.writer.writes.describe)
        assert health.status_code == 503 and health.body == f"{why}\n".encode()
        assert why.startswith("store writes fail for ") and why.endswith(FULL)
        monkeypatch.undo()
        app.writer.writes.settle_seconds = 0.0  # (real seconds: the test's clock jumps)
        await trio.sleep(30)  # the probes see it work again
        assert app.writer.writable
        assert answer(registry, Request("/healthz", Headers()),
                      app.writer.writes.describe).status_code == 200
        again = MemorySocket()
        app.lobby.nursery.start_soon(app.handle_connection, again)
        assert (await again.request(hello=mpb.Hello(protocol_version=1, display_name="Ann"))
                ).HasField("welcome")


async def test_a_request_of_a_session_the_store_cant_record_is_refused_and_it_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        autojump_clock: trio.testing.MockClock) -> None:
    """RevokeTokens refused "nothing was done": nothing was -- the account token and the
    resume token still work (they were void in memory, and valid again after a restart)."""
    async with running_app(tmp_path) as app:
        sock = MemorySocket()
        app.lobby.nursery.start_soon(app.handle_connection, sock)
        welcome = (await sock.request(hello=mpb.Hello(protocol_version=1, display_name="Ann"))
                   ).welcome
        monkeypatch.setattr(app.writer.store, "apply", _full)
        reply = await sock.request(revoke_tokens=mpb.RevokeTokens())
        assert reply.error.code == mpb.ERROR_CODE_INTERNAL
        assert "can't save anything now" in reply.error.message
        monkeypatch.undo()
        assert sock.closed is None
        assert (await sock.request(list_rooms=mpb.ListRooms())).HasField("room_list")
        again = MemorySocket()
        app.lobby.nursery.start_soon(app.handle_connection, again)
        resumed = await again.request(resume=mpb.Resume(
            protocol_version=1, resume_token=welcome.resume_token))
        assert resumed.HasField("resumed"), resumed
        other = MemorySocket()
        app.lobby.nursery.start_soon(app.handle_connection, other)
        hello = await other.request(hello=mpb.Hello(
            protocol_version=1, account_token=welcome.account_token))
        assert hello.welcome.account.account_id == welcome.account.account_id, hello


async def test_a_take_over_the_store_cant_record_leaves_the_session_where_it_was(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        autojump_clock: trio.testing.MockClock) -> None:
    async with running_app(tmp_path) as app:
        first = MemorySocket()
        app.lobby.nursery.start_soon(app.handle_connection, first)
        welcome = (await first.request(hello=mpb.Hello(protocol_version=1, display_name="A"))
                   ).welcome
        monkeypatch.setattr(app.writer.store, "apply", _full)
        second = MemorySocket()
        app.lobby.nursery.start_soon(app.handle_connection, second)
        with trio.fail_after(30):
            refused = await second.request(hello=mpb.Hello(
                protocol_version=1, account_token=welcome.account_token))
        assert refused.error.code == mpb.ERROR_CODE_INTERNAL
        await trio.sleep(2)
        assert second.closed is not None and second.closed[0] == 1013
        assert first.closed is None  # not replaced
        monkeypatch.undo()
        third = MemorySocket()
        app.lobby.nursery.start_soon(app.handle_connection, third)
        with trio.fail_after(30):
            resumed = await third.request(resume=mpb.Resume(
                protocol_version=1, resume_token=welcome.resume_token))
        assert resumed.HasField("resumed"), resumed


async def test_a_registration_the_store_cant_record_registers_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with running_app(tmp_path) as app:
        ann = MemorySocket()
        app.lobby.nursery.start_soon(app.handle_connection, ann)
        guest = (await ann.request(hello=mpb.Hello(protocol_version=1, display_name="Ann"))
                 ).welcome.account
        monkeypatch.setattr(app.writer.store, "apply", _full)
        with trio.fail_after(30):
            reply = await ann.request(register=mpb.Register(name="Annika",
                                                            password="correct horse"))
        assert reply.error.code == mpb.ERROR_CODE_INTERNAL, reply
        account = app.accounts.by_id[guest.account_id]
        assert (account.name, account.registered) == (guest.name, False)
        assert app.accounts.by_name("Annika") is None and app.accounts.registered_count == 0
        monkeypatch.undo()
        with trio.fail_after(30):
            reply = await ann.request(register=mpb.Register(name="Annika",
                                                            password="correct horse"))
        assert reply.welcome.account.registered and reply.welcome.account.name == "Annika"


async def test_a_seat_taken_while_the_store_cant_record_the_place_is_kept_not_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        autojump_clock: trio.testing.MockClock) -> None:
    """The room took the player in and said so: the request isn't answered "nothing was
    done" after that; only the session's place isn't stored."""
    async with running_app(tmp_path) as app:
        sock = MemorySocket()
        app.lobby.nursery.start_soon(app.handle_connection, sock)
        await sock.request(hello=mpb.Hello(protocol_version=1, display_name="Ann"))
        monkeypatch.setattr(app.writer.store, "apply", _full)
        room = (await sock.request(create_room=mpb.CreateRoom(name="t"))).room_created.room
        joined = await sock.request(join_room=mpb.JoinRoom(room_id=room.room_id,
                                                           role=mpb.ROLE_PLAYER))
        assert joined.HasField("joined")
        await trio.sleep(1)
        while True:
            try:
                later = mpb.ServerMessage.FromString(sock.from_server.receive_nowait())
            except trio.WouldBlock:
                break
            assert not later.HasField("error"), later
        assert app.lobby.hosts[room.room_id].room.seated(
            next(iter(app.session_desk.sessions)))
        assert not app.writer.writable


async def test_a_room_whose_action_cant_be_stored_stops_and_comes_back_after_a_restart(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        autojump_clock: trio.testing.MockClock) -> None:
    """Not "this room failed (incident ...)" with a game marked aborted that the full disk
    couldn't record (it came back "in play" after a restart though its players were told
    it failed): the room stops before the action takes effect, its players are told why,
    and the game as last stored is reloaded at the next start, as the players were told."""
    async with running_app(tmp_path) as app:
        before = incidents.totals()["room"]
        a, b, room_id = await _two_players(app)
        monkeypatch.setattr(app.writer.store, "apply", _full)
        await a.to_server.send(mpb.ClientMessage(
            request_id=7, concede=mpb.ConcedeGame()).SerializeToString())
        told: list[mpb.ServerMessage] = []
        with trio.fail_after(60):
            while not any(m.HasField("room_closed") for m in told):
                told.append(mpb.ServerMessage.FromString(await b.from_server.receive()))
        errors = [m.error for m in told if m.HasField("error")]
        assert len(errors) == 1 and errors[0].code == mpb.ERROR_CODE_INTERNAL
        assert errors[0].message.startswith(f"the server can't save anything now ({FULL}), "
                                            f"so this room stopped before the last action "
                                            f"took effect")
        assert not errors[0].incident_id
        closed = next(m.room_closed for m in told if m.HasField("room_closed"))
        assert closed.reason == \
            f"the server can't save games now ({FULL}); the game comes back once it can"
        assert not any(m.HasField("game_over") for m in told if m.HasField("delta"))
        assert room_id not in app.lobby.hosts
        assert incidents.totals()["room"] == before
        monkeypatch.undo()
        assert [g.room_id for g in app.store.unfinished_games()] == [room_id]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A 3 MB tmpfs (root only; skipped where mounting isn't allowed)."""
    where = tmp_path / "tiny"
    where.mkdir()
    if shutil.which("mount") is None or os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(where)],
                          capture_output=True, check=False)
    if made.returncode:
        pytest.skip(f"can't mount a tmpfs here: {made.stderr.decode().strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def _health(port: int) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as got:
            return got.status, got.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def _hello(url: str) -> mpb.ServerMessage:
    with sync_connect(url, open_timeout=10) as ws:
        ws.send(mpb.ClientMessage(request_id=1, hello=mpb.Hello(
            protocol_version=1, display_name="Ann")).SerializeToString())
        data = ws.recv(timeout=10)
        assert isinstance(data, bytes)
        reply = mpb.ServerMessage.FromString(data)
        if reply.HasField("error"):
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        return reply


def _read(ws: ClientConnection, timeout: float) -> list[mpb.ServerMessage]:
    """What ``ws`` is sent until nothing comes for ``timeout`` seconds."""
    told = []
    try:
        while True:
            data = ws.recv(timeout=timeout)
            assert isinstance(data, bytes)
            told.append(mpb.ServerMessage.FromString(data))
    except TimeoutError:
        return told


def _ask(ws: ClientConnection, rid: int, **body: object) -> mpb.ServerMessage:
    ws.send(mpb.ClientMessage(request_id=rid, **body).SerializeToString())  # type: ignore[arg-type]
    while True:
        data = ws.recv(timeout=10)
        assert isinstance(data, bytes)
        if (reply := mpb.ServerMessage.FromString(data)).request_id == rid:
            return reply


class _Player:
    """A seated player's connection, what it was sent, and its view (state id and hash)."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.told: list[mpb.ServerMessage] = []
        self.view: tuple[int, bytes] = (0, b"")
        self.decision: game_pb.Decision | None = None

    def read(self, timeout: float = 0.2) -> list[mpb.ServerMessage]:
        told = _read(self.ws, timeout)
        for msg in told:
            if msg.HasField("snapshot"):
                self.view = (msg.snapshot.state_id, msg.snapshot.view_hash)
            elif msg.HasField("delta"):
                self.view = (msg.delta.state_id, msg.delta.view_hash)
            elif msg.HasField("decision"):
                self.decision = msg.decision
        self.told.extend(told)
        return told

    def act(self) -> bool:
        """Answer its pending decision (the first option), if it has one."""
        decision, self.decision = self.decision, None
        if decision is None:
            return False
        self.ws.send(mpb.ClientMessage(act=mpb.Act(prompt_id=decision.prompt_id))
                     .SerializeToString())
        return True


def _seat_two(url: str, stack: contextlib.ExitStack) -> tuple[list[_Player], str]:
    players = [_Player(stack.enter_context(sync_connect(url, open_timeout=10)))
               for _ in range(2)]
    for player, name in zip(players, ("Ann", "Bob"), strict=True):
        assert _ask(player.ws, 1, hello=mpb.Hello(protocol_version=1, display_name=name)
                    ).HasField("welcome")
    room_id = _ask(players[0].ws, 2, create_room=mpb.CreateRoom(name="t")
                   ).room_created.room.room_id
    for player in players:
        assert _ask(player.ws, 3, join_room=mpb.JoinRoom(room_id=room_id,
                                                         role=mpb.ROLE_PLAYER)
                    ).HasField("joined")
    _await(players, lambda: all(any(m.HasField("snapshot") for m in p.told) for p in players)
           and any(p.decision is not None for p in players))
    return players, room_id


def _await(players: list[_Player], done: Callable[[], bool], seconds: float = 30.0) -> None:
    """Read what the players are sent until ``done()``, or ``seconds`` have passed (the
    caller asserts what it needs). Each read stops as soon as nothing more is there: the
    players were read until nothing came for 0.2 s after each action (0.4 s an action;
    36 s of the test's 57 went by so)."""
    deadline = time.monotonic() + seconds
    while not done() and time.monotonic() < deadline:
        for player in players:
            player.read(0.01)


def _play(players: list[_Player], until: Callable[[], bool], actions: int) -> None:
    """The deciding player answers, again and again, until ``until()`` (at most
    ``actions`` times): after each answer, what the players are sent is read until one of
    them has a decision to make, or ``until()``."""
    for _ in range(actions):
        if until():
            return
        any(player.act() for player in players)
        _await(players, lambda: until() or any(p.decision is not None for p in players))
    assert until()


def test_a_server_whose_disk_fills_refuses_says_so_and_recovers_by_itself(
        tiny_disk: Path) -> None:
    """Its room, stopped when its action couldn't be stored, comes back by itself with its
    players seated again, as last stored, and play goes on."""
    port, metrics = _free_port(), _free_port()
    log = tiny_disk.parent / "serve.log"
    with log.open("wb") as sink:
        proc = subprocess.Popen([sys.executable, "-m", "server.cli", "serve", "--port",
                                 str(port), "--metrics-port", str(metrics), "--data-dir",
                                 str(tiny_disk / "data")], cwd=ROOT, stdout=sink,
                                stderr=subprocess.STDOUT)
    url = f"ws://127.0.0.1:{port}"
    stack = contextlib.ExitStack()
    try:
        deadline = time.monotonic() + 60
        while "manawire metrics on" not in log.read_text():
            assert proc.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        assert _hello(url).HasField("welcome")
        players, room_id = _seat_two(url, stack)
        _play(players, lambda: players[0].view[0] > 2, 10)
        status, ok = _health(metrics)
        assert status == 200 and ok.startswith("ok manawire "), ok  # (and its build)
        filler = tiny_disk / "filler"
        # (unbuffered: a write the disk takes part of leaves nothing for the close to fail on)
        with filler.open("wb", buffering=0) as f, pytest.raises(OSError):  # to the brim
            while True:
                f.write(b"\0" * 65536)
        refusals = [_hello(url) for _ in range(20)]
        refused = [r for r in refusals if r.HasField("error")]
        assert refused, refusals  # (a small write may still fit)
        assert all(r.error.code == mpb.ERROR_CODE_INTERNAL and
                   r.error.message == f"the server can't save anything now ({FULL}): "
                                      f"nothing was done; try again later" for r in refused)
        # (An action may still fit, as a Hello did: they go on until one doesn't.)
        _play(players, lambda: all(any(m.HasField("room_closed") for m in p.told)
                                   for p in players), 200)
        stored = [player.view for player in players]  # (what they were last sent)
        status, why = _health(metrics)
        assert status == 503 and why.startswith("store writes fail for ") and FULL in why
        filler.unlink()
        deadline = time.monotonic() + 60
        while _health(metrics)[0] != 200:  # the probes see it work again by themselves
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.5)
        assert _hello(url).HasField("welcome")
        for seat, player in enumerate(players):  # the room is back, its players seated
            player.told = []
            deadline = time.monotonic() + 10
            while not any(m.HasField("snapshot") for m in player.told):
                assert time.monotonic() < deadline, (player.told, log.read_text())
                player.read(0.05)
            joined = next(m for m in player.told if m.HasField("joined"))
            assert joined.request_id == 0 and joined.joined.seat == seat
            assert joined.joined.room.room_id == room_id
            assert player.view == stored[seat]
        _play(players, lambda: players[0].view[0] > stored[0][0], 10)  # and play on
        text = log.read_text()
        # Each spell of failing writes is said once, and its end once. A write may fit in
        # pages SQLite freed while the disk was full (under load one did, 11 s in: "writing
        # works again", then "writes fail" anew): a spell more, never a line per write.
        spells = text.count(f"store: writes fail: {FULL}")
        assert 1 <= spells == text.count("store: writing works again") <= 3, text
        assert f"room {room_id} stopped" in text and f"room {room_id} is back" in text, text
        assert "Traceback" not in text and "incident" not in text, text
    finally:
        stack.close()
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    # Started again on the full disk: said so, not "a damaged or foreign file".
    with filler.open("wb", buffering=0) as f, pytest.raises(OSError):
        while True:
            f.write(b"\0" * 65536)
    again = subprocess.run([sys.executable, "-m", "server.cli", "serve", "--port", "0",
                            "--data-dir", str(tiny_disk / "data")], cwd=ROOT,
                           capture_output=True, text=True, timeout=60, check=False)
    assert again.returncode == 1, again.stderr
    assert "manawire.sqlite3 can't be written: " in again.stderr
    assert "is its disk full, or its file system read-only?" in again.stderr
    assert "damaged" not in again.stderr and "Traceback" not in again.stderr
