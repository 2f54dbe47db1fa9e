"""Persistence: every finished match rebuilds from its seed and action log; bots play by themselves."""

from __future__ import annotations

import asyncio
import random

import pytest

from backend.engines import canonical, get_engine
from backend.matches import services, store
from backend.matches.domain import is_platform_action
from backend.matches.models import ActionLog, Match

from .match_support import condottiere_policy, create, db_match, log_rows, make_users, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("match_env")]


def _play_out(match_id: int, seed: int) -> None:
    """Drive a match through the service, as the consumer would."""
    engine, rng = get_engine("condottiere"), random.Random(seed)
    for step in range(3000):
        match = Match.objects.get(pk=match_id)
        if match.status != "active":
            return
        state = store.read_state(match_id)  # the row's state is that of a version every few (store.py)
        seat = engine.to_move(state)[0]
        action = condottiere_policy(engine.legal_actions(state, seat), rng)
        services.apply_action(match_id, seat, match.version, action, f"c{step}")
    raise AssertionError("match did not end")


def _replay(match: Match):
    engine = get_engine(match.game)
    state = engine.setup(match.seats.count(), match.options, match.seed)
    rows = list(ActionLog.objects.filter(match=match).order_by("version"))
    assert [r.version for r in rows] == list(range(1, match.version + 1))
    for row in rows:
        if is_platform_action(row.action):  # who plays a seat: no game state changes
            continue
        state, events = engine.step(state, row.seat, row.action)
        assert canonical(events) == canonical(row.events)
    return engine, state


def test_every_finished_match_rebuilds_from_seed_and_log(make_user):
    users = [make_user() for _ in range(3)]
    for seed in (1, 2):
        match = services.create_match("condottiere", {"hidden_cards": seed == 2}, users, seed, True)
        _play_out(match.pk, seed)
    finished = list(Match.objects.filter(status="finished"))
    assert len(finished) == 2
    for match in finished:
        engine, state = _replay(match)
        assert canonical(state) == canonical(match.state)
        assert engine.is_over(state) and match.result == engine.result(state) and match.finished_at


def test_create_match_validates_its_input(make_user):
    users = [make_user() for _ in range(3)]
    with pytest.raises(KeyError):
        services.create_match("chess", {}, users, 1, True)
    with pytest.raises(ValueError):
        services.create_match("condottiere", {"no_such_option": 1}, users, 1, True)
    with pytest.raises(ValueError):
        services.create_match("condottiere", {}, users[:1], 1, True)
    with pytest.raises(ValueError):
        services.create_match("condottiere", {}, users[:2] + ["no-such-bot"], 1, True)
    assert Match.objects.count() == 0


async def test_a_bots_only_match_plays_to_the_end_by_itself(fake_game):
    match_id = await create("counting", ["random", "heuristic", "random"], {"rounds": 3}, seed=4)

    async def finished():
        return (await db_match(match_id)).status == "finished"

    await wait_for(finished)
    match = await db_match(match_id)
    rows = await log_rows(match_id)
    # Exactly one action per bot turn: 3 rounds x 3 seats, versions 1..9 once each.
    assert [r["version"] for r in rows] == list(range(1, 10)) and match.version == 9
    assert all(r["client_id"].startswith(f"bot:{v}:{r['seat']}:") for v, r in enumerate(rows))


async def test_condottiere_bots_only_match_finishes():
    bots = sorted(get_engine("condottiere").bots)
    if not bots:
        pytest.skip("Condottiere bots not written yet")
    match_id = await create("condottiere", [bots[0], bots[-1], bots[0]], seed=8)

    async def finished():
        return (await db_match(match_id)).status == "finished"

    await wait_for(finished, timeout=60)
    assert (await db_match(match_id)).version == len(await log_rows(match_id))


async def test_two_processes_racing_for_one_bot_turn_apply_it_once(fake_game, settings):
    """Each process may start the same bot turn; the version check lets one through."""
    from backend.matches.runtime import MatchHub

    settings.BOT_DELAY = 0.05  # both turns are pending before either applies
    users = await make_users(1)
    match_id = await create("counting", ["random", users[0]], {"rounds": 1, "fixed_start": 0}, seed=4)
    # This loop's hub scheduled the turn; a second process (a second hub, on
    # its own event loop in another thread) starts the same turn on its own.
    await asyncio.to_thread(asyncio.run, _other_process_wakes(match_id))

    async def moved():
        return (await db_match(match_id)).version >= 1

    await wait_for(moved)
    await MatchHub.current().idle()
    rows = await log_rows(match_id)
    assert [(r["version"], r["seat"]) for r in rows] == [(1, 0)]


async def _other_process_wakes(match_id: int) -> None:
    from backend.matches.runtime import MatchHub

    hub = MatchHub.current()
    try:
        await hub.wake(match_id)
        await hub.idle()
    finally:
        hub.close()


def test_resume_bots_finishes_a_stalled_bots_only_match(fake_game, make_user):
    """A bots-only match whose server stopped is finished by `manage.py resume_bots`."""
    from django.core.management import call_command

    from backend.matches.models import Match, MatchSeat

    # Created without any event loop around: nothing drives its bots yet.
    match = services.create_match("counting", {"rounds": 2}, ["random", "heuristic"], 3, True)
    assert Match.objects.get(pk=match.pk).version == 0
    call_command("resume_bots")
    match.refresh_from_db()
    assert match.status == "finished" and match.version == 4
    assert MatchSeat.objects.filter(match=match).count() == 2
