"""WebSocket transport on websockets' trio API (``websockets.trio``).

Connections per client address. :func:`serve_app` lets one client IP hold at most
``app.limits.max_connections_per_address`` connections; a handshake past that is answered
``HTTP 503`` with a plain-text reason (docs/limits.md, "Limits"). The address is the TCP peer's
IP (``remote_address[0]``; an IPv4-mapped IPv6 address counts as its IPv4 address), unless
the peer is a reverse proxy the operator trusts (``--trusted-proxy``,
:class:`server.addresses.TrustedProxies`): then the client's address is the one its
``X-Forwarded-For`` header gives, for every limit counted once the request is read (an
untrusted peer's headers are ignored). A connection takes its slot when its handshake request is
admitted -- before the server answers it, so handshakes racing each other can't overshoot
the cap -- and gives it back when its TCP stream is closed, which websockets does for every
connection, accepted or not (``Connection.recv_events`` always ends in ``close_stream``). So
a refused, failed, timed-out or cancelled handshake never keeps a slot, and an accepted
connection keeps it until its socket is really gone, closing handshake included. Before
that, :class:`AddressListener` caps the open TCP connections per address from the accept
(a connection that never sends its request is held until the handshake time ends): that cap
counts TCP peers, a trusted proxy included, which has a cap of its own
(``proxy_connections``, ``--max-proxy-connections``) since all its clients share it.

Plain HTTP on the same port. A request that is not a WebSocket upgrade (no ``websocket`` in
its ``Upgrade`` header) never takes nor is refused for a WebSocket slot: it counts against a
cap of its own, ``app.limits.max_http_requests_per_address`` plain HTTP requests in flight
per address (past it: ``HTTP 503`` with a plain-text reason), so a page load never uses a
WebSocket's slot and no number of page loads can make a WebSocket upgrade be refused. Its slot
is taken and given back just as a WebSocket's (from the admitted request to ``close_stream``),
so a client that reads its answer slowly holds the slot -- and the answer's bytes -- until
the answer is sent or the handshake time (:data:`OPEN_TIMEOUT`) ends. A ``GET`` is answered
from the web client's files (:mod:`server.web`: 200, 304 or 404), a ``HEAD`` as a ``GET``
without the body; any other method ``405 Method Not Allowed`` (``Allow: GET, HEAD``; an
upgrade by websockets itself, whose ``accept`` checks the method only after
``process_request`` returned None). websockets opens a WebSocket only for a
request whose ``Upgrade`` is exactly ``websocket``, so such a request is always answered and
its connection closed.
"""

from __future__ import annotations

import contextlib
import errno
import http
import logging
import os
from collections.abc import Callable, Sequence
from typing import Any

import trio
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response
from websockets.protocol import State
from websockets.trio.server import Server, ServerConnection, serve

from server.addresses import TrustedProxies, ip_key
from server.app import App
from server.refusals import Notes
from server.sending import SendNow, SocketClosed
from server.transport.metrics import head_of
from server.web import NOT_FOUND, StaticSite, add_common_headers

log = logging.getLogger("manawire.transport")

MAX_MESSAGE = 64 * 1024  # client messages are small; anything larger is refused
#: Seconds a client has to complete its opening handshake (a handshake still unfinished
#: holds a socket but no address slot, so it is dropped soon: half-open floods).
OPEN_TIMEOUT = 3.0


class WebSocket:
    """Adapts a websockets connection to :class:`server.sending.ImmediateSocket`."""

    __slots__ = ("_ws", "address")

    def __init__(self, ws: _CappedConnection) -> None:
        self._ws = ws
        #: The client's address, as the per-address limits count it (a client that reset
        #: the connection right after its handshake has no peer name any more).
        self.address = ws.address

    async def recv(self) -> bytes | str:
        try:
            return await self._ws.recv()
        except ConnectionClosed:
            raise SocketClosed from None

    async def send(self, data: bytes) -> None:
        try:
            await self._ws.send(data)
        except ConnectionClosed:
            raise SocketClosed from None

    async def close(self, code: int, reason: str) -> None:
        await close_draining(self._ws, code, reason)

    def send_now(self, data: bytes) -> SendNow:
        return self._ws.send_now(data)

    async def flush(self) -> None:
        try:
            await self._ws.flush()
        except ConnectionClosed:
            raise SocketClosed from None


