"""The noble layouts of a hand: one tile on each of the six slots (p.5).

With twelve tiles in hand there are 29,520 layouts, so they are never built
all at once to check or pick one: `count` counts them, `layout_at` builds the
i-th directly and `layouts` yields them one by one, all in the same order
(lexicographic by the values slot after slot, lowest first).
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from math import comb
from typing import Iterator

from .board import SLOTS


def _tally(hand: list[int]) -> tuple[list[int], list[int]]:
    """The distinct tile values, lowest first, and how many of each the hand holds."""
    counts = Counter(hand)
    values = sorted(counts)
    return values, [counts[v] for v in values]


def _ways(left: list[int], slots: int) -> int:
    """How many ways to fill `slots` slots in order from the tiles `left` (counts per
    value).  It depends only on how many values have how many tiles left."""
    return _ways_of(tuple(sorted(n for n in left if n)), slots)


@cache
def _ways_of(profile: tuple[int, ...], slots: int) -> int:
    """_ways by the sorted tile counts: values are added one at a time, `j` tiles of a
    value going into any `j` of the places of a row that grows from `t` to `t + j`.
    Cached: a pure function of a few small numbers (a few hundred inputs at most)."""
    rows = [1] + [0] * slots  # rows[t]: the rows of t tiles made of the values so far
    for n in profile:
        grown = [0] * (slots + 1)
        for t, ways in enumerate(rows):
            if ways:
                for j in range(min(n, slots - t) + 1):
                    grown[t + j] += ways * comb(t + j, j)
        rows = grown
    return rows[slots]


def count(hand: list[int]) -> int:
    """How many layouts `hand` allows."""
    _, left = _tally(hand)
    return _ways(left, len(SLOTS))


def layout_at(hand: list[int], index: int) -> dict:
    """The layout at `index` (0 <= index < count(hand)) as a place_nobles action."""
    values, left = _tally(hand)
    action = {"type": "place_nobles"}
    for depth, slot in enumerate(SLOTS):
        rest = len(SLOTS) - depth - 1
        # The layouts that go on with a value depend only on how many of it are left.
        by_count = {}
        for n in set(left):
            if n:
                j = left.index(n)
                left[j] -= 1
                by_count[n] = _ways(left, rest)
                left[j] += 1
        for i, n in enumerate(left):
            if not n:
                continue
            ways = by_count[n]
            if index < ways:
                action[slot] = values[i]
                left[i] -= 1
                break
            index -= ways
        else:
            raise IndexError("no such layout")
    return action


def layouts(hand: list[int]) -> Iterator[dict]:
    """Every layout of `hand`, each a fresh place_nobles action, in index order."""
    values, left = _tally(hand)
    row: list[int] = []

    def fill(depth: int) -> Iterator[dict]:
        if depth == len(SLOTS):
            yield {"type": "place_nobles", **dict(zip(SLOTS, row))}
            return
        for i, n in enumerate(left):
            if n:
                left[i] -= 1
                row.append(values[i])
                yield from fill(depth + 1)
                row.pop()
                left[i] += 1

    return fill(0)


def fits(hand: list[int], action: dict) -> tuple[int, str] | None:
    """None if the action lays tiles the hand holds, one on each slot; else the first
    (value, slot) the hand has no tile left for."""
    left = Counter(hand)
    for slot in SLOTS:
        value = action[slot]
        if not left[value]:
            return value, slot
        left[value] -= 1
    return None
