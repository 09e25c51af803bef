"""The metrics port (``manawire serve --metrics-port P``; docs/limits.md, "Monitoring"): plain
HTTP answered by websockets' own HTTP handling, as the web client's files are, on the
server's event loop. ``GET /metrics`` answers the Prometheus text format of a registry
(:mod:`server.metrics`); ``GET /healthz`` answers ``ok`` (and the build, ``ok manawire
0.1.0 (commit 75de63e9a6b9)``) while the server runs and can write its store, else 503 with
a line saying why (a liveness probe); any other path is 404. ``HEAD`` answers as ``GET``
does without the body (its status and headers, ``Content-Length`` the body's: monitoring
tools probe with it), any other method 405. Every request is answered, so no
WebSocket is ever opened here."""

from __future__ import annotations

import dataclasses
import email.utils
import http
from collections.abc import Callable

import trio
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from websockets.datastructures import Headers
from websockets.http11 import Request, Response
from websockets.trio.server import Server, ServerConnection, serve

#: Where the figures are read (anything else is 404).
METRICS_PATH = "/metrics"
HEALTH_PATH = "/healthz"


def _response(status: http.HTTPStatus, body: bytes, content_type: str) -> Response:
    headers = Headers()
    headers["Date"] = email.utils.formatdate(usegmt=True)
    headers["Connection"] = "close"
    headers["Content-Type"] = content_type
    headers["Content-Length"] = str(len(body))
    headers["Cache-Control"] = "no-store"
    return Response(status.value, status.phrase, headers, body)


def answer(registry: CollectorRegistry, request: Request,
           trouble: Callable[[], str] | None = None, build: str = "") -> Response:
    """The answer to one HTTP request to the metrics port; ``trouble`` says what keeps the
    server from serving ("": nothing; then /healthz answers ok, followed by ``build`` if
    given: which build answers)."""
    if request.method == "HEAD":  # GET's status and headers, no body (RFC 9110, 9.3.2)
        return head_of(answer(registry, dataclasses.replace(request, method="GET"), trouble,
                              build))
    path = request.path.partition("?")[0]
    if request.method != "GET":
        response = _response(http.HTTPStatus.METHOD_NOT_ALLOWED, b"GET or HEAD only\n",
                             "text/plain; charset=utf-8")
        response.headers["Allow"] = "GET, HEAD"
        return response
    if path == METRICS_PATH:
        return _response(http.HTTPStatus.OK, generate_latest(registry), CONTENT_TYPE_LATEST)
    if path == HEALTH_PATH:
        why = trouble() if trouble is not None else ""
        if why:
            return _response(http.HTTPStatus.SERVICE_UNAVAILABLE, f"{why}\n".encode(),
                             "text/plain; charset=utf-8")
        ok = f"ok {build}\n" if build else "ok\n"
        return _response(http.HTTPStatus.OK, ok.encode(), "text/plain; charset=utf-8")
    return _response(http.HTTPStatus.NOT_FOUND,
                     f"not found: metrics are at {METRICS_PATH}\n".encode(),
                     "text/plain; charset=utf-8")


def head_of(response: Response) -> Response:
    """The answer to a ``HEAD``: ``response`` (a ``GET``'s) without its body -- its headers
    as they are, ``Content-Length`` the body's."""
    return dataclasses.replace(response, body=b"")


async def serve_metrics(registry: CollectorRegistry, host: str, port: int,
                        task_status: trio.TaskStatus[Server] = trio.TASK_STATUS_IGNORED,
                        *, trouble: Callable[[], str] | None = None,
                        build: str = "") -> None:
    """Answer HTTP requests for ``registry``'s metrics on ``host:port`` until cancelled
    (reports the Server); ``trouble``, ``build``: see :func:`answer`. No WebSocket is ever
    opened: every request is answered."""

    def process_request(_connection: ServerConnection, request: Request) -> Response:
        return answer(registry, request, trouble, build)

    async def never(_connection: ServerConnection) -> None:  # pragma: no cover
        raise AssertionError("every request is answered by process_request")

    await serve(never, host=host, port=port, process_request=process_request, compression=None,
                open_timeout=3.0, task_status=task_status)