async def close_draining(ws: ServerConnection, code: int, reason: str) -> None:
    """Close ``ws`` with ``code`` and ``reason`` while reading and dropping what the client
    still sends: a client that floods gets its answer to the close read, so it learns the
    code and reason (unread, its frames filled the socket's buffers in front of that answer,
    the closing handshake never ended and it saw only 1006 and the TCP reset). Nobody else
    may be reading ``ws``; the caller bounds the time."""
    async with trio.open_nursery() as closing:
        closing.start_soon(_drain, ws)
        await ws.aclose(code, reason)
        closing.cancel_scope.cancel()


async def _drain(ws: ServerConnection) -> None:
    with contextlib.suppress(ConnectionClosed):
        while True:
            await ws.recv()


def address_key(remote_address: Any) -> str:
    """The client address a connection counts against (every per-address limit): the
    peer's IPv4 address, or the /64 network of its IPv6 address -- one subscriber's usual
    share: counting each IPv6 address alone gave one client 2^64 addresses -- as a string
    (``remote_address`` is a socket peer name, e.g. ``("127.0.0.1", 5555)``)."""
    return ip_key(str(remote_address[0]))


class AddressSlot:
    """One connection's hold on its address's count; :meth:`release` is idempotent."""

    __slots__ = ("cap", "key", "released")

    def __init__(self, cap: AddressCap, key: str) -> None:
        self.cap = cap
        self.key = key
        self.released = False

    def release(self) -> None:
        if not self.released:
            self.released = True
            self.cap.give_back(self.key)


class AddressCap:
    """Counts open connections per client address, at most ``limit`` each."""

    def __init__(self, limit: int) -> None:
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise ValueError(f"the per-address connection limit must be >= 1, not {limit!r}")
        self.limit = limit
        self._open: dict[str, int] = {}

    def acquire(self, key: str) -> AddressSlot | None:
        """A slot for one more connection from ``key``, or None if it holds ``limit``."""
        held = self._open.get(key, 0)
        if held >= self.limit:
            return None
        self._open[key] = held + 1
        return AddressSlot(self, key)

    def give_back(self, key: str) -> None:
        """One connection from ``key`` is gone (called by :meth:`AddressSlot.release`)."""
        held = self._open[key] - 1
        if held:
            self._open[key] = held
        else:
            del self._open[key]  # no entry is kept for an address with nothing open

    def count(self, key: str) -> int:
        """Connections ``key`` holds now."""
        return self._open.get(key, 0)

    def total(self) -> int:
        """Connections held by every address together."""
        return sum(self._open.values())

    def addresses(self) -> int:
        """Addresses holding at least one connection."""
        return len(self._open)


#: Open TCP connections one client address may hold beyond its WebSocket and plain HTTP
#: caps (the handshakes in flight when a connection closes and another opens).
TCP_MARGIN = 16
#: Open TCP connections a trusted reverse proxy may hold (every client behind it shares its
#: address at the accept, before the request naming the client is read).
PROXY_CONNECTIONS = 10_000
#: What a connection past the TCP cap is told before it is closed.
_TCP_REASON = b"too many open connections from your address\n"
_TCP_REFUSED = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8"
                b"\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s"
                % (len(_TCP_REASON), _TCP_REASON))


#: What an accept fails with when the process (or system) is out of file descriptors or
#: kernel memory: retried, not fatal (as trio's own ``serve_listeners`` does).
_OUT_OF_DESCRIPTORS = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})
#: Seconds between two tries of such an accept, and between two warnings at most.
ACCEPT_RETRY_SECONDS = 0.1
ACCEPT_WARN_SECONDS = 60.0


