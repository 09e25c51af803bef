"""The server's side of its relay processes (:mod:`server.transport.relay`).

:class:`RelayLink` starts one relay process and speaks the link with it: each client the
relay accepts becomes a :class:`RemoteSocket` the :class:`~server.app.App` serves like any
other connection (its Hello, lobby requests, its seat or spectator place), except that what
the App sends it is written straight onto the link, in order (:attr:`RemoteSocket.direct`).

:class:`FeedRouter` is what the rooms' pumps hand their spectator feed operations to: a
watcher connected here is served by the server's own :class:`~server.rooms.relay.Relay`; a
watcher on a relay process is watched *there*, and each message of a view class crosses the
link once per relay process that has watchers of it -- never once per watcher.
"""

from __future__ import annotations

import logging
import socket
import subprocess
import sys
from collections import Counter
from collections.abc import Awaitable, Callable
from contextlib import aclosing
from dataclasses import dataclass
from typing import assert_never

import trio

from server.addresses import IPNetwork
from server.refusals import Notes, kind_named
from server.relay import link
from server.rooms.commands import ConnId, FeedOp, Publish, StartWatching, StopWatching
from server.rooms.fanout import FeedKey
from server.rooms.relay import Relay
from server.sending import OUTBOX_BYTES, OutboxBytes, SocketClosed
from server.transport.ws import PROXY_CONNECTIONS

log = logging.getLogger("manawire.relay")

#: Client messages queued for the App per relayed connection (the App reads one at a time
#: and rate-limits them). A relay forwards at most ``link.WINDOW`` of them before the server
#: has taken them (:data:`link.CREDIT`), so only a relay that breaks that rule fills it: its
#: client is then closed, as for flooding.
INBOX = 64
CLOSE_POLICY = 1008
CLOSE_TOO_SLOW = 1013
#: Seconds before a relay that died is started again, the first time...
RESTART_SECONDS = 1.0
#: ... doubled each time it dies again before it has listened for :data:`STEADY_SECONDS`,
#: up to this: a relay that can't listen (its port taken by another process after it died)
#: was started again, and logged two lines, every 1.1 s for as long as that lasted.
RESTART_MOST_SECONDS = 30.0
#: A relay that listened this long before it died is started again after
#: :data:`RESTART_SECONDS` (the doubling starts over).
STEADY_SECONDS = 60.0
#: Seconds a relay whose link ended may take to exit before it is killed.
REAP_SECONDS = 3.0
#: Unsent link bytes under which a relayed connection may be sent more at once (replays).
ROOMY = 1 << 20
#: Relayed clients' messages handed on per scheduler round. A relay's link carries a whole
#: audience's requests, and a crowd's arrive together (following a game into its next
#: room): handed on all at once, a thousand connection tasks would be runnable in one round,
#: and a game's action arriving meanwhile would wait behind all of them.
WAKE_AT_ONCE = 4


