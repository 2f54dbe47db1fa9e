"""Bots that work for every engine, and a loop that seats bots at a table.

A bot is `choose(view, legal_actions, rng) -> action` (docs/engines.md): it is
handed its seat's view, never the state, so it cannot see hidden cards.
"""

from __future__ import annotations

import random
from typing import Sequence

from . import get_engine
from .base import Bot, Engine, State


def random_bot(view: dict, legal_actions: list[dict], rng: random.Random) -> dict:
    """Any legal action, uniformly: the baseline every other bot must beat."""
    return rng.choice(legal_actions)


class BotError(RuntimeError):
    """A bot returned something that is not one of the legal actions it was offered."""


class GameTooLong(RuntimeError):
    """A game did not end within the step bound (a rules or bot bug: games must end)."""


def play_bots(
    engine: Engine,
    bots: Sequence[Bot],
    seed: int = 0,
    options: dict | None = None,
    max_steps: int = 100_000,
    bot_seed: int | None = None,
) -> tuple[State, int]:
    """Play one game with `bots[seat]` in each seat; return (final state, steps).

    Each seat has its own `random.Random`, derived from `bot_seed` (default:
    `seed`), so a game is reproducible and one bot's choices never shift
    another's random stream.  Simultaneous turns are taken one seat at a time,
    each seat seeing only its own view.
    """
    state = engine.setup(len(bots), options=options, seed=seed)
    base = seed if bot_seed is None else bot_seed
    rngs = [random.Random(f"{base}:{seat}") for seat in range(len(bots))]
    for steps in range(max_steps):
        to_move = engine.to_move(state)
        if not to_move:
            return state, steps
        seat = to_move[0]
        legal = engine.legal_actions(state, seat)
        action = bots[seat](engine.view(state, seat), legal, rngs[seat])
        if action not in legal:
            raise BotError(f"Seat {seat}'s bot chose {action!r}, which is not a legal action.")
        state = engine.apply(state, seat, action)
    raise GameTooLong(f"{engine.name}: no result after {max_steps} steps (seed {seed}).")


def think(game_id: str, bot: str, view: dict, offered: list, seed: str, budget: float) -> dict:
    """One decision of a searching bot (`bot.searches`), made in a bot process: the
    server sends it the seat's view and offered actions, never the state, and gets the
    action back.  `budget`: seconds to think."""
    choose = get_engine(game_id).bots[bot]
    return choose(view, offered, random.Random(seed), budget=budget)