class AddressListener(trio.abc.Listener[trio.SocketStream]):
    """A TCP listener that lets one client address hold at most ``limit`` open connections,
    from the moment they are accepted.

    The WebSocket and HTTP caps count a connection only once its handshake request has been
    read. A client that opens TCP connections and sends nothing held each until the
    handshake time ran out: one process held ~10,000 at once, other games' actions took up
    to 1.3 s and new clients couldn't connect. A connection past this cap is answered
    ``HTTP 503`` (a write the kernel takes at once, or nothing) and closed at once. A
    connection is counted until its socket is closed -- websockets closes every
    connection's stream, handshake or not -- as found when the address connects again.

    A peer in ``trusted`` (a reverse proxy the operator vouches for) may hold
    ``proxy_limit`` connections instead: its clients share its address here."""

    def __init__(self, inner: trio.SocketListener, limit: int,
                 refusals: Notes | None = None, *, trusted: TrustedProxies | None = None,
                 proxy_limit: int = PROXY_CONNECTIONS) -> None:
        self.inner = inner
        self.refusals = refusals
        #: The listening socket (websockets names the server's addresses from it).
        self.socket = inner.socket
        self.limit = limit
        self.trusted = trusted
        self.proxy_limit = proxy_limit
        self._open: dict[str, list[trio.socket.SocketType]] = {}
        #: How many addresses the table may hold before it is swept (doubled past what a
        #: sweep leaves, so sweeps cost O(1) per accept however many clients are on).
        self._sweep_at = 4 * limit + 1024
        #: Connections closed at once for their address's count (for tests).
        self.refused = 0
        #: Accepts that failed for want of file descriptors since the last warning, and when
        #: the next warning may be logged (:meth:`_out_of_descriptors`).
        self.accept_failures = 0
        self._warn_at = -float("inf")

    def _out_of_descriptors(self, exc: OSError) -> None:
        """An accept failed for want of file descriptors (or kernel memory): one warning a
        minute at most, with the count. trio's ``serve_listeners`` logged an ERROR with a
        whole traceback every 0.1 s (188 of them in 20 s)."""
        self.accept_failures += 1
        now = trio.current_time()
        if now < self._warn_at:
            return
        log.warning("can't accept new connections: %s (%d time%s in the last %.0f s); the "
                    "open connections go on. Raise the open-files limit (nofile, `ulimit -n`)",
                    os.strerror(exc.errno or 0), self.accept_failures,
                    "" if self.accept_failures == 1 else "s", ACCEPT_WARN_SECONDS)
        self.accept_failures = 0
        self._warn_at = now + ACCEPT_WARN_SECONDS

    async def accept(self) -> trio.SocketStream:
        while True:
            try:
                stream = await self.inner.accept()
            except OSError as exc:
                if exc.errno not in _OUT_OF_DESCRIPTORS:
                    raise
                self._out_of_descriptors(exc)
                await trio.sleep(ACCEPT_RETRY_SECONDS)  # (a connection that closes frees one)
                continue
            try:
                peer = stream.socket.getpeername()
            except OSError:  # gone already
                await trio.aclose_forcefully(stream)
                continue
            key = address_key(peer)
            limit = (self.proxy_limit if self.trusted and self.trusted.trusts(str(peer[0]))
                     else self.limit)
            held = [sock for sock in self._open.get(key, ()) if sock.fileno() != -1]
            if len(held) < limit:
                held.append(stream.socket)
                self._open[key] = held
                if len(self._open) > self._sweep_at:
                    self._forget_closed()
                    self._sweep_at = max(4 * self.limit + 1024, 2 * len(self._open))
                return stream
            self._open[key] = held
            self.refused += 1
            if self.refusals is not None:
                self.refusals.note("connection", key)
            # (A fresh socket's buffer takes these bytes at once: one scheduler round.)
            with trio.move_on_after(0.5), contextlib.suppress(trio.BrokenResourceError,
                                                              trio.ClosedResourceError):
                await stream.send_all(_TCP_REFUSED)
            await trio.aclose_forcefully(stream)

    def _forget_closed(self) -> None:
        """Drop addresses whose connections are all closed (so the table stays small)."""
        for key in list(self._open):
            held = [sock for sock in self._open[key] if sock.fileno() != -1]
            if held:
                self._open[key] = held
            else:
                del self._open[key]

    def count(self, key: str) -> int:
        """Connections ``key`` holds open now."""
        return sum(1 for sock in self._open.get(key, ()) if sock.fileno() != -1)

    async def aclose(self) -> None:
        await self.inner.aclose()


