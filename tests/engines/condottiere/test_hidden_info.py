"""Hidden information: changing a hidden fact leaves every other viewer's view byte-identical."""

import random

import pytest

from backend.engines import canonical
from backend.engines.base import clone

from .helpers import ENGINE

VARIANTS = [{}, {"hidden_cards": True}, {"hidden_cards": True, "conquering_regions": True},
            {"draw_after_battle": True, "points": True}]


def views(state, skip=None):
    n = state["num_players"]
    return {v: canonical(ENGINE.view(state, v)) for v in [None, *range(n)] if v != skip}


def checkpoints(options, seed, n=3, every=7, limit=400):
    """States along one seeded random game."""
    rng = random.Random(seed)
    state = ENGINE.setup(n, options=options, seed=seed)
    for step in range(limit):
        if ENGINE.is_over(state):
            return
        if step % every == 0:
            yield state
        seat = ENGINE.to_move(state)[0]
        state = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))


def swap_with_deck(state, place, index, rng):
    """Swap state[place][index] with a deck card of another kind; False if none differs."""
    holder, key = place
    container = state[holder][key] if key is not None else state[holder]
    current = container[index]
    bare = current.lstrip("?")
    others = [i for i, c in enumerate(state["deck"]) if c != bare]
    if not others:
        return False
    j = rng.choice(others)
    container[index] = current[: len(current) - len(bare)] + state["deck"][j]
    state["deck"][j] = bare
    return True


@pytest.mark.parametrize("options", VARIANTS)
def test_swapping_a_hand_card_with_the_deck_is_invisible_to_everyone_else(options):
    rng = random.Random(1)
    checked = 0
    for seed in range(3):
        for state in checkpoints(options, seed):
            for seat in range(state["num_players"]):
                if not state["hands"][seat]:
                    continue
                before = views(state, skip=seat)
                swapped = clone(state)
                if not swap_with_deck(swapped, ("hands", seat), rng.randrange(len(state["hands"][seat])), rng):
                    continue
                assert views(swapped, skip=seat) == before
                assert canonical(ENGINE.view(swapped, seat)) != canonical(ENGINE.view(state, seat))
                checked += 1
    assert checked > 20


@pytest.mark.parametrize("options", VARIANTS)
def test_swapping_two_undealt_cards_is_invisible_to_everyone(options):
    rng = random.Random(2)
    checked = 0
    for state in checkpoints(options, seed=5):
        deck = state["deck"]
        pairs = [(i, j) for i in range(len(deck)) for j in range(i) if deck[i] != deck[j]]
        if not pairs:
            continue
        i, j = rng.choice(pairs)
        swapped = clone(state)
        swapped["deck"][i], swapped["deck"][j] = deck[j], deck[i]
        assert views(swapped) == views(state)
        checked += 1
    assert checked > 10


def test_a_face_down_card_is_invisible_to_everyone_but_its_owner():
    rng = random.Random(3)
    checked = 0
    for seed in range(12):
        for state in checkpoints({"hidden_cards": True}, seed, every=1):
            for seat, line in enumerate(state["lines"]):
                for k, code in enumerate(line):
                    if not code.startswith("?"):
                        continue
                    swapped = clone(state)
                    if swap_with_deck(swapped, ("lines", seat), k, rng):
                        assert views(swapped, skip=seat) == views(state, skip=seat)
                        checked += 1
    assert checked > 20


def test_drawn_cards_are_told_only_to_their_owner():
    state = ENGINE.setup(2, options={"draw_after_battle": True}, seed=4)
    rng = random.Random(0)
    seen = 0
    while not ENGINE.is_over(state) and seen < 5:
        seat = ENGINE.to_move(state)[0]
        state, events = ENGINE.step(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
        for e in events:
            if "cards" in e:
                assert e["to"] == [e["seat"]]
                assert e not in ENGINE.visible_events(events, 1 - e["seat"])
                assert e not in ENGINE.visible_events(events, None)
                seen += 1
    assert seen
