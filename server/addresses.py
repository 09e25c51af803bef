"""A client's address as every per-address limit counts it (:func:`ip_key`)."""

from __future__ import annotations

import ipaddress


def ip_key(host: str) -> str:
    """:func:`address_key` of an address as a string: IPv4, or an IPv6 address's /64 (the
    IPv4 address of an IPv4-mapped one; loopback as itself); anything else as given."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        if not ip.is_loopback:
            return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)