def connection_class(refusals: Notes) -> type[_CappedConnection]:
    """The connections of a port whose silent handshakes are noted in ``refusals``."""

    class Connection(_CappedConnection):
        pass

    Connection.refusals = refusals
    return Connection


def _drop_tracebacks(exc: BaseException) -> None:
    """Forget the tracebacks of ``exc``, of the exceptions it was raised from or during,
    and of those its groups hold: their frames hold whatever the failed code held."""
    todo: list[BaseException] = [exc]
    seen: set[int] = set()
    while todo:
        e = todo.pop()
        if id(e) in seen:
            continue
        seen.add(id(e))
        e.__traceback__ = None
        todo.extend(x for x in (e.__cause__, e.__context__) if x is not None)
        if isinstance(e, BaseExceptionGroup):
            todo.extend(e.exceptions)


class _CappedConnection(ServerConnection):
    """A server connection that gives its :class:`AddressSlot` back when its stream closes,
    and writes a frame the kernel has room for at once (:meth:`send_data`), even from
    another task than its writer's (:meth:`send_now`)."""

    slot: AddressSlot | None = None
    stream_done = False  # close_stream has finished: no slot may be taken any more
    #: The client's address (:func:`address_key`), read as its request came: the peer's
    #: name can't be read once it has reset the connection.
    address = ""

    async def close_stream(self) -> None:
        try:
            await super().close_stream()
        finally:
            self.stream_done = True
            if self.slot is not None:
                self.slot.release()
            # (as in set_connection_exc: the protocol's parser error's traceback holds the
            # protocol, a cycle -- an end of stream met mid-frame, 1006, makes one; so does
            # the handshake's error, from a request cut short, and the error it was raised from)
            for exc in (self.protocol.parser_exc, self.protocol.handshake_exc):
                if exc is not None:
                    _drop_tracebacks(exc)

    #: Where a connection closed for sending no request in time is noted ("silent"):
    #: the server's refusals (:func:`serve_app`), so that a flood of them is seen.
    refusals: Notes | None = None

    async def handshake(self, *args: Any, **kwargs: Any) -> None:
        """The opening handshake, whose failure leaves no reference cycle: a connection that
        never sends its request is cancelled at :data:`OPEN_TIMEOUT`, and the cancellation's
        tracebacks (and those of the tasks it ended, in its exception groups) held the
        frames that hold this connection, its nursery and tasks -- about 150 objects a
        connection that only a full collection freed. A flood of silent connections (19,000
        in ten minutes from one address) made that collection stop every room for
        seconds (attacker round 14) -- and was seen nowhere: each is noted now."""
        # (The handshake's time limit, set before this connection was made: at it, the
        # handshake is cancelled -- a server stopping cancels it sooner.)
        deadline = trio.current_effective_deadline()
        try:
            await super().handshake(*args, **kwargs)
        except BaseException as exc:
            _drop_tracebacks(exc)
            if self.request is None and self.refusals is not None \
                    and trio.current_time() >= deadline:
                self._note_silent()
            raise

    def _note_silent(self) -> None:
        """Note a connection whose handshake request didn't come in time, by its address."""
        assert self.refusals is not None
        stream = self.stream
        try:
            peer = stream.socket.getpeername() if isinstance(stream, trio.SocketStream) else None
        except OSError:  # (gone already)
            peer = None
        if peer is not None:
            self.refusals.note("silent", address_key(peer))

    def set_connection_exc(self, exc: BaseException | None) -> None:
        """Keep why the connection was lost (the cause of the ConnectionClosed its reads and
        writes raise from now on) without its traceback: the traceback's frames hold this
        connection, a reference cycle only a full collection frees -- every connection lost
        abruptly (a reset, a network gone) kept its connection, protocol, streams and
        socket, about 60 objects, for up to ``--gc-full-seconds``."""
        if exc is not None and self.connection_exc is None:
            exc.__traceback__ = None
        super().set_connection_exc(exc)

    #: What :meth:`send_now` wrote only in part: it leaves before anything else.
    _unsent: tuple[bytes | memoryview, ...] = ()

    def send_now(self, data: bytes) -> SendNow:
        """Send ``data`` as one binary frame from the calling task's step, without yielding
        (:class:`server.sending.ImmediateSocket`): NOT_NOW, with nothing done, while a write is
        under way or bytes wait to be sent, or once the connection is no longer open;
        STARTED if the kernel took only part of the frame (:meth:`flush` sends the rest)."""
        stream = self.stream
        if self.send_lock.locked() or self._unsent or self.send_in_progress is not None \
                or self.protocol.state is not State.OPEN \
                or not isinstance(stream, trio.SocketStream):
            return SendNow.NOT_NOW
        self.protocol.send_binary(data)
        self._unsent = self._write_now(stream, self.protocol.data_to_send())
        return SendNow.STARTED if self._unsent else SendNow.SENT

    async def flush(self) -> None:
        """Send what :meth:`send_now` left unsent (nothing if another send did); raises
        ``ConnectionClosed`` as a send does."""
        async with self.send_context():
            pass  # (leaving the context sends: send_data, which sends the rest first)

    async def send_data(self) -> None:
        """Write the protocol's outgoing bytes, after what :meth:`send_now` left unsent.

        websockets' own way yields when it takes its send lock and trio's socket yields
        after each write: a frame would leave in its writer's second scheduler step, and
        the writer take a third to go on (writing at once cut the action's p99 at 1,000
        paced rooms from 8.1 to 3.8 ms, 3 interleaved runs). When no write is under way
        (the lock is free; nothing can start one before this returns, as it doesn't yield)
        the bytes are written now, straight to the non-blocking socket, in the order the
        protocol queued them; only what the kernel doesn't take, an end of stream, or an
        error goes the usual, locked way. (While the lock is held nothing is left unsent:
        whoever took it took that first.)"""
        stream = self.stream
        if self.protocol.state is State.CLOSED:
            # The stream ended or was aborted: what send_now left unsent can't be delivered,
            # and websockets writes only the end of the stream now, expecting no error (the
            # rest written to a closed socket raised out of its reader, logged as an
            # internal error) -- nor one from a socket already closed under it (a client
            # dropped mid-send: the same log line, with a traceback).
            self._unsent = ()
            with contextlib.suppress(trio.ClosedResourceError, trio.BrokenResourceError):
                await super().send_data()
            return
        if self.send_lock.locked() or not isinstance(stream, trio.SocketStream):
            await super().send_data()
            return
        chunks = [*self._unsent, *self.protocol.data_to_send()]
        self._unsent = ()
        rest = self._write_now(stream, chunks)
        if rest:
            await self._send_locked(rest)

    @staticmethod
    def _write_now(stream: trio.SocketStream, chunks: Sequence[bytes | memoryview]
                   ) -> tuple[bytes | memoryview, ...]:
        """Write ``chunks`` to the socket while the kernel takes them whole; what is left
        (from an end of stream on, which is for the locked way: a half-close)."""
        for i, data in enumerate(chunks):
            if not data:
                return tuple(chunks[i:])
            try:
                sent = os.write(stream.socket.fileno(), data)
            except OSError:  # full: the locked way waits; closed or broken: it raises
                sent = 0  # what websockets expects (a closed socket's fileno() is -1)
            if sent < len(data):
                return (memoryview(data)[sent:], *chunks[i + 1:])
        return ()

    async def _send_locked(self, chunks: Sequence[bytes | memoryview]) -> None:
        """Write ``chunks`` (already taken from the protocol) holding the send lock, which
        is free: it was, and nothing yielded since -- so taking it doesn't yield either, and
        a cancellation can only strike inside a write, as in websockets' own path."""
        self.send_lock.acquire_nowait()
        try:
            for data in chunks:
                if data:
                    await self.stream.send_all(data)
                else:  # websockets' sign to half-close the TCP connection
                    stream = self.stream
                    assert isinstance(stream, trio.SocketStream)
                    with contextlib.suppress(Exception):
                        await stream.send_eof()
        finally:
            self.send_lock.release()


