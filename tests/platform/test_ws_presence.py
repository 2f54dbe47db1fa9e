"""Presence: who is connected (by seat) and how many spectators, kept current."""

from __future__ import annotations

import pytest

from backend.asgi import application

from .match_support import Player, create, make_users, token_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("match_env")]


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


async def test_a_crowd_of_spectators_costs_each_viewer_a_frame_now_and_then(settings):
    """Spectators arriving one after the other are not told one by one: the
    count waits for MATCH_SPECTATORS_EVERY (long here), while a seat's
    connection is told at once, with the count as it then is."""
    settings.MATCH_SPECTATORS_EVERY = 60
    users = await make_users(3)
    match_id = await create("condottiere", users)
    seat0 = Player(application, match_id, await token_for(users[0]))
    await seat0.connect()
    await _presence(seat0, [0], 0)
    crowd = [Player(application, match_id) for _ in range(20)]
    for w in crowd:
        await w.connect()
    seat1 = Player(application, match_id, await token_for(users[1]))
    await seat1.connect()
    await _presence(seat0, [0, 1], 20)  # at once, well before a minute
    frames = [m for m in seat0.raw if '"type":"presence"' in m]
    assert len(frames) == 2, frames  # its own first one, then the seat's arrival: none per spectator
    for p in [seat0, seat1] + crowd:
        await p.close()
