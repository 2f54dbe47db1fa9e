"""A minimal asyncio WebSocket client (RFC 6455) for tests and bench/ws_load.py.

Only what the match protocol needs: one text message per frame each way,
ping answered, close honoured.  Standard library only, so a script can talk
to a running server without extra packages.
"""

from __future__ import annotations

import asyncio
import base64
import os
import struct


class ConnectionClosed(Exception):
    pass


class WebSocket:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.reader, self.writer = reader, writer
        self.closed = False
        self.buffer = bytearray()

    @classmethod
    async def connect(cls, host: str, port: int, path: str, origin: str | None = None,
                      headers: dict | None = None, tls=None) -> "WebSocket":
        """Open a connection; `headers` such as {"Authorization": "Token <key>"}; `tls` an SSLContext."""
        reader, writer = await asyncio.open_connection(host, port, ssl=tls)
        return await cls.handshake(reader, writer, host, port, path, origin, headers)

    @classmethod
    async def handshake(cls, reader, writer, host: str, port: int, path: str, origin: str | None = None,
                        headers: dict | None = None) -> "WebSocket":
        """The opening handshake over a stream the caller opened."""
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [f"GET {path} HTTP/1.1", f"Host: {host}:{port}", "Upgrade: websocket", "Connection: Upgrade",
                 f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13",
                 f"Origin: {origin or f'http://{host}:{port}'}"]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        response = await reader.readuntil(b"\r\n\r\n")
        status = response.split(b"\r\n", 1)[0]
        if b" 101 " not in status + b" ":
            writer.close()
            raise ConnectionClosed(f"handshake refused: {status.decode(errors='replace')}")
        return cls(reader, writer)

    async def send(self, text: str) -> None:
        self._frame(0x1, text.encode())
        await self.writer.drain()

    def _frame(self, opcode: int, payload: bytes) -> None:
        n = len(payload)
        if n < 126:
            header = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
        elif n < 65536:
            header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
        else:
            header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
        mask = os.urandom(4)
        # XOR with the repeated mask as one big integer: fast without numpy.
        repeated = (mask * (n // 4 + 1))[:n]
        masked = (int.from_bytes(payload, "big") ^ int.from_bytes(repeated, "big")).to_bytes(n, "big") if n else b""
        self.writer.write(header + mask + masked)

    async def recv(self) -> str:
        """The next text message; raises ConnectionClosed when the server closes."""
        parts: list[bytes] = []
        while True:
            frame = self._next_frame()
            if frame is None:
                # Whatever has arrived, in one read: a load generator receives
                # thousands of frames a second, several per read.
                try:
                    chunk = await self.reader.read(65536)
                except ConnectionError:
                    chunk = b""
                if not chunk:
                    self.closed = True
                    raise ConnectionClosed("connection lost")
                self.buffer += chunk
                continue
            first, data = frame
            opcode = first & 0x0F
            if opcode == 0x8:
                self.closed = True
                code = struct.unpack("!H", data[:2])[0] if len(data) >= 2 else None
                raise ConnectionClosed(f"closed by server ({code})")
            if opcode == 0x9:
                self._frame(0xA, data)
                continue
            if opcode == 0xA:
                continue
            parts.append(data)
            if first & 0x80:
                return b"".join(parts).decode()

    def _next_frame(self) -> tuple[int, bytes] | None:
        """(first header byte, payload) of the next whole frame in the buffer, or None."""
        buf = self.buffer
        if len(buf) < 2:
            return None
        first, second = buf[0], buf[1]
        n, pos = second & 0x7F, 2
        if n == 126:
            if len(buf) < 4:
                return None
            (n,), pos = struct.unpack_from("!H", buf, 2), 4
        elif n == 127:
            if len(buf) < 10:
                return None
            (n,), pos = struct.unpack_from("!Q", buf, 2), 10
        mask = None
        if second & 0x80:  # servers do not mask, but tolerate it
            if len(buf) < pos + 4:
                return None
            mask, pos = bytes(buf[pos:pos + 4]), pos + 4
        if len(buf) < pos + n:
            return None
        data = bytes(buf[pos:pos + n])
        del buf[:pos + n]
        if mask is not None:
            data = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        return first, data

    async def close(self) -> None:
        if not self.closed:
            self.closed = True
            try:
                self._frame(0x8, struct.pack("!H", 1000))
                await self.writer.drain()
            except ConnectionError:
                pass
        self.writer.close()
