"""The web client over plain HTTP, on the WebSocket server's own port (server.web through
server.transport.ws), over real loopback connections.

A request without ``Upgrade: websocket`` is answered from the client's files loaded at
start-up (200 with its type and security headers, 304 for a current ``If-None-Match``, 404
for any other path) without a WebSocket slot, so page loads neither count against nor are
refused by the per-address WebSocket cap; WebSockets on the same port work as ever. Plain
HTTP requests in flight have a per-address cap of their own (503 past it), a slot held until
the connection's stream is closed.
The HTTP client is the standard library's ``http.client``, run in a worker thread (every
socket operation bounded by its timeout).
"""

from __future__ import annotations

import functools
import http.client
import importlib.resources
import logging
import socket
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import trio

from client_sdk import Client
from server.app import App, Limits
from server.store import Store
from server.transport import ws as ws_transport
from server.transport.ws import AddressSlot, serve_app
from server.web import CONTENT_SECURITY_POLICY, StaticSite
from tests.transport.test_address_cap import (
    HOST,
    WAIT,
    Server,
    WatchedCap,
    assert_503,
    serving,
    wait_count,
)

STATIC = importlib.resources.files("server.web").joinpath("static")
SECURITY = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes


def _fetch(port: int, method: str, target: str, headers: dict[str, str]) -> Answer:
    conn = http.client.HTTPConnection(HOST, port, timeout=WAIT)
    try:
        # http.client sends the target as given: never normalised nor decoded.
        conn.request(method, target, headers={"Host": f"{HOST}:{port}", **headers})
        response = conn.getresponse()
        body = response.read()
        return Answer(response.status, dict(response.getheaders()), body)
    finally:
        conn.close()


async def fetch(port: int, target: str, method: str = "GET", **headers: str) -> Answer:
    """One HTTP request on a new connection (bounded: the client's socket timeout)."""
    return await trio.to_thread.run_sync(_fetch, port, method, target, headers)


def static(name: str) -> bytes:
    return STATIC.joinpath(name).read_bytes()


