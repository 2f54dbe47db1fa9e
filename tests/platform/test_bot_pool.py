"""Searching bots think off the event loop, within their level's budget and their clock.

The master bot of a match seat runs in the runtime's process pool
(backend/matches/runtime/bots.py): while it thinks for a second the event
loop keeps turning; in a timed match it thinks at most a twentieth of what its
clock has left.
"""

from __future__ import annotations

import asyncio
import time

import pytest

from backend.engines import get_engine
from backend.matches import clock, timing
from backend.matches.domain import MatchInfo, SeatInfo, Snapshot
from backend.matches.runtime import bots

ENGINE = get_engine("condottiere")
NOW = 1_700_000_000_000


def _battle_snapshot(clock_value=None):
    """Seat to move in a Condottiere battle with several cards to choose from."""
    state = ENGINE.setup(3, seed=21)
    state = ENGINE.apply(state, state["holder"], {"type": "place_token", "region": "urbino"})
    seat = ENGINE.to_move(state)[0]
    assert len(ENGINE.legal_actions(state, seat)) > 3
    info = MatchInfo(id=1, game="condottiere", options={}, seed=21, public=True,
                     seats=tuple(SeatInfo(None, "", "master") for _ in range(3)))
    return info, Snapshot(version=1, state=state, to_move=(seat,), status="active", clock=clock_value), seat


def _realtime(bank_s: int, seat: int) -> dict:
    return clock.start({"kind": clock.REALTIME, "bank_s": bank_s, "increment_s": 0}, 3, [seat], NOW)


def test_budget_is_the_level_s_unless_the_clock_is_short(settings):
    settings.BOT_BUDGET_S = 1.0
    info, snapshot, seat = _battle_snapshot()
    assert bots.budget(snapshot, seat, NOW) == 1.0  # no clock
    _, timed, _ = _battle_snapshot(clock.start(clock.UNTIMED, 3, [seat], NOW))
    assert bots.budget(timed, seat, NOW) == 1.0
    _, long, _ = _battle_snapshot(_realtime(600, seat))
    assert bots.budget(long, seat, NOW) == 1.0
    _, short, _ = _battle_snapshot(_realtime(60, seat))
    # 60 s in the bank, 56 s later: 4 s left, a twentieth of it.
    assert bots.budget(short, seat, NOW + 56_000) == pytest.approx(0.2)
    assert bots.budget(short, seat, NOW + 61_000) == 0.0


async def _timed_choice(info, snapshot, seat):
    start = time.perf_counter()
    action, legal, _ = await bots.choose(info, snapshot, seat, "master", NOW)
    assert action in legal
    return time.perf_counter() - start


async def test_a_master_bot_thinks_in_the_pool_while_the_loop_keeps_turning(settings):
    settings.BOT_BUDGET_S = 0.1
    info, snapshot, seat = _battle_snapshot()
    await _timed_choice(info, snapshot, seat)  # the pool's processes start (a spawn takes a while)
    settings.BOT_BUDGET_S = 1.0
    ticks: list[float] = []
    thinking = asyncio.ensure_future(_timed_choice(info, snapshot, seat))
    while not thinking.done():
        ticks.append(time.perf_counter())
        await asyncio.sleep(0.005)  # the instrument: how often the loop gets a turn
    took = await thinking
    assert 0.5 <= took < 2  # it thought most of its second (it stops before a world that would not fit)
    gaps = [b - a for a, b in zip(ticks, ticks[1:])]
    assert len(ticks) > 50 and max(gaps) < 0.25, (len(ticks), max(gaps))


async def test_a_short_clock_cuts_the_master_bot_s_thinking(settings):
    settings.BOT_BUDGET_S = 0.05
    info, snapshot, seat = _battle_snapshot()
    await _timed_choice(info, snapshot, seat)  # the pool's processes start
    settings.BOT_BUDGET_S = 1.0
    _, short, _ = _battle_snapshot(_realtime(60, seat))
    # Chosen 57 s into its 60 s: 3 s left on its clock, so 0.15 s of thought, not 1 s.
    start = time.perf_counter()
    action, legal, _ = await bots.choose(info, short, seat, "master", NOW + 57_000)
    assert action in legal
    assert time.perf_counter() - start < 0.7


async def test_other_bots_decide_here_and_see_only_their_view():
    """The advanced bot needs no pool; and a hidden fact of another seat changes nothing."""
    info, snapshot, seat = _battle_snapshot()
    action, legal, _ = await bots.choose(info, snapshot, seat, "advanced", timing.now_ms())
    state = ENGINE.copy_state(snapshot.state)
    other = (seat + 1) % 3
    k = len(state["hands"][other])
    state["hands"][other], state["deck"][:k] = state["deck"][:k], state["hands"][other]
    assert state != snapshot.state and ENGINE.view(state, seat) == ENGINE.view(snapshot.state, seat)
    changed = Snapshot(version=1, state=state, to_move=(seat,), status="active")
    again, _, _ = await bots.choose(info, changed, seat, "advanced", timing.now_ms())
    assert again == action and action in legal
