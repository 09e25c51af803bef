"""Which address a request from a trusted reverse proxy counts against
(:class:`server.addresses.TrustedProxies`), the accept-time cap of a trusted proxy, and
``manawire serve --trusted-proxy``."""

from __future__ import annotations

import argparse
import ipaddress
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import trio

from server.addresses import TrustedProxies, proxy_range
from server.serve_options import add_serve_options
from server.transport.ws import PROXY_CONNECTIONS, AddressListener

HOST = "127.0.0.1"
WAIT = 10.0


def proxies(*ranges: str) -> TrustedProxies:
    return TrustedProxies([ipaddress.ip_network(r) for r in ranges])


@pytest.mark.parametrize(("peer", "lines", "client"), [
    # One proxy: the entry it appended.
    ("127.0.0.1", ["203.0.113.9"], "203.0.113.9"),
    # The client's own "X-Forwarded-For: 1.2.3.4" is left of what the proxy appended.
    ("127.0.0.1", ["1.2.3.4, 203.0.113.9"], "203.0.113.9"),
    # Two trusted proxies in a row, the header over two lines: the one before them.
    ("127.0.0.1", ["1.2.3.4, 203.0.113.9", " 10.0.0.7 "], "203.0.113.9"),
    # Every entry trusted: the left-most (the request began at a proxy).
    ("127.0.0.1", ["10.0.0.7, 10.0.0.8"], "10.0.0.7"),
    # IPv6, bracketed or not; an IPv4-mapped one as its IPv4 address.
    ("::1", ["2001:db8::1"], "2001:db8::1"),
    ("::1", ["[2001:db8::2]"], "2001:db8::2"),
    ("::ffff:127.0.0.1", ["::ffff:203.0.113.9"], "203.0.113.9"),
    # Missing or malformed up to the client's entry: the proxy's own address.
    ("127.0.0.1", [], "127.0.0.1"),
    ("127.0.0.1", [""], "127.0.0.1"),
    ("127.0.0.1", ["203.0.113.9:4444"], "127.0.0.1"),
    ("127.0.0.1", ["unknown"], "127.0.0.1"),
    ("127.0.0.1", ["203.0.113.9, 10.0.0.7, garbage"], "127.0.0.1"),
    # Garbage left of the client's entry is the client's own, and changes nothing.
    ("127.0.0.1", ["garbage, 203.0.113.9"], "203.0.113.9"),
    # An untrusted peer's header is never read.
    ("192.0.2.1", ["203.0.113.9"], "192.0.2.1"),
    ("::2", ["203.0.113.9"], "::2"),
])
def test_the_client_is_the_right_most_entry_no_trusted_proxy_wrote(
        peer: str, lines: list[str], client: str) -> None:
    trusted = proxies("127.0.0.1/32", "::1/128", "10.0.0.0/8")
    assert trusted.client_host(peer, lines) == client


def test_no_ranges_trust_nobody() -> None:
    assert not TrustedProxies()
    assert TrustedProxies().client_host("127.0.0.1", ["203.0.113.9"]) == "127.0.0.1"


def test_a_range_is_a_cidr_without_host_bits() -> None:
    assert str(proxy_range("127.0.0.1/32")) == "127.0.0.1/32"
    assert str(proxy_range("::1")) == "::1/128"
    for bad in ("10.0.0.1/8", "localhost", "300.0.0.0/8"):
        with pytest.raises(argparse.ArgumentTypeError, match="not an address range"):
            proxy_range(bad)


@pytest.mark.parametrize("everyone", ["0.0.0.0/0", "::/0"])
def test_a_range_of_every_address_is_refused(everyone: str) -> None:
    """Every client a trusted proxy: each could name its own address in X-Forwarded-For and
    dodge every per-address limit (an operator's ``--trusted-proxy 0.0.0.0/0`` was taken)."""
    with pytest.raises(argparse.ArgumentTypeError, match="is every address: every client"):
        proxy_range(everyone)
    assert str(proxy_range("0.0.0.0/1")) == "0.0.0.0/1"  # (wide, but the operator's call)


def test_the_serve_options_take_repeated_ranges(capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser(prog="manawire serve")
    add_serve_options(parser)
    args = parser.parse_args(["--trusted-proxy", "127.0.0.1/32", "--trusted-proxy", "::1/128",
                              "--max-proxy-connections", "500"])
    assert [str(r) for r in args.trusted_proxy] == ["127.0.0.1/32", "::1/128"]
    assert args.max_proxy_connections == 500
    default = parser.parse_args([])
    assert default.trusted_proxy == [] and default.max_proxy_connections == PROXY_CONNECTIONS
    with pytest.raises(SystemExit):
        parser.parse_args(["--trusted-proxy", "10.0.0.1/8"])
    assert "not an address range" in capsys.readouterr().err


@pytest.mark.parametrize(("trusted", "accepted"), [(None, 2), (proxies("127.0.0.1/32"), 5)])
async def test_a_trusted_proxy_has_its_own_accept_time_cap(
        trusted: TrustedProxies | None, accepted: int) -> None:
    """All of a proxy's clients share its address when they are accepted, before the header
    naming them is read: a trusted proxy holds ``proxy_limit`` connections, not ``limit``."""
    inner = (await trio.open_tcp_listeners(0, host=HOST))[0]
    listener = AddressListener(inner, 2, trusted=trusted, proxy_limit=5)
    port = inner.socket.getsockname()[1]
    served: list[trio.SocketStream] = []
    clients: list[trio.SocketStream] = []
    try:
        async with trio.open_nursery() as nursery:
            async def accept_forever() -> None:
                while True:
                    served.append(await listener.accept())

            nursery.start_soon(accept_forever)
            clients.extend([await trio.open_tcp_stream(HOST, port) for _ in range(6)])
            # Accepted in order: the ones past the cap are answered 503 and closed (once
            # they are, the listener has accepted those before them).
            for refused in clients[accepted:]:
                answer = b""
                with trio.fail_after(WAIT):
                    while chunk := await refused.receive_some():
                        answer += chunk
                assert answer.startswith(b"HTTP/1.1 503 Service Unavailable\r\n")
            assert listener.count(HOST) == accepted and listener.refused == 6 - accepted
            nursery.cancel_scope.cancel()
    finally:
        for stream in served + clients:
            await stream.aclose()
        await listener.aclose()


def test_manawire_serve_says_whom_it_trusts(tmp_path: Path) -> None:
    """The option reaches the server, which says on start whose header it reads."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "server.cli", "serve", "--host", HOST, "--port", "0",
         "--data-dir", str(tmp_path / "data"), "--trusted-proxy", "127.0.0.1/32",
         "--trusted-proxy", "::1/128", "--status-seconds", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        lines: list[str] = []
        while not any("X-Forwarded-For" in line for line in lines):
            line = proc.stdout.readline()
            assert line, f"the server stopped: {proc.stderr.read() if proc.stderr else ''}"
            lines.append(line)
        assert lines[-1].strip() == ("manawire takes clients' addresses from X-Forwarded-For "
                                     "on requests from 127.0.0.1/32, ::1/128")
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
        for pipe in (proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()