def is_websocket_upgrade(headers: Headers) -> bool:
    """Whether a request asks for a WebSocket: ``websocket`` (any case) is among the protocols
    of its ``Upgrade`` header(s). Every request websockets could accept does; one that
    merely names it among others is still a WebSocket attempt (websockets answers it 400)."""
    return any(token.strip().partition("/")[0].strip().lower() == "websocket"
               for value in headers.get_all("Upgrade") for token in value.split(","))


def _static(connection: ServerConnection, request: Request, site: StaticSite) -> Response:
    """The answer to a plain HTTP ``GET``: a file of the web client, or 404."""
    if_none_match = request.headers.get_all("If-None-Match")
    response = site.response(request.path, ", ".join(if_none_match) if if_none_match else None)
    if response is None:
        response = connection.respond(http.HTTPStatus.NOT_FOUND, NOT_FOUND)
        add_common_headers(response.headers)
    return response


def client_key(connection: ServerConnection, request: Request,
               trusted: TrustedProxies | None = None) -> str:
    """The address ``request`` counts against (:func:`address_key`): its TCP peer's or, from
    a peer in ``trusted``, the client its ``X-Forwarded-For`` names
    (:meth:`TrustedProxies.client_host`). Raises OSError if the socket is gone."""
    if not trusted:
        return address_key(connection.remote_address)
    peer = str(connection.remote_address[0])
    return ip_key(trusted.client_host(peer, request.headers.get_all("X-Forwarded-For")))


