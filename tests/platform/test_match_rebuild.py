"""A move writes its action, events and version; the match row takes the game
state only every MATCH_STATE_EVERY versions and at the end (backend/matches/
store.py).  Every version of a match, rebuilt from the last stored state and
the log, is the state that was played, byte for byte: through the REST write
path (one statement, SQLite's two), through the live socket (the group commit
on PostgreSQL), with platform moves (a hand-over to the bot) in between."""

from __future__ import annotations

import random

import pytest
from channels.db import database_sync_to_async

from backend.asgi import application
from backend.engines import canonical, get_engine
from backend.matches import domain, services, store, timing
from backend.matches.models import Match

from .match_support import Player, condottiere_policy, create, make_users, token_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _env(match_env):
    match_env.MATCH_STATE_EVERY = 5
    return match_env


def _stored(match_id: int) -> tuple[int, int]:
    return tuple(Match.objects.filter(pk=match_id).values_list("version", "state_version").get())


@pytest.mark.parametrize("game", ["condottiere", "gods_playground"])
def test_every_version_rebuilds_to_the_state_played(game, make_user):
    users = [make_user() for _ in range(3)]
    match = services.create_match(game, {}, users, 17, True)
    info = store.read_info(match.pk)
    engine, rng = get_engine(game), random.Random(3)
    played = {0: canonical(match.state)}
    stored_versions = set()
    version = 0
    while version < 60:
        snapshot = store.read_snapshot(info)
        assert snapshot.version == version and canonical(snapshot.state) == played[version]
        if snapshot.status != "active":
            break
        seat = engine.to_move(snapshot.state)[0]
        if version == 7:  # a platform move: who plays the seat changes, the game state does not
            state = services.resign(users[seat], match.pk).snapshot.state
        else:  # as the runtime writes a move (a bot's, for the resigned seat)
            action = rng.choice(list(engine.legal_actions(snapshot.state, seat)))
            move = domain.check(info, snapshot, seat, action, f"c{version}", timing.now_ms(), bot=True)
            assert store.write_atomic(move) == store.WRITTEN
            state = move.applied.state
        version += 1
        played[version] = canonical(state)
        now, kept = _stored(match.pk)
        assert now == version
        stored_versions.add(kept)
        # The state is written every 5 versions, and when the match ends (a resignation may end it).
        status = store.read_snapshot(info).status
        assert kept == (version if version % 5 == 0 or status != "active" else version - version % 5)
    assert len(stored_versions) >= 3
    for v, state in played.items():
        assert canonical(store.read_state_at(match.pk, v)) == state, f"version {v}"
    assert canonical(store.read_state(match.pk)) == played[version]


async def test_the_socket_played_versions_rebuild_to_what_the_viewers_saw():
    users = await make_users(3)
    match_id = await create("condottiere", users, seed=8)
    players = [Player(application, match_id, await token_for(u)) for u in users] + [Player(application, match_id)]
    for p in players:
        await p.connect()
    engine, rng = get_engine("condottiere"), random.Random(8)
    seen = {0: canonical(players[3].state["view"])}
    version = 0
    while version < 40 and players[3].state["status"] == "active":
        mover = next(p for p in players[:3] if p.state["legal_actions"])
        await mover.act(condottiere_policy(mover.state["legal_actions"], rng))
        version += 1
        for p in players:
            await p.until_version(version)
        seen[version] = canonical(players[3].state["view"])
    now, kept = await database_sync_to_async(_stored)(match_id)
    assert now == version and kept == version - version % 5
    for v, view in seen.items():
        state = await database_sync_to_async(store.read_state_at)(match_id, v)
        assert canonical(engine.view(state, None)) == view, f"version {v}"
    # A process that opens the match now (a restart) serves the same views.
    late = Player(application, match_id)
    assert canonical((await late.connect())["view"]) == seen[version]
    for p in players + [late]:
        await p.close()
