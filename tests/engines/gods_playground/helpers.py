"""Building blocks for God's Playground tests: states set up by hand for a
rulebook example, and random play."""

from __future__ import annotations

import random

from backend.engines.gods_playground import ENGINE
from backend.engines.gods_playground.board import ENEMIES, PROVINCES

WHITE, BLUE, RED = 0, 1, 2  # seat colours (rulebook p.2)


def blank(round_: int = 1, start: int = 0, dice: list | None = None) -> dict:
    """A state after setup with an empty board, ready for a phase to be run by hand."""
    s = ENGINE.setup(3, seed=0)
    s["pending"] = None
    s["phase"] = "income"
    s["phase_entered"] = True
    s["round"] = round_
    s["start"] = start
    s["dice_queue"] = list(dice or [])
    for p in PROVINCES:
        pr = s["prov"][p]
        pr["estates"] = [None] * len(pr["estates"])
    return s


def estates(s: dict, p: str, owners: list) -> None:
    pr = s["prov"][p]
    pr["estates"] = list(owners) + [None] * (len(pr["estates"]) - len(owners))


def nobles(s: dict, p: str, counts: list) -> None:
    s["prov"][p]["nobles"] = list(counts)


def units(s: dict, p: str, seat: int, infantry=0, cavalry=0, cannon=0) -> None:
    s["prov"][p]["units"][seat] = [infantry, cavalry, cannon]


def enemy(s: dict, p: str, **counts) -> None:
    for c in ENEMIES:
        s["prov"][p]["enemy"][c] = counts.get(c, 0)


def play_random(seed: int, play_seed: int | None = None, options: dict | None = None):
    """A random legal game; yields (state, seat, action) then the final state with None."""
    rng = random.Random(seed if play_seed is None else play_seed)
    s = ENGINE.setup(3, options=options, seed=seed)
    while not ENGINE.is_over(s):
        seat = rng.choice(ENGINE.to_move(s))
        action = rng.choice(ENGINE.legal_actions(s, seat))
        yield s, seat, action
        s = ENGINE.apply(s, seat, action)
    yield s, None, None


def act(s: dict, seat: int, action: dict) -> dict:
    """Apply one legal decision without running the automatic phases after it."""
    from backend.engines.base import clone
    from backend.engines.gods_playground.flow import DECISIONS

    assert seat in ENGINE.to_move(s) and action in ENGINE.legal_actions(s, seat), action
    s = clone(s)
    DECISIONS[s["pending"]["kind"]][1](s, seat, action, [])
    return s
