"""State frames written straight onto Daphne's sockets (backend/matches/ws/wire.py).

The frames must be what RFC 6455 says (checked with the project's own client
decoder), and a viewer that stops reading must still get every version, in
order, once: past the kernel's buffers the frames queue in Twisted instead.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import uuid

import pytest

from backend.matches.client import WebSocket
from backend.matches.ws.wire import text_frame

from . import test_ws_restart as restart
from .match_support import match_env  # noqa: F401  (fixture)


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65535, 65536, 200_000])
def test_text_frames_decode_at_every_length_class(size):
    text = ("é" + "x" * size)[:size] if size else ""
    ws = WebSocket(reader=None, writer=None)  # the client's own frame parser, fed by hand
    stream = text_frame(text.encode()) + text_frame(b"next")
    ws.buffer += stream[:-3]
    assert ws._next_frame() == (0x81, text.encode())
    assert ws._next_frame() is None  # the second frame is not complete yet
    ws.buffer += stream[-3:]
    assert ws._next_frame() == (0x81, b"next")
    assert not ws.buffer


@pytest.mark.django_db(transaction=True)
async def test_a_viewer_that_stops_reading_still_gets_every_version_in_order(match_env, tmp_path):
    env = await restart.daphne_env(tmp_path)
    made = json.loads((await asyncio.to_thread(restart._manage, env, "shell", "-c", restart.SETUP))
                      .strip().splitlines()[-1])
    port = restart._free_port()
    server = await restart._start_daphne(env, port)
    try:
        remotes = [await restart.Remote.join(port, made["match"], t) for t in made["tokens"]]
        # A spectator with a tiny receive window that reads nothing while the
        # match runs: the server's socket buffer fills and frames must queue.
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
        sock.connect(("127.0.0.1", port))
        reader, writer = await asyncio.open_connection(sock=sock, limit=2048)
        slow = await _handshake(reader, writer, f"/ws/matches/{made['match']}/")
        first = json.loads(await slow.recv())
        assert first["type"] == "state"
        version = first["version"]
        played = 0
        while played < 150 and remotes[0].state["status"] == "active":
            mover = next(r for r in remotes if r.state["legal_actions"])
            await mover.ws.send(json.dumps({"type": "action", "version": version, "id": uuid.uuid4().hex,
                                            "action": mover.state["legal_actions"][0]}))
            version += 1
            played += 1
            for r in remotes:
                await r.until(version)
        seen = [first["version"]]
        while seen[-1] < version:
            message = json.loads(await asyncio.wait_for(slow.recv(), 10))
            if message["type"] == "state":
                seen.append(message["version"])
        assert seen == list(range(first["version"], version + 1))
        assert played >= 100
        for r in remotes:
            await r.ws.close()
        await slow.close()
    finally:
        server.send_signal(signal.SIGTERM)
        await asyncio.to_thread(server.wait, 20)


async def _handshake(reader, writer, path: str) -> WebSocket:
    """WebSocket.connect's handshake over a socket this test configured itself."""
    import base64

    key = base64.b64encode(os.urandom(16)).decode()
    host = "127.0.0.1"
    writer.write((f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nOrigin: http://{host}\r\n\r\n").encode())
    response = await reader.readuntil(b"\r\n\r\n")
    assert b" 101 " in response.split(b"\r\n", 1)[0] + b" "
    return WebSocket(reader, writer)
