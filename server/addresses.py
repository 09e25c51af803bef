"""A client's address as every per-address limit counts it (:func:`ip_key`), and the
reverse proxies whose word on it is trusted (:class:`TrustedProxies`)."""

from __future__ import annotations

import argparse
import ipaddress
import logging
from collections.abc import Iterable, Sequence

log = logging.getLogger("manawire.transport")

IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


def ip_key(host: str) -> str:
    """:func:`address_key` of an address as a string: IPv4, or an IPv6 address's /64 (the
    IPv4 address of an IPv4-mapped one; loopback as itself); anything else as given."""
    ip = _ip(host)
    if ip is None:
        return host
    if isinstance(ip, ipaddress.IPv6Address) and not ip.is_loopback:
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def _ip(text: str) -> IPAddress | None:
    """``text`` as an IP address (an IPv4-mapped IPv6 one as its IPv4 address; an IPv6
    one may be bracketed), or None if it isn't one."""
    text = text.strip()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def proxy_range(text: str) -> IPNetwork:
    """``--trusted-proxy``'s value: an address range (``127.0.0.1/32``, ``10.0.0.0/8``,
    ``::1/128``) or one address. Host bits set (``10.0.0.1/8``) are refused: the operator
    may have meant another range."""
    try:
        network = ipaddress.ip_network(text.strip(), strict=True)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(
            f"not an address range (CIDR such as 127.0.0.1/32 or ::1/128): {text!r} ({exc})"
        ) from None
    if network.prefixlen == 0:
        # Every address a proxy: any client's X-Forwarded-For would name the address it is
        # counted as, and every per-address limit would be its to dodge.
        raise argparse.ArgumentTypeError(
            f"{text.strip()} is every address: every client would be trusted to say its own "
            f"address in X-Forwarded-For and could dodge every per-address limit; give the "
            f"proxy's own address or range (e.g. 127.0.0.1/32, 10.0.0.0/8)")
    return network


class TrustedProxies:
    """The reverse proxies (address ranges) whose ``X-Forwarded-For`` names the client.

    A request from a peer in one of the ranges counts against the address its
    ``X-Forwarded-For`` header gives: the right-most entry that isn't itself in a trusted
    range (entries to its left were written by the client or proxies nobody vouches for, so
    a client can't choose its address); if every entry is trusted, the left-most. A header
    that is missing, or whose entries up to that one aren't all IP addresses, leaves the
    peer's own address (logged once per server, each). A peer outside the ranges is never
    asked: its headers are ignored."""

    def __init__(self, ranges: Iterable[IPNetwork] = ()) -> None:
        self.ranges: tuple[IPNetwork, ...] = tuple(ranges)
        #: What was logged once already: "missing", "malformed".
        self._told: set[str] = set()

    def __bool__(self) -> bool:
        return bool(self.ranges)

    def trusts(self, host: str) -> bool:
        """Whether ``host`` (an IP address as text) is in a trusted range."""
        ip = _ip(host)
        return ip is not None and self.trusts_ip(ip)

    def trusts_ip(self, ip: IPAddress) -> bool:
        return any(ip.version == net.version and ip in net for net in self.ranges)

    def client_host(self, peer: str, forwarded_for: Sequence[str]) -> str:
        """The client's IP address (as text; :func:`ip_key` groups it) for a request from
        the TCP peer ``peer`` whose ``X-Forwarded-For`` header lines are ``forwarded_for``
        (in order; several lines make one list)."""
        if not self.ranges or not self.trusts(peer):
            return peer
        entries = [entry for line in forwarded_for for entry in line.split(",")]
        if not entries:
            self._tell("missing", f"a request from the trusted proxy {peer} has no "
                       f"X-Forwarded-For header: it counts as the proxy's own address (does "
                       f"the proxy set it? This is logged once)")
            return peer
        chosen: IPAddress | None = None
        for entry in reversed(entries):
            ip = _ip(entry)
            if ip is None:
                self._tell("malformed", f"a request from the trusted proxy {peer} has an "
                           f"X-Forwarded-For entry that is not an IP address ({entry.strip()!r}"
                           f" in {', '.join(forwarded_for)!r}): it counts as the proxy's own "
                           f"address (this is logged once)")
                return peer
            chosen = ip
            if not self.trusts_ip(ip):
                break
        assert chosen is not None  # (entries isn't empty)
        return str(chosen)

    def _tell(self, kind: str, message: str) -> None:
        if kind not in self._told:
            self._told.add(kind)
            log.warning("%s", message)