class RemoteSocket:
    """A client connected through a relay process (:class:`server.sending.Socket`).

    It writes only to the link of the relay process it came through (:attr:`out`): once that
    process is gone, a new one on the same port numbers its clients from 1 again, and a
    record meant for this client -- a direct message, a watch of a feed -- would reach
    whichever new client has its number (a spectator's join still waiting for its turn when
    its relay died streamed a seat's view to a stranger)."""

    def __init__(self, relay: RelayLink, rid: int, address: str) -> None:
        self.relay = relay
        self.rid = rid
        self.address = address
        #: The link of the relay process this client is on (closed once that one is gone).
        self.out = relay.out
        self._in, self._out = trio.open_memory_channel[bytes](INBOX)
        self.gone = False
        #: Whether the last :meth:`recv` yielded (the next may take a queued one at once).
        self._yielded = True
        #: Messages taken since the relay was last told (:data:`link.CREDIT`).
        self._taken = 0
        #: What was sent it (:attr:`OutboxBytes.count`) and the big messages among them
        #: that the relay's writer for it hasn't taken yet, held to ``--outbox-bytes`` as a
        #: client's outbox on the server's port: the link and the relay's outbox are its
        #: outbox (room lists a client that never read asked for again and again filled
        #: the link, and the relay and all its clients went down).
        self.outbox = OutboxBytes(relay.options.outbox_bytes)
        #: How many of them the relay's writer took, as it last said (:data:`link.TAKEN`,
        #: modulo 2**32).
        self._acked = 0

    @property
    def current(self) -> bool:
        """Whether the client is still there, on the relay process it came through."""
        return not self.gone and self.out is self.relay.out and not self.out.closed

    def direct(self, data: bytes) -> bool:
        """Send ``data`` to the client now (in order with its view's stream); False if it
        can't be: the client is gone, or too slow -- the big messages it hasn't taken
        would pass ``--outbox-bytes``: it is closed (1013), as on the server's port."""
        if not self.current:
            return False
        size, outbox = len(data), self.outbox
        if outbox.counts(size) and not outbox.fits(size, self.unsent):
            self.out.send(link.CLOSE, link.close_body(self.rid, CLOSE_TOO_SLOW,
                                                      outbox.too_big_reason()))
            self.end()
            return False
        self.out.send(link.DIRECT, link.conn_body(self.rid, data))
        outbox.added(size)
        return True

    @property
    def sent(self) -> int:
        """How many messages were sent it: the index the next one gets."""
        return self.outbox.count

    @property
    def unsent(self) -> int:
        """How many of the messages sent it the relay's writer may not have taken yet."""
        return (self.outbox.count - self._acked) & link.COUNT_MASK

    def queued(self, index: int) -> bool:
        """Whether the message sent it as ``index`` (:attr:`sent` then) may not have been
        taken by the relay's writer yet (as :meth:`OutboxBytes.queued` of an outbox)."""
        return self.outbox.queued(index, self.unsent)

    def took(self, count: int) -> None:
        """The relay's writer for it has taken ``count`` (modulo 2**32) of the messages
        sent it (:data:`link.TAKEN`)."""
        self._acked = count

    def has_room(self) -> bool:
        """Whether more may be sent now without waiting (a replay paces itself by it): the
        link isn't backed up."""
        return self.current and self.out.buffered < ROOMY

    async def room(self) -> None:
        """Wait until the link isn't backed up (:meth:`link.Writer.room`) before a big
        message that can wait (a room list): a thousand clients asking at once are sent
        theirs as the relay reads them, not all onto the link at once. One waits for the
        link at a time, the others in turn behind it (first come, first served). A
        checkpoint only when it waits."""
        if self.out.backed_up:
            async with self.relay.room_turn:
                await self.out.room()

    def received(self, data: bytes) -> None:
        """A message from the client (dropped once it is gone or closed)."""
        if self.gone:
            return
        try:
            self._in.send_nowait(data)
        except trio.WouldBlock:
            self.out.send(link.CLOSE, link.close_body(
                self.rid, CLOSE_POLICY, "too many messages: closed for flooding"))
            self.end()
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            self.gone = True

    def end(self) -> None:
        """The client is gone (or the link is): recv() ends."""
        self.gone = True
        self._in.close()

    async def recv(self) -> bytes:
        """The client's next message. One already queued is taken without yielding if the
        last one yielded (a spectator's LeaveRoom and JoinRoom come together: one wake-up
        for both), so a client with many queued still takes turns with the others."""
        try:
            if not self._yielded:
                self._yielded = True
                return self._took(await self._out.receive())
            try:
                data = self._out.receive_nowait()
            except trio.WouldBlock:
                pass  # (waited for outside the handler, which would keep the exception and
                # its traceback alive -- and tracked by the collector -- until a message came)
            else:
                self._yielded = False
                return self._took(data)
            return self._took(await self._out.receive())
        except (trio.EndOfChannel, trio.ClosedResourceError):
            raise SocketClosed from None

    def _took(self, data: bytes) -> bytes:
        """One more message taken: every :data:`link.CREDIT_EVERY`, the relay may forward
        that many more of this client's (its window, :data:`link.WINDOW`)."""
        self._taken += 1
        if self._taken >= link.CREDIT_EVERY:
            if self.current:
                self.out.send(link.CREDIT, link.credit_body(self.rid, self._taken))
            self._taken = 0
        return data

    def refund(self) -> None:
        """An action of this client was applied: its relay gives the message's token back
        too (its own limiter counts what the server's does, refunds included)."""
        if self.current:
            self.out.send(link.REFUND, link.conn_body(self.rid))

    async def send(self, data: bytes) -> None:
        if not self.direct(data):
            raise SocketClosed

    async def close(self, code: int, reason: str) -> None:
        if not self.gone:
            self.gone = True
            self.out.send(link.CLOSE, link.close_body(self.rid, code, reason))


