"""Presence across processes (runtime/presence.py, presence_keeper.py):
each process tells a match's group its own counts; a process that died
without saying goodbye drops out of everyone's presence; live ones stay
listed."""

from __future__ import annotations

import asyncio
import json
import os
import time
import uuid

import pytest
from channels.layers import get_channel_layer

from backend.asgi import application
from backend.matches.runtime import group_name
from backend.matches.runtime.presence import EXPIRY_INTERVALS
from tests.support.servers import Daphne, database_url, manage, server_env
from tests.support.wsclient import WebSocket

from .match_support import Player, create, make_users, token_for
from .test_ws_restart import SETUP

pytestmark = pytest.mark.django_db(transaction=True)

INTERVAL = 0.2


@pytest.fixture(autouse=True)
def _env(match_env):
    match_env.MATCH_PRESENCE_INTERVAL = INTERVAL
    match_env.MATCH_PRESENCE_COALESCE = 0.01
    return match_env


async def _tell(match_id: int, process: str, seats: list, spectators: int, hello: bool = False) -> None:
    """A presence message as another server process sends it."""
    await get_channel_layer().group_send(group_name(match_id), {
        "type": "presence", "match": match_id, "process": process, "seats": seats,
        "spectators": spectators, "hello": hello})


def _said(monkeypatch) -> list[dict]:
    """The presence messages this process sends from now on, as they go out."""
    layer = get_channel_layer()
    said: list[dict] = []
    original = layer.group_send

    async def record(group, message):
        if message["type"] == "presence":
            said.append(json.loads(json.dumps(message)))
        return await original(group, message)

    monkeypatch.setattr(layer, "group_send", record)
    return said


async def _presence(player: Player, connected: list, spectators: int, timeout: float = 5) -> None:
    while player.presence != {"type": "presence", "connected": connected, "spectators": spectators}:
        await player.next("presence", timeout=timeout)


async def _seat0_and_spectator() -> tuple[int, list[Player]]:
    users = await make_users(3)
    match_id = await create("condottiere", users)
    players = [Player(application, match_id, await token_for(users[0])), Player(application, match_id)]
    for p in players:
        await p.connect()
    for p in players:
        await _presence(p, [0], 1)
    return match_id, players


async def test_a_process_that_vanishes_without_leaving_expires():
    match_id, players = await _seat0_and_spectator()
    # Connections of a process that then dies: no goodbye, no heartbeat.
    start = time.monotonic()
    await _tell(match_id, uuid.uuid4().hex, [[1, 1]], 1, hello=True)
    for p in players:
        await _presence(p, [0, 1], 2)
    for p in players:
        await _presence(p, [0], 1)
    elapsed = time.monotonic() - start
    assert elapsed >= EXPIRY_INTERVALS * INTERVAL, elapsed  # dropped for silence, not at once
    for p in players:
        await p.close()


async def test_heartbeats_keep_a_process_listed_and_a_goodbye_drops_it_at_once():
    match_id, players = await _seat0_and_spectator()
    other = uuid.uuid4().hex

    async def heartbeats():
        while True:
            await _tell(match_id, other, [[1, 2], [2, 1]], 3)
            await asyncio.sleep(INTERVAL)

    beating = asyncio.create_task(heartbeats())
    try:
        for p in players:
            await _presence(p, [0, 1, 2], 4)
        # Twice the expiry time: the heartbeats keep the other process's connections listed.
        for p in players:
            assert await p.silent(2 * EXPIRY_INTERVALS * INTERVAL), p.raw[-1]
    finally:
        beating.cancel()
    await _tell(match_id, other, [], 0)  # its last connection left
    for p in players:
        await _presence(p, [0], 1)
    for p in players:
        await p.close()


async def test_a_hello_is_answered_with_this_processs_counts(monkeypatch):
    match_id, players = await _seat0_and_spectator()
    said = _said(monkeypatch)
    await _tell(match_id, uuid.uuid4().hex, [[2, 1]], 0, hello=True)
    for p in players:
        await _presence(p, [0, 2], 1)
    answers = [m for m in said if m["process"] != said[0]["process"]]
    assert answers and answers[0]["seats"] == [[0, 1]] and answers[0]["spectators"] == 1
    for p in players:
        await p.close()


