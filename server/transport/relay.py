"""A relay process: a WebSocket front for clients (spectators first of all) whose view
streams it serves itself, so that no number of watchers costs the game server's core
anything per watcher (architecture, "Surviving faults").

``manawire serve --relays N`` starts N of these (``python -m server.transport.relay``), each
on its own port, linked to the server by a socket pair (:mod:`server.relay.link`). A client
connects to a relay port exactly as to the server's own: same protocol, same web client
files. The relay forwards every client message to the server, which runs the session, the
lobby and the rooms as for any connection, and sends back per connection only what is that
connection's alone (replies, its snapshot, a player's deltas) -- while a spectator's view
stream comes over the link **once per view class**, and the relay fans it out to all its
watchers (:class:`server.rooms.relay.Relay`: one batched frame per flush, a few writers at a
time, bounded feeds, slow watchers evicted).

The relay holds no game state and trusts nothing from clients: seats, roles and limits are
the server's (it applies the per-address caps itself -- open TCP connections as they are
accepted, WebSocket connections and HTTP requests -- as the server does on its port, a
trusted reverse proxy's clients counted by its ``X-Forwarded-For``, ``--trusted-proxy``;
and each client's message size, rate, text frames and inbox as the server does,
:mod:`server.relay.gate`, before its messages cross the link: no client can fill it;
and it tells the server when its writer for a client takes a big message of the server's,
:data:`server.relay.link.TAKEN`, by which the server holds a relayed client to its port's
outbox rules).
If the relay dies, its clients' sessions resume through any port; if the server goes, or
the link breaks (a record it can't read, more than ``--link-buffer`` bytes it couldn't
write), the relay closes its clients (1012) and exits -- the server starts it again.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import socket
import sys
from collections import deque
from contextlib import aclosing
from dataclasses import dataclass, field

import trio
from websockets.exceptions import ConnectionClosed
from websockets.trio.server import ServerConnection, serve

from server.addresses import TrustedProxies, proxy_range
from server.refusals import Kind
from server.relay import link
from server.relay.gate import Answer, ClientLimits, Close, Forward, Gate
from server.rooms.relay import Relay
from server.sending import BIG_MESSAGE, OUTBOX_BYTES, OutboxBytes
from server.transport.batch import FEED_WAKE, Batcher
from server.transport.ws import (
    MAX_MESSAGE,
    OPEN_TIMEOUT,
    PROXY_CONNECTIONS,
    AddressCap,
    _admitter,
    _CappedConnection,
    address_listeners,
    close_draining,
    connection_class,
    drop_handshake,
)
from server.web import StaticSite

log = logging.getLogger("manawire.relay")

CLOSE_SERVICE_RESTART = 1012
CLOSE_TOO_SLOW = 1013
#: Messages queued for one client before it is dropped (the server's --outbox, passed on
#: as the relay's --outbox; this is its default).
OUTBOX = 1024
#: Seconds one send may take before the client is dropped (the server's --send-timeout).
SEND_TIMEOUT = 10.0
#: Seconds the clients get for their closing handshakes when the server goes.
CLOSE_SECONDS = 2.0


#: Each client's message limits unless told (the server's defaults).
_LIMITS = ClientLimits()


class _LinkNotes:
    """The relay's refusals, told to the server (which counts them with its own)."""

    def __init__(self, out: link.Writer) -> None:
        self.out = out

    def note(self, kind: Kind, address: str) -> None:
        self.out.send(link.REFUSED, link.refused_body(kind, address))


@dataclass(eq=False, slots=True)
class _Client:
    rid: int
    ws: ServerConnection
    send: trio.MemorySendChannel[bytes]
    scope: trio.CancelScope
    address: str
    notes: _LinkNotes
    gate: Gate
    #: Set when the server takes some of its messages (replaced by whoever waits for it).
    credit: trio.Event
    #: Its outbox's big messages' bytes (``--outbox-bytes``: the server's port's limit; a
    #: room list a client that never read asked for again and again held a copy each).
    outbox: OutboxBytes = field(default_factory=lambda: OutboxBytes(OUTBOX_BYTES))
    close_code: int = 1000
    close_reason: str = ""
    #: The server's messages for it (:data:`link.DIRECT`) so far.
    directs: int = 0
    #: The big ones (:data:`BIG_MESSAGE` bytes or more) in its outbox, oldest first, as
    #: (index in ``outbox.count``, :attr:`directs` once it came): when its writer takes
    #: one, the server is told (:data:`link.TAKEN`) -- its count of this client's unsent
    #: bytes, and its one-room-list-at-a-time rule, go by it.
    unacked: deque[tuple[int, int]] = field(default_factory=deque)

    def close(self, code: int, reason: str) -> None:
        if self.close_code == 1000:
            self.close_code, self.close_reason = code, reason
            if code == CLOSE_TOO_SLOW:  # (its own ruling: the server never heard of it)
                self.notes.note("slow", self.address)
        self.scope.cancel()

    def queue(self, data: bytes) -> bool:
        why = self.outbox.put(self.send, data)
        if why:
            self.close(CLOSE_TOO_SLOW, why)
        return why is None

    def direct(self, data: bytes) -> None:
        """Queue a message the server sent it (a big one is acknowledged once its writer
        takes it: :meth:`taken`)."""
        self.directs += 1
        index = self.outbox.count
        if self.queue(data) and len(data) >= BIG_MESSAGE:
            self.unacked.append((index, self.directs))

    def taken(self, in_buffer: int) -> int | None:
        """Its writer has taken all but the last ``in_buffer`` messages of its outbox: the
        count of the server's messages taken to tell the server (:data:`link.TAKEN`), if
        a big one is among them; else None."""
        unacked = self.unacked
        taken = self.outbox.count - in_buffer
        count = None
        while unacked and unacked[0][0] < taken:
            count = unacked.popleft()[1]
        return count