@dataclass(frozen=True)
class RelayOptions:
    """How relay processes are started (``manawire serve --relays``)."""

    count: int = 0
    host: str = "127.0.0.1"
    #: The first relay's port (the n-th gets port + n); 0: any free port.
    port: int = 0
    flush_seconds: float = 0.1
    feed_messages: int = 4096
    #: Niceness of the relay processes: spectators yield the CPU to the game.
    nice: int = 10
    max_connections_per_address: int = 64
    max_http_requests_per_address: int = 16
    #: Run the relays under SCHED_IDLE (Linux): they get only CPU time no other process
    #: wants, and a game's process preempts them at once.
    idle: bool = False
    #: The reverse proxies whose ``X-Forwarded-For`` names the client (``--trusted-proxy``,
    #: as the server's port: :class:`server.addresses.TrustedProxies`), and the open TCP
    #: connections each may hold.
    trusted_proxies: tuple[IPNetwork, ...] = ()
    proxy_connections: int = PROXY_CONNECTIONS
    #: Each client's limits, as on the server's port (``--outbox``, ``--outbox-bytes``,
    #: ``--send-timeout``, ``--messages-per-second``, ``--message-burst``,
    #: ``--rate-strikes``: the relay enforces them itself, so no client's messages over the
    #: rate cross the link).
    outbox: int = 1024
    outbox_bytes: int = OUTBOX_BYTES
    send_timeout: float = 10.0
    messages_per_second: float = 20.0
    message_burst: int = 60
    rate_strikes: int = 200
    #: Unsent bytes past which the relay's side of its link is broken (the relay exits and
    #: is started again): ``link.MAX_RECORD``; smaller in tests.
    link_buffer: int = link.MAX_RECORD


class _NoStream(trio.abc.SendStream):
    """The stream of a link not started yet (nothing is ever written to it)."""

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        raise trio.ClosedResourceError

    async def wait_send_all_might_not_block(self) -> None:
        raise trio.ClosedResourceError

    async def aclose(self) -> None:
        return


@dataclass
class RestartBackoff:
    """How long to wait before starting a relay that died again (no I/O: :meth:`died` is
    told how long it had listened). :data:`RESTART_SECONDS`, doubled for each death in a
    row, up to :data:`RESTART_MOST_SECONDS`; a relay that listened :data:`STEADY_SECONDS`
    before it died counts as up, and the next wait is :data:`RESTART_SECONDS` again."""

    first: float = RESTART_SECONDS
    most: float = RESTART_MOST_SECONDS
    steady: float = STEADY_SECONDS
    #: Deaths in a row, each before the relay had listened ``steady`` seconds.
    failures: int = 0

    def died(self, listened: float | None) -> float:
        """The relay died after listening ``listened`` seconds (None: it never listened);
        the seconds to wait before starting it again."""
        if listened is not None and listened >= self.steady:
            self.failures = 0
        delay = min(self.most, self.first * 2.0 ** min(self.failures, 32))
        self.failures += 1
        return delay


