"""The browser client, served over plain HTTP on the game server's own host and port.

The client's files are the package resources in ``server/web/static/`` (``index.html``,
``app.css`` and the generated bundle ``app.js``), read once at start-up with
:mod:`importlib.resources`, so an installed wheel serves them as a source checkout does
(pyproject.toml, ``[tool.setuptools.package-data]``). :class:`StaticSite` answers a request
target with a websockets :class:`~websockets.http11.Response` built from those bytes in
memory: only the fixed set of files loaded at start-up is ever served, by an exact match of
the target's path, and no path from a request is ever opened, decoded or normalised (so no
directory listing and no path traversal). ``server.transport.ws`` calls it for every request
that is not a WebSocket upgrade.
"""

from __future__ import annotations

import email.utils
import hashlib
import http
import importlib.resources
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from websockets.datastructures import Headers
from websockets.http11 import Response

log = logging.getLogger("manawire.web")

#: The types of the files served, by suffix (a file of any other kind is not served).
CONTENT_TYPES: Mapping[str, str] = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
}
#: The page loads its own script and style sheet only, may connect (WebSockets, fetch) to its
#: own origin only -- CSP Level 3's ``'self'`` also matches ``ws:``/``wss:`` to the page's host
#: and port, which is where the game's WebSocket is -- and may not be framed.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
    "style-src 'self'; script-src 'self'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'")
#: Headers of every HTTP answer (files, 304s and 404s alike). ``no-cache``: a browser may keep
#: a copy but revalidates it (``If-None-Match``) before each use, so a new bundle is picked up
#: by the next page load.
COMMON_HEADERS: tuple[tuple[str, str], ...] = (
    ("Cache-Control", "no-cache"),
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
)
#: The plain-text reason of a 404 (fixed: nothing from the request is echoed).
NOT_FOUND = ("Not found. This server serves the web client at / (and its files), and a "
             "WebSocket on any path to a request with 'Upgrade: websocket'.\n")
INDEX = "index.html"


def add_common_headers(headers: Headers) -> None:
    """Add :data:`COMMON_HEADERS` to ``headers`` (a response's)."""
    for name, value in COMMON_HEADERS:
        headers[name] = value


@dataclass(frozen=True, slots=True)
class StaticFile:
    """One file of the client, as it is served."""

    body: bytes
    content_type: str
    #: A strong validator: a quoted digest of the bytes.
    etag: str

    @classmethod
    def of(cls, body: bytes, content_type: str) -> StaticFile:
        return cls(body, content_type, f'"{hashlib.sha256(body).hexdigest()[:32]}"')


def _matches(if_none_match: str, etag: str) -> bool:
    """Whether an ``If-None-Match`` value (``*`` or a list of entity tags, weak or not) names
    ``etag`` (weak comparison, RFC 9110 13.1.2)."""
    for candidate in if_none_match.split(","):
        tag = candidate.strip()
        if tag == "*":
            return True
        tag = tag.removeprefix("W/")
        if tag == etag:
            return True
    return False


class StaticSite:
    """The client's files by request path: ``/`` and ``/index.html`` for the page, ``/NAME``
    for every other file."""

    def __init__(self, files: Mapping[str, StaticFile]) -> None:
        """``files``: by file name (``index.html``, ``app.js``, ...)."""
        self.files = dict(files)
        self.routes: dict[str, StaticFile] = {f"/{name}": f for name, f in files.items()}
        if INDEX in files:
            self.routes["/"] = files[INDEX]

    @classmethod
    def from_bytes(cls, files: Iterable[tuple[str, bytes]]) -> StaticSite:
        """A site of ``(file name, bytes)`` pairs; names of a kind not in
        :data:`CONTENT_TYPES` are left out."""
        served: dict[str, StaticFile] = {}
        for name, body in files:
            suffix = name[name.rfind("."):] if "." in name else ""
            content_type = CONTENT_TYPES.get(suffix)
            if content_type is not None and "/" not in name:
                served[name] = StaticFile.of(body, content_type)
        return cls(served)

    @classmethod
    def load(cls, package: str = __name__, folder: str = "static") -> StaticSite:
        """Read the files of ``package``'s ``folder`` (package resources, not its
        subfolders), once: what is served is fixed from then on."""
        root = importlib.resources.files(package).joinpath(folder)
        try:
            entries = sorted((e for e in root.iterdir() if e.is_file()), key=lambda e: e.name)
        except (FileNotFoundError, NotADirectoryError):
            entries = []
        site = cls.from_bytes((e.name, e.read_bytes()) for e in entries)
        if INDEX not in site.files:
            log.warning("the web client is missing (no %s in %s): only WebSockets are served",
                        INDEX, root)
        return site

    def response(self, target: str, if_none_match: str | None = None) -> Response | None:
        """The answer to a ``GET`` of ``target`` (the request line's path; a query is
        ignored): the file with its headers, or ``304 Not Modified`` if ``if_none_match``
        names its current version; None if no file is served at that path (the caller
        answers 404)."""
        path = target.partition("?")[0].partition("#")[0]
        file = self.routes.get(path)
        if file is None:
            return None
        headers = Headers()
        headers["Date"] = email.utils.formatdate(usegmt=True)
        headers["Connection"] = "close"  # websockets closes every non-WebSocket connection
        headers["ETag"] = file.etag
        add_common_headers(headers)
        if if_none_match is not None and _matches(if_none_match, file.etag):
            status = http.HTTPStatus.NOT_MODIFIED
            return Response(status.value, status.phrase, headers, b"")
        headers["Content-Type"] = file.content_type
        headers["Content-Length"] = str(len(file.body))
        return Response(http.HTTPStatus.OK.value, http.HTTPStatus.OK.phrase, headers, file.body)
