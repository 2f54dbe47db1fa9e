"""The per-process snapshot cache the consumers read from."""

from __future__ import annotations

import asyncio

import pytest

from backend.matches import live, services
from backend.matches.cache import CACHE

from .match_support import match_env  # noqa: F401  (fixture)
from .match_support import create, make_users

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _env(match_env):
    return match_env


async def test_a_read_begun_before_the_wanted_version_is_read_again(monkeypatch):
    """Viewers waiting for version N on a read that started at N-1 (another
    process committed N meanwhile) must get N, not stay one version behind."""
    users = await make_users(3)
    match_id = await create("condottiere", users, seed=2)
    real = services.load_snapshot
    calls = []

    def racing_load(match_id, info=None, with_events=False):
        calls.append(1)
        snapshot = real(match_id, info, with_events)
        if len(calls) == 1:  # the first read saw the match before the next commit
            CACHE.forget(match_id)
            snapshot = type(snapshot)(snapshot.version - 1, snapshot.state, snapshot.to_move, snapshot.status)
        return snapshot

    engine = (await live.info(match_id)).engine
    snap = await live.snapshot(match_id)
    seat = snap.to_move[0]
    await live.apply(match_id, seat, 0, engine.legal_actions(snap.state, seat)[0], "first")
    CACHE.forget(match_id)  # as in a process that did not apply it
    monkeypatch.setattr(services, "load_snapshot", racing_load)
    waiting = await asyncio.gather(*(live.snapshot(match_id, 1) for _ in range(3)))
    assert [s.version for s in waiting] == [1, 1, 1]
    assert len(calls) == 2  # one shared read, then one more; not one per viewer
