"""Presence heartbeats: connections of a process that died without saying
goodbye drop out of everyone's presence list; live ones stay listed."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
import uuid

import pytest
from channels.layers import get_channel_layer

from backend.asgi import application
from backend.matches.client import WebSocket
from backend.matches.presence import EXPIRY_INTERVALS
from backend.matches.services import group_name

from .match_support import match_env  # noqa: F401  (fixture)
from .match_support import Player, create, make_users, token_for
from .test_ws_restart import SETUP, _free_port, _manage, _start_daphne, daphne_env

pytestmark = pytest.mark.django_db(transaction=True)

INTERVAL = 0.2


@pytest.fixture(autouse=True)
def _env(match_env):
    match_env.MATCH_PRESENCE_INTERVAL = INTERVAL
    return match_env


def _ghost() -> str:
    """The channel name of a connection on some other process."""
    return f"elsewhere.{uuid.uuid4().hex}!{uuid.uuid4().hex[:12]}"


async def _tell(match_id: int, kind: str, **fields) -> None:
    await get_channel_layer().group_send(group_name(match_id), {"type": kind, "match": match_id, **fields})


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


async def test_a_peer_that_vanishes_without_leaving_expires():
    match_id, players = await _seat0_and_spectator()
    # Joins from a process that then dies: no goodbye, no heartbeat.
    start = time.monotonic()
    await _tell(match_id, "presence.join", channel=_ghost(), seat=1)
    await _tell(match_id, "presence.join", channel=_ghost(), seat=None)
    for p in players:
        await _presence(p, [0, 1], 2)
    for p in players:
        await _presence(p, [0], 1)
    elapsed = time.monotonic() - start
    assert elapsed >= EXPIRY_INTERVALS * INTERVAL, elapsed  # dropped for silence, not at once
    for p in players:
        await p.close()


async def test_heartbeats_keep_a_peer_listed_and_teach_missed_ones():
    match_id, players = await _seat0_and_spectator()
    kept, learned, vanished = _ghost(), _ghost(), _ghost()
    await _tell(match_id, "presence.join", channel=kept, seat=1)
    await _tell(match_id, "presence.join", channel=vanished, seat=None)
    for p in players:
        await _presence(p, [0, 1], 2)

    async def heartbeats(viewers: dict):
        while True:
            await _tell(match_id, "presence.alive", viewers=viewers)
            await asyncio.sleep(INTERVAL)

    # A peer that joined before these connections did, known only from heartbeats.
    beating = asyncio.create_task(heartbeats({kept: 1, learned: 2}))
    try:
        for p in players:
            await _presence(p, [0, 1, 2], 2)
        for p in players:
            await _presence(p, [0, 1, 2], 1)  # the silent one expires
        # Twice the expiry time: the heartbeats keep the others (local and remote) listed.
        for p in players:
            assert await p.silent(2 * EXPIRY_INTERVALS * INTERVAL), p.raw[-1]
    finally:
        beating.cancel()
    for p in players:
        await _presence(p, [0], 1)
    for p in players:
        await p.close()


async def test_a_late_heartbeat_does_not_bring_back_a_peer_that_left():
    match_id, players = await _seat0_and_spectator()
    peer = _ghost()
    await _tell(match_id, "presence.join", channel=peer, seat=2)
    for p in players:
        await _presence(p, [0, 2], 1)
    await _tell(match_id, "presence.leave", channel=peer)
    for p in players:
        await _presence(p, [0], 1)
    # Sent by its process just before the goodbye, delivered just after.
    await _tell(match_id, "presence.alive", viewers={peer: 2})
    for p in players:
        assert await p.silent(2 * INTERVAL), p.raw[-1]
    for p in players:
        await p.close()


async def test_one_heartbeat_per_process_and_match(monkeypatch):
    users = await make_users(3)
    match_id = await create("condottiere", users)
    layer = get_channel_layer()
    beats: list[dict] = []
    original = layer.group_send

    async def record(group, message):
        if message["type"] == "presence.alive":
            beats.append(json.loads(json.dumps(message)))
        return await original(group, message)

    monkeypatch.setattr(layer, "group_send", record)
    players = [Player(application, match_id, await token_for(u)) for u in users] + [Player(application, match_id)]
    for p in players:
        await p.connect()
    for p in players:
        await _presence(p, [0, 1, 2], 1)
    beats.clear()
    await asyncio.sleep(6 * INTERVAL)
    # Four consumers here: one message an interval, not one per consumer.
    assert 3 <= len(beats) <= 7, len(beats)
    assert all(b["match"] == match_id for b in beats)
    assert sorted(beats[-1]["viewers"].values(), key=lambda s: -1 if s is None else s) == [None, 0, 1, 2]
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
    env = await daphne_env(tmp_path)
    env["MATCH_PRESENCE_INTERVAL"] = str(INTERVAL)
    made = json.loads((await asyncio.to_thread(_manage, env, "shell", "-c", SETUP)).strip().splitlines()[-1])
    match_id, tokens = made["match"], made["tokens"]
    ports = [_free_port(), _free_port()]
    servers = [await _start_daphne(env, port) for port in ports]
    path = f"/ws/matches/{match_id}/"
    try:
        # Seats 0 and 2 on the process about to die; seat 1 and a spectator on the other.
        doomed = [await WebSocket.connect("127.0.0.1", ports[0], f"{path}?token={tokens[s]}") for s in (0, 2)]
        survivors = [await WebSocket.connect("127.0.0.1", ports[1], f"{path}?token={tokens[1]}"),
                     await WebSocket.connect("127.0.0.1", ports[1], path)]
        everyone = {"type": "presence", "connected": [0, 1, 2], "spectators": 1}
        for ws in survivors:
            await _presence_remote(ws, everyone)
        # Heartbeats across processes keep the remote seats listed well past the expiry time.
        for ws in survivors:
            await _no_presence_change(ws, everyone, 2 * EXPIRY_INTERVALS * INTERVAL)
        servers[0].send_signal(signal.SIGKILL)
        await asyncio.to_thread(servers[0].wait, 20)
        for ws in survivors:
            await _presence_remote(ws, {"type": "presence", "connected": [1], "spectators": 1})
        for ws in survivors + doomed:
            await ws.close()
    finally:
        for server in servers:
            if server.poll() is None:
                server.send_signal(signal.SIGTERM)
        for server in servers:
            await asyncio.to_thread(server.wait, 20)
