"""Address classification: whether a peer IP address is a public web server's.

Global unicast only, after unwrapping the IPv4 address that IPv4-mapped, NAT64, 6to4 and Teredo
addresses embed; ranges ``ipaddress`` misreports on Python 3.11 are listed explicitly.
"""

from __future__ import annotations

import ipaddress

# IPv4 ranges that are never a public web server, whatever ipaddress' flags say on this Python.
_BLOCKED_V4 = tuple(
    ipaddress.IPv4Network(n)
    for n in (
        "0.0.0.0/8",  # "this network"
        "10.0.0.0/8",
        "100.64.0.0/10",  # CGNAT
        "127.0.0.0/8",
        "169.254.0.0/16",  # link-local, cloud metadata
        "172.16.0.0/12",
        "192.0.0.0/24",
        "192.0.2.0/24",
        "192.88.99.0/24",  # 6to4 relay anycast
        "192.168.0.0/16",
        "198.18.0.0/15",
        "198.51.100.0/24",
        "203.0.113.0/24",
        "224.0.0.0/4",  # multicast
        "240.0.0.0/4",  # reserved, broadcast
    )
)
_GLOBAL_UNICAST_V6 = ipaddress.IPv6Network("2000::/3")
_DOCUMENTATION_V6 = ipaddress.IPv6Network("3fff::/20")  # RFC 9637; `is_global` on 3.11 says True
_NAT64 = (ipaddress.IPv6Network("64:ff9b::/96"), ipaddress.IPv6Network("64:ff9b:1::/48"))
_TEREDO = ipaddress.IPv6Network("2001::/32")


def is_public_address(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """True only for global unicast addresses, after unwrapping IPv4 embedded in IPv6."""
    if isinstance(address, ipaddress.IPv6Address):
        embedded = _embedded_ipv4(address)
        if embedded is not None:
            return is_public_address(embedded)
        if address.ipv4_mapped is None and int(address) >> 32 == 0:
            return False  # ::/96 IPv4-compatible, ::, ::1
        return (
            address in _GLOBAL_UNICAST_V6
            and address not in _DOCUMENTATION_V6
            and address.is_global
            and not (address.is_multicast or address.is_reserved or address.is_link_local)
        )
    if any(address in net for net in _BLOCKED_V4):
        return False
    return address.is_global and not (
        address.is_multicast or address.is_reserved or address.is_loopback or address.is_link_local
    )


def _embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if any(address in net for net in _NAT64):
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    if address.sixtofour is not None:
        return address.sixtofour
    if address in _TEREDO and address.teredo is not None:
        server, client = address.teredo
        return client if is_public_address(server) else server
    return None
