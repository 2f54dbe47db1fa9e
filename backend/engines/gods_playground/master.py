"""God's Playground's master bot: determinized rollouts (backend/engines/search.py).

Almost everything in this game is on the table; what a seat cannot see is the
other seats' noble tiles before the reveal, the sealed bids and the dice to
come.  `determinize` builds a whole state out of one seat's view: the public
fields as they are, the other seats' layouts as six tiles of their (public)
hands on the six slots at random, their sealed bids as small random amounts
within their talers, and a fresh seed for the dice.  The board is the printed
board: the view's values over the default file's (the rest of the file is
rule numbers every valid board shares).

A rollout plays to the end of the present round with the advanced bot in every
seat and is scored by `evaluate`; the noble layout (29,520 choices) is left to
the advanced bot.
"""

from __future__ import annotations

import math
import random

from ..base import Engine, clone
from ..search import MAX_CANDIDATES, search
from .board import BOARD, DEFAULT_JSON, SLOTS
from .bots import heuristic_bot
from .view import STATE_FIELDS

NOT_SEARCHED = frozenset({"nobles"})


def determinize(view: dict, rng: random.Random) -> dict:
    """A full state consistent with `view` (see the module docstring)."""
    me = view["you"]
    state = {k: clone(v) for k, v in view.items() if k in STATE_FIELDS}
    seed = rng.getrandbits(63)
    state["seed"] = seed
    state["rng"] = rng.getrandbits(64)
    state["dice_queue"] = []
    values = {**DEFAULT_JSON["values"], **clone(view["board"]["values"])}
    state["board"] = {**DEFAULT_JSON, "name": view["board"]["name"], "hash": view["board"]["hash"], "values": values}
    secret = []
    for seat, placed in enumerate(view["nobles_placed"]):
        if seat == me:
            secret.append(dict(view["your_nobles"]))
        elif placed:
            tiles = rng.sample(sorted(view["hand"][seat]), len(SLOTS))
            secret.append(dict(zip(SLOTS, tiles)))
        else:
            secret.append({})
    state["secret"] = secret
    pending = view["pending"]
    if pending is not None and pending["kind"] == "bid":
        bids = [None] * len(view["money"])
        for seat in pending["bids_in"]:
            bids[seat] = pending.get("your_bid") if seat == me else rng.randint(0, min(3, view["money"][seat]))
        pending = {"kind": "bid", "seats": list(pending["seats"]), "bids": bids}
    state["pending"] = clone(pending)
    return state


def standing(state: dict, seat: int) -> float:
    """VP as they stand, the talers (at the splendour rate) and the estates' printed VP."""
    values = state["board"]["values"]
    vp = state["vp"][seat] + state["money"][seat] / BOARD["talers_per_vp"]
    for p, pr in state["prov"].items():
        for i, owner in enumerate(pr["estates"]):
            if owner == seat:
                vp += values["estate_vp"][p][i] * (3 if pr["towns"][i] else 1)
    return vp


def evaluate(state: dict, seat: int) -> float:
    rivals = max(standing(state, s) for s in range(state["num_players"]) if s != seat)
    return 0.5 + 0.5 * math.tanh((standing(state, seat) - rivals) / 10)


def make_master(engine: Engine):
    """The master bot for `engine` (engine.py passes it in)."""

    def master(view: dict, legal, rng: random.Random, *, iterations: int | None = None,
               budget: float | None = None) -> dict:
        kind = view["pending"]["kind"] if view["pending"] else None
        if kind in NOT_SEARCHED or len(legal) > MAX_CANDIDATES:
            return heuristic_bot(view, legal, rng)
        legal = list(legal)
        if len(legal) == 1:
            return legal[0]
        round_now = view["round"]
        return search(engine, view, view["you"], legal, rng, determinize, heuristic_bot,
                      iterations=iterations, budget=budget, evaluate=evaluate,
                      horizon=lambda state: state["round"] > round_now)

    master.searches = True  # runtime/bots.py: think in the bot pool, within a budget
    return master
