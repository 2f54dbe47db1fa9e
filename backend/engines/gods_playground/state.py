"""The state layout, setup, dice and the supply counts derived from the board.

The state is one JSON object; every supply is derived (total minus what is on
the board), so nothing can be created or lost by accident.
"""

from __future__ import annotations

from ..rng import MASK, splitmix64
from .board import (
    BOARD, ENEMIES, HOME, INFLUENCE_MARKERS, PROVINCES, ROYAL_LIMIT, UNIT_LIMIT, UNITS, DEFAULT, board_of,
)

PLAYERS = 3


def new_state(seed: int, dice: list[int], board: dict | None) -> dict:
    """`board`: the match's board as board.Board.to_json() gives it; None only to replay
    a match stored before matches recorded their board (it plays on the default)."""
    rows = (board["values"] if board is not None else DEFAULT.values)["estate_vp"]
    s = {
        "game": "gods_playground",
        "num_players": PLAYERS,
        "seed": seed,
        "rng": (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & MASK,
        "dice_queue": list(dice),
        "round": 1,
        "phase": "setup",
        "phase_entered": True,
        "start": 0,
        "over": False,
        "money": [BOARD["start_money"]] * PLAYERS,
        "vp": [0] * PLAYERS,
        "hand": [list(BOARD["noble_tiles"]) for _ in range(PLAYERS)],
        "secret": [{} for _ in range(PLAYERS)],
        "revealed": None,
        "prov": {p: new_province(len(rows[p])) for p in PROVINCES},
        "box": {c: {"cubes": 0, "nobles": [0] * PLAYERS, "royal": 0} for c in ENEMIES},
        "influence": 0,  # Habsburg influence markers on the Habsburg box
        "turks_on_habsburg": 0,  # Turkish cubes on the Habsburg box (rounds 3-4)
        "turks_hold_habsburg": False,  # round 4: the Habsburg box is a Turkish box (p.10)
        "turks_overran_habsburg": False,  # round 3: Turkish cubes reached the Habsburg box (p.13)
        "royal_army": {u: 0 for u in UNITS},
        "sejm": {p: None for p in PROVINCES},
        "cossacks": {"box": BOARD["cossacks"], "ukraine": 0, "tatars": 0},
        "treaty": None,
        "treaty_made": False,
        "town_built": False,
        "stewards_left": BOARD["stewards"],
        "towns_left": BOARD["towns"],
        "last_roll": [],
        "pending": None,
        "final_estate_vp": None,
    }
    if board is not None:
        s["board"] = board  # read through board.board_of(s); never changed during the game
    s["start"] = start_player(roll(s))
    return s


# What copy_state shares with the state it copies, as a step only ever replaces them
# whole: these keys' values, and the items of SHARED_ITEMS' lists (each seat's secret
# placement).  tests/engines/gods_playground/test_copy.py holds everything else copied.
SHARED = frozenset({"board", "revealed", "last_roll", "final_estate_vp"})
SHARED_ITEMS = frozenset({"secret"})
# The provinces and enemy boxes a step's private copy still shares with the state it
# was copied from, as ("prov", p) and ("box", colour): copy_state puts the list here,
# writable and writable_box take one off it, `done` removes it.
STILL_SHARED = "_still_shared"


def copy_state(s: dict) -> dict:
    """The private copy a step changes: every container a step may change in place is
    new, what it only ever replaces whole is shared (SHARED), and so are the provinces
    and the enemy boxes until the step takes one with `writable` or `writable_box` (most
    steps change one or two of the five provinces and no box).  Written out for this
    state's layout, it costs a fraction of a generic deep copy.  `done` ends the step."""
    c = s.copy()
    c["dice_queue"] = s["dice_queue"][:]
    c["money"] = s["money"][:]
    c["vp"] = s["vp"][:]
    h0, h1, h2 = s["hand"]
    c["hand"] = [h0[:], h1[:], h2[:]]
    c["secret"] = s["secret"][:]
    c["prov"] = s["prov"].copy()
    c["box"] = s["box"].copy()
    c[STILL_SHARED] = [*_PROVINCE_KEYS, *_BOX_KEYS]
    c["royal_army"] = s["royal_army"].copy()
    c["sejm"] = s["sejm"].copy()
    c["cossacks"] = s["cossacks"].copy()
    c["pending"] = _copy_pending(s["pending"])
    return c


def _copy_pending(pending: dict | None) -> dict | None:
    """The decision under way: a dict of numbers, codes and lists, whose items are
    numbers or codes, or lists and dicts of them (opened provinces, demands): two
    levels, copied without recursion."""
    if pending is None:
        return None
    c = pending.copy()
    for k, v in pending.items():
        if type(v) is list:
            c[k] = [x.copy() if type(x) in _CONTAINERS else x for x in v]
    return c


_CONTAINERS = (list, dict)


_PROVINCE_KEYS = tuple(("prov", p) for p in PROVINCES)
_BOX_KEYS = tuple(("box", c) for c in ENEMIES)


def writable(s: dict, p: str) -> dict:
    """Province p of a step's private copy, ready to change: copied from the state the
    step began with the first time it is asked for.  Every change to a province goes
    through here (tests/engines/gods_playground/test_copy.py plays on frozen ones)."""
    pr = s["prov"][p]
    if _take(s, ("prov", p)):
        u0, u1, u2 = pr["units"]
        pr = {**pr, "estates": list(pr["estates"]), "stewards": list(pr["stewards"]), "towns": list(pr["towns"]),
              "nobles": list(pr["nobles"]), "enemy": dict(pr["enemy"]), "units": [list(u0), list(u1), list(u2)]}
        s["prov"][p] = pr
    return pr


def writable_box(s: dict, colour: str) -> dict:
    """The enemy box of `colour` in a step's private copy, ready to change (as writable)."""
    box = s["box"][colour]
    if _take(s, ("box", colour)):
        box = {**box, "nobles": list(box["nobles"])}
        s["box"][colour] = box
    return box


def _take(s: dict, key: tuple) -> bool:
    """Whether `key` was still shared (it is not any more)."""
    shared = s.get(STILL_SHARED, ())  # none in a state that is all its own (a new game, a deep copy)
    if key in shared:
        shared.remove(key)
        return True
    return False


def done(s: dict) -> None:
    """The end of a step: its copy is a plain state again."""
    del s[STILL_SHARED]


def start_player(die: int) -> int:
    """The start player by a die roll (p.4 "Kockadobással döntsétek el, ki lesz a
    kezdőjátékos"): 1 or 4 white, 2 or 5 blue, 3 or 6 red. The die is rolled like every
    other die, so the `dice` test hook decides it too."""
    return (die - 1) % PLAYERS


def new_province(n: int) -> dict:
    """A province with `n` estate spaces."""
    return {
        "income": BOARD["income_start"],
        "estates": [None] * n,  # owner seat per space, least valuable first
        "stewards": [False] * n,
        "towns": [False] * n,
        "nobles": [0] * PLAYERS,
        "enemy": {c: 0 for c in ENEMIES},
        "influence": 0,
        "units": [[0, 0, 0] for _ in range(PLAYERS)],  # infantry, cavalry, cannon per seat
        "invaded": False,  # an enemy cube was placed here this round (p.13)
    }


# ---- randomness --------------------------------------------------------------
# SplitMix64 (backend/engines/rng.py) with its state in s["rng"], so no
# interpreter's `random` is involved.  Draws take the output modulo n, as they
# always have (stored matches replay identically); the bias is below 2**-61
# for n <= 6.


def _next(s: dict) -> int:
    s["rng"], out = splitmix64(s["rng"])
    return out


def rand_below(s: dict, n: int) -> int:
    return _next(s) % n


def roll(s: dict) -> int:
    """One die: the test hook's queue first (options["dice"]), then the seeded RNG."""
    if s["dice_queue"]:
        return s["dice_queue"].pop(0)
    return _next(s) % 6 + 1


def roll_n(s: dict, n: int) -> list[int]:
    return [roll(s) for _ in range(n)]


# ---- turn order --------------------------------------------------------------


def order_from(first: int) -> list[int]:
    return [(first + i) % PLAYERS for i in range(PLAYERS)]


# ---- supplies -----------------------------------------------------------------


def cubes_on_board(s: dict, seat: int) -> int:
    return sum(pr["nobles"][seat] for pr in s["prov"].values()) + sum(b["nobles"][seat] for b in s["box"].values())


def cube_supply(s: dict, seat: int) -> int:
    return BOARD["noble_cubes"] - cubes_on_board(s, seat)


def royal_cube_supply(s: dict) -> int:
    return BOARD["royal_cubes"] - sum(b["royal"] for b in s["box"].values())


def discs_free(s: dict, seat: int) -> int:
    used = sum(pr["estates"].count(seat) for pr in s["prov"].values())
    used += sum(1 for v in s["sejm"].values() if v == seat)
    return BOARD["discs"] - BOARD["discs_on_vp_track"] - used


def enemy_supply(s: dict, colour: str) -> int:
    used = s["box"][colour]["cubes"] + sum(pr["enemy"][colour] for pr in s["prov"].values())
    if colour == "orange":
        used += s["turks_on_habsburg"]
    return board_of(s)["enemy_cubes"][colour] - used


def influence_supply(s: dict) -> int:
    return INFLUENCE_MARKERS - s["influence"] - sum(pr["influence"] for pr in s["prov"].values())


def units_free(s: dict, seat: int, unit: str) -> int:
    k = UNITS.index(unit)
    return UNIT_LIMIT[unit] - sum(pr["units"][seat][k] for pr in s["prov"].values())


def enemies_in(pr: dict) -> int:
    return sum(pr["enemy"].values())


def nobles_in(pr: dict) -> int:
    return sum(pr["nobles"])


def sejm_seats(s: dict, seat: int) -> list[str]:
    return [p for p in PROVINCES if s["sejm"][p] == seat]


def box_attackers(s: dict, colour: str) -> str:
    """The colour of the cubes a box sends: Turks when they hold the Habsburg box."""
    return "orange" if colour == "purple" and s["turks_hold_habsburg"] else colour


def home_colour(s: dict, p: str) -> str:
    """The enemy colour whose arrows lead out of province p (purple arrows are orange
    when the Turks hold the Habsburg box, p.10)."""
    for c in ENEMIES:
        if HOME[c] == p:
            return box_attackers(s, c)
    raise KeyError(p)


def check_supplies(s: dict) -> None:
    """Assert every supply is within bounds (used by tests)."""
    for seat in range(PLAYERS):
        assert 0 <= cube_supply(s, seat) <= BOARD["noble_cubes"], ("cubes", seat)
        assert discs_free(s, seat) >= 0, ("discs", seat)
        for u in UNITS:
            assert 0 <= units_free(s, seat, u) <= UNIT_LIMIT[u], (u, seat)
        assert s["money"][seat] >= 0
    for c in ENEMIES:
        assert 0 <= enemy_supply(s, c) <= board_of(s)["enemy_cubes"][c], c
    assert 0 <= influence_supply(s) <= INFLUENCE_MARKERS
    assert 0 <= royal_cube_supply(s)
    assert sum(s["cossacks"].values()) == BOARD["cossacks"]
    for u in UNITS:
        assert 0 <= s["royal_army"][u] <= ROYAL_LIMIT[u]
    stewards = sum(sum(pr["stewards"]) for pr in s["prov"].values())
    assert stewards + s["stewards_left"] == BOARD["stewards"]
    for pr in s["prov"].values():
        # Newcomers cancel other colours (p.10), so one colour at most per province.
        assert sum(1 for c in ENEMIES if pr["enemy"][c]) <= 1, pr["enemy"]
    towns = sum(sum(pr["towns"]) for pr in s["prov"].values())
    assert towns <= BOARD["towns"] - s["towns_left"]
