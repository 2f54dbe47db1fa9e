"""A match with a master bot seat plays to the end through the real runtime: its moves
come from the bot process pool (runtime/bots.py) while a script plays the host's seat
over the WebSocket, seeing only what the server sends it."""

from __future__ import annotations

import random

import pytest
from channels.db import database_sync_to_async
from rest_framework.test import APIClient

from backend.asgi import application
from backend.engines import get_engine

from .match_support import Player, db_match, log_rows, make_users, play_seat_to_the_end, token_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _env(match_env):
    match_env.BOT_BUDGET_S = 0.02  # a short think: the test is about where, not how well
    return match_env


@database_sync_to_async
def _open_and_start(host) -> int:
    client = APIClient()
    client.force_authenticate(host)
    lobby = client.post("/api/lobbies/", {"game": "condottiere", "num_seats": 3, "private": False}, format="json")
    assert lobby.status_code == 201, lobby.content
    for bot in ("master", "beginner"):
        assert client.post(f"/api/lobbies/{lobby.json()['id']}/bots/", {"bot": bot}, format="json").status_code == 200
    started = client.post(f"/api/lobbies/{lobby.json()['id']}/start/")
    assert started.status_code == 201, started.content
    return started.json()["match_id"]


async def test_a_condottiere_match_with_a_master_bot_plays_to_the_end(caplog):
    engine = get_engine("condottiere")
    (host,) = await make_users(1, prefix="mb")
    match_id = await _open_and_start(host)
    me = Player(application, match_id, await token_for(host))
    await me.connect()
    await play_seat_to_the_end(me, engine.bots["advanced"], random.Random(5))
    match = await db_match(match_id)
    assert match.status == "finished" and engine.is_over(match.state)
    seats = await database_sync_to_async(lambda: {s.seat: s.bot for s in match.seats.all()})()
    master = next(seat for seat, bot in seats.items() if bot == "master")
    rows = await log_rows(match_id)
    assert sum(r["seat"] == master for r in rows) > 5  # the master seat played its own moves
    assert {e["code"] for e in me.errors} <= {"stale_version", "not_your_turn"}
    # No move fell back to chance: the pool answered every time.
    assert not [r for r in caplog.records if "bot" in r.getMessage() and r.levelname in ("ERROR", "WARNING")]
