"""Bots for God's Playground: each sees only its seat's view (docs/engines.md)."""

from __future__ import annotations

import random


def random_bot(view: dict, legal: list[dict], rng: random.Random) -> dict:
    return rng.choice(legal)


BOTS = {"random": random_bot}