@pytest.fixture(autouse=True)
def no_alarms(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Nothing in these tests logs at WARNING or above (no "opening handshake failed", no
    traceback)."""
    caplog.set_level(logging.DEBUG)
    yield
    alarming = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert not alarming, [f"{r.name}: {r.getMessage()}" for r in alarming]


def assert_common_headers(answer: Answer) -> None:
    for name, value in SECURITY.items():
        assert answer.headers.get(name) == value, (name, answer.headers)


async def test_the_client_files_are_served_with_their_types(tmp_path: Path) -> None:
    cap = WatchedCap(2)
    async with serving(tmp_path, cap=2, addresses=cap) as srv:
        index = static("index.html")
        for target in ("/", "/index.html", "/?from=bookmark", "/index.html?v=2"):
            answer = await fetch(srv.port, target)
            assert answer.status == 200, target
            assert answer.body == index
            assert answer.headers["Content-Type"] == "text/html; charset=utf-8"
            assert answer.headers["Content-Length"] == str(len(index))
            assert_common_headers(answer)
        for name, content_type in (("app.js", "text/javascript; charset=utf-8"),
                                   ("app.css", "text/css; charset=utf-8")):
            answer = await fetch(srv.port, f"/{name}")
            assert answer.status == 200
            assert answer.body == static(name)
            assert answer.headers["Content-Type"] == content_type
            assert_common_headers(answer)
        assert cap.total() == 0  # plain HTTP never takes a WebSocket slot
        # The page's scripts may connect to its own origin only (CSP 3: 'self' covers the
        # ws: of the same host and port), not to any WebSocket host.
        csp = answer.headers["Content-Security-Policy"]
        assert "connect-src 'self';" in csp
        assert "ws:" not in csp and "wss:" not in csp


async def test_a_current_etag_gets_304(tmp_path: Path) -> None:
    async with serving(tmp_path, cap=2) as srv:
        first = await fetch(srv.port, "/app.js")
        etag = first.headers["ETag"]
        assert etag.startswith('"') and etag.endswith('"')
        again = await fetch(srv.port, "/app.js", **{"If-None-Match": f'"other", W/{etag}'})
        assert (again.status, again.body, again.headers["ETag"]) == (304, b"", etag)
        assert_common_headers(again)
        stale = await fetch(srv.port, "/app.js", **{"If-None-Match": '"other"'})
        assert (stale.status, stale.body) == (200, first.body)
        # Another file has another tag.
        assert (await fetch(srv.port, "/app.css", **{"If-None-Match": etag})).status == 200


@pytest.mark.parametrize("target", [
    "/nope", "/favicon.ico", "/static/index.html", "/../pyproject.toml",
    "/%2e%2e/pyproject.toml", "/..%2fpyproject.toml", "/index.html/", "//index.html",
    "/__init__.py", "/APP.JS", "/app.js%00", "*",
])
async def test_any_other_path_is_404(tmp_path: Path, target: str) -> None:
    async with serving(tmp_path, cap=2) as srv:
        answer = await fetch(srv.port, target)
        assert answer.status == 404
        assert answer.headers["Content-Type"] == "text/plain; charset=utf-8"
        assert answer.body.startswith(b"Not found.")
        assert target.encode() not in answer.body  # nothing from the request is echoed
        assert_common_headers(answer)


async def test_other_methods_are_refused(tmp_path: Path) -> None:
    cap = WatchedCap(2)
    async with serving(tmp_path, cap=2, addresses=cap) as srv:
        for method in ("POST", "PUT", "DELETE", "OPTIONS"):  # (HEAD: test_http_head.py)
            answer = await fetch(srv.port, "/", method)
            assert answer.status == 405, method
            assert answer.headers["Allow"] == "GET, HEAD"
            assert cap.total() == 0


async def test_page_loads_ignore_the_websocket_cap_and_keep_no_slot(tmp_path: Path) -> None:
    cap = WatchedCap(2)
    async with serving(tmp_path, cap=2, addresses=cap) as srv:
        # HTTP first: then a WebSocket still says Hello on the same port.
        assert (await fetch(srv.port, "/")).status == 200
        async with Client.connect(srv.uri, "ann") as ann:
            assert ann.account.name.startswith("ann#")
            assert cap.count(HOST) == 1
        await wait_count(cap, 0)
        # The address holds all its WebSockets: page loads are served all the same.
        held = [await srv.hold(), await srv.hold()]
        assert cap.count(HOST) == 2
        index = static("index.html")
        for i in range(20):
            answer = await fetch(srv.port, ("/", "/app.js", "/app.css", "/nope")[i % 4])
            assert answer.status == (404 if i % 4 == 3 else 200)
            if i % 4 == 0:
                assert answer.body == index
            assert cap.count(HOST) == 2
        # Many at once, too.
        statuses: list[int] = []

        async def load() -> None:
            statuses.append((await fetch(srv.port, "/")).status)

        with trio.fail_after(WAIT):
            async with trio.open_nursery() as nursery:
                for _ in range(10):
                    nursery.start_soon(load)
        assert statuses == [200] * 10
        # And the cap still refuses a third WebSocket.
        assert_503(await srv.refused(), 2)
        assert cap.count(HOST) == 2
        for h in held:
            await srv.close(h)
        await wait_count(cap, 0)
        assert cap.total() == 0
        assert cap.addresses() == 0
        # The slots are back: a WebSocket says Hello after all those HTTP requests.
        async with Client.connect(srv.uri, "bob") as bob:
            assert bob.account.name.startswith("bob#")
        await wait_count(cap, 0)


async def test_raw_requests_get_clean_answers(tmp_path: Path) -> None:
    """HTTP/1.0, a request cut short, a request with a body: answered or dropped, never a
    slot or a log line above INFO."""
    cap = WatchedCap(1)
    async with serving(tmp_path, cap=1, addresses=cap) as srv:
        await srv.hold()

        async def raw(request: bytes) -> bytes:
            stream = await trio.open_tcp_stream(HOST, srv.port)
            received = bytearray()
            try:
                with trio.fail_after(WAIT):
                    await stream.send_all(request)
                    while chunk := await stream.receive_some(65536):
                        received += chunk
            finally:
                await stream.aclose()
            return bytes(received)

        answer = await raw(b"GET /app.css HTTP/1.0\r\n\r\n")
        assert answer.startswith(b"HTTP/1.1 200 OK\r\n")
        assert answer.endswith(b"\r\n\r\n" + static("app.css"))
        assert (await raw(b"GET /../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n")
                ).startswith(b"HTTP/1.1 404 ")
        # A body isn't HTTP websockets reads: the connection is closed unanswered.
        assert await raw(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi") == b""
        assert cap.count(HOST) == 1


#: The body of ``/big.js`` in :func:`serving_http`: far more than the loopback socket buffers
#: hold (the server's send buffer is at most ``tcp_wmem``'s 4 MiB by default; the slow
#: client's receive buffer is set to a few KiB), so its answer can't be sent to a client that
#: doesn't read.
BIG = 24 * 1024 * 1024


class TakeWatchedCap(WatchedCap):
    """A WatchedCap that also wakes its watchers whenever a slot is taken."""

    def __init__(self, limit: int) -> None:
        super().__init__(limit)
        self.took = trio.Event()

    def acquire(self, key: str) -> AddressSlot | None:
        slot = super().acquire(key)
        if slot is not None:
            self.took.set()
            self.took = trio.Event()
        return slot


@dataclass
class HttpServer:
    srv: Server
    #: WebSockets, plain HTTP requests in flight.
    ws_cap: WatchedCap
    http_cap: TakeWatchedCap


@asynccontextmanager
async def serving_http(tmp_path: Path, http_cap: int) -> AsyncIterator[HttpServer]:
    """A server whose plain HTTP cap is ``http_cap`` (WebSocket cap 2), serving the client's
    files and ``/big.js`` (:data:`BIG` bytes)."""
    site = StaticSite.from_bytes([*((name, f.body) for name, f in StaticSite.load().files.items()),
                                  ("big.js", b"/" * BIG)])
    ws_cap, http_requests = WatchedCap(2), TakeWatchedCap(http_cap)
    store = Store(tmp_path / "db.sqlite3")
    try:
        async with trio.open_nursery() as nursery:
            limits = Limits(max_connections_per_address=2, max_http_requests_per_address=http_cap)
            app = App(store, nursery, limits)
            with trio.fail_after(WAIT):
                listener = await nursery.start(functools.partial(
                    serve_app, app, HOST, 0, addresses=ws_cap, http_requests=http_requests,
                    site=site))
            srv = Server(listener.listeners[0].socket.getsockname()[1], nursery, app)
            try:
                yield HttpServer(srv, ws_cap, http_requests)
            finally:
                for held in list(srv.held):
                    await srv.close(held)
                nursery.cancel_scope.cancel()
        app.close()
    finally:
        store.close()


async def slow_get(port: int, target: str = "/big.js") -> trio.SocketStream:
    """A connection that sends a whole ``GET`` and never reads its answer (a receive buffer
    of a few KiB, so the server's sending blocks)."""
    sock = trio.socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    with trio.fail_after(WAIT):
        await sock.connect((HOST, port))
        stream = trio.SocketStream(sock)
        await stream.send_all(f"GET {target} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    return stream


async def wait_held(cap: TakeWatchedCap, expected: int) -> None:
    """Wait (bounded) until the server has taken slots up to ``expected`` held."""
    with trio.fail_after(WAIT):
        while cap.count(HOST) < expected:
            await cap.took.wait()
    assert cap.count(HOST) == expected


async def test_plain_http_requests_in_flight_are_capped_per_address(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Slow readers hold their slots until their answer is sent, the handshake time ends or
    # they leave: make the handshake time outlast this test's steps.
    monkeypatch.setattr(ws_transport, "OPEN_TIMEOUT", 2 * WAIT)
    async with serving_http(tmp_path, http_cap=2) as server:
        srv, ws_cap, http_cap = server.srv, server.ws_cap, server.http_cap
        slow = [await slow_get(srv.port), await slow_get(srv.port)]
        await wait_held(http_cap, 2)
        # A third request from the address is refused, whatever its method and path...
        for method, target in (("GET", "/"), ("GET", "/app.js"), ("GET", "/nope"),
                               ("POST", "/")):
            answer = await fetch(srv.port, target, method)
            assert answer.status == 503, (method, target)
            assert answer.headers["Content-Type"] == "text/plain; charset=utf-8"
            assert answer.body == (b"Too many HTTP requests from your address at once "
                                   b"(at most 2); retry in a moment.\n")
            assert_common_headers(answer)
            assert http_cap.count(HOST) == 2
        # ... and takes no slot of either kind; a WebSocket isn't refused for HTTP.
        assert ws_cap.total() == 0
        async with Client.connect(srv.uri, "ann") as ann:
            assert ann.account.name.startswith("ann#")
            assert ws_cap.count(HOST) == 1
            assert http_cap.count(HOST) == 2
        await wait_count(ws_cap, 0)
        # Both caps full at once: each refuses its own kind only.
        held = [await srv.hold(), await srv.hold()]
        assert_503(await srv.refused(), 2)
        assert (await fetch(srv.port, "/")).status == 503
        assert (ws_cap.count(HOST), http_cap.count(HOST)) == (2, 2)
        for h in held:
            await srv.close(h)
        await wait_count(ws_cap, 0)
        # The slow readers leave without reading: their slots come back.
        for stream in slow:
            await stream.aclose()
        await wait_count(http_cap, 0)
        assert (http_cap.total(), http_cap.addresses()) == (0, 0)
        index = static("index.html")
        for _ in range(3):  # more than the cap, one after another: each gives its slot back
            answer = await fetch(srv.port, "/")
            assert (answer.status, answer.body) == (200, index)
        await wait_count(http_cap, 0)
        assert (await fetch(srv.port, "/", "POST")).status == 405
        await wait_count(http_cap, 0)
        assert (http_cap.total(), ws_cap.total()) == (0, 0)


async def test_a_slow_reader_gives_its_http_slot_back_at_the_handshake_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ws_transport, "OPEN_TIMEOUT", 0.5)
    async with serving_http(tmp_path, http_cap=1) as server:
        srv, http_cap = server.srv, server.http_cap
        stream = await slow_get(srv.port)
        try:
            await wait_held(http_cap, 1)
            assert (await fetch(srv.port, "/app.css")).status == 503
            # Still connected, still not reading: the server drops it after OPEN_TIMEOUT.
            await wait_count(http_cap, 0)
            assert http_cap.addresses() == 0
            assert (await fetch(srv.port, "/app.css")).status == 200
            await wait_count(http_cap, 0)
        finally:
            await stream.aclose()


def test_the_site_serves_only_what_it_loaded() -> None:
    site = StaticSite.from_bytes([("index.html", b"<p>"), ("app.js", b"x"), ("notes.md", b"#"),
                                  ("sub/app.css", b"y")])
    assert sorted(site.routes) == ["/", "/app.js", "/index.html"]
    assert site.response("/notes.md") is None
    assert site.response("/sub/app.css") is None
    page = site.response("/?x=1")
    assert page is not None
    assert (page.status_code, page.body) == (200, b"<p>")
    # Each answer is a new Response (websockets adds its Server header to the one it sends).
    assert site.response("/") is not page
    loaded = StaticSite.load()
    assert {"index.html", "app.js", "app.css"} <= set(loaded.files)
    assert loaded.files["index.html"].body == static("index.html")
