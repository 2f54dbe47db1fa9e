"""Writing match frames straight onto Daphne's plain TCP sockets.

Through ASGI a message crosses Daphne's reply handler, autobahn's framing
and Twisted's write buffer, which registers the socket with the event loop
and writes on its next turn: the largest single cost of an action under load
(bench/ws_load.py with MATCH_WS_FAST_PATH=0 shows it).  A server-to-client text frame is
two to ten header bytes and the payload (servers never mask), so when the
socket has nothing queued the frame is handed to the kernel at once.

This leans on internals of Daphne, autobahn and Twisted.  It is used only
when every one of these holds, and otherwise the message takes the ASGI path:
- MATCH_WS_FAST_PATH is on and the installed versions are the pinned ones
  (PINNED; constraints.txt pins the whole tree; a test fails on any change);
- the ASGI `send` is Daphne's reply handler bound to a WebSocket protocol;
- the transport is Twisted's plain TCP server connection, not TLS
  (ISSLTransport), with no compression negotiated and nothing buffered.
"""

from __future__ import annotations

import functools
import logging
import struct
from importlib import metadata

from daphne.server import Server
from daphne.ws_protocol import WebSocketProtocol
from django.conf import settings
from twisted.internet import tcp
from twisted.internet.interfaces import ISSLTransport

log = logging.getLogger(__name__)

PINNED = {"daphne": "4.2.3", "autobahn": "26.11.1", "Twisted": "26.10.0"}
_broken: list = []  # non-empty once an internal turned out missing


def _installed_as_pinned() -> str | None:
    """None when the installed versions are PINNED, else what differs."""
    for name, version in PINNED.items():
        try:
            found = metadata.version(name)
        except metadata.PackageNotFoundError:
            return f"{name} is not installed"
        if found != version:
            return f"{name} {found} is installed, the fast path was checked against {version}"
    return None


@functools.cache
def unavailable() -> str | None:
    """Why the fast path is off in this process, or None when it is on."""
    if not settings.MATCH_WS_FAST_PATH:
        return "MATCH_WS_FAST_PATH is off"
    reason = _installed_as_pinned()
    if reason is not None:
        log.warning("match frames take the ASGI path: %s", reason)
    return reason


def text_frame(payload: bytes) -> bytes:
    """One unmasked, final text frame (RFC 6455 section 5.2)."""
    size = len(payload)
    if size < 126:
        return bytes((0x81, size)) + payload
    if size < 65536:
        return struct.pack("!BBH", 0x81, 126, size) + payload
    return struct.pack("!BBQ", 0x81, 127, size) + payload


class Wire:
    __slots__ = ("protocol",)

    def __init__(self, protocol):
        self.protocol = protocol

    @classmethod
    def for_send(cls, send) -> "Wire | None":
        """The wire under an ASGI `send` callable if it is Daphne's, else None."""
        if unavailable() is not None:
            return None
        if not isinstance(send, functools.partial) or not send.args:
            return None
        if not isinstance(getattr(send.func, "__self__", None), Server):
            return None
        protocol = send.args[0]
        return cls(protocol) if isinstance(protocol, WebSocketProtocol) else None

    def send_text(self, text: str) -> bool:
        """Send one text message now; False if this socket cannot take it
        that way (the caller then uses the ASGI path, which also knows what
        to do with a closing or closed connection)."""
        try:
            return self._send(text)
        except AttributeError:  # an internal moved: off for good in this process, loudly
            log.exception("match frames take the ASGI path from now on: the shortcut met an unknown internal")
            _broken.append(True)
            return False

    def _send(self, text: str) -> bool:
        if _broken:
            return False
        protocol = self.protocol
        transport = protocol.transport
        if (type(transport) is not tcp.Server or ISSLTransport.providedBy(transport)
                or protocol.state != protocol.STATE_OPEN or protocol.websocket_extensions_in_use
                or protocol.send_queue or not transport.connected or transport.disconnecting):
            return False
        frame = text_frame(text.encode("utf-8"))
        if not transport._tempDataBuffer and transport.offset == len(transport.dataBuffer):
            try:
                sent = transport.getHandle().send(frame)
            except OSError:
                # EAGAIN, or a broken connection Twisted notices on its own
                # write below and closes through its usual path.
                sent = 0
            if sent == len(frame):
                return True
            frame = frame[sent:]
        transport.write(frame)
        return True


def for_scope(scope) -> Wire | None:
    return scope.get("wire")


class WireMiddleware:
    """Outermost WebSocket middleware: records the server's own `send` as
    scope["wire"] before Channels' session wrapper hides it."""

    def __init__(self, inner):
        self.inner = inner

    async def __call__(self, scope, receive, send):
        return await self.inner(dict(scope, wire=Wire.for_send(send)), receive, send)
