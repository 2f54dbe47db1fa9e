"""The client's address behind the documented proxy (settings.TRUSTED_PROXY_COUNT).

Each trusted proxy appends the address it received the request from to
X-Forwarded-For, so with N of them the client is the Nth entry from the right;
whatever stands further left was written by the client and proves nothing.
With 0 (the default: clients connect straight to Daphne) the header is ignored.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings


def client_address(meta) -> str:
    """The client's IP address from a request's META."""
    remote = meta.get("REMOTE_ADDR") or ""
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies <= 0:
        return remote
    hops = [hop.strip() for hop in meta.get("HTTP_X_FORWARDED_FOR", "").split(",") if hop.strip()]
    if not hops:
        return remote
    # Fewer entries than proxies: the request skipped the outer ones, and the
    # leftmost entry was written by the first trusted proxy it met.
    candidate = hops[-proxies] if len(hops) >= proxies else hops[0]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return remote


def throttle_key(address: str) -> str:
    """What a per-address limit counts: the address, or its /64 for IPv6,
    since one IPv6 host is usually handed a whole /64 to pick addresses from."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 4:
        return str(ip)
    if ip.ipv4_mapped is not None:  # ::ffff:203.0.113.7 is that IPv4 client
        return str(ip.ipv4_mapped)
    return str(ipaddress.ip_network(f"{ip}/64", strict=False))
