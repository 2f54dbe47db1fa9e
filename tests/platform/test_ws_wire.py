"""Frames written straight onto Daphne's sockets (backend/matches/ws/wire.py).

The frames must be what RFC 6455 says, read by an independent client
(wsproto); TLS sockets must never get them (they take the ASGI path); the
versions the shortcut was checked against must be the installed ones; and a
viewer that stops reading must still get every version, in order, once.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import socket
import ssl
import subprocess
import uuid

import pytest
from django.db import connection
from wsproto import ConnectionType, WSConnection
from wsproto.frame_protocol import FrameProtocol, Opcode
from wsproto.events import AcceptConnection, CloseConnection, Message, Request, TextMessage

from backend.matches.ws import wire
from tests.support.servers import ROOT, Daphne, database_url, manage, server_env
from tests.support.wsclient import WebSocket

from .test_ws_restart import SETUP, Remote

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_shortcut_is_on_only_for_the_versions_it_was_checked_against(settings):
    """Upgrading Daphne, autobahn or Twisted turns the shortcut off (and fails
    this test): check wire.py against the new versions, then update PINNED and
    constraints.txt together."""
    wire.unavailable.cache_clear()
    try:
        assert wire.unavailable() is None
        settings.MATCH_WS_FAST_PATH = False
        wire.unavailable.cache_clear()
        assert wire.unavailable() == "MATCH_WS_FAST_PATH is off"
    finally:
        wire.unavailable.cache_clear()
    constraints = (ROOT / "constraints.txt").read_text()
    for name, version in wire.PINNED.items():
        assert f"{name.lower()}=={version}" in constraints.lower(), name


def _server(tmp_path, **extra) -> tuple[dict, dict]:
    env = server_env(database_url(connection.settings_dict, tmp_path / "db.sqlite3"), **extra)
    if connection.vendor != "postgresql":
        manage(env, "migrate", "--noinput", "-v", "0")
    made = json.loads(manage(env, "shell", "-c", SETUP).strip().splitlines()[-1])
    return env, made


class WsprotoClient:
    """A WebSocket client built on wsproto's own parser, over any stream."""

    def __init__(self, reader, writer):
        self.reader, self.writer = reader, writer
        self.ws = WSConnection(ConnectionType.CLIENT)
        self.messages: list[str] = []
        self.parts: list[str] = []

    @classmethod
    async def connect(cls, host: str, port: int, path: str, token: str | None = None, tls=None,
                      origin: str | None = None, extra: dict | None = None) -> "WsprotoClient":
        reader, writer = await asyncio.open_connection(host, port, ssl=tls)
        self = cls(reader, writer)
        headers = [(b"authorization", f"Token {token}".encode())] if token else []
        headers += [(b"origin", origin.encode())] if origin else []
        headers += list((extra or {}).items())
        self.writer.write(self.ws.send(Request(host=f"{host}:{port}", target=path, extra_headers=headers)))
        await self._until(lambda e: isinstance(e, AcceptConnection))
        return self

    async def _until(self, done) -> None:
        while True:
            for event in self.ws.events():
                if isinstance(event, TextMessage):
                    self.parts.append(event.data)
                    if event.message_finished:
                        self.messages.append("".join(self.parts))
                        self.parts = []
                elif isinstance(event, Message):
                    raise AssertionError(f"unexpected message {event!r}")
                elif isinstance(event, CloseConnection):
                    raise ConnectionError(f"closed: {event.code}")
                if done(event):
                    return
            data = await asyncio.wait_for(self.reader.read(65536), 10)
            if not data:
                raise ConnectionError("connection lost")
            self.ws.receive_data(data)

    async def recv(self) -> dict:
        while not self.messages:
            await self._until(lambda e: bool(self.messages))
        return json.loads(self.messages.pop(0))

    async def send(self, message: dict) -> None:
        self.writer.write(self.ws.send(Message(data=json.dumps(message))))
        await self.writer.drain()

    async def close(self) -> None:
        self.writer.close()


