"""Condottiere's master bot: determinized rollouts (backend/engines/search.py).

`determinize` builds a whole state out of one seat's view: the cards it has
not seen (the 110 less its hand and every face-up card on the table) are
dealt at random to the other hands, their face-down cards (only kinds that
may be played face down, p. 19), the deck and the discard pile, each by the
count the view shows; the dice of future shuffles get a fresh seed.  The
search then plays each candidate in many such worlds with the advanced bot in
every seat.
"""

from __future__ import annotations

import math
import random
from collections import Counter

from ..base import Engine
from ..search import MAX_CANDIDATES, search
from .board import largest_group, targets
from .bots import KEEP_VALUE, heuristic
from .cards import DECK_COUNTS, FACE_DOWN_KINDS, HIDDEN

# Phases searched; the others (keeping two cards, the hand question asked of all at
# once) are left to the advanced bot.
SEARCHED = frozenset({"battle", "place_token", "legate"})
# A rollout stops this many battles after the present one has been fought and is
# scored by `evaluate`: the battles near at hand decide the choice, and ten times
# as many worlds fit in the budget as with whole games.
BATTLES_AHEAD = 1


def unseen(view: dict) -> list[str]:
    """The cards this seat has not seen, sorted (the sample's order comes from the rng only)."""
    left = Counter(DECK_COUNTS)
    left.subtract(view["hand"] or [])
    for line in view["battle"]["lines"]:
        left.subtract(c["card"] for c in line["cards"] if "card" in c)
    return sorted(left.elements())


def determinize(view: dict, rng: random.Random) -> dict:
    """A full state consistent with `view` (see the module docstring)."""
    me, n = view["seat"], view["num_players"]
    pool = unseen(view)
    rng.shuffle(pool)
    lines, hidden_slots = [], []
    for line in view["battle"]["lines"]:
        codes = []
        for card in line["cards"]:
            if "card" in card:
                codes.append(HIDDEN + card["card"] if card.get("hidden") else card["card"])
            else:
                hidden_slots.append((line["seat"], len(codes)))
                codes.append(None)
        lines.append(codes)
    for seat, i in hidden_slots:
        k = next((j for j, c in enumerate(pool) if c in FACE_DOWN_KINDS), None)
        card = pool.pop(k) if k is not None else pool.pop()
        lines[seat][i] = HIDDEN + card
    hands = []
    for p in view["players"]:
        if p["seat"] == me:
            hands.append(list(view["hand"] or []))
        else:
            hands.append([pool.pop() for _ in range(p["hand_count"])])
    discard = [pool.pop() for _ in range(min(view["discard_count"], len(pool)))]
    battle = view["battle"]
    phase = view["phase"]
    state = {
        "num_players": n, "opts": dict(view["options"]), "seed": rng.getrandbits(63), "shuffles": 0,
        "generator": 2, "deck": pool, "discard": discard, "hands": hands, "lines": lines,
        "passed": [line["passed"] for line in battle["lines"]],
        "owner": {r: s for r, s in view["regions"].items() if s is not None},
        "legate": view["legate"], "legate_seat": view["legate_seat"],
        "token": view["token"]["region"], "holder": view["token"]["holder"],
        "phase": phase, "turn": (view["to_move"] or [None])[0],
        # Who has already answered the hand question is secret: nobody yet, in this world.
        "queue": list(view["to_move"]) if phase == "discard_hand" else [],
        "asked": list(view["to_move"]) if phase == "discard_hand" else [], "discarding": [],
        "final": list(battle["participants"]) if battle["final"] else None,
        "defender": battle["defender"],
        "defender_played": battle["defender"] is not None and bool(lines[battle["defender"]]),
        "game_no": view["game_no"], "round": view["round"], "battle_no": view["battle_no"],
        # Who began the match matters only for the next game when playing for points.
        "first": view["token"]["holder"], "fresh": view["battle_no"] == 0,
        "points": [p["points"] for p in view["players"]], "last": view["last_battle"],
        "winners": None, "reason": None,
    }
    return state


def progress(state: dict, seat: int) -> float:
    """How near `seat` is to winning (1: won), by regions and by its largest group,
    plus a little for the cards it still holds."""
    goal = targets(state["num_players"], state["opts"]["larger_kingdoms"])
    mine = [r for r, s in state["owner"].items() if s == seat]
    near = max(len(mine) / goal["total"], (largest_group(mine) if mine else 0) / goal["adjacent"])
    return near + sum(KEEP_VALUE.get(c.lstrip("?"), 1) for c in state["hands"][seat]) / 200


def evaluate(state: dict, seat: int) -> float:
    """A game not yet over as a score in 0..1: ahead of the best rival or behind."""
    rivals = max(progress(state, s) for s in range(state["num_players"]) if s != seat)
    return 0.5 + 0.5 * math.tanh(3 * (progress(state, seat) - rivals))


def make_master(engine: Engine):
    """The master bot for `engine` (this game's engine, which engine.py passes in)."""

    def master(view: dict, legal, rng: random.Random, *, iterations: int | None = None,
               budget: float | None = None) -> dict:
        legal = list(legal)
        if len(legal) == 1:
            return legal[0]
        if view["phase"] not in SEARCHED or len(legal) > MAX_CANDIDATES:
            return heuristic(view, legal, rng)
        stop = view["battle_no"] + 1 + BATTLES_AHEAD
        return search(engine, view, view["seat"], legal, rng, determinize, heuristic,
                      iterations=iterations, budget=budget, evaluate=evaluate,
                      horizon=lambda state: state["battle_no"] >= stop)

    master.searches = True  # runtime/bots.py: think in the bot pool, within a budget
    return master
