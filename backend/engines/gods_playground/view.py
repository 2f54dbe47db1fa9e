"""What one seat (or a spectator) may see: everything public, its own secret
noble tiles and bid, and only counts of the other seats' secrets."""

from __future__ import annotations

from ..base import clone
from . import flow, war
from .board import ENEMIES, PROVINCES
from .early import hand_left
from .state import PLAYERS, cube_supply, discs_free, enemy_supply, influence_supply, royal_cube_supply

# Never shown: the RNG and the test hook's future dice, and the secret placements
# (shown per seat below).
HIDDEN = {"seed", "rng", "dice_queue", "secret", "pending"}


def public_pending(s: dict, seat: int | None) -> dict | None:
    pend = s["pending"]
    if pend is None:
        return None
    if pend["kind"] == "bid":
        out = {"kind": "bid", "seats": list(pend["seats"]),
               "bids_in": [x for x in pend["seats"] if pend["bids"][x] is not None]}
        if seat is not None and pend["bids"][seat] is not None:
            out["your_bid"] = pend["bids"][seat]
        return out
    return clone(pend)


def view(s: dict, seat: int | None) -> dict:
    v = {k: clone(val) for k, val in s.items() if k not in HIDDEN}
    v["you"] = seat
    v["pending"] = public_pending(s, seat)
    v["to_move"] = flow.to_move(s)
    v["nobles_placed"] = [len(x) for x in s["secret"]]
    if seat is not None:
        v["your_nobles"] = dict(s["secret"][seat])
        v["your_tiles_left"] = hand_left(s, seat)
    v["supply"] = {
        "cubes": [cube_supply(s, x) for x in range(PLAYERS)],
        "discs": [discs_free(s, x) for x in range(PLAYERS)],
        "royal_cubes": royal_cube_supply(s),
        "enemy_cubes": {c: enemy_supply(s, c) for c in ENEMIES},
        "influence": influence_supply(s),
    }
    v["strength"] = {c: war.strength(s, c) for c in ENEMIES}
    v["provinces_order"] = list(PROVINCES)
    return v
