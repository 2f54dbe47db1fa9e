"""What a bot seat plays: its engine bot, fed only that seat's view.

A bot that searches (the master level: `bot.searches`) thinks in a process
pool, handed the seat's view and offered actions, so its second of thought
holds up no match on this event loop.  The others decide in microseconds and
decide here.  A searching bot thinks at most its level's budget
(BOT_BUDGET_S), and never more than a twentieth of what its clock has left:
a bot seat of a timed match answers within its own time.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import random
import uuid
from concurrent.futures import ProcessPoolExecutor

from django.conf import settings

from backend.engines.bots_common import think

from .. import clock
from ..domain import BOT_ID_PREFIX, MatchInfo, Snapshot

log = logging.getLogger(__name__)

# A searching bot spends at most this share of its remaining clock on one move.
CLOCK_SHARE = 1 / 20

_pool: ProcessPoolExecutor | None = None


def pool() -> ProcessPoolExecutor:
    """This process's bot pool, started on first use.  Spawned, not forked: a fork of
    a server with threads running may copy a lock held by one of them."""
    global _pool
    if _pool is None:
        _pool = ProcessPoolExecutor(max(1, settings.BOT_PROCESSES), mp_context=multiprocessing.get_context("spawn"))
    return _pool


def shutdown_pool() -> None:
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=True, cancel_futures=True)
        _pool = None


def budget(snapshot: Snapshot, seat: int, now_ms: int) -> float:
    """Seconds `seat`'s searching bot may think at `now_ms`: the level's budget, or
    less when its clock is short."""
    level = settings.BOT_BUDGET_S
    banks = clock.remaining(snapshot.clock, now_ms) if snapshot.clock else None
    if banks is None:
        return level
    return max(0.0, min(level, banks[seat] / 1000 * CLOCK_SHARE))


async def choose(info: MatchInfo, snapshot: Snapshot, seat: int, bot: str,
                 now_ms: int) -> tuple[dict, list, random.Random] | None:
    """(action, legal actions, rng) for `seat` played by `bot`, or None when it has nothing to do."""
    engine = info.engine
    legal = engine.legal_actions(snapshot.state, seat)
    if not legal:
        return None
    key = f"{info.seed}:{snapshot.version}:{seat}"
    rng = random.Random(key)
    choose_move = engine.bots[bot]
    try:
        view = engine.view(snapshot.state, seat)
        if getattr(choose_move, "searches", False):
            offered = engine.offered_actions(snapshot.state, seat)
            action = await asyncio.get_running_loop().run_in_executor(
                pool(), think, info.game, bot, view, offered, key, budget(snapshot, seat, now_ms))
        else:
            action = choose_move(view, legal, rng)
    except Exception:
        log.exception("bot %s failed in match %s at version %s", bot, info.id, snapshot.version)
        action = rng.choice(legal)
    return action, legal, rng


def client_id(version: int, seat: int) -> str:
    # Not guessable: a player sending a bot's id must not make its move look
    # like a resend.  Two processes racing for this turn are kept to one
    # action by the version check, not by the id.
    return f"{BOT_ID_PREFIX}{version}:{seat}:{uuid.uuid4().hex}"