async def test_one_message_per_process_and_match_however_many_connections(monkeypatch):
    users = await make_users(3)
    match_id = await create("condottiere", users)
    said = _said(monkeypatch)
    players = [Player(application, match_id, await token_for(u)) for u in users]
    players += [Player(application, match_id) for _ in range(8)]
    for p in players:
        await p.connect()
    for p in players:
        await _presence(p, [0, 1, 2], 8)
    # Another process follows the match (a spectator there), beating as this one does.
    other = uuid.uuid4().hex

    async def heartbeats():
        while True:
            await _tell(match_id, other, [], 1)
            await asyncio.sleep(INTERVAL)

    beating = asyncio.create_task(heartbeats())
    try:
        for p in players:
            await _presence(p, [0, 1, 2], 9)
        said.clear()
        await asyncio.sleep(6 * INTERVAL)
    finally:
        beating.cancel()
    mine = [m for m in said if m["process"] != other]
    # Eleven connections here: one heartbeat an interval, not one per connection.
    assert 3 <= len(mine) <= 7, len(mine)
    assert mine[-1]["seats"] == [[0, 1], [1, 1], [2, 1]] and mine[-1]["spectators"] == 8
    for p in players:
        await p.close()


async def test_a_process_alone_on_a_match_sends_no_heartbeats_until_another_one_says_hello(monkeypatch):
    """Heartbeats keep other processes' record of this one alive: with nobody
    else following the match there is nobody to tell (a server's idle matches
    cost it no channel-layer traffic).  A process that begins to follow the
    match is answered at once, and from then on hears a heartbeat an interval."""
    match_id, players = await _seat0_and_spectator()
    said = _said(monkeypatch)
    await asyncio.sleep(4 * INTERVAL)
    assert said == []
    other = uuid.uuid4().hex
    await _tell(match_id, other, [[2, 1]], 0, hello=True)
    for p in players:
        await _presence(p, [0, 2], 1)

    async def heartbeats():
        while True:
            await asyncio.sleep(INTERVAL)
            await _tell(match_id, other, [[2, 1]], 0)

    beating = asyncio.create_task(heartbeats())
    try:
        await asyncio.sleep(5 * INTERVAL)
    finally:
        beating.cancel()
    mine = [m for m in said if m["process"] != other]
    assert mine[0]["seats"] == [[0, 1]] and mine[0]["spectators"] == 1
    assert len(mine) >= 3, mine  # the answer, then a heartbeat an interval
    # The other process falls silent: once it has expired here, so do the heartbeats.
    for p in players:
        await _presence(p, [0], 1)
    said.clear()
    await asyncio.sleep(3 * INTERVAL)
    assert said == []
    for p in players:
        await p.close()


# ---- real server processes ----------------------------------------------------
async def _presence_remote(ws: WebSocket, expected: dict, timeout: float = 10) -> None:
    end = time.monotonic() + timeout
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), max(0.01, end - time.monotonic())))
        if message == expected:
            return


async def _no_presence_change(ws: WebSocket, expected: dict, seconds: float) -> None:
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        try:
            message = json.loads(await asyncio.wait_for(ws.recv(), left))
        except asyncio.TimeoutError:
            return
        assert message["type"] != "presence" or message == expected, message


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="processes share a channel layer only through Redis")
async def test_a_killed_processs_connections_leave_the_others_presence(tmp_path):
    from django.db import connection

    env = server_env(database_url(connection.settings_dict, tmp_path / "db.sqlite3"),
                     MATCH_PRESENCE_INTERVAL=str(INTERVAL))
    made = json.loads((await asyncio.to_thread(manage, env, "shell", "-c", SETUP)).strip().splitlines()[-1])
    match_id, tokens = made["match"], made["tokens"]
    servers = [await asyncio.to_thread(Daphne, env) for _ in range(2)]
    path = f"/ws/matches/{match_id}/"

    def auth(seat):
        return {"Authorization": f"Token {tokens[seat]}"}

    try:
        # Seats 0 and 2 on the process about to die; seat 1 and a spectator on the other.
        doomed = [await WebSocket.connect("127.0.0.1", servers[0].port, path, headers=auth(s)) for s in (0, 2)]
        survivors = [await WebSocket.connect("127.0.0.1", servers[1].port, path, headers=auth(1)),
                     await WebSocket.connect("127.0.0.1", servers[1].port, path)]
        everyone = {"type": "presence", "connected": [0, 1, 2], "spectators": 1}
        for ws in survivors:
            await _presence_remote(ws, everyone)
        # Heartbeats across processes keep the remote seats listed well past the expiry time.
        for ws in survivors:
            await _no_presence_change(ws, everyone, 2 * EXPIRY_INTERVALS * INTERVAL)
        servers[0].kill()
        for ws in survivors:
            await _presence_remote(ws, {"type": "presence", "connected": [1], "spectators": 1})
        for ws in survivors + doomed:
            await ws.close()
    finally:
        for server in servers:
            await asyncio.to_thread(server.stop)
