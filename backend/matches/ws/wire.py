"""Writing match messages straight onto a Daphne WebSocket.

Every state message used to travel consumer.send -> Channels' session
wrapper -> Daphne's handle_reply coroutine -> autobahn's sendMessage (which
formats debug-log arguments whether or not debug is on) -> Twisted's
transport.write, which buffers and registers the socket for writing, so each
message also cost two epoll_ctl calls and a turn of the event loop before the
bytes left.  Profiled under bench/ws_load.py that path was the largest single
cost of an action (four messages per action).

A server-to-client text frame is two to ten header bytes and the payload
(servers never mask), so when the socket has nothing queued the frame is
handed to the kernel at once; anything else (a backlog, a closing socket,
TLS, compression, a server that is not Daphne) goes through the normal path.
`Wire.for_send` returns None outside Daphne, and the consumer then uses
Channels' send as before.
"""

from __future__ import annotations

import functools
import struct

try:
    from daphne.server import Server as _DaphneServer
    from daphne.ws_protocol import WebSocketProtocol as _DaphneWebSocket
except ImportError:  # pragma: no cover - daphne is a requirement
    _DaphneServer = _DaphneWebSocket = None

_OPEN = 3  # autobahn's WebSocketProtocol.STATE_OPEN


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
        """The wire under an ASGI `send` callable if Daphne made it, else None."""
        if _DaphneServer is None or not isinstance(send, functools.partial) or not send.args:
            return None
        if not isinstance(getattr(send.func, "__self__", None), _DaphneServer):
            return None
        protocol = send.args[0]
        return cls(protocol) if isinstance(protocol, _DaphneWebSocket) else None

    def send_text(self, text: str) -> bool:
        """Send one text message now; False if the socket is not open for it
        (the caller then falls back to the ASGI path, which knows what to do
        with a closing or closed connection)."""
        protocol = self.protocol
        transport = protocol.transport
        if (protocol.state != _OPEN or transport is None or protocol._perMessageCompress is not None
                or protocol.send_queue or getattr(transport, "TLS", False)):
            return False
        if not transport.connected or transport.disconnecting:
            return False
        frame = text_frame(text.encode("utf-8"))
        # (The transport's registered producer, twisted.web's HTTPChannel left
        # from the upgrade request, only matters once data is buffered.)
        if not transport._tempDataBuffer and transport.offset == len(transport.dataBuffer):
            try:
                sent = transport.socket.send(frame)
            except OSError:
                # EAGAIN, or a broken connection Twisted will notice on its own
                # write below and close through its usual path.
                sent = 0
            if sent == len(frame):
                return True
            frame = frame[sent:]
        transport.write(frame)
        return True


class WireMiddleware:
    """Outermost WebSocket middleware: records the server's own `send` as
    scope["wire"] before Channels' session wrapper hides it."""

    def __init__(self, inner):
        self.inner = inner

    async def __call__(self, scope, receive, send):
        return await self.inner(dict(scope, wire=Wire.for_send(send)), receive, send)
