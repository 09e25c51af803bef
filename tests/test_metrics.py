"""server.metrics: the operator's Prometheus figures (``serve --metrics-port``) -- what is
open now and the totals since the start, read from the live server at each scrape -- and
the plain HTTP port that answers them (never a WebSocket)."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import trio
import trio.testing
from prometheus_client.parser import text_string_to_metric_families
from websockets.exceptions import InvalidStatus
from websockets.trio.client import connect

import server
from protocol.v1 import messages_pb2 as mpb
from server import build, incidents
from server.metrics import registry_for
from server.transport.metrics import serve_metrics
from tests.rooms.test_accounts import _connect, _create, _join
from tests.rooms.test_app_memory import running_app

ROOT = Path(__file__).resolve().parents[1]


def _samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Each sample of an exposition, by name and labels."""
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


async def test_a_scrape_reads_what_is_open_now_and_the_totals_since_the_start(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    from prometheus_client import generate_latest

    async with running_app(tmp_path) as app:
        registry = registry_for(app)
        ann, _w = await _connect(app, "ann")
        bob, _w = await _connect(app, "bob")
        await ann.request(register=mpb.Register(name="Annika", password="correct horse"))
        room_id = (await _create(ann)).room.room_id
        await _join(ann, room_id)
        await _join(bob, room_id)
        watcher, _w = await _connect(app, "cy")
        await _join(watcher, room_id, spectator=True)
        app.refusals.note("flood", "10.0.0.9")
        app.activity.take(60.0, app.gauges())  # a status line doesn't reset the totals
        app.activity.actions += 5
        got = _samples(generate_latest(registry).decode())
        assert got[("manawire_connections", ())] == 3
        assert got[("manawire_rooms", ())] == 1
        assert got[("manawire_games_in_play", ())] == 1
        assert got[("manawire_spectators", ())] == 1
        assert got[("manawire_accounts", (("kind", "registered"),))] == 1
        assert got[("manawire_accounts", (("kind", "guest"),))] == 2
        assert got[("manawire_connections_opened_total", ())] == 3
        assert got[("manawire_actions_total", ())] == 5
        assert got[("manawire_refusals_total", (("kind", "flood"),))] == 1
        assert got[("manawire_refusals_total", (("kind", "guest"),))] == 0
        failed = incidents.totals()["recovery"]
        assert got[("manawire_incidents_total", (("kind", "recovery"),))] == failed
        incidents.new_incident("recovery")
        got = _samples(generate_latest(registry).decode())
        assert got[("manawire_incidents_total", (("kind", "recovery"),))] == failed + 1
        assert {labels for name, labels in got if name == "manawire_incidents_total"} == {
            (("kind", kind),) for kind in incidents.KINDS}
        assert got[("manawire_build_info", (("commit", build.commit()),
                                            ("version", server.__version__)))] == 1
        assert got[("manawire_store_commits_total", ())] == app.writer.commits > 0
        assert got[("manawire_store_commit_seconds_total", ())] > 0
        assert got[("manawire_store_writes_waiting", ())] == 0
        assert got[("process_resident_memory_bytes", ())] > 0


async def _get(port: int, request: bytes) -> bytes:
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    async with stream:
        await stream.send_all(request)
        chunks = []
        while chunk := await stream.receive_some(65536):
            chunks.append(chunk)
    return b"".join(chunks)


async def test_the_metrics_port_answers_scrapes_and_probes_and_nothing_else(
        tmp_path: Path) -> None:
    async with running_app(tmp_path) as app:
        server = await app.lobby.nursery.start(serve_metrics, registry_for(app),
                                               "127.0.0.1", 0)
        port = server.listeners[0].socket.getsockname()[1]
        with trio.fail_after(10):
            scrape = await _get(port, b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
            head, _, body = scrape.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 200 ")
            assert b"Content-Type: text/plain; version=" in head
            assert _samples(body.decode())[("manawire_connections", ())] == 0
            health = await _get(port, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            assert health.startswith(b"HTTP/1.1 200 ")
            assert health.partition(b"\r\n\r\n")[2] == b"ok\n"  # (no build given)
            assert (await _get(port, b"GET /other HTTP/1.1\r\nHost: x\r\n\r\n")
                    ).startswith(b"HTTP/1.1 404 ")
            assert (await _get(port, b"POST /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
                    ).startswith(b"HTTP/1.1 405 ")
            with pytest.raises(InvalidStatus) as refused:  # no game is served here
                async with connect(f"ws://127.0.0.1:{port}/metrics"):
                    pass
            assert refused.value.response.status_code == 200  # the figures, not a socket


def _on_disk(path: Path) -> tuple[int, int]:
    """The sizes of the store's database file and write-ahead log."""
    return path.stat().st_size, Path(f"{path}-wal").stat().st_size


async def test_the_store_size_is_its_database_and_write_ahead_log_on_disk(
        tmp_path: Path) -> None:
    """An operator's review: nothing said how big the store grows (it keeps every finished
    game: 169 MB after a soak). Read with a stat() of each file at each scrape."""
    from prometheus_client import generate_latest

    async with running_app(tmp_path) as app:
        path = app.writer.store.path
        assert path.parent == tmp_path
        registry = registry_for(app)
        got = _samples(generate_latest(registry).decode())
        database = got[("manawire_store_size_bytes", (("file", "database"),))]
        wal = got[("manawire_store_size_bytes", (("file", "wal"),))]
        assert (database, wal) == _on_disk(path) and database > 0
        ann, _w = await _connect(app, "ann")  # (an account and a session written)
        await ann.request(register=mpb.Register(name="Annika", password="correct horse"))
        got = _samples(generate_latest(registry).decode())
        # (read again at each scrape)
        assert (got[("manawire_store_size_bytes", (("file", "database"),))],
                got[("manawire_store_size_bytes", (("file", "wal"),))]) == _on_disk(path)


@dataclass
class Serving:
    """A ``manawire serve --metrics-port 0`` running: its standard output and error (files)."""

    out: Path
    err: Path


@pytest.fixture(scope="module")
def serving(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Serving]:
    """One server for the tests below, which only read from it (a start is seconds of CPU):
    up once it has printed where its metrics are."""
    tmp = tmp_path_factory.mktemp("serving")
    out, err = tmp / "out", tmp / "err"
    with out.open("wb") as sink, err.open("wb") as errors:
        proc = subprocess.Popen([sys.executable, "-m", "server.cli", "serve", "--port", "0",
                                 "--metrics-port", "0", "--data-dir", str(tmp / "data")],
                                cwd=ROOT, stdout=sink, stderr=errors)
    try:
        deadline = time.monotonic() + 60
        while "manawire metrics on " not in out.read_text():
            assert proc.poll() is None and time.monotonic() < deadline, out.read_text()
            time.sleep(0.05)
        yield Serving(out, err)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_serve_says_its_build_in_its_log_metrics_and_health(serving: Serving) -> None:
    """The build (``server.build``: version and commit) in the start's log line, in
    ``manawire_build_info``'s labels and in /healthz's ``ok`` line."""
    found = re.search(r"manawire metrics on http://(127\.0\.0\.1:\d+)/", serving.out.read_text())
    assert found is not None, serving.out.read_text()
    with urllib.request.urlopen(f"http://{found.group(1)}/healthz", timeout=10) as got:
        health = got.read().decode()
    with urllib.request.urlopen(f"http://{found.group(1)}/metrics", timeout=10) as got:
        metrics = _samples(got.read().decode())
    # (the server's own: this tree's commit may have moved since it started)
    said = re.fullmatch(r"ok manawire (\S+) \(commit ([0-9a-f]{12}(\+dirty)?|unknown)\)\n",
                        health)
    assert said is not None, health
    version, commit = said.group(1), said.group(2)
    assert version == server.__version__
    assert metrics[("manawire_build_info", (("commit", commit), ("version", version)))] == 1
    assert f" INFO manawire {version} (commit {commit}) starting (data in " in \
        serving.err.read_text()


def test_serve_prints_where_its_metrics_are_and_answers_there(serving: Serving) -> None:
    found = re.search(r"manawire metrics on (http://127\.0\.0\.1:\d+/metrics)",
                      serving.out.read_text())
    assert found is not None, serving.out.read_text()
    with urllib.request.urlopen(found.group(1), timeout=10) as answer:
        assert answer.status == 200
        assert ("manawire_rooms", ()) in _samples(answer.read().decode())


async def test_rooms_stopped_by_a_full_disk_show_in_the_metrics_and_the_status_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        autojump_clock: trio.testing.MockClock) -> None:
    """An operator's review: a room stopped because the store couldn't be written left the
    open rooms, and nothing counted it (nor the status line)."""
    from prometheus_client import generate_latest

    from tests.rooms.test_stopped_rooms_come_back import _seated, _stop_the_room

    async with running_app(tmp_path) as app:
        registry = registry_for(app)
        socks, _welcomes, room_id = await _seated(app)
        assert _samples(generate_latest(registry).decode())[
            ("manawire_rooms_stopped", ())] == 0
        await _stop_the_room(app, socks, room_id, monkeypatch)
        got = _samples(generate_latest(registry).decode())
        assert got[("manawire_rooms_stopped", ())] == 1
        assert got[("manawire_rooms", ())] == 0
        assert ", 1 room stopped (the store can't be written); last 60 s:" in \
            app.activity.take(60.0, app.gauges())


async def test_failing_checkpoints_show_in_the_metrics(tmp_path: Path) -> None:
    """An operator's review: checkpoints failing on a full disk were only in the log while
    the writes still fit in the write-ahead log (which then grows)."""
    import sqlite3

    from prometheus_client import generate_latest

    async with running_app(tmp_path) as app:
        registry = registry_for(app)
        got = _samples(generate_latest(registry).decode())
        assert got[("manawire_store_checkpoint_failures_total", ())] == 0
        assert got[("manawire_store_checkpoints_ok", ())] == 1
        assert ("manawire_store_checkpoints_total", ()) in got
        app.writer.checkpoint_state.failed(sqlite3.OperationalError("database or disk is "
                                                                    "full"))
        got = _samples(generate_latest(registry).decode())
        assert got[("manawire_store_checkpoint_failures_total", ())] == 1
        assert got[("manawire_store_checkpoints_ok", ())] == 0
        app.writer.checkpoint_state.settle_seconds = 0.0
        app.writer.checkpoint_state.succeeded()
        assert _samples(generate_latest(registry).decode())[
            ("manawire_store_checkpoints_ok", ())] == 1