def _admitter(cap: AddressCap, http_cap: AddressCap, site: StaticSite,
              refusals: Notes | None = None, trusted: TrustedProxies | None = None
              ) -> Callable[[ServerConnection, Request], Response | None]:
    """The ``process_request`` hook enforcing ``cap`` on WebSocket upgrades and ``http_cap``
    on every other request, which it answers from ``site`` (a ``GET``) or leaves to
    websockets (405); each refusal noted in ``refusals``, if given. A request counts against
    its client's address (:func:`client_key`: from a proxy in ``trusted``, the forwarded
    one)."""

    def admit(connection: ServerConnection, request: Request) -> Response | None:
        assert isinstance(connection, _CappedConnection)
        upgrade = is_websocket_upgrade(request.headers)
        if connection.stream_done:  # the client left already; nothing will be sent
            return connection.respond(http.HTTPStatus.SERVICE_UNAVAILABLE, "Gone.\n")
        try:
            key = connection.address = client_key(connection, request, trusted)
        except OSError:  # the socket went away under us
            return connection.respond(http.HTTPStatus.SERVICE_UNAVAILABLE, "Gone.\n")
        if upgrade:
            slot = cap.acquire(key)
            if slot is None:
                log.debug("refused a connection from %s: %d open", key, cap.limit)
                if refusals is not None:
                    refusals.note("connection", key)
                return connection.respond(
                    http.HTTPStatus.SERVICE_UNAVAILABLE,
                    f"Too many connections from your address (at most {cap.limit}); "
                    "close one and retry.\n")
            connection.slot = slot
            return None
        # Plain HTTP, never a WebSocket: its own cap. The slot goes back in close_stream,
        # once the answer is sent (or the handshake time is over, or the client gone).
        slot = http_cap.acquire(key)
        if slot is None:
            log.debug("refused an HTTP request from %s: %d in flight", key, http_cap.limit)
            if refusals is not None:
                refusals.note("http", key)
            response = connection.respond(
                http.HTTPStatus.SERVICE_UNAVAILABLE,
                f"Too many HTTP requests from your address at once (at most "
                f"{http_cap.limit}); retry in a moment.\n")
            add_common_headers(response.headers)
            return response
        connection.slot = slot
        # websockets calls this hook for any method and checks the method only in its
        # accept(), when the hook returns None (405, "Allow: GET"): a HEAD is a GET's answer
        # without its body (monitoring tools probe the page with it), anything else 405.
        if request.method == "HEAD":
            return head_of(_static(connection, request, site))
        if request.method == "GET":
            return _static(connection, request, site)
        response = connection.respond(http.HTTPStatus.METHOD_NOT_ALLOWED, "GET or HEAD only.\n")
        response.headers["Allow"] = "GET, HEAD"
        add_common_headers(response.headers)
        return response

    return admit


