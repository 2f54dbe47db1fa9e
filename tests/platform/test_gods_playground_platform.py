"""God's Playground plugs into the platform with no platform change (issue 5, "Done when"):
a 3-seat lobby is created over REST, two server bots fill seats, and the host's seat
is played by a script that, like any bot client, sees only what the server sends it."""

from __future__ import annotations

import random

import pytest
from channels.db import database_sync_to_async
from rest_framework.test import APIClient

from backend.asgi import application
from backend.engines import canonical, get_engine

from .match_support import Player, db_match, log_rows, make_users, play_seat_to_the_end, token_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("match_env")]


@database_sync_to_async
def _open_and_start(host) -> int:
    client = APIClient()
    client.force_authenticate(host)
    games = {g["id"]: g for g in client.get("/api/games/").json()}
    assert games["gods_playground"]["min_players"] == games["gods_playground"]["max_players"] == 3
    for wrong in (2, 4):  # God's Playground is exactly three players
        refused = client.post("/api/lobbies/", {"game": "gods_playground", "num_seats": wrong}, format="json")
        assert refused.status_code == 400 and refused.json()["code"] == "bad_message"
    lobby = client.post("/api/lobbies/", {"game": "gods_playground", "num_seats": 3, "private": False}, format="json")
    assert lobby.status_code == 201, lobby.content
    lobby_id = lobby.json()["id"]
    for bot in ("heuristic", "random"):
        assert client.post(f"/api/lobbies/{lobby_id}/bots/", {"bot": bot}, format="json").status_code == 200
    started = client.post(f"/api/lobbies/{lobby_id}/start/")
    assert started.status_code == 201, started.content
    return started.json()["match_id"]


async def test_a_gods_playground_lobby_plays_to_the_end_with_bots():
    engine = get_engine("gods_playground")
    (host,) = await make_users(1, prefix="gp")
    match_id = await _open_and_start(host)
    me, spectator = Player(application, match_id, await token_for(host)), Player(application, match_id)
    await me.connect()
    await spectator.connect()
    seat = me.state["seat"]
    assert seat in (0, 1, 2) and spectator.state["seat"] is None

    await play_seat_to_the_end(me, engine.bots["heuristic"], random.Random(5))

    match = await db_match(match_id)
    assert match.status == "finished" and engine.is_over(match.state)
    assert match.result == engine.result(match.state) and len(match.result["scores"]) == 3
    rows = await log_rows(match_id)
    assert [r["version"] for r in rows] == list(range(1, match.version + 1))
    assert {r["seat"] for r in rows} == {0, 1, 2}
    assert match.state["round"] == 4 and len(rows) > 100  # all four rounds were played
    assert sum(r["seat"] == seat for r in rows) > 10  # the script really played its seat
    # Errors a racing client may see are only stale versions; nothing illegal was sent.
    assert {e["code"] for e in me.errors} <= {"stale_version", "not_your_turn"}
    # The spectator ends on the engine's public view of the stored snapshot.
    final = await spectator.until_version(match.version, timeout=30)
    assert canonical(final["view"]) == canonical(engine.view(match.state, None))
    await me.close()
    await spectator.close()
