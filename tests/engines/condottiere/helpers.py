"""Scenario builders for the Condottiere rule tests (stacked decks via the "deck" option)."""

from __future__ import annotations

from backend.engines import get_engine
from backend.engines.condottiere.cards import STANDARD_DECK

ENGINE = get_engine("condottiere")
# Cards least likely to matter come first; mercenaries only once the specials run out.
FILLER = (["scarecrow"] * 16 + ["surrender"] * 3 + ["bishop"] * 6 + ["drummer"] * 6 + ["winter"] * 3
          + ["spring"] * 3 + ["courtesan"] * 12 + ["heroine"] * 3 + list(reversed(STANDARD_DECK)))


def stacked_deck(hands, hand_size=10, rest_first=()):
    """A deck permutation dealing `hands[i]` (filled up to hand_size with
    Scarecrows and other non-mercenaries) to seat i; `rest_first` then tops the deck."""
    pool = list(STANDARD_DECK)
    top = []
    wanted = [list(h) for h in hands]
    for h in wanted:
        for c in h:
            pool.remove(c)
    for c in rest_first:
        pool.remove(c)
    for h in wanted:
        for c in FILLER:
            if len(h) >= hand_size:
                break
            if c in pool:
                pool.remove(c)
                h.append(c)
        assert len(h) == hand_size
        top.extend(h)
    return top + list(rest_first) + pool


def new_game(n=3, hands=None, options=None, holder=0, seed=0):
    """A game whose seat i holds hands[i]; `holder` becomes the first condottiere."""
    options = dict(options or {})
    size = 7 if options.get("draw_after_battle") else 10
    hands = list(hands or []) + [[]] * (n - len(hands or []))
    options["deck"] = stacked_deck(hands, size)
    state = ENGINE.setup(n, options=options, seed=seed)
    state["holder"] = state["first"] = holder
    return state


def put_line(state, seat, cards):
    """Move cards from the deck straight into a seat's battle line (cards stay conserved)."""
    for c in cards:
        code = c.lstrip("?")
        state["deck"].remove(code)
        state["lines"][seat].append(c)


def give(state, seat, cards):
    for c in cards:
        state["deck"].remove(c)
        state["hands"][seat].append(c)


def take_all(state, seat):
    """Empty a seat's hand back into the deck."""
    state["deck"].extend(state["hands"][seat])
    state["hands"][seat] = []


def own(state, seat, regions):
    for r in regions:
        state["owner"][r] = seat


def act(state, seat, action):
    return ENGINE.apply(state, seat, action)


def play(state, seat, card, **extra):
    return ENGINE.apply(state, seat, {"type": "play", "card": card, **extra})


def pass_(state, seat, **extra):
    return ENGINE.apply(state, seat, {"type": "pass", **extra})


def place(state, region, seat=None):
    seat = state["holder"] if seat is None else seat
    return ENGINE.apply(state, seat, {"type": "place_token", "region": region})


def strengths(state, seat=None):
    return [line["strength"] for line in ENGINE.view(state, seat)["battle"]["lines"]]


def settle_discards(state, discard=()):
    """Answer the after-battle hand question (p. 8) for every seat asked."""
    while state["phase"] == "discard_hand":
        seat = ENGINE.to_move(state)[0]
        kind = "discard_hand" if seat in discard else "keep_hand"
        state = ENGINE.apply(state, seat, {"type": kind})
    return state