class RelayProcess:
    """The relay's clients, its link to the server and its spectator feeds."""

    def __init__(self, stream: trio.abc.HalfCloseableStream, flush_seconds: float,
                 feed_messages: int, *, limits: ClientLimits = _LIMITS,
                 outbox: int = OUTBOX, outbox_bytes: int = OUTBOX_BYTES,
                 send_timeout: float = SEND_TIMEOUT,
                 link_buffer: int = link.MAX_RECORD) -> None:
        self.stream = stream
        self.out = link.Writer(stream, link_buffer)
        self.limits = limits
        self.outbox = outbox
        self.outbox_bytes = outbox_bytes
        self.send_timeout = send_timeout
        self.notes = _LinkNotes(self.out)
        self.clients: dict[int, _Client] = {}
        self.relay = Relay(self._wake, self._evict, flush_seconds=flush_seconds,
                           max_messages=feed_messages)
        self._ids = 0
        #: Client sockets not closed yet (closing handshakes included), and an event set
        #: whenever that falls to 0.
        self.open = 0
        self.all_closed = trio.Event()

    def _wake(self, rid: int) -> bool:
        client = self.clients.get(rid)
        return client is not None and client.queue(FEED_WAKE)

    def _evict(self, rid: int) -> None:
        client = self.clients.get(rid)
        if client is not None:
            client.close(CLOSE_TOO_SLOW, "spectator too slow: fell behind its stream")

    # ---- the server's side
    async def serve_link(self, port: int) -> None:
        """Tell the server the relay listens on ``port``, then write and read the link
        until the server closes it (returns) or it breaks (raises): a link whose writer
        can't keep up (:attr:`link.Writer.overflowed`) is the relay's end -- the server
        sees it exit, counts its clients out and starts it again."""
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._write_link)
            self.out.send(link.LISTENING, str(port).encode())
            await self.read_link()
            nursery.cancel_scope.cancel()

    async def _write_link(self) -> None:
        await self.out.run()
        # (nothing closes the relay's side of its link but an overflow, which raises)
        raise link.LinkBrokenError("the relay's side of the link was closed")

    async def close_all(self, reason: str) -> None:
        """Close every client (1012, ``reason``: they resume) and give them
        :data:`CLOSE_SECONDS` for their closing handshakes."""
        for client in list(self.clients.values()):
            client.close(CLOSE_SERVICE_RESTART, reason)
        if self.open:
            self.all_closed = trio.Event()
            with trio.move_on_after(CLOSE_SECONDS):  # their closing handshakes
                await self.all_closed.wait()

    async def read_link(self) -> None:
        """Carry out what the server says until it closes the link."""
        fanout = self.relay.fanout
        async with aclosing(link.records(self.stream)) as records:
            async for kind, body in records:
                if kind == link.DIRECT:
                    rid, message = link.read_conn(body)
                    client = self.clients.get(rid)
                    if client is not None:
                        client.direct(message)
                elif kind == link.PUBLISH:
                    room_id, tier, at = link.read_key(body)
                    fanout.publish((room_id, tier), body[at:])
                    self.relay.news()
                elif kind == link.WATCH:
                    w = link.read_watch(body)
                    if w.conn in self.clients:
                        fanout.watch(w.conn, (w.room_id, w.tier), w.first)
                        self.relay.news()
                elif kind == link.UNWATCH:
                    rid, drain = link.read_flag(body)
                    fanout.unwatch(rid, drain)
                    self.relay.news()
                elif kind == link.CLOSE:
                    rid, code, reason = link.read_close(body)
                    client = self.clients.get(rid)
                    if client is not None:
                        client.close(code, reason)
                elif kind == link.CREDIT:
                    rid, count = link.read_credit(body)
                    client = self.clients.get(rid)
                    if client is not None:
                        client.gate.credited(count)
                        client.credit.set()
                elif kind == link.REFUND:
                    rid, _ = link.read_conn(body)
                    client = self.clients.get(rid)
                    if client is not None:
                        client.gate.refunded()
                elif kind == link.DROP_ROOM:
                    fanout.close_room(body.decode())
                else:
                    raise link.LinkBrokenError(f"unknown link record kind {kind}")

    # ---- one client
    async def handle(self, ws: ServerConnection) -> None:
        drop_handshake(ws)
        assert isinstance(ws, _CappedConnection)  # (create_connection, in run)
        self._ids += 1
        rid = self._ids
        self.open += 1
        send, receive = trio.open_memory_channel[bytes](self.outbox)
        with trio.CancelScope() as scope:
            client = _Client(rid, ws, send, scope, ws.address, self.notes,
                             Gate(self.limits), trio.Event(),
                             outbox=OutboxBytes(self.outbox_bytes))
            self.clients[rid] = client
            # (read as its request came: a client that reset the connection since has no
            # peer name any more)
            self.out.send(link.OPEN, link.conn_body(rid, ws.address.encode()))
            try:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(self._write, client, receive)
                    with contextlib.suppress(ConnectionClosed):
                        await self._read(client)
                    nursery.cancel_scope.cancel()
            finally:
                del self.clients[rid]
                self.relay.drop(rid)
                self.out.send(link.GONE, link.conn_body(rid))
        try:
            with trio.move_on_after(1):
                await close_draining(ws, client.close_code, client.close_reason)
        finally:
            self.open -= 1
            if not self.open:
                self.all_closed.set()

    async def _read(self, client: _Client) -> None:
        """Forward the client's messages within its limits (:mod:`server.relay.gate`):
        none while its window is full, nor while the link is backed up (the client waits,
        unread, as the server's port makes a client wait that sends faster than it is
        served); until it closes or is closed."""
        gate, ws, rid = client.gate, client.ws, client.rid
        while True:
            while not gate.may_forward():
                client.credit = trio.Event()
                await client.credit.wait()
            message = await ws.recv()
            action = gate.check(message, trio.current_time())
            if isinstance(action, Close):
                self.notes.note("flood", client.address)
                client.close(action.code, action.reason)
                return
            if isinstance(action, Answer):
                client.queue(action.data)
                continue
            assert isinstance(action, Forward)
            await self.out.room()  # (no checkpoint when there is room: then sent at once)
            gate.forwarded()
            self.out.send(link.CLIENT, link.conn_body(rid, action.data))

    async def _write(self, client: _Client, receive: trio.MemoryReceiveChannel[bytes]
                     ) -> None:
        batcher = Batcher()

        def feed(batched: bool) -> list[bytes]:
            return self.relay.take(client.rid, batched)

        async with receive:
            async for first in receive:
                # requested=True: the server sends a Welcome that confirms batching only
                # to a client that asked for it.
                frames = batcher.frames(first, receive, True, feed)
                if client.unacked:  # a big message of the server's may be among them
                    count = client.taken(receive.statistics().current_buffer_used)
                    if count is not None:
                        self.out.send(link.TAKEN, link.taken_body(client.rid, count))
                for frame in frames:
                    with trio.move_on_after(self.send_timeout) as scope:
                        try:
                            await client.ws.send(frame)
                        except ConnectionClosed:
                            return
                    if scope.cancelled_caught:
                        client.close(CLOSE_TOO_SLOW, "client too slow: send timed out")
                        return


