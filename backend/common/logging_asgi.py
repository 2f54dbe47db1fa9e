"""Access records for WebSocket connections, as an ASGI middleware.

One record when a connection is accepted or refused and one when it ends,
with the path (the query string, which may carry `?ticket=`, is left out),
the client address, the close code and who closed first, and how long the
connection lasted.  Nothing a socket carries is looked at beyond the
message types.

It must sit inside backend.matches.ws.wire.WireMiddleware (which needs
Daphne's own `send`) and outside the origin check, so refused handshakes
are recorded too:

    WireMiddleware(WebSocketAccessLog(OriginCheck(...)))
"""

from __future__ import annotations

import logging
import time

from .logs import ACCESS, log_access, loggable_path


class WebSocketAccessLog:
    def __init__(self, inner):
        self.inner = inner

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket" or not ACCESS.isEnabledFor(logging.INFO):
            return await self.inner(scope, receive, send)
        connection = _Connection(scope)

        async def logged_send(message):
            connection.sent(message)
            await send(message)

        async def logged_receive():
            message = await receive()
            if message["type"] == "websocket.disconnect":
                connection.closed(message.get("code"), "client")
            return message

        try:
            return await self.inner(scope, logged_receive, logged_send)
        finally:
            connection.ended()


class _Connection:
    __slots__ = ("path", "client", "started", "accepted", "rejected", "code", "by")

    def __init__(self, scope):
        self.path = loggable_path(scope.get("path", ""))
        client = scope.get("client")
        self.client = client[0] if client else None
        self.started = time.perf_counter()
        self.accepted = self.rejected = False
        self.code = self.by = None

    def sent(self, message) -> None:
        kind = message["type"]
        if kind == "websocket.accept":
            self.accepted = True
            log_access(f"WS connect {self.path}", {"event": "ws_connect", "path": self.path, "client": self.client})
        elif kind == "websocket.close":
            if not self.accepted and not self.rejected:
                self.rejected = True
                self._record("ws_reject", "WS reject", message.get("code", 1000), "server")
            self.closed(message.get("code", 1000), "server")

    def closed(self, code, by: str) -> None:
        if self.by is None:  # the first close is the one that says why
            self.code, self.by = code, by

    def ended(self) -> None:
        if not self.rejected:  # accepted, or the client left during the handshake
            self._record("ws_disconnect", "WS disconnect", self.code, self.by)

    def _record(self, event: str, verb: str, code, by) -> None:
        duration = round((time.perf_counter() - self.started) * 1000, 1)
        log_access(f"{verb} {self.path} {code} {duration}ms", {
            "event": event, "path": self.path, "client": self.client, "code": code, "closed_by": by,
            "duration_ms": duration,
        })
