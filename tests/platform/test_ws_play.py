"""A full Condottiere match over WebSockets through the real ASGI app and channel layer."""

from __future__ import annotations

import random

import pytest

from backend.asgi import application
from backend.engines import canonical, get_engine

from .match_support import Player, condottiere_policy, create, db_match, log_rows, make_users, token_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("match_env")]


async def test_three_players_and_a_spectator_play_condottiere_to_the_end():
    users = await make_users(3)
    match_id = await create("condottiere", users, seed=7)
    players = [Player(application, match_id, await token_for(u)) for u in users]
    spectator = Player(application, match_id)
    for p in players + [spectator]:
        await p.connect()
    assert [p.state["seat"] for p in players] == [0, 1, 2]
    assert spectator.state["seat"] is None and spectator.state["legal_actions"] == []
    assert spectator.state["view"]["hand"] is None

    version, rng = 0, random.Random(7)
    while spectator.state["view"]["phase"] != "over":
        movers = [p for p in players if p.state["legal_actions"]]
        assert movers
        # Several seats may decide at once (discard_hand); they act one version at a time.
        mover = movers[0]
        # Every seat and the spectator hear of the same version; only the mover may act.
        await mover.act(condottiere_policy(mover.state["legal_actions"], rng))
        version += 1
        for p in players + [spectator]:
            state = await p.until_version(version)
            assert state["version"] == version
        assert version < 3000
    match = await db_match(match_id)
    assert match.status == "finished" and match.version == version
    assert match.result == get_engine("condottiere").result(match.state)
    assert spectator.state["status"] == "finished"
    rows = await log_rows(match_id)
    assert [r["version"] for r in rows] == list(range(1, version + 1))
    # Spectator's final view is the engine's spectator view of the stored snapshot.
    assert canonical(spectator.state["view"]) == canonical(get_engine("condottiere").view(match.state, None))
    for p in players + [spectator]:
        assert not p.errors
        await p.close()
