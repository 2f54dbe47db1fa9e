"""Concurrent submissions: one action per version, none lost or doubled, resends idempotent."""

from __future__ import annotations

import asyncio
import json

import pytest

from backend.asgi import application
from backend.engines import get_engine

from .match_support import Player, create, db_match, db_state, log_rows, make_users, new_id, token_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("match_env")]


async def _more(player: Player) -> bool:
    """Read one more message if one comes soon."""
    if await player.comm.receive_nothing(timeout=0.3):
        return False
    await player.next("state", "error", "presence")
    return True


async def _answer(player: Player) -> dict:
    """The next state or error this player gets."""
    return await player.next("state", "error")


async def test_two_tabs_at_the_same_version_apply_exactly_one():
    users = await make_users(3)
    match_id = await create("condottiere", users, seed=9)
    spectator = Player(application, match_id)
    await spectator.connect()
    rounds = 12
    for version in range(rounds):
        seat = get_engine("condottiere").to_move(await db_state(match_id))[0]
        token = await token_for(users[seat])
        tabs = [Player(application, match_id, token) for _ in range(2)]
        for tab in tabs:
            assert (await tab.connect())["version"] == version
        legal = tabs[0].state["legal_actions"]
        # Two different choices, same version, sent together.
        ids = [new_id(), new_id()]
        await asyncio.gather(*(tab.act(legal[i % len(legal)], client_id=ids[i]) for i, tab in enumerate(tabs)))
        for tab in tabs:  # both see the new version (the loser also gets an error)
            while tab.state["version"] < version + 1:
                await tab.next("state", "error")
        for tab in tabs:
            while not tab.errors and await _more(tab):
                pass
        errors = [e for tab in tabs for e in tab.errors]
        assert [e["code"] for e in errors] == ["stale_version"], errors
        winner = next(i for i in ids if i != errors[0]["id"])
        rows = await log_rows(match_id)
        assert len(rows) == version + 1 and rows[-1]["client_id"] == winner
        await spectator.until_version(version + 1)
        for tab in tabs:
            await tab.close()
    spectator_versions = [json.loads(t)["version"] for t in spectator.states()]
    assert spectator_versions == list(range(rounds + 1))  # each version once, none skipped
    assert (await db_match(match_id)).version == rounds
    await spectator.close()


async def test_a_resent_action_id_is_applied_once():
    users = await make_users(3)
    match_id = await create("condottiere", users, seed=2)
    players = [Player(application, match_id, await token_for(u)) for u in users]
    for p in players:
        await p.connect()
    mover = next(p for p in players if p.state["legal_actions"])
    action = mover.state["legal_actions"][0]
    client_id = await mover.act(action, version=0)
    assert (await mover.until_version(1))["version"] == 1
    # Resent as the client first sent it (version 0), then "fixed up" to version 1.
    await mover.act(action, version=0, client_id=client_id)
    again = await _answer(mover)
    assert (again["type"], again["version"]) == ("state", 1)
    # Resent at the current version by whoever may act now: the log's unique
    # (match, id) refuses it inside the transaction, so nothing is applied.
    for p in players:
        await p.until_version(1)
    mover_now = next(p for p in players if p.state["legal_actions"])
    await mover_now.act(mover_now.state["legal_actions"][0], version=1, client_id=client_id)
    again = await _answer(mover_now)
    assert (again["type"], again["version"]) == ("state", 1)
    rows = await log_rows(match_id)
    assert [r["client_id"] for r in rows] == [client_id]
    assert (await db_match(match_id)).version == 1
    for p in players:
        await p.close()
