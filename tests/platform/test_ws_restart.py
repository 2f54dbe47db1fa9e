"""Restarts: matches live in the database, not in a server process.

A new application instance (cold cache, fresh channel layer) resumes a match;
a reconnecting client resyncs to the current version; and a real Daphne
process killed mid-match is replaced by a new one that carries on.
"""

from __future__ import annotations

import asyncio
import json
import os
import uuid
from pathlib import Path

import pytest
from channels.layers import channel_layers
from django.db import connection

from backend.matches.runtime import MatchHub
from tests.support.servers import Daphne, database_url, manage, server_env
from tests.support.wsclient import ConnectionClosed, WebSocket

from .match_support import Player, create, log_rows, make_users, token_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("match_env")]
ROOT = Path(__file__).resolve().parents[2]


def _fresh_application():
    """What a newly started process has: no match runtime, an empty channel layer."""
    MatchHub.close_all()
    channel_layers.backends.clear()
    import backend.asgi as asgi

    return asgi.application


async def _play(players: list[Player], steps: int) -> int:
    version = players[0].state["version"]
    for _ in range(steps):
        mover = next(p for p in players if p.state["legal_actions"])
        await mover.act(mover.state["legal_actions"][0])
        version += 1
        for p in players:
            await p.until_version(version)
    return version


async def test_a_new_application_instance_resumes_and_clients_resync():
    users = await make_users(3)
    match_id = await create("condottiere", users, seed=21)
    app = _fresh_application()
    tokens = [await token_for(u) for u in users]
    players = [Player(app, match_id, t) for t in tokens]
    for p in players:
        await p.connect()
    await _play(players, 4)
    # Seat 2 drops out; the others carry on without it.
    await players[2].close()
    version = await _play(players[:2], 0)
    for _ in range(3):
        mover = next((p for p in players[:2] if p.state["legal_actions"]), None)
        if mover is None:
            break
        await mover.act(mover.state["legal_actions"][0])
        version += 1
        for p in players[:2]:
            await p.until_version(version)
    back = Player(app, match_id, tokens[2])
    assert (await back.connect())["version"] == version
    await back.send({"type": "sync"})
    assert (await back.next("state"))["version"] == version
    for p in players[:2] + [back]:
        await p.close()

    # A new process: nothing in memory; everything comes from the database.
    app = _fresh_application()
    players = [Player(app, match_id, t) for t in tokens]
    for p in players:
        assert (await p.connect())["version"] == version
    final = await _play(players, 5)
    assert [r["version"] for r in await log_rows(match_id)] == list(range(1, final + 1))
    for p in players:
        await p.close()


# ---- a real Daphne process --------------------------------------------------
SETUP = """
import json, uuid
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from backend.matches.services import create_match
User = get_user_model()
users = [User.objects.create_user(username=f"daphne{i}-{uuid.uuid4().hex[:6]}", password="x-long-pass-123") for i in range(3)]
match = create_match("condottiere", {}, users, 13, True)
print(json.dumps({"match": match.pk, "tokens": [Token.objects.create(user=u).key for u in users],
                  "names": [u.username for u in users]}))
"""

CHECK = """
import json
from backend.matches.models import ActionLog, Match
m = Match.objects.get(pk=%d)
print(json.dumps({"version": m.version, "log": list(ActionLog.objects.filter(match=m).order_by("version").values_list("version", flat=True))}))
"""


class Remote:
    def __init__(self, ws: WebSocket):
        self.ws, self.state, self.versions = ws, None, []

    @classmethod
    async def join(cls, port: int, match_id: int, token: str) -> "Remote":
        self = cls(await WebSocket.connect("127.0.0.1", port, f"/ws/matches/{match_id}/",
                                           headers={"Authorization": f"Token {token}"}))
        await self.until(0)
        return self

    async def until(self, version: int) -> dict:
        while self.state is None or self.state["version"] < version:
            message = json.loads(await asyncio.wait_for(self.ws.recv(), 10))
            assert message["type"] != "error", message
            if message["type"] == "state":
                self.state = message
                self.versions.append(message["version"])
        return self.state


