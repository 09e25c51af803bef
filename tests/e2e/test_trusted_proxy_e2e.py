"""A server behind a reverse proxy it trusts (``--trusted-proxy``) counts each client by the
address the proxy's ``X-Forwarded-For`` names, over real loopback WebSockets.

The proxy is played by the test's own clients: they connect from 127.0.0.1, which the server
trusts, and send the header an nginx with ``proxy_add_x_forwarded_for`` would. Two clients
behind it with different addresses have their own sign-in failures and waiting rooms; a server
that trusts nobody ignores the header (a client can't choose its address); a forged entry left
of the proxy's own is ignored; a header that is no list of addresses counts as the proxy.
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import pytest
import trio
from websockets.exceptions import InvalidStatus
from websockets.trio.client import ClientConnection, connect

from protocol.v1 import messages_pb2 as mpb
from server.addresses import TrustedProxies
from server.app import App, Limits
from server.store import Store
from server.transport.ws import serve_app

HOST = "127.0.0.1"


def loopback() -> TrustedProxies:
    """The test's proxy: every client connects from 127.0.0.1 (each server its own, as
    what it logged once is its own)."""
    return TrustedProxies([ipaddress.ip_network("127.0.0.1/32")])

LIMITS = Limits(login_failures=2, max_waiting_rooms_per_address=1)


@dataclass
class Served:
    app: App
    url: str
    nursery: trio.Nursery


@asynccontextmanager
async def serving(tmp_path: Path, trusted: TrustedProxies | None,
                  limits: Limits = LIMITS) -> AsyncIterator[Served]:
    """App + WebSocket listener on 127.0.0.1 (a free port), trusting ``trusted``."""
    store = Store(tmp_path / "manawire.sqlite3")
    app: App | None = None
    try:
        async with trio.open_nursery() as nursery:
            app = App(store, nursery, limits)
            server = await nursery.start(partial(serve_app, app, HOST, 0,
                                                 trusted_proxies=trusted))
            port = server.listeners[0].socket.getsockname()[1]
            yield Served(app, f"ws://{HOST}:{port}/", nursery)
            nursery.cancel_scope.cancel()
    finally:
        if app is not None:
            app.close()
        store.close()


class Raw:
    """A WebSocket client that sends the headers it is told (the SDK sends none)."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.rid = 0

    async def call(self, **body: object) -> mpb.ServerMessage:
        """Send one request; its answer (pushed messages in between skipped)."""
        self.rid += 1
        msg = mpb.ClientMessage(request_id=self.rid, **body)  # type: ignore[arg-type]
        await self.ws.send(msg.SerializeToString())
        while True:
            reply = mpb.ServerMessage.FromString(await self.ws.recv())  # type: ignore[arg-type]
            if reply.request_id == self.rid:
                return reply


@asynccontextmanager
async def client(srv: Served, *forwarded_for: str) -> AsyncIterator[Raw]:
    """A connection whose handshake carries one ``X-Forwarded-For`` line per argument."""
    headers = [("X-Forwarded-For", value) for value in forwarded_for]
    opener = connect(srv.url, additional_headers=headers, compression=None, open_timeout=10)
    ws = await opener.connect(srv.nursery)
    try:
        yield Raw(ws)
    finally:
        with trio.move_on_after(2):
            await ws.aclose()


def hello(name: str = "guest") -> mpb.Hello:
    return mpb.Hello(protocol_version=1, display_name=name)


def login(name: str, password: str) -> mpb.Hello:
    return mpb.Hello(protocol_version=1, login=mpb.Login(name=name, password=password))


def address_of(srv: Served) -> set[str]:
    """The addresses the server's connections count against."""
    return {conn.address for conn in srv.app.conns.values()}


async def _register_owner(srv: Served) -> None:
    async with client(srv, "192.0.2.50") as owner:
        assert (await owner.call(hello=hello("owner"))).HasField("welcome")
        reply = await owner.call(register=mpb.Register(name="owner", password="right horse"))
        assert reply.HasField("welcome"), reply


async def _guess_until_refused(srv: Served, forwarded_for: str) -> str:
    """Wrong passwords for "owner" from behind ``forwarded_for`` until refused unchecked."""
    async with client(srv, forwarded_for) as thief:
        for _ in range(LIMITS.login_failures):
            reply = await thief.call(hello=login("owner", "wrong"))
            assert reply.error.message == "unknown name or wrong password", reply
        refused = await thief.call(hello=login("owner", "wrong"))
        assert refused.error.code == mpb.ERROR_CODE_UNAUTHENTICATED
        return refused.error.message


async def _owner_signs_in(srv: Served, forwarded_for: str) -> mpb.ServerMessage:
    async with client(srv, forwarded_for) as owner:
        return await owner.call(hello=login("owner", "right horse"))


async def _create_rooms(srv: Served, forwarded_for: str, count: int) -> list[mpb.ServerMessage]:
    async with client(srv, forwarded_for) as creator:
        assert (await creator.call(hello=hello("host"))).HasField("welcome")
        return [await creator.call(create_room=mpb.CreateRoom(name=f"room {i}", seats=2))
                for i in range(count)]


