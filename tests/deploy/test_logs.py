"""LOG_FORMAT=json on a real worker: one JSON line per request and socket event, and no secret in any line.

The worker runs with the shipped unit's command line and everything it
prints is captured: sign-ups and log-ins with passwords, session and CSRF
cookies, API tokens in headers, a WebSocket ticket in `?ticket=`, a private
lobby's invite code in `?code=`, a password-reset link, and a (private)
match played over WebSockets.
"""

from __future__ import annotations

import asyncio
import json
import os
import uuid

import pytest
from django.db import connection

from tests.support.deploy import MatchViewer, Session, Worker, connect, fetch, migrated_database_url, play
from tests.support.servers import server_env

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "a-secret-passphrase-" + uuid.uuid4().hex[:8]
RESET_TOKEN = "cz1abc-" + uuid.uuid4().hex  # shaped like Django's reset tokens


def _sign_up(base: str, name: str) -> tuple[Session, int]:
    session = Session(base)
    assert session.call("GET", "/api/auth/csrf/")[0] == 204
    status, me = session.call("POST", "/api/auth/signup/", {"username": name, "password": PASSWORD})
    assert status == 201, me
    return session, me["id"]


async def _play(base_ws: str, match_id: int, tokens: list[str], moves: int) -> list[str]:
    """Seats connect (one with a single-use ?ticket=, the others with a token header) and play `moves`
    actions; the state messages they received, as sent."""
    url = f"{base_ws}/ws/matches/{match_id}/"
    status, ticket = Session(base_ws.replace("ws://", "http://")).call(
        "POST", "/api/auth/ws-ticket/", headers={"Authorization": f"Token {tokens[0]}"})
    assert status == 200, ticket
    seats = [await MatchViewer.join(f"{url}?ticket={ticket['ticket']}")]
    seats += [await MatchViewer.join(url, t) for t in tokens[1:]]
    assert await play(seats, [], lambda legal: legal[0], moves) == moves
    for seat in seats:
        await seat.ws.close()
    return [raw for seat in seats for raw in seat.received]


async def test_json_lines_record_requests_and_sockets_without_secrets(tmp_path):
    env = server_env(await asyncio.to_thread(migrated_database_url, connection.settings_dict, tmp_path),
                     REDIS_URL=os.environ.get("REDIS_URL", ""), LOG_FORMAT="json", LOG_LEVEL="INFO", DJANGO_DEBUG="0",
                     THROTTLE_SIGNUP="1000/min", THROTTLE_LOGIN="1000/min")
    worker = await asyncio.to_thread(Worker, env, tmp_path / "worker.log")
    try:
        base = worker.url
        names = [f"logged{i}{uuid.uuid4().hex[:6]}" for i in range(3)]
        (host, host_id), (guest, _), (third, _) = [_sign_up(base, n) for n in names]
        # A log-in with the password, then tokens for scripts.
        assert host.call("POST", "/api/auth/logout/")[0] == 204
        host.call("GET", "/api/auth/csrf/")
        assert host.call("POST", "/api/auth/login/", {"username": names[0], "password": PASSWORD})[0] == 200
        tokens = [Session(base).call("POST", "/api/auth/token/", {"username": n, "password": PASSWORD})[1]["token"]
                  for n in names]
        assert fetch("GET", base + "/api/auth/me/", headers={"Authorization": f"Token {tokens[1]}"})[0] == 200
        assert fetch("GET", base + f"/reset/MQ/{RESET_TOKEN}")[0] == 200  # the page a reset mail links to

        # A private lobby: its code travels in query strings and bodies.
        status, lobby = host.call("POST", "/api/lobbies/", {"game": "condottiere", "options": {}, "num_seats": 3,
                                                            "private": True})
        assert status == 201, lobby
        code = lobby["invite_code"]
        room = await connect(f"ws://127.0.0.1:{worker.port}/ws/lobbies/{lobby['id']}/?code={code}")
        assert json.loads(await room.recv())["type"] == "lobby"
        for player in (guest, third):
            assert player.call("GET", f"/api/lobbies/{lobby['id']}/?code={code}")[0] == 200
            assert player.call("POST", f"/api/lobbies/{lobby['id']}/join/", {"code": code})[0] == 200
        status, started = host.call("POST", f"/api/lobbies/{lobby['id']}/start/")
        assert status == 201, started
        await room.close()
        states = await _play(f"ws://127.0.0.1:{worker.port}", started["match_id"], tokens, moves=6)
        match_path = f"/ws/matches/{started['match_id']}/"
        ends = await asyncio.to_thread(worker.wait_for_lines, lambda line: line.get("event") == "ws_disconnect"
                                       and line["path"] == match_path, 3)
    finally:
        await asyncio.to_thread(worker.stop)

    text = worker.text()
    lines = worker.json_lines()  # every line is one JSON object
    access = [line for line in lines if line["logger"] == "games.access"]
    http = [line for line in access if line["event"] == "http"]
    assert {"method", "path", "status", "duration_ms", "client", "user"} <= set(http[0])
    assert any(line["path"] == "/api/auth/login/" and line["status"] == 200 and line["user"] == host_id
               for line in http)
    assert any(line["path"] == f"/api/lobbies/{lobby['id']}/" and line["method"] == "GET" for line in http)
    assert sum(line["event"] == "ws_connect" and line["path"] == match_path for line in access) == 3
    assert len(ends) == 3 and all(line["code"] == 1000 and line["duration_ms"] > 0 for line in ends)
    assert all(line["client"] == "127.0.0.1" for line in access)

    secrets = {"password": PASSWORD, "invite code": code, "reset token": RESET_TOKEN,
               **{f"token {t}": t for t in tokens}}
    for session in (host, guest, third):
        # Every cookie but the language one ("en"), which says nothing about anyone.
        secrets.update({f"cookie {k}": v for k, v in session.cookies.items() if v and k != "django_language"})
    for what, secret in secrets.items():
        assert secret not in text, f"the log shows a {what}"
    assert any(line["path"] == "/reset/…" for line in http)
    for fragment in ("?", "ticket=", "code=", "Cookie", "Authorization"):
        assert not any(fragment in json.dumps(line) for line in access), fragment
    # No game state: neither the messages the sockets received nor any part of a view.
    assert states and not any(raw in text for raw in states)
    for key in ('"hand"', "legal_actions", '"view"', '"type": "state"'):
        assert key not in text, key