class RelayLink:
    """One relay process and its link. :meth:`supervise` runs it, and starts it again on
    the same port if it dies (its clients drop and resume; no game ends)."""

    def __init__(self, index: int, options: RelayOptions,
                 serve: Callable[[RemoteSocket], Awaitable[None]],
                 refusals: Notes | None = None) -> None:
        self.index = index
        self.options = options
        self._serve = serve
        #: Where the relay's own refusals are counted (the server's log line and metrics).
        self.refusals = refusals
        self.sockets: dict[int, RemoteSocket] = {}
        #: The class each relayed watcher watches, and how many watch each class.
        self.watching: dict[int, FeedKey] = {}
        self.keys: Counter[FeedKey] = Counter()
        self.port = 0
        self.listening = trio.Event()
        #: Set once the relay has stopped for good (after :meth:`stop`).
        self.stopped = trio.Event()
        self.stopping = False
        #: Set by :meth:`stop`: a wait to start the relay again ends at once.
        self._stop_asked = trio.Event()
        #: Times the relay was started again (``manawire_relay_restarts_total``).
        self.restarts = 0
        #: The server's start waits for it to listen (:func:`start_relays`): if it exits
        #: before, the server doesn't start, so it isn't started again.
        self.starting = False
        self.backoff = RestartBackoff()
        #: When it last said it listens (``trio.current_time()``; None: not since it started).
        self._listening_since: float | None = None
        self.process: subprocess.Popen[bytes] | None = None
        self._theirs: socket.socket | None = None
        self.stream: trio.SocketStream | None = None
        self.out = link.Writer(_NoStream())
        self.out.closed = True
        #: Held by the one client waiting for room on the link (:meth:`RemoteSocket.room`).
        self.room_turn = trio.Lock()

    def start(self) -> None:
        """Start the relay process on a new link."""
        ours, theirs = socket.socketpair()
        self.stream = trio.SocketStream(trio.socket.from_stdlib_socket(ours))
        self.out = link.Writer(self.stream)
        fd = theirs.fileno()
        try:
            self.process = subprocess.Popen(self.command(fd), pass_fds=(fd,),
                                            stdin=subprocess.DEVNULL)
        finally:
            theirs.close()

    def command(self, fd: int) -> list[str]:
        """The relay process's command line, its link on ``fd``."""
        o = self.options
        port = self.wanted_port  # a restart: the same port
        return [sys.executable, "-m", "server.transport.relay", "--link-fd", str(fd),
                "--host", o.host, "--port", str(port), "--flush-seconds", str(o.flush_seconds),
                "--feed-messages", str(o.feed_messages), "--nice", str(o.nice),
                *(["--idle"] if o.idle else []),
                "--max-connections-per-address", str(o.max_connections_per_address),
                "--max-http-requests-per-address", str(o.max_http_requests_per_address),
                "--max-proxy-connections", str(o.proxy_connections),
                "--outbox", str(o.outbox), "--outbox-bytes", str(o.outbox_bytes),
                "--send-timeout", repr(o.send_timeout),
                "--messages-per-second", repr(o.messages_per_second),
                "--message-burst", str(o.message_burst), "--rate-strikes", str(o.rate_strikes),
                "--link-buffer", str(o.link_buffer),
                *(arg for net in o.trusted_proxies for arg in ("--trusted-proxy", str(net)))]

    @property
    def up(self) -> bool:
        """Whether the relay process listens now (``manawire_relay_up``, which reads the
        same two events): not while it is down, waiting to be started again, nor once it
        has stopped."""
        return self.listening.is_set() and not self.stopped.is_set()

    @property
    def wanted_port(self) -> int:
        """The port it listens on (after a restart, the one it had; 0: any free port)."""
        o = self.options
        return self.port or (o.port + self.index if o.port else 0)

    def listening_on(self, port: int) -> None:
        """The relay process says it listens on ``port``."""
        self.port = port
        self._listening_since = trio.current_time()
        self.listening.set()
        if self.restarts:
            log.warning("relay %d (port %d) is up again (restart %d)", self.index, port,
                        self.restarts)

    def _went_down(self) -> float | None:
        """The relay is down: not :attr:`listening` (``manawire_relay_up`` says 0) until it
        says so again. The seconds it had listened (None: it never did)."""
        since, self._listening_since = self._listening_since, None
        if self.listening.is_set():
            self.listening = trio.Event()
        return None if since is None else trio.current_time() - since

    async def supervise(self, nursery: trio.Nursery) -> None:
        """Run the relay until :meth:`stop`; start it again after it dies, a second after
        the first time, then waiting twice as long each time it dies again without having
        stayed up (:class:`RestartBackoff`): one line each time, saying when."""
        try:
            while True:
                await self.run(nursery)
                listened = self._went_down()
                await self._reap()
                if self.stopping:
                    return
                port = self.wanted_port
                where = f" (port {port})" if port else ""
                if self.starting and listened is None:  # (the server's start fails)
                    log.error("relay %d%s exited before it listened (is its port taken?)",
                              self.index, where)
                    return
                delay = self.backoff.died(listened)
                if self.backoff.failures > 1:
                    log.warning("relay %d%s is down again (%d times in a row, none of them "
                                "up %s): starting it again in %s (restart %d; the wait "
                                "doubles, up to %s, until it stays up -- is its port "
                                "taken?)", self.index, where, self.backoff.failures,
                                _seconds(self.backoff.steady), _seconds(delay),
                                self.restarts + 1, _seconds(self.backoff.most))
                else:
                    log.warning("relay %d%s is down: starting it again in %s (restart %d)",
                                self.index, where, _seconds(delay), self.restarts + 1)
                with trio.move_on_after(delay):
                    await self._stop_asked.wait()  # (a stop doesn't wait up to 30 s)
                if self.stopping:
                    return
                self.restarts += 1
                try:
                    self.start()
                except OSError:
                    log.exception("relay %d: could not start it again", self.index)
                    self.stream = None
        finally:
            self.stopped.set()

    async def run(self, nursery: trio.Nursery) -> None:
        """Serve the link until it closes or breaks; then every relayed client is gone.
        Nothing that goes wrong with the relay or its link leaves this method: the games
        go on."""
        stream = self.stream
        if stream is None:  # it could not be started
            return
        try:
            async with trio.open_nursery() as inner:
                inner.start_soon(self._write, stream)
                await self._read(stream, nursery)
                inner.cancel_scope.cancel()
        except* (trio.BrokenResourceError, trio.ClosedResourceError,
                 link.LinkBrokenError) as group:
            # The relay process died (killed, crashed, its link overflowed) or stopped
            # reading its link: no bug here, the supervisor starts it again.
            log.warning("relay %d: link broken (%s)", self.index, group.exceptions[0])
        except* Exception:
            log.exception("relay %d: link broken", self.index)
        finally:
            if self.sockets and self.stopping:
                log.info("relay %d stopped with the server; its %s after the restart",
                         self.index, _clients_resume(len(self.sockets)))
            elif self.sockets:
                log.warning("relay %d stopped; its %s once it is started again",
                            self.index, _clients_resume(len(self.sockets)))
            for sock in list(self.sockets.values()):
                sock.end()
            self.sockets.clear()
            self.watching.clear()
            self.keys.clear()
            self.out.closed = True
            stream.socket.close()

    async def _write(self, stream: trio.SocketStream) -> None:
        """Write the link; once it is closed (:meth:`stop`) and written, end it: the relay
        reads the end, closes its clients (1012) and exits."""
        await self.out.run()
        await stream.send_eof()

    async def _reap(self) -> None:
        """Wait a little for the process to exit (it does once the link ends), else kill
        it; never leave a zombie."""
        process = self.process
        if process is None:
            return
        for _ in range(int(REAP_SECONDS / 0.05)):
            if process.poll() is not None:
                return
            await trio.sleep(0.05)
        process.kill()
        await trio.to_thread.run_sync(process.wait)

    async def _read(self, stream: trio.abc.ReceiveStream, nursery: trio.Nursery) -> None:
        woken = 0
        async with aclosing(link.records(stream)) as records:
            async for kind, body in records:
                if kind == link.CLIENT:
                    rid, message = link.read_conn(body)
                    sock = self.sockets.get(rid)
                    if sock is not None:
                        sock.received(message)
                        woken += 1
                        if woken >= WAKE_AT_ONCE:  # let the others run before more wake
                            woken = 0
                            await trio.lowlevel.checkpoint()
                elif kind == link.OPEN:
                    rid, address = link.read_conn(body)
                    sock = RemoteSocket(self, rid, address.decode(errors="replace"))
                    self.sockets[rid] = sock
                    nursery.start_soon(self._serve, sock, name=f"relay{self.index}-{rid}")
                elif kind == link.GONE:
                    rid, _ = link.read_conn(body)
                    sock = self.sockets.pop(rid, None)
                    if sock is not None:
                        sock.end()
                    self.forget(rid)
                elif kind == link.TAKEN:
                    rid, count = link.read_taken(body)
                    sock = self.sockets.get(rid)
                    if sock is not None:
                        sock.took(count)
                elif kind == link.LISTENING:
                    self.listening_on(int(body.decode()))
                elif kind == link.REFUSED:
                    name, client = link.read_refused(body)
                    refusal = kind_named(name)
                    if refusal is None:
                        raise link.LinkBrokenError(f"unknown refusal kind {name!r}")
                    if self.refusals is not None:
                        self.refusals.note(refusal, client)
                else:
                    raise link.LinkBrokenError(f"unknown link record kind {kind}")

    def forget(self, rid: int) -> None:
        """``rid`` watches nothing here any more."""
        key = self.watching.pop(rid, None)
        if key is not None:
            self.keys[key] -= 1
            if self.keys[key] <= 0:
                del self.keys[key]

    def stop(self) -> None:
        """Stop for good: the link is written out and ended, the relay closes its clients
        (1012) and exits (:attr:`stopped` is set then)."""
        self.stopping = True
        self._stop_asked.set()
        self.out.close()

    def kill(self) -> None:
        """The last resort when the server exits: kill the process if it still runs."""
        process = self.process
        if process is not None and process.poll() is None:
            process.kill()
            process.wait(timeout=5)


