"""What one seat (or a spectator) may see: everything public, its own secret
noble tiles and bid, and only counts of the other seats' secrets.

Built from allow-lists: a key reaches a view only if it is named here, so a
key added to the state later stays private until someone decides otherwise.
Allowed keys keep the state's own order.
"""

from __future__ import annotations

from ..base import clone
from . import flow, war
from .board import ENEMIES, PROVINCES, SLOTS, UNITS, board_json
from .early import hand_left
from .state import PLAYERS, cube_supply, discs_free, enemy_supply, influence_supply, royal_cube_supply

# Never in a view: "seed", "rng" and "dice_queue" (the future dice), "secret"
# (this round's tiles before the reveal: each seat sees its own as
# your_nobles) and "pending" (rebuilt by public_pending: sealed bids hidden).
PROVINCE_FIELDS = frozenset({"income", "estates", "stewards", "towns", "nobles", "enemy", "influence", "units",
                             "invaded"})
BOX_FIELDS = frozenset({"cubes", "nobles", "royal"})
COSSACK_FIELDS = frozenset({"box", "ukraine", "tatars"})
# Every field of every decision but a bid's "bids".
PENDING_FIELDS = frozenset({"kind", "order", "i", "second", "active", "turn", "passes", "opened", "bought", "free",
                            "seats", "demand", "done"})


def _pick(record: dict, allowed) -> dict:
    return {k: clone(v) for k, v in record.items() if k in allowed}


def _by_key(table: dict, keys, fields) -> dict:
    """A map of records (provinces, enemy boxes): known keys, allowed fields."""
    return {k: _pick(record, fields) for k, record in table.items() if k in keys}


_PROVINCE_SET, _ENEMY_SET, _SLOT_SET = frozenset(PROVINCES), frozenset(ENEMIES), frozenset(SLOTS)

# Public state keys and how each is copied.
STATE_FIELDS = {
    "game": clone, "num_players": clone, "round": clone, "phase": clone, "phase_entered": clone, "start": clone,
    "over": clone, "money": clone, "vp": clone,
    "hand": clone,  # tiles left for this half of the game: public, past tiles were revealed
    "revealed": lambda r: None if r is None else [_pick(tiles, _SLOT_SET) for tiles in r],
    "prov": lambda prov: {p: {k: _pick(v, _ENEMY_SET) if k == "enemy" else clone(v)
                              for k, v in pr.items() if k in PROVINCE_FIELDS}
                          for p, pr in prov.items() if p in _PROVINCE_SET},
    "box": lambda box: _by_key(box, _ENEMY_SET, BOX_FIELDS),
    "influence": clone, "turks_on_habsburg": clone, "turks_hold_habsburg": clone, "turks_overran_habsburg": clone,
    "royal_army": lambda army: _pick(army, UNITS),
    "sejm": lambda sejm: _pick(sejm, _PROVINCE_SET),
    "cossacks": lambda cossacks: _pick(cossacks, COSSACK_FIELDS),
    "treaty": clone, "treaty_made": clone, "town_built": clone, "stewards_left": clone, "towns_left": clone,
    "last_roll": clone, "final_estate_vp": clone,
}


# The board the match plays on, as the table draws it: what a player reads off the
# printed board (tracks, VP, estate rows, arrows, court troops, the royal table,
# prices).  The rest of the file (supplies, rule numbers) the view shows as counts.
BOARD_VALUES = ("enemy_province", "enemy_strength", "enemy_vp", "estate_vp", "raid_arrows", "court_troops",
                "royal_table", "round_names", "unit_cost")


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
    return _pick(pend, PENDING_FIELDS)


def view(s: dict, seat: int | None) -> dict:
    return views(s, [seat])[seat]


def views(s: dict, seats) -> dict:
    """view(s, seat) for each of `seats`: what every viewer sees is built once and
    shared among the views (read-only); each adds what is its own.  Keys in one
    order for all (the byte-for-byte checks compare them with view)."""
    public = {k: STATE_FIELDS[k](val) for k, val in s.items() if k in STATE_FIELDS}
    to_move = flow.asked(s)  # who is asked: a seat that may only take back "no more recruits" is not
    placed = [len(x) for x in s["secret"]]
    board = board_json(s)
    tail = {
        "supply": {
            "cubes": [cube_supply(s, x) for x in range(PLAYERS)],
            "discs": [discs_free(s, x) for x in range(PLAYERS)],
            "royal_cubes": royal_cube_supply(s),
            "enemy_cubes": {c: enemy_supply(s, c) for c in ENEMIES},
            "influence": influence_supply(s),
        },
        "strength": {c: war.strength(s, c) for c in ENEMIES},
        "provinces_order": list(PROVINCES),
        "board": {"name": board["name"], "hash": board["hash"],
                  "values": {k: clone(board["values"][k]) for k in BOARD_VALUES}},
    }
    out = {}
    for seat in seats:
        v = dict(public)
        v["you"] = seat
        v["pending"] = public_pending(s, seat)
        v["to_move"] = to_move
        v["nobles_placed"] = placed
        if seat is not None:
            v["your_nobles"] = dict(s["secret"][seat])
            v["your_tiles_left"] = hand_left(s, seat)
        v.update(tail)
        out[seat] = v
    return out