async def test_clients_behind_a_trusted_proxy_have_their_own_limits(tmp_path: Path) -> None:
    with trio.fail_after(60):
        async with serving(tmp_path, loopback()) as srv:
            await _register_owner(srv)
            # A thief's wrong passwords lock out the thief's address, not the owner's.
            message = await _guess_until_refused(srv, "203.0.113.9")
            assert message.startswith("too many failed sign-ins with this name from your")
            assert (await _owner_signs_in(srv, "198.51.100.7")).HasField("welcome")
            # Waiting rooms are counted per forwarded address.
            first = await _create_rooms(srv, "203.0.113.9", 2)
            assert first[0].HasField("room_created")
            assert first[1].error.code == mpb.ERROR_CODE_LIMIT_REACHED, first[1]
            assert "your address" in first[1].error.message
            other = await _create_rooms(srv, "198.51.100.7", 1)
            assert other[0].HasField("room_created"), other[0]
            # The address every limit and the log see is the forwarded one; an IPv6 client
            # counts as its /64, as if it had connected itself.
            async with client(srv, "2001:db8:1:2:aaaa::1") as six:
                assert (await six.call(hello=hello())).HasField("welcome")
                assert address_of(srv) == {"2001:db8:1:2::/64"}


async def test_a_server_trusting_no_proxy_ignores_the_header(tmp_path: Path) -> None:
    with trio.fail_after(60):
        async with serving(tmp_path, None) as srv:
            await _register_owner(srv)
            await _guess_until_refused(srv, "203.0.113.9")
            # The header is the client's word: both are 127.0.0.1, one address.
            locked = await _owner_signs_in(srv, "198.51.100.7")
            assert locked.error.message.startswith("too many failed sign-ins"), locked
            first = await _create_rooms(srv, "203.0.113.9", 1)
            assert first[0].HasField("room_created")
            other = await _create_rooms(srv, "198.51.100.7", 1)
            assert other[0].error.code == mpb.ERROR_CODE_LIMIT_REACHED, other[0]
            async with client(srv, "198.51.100.7") as c:
                assert (await c.call(hello=hello())).HasField("welcome")
                assert address_of(srv) == {HOST}


async def test_the_right_most_untrusted_entry_counts_not_a_forged_left_one(
    tmp_path: Path,
) -> None:
    two_proxies = TrustedProxies([ipaddress.ip_network("127.0.0.1/32"),
                                  ipaddress.ip_network("10.0.0.0/8")])
    with trio.fail_after(60):
        async with serving(tmp_path, two_proxies) as srv:
            # The client wrote "198.51.100.7" itself; the proxy appended its peer, 203.0.113.9,
            # and an inner proxy (10.1.2.3, trusted) appended its own peer on a second line.
            async with client(srv, "198.51.100.7, 203.0.113.9", "10.1.2.3") as forged:
                assert (await forged.call(hello=hello())).HasField("welcome")
                assert address_of(srv) == {"203.0.113.9"}
            # So the forged address shares nothing with the real one's limits.
            first = await _create_rooms(srv, "203.0.113.9", 1)
            assert first[0].HasField("room_created")
            spoof = await _create_rooms(srv, "192.0.2.1, 203.0.113.9", 1)
            assert spoof[0].error.code == mpb.ERROR_CODE_LIMIT_REACHED, spoof[0]


@pytest.mark.parametrize("forwarded_for", [("unknown",), ("203.0.113.9, not-an-ip",), ()])
async def test_a_malformed_or_missing_header_counts_as_the_proxy(
    tmp_path: Path, forwarded_for: tuple[str, ...], caplog: pytest.LogCaptureFixture,
) -> None:
    with trio.fail_after(60), caplog.at_level(logging.WARNING, "manawire.transport"):
        async with serving(tmp_path, loopback()) as srv:
            for _ in range(2):
                async with client(srv, *forwarded_for) as c:
                    assert (await c.call(hello=hello())).HasField("welcome")
                    assert address_of(srv) == {HOST}
    told = [r.getMessage() for r in caplog.records if "X-Forwarded-For" in r.getMessage()]
    assert len(told) == 1, told  # once, however many requests
    assert "counts as the proxy's own address" in told[0]


async def test_the_connection_cap_counts_each_forwarded_client(tmp_path: Path) -> None:
    """The per-address WebSocket cap (64 by default) capped the whole site behind a proxy."""
    limits = Limits(max_connections_per_address=1)
    with trio.fail_after(60):
        async with serving(tmp_path, loopback(), limits) as srv, client(srv, "203.0.113.9"):
            with pytest.raises(InvalidStatus) as refused:
                async with client(srv, "203.0.113.9"):
                    pass
            assert refused.value.response.status_code == 503
            assert b"Too many connections from your address" in refused.value.response.body
            async with client(srv, "198.51.100.7") as other:
                assert (await other.call(hello=hello())).HasField("welcome")