async def _play_remote(remotes: list[Remote], steps: int) -> int:
    version = remotes[0].state["version"]
    for _ in range(steps):
        mover = next(r for r in remotes if r.state["legal_actions"])
        await mover.ws.send(json.dumps({"type": "action", "version": version, "id": uuid.uuid4().hex,
                                        "action": mover.state["legal_actions"][0]}))
        version += 1
        for r in remotes:
            await r.until(version)
    return version


def _server_env(tmp_path) -> dict:
    env = server_env(database_url(connection.settings_dict, tmp_path / "db.sqlite3"))
    if connection.vendor != "postgresql":
        manage(env, "migrate", "--noinput", "-v", "0")
    return env


async def test_a_restarted_daphne_process_carries_on(tmp_path):
    env = await asyncio.to_thread(_server_env, tmp_path)
    made = json.loads((await asyncio.to_thread(manage, env, "shell", "-c", SETUP)).strip().splitlines()[-1])
    match_id, tokens = made["match"], made["tokens"]

    server = await asyncio.to_thread(Daphne, env)
    port = server.port
    try:
        remotes = [await Remote.join(port, match_id, t) for t in tokens]
        version = await _play_remote(remotes, 4)
        await asyncio.to_thread(server.stop)
        for r in remotes:  # every client sees its connection end
            with pytest.raises((ConnectionClosed, asyncio.TimeoutError)):
                while True:
                    await asyncio.wait_for(r.ws.recv(), 5)
        server = await asyncio.to_thread(Daphne, env, port)
        remotes = [await Remote.join(port, match_id, t) for t in tokens]
        assert all(r.state["version"] == version for r in remotes)
        final = await _play_remote(remotes, 4)
        for r in remotes:
            await r.ws.close()
    finally:
        await asyncio.to_thread(server.stop)
    stored = json.loads((await asyncio.to_thread(manage, env, "shell", "-c", CHECK % match_id)).strip().splitlines()[-1])
    assert stored == {"version": final, "log": list(range(1, final + 1))}


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="processes share a channel layer only through Redis")
async def test_two_daphne_processes_serve_one_match(tmp_path):
    """Seats on different processes: each action reaches everyone exactly once."""
    env = await asyncio.to_thread(_server_env, tmp_path)
    made = json.loads((await asyncio.to_thread(manage, env, "shell", "-c", SETUP)).strip().splitlines()[-1])
    match_id, tokens = made["match"], made["tokens"]
    servers = [await asyncio.to_thread(Daphne, env) for _ in range(2)]
    try:
        remotes = [await Remote.join(servers[i % 2].port, match_id, t) for i, t in enumerate(tokens)]
        spectator = Remote(await WebSocket.connect("127.0.0.1", servers[1].port, f"/ws/matches/{match_id}/"))
        await spectator.until(0)
        final = await _play_remote(remotes, 12)
        assert (await spectator.until(final))["version"] == final
        for r in remotes + [spectator]:
            assert r.versions == sorted(set(r.versions)), r.versions  # none twice, in order
            await r.ws.close()
    finally:
        for server in servers:
            await asyncio.to_thread(server.stop)
    stored = json.loads((await asyncio.to_thread(manage, env, "shell", "-c", CHECK % match_id)).strip().splitlines()[-1])
    assert stored == {"version": final, "log": list(range(1, final + 1))}


async def test_a_stopping_process_sends_new_sockets_on_at_once():
    """While a process drains before it stops, a socket that reaches it (nginx routes a match's sockets to one
    worker until that worker is gone) is told `restarting` and closed with 4503, as the sockets it closes are:
    the app reconnects at once instead of backing off as after 4513 (deploy/README.md, Restarts and faults)."""
    users = await make_users(3)
    match_id = await create("condottiere", users, seed=3)
    app = _fresh_application()
    token = await token_for(users[0])
    await MatchHub.current().drain()
    late = Player(app, match_id, token)
    refusal = await late.connect()
    assert refusal["type"] == "error" and refusal["code"] == "restarting", refusal
    assert (await late.comm.receive_output(timeout=2)) == {"type": "websocket.close", "code": 4503}
    MatchHub.close_all()
