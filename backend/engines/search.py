"""The master bots' search: determinized Monte Carlo over what a seat cannot see.

A master bot is handed its seat's view, like every bot.  Each iteration it
samples one full state consistent with that view (the game's `determinize`:
other hands, the deck order, face-down cards, secret tiles, the future dice),
plays every candidate action in it and the rest of the game by a fast policy
for all seats, and scores the result for its own seat.  The candidate with the
best mean over the sampled worlds is played.  Sampling a fresh world for every
iteration is what keeps the search honest: no single guess at the hidden cards
decides, and nothing outside the view is ever read.

The search stops after `iterations` worlds (tests: deterministic from the rng)
or before a world that would end past `budget` seconds, judged by the last
one (the server: at least one world is always searched).
"""

from __future__ import annotations

import random
import time
from typing import Callable

from .base import Engine

# Seconds a master bot thinks about a move unless told otherwise.
DEFAULT_BUDGET = 1.0
# A decision with more choices than this is left to the advanced bot: a flat
# search spread over dozens of candidates learns nothing about any of them.
MAX_CANDIDATES = 14


def outcome(engine: Engine, state: dict, seat: int) -> float:
    """What a finished game is worth to `seat`: 1 for a win (shared: its share)."""
    winners = engine.result(state)["winners"]
    return 1.0 / len(winners) if seat in winners else 0.0


def rollout(engine: Engine, state: dict, policy: Callable, rng: random.Random, seat: int,
            horizon: Callable[[dict], bool] | None, evaluate: Callable[[dict, int], float] | None) -> float:
    """Play `state` on with `policy` in every seat: `seat`'s score when the game
    ends, or by `evaluate` (0..1) once `horizon(state)` says the rollout has
    looked far enough (a whole game costs too much for a second's search)."""
    while True:
        to_move = engine.to_move(state)
        if not to_move:
            return outcome(engine, state, seat)
        if horizon is not None and horizon(state):
            return evaluate(state, seat)
        mover = to_move[0]
        legal = engine.legal_actions(state, mover)
        state = engine.apply(state, mover, policy(engine.view(state, mover), legal, rng))


def search(engine: Engine, view: dict, seat: int, candidates: list[dict], rng: random.Random,
           determinize: Callable[[dict, random.Random], dict], policy: Callable, *,
           iterations: int | None = None, budget: float | None = None,
           horizon: Callable[[dict], bool] | None = None,
           evaluate: Callable[[dict, int], float] | None = None) -> dict:
    """The candidate with the best mean rollout score over sampled worlds.

    Each world is played once from every candidate with the same rollout seed,
    so candidates are compared on the same hidden cards and the same luck."""
    if len(candidates) == 1:
        return candidates[0]
    if iterations is None and budget is None:
        budget = DEFAULT_BUDGET
    deadline = None if budget is None else time.perf_counter() + budget
    totals = [0.0] * len(candidates)
    done = 0
    while True:
        began = time.perf_counter()
        world = determinize(view, rng)
        luck = rng.getrandbits(64)
        for i, action in enumerate(candidates):
            start = engine.apply(world, seat, action)
            totals[i] += rollout(engine, start, policy, random.Random(luck), seat, horizon, evaluate)
        done += 1
        if iterations is not None and done >= iterations:
            break
        # Stop before a world that would not fit: the budget is a limit, not a target.
        now = time.perf_counter()
        if deadline is not None and now + (now - began) > deadline:
            break
    best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
    return candidates[best]