def _seconds(seconds: float) -> str:
    """``1 s``, ``30 s``, ``1.5 s``."""
    return f"{seconds:g} s"


class FeedRouter:
    """Routes the rooms' feed operations: to this process's :class:`Relay` for watchers
    connected here, over the link for watchers on a relay process."""

    def __init__(self, local: Relay, socket_of: Callable[[ConnId], object]) -> None:
        self.local = local
        self._socket_of = socket_of
        self.links: list[RelayLink] = []

    def _remote_of(self, conn: ConnId) -> RemoteSocket | None:
        sock = self._socket_of(conn)
        return sock if isinstance(sock, RemoteSocket) else None

    def apply(self, room_id: str, ops: list[FeedOp]) -> None:
        here: list[FeedOp] = []
        for op in ops:
            if isinstance(op, Publish):
                here.append(op)
                key = (room_id, op.tier)
                for relay in self.links:
                    if key in relay.keys:
                        relay.out.send(link.PUBLISH, link.room_key(room_id, op.tier) + op.data)
            elif isinstance(op, StartWatching):
                sock = self._remote_of(op.conn)
                if sock is None:
                    here.append(op)
                    continue
                if not sock.current:
                    continue  # gone (with its relay, maybe): its number may be another's
                relay = sock.relay
                relay.forget(sock.rid)
                relay.watching[sock.rid] = (room_id, op.tier)
                relay.keys[(room_id, op.tier)] += 1
                relay.out.send(link.WATCH, link.watch_body(sock.rid, room_id, op.tier,
                                                           op.first))
            elif isinstance(op, StopWatching):
                sock = self._remote_of(op.conn)
                if sock is None:
                    here.append(op)
                    continue
                if not sock.current:
                    continue  # its relay forgot it with it (a new one never knew it)
                watched = sock.relay.watching.get(sock.rid)
                if watched is None or watched[0] != room_id:
                    continue  # it watches another room's feed by now (or none)
                sock.relay.forget(sock.rid)
                sock.relay.out.send(link.UNWATCH, link.flag_body(sock.rid, op.drain))
            else:
                assert_never(op)
        self.local.apply(room_id, here)

    def close_room(self, room_id: str) -> None:
        self.local.close_room(room_id)
        for relay in self.links:
            for rid, key in list(relay.watching.items()):
                if key[0] == room_id:
                    relay.forget(rid)
            relay.out.send(link.DROP_ROOM, room_id.encode())


