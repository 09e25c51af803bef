"""``HEAD`` is answered as ``GET`` without the body (RFC 9110, 9.3.2) on every plain HTTP
path the server serves: the metrics port's ``/healthz`` and ``/metrics`` -- monitoring tools
probe with HEAD, and got 405 -- and the web client's files on the game port. Other methods
are still 405, saying which are allowed."""

from __future__ import annotations

from pathlib import Path

import trio

from server.metrics import registry_for
from server.transport.metrics import serve_metrics
from tests.rooms.test_app_memory import running_app
from tests.test_metrics import _get
from tests.transport.test_address_cap import serving
from tests.transport.test_http_static import fetch


def _split(raw: bytes) -> tuple[str, dict[str, str], bytes]:
    head, _, body = raw.partition(b"\r\n\r\n")
    status, *lines = head.decode().split("\r\n")
    return status, dict(line.split(": ", 1) for line in lines), body


async def test_head_on_the_metrics_port_answers_as_get_without_a_body(tmp_path: Path) -> None:
    async with running_app(tmp_path) as app:
        server = await app.lobby.nursery.start(serve_metrics, registry_for(app),
                                               "127.0.0.1", 0)
        port = server.listeners[0].socket.getsockname()[1]
        with trio.fail_after(10):
            for path in ("/healthz", "/metrics", "/other"):
                got = _split(await _get(port, f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n"
                                        .encode()))
                head = _split(await _get(port, f"HEAD {path} HTTP/1.1\r\nHost: x\r\n\r\n"
                                         .encode()))
                assert head[0] == got[0] and head[2] == b"", path
                assert head[1]["Content-Type"] == got[1]["Content-Type"]
                if path != "/metrics":  # (the figures change between two scrapes)
                    assert head[1]["Content-Length"] == got[1]["Content-Length"] == \
                        str(len(got[2]))
            assert _split(await _get(port, b"HEAD /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                          )[0].startswith("HTTP/1.1 200 ")
            refused = _split(await _get(port, b"POST /healthz HTTP/1.1\r\nHost: x\r\n\r\n"))
            assert refused[0].startswith("HTTP/1.1 405 ")
            assert refused[1]["Allow"] == "GET, HEAD"


async def test_head_on_the_game_port_answers_as_get_without_a_body(tmp_path: Path) -> None:
    async with serving(tmp_path, cap=2) as srv:
        for target in ("/", "/app.js", "/nope"):
            got = await fetch(srv.port, target)
            head = await fetch(srv.port, target, "HEAD")
            assert head.status == got.status and head.body == b"", target
            assert head.headers == {**got.headers, "Date": head.headers["Date"]}
            assert head.headers["Content-Length"] == str(len(got.body))
