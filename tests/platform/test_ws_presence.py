"""Presence: who is connected (by seat) and how many spectators, kept current."""

from __future__ import annotations

import pytest

from backend.asgi import application

from .match_support import match_env  # noqa: F401  (fixture)
from .match_support import Player, create, make_users, token_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _env(match_env):
    return match_env


async def _presence(player: Player, connected: list, spectators: int) -> None:
    while player.presence != {"type": "presence", "connected": connected, "spectators": spectators}:
        await player.next("presence")


async def test_presence_follows_joins_and_leaves():
    users = await make_users(3)
    match_id = await create("condottiere", users)
    seat0 = Player(application, match_id, await token_for(users[0]))
    await seat0.connect()
    await _presence(seat0, [0], 0)
    seat2 = Player(application, match_id, await token_for(users[2]))
    await seat2.connect()
    watchers = [Player(application, match_id) for _ in range(2)]
    for w in watchers:
        await w.connect()
    for p in [seat0, seat2] + watchers:
        await _presence(p, [0, 2], 2)  # newcomers learn who was already there too
    await seat2.close()
    await watchers[0].close()
    for p in (seat0, watchers[1]):
        await _presence(p, [0], 1)
    for p in (seat0, watchers[1]):
        await p.close()