async def _play(clients: list[WsprotoClient], actions: int, first: list | None = None) -> list[list[int]]:
    """Play `actions` actions; the versions each client received, in order (the first states into `first`)."""
    states = [await c.recv() for c in clients]
    if first is not None:
        first.extend(states)
    seen = [[s["version"]] for s in states]
    for _ in range(actions):
        mover = next(i for i, s in enumerate(states) if s["legal_actions"])
        version = states[mover]["version"]
        await clients[mover].send({"type": "action", "version": version, "id": uuid.uuid4().hex,
                                   "action": states[mover]["legal_actions"][-1]})
        for i, client in enumerate(clients):
            while states[i]["version"] <= version:
                message = await client.recv()
                assert message["type"] in ("state", "presence"), message
                if message["type"] == "state":
                    states[i] = message
                    seen[i].append(message["version"])
    return seen


async def test_frames_of_every_size_read_by_an_independent_client(match_env, tmp_path):
    """States from a few hundred bytes to tens of kilobytes (God's Playground's
    views are the largest), read by wsproto from a real Daphne."""
    env, made = await asyncio.to_thread(_server, tmp_path)
    with await asyncio.to_thread(Daphne, env) as server:
        path = f"/ws/matches/{made['match']}/"
        clients = [await WsprotoClient.connect("127.0.0.1", server.port, path, t) for t in made["tokens"]]
        clients.append(await WsprotoClient.connect("127.0.0.1", server.port, path))
        seen = await _play(clients, 40)
        assert all(s == list(range(s[0], s[0] + 41)) for s in seen), seen
        for c in clients:
            await c.close()
    for size in (0, 1, 125, 126, 127, 65535, 65536, 200_000):  # every length class of the header
        text = ("é" + "x" * size)[:size]
        frames = FrameProtocol(client=True, extensions=[])
        frames.receive_bytes(wire.text_frame(text.encode()))
        [frame] = list(frames.received_frames())
        assert (frame.opcode, frame.payload, frame.message_finished) == (Opcode.TEXT, text, True), size


def _tls_files(tmp_path) -> tuple:
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out",
                    str(cert), "-days", "1", "-subj", "/CN=127.0.0.1"], check=True, capture_output=True)
    tls = ssl.create_default_context(cafile=str(cert))
    tls.check_hostname = False
    return key, cert, tls


async def test_tls_sockets_never_take_the_shortcut(match_env, tmp_path):
    """Daphne terminating TLS: three wss players and a spectator play on (the
    shortcut would write plaintext onto the encrypted socket)."""
    key, cert, tls = _tls_files(tmp_path)
    env, made = await asyncio.to_thread(_server, tmp_path)
    port = _free_port()
    argv = ["-e", f"ssl:{port}:interface=127.0.0.1:privateKey={key}:certKey={cert}", "backend.asgi:application"]
    with await asyncio.to_thread(Daphne, env, port, None, argv):
        path = f"/ws/matches/{made['match']}/"
        clients = [await WsprotoClient.connect("127.0.0.1", port, path, t, tls=tls) for t in made["tokens"]]
        clients.append(await WsprotoClient.connect("127.0.0.1", port, path, tls=tls))
        seen = await _play(clients, 20)
        assert all(s == list(range(s[0], s[0] + 21)) for s in seen), seen
        for c in clients:
            await c.close()


