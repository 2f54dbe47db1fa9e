"""A TCP forwarder a test can cut and restore: PostgreSQL unreachable on demand.

Workers connect to the gate's port instead of the server's.  `cut()` drops
every forwarded connection and answers each new one by closing it (a server
that is down), `restore()` forwards again.  Threads, not asyncio, so it
serves while the test's own event loop waits or blocks.
"""

from __future__ import annotations

import socket
import threading


class Gate:
    def __init__(self, host: str, port: int):
        self.target = (host, port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.open = True
        self.pairs: set[tuple[socket.socket, socket.socket]] = set()
        self.lock = threading.Lock()
        self.stopped = False

    def start(self) -> "Gate":
        threading.Thread(target=self._accept, daemon=True, name="gate-accept").start()
        return self

    def _accept(self) -> None:
        while not self.stopped:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # stopped
            if not self.open:
                client.close()
                continue
            try:
                server = socket.create_connection(self.target, timeout=5)
                server.settimeout(None)
            except OSError:
                client.close()
                continue
            pair = (client, server)
            with self.lock:
                self.pairs.add(pair)
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b, pair), daemon=True, name="gate-pump").start()

    def _pump(self, source: socket.socket, sink: socket.socket, pair) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            self._drop(pair)

    def _drop(self, pair) -> None:
        with self.lock:
            self.pairs.discard(pair)
        for s in pair:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()

    def cut(self) -> None:
        self.open = False
        with self.lock:
            pairs = list(self.pairs)
        for pair in pairs:
            self._drop(pair)

    def restore(self) -> None:
        self.open = True

    def stop(self) -> None:
        self.stopped = True
        self.cut()
        self.listener.close()
