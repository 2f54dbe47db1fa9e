"""The noble layouts of a hand (layouts.py): counted, indexed and listed alike.

p.5: six tiles, one on each province and one on the royal army box, from the
tiles in hand; a hand holds two tiles of each value 0-5 at the start of the
game (p.2) and fewer later.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import permutations

import pytest

from backend.engines.gods_playground.board import SLOTS
from backend.engines.gods_playground.layouts import count, fits, layout_at, layouts

FULL = [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
HANDS = [FULL, [0, 1, 2, 3, 4, 5], [0, 0, 1, 1, 2, 2, 3, 3], [2, 2, 3, 3, 4, 4], [0, 1, 1, 3, 5, 5, 5]]


def by_brute_force(hand: list[int]) -> list[tuple]:
    """Every distinct ordered choice of six tiles, sorted: the layouts' order."""
    return sorted(set(permutations(hand, len(SLOTS))))


@pytest.mark.parametrize("hand", HANDS, ids=lambda h: "".join(map(str, h)))
def test_count_index_and_listing_agree_with_brute_force(hand):
    expected = by_brute_force(hand)
    listed = [tuple(a[slot] for slot in SLOTS) for a in layouts(hand)]
    assert listed == expected
    assert count(hand) == len(expected)
    for i in sorted({0, len(expected) - 1, *random.Random(len(hand)).sample(range(len(expected)), min(200, len(expected)))}):
        assert tuple(layout_at(hand, i)[slot] for slot in SLOTS) == expected[i]
    with pytest.raises(IndexError):
        layout_at(hand, len(expected))


def test_the_full_hand_has_29520_layouts():
    assert count(FULL) == 29_520


def test_fits_names_the_first_tile_the_hand_lacks():
    hand = [0, 1, 1, 3, 5, 5, 5]
    rng = random.Random(3)
    for _ in range(500):
        action = {"type": "place_nobles", **{slot: rng.randrange(-1, 7) for slot in SLOTS}}
        left, missing = Counter(hand), None
        for slot in SLOTS:
            if not left[action[slot]]:
                missing = (action[slot], slot)
                break
            left[action[slot]] -= 1
        assert fits(hand, action) == missing
        assert (missing is None) == (tuple(action[s] for s in SLOTS) in set(by_brute_force(hand)))