async def test_browsers_on_daphnes_own_tls_get_every_version(match_env, tmp_path):
    """Issue 25: Daphne's WebSocket scope has no scheme, so a page served by
    Daphne's own TLS (production settings, no proxy) had every socket refused
    for its `Origin: https://...`.  The TLS port comes from Daphne's command
    line (backend/common/daphne_tls.py); a plain port beside it stays http,
    and a forged X-Forwarded-Proto does not make it https without a proxy."""
    key, cert, tls = _tls_files(tmp_path)
    env, made = await asyncio.to_thread(_server, tmp_path, DJANGO_PRODUCTION="1", DJANGO_SECRET_KEY="x" * 60,
                                        DJANGO_ALLOWED_HOSTS="127.0.0.1", TRUSTED_PROXY_COUNT="0")
    port, plain = _free_port(), _free_port()
    argv = ["--endpoint", f"ssl:port={port}:interface=127.0.0.1:privateKey={key}:certKey={cert}",
            "-b", "127.0.0.1", "-p", str(plain), "backend.asgi:application"]
    with await asyncio.to_thread(Daphne, env, port, None, argv):
        path = f"/ws/matches/{made['match']}/"
        origin = f"https://127.0.0.1:{port}"
        # Each seat comes as a browser may (docs/api.md, Who you are): the session cookie of a log-in
        # made over the same TLS, a single-use ticket asked for over it, or a header token.
        cookie = await asyncio.to_thread(_session_cookie, port, tls, origin, made["names"][0])
        ticket = await asyncio.to_thread(_ticket, port, tls, made["tokens"][1])
        seats = [await WsprotoClient.connect("127.0.0.1", port, path, tls=tls, origin=origin,
                                             extra={b"cookie": cookie.encode()}),
                 await WsprotoClient.connect("127.0.0.1", port, f"{path}?ticket={ticket}", tls=tls, origin=origin),
                 await WsprotoClient.connect("127.0.0.1", port, path, made["tokens"][2], tls=tls, origin=origin)]
        first: list[dict] = []
        seen = await _play(seats, 20, first)
        assert sorted(s["seat"] for s in first) == [0, 1, 2], first  # each came as its player, none as a spectator
        assert all(s == list(range(s[0], s[0] + 21)) for s in seen), seen
        lobby = await WsprotoClient.connect("127.0.0.1", port, "/ws/lobbies/", tls=tls, origin=origin,
                                            extra={b"cookie": cookie.encode()})
        assert (await lobby.recv())["type"] != "error"
        # The page's own scheme only: http on the TLS port, https on the plain one, are other sites.
        for p, scheme, context, extra in ((port, "http", tls, {}), (plain, "https", None, {}),
                                          (plain, "https", None, {b"x-forwarded-proto": b"https"})):
            refused = await WsprotoClient.connect("127.0.0.1", p, path, made["tokens"][0], tls=context,
                                                  origin=f"{scheme}://127.0.0.1:{p}", extra=extra)
            assert (await refused.recv())["code"] == "forbidden"
            with pytest.raises(ConnectionError, match="4403"):
                await refused.recv()
        for c in seats + [lobby]:
            await c.close()


def _https(port: int, tls, method: str, path: str, headers: dict, body: dict | None = None):
    connection = http.client.HTTPSConnection("127.0.0.1", port, context=tls, timeout=10)
    try:
        connection.request(method, path, json.dumps(body) if body is not None else None,
                           {"Content-Type": "application/json", **headers})
        response = connection.getresponse()
        return response.status, response.msg.get_all("Set-Cookie") or [], response.read()
    finally:
        connection.close()


def _cookies(set_cookie: list[str]) -> dict:
    return dict(c.split(";", 1)[0].split("=", 1) for c in set_cookie)


def _session_cookie(port: int, tls, origin: str, name: str) -> str:
    """Log in as the web app does (csrf cookie, then the log-in with its token): the Cookie header."""
    status, set_cookie, _ = _https(port, tls, "GET", "/api/auth/csrf/", {})
    assert status == 204, status
    csrf = _cookies(set_cookie)["csrftoken"]
    status, set_cookie, body = _https(port, tls, "POST", "/api/auth/login/",
                                      {"Cookie": f"csrftoken={csrf}", "X-CSRFToken": csrf, "Origin": origin,
                                       "Referer": origin + "/"},
                                      {"username": name, "password": "x-long-pass-123"})
    assert status == 200, body
    return f"csrftoken={csrf}; sessionid={_cookies(set_cookie)['sessionid']}"


def _ticket(port: int, tls, token: str) -> str:
    status, _, body = _https(port, tls, "POST", "/api/auth/ws-ticket/", {"Authorization": f"Token {token}"})
    assert status == 200, body
    return json.loads(body)["ticket"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_a_viewer_that_stops_reading_still_gets_every_version_in_order(match_env, tmp_path):
    env, made = await asyncio.to_thread(_server, tmp_path)
    with await asyncio.to_thread(Daphne, env) as server:
        port = server.port
        remotes = [await Remote.join(port, made["match"], t) for t in made["tokens"]]
        # A spectator with a tiny receive window that reads nothing while the
        # match runs: the server's socket buffer fills and frames must queue.
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
        sock.connect(("127.0.0.1", port))
        reader, writer = await asyncio.open_connection(sock=sock, limit=2048)
        slow = await WebSocket.handshake(reader, writer, "127.0.0.1", port, f"/ws/matches/{made['match']}/")
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
