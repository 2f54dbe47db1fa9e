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
            if "cards" in e["params"]:
                assert e["to"] == [e["seat"]]
                assert e not in ENGINE.visible_events(events, 1 - e["seat"])
                assert e not in ENGINE.visible_events(events, None)
                seen += 1
    assert seen


def _hide_differently(state, seat, rng):
    """Change one fact `seat`'s opponents may not know: a card in `seat`'s hand or its face-down card
    (swapped with a deck card of another kind), or the order of two deck cards. Returns the kind changed."""
    from backend.engines.condottiere.cards import FACE_DOWN_KINDS, is_mercenary

    deck = state["deck"]
    kind = rng.choice(["hand", "down", "deck"])
    if kind == "hand" and state["hands"][seat]:
        hand = state["hands"][seat]
        i = rng.randrange(len(hand))
        # keep "holds a mercenary" unchanged, so an answer already given to the hand question stays legal
        js = [j for j, c in enumerate(deck) if c != hand[i] and is_mercenary(c) == is_mercenary(hand[i])]
        if js:
            j = rng.choice(js)
            hand[i], deck[j] = deck[j], hand[i]
            return kind
    if kind == "down":
        line = state["lines"][seat]
        for k, code in enumerate(line):
            js = [j for j, c in enumerate(deck) if c in FACE_DOWN_KINDS and c != code[1:]]
            if code.startswith("?") and js:
                j = rng.choice(js)
                line[k], deck[j] = "?" + deck[j], code[1:]
                return kind
    if kind == "deck" and len(deck) > 1:
        i, j = rng.sample(range(len(deck)), 2)
        if deck[i] != deck[j]:
            deck[i], deck[j] = deck[j], deck[i]
            return kind
    return None


@pytest.mark.parametrize("options,n", [({}, 3), ({"hidden_cards": True}, 4),
                                       ({"draw_after_battle": True, "points": True, "points_target": 8}, 2),
                                       ({"hidden_cards": True, "conquering_regions": True, "points": True,
                                         "points_target": 6}, 5)])
def test_the_same_action_after_a_hidden_change_gives_every_other_viewer_the_same_view_and_events(options, n):
    """Views and events, step by step: round-end keeps, hand discards, face-down cards, drawn and dealt cards."""
    rng = random.Random(n)
    seen = set()
    for seed in range(2):
        state = ENGINE.setup(n, options=options, seed=seed)
        while not ENGINE.is_over(state):
            actor = rng.choice(ENGINE.to_move(state))
            action = rng.choice(ENGINE.legal_actions(state, actor))
            new, events = ENGINE.step(state, actor, action)
            secret = rng.choice([s for s in range(n) if s != actor])
            changed = clone(state)
            kind = _hide_differently(changed, secret, rng)
            battle_over = new["phase"] != "battle" or new["battle_no"] != state["battle_no"]
            if kind and not (kind == "down" and battle_over):  # the comparison turns every card up
                other, other_events = ENGINE.step(changed, actor, action)
                dealt = {e["seat"] for e in events if e["kind"] == "deal_private"}
                for viewer in [None, *range(n)]:
                    if viewer == secret and kind != "deck" or viewer in dealt:
                        continue
                    assert canonical(ENGINE.view(other, viewer)) == canonical(ENGINE.view(new, viewer))
                    assert (canonical(ENGINE.visible_events(other_events, viewer))
                            == canonical(ENGINE.visible_events(events, viewer)))
                seen.add(state["phase"] + ":" + kind)
            state = new
    assert {"battle:hand", "battle:deck", "place_token:hand"} <= seen
    if options.get("hidden_cards"):
        assert "battle:down" in seen
    if not options.get("draw_after_battle"):
        assert {"discard_hand:hand", "keep:deck"} & seen


def test_which_card_went_face_down_or_was_kept_is_invisible_to_the_others():
    """pp. 19-20 and p. 8: swap the actor's own secret choice (another face-down card, other cards kept) and
    the other seats and spectators see the same view and the same events."""
    from backend.engines.condottiere.cards import FACE_DOWN_KINDS

    rng = random.Random(7)
    compared = {"play": 0, "keep": 0}
    for seed in range(4):
        n = 3 + seed % 3
        state = ENGINE.setup(n, options={"hidden_cards": True}, seed=seed)
        while not ENGINE.is_over(state):
            actor = rng.choice(ENGINE.to_move(state))
            legal = ENGINE.legal_actions(state, actor)
            action = rng.choice(legal)
            new, events = ENGINE.step(state, actor, action)
            if action["type"] == "play" and action["card"] in FACE_DOWN_KINDS:
                twins = [a for a in legal if a["type"] == "play" and a["card"] in FACE_DOWN_KINDS]
            elif action["type"] == "keep":
                twins = [a for a in legal if len(a["cards"]) == len(action["cards"])]
            else:
                twins = []
            for twin in twins:
                other, other_events = ENGINE.step(state, actor, twin)
                dealt = {e["seat"] for e in events if e["kind"] == "deal_private"}
                for viewer in [None, *range(n)]:
                    if viewer == actor or viewer in dealt:
                        continue
                    assert canonical(ENGINE.view(other, viewer)) == canonical(ENGINE.view(new, viewer))
                    assert (canonical(ENGINE.visible_events(other_events, viewer))
                            == canonical(ENGINE.visible_events(events, viewer)))
                compared[action["type"]] += 1
            state = new
    assert compared["play"] > 50 and compared["keep"] > 3