#: Seconds a relay process may take to start listening.
START_SECONDS = 30.0


async def start_relays(options: RelayOptions, router: FeedRouter,
                       serve: Callable[[RemoteSocket], Awaitable[None]],
                       nursery: trio.Nursery, refusals: Notes | None = None
                       ) -> list[RelayLink]:
    """Start ``options.count`` relay processes and wait until each listens; what their
    limits refuse is noted in ``refusals``."""
    links = []
    for index in range(options.count):
        relay = RelayLink(index, options, serve, refusals)
        relay.starting = True
        relay.start()
        nursery.start_soon(relay.supervise, nursery, name=f"relay-link-{index}")
        links.append(relay)
    router.links.extend(links)
    for relay in links:
        for _ in range(int(START_SECONDS / 0.05)):
            if relay.listening.is_set() or relay.backoff.failures or relay.restarts \
                    or relay.stopped.is_set():
                break  # listening, or it died first (its port taken?)
            await trio.sleep(0.05)
        relay.starting = False
        if not relay.listening.is_set():
            port = options.port + relay.index if options.port else "any free port"
            raise RelayStartError(f"relay {relay.index} could not start listening on "
                                  f"{options.host}, port {port} (is it in use?)")
    return links


class RelayStartError(Exception):
    """A relay process could not start (``manawire serve`` exits with this message)."""


def _clients_resume(count: int) -> str:
    """What a relay's log line says of its clients: "1 client resumes", "3 clients resume"."""
    return "1 client resumes" if count == 1 else f"{count} clients resume"