async def run(link_fd: int, host: str, port: int, *, flush_seconds: float,
              feed_messages: int, max_connections_per_address: int,
              max_http_requests_per_address: int,
              trusted: TrustedProxies | None = None,
              proxy_connections: int = PROXY_CONNECTIONS,
              limits: ClientLimits = _LIMITS, outbox: int = OUTBOX,
              outbox_bytes: int = OUTBOX_BYTES, send_timeout: float = SEND_TIMEOUT,
              link_buffer: int = link.MAX_RECORD) -> None:
    """Serve as a relay until the server closes the link (returns) or the link breaks
    (raises: :class:`link.LinkBrokenError`, or the stream's error); either way its clients
    are closed first (1012: they resume). Its port's limits are the
    server's (:func:`server.transport.ws.serve_app`): the TCP connections an address holds
    from their accept, then WebSocket connections and HTTP requests, an address from a
    proxy in ``trusted`` being the client its ``X-Forwarded-For`` names; then each client's
    message ``limits``, ``outbox`` (messages, and ``outbox_bytes`` of big ones) and
    ``send_timeout`` (:mod:`server.relay.gate`)."""
    sock = trio.socket.from_stdlib_socket(socket.socket(fileno=link_fd))
    stream = trio.SocketStream(sock)
    proc = RelayProcess(stream, flush_seconds, feed_messages, limits=limits, outbox=outbox,
                        outbox_bytes=outbox_bytes, send_timeout=send_timeout,
                        link_buffer=link_buffer)
    cap = AddressCap(max_connections_per_address)
    http_cap = AddressCap(max_http_requests_per_address)
    listeners = await address_listeners(host, port, cap, http_cap, refusals=proc.notes,
                                        trusted=trusted, proxy_limit=proxy_connections)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(proc.relay.run)
        server = await nursery.start(lambda task_status=trio.TASK_STATUS_IGNORED: serve(
            proc.handle, max_size=MAX_MESSAGE, compression=None,
            listeners=listeners,  # type: ignore[arg-type]  # (they wrap SocketListeners)
            process_request=_admitter(cap, http_cap, StaticSite.load(), proc.notes, trusted),
            create_connection=connection_class(proc.notes), open_timeout=OPEN_TIMEOUT,
            task_status=task_status))
        bound = server.listeners[0].socket.getsockname()[1]
        reason = "server restarting; resume when it is back"  # (its link ended)
        try:
            await proc.serve_link(bound)
        except* link.LinkBrokenError:
            reason = "relay restarting; resume when it is back"
            raise
        finally:
            await proc.close_all(reason)
            nursery.cancel_scope.cancel()


