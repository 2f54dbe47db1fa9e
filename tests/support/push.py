"""A stand-in for a browser's push service: a local HTTP server that keeps what it is sent,
and a device's keys made by the test, so the test decrypts what the worker encrypted (http_ece)."""

from __future__ import annotations

import base64
import json
import os
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


@dataclass
class Device:
    """A browser's subscription: the keys only the device holds, and what it tells the site."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def p256dh(self) -> str:
        return b64(self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                      serialization.PublicFormat.UncompressedPoint))

    def subscription(self) -> dict:
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": b64(self.auth)}}

    def decrypt(self, body: bytes) -> dict:
        return json.loads(http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"))


class PushService:
    """Answers each POST with the status set for its path (201 unless told), and records it."""

    def __init__(self):
        self.received: list[tuple[str, dict, bytes]] = []  # (path, headers, body) of each answered 2xx
        self.attempts: list[str] = []  # the path of every POST
        self.status: dict[str, int] = {}
        self.arrived = threading.Condition()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                code = service.status.get(self.path, 201)
                with service.arrived:
                    service.attempts.append(self.path)
                    if 200 <= code < 300:
                        service.received.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                    service.arrived.notify_all()
                self.send_response(code)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True, name="push-service")
        self.thread.start()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def device(self, name: str) -> Device:
        return Device(f"{self.base}/push/{name}")

    def wait(self, predicate, timeout: float) -> bool:
        """Until predicate(self) holds (each POST wakes the waiter), or the timeout."""
        with self.arrived:
            return self.arrived.wait_for(lambda: predicate(self), timeout)

    def close(self):
        self.server.shutdown()
        self.server.server_close()
