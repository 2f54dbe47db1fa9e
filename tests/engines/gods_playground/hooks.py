"""Hidden facts of a God's Playground state, for the strong hidden-information test:
perturb(state, rng) -> [(changed state, seats that may notice)] (tests/engines/game_hooks.py format)."""

from __future__ import annotations

import random

from backend.engines.base import clone
from backend.engines.gods_playground.early import hand_left


def gods_playground_perturb(state: dict, rng: random.Random) -> list:
    out = []
    pend = state["pending"]
    if pend and pend["kind"] == "nobles":
        for seat, secret in enumerate(state["secret"]):
            slots = sorted(secret)
            if len(slots) >= 2:
                a, b = rng.sample(slots, 2)
                if secret[a] != secret[b]:
                    changed = clone(state)
                    changed["secret"][seat][a], changed["secret"][seat][b] = secret[b], secret[a]
                    out.append((changed, {seat}))
            if slots:
                slot = rng.choice(slots)
                others = [v for v in hand_left(state, seat) if v != secret[slot]]
                if others:
                    changed = clone(state)
                    changed["secret"][seat][slot] = rng.choice(others)
                    out.append((changed, {seat}))
    if pend and pend["kind"] == "bid":
        for seat in pend["seats"]:
            bid = pend["bids"][seat]
            if bid is not None and state["money"][seat] > 0:
                changed = clone(state)
                changed["pending"]["bids"][seat] = (bid + 1) % (state["money"][seat] + 1)
                out.append((changed, {seat}))
    changed = clone(state)
    changed["rng"] = (state["rng"] * 31 + 7) % 2**64
    changed["dice_queue"] = [rng.randint(1, 6) for _ in range(3)]
    out.append((changed, set()))
    return out