#: What a served connection's ``request`` is replaced with once its handshake is done.
_HANDSHAKE_DONE = Request("/", Headers())


def drop_handshake(ws: ServerConnection) -> None:
    """Let go of a served connection's handshake request and response (~4 KB each
    connection) once their headers were read (:func:`_admitter`). websockets takes a request
    of None to mean "no handshake yet", so the connection gets one shared, empty request;
    and the request it parsed is emptied too, since its parser (a generator that goes on
    parsing the connection's frames) keeps it as a local for the connection's life -- its
    headers were ~1.9 KB of each idle connection's memory."""
    request = ws.request
    if request is not None and request is not _HANDSHAKE_DONE:
        request.headers, request.path = _HANDSHAKE_DONE.headers, _HANDSHAKE_DONE.path
    ws.request, ws.response = _HANDSHAKE_DONE, None


async def address_listeners(host: str, port: int, cap: AddressCap, http_cap: AddressCap, *,
                            refusals: Notes | None, trusted: TrustedProxies | None,
                            proxy_limit: int) -> list[AddressListener]:
    """TCP listeners on ``host:port`` whose accept-time cap per address is the WebSocket and
    HTTP caps plus :data:`TCP_MARGIN` (a proxy in ``trusted``: ``proxy_limit``), as the
    server's port and each relay's port have."""
    return [AddressListener(listener, cap.limit + http_cap.limit + TCP_MARGIN, refusals,
                            trusted=trusted, proxy_limit=proxy_limit)
            for listener in await trio.open_tcp_listeners(port, host=host)]


async def serve_app(app: App, host: str, port: int,
                    task_status: trio.TaskStatus[Server] = trio.TASK_STATUS_IGNORED, *,
                    addresses: AddressCap | None = None,
                    http_requests: AddressCap | None = None,
                    site: StaticSite | None = None,
                    trusted_proxies: TrustedProxies | None = None,
                    proxy_connections: int = PROXY_CONNECTIONS) -> None:
    """Serve ``app`` on ``host:port`` until cancelled. Reports the Server via task_status.

    ``addresses`` counts WebSocket connections per client address; by default a new
    ``AddressCap(app.limits.max_connections_per_address)``. ``http_requests`` counts plain
    HTTP requests in flight per address; by default a new
    ``AddressCap(app.limits.max_http_requests_per_address)`` (pass either to watch it).
    Requests that are not WebSocket upgrades get the files of ``site``: by default the web
    client's (:meth:`StaticSite.load`, read now, once). ``trusted_proxies``: the reverse
    proxies whose ``X-Forwarded-For`` names the client every per-address limit counts
    (default: none, the TCP peer's address); each may hold ``proxy_connections`` open TCP
    connections.
    """
    cap = AddressCap(app.limits.max_connections_per_address) if addresses is None else addresses
    http_cap = (AddressCap(app.limits.max_http_requests_per_address) if http_requests is None
                else http_requests)
    if site is None:
        site = StaticSite.load()

    async def handler(ws: ServerConnection) -> None:
        drop_handshake(ws)  # (its headers were read: _admitter)
        assert isinstance(ws, _CappedConnection)  # (create_connection, below)
        await app.handle_connection(WebSocket(ws))

    listeners = await address_listeners(host, port, cap, http_cap, refusals=app.refusals,
                                        trusted=trusted_proxies,
                                        proxy_limit=proxy_connections)
    await serve(handler, max_size=MAX_MESSAGE, compression=None,
                listeners=listeners,  # type: ignore[arg-type]  # (they wrap SocketListeners)
                process_request=_admitter(cap, http_cap, site, app.refusals,
                                          trusted_proxies),
                create_connection=connection_class(app.refusals),
                open_timeout=OPEN_TIMEOUT, task_status=task_status)