def parser() -> argparse.ArgumentParser:
    """The relay process's command line (:meth:`server.relay.host.RelayLink.command`)."""
    p = argparse.ArgumentParser(prog="python -m server.transport.relay",
                                description="a relay process (started by manawire serve)")
    p.add_argument("--link-fd", type=int, required=True)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--flush-seconds", type=float, default=0.1)
    p.add_argument("--feed-messages", type=int, default=4096)
    p.add_argument("--max-connections-per-address", type=int, default=64)
    p.add_argument("--max-http-requests-per-address", type=int, default=16)
    p.add_argument("--trusted-proxy", action="append", default=[], type=proxy_range)
    p.add_argument("--max-proxy-connections", type=int, default=PROXY_CONNECTIONS)
    p.add_argument("--outbox", type=int, default=OUTBOX)
    p.add_argument("--outbox-bytes", type=int, default=OUTBOX_BYTES)
    p.add_argument("--send-timeout", type=float, default=SEND_TIMEOUT)
    p.add_argument("--messages-per-second", type=float, default=20.0)
    p.add_argument("--message-burst", type=int, default=60)
    p.add_argument("--rate-strikes", type=int, default=200)
    p.add_argument("--link-buffer", type=int, default=link.MAX_RECORD)
    p.add_argument("--nice", type=int, default=0)
    p.add_argument("--idle", action="store_true",
                   help="run under the SCHED_IDLE policy (Linux): only on CPU time nothing "
                        "else wants")
    return p


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    from server import logs

    logs.configure("relay")
    if args.nice:
        os.nice(args.nice)
    if args.idle:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    failed: list[BaseException] = []
    broken: list[BaseException] = []
    try:
        trio.run(lambda: run(
            args.link_fd, args.host, args.port, flush_seconds=args.flush_seconds,
            feed_messages=args.feed_messages,
            max_connections_per_address=args.max_connections_per_address,
            max_http_requests_per_address=args.max_http_requests_per_address,
            trusted=TrustedProxies(args.trusted_proxy),
            proxy_connections=args.max_proxy_connections,
            limits=ClientLimits(args.messages_per_second, args.message_burst,
                                args.rate_strikes),
            outbox=args.outbox, outbox_bytes=args.outbox_bytes, send_timeout=args.send_timeout,
            link_buffer=args.link_buffer))
    except* KeyboardInterrupt:
        pass  # the terminal's Ctrl-C reaches the relay too; the server stops it
    except* OSError as group:  # e.g. its port is taken: the server says so and exits
        failed.extend(group.exceptions)
    except* (trio.BrokenResourceError, trio.ClosedResourceError) as group:
        # The server went away (killed: its end of the link is gone) while this relay wrote
        # to it: its clients were told to resume (1012), nothing else to do.
        log.warning("relay on %s port %d: the server's link broke (%s); stopping", args.host,
                    args.port, group.exceptions[0])
    except* link.LinkBrokenError as group:
        # It couldn't write its link fast enough, or read a record it doesn't know: it
        # exits (its clients were told to resume, 1012); the server starts it again.
        broken.extend(group.exceptions)
    if broken:
        log.error("relay on %s port %d: its link to the server is broken (%s); exiting to be "
                  "started again", args.host, args.port, broken[0])
        return 1
    if failed:
        log.error("relay on %s port %d: %s", args.host, args.port, failed[0])
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
