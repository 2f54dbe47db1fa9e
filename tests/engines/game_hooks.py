"""What the generic property tests need to know about each game's state.

Per game id:
  max_steps       bound on a random game's length (a game must end);
  invariants      functions(state) asserting what holds in every reachable state;
  perturb_hidden  perturb(state, rng) -> [(changed state, seats that may notice)]:
                  hidden facts changed; every other viewer's view must not move.
  secret_choice   secret(state, seat, action) -> whether the action's content is
                  hidden from the other seats (their events must not tell it).
"""

from __future__ import annotations

import random
from collections import Counter

from backend.engines.base import clone

# ---- Condottiere --------------------------------------------------------------


def condottiere_cards_conserved(state: dict) -> None:
    """The 110 cards (rulebook p. 3) are all somewhere: deck, discard, hands, lines."""
    from backend.engines.condottiere.cards import DECK_COUNTS
    from backend.engines.condottiere.rules import all_cards

    cards = all_cards(state)
    assert Counter(cards) == Counter(DECK_COUNTS), (
        f"{len(cards)} cards in the state; differences: {Counter(cards) - Counter(DECK_COUNTS)} extra, "
        f"{Counter(DECK_COUNTS) - Counter(cards)} missing"
    )


def _swap(state, a: tuple, b: tuple) -> dict | None:
    """A copy of the state with the cards at paths a and b exchanged, or None if they are equal."""
    (ka, ia, ja), (kb, ib, jb) = a, b

    def cell(s, k, i):
        return s[k] if i is None else s[k][i]

    if cell(state, ka, ia)[ja] == cell(state, kb, ib)[jb]:
        return None
    changed = clone(state)
    x, y = cell(changed, ka, ia), cell(changed, kb, ib)
    x[ja], y[jb] = y[jb], x[ja]
    return changed


def condottiere_perturb(state: dict, rng: random.Random) -> list:
    """Hidden facts: the undealt deck, each hand, and face-down cards (Hidden Cards, p. 19)."""
    from backend.engines.condottiere.cards import FACE_DOWN_KINDS, HIDDEN

    out = []
    deck, hands = state["deck"], state["hands"]

    def add(changed, noticing):
        if changed is not None:
            out.append((changed, noticing))

    if len(deck) >= 2:
        i, j = rng.sample(range(len(deck)), 2)
        add(_swap(state, ("deck", None, i), ("deck", None, j)), set())
    for seat, hand in enumerate(hands):
        if hand and deck:
            add(_swap(state, ("hands", seat, rng.randrange(len(hand))), ("deck", None, rng.randrange(len(deck)))), {seat})
        other = rng.randrange(len(hands))
        if hand and hands[other] and other != seat:
            i, j = rng.randrange(len(hand)), rng.randrange(len(hands[other]))
            add(_swap(state, ("hands", seat, i), ("hands", other, j)), {seat, other})
    for seat, line in enumerate(state["lines"]):
        for k, code in enumerate(line):
            if code[0] != HIDDEN:
                continue
            # Another card of a face-down kind in its place, the real one back to the hand.
            for h, held in enumerate(hands[seat]):
                if held != code[1:] and held in FACE_DOWN_KINDS:
                    changed = clone(state)
                    changed["lines"][seat][k], changed["hands"][seat][h] = HIDDEN + held, code[1:]
                    out.append((changed, {seat}))
                    break
    return out


def condottiere_secret(state: dict, seat: int, action: dict) -> bool:
    """Hidden Cards (p. 19): which card of a face-down kind is played stays secret."""
    from backend.engines.condottiere.cards import FACE_DOWN_KINDS

    return state["opts"]["hidden_cards"] and action["type"] == "play" and action["card"] in FACE_DOWN_KINDS


def gods_playground_secret(state: dict, seat: int, action: dict) -> bool:
    """Noble tiles are placed and bids made in secret (p.5)."""
    return action["type"] in ("place_nobles", "bid")


def gods_playground_perturb(state: dict, rng: random.Random) -> list:
    # Written by the God's Playground engine's author, who knows its secrets.
    from .gods_playground.hooks import gods_playground_perturb as perturb

    return perturb(state, rng)


GAME_HOOKS = {
    "condottiere": {
        # A random 6-player game with points over several games runs to a few thousand actions.
        "max_steps": 20_000,
        "invariants": [condottiere_cards_conserved],
        "perturb_hidden": condottiere_perturb,
        "secret_choice": condottiere_secret,
        # Hidden cards (pp. 19-20): a face-down card turns up when its player plays the next card,
        # may turn up when they pass, and every one turns up for the battle's comparison -- for
        # everyone, though the view clears the lines right after.
        "public_reveals": frozenset({"reveal"}),
    },
    "gods_playground": {
        "max_steps": 20_000,
        "perturb_hidden": gods_playground_perturb,
        "secret_choice": gods_playground_secret,
    },
}
