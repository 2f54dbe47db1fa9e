"""Which web pages may open our WebSockets.

A browser sends the page's origin with every WebSocket handshake and sends
our cookies whatever the page: without this check any site could act as a
signed-in visitor.  Allowed: the site's own origin (scheme, host and port of
the handshake itself, the host being one of ALLOWED_HOSTS) and the origins
in CSRF_TRUSTED_ORIGINS.  A handshake without an Origin header is not from
a browser and passes (scripts authenticate with a header or a ticket).  A
refused socket is accepted, told why in an `error` message and closed with
4403, like every other refusal (docs/api.md).
"""

from __future__ import annotations

import json

from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils.translation import gettext as _

from . import daphne_tls

CLOSE_FORBIDDEN = 4403
_DEFAULT_PORTS = {"http": "80", "https": "443"}


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin1")
    return None


def _normal(origin: str) -> str | None:
    """scheme://host:port with the default port spelled out, or None."""
    scheme, sep, rest = origin.strip().lower().partition("://")
    if not sep or scheme not in _DEFAULT_PORTS or not rest or "/" in rest:
        return None
    host, port = split_domain_port(rest)
    if not host:
        return None
    return f"{scheme}://{host}:{port or _DEFAULT_PORTS[scheme]}"


def _own_origin(scope) -> str | None:
    host = _header(scope, b"host")
    if not host:
        return None
    domain, _port = split_domain_port(host.lower())
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return None
    server = scope.get("server")
    secure = scope.get("scheme") == "wss" or bool(server and server[1] in daphne_tls.tls_ports())
    proxy_header = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy_header and settings.TRUSTED_PROXY_COUNT > 0:
        name, value = proxy_header
        forwarded = _header(scope, name.lower().removeprefix("http_").replace("_", "-").encode("latin1"))
        secure = secure or forwarded == value
    return _normal(f"{'https' if secure else 'http'}://{host}")


def origin_allowed(scope) -> bool:
    origin = _header(scope, b"origin")
    if origin is None:
        return True
    wanted = _normal(origin)
    if wanted is None:
        return False
    trusted = {_normal(o) for o in settings.CSRF_TRUSTED_ORIGINS}
    return wanted == _own_origin(scope) or wanted in trusted


class OriginCheck:
    def __init__(self, inner):
        self.inner = inner

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket" or origin_allowed(scope):
            return await self.inner(scope, receive, send)
        message = await receive()
        if message["type"] != "websocket.connect":
            return
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": json.dumps({
            "type": "error", "code": "forbidden", "id": None,
            "message": _("This page may not open a connection to the game server.")},
            ensure_ascii=False, separators=(",", ":"))})
        await send({"type": "websocket.close", "code": CLOSE_FORBIDDEN})
