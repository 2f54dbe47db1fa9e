"""Setup placement and phases 1-7: income, nobles, king election, royal army,
events, elections and estate purchase (rulebook p.4-6)."""

from __future__ import annotations

from typing import Iterator

from ..base import event
from . import turns
from .layouts import layouts
from .board import BOARD, DIE_ENEMY, FAMILIES, PROVINCES, ROYAL_LIMIT, SLOTS, board_of
from .state import (
    PLAYERS, cube_supply, discs_free, enemy_supply, influence_supply, order_from, roll_n, writable, writable_box,
)


def name(seat: int) -> str:
    return FAMILIES[seat]


def pname(p: str) -> str:
    """A province (or box, or slot) code as the English text writes it."""
    return _PLACE_NAMES.get(p) or p.replace("_", " ").title()


_PLACE_NAMES = {p: p.replace("_", " ").title() for p in (*SLOTS, "habsburg")}


# ---- setup: three starting estates each (p.4) ----------------------------------


def start_setup(s: dict) -> None:
    st = s["start"]
    order = order_from(st) + order_from((st + 1) % 3) + order_from((st + 2) % 3)
    s["pending"] = {"kind": "setup_estate", "order": order, "i": 0}


def free_space(pr: dict) -> int | None:
    """Rows fill from the least valuable space (p.4); losses come off the other end,
    so the occupied spaces are always a prefix of the row."""
    try:
        return pr["estates"].index(None)
    except ValueError:
        return None


def place_estate(s: dict, seat: int, p: str, ev: list) -> None:
    pr = writable(s, p)
    i = free_space(pr)
    pr["estates"][i] = seat
    event(ev, "estate", f"{name(seat)} takes an estate in {pname(p)} (space {i + 1}).", seat=seat, province=p,
          space=i + 1)


def legal_setup(s: dict, seat: int) -> list:
    return [{"type": "place_estate", "province": p} for p in PROVINCES if free_space(s["prov"][p]) is not None]


def apply_setup(s: dict, seat: int, action: dict, ev: list) -> None:
    place_estate(s, seat, action["province"], ev)
    pend = s["pending"]
    pend["i"] += 1
    if pend["i"] == len(pend["order"]):
        # The marker was handed on twice during setup (p.4).
        s["start"] = (s["start"] + 2) % PLAYERS
        s["pending"] = None


# ---- 1 income (p.4) -----------------------------------------------------------------


def income_of(s: dict, seat: int) -> int:
    total = 0
    for pr in s["prov"].values():
        for i, owner in enumerate(pr["estates"]):
            if owner == seat:
                total += pr["income"] + (BOARD["steward_bonus"] if pr["stewards"][i] else 0)
    return max(total, BOARD["minimum_income"])


def phase_income(s: dict, ev: list) -> None:
    for seat in range(PLAYERS):
        gain = income_of(s, seat)
        s["money"][seat] += gain
        event(ev, "income", f"{name(seat)} collects {gain} talers.", seat=seat, amount=gain)


# ---- 2 nobles, placed secretly and simultaneously (p.5) --------------------------


def phase_nobles(s: dict, ev: list) -> None:
    s["secret"] = [{} for _ in range(PLAYERS)]
    s["revealed"] = None
    s["pending"] = {"kind": "nobles"}
    event(ev, "nobles_open",
          "Each family secretly places six nobles: one on each province and one on the royal army box.")


def hand_left(s: dict, seat: int) -> list[int]:
    """The tiles a seat still holds once this round's placement is committed (before it:
    the whole hand, since nothing is placed until the commit)."""
    left = list(s["hand"][seat])
    if len(s["secret"][seat]) == len(SLOTS):
        for v in s["secret"][seat].values():
            left.remove(v)
    return left


def legal_nobles(s: dict, seat: int):
    """One action commits all six tiles (p.5: "Pontosan hat nemeseteket rakjátok le"); a
    player arranges and rearranges them on the client and sends the final layout (D2).
    Up to 29,520 layouts: yielded one by one (layouts.py), never built to check one."""
    if len(s["secret"][seat]) == len(SLOTS):
        return []
    return layouts(s["hand"][seat])


def apply_nobles(s: dict, seat: int, action: dict, ev: list) -> None:
    placed = s["secret"][seat] = {slot: action[slot] for slot in SLOTS}
    event(ev, "noble_secret", f"You place your nobles face down: {tiles_text(placed)}.", seat=seat, to=[seat],
          tiles=dict(placed))
    if all(len(x) == len(SLOTS) for x in s["secret"]):
        reveal_nobles(s, ev)


def reveal_nobles(s: dict, ev: list) -> None:
    s["revealed"] = [dict(x) for x in s["secret"]]
    short = []
    demand = []
    for seat in range(PLAYERS):
        placed = s["secret"][seat]
        hand = s["hand"][seat]
        for v in placed.values():
            hand.remove(v)
        want = {p: placed[p] for p in PROVINCES}
        demand.append(want)
        event(ev, "nobles_revealed", f"{name(seat)} reveals: {tiles_text(placed)}.", seat=seat, tiles=dict(placed))
        if sum(want.values()) > cube_supply(s, seat):
            short.append(seat)
    s["secret"] = [{} for _ in range(PLAYERS)]
    for seat in range(PLAYERS):
        if seat not in short:
            put_cubes(s, seat, demand[seat], ev)
    if short:
        # Short supply is decided in player order (p.5).
        order = [x for x in order_from(s["start"]) if x in short]
        s["pending"] = {"kind": "shortage", "seats": order, "demand": demand}
    else:
        s["pending"] = None


def tiles_text(placed: dict) -> str:
    """A layout as the English event text writes it: "Prussia 3, Lithuania 0, ..."."""
    return ", ".join([f"{pname(slot)} {placed[slot]}" for slot in SLOTS])


def put_cubes(s: dict, seat: int, want: dict, ev: list) -> None:
    for p, n in want.items():
        if n:
            writable(s, p)["nobles"][seat] += n


def legal_shortage(s: dict, seat: int) -> list:
    want = s["pending"]["demand"][seat]
    return [{"type": "reduce_nobles", "province": p} for p in PROVINCES if want[p] > 0]


def apply_shortage(s: dict, seat: int, action: dict, ev: list) -> None:
    pend = s["pending"]
    want = pend["demand"][seat]
    want[action["province"]] -= 1
    if sum(want.values()) <= cube_supply(s, seat):
        put_cubes(s, seat, want, ev)
        event(ev, "shortage", f"{name(seat)} ran short of cubes and placed {sum(want.values())}.", seat=seat,
              count=sum(want.values()))
        pend["seats"].pop(0)
        if not pend["seats"]:
            s["pending"] = None


# ---- 3 king election (p.5) --------------------------------------------------------


def phase_king(s: dict, ev: list) -> None:
    royal = [s["revealed"][seat]["royal"] for seat in range(PLAYERS)]
    top = max(royal)
    tied = [seat for seat in order_from(s["start"]) if royal[seat] == top]
    if len(tied) == 1:
        crown(s, tied[0], ev)
    else:
        open_bidding(s, tied, ev)


def crown(s: dict, seat: int, ev: list) -> None:
    s["start"] = seat
    s["pending"] = None
    event(ev, "king", f"{name(seat)} wins the royal election and takes the start player marker.", seat=seat)


def open_bidding(s: dict, tied: list, ev: list) -> None:
    if all(s["money"][seat] == 0 for seat in tied):
        event(ev, "king_kept", "Nobody in the tie can bid; the start player marker stays where it is.")
        s["pending"] = None
        return
    s["pending"] = {"kind": "bid", "seats": sorted(tied), "bids": [None] * PLAYERS}
    names = " and ".join(name(x) for x in tied)
    event(ev, "bid_open", f"{names} tie for the crown and bid in secret.", seats=sorted(tied))


def legal_bid(s: dict, seat: int) -> list:
    pend = s["pending"]
    if seat not in pend["seats"] or pend["bids"][seat] is not None:
        return []
    return [{"type": "bid", "amount": k} for k in range(s["money"][seat] + 1)]


def apply_bid(s: dict, seat: int, action: dict, ev: list) -> None:
    pend = s["pending"]
    pend["bids"][seat] = action["amount"]
    event(ev, "bid_secret", f"You bid {action['amount']} talers.", seat=seat, to=[seat], amount=action["amount"])
    if any(pend["bids"][x] is None for x in pend["seats"]):
        return
    bids = pend["bids"]
    for x in pend["seats"]:
        s["money"][x] -= bids[x]  # every bid goes to the bank (p.5)
    shown = ", ".join(f"{name(x)} {bids[x]}" for x in pend["seats"])
    event(ev, "bids_revealed", f"Bids revealed: {shown}.", bids={str(x): bids[x] for x in pend["seats"]})
    top = max(bids[x] for x in pend["seats"])
    winners = [x for x in pend["seats"] if bids[x] == top]
    if len(winners) == 1:
        crown(s, winners[0], ev)
    elif top == 0:
        # Nobody put a taler in: a new round of bids would be the same round again, so it
        # ends as when nobody can pay (p.5): the marker stays where it is (D3).
        s["pending"] = None
        event(ev, "king", "Nobody bids a taler for the crown; the start player marker stays where it is.",
              seat=s["start"])
    else:
        # Tied again: the bids are paid and the tied bid again until someone wins (p.5),
        # unless no one tied has a taler left.
        open_bidding(s, winners, ev)


# ---- 4 royal army (p.5) ---------------------------------------------------------


def royal_extra(s: dict, total: int) -> tuple[int, int, int]:
    row = [r for r in board_of(s)["royal_table"] if r[0] <= total][-1]
    return row[1], row[2], row[3]


def phase_royal_army(s: dict, ev: list) -> None:
    total = sum(s["revealed"][seat]["royal"] for seat in range(PLAYERS))
    inf, cav, can = royal_extra(s, total)
    court = board_of(s)["court_troops"][s["round"] - 1]
    army = {
        "infantry": min(court["infantry"] + inf, ROYAL_LIMIT["infantry"]),
        "cavalry": min(court["cavalry"] + cav, ROYAL_LIMIT["cavalry"]),
        # No cannon joins the royal army in round 1 (p.5).
        "cannon": 0 if s["round"] == 1 else min(can, ROYAL_LIMIT["cannon"]),
    }
    s["royal_army"] = army
    event(ev, "royal_army",
          f"Nobles worth {total} serve the king: the royal army is {army['infantry']} infantry, "
            f"{army['cavalry']} cavalry and {army['cannon']} cannon.",
          total=total, **army)


# ---- 5 events (p.6) ---------------------------------------------------------------


def add_die_cube(s: dict, colour: str, ev: list) -> None:
    if colour == "purple":
        if s["round"] <= 3:
            if influence_supply(s) > 0:
                s["influence"] += 1
        elif s["turks_hold_habsburg"]:
            # Round 4, Turks own the Habsburg box: a 5 adds a Turkish cube there (p.6).
            if enemy_supply(s, "orange") > 0:
                s["turks_on_habsburg"] += 1
        elif enemy_supply(s, "purple") > 0:
            writable_box(s, "purple")["cubes"] += 1
    elif enemy_supply(s, colour) > 0:
        writable_box(s, colour)["cubes"] += 1


def phase_events(s: dict, ev: list) -> None:
    dice = roll_n(s, BOARD["enemy_dice"])
    s["last_roll"] = dice
    event(ev, "dice_events", f"{name(s['start'])} rolls for events: {', '.join(map(str, dice))}.", seat=s["start"],
          dice=list(dice))
    for d in dice:
        if d in DIE_ENEMY:
            add_die_cube(s, DIE_ENEMY[d], ev)


# ---- 6 elections (p.6) -----------------------------------------------------------


def phase_elections(s: dict, ev: list) -> None:
    for p in PROVINCES:
        nobles = s["prov"][p]["nobles"]
        top = max(nobles)
        winners = [x for x in range(PLAYERS) if nobles[x] == top]
        if top == 0 or len(winners) > 1:
            event(ev, "election_none", f"Nobody wins the election in {pname(p)}.", province=p)
            continue
        w = winners[0]
        writable(s, p)["nobles"][w] -= 1
        if discs_free(s, w) > 0:
            s["sejm"][p] = w
            event(ev, "election", f"{name(w)} wins the election in {pname(p)} and sends a deputy to the Sejm.", seat=w,
                  province=p)


# ---- 7 estate purchase (p.6) --------------------------------------------------


def phase_estate_purchase(s: dict, ev: list) -> None:
    turns.start_round_robin(s, "estate_purchase", {"bought": [0] * PLAYERS})


def estate_cost(s: dict, seat: int) -> int:
    first, later = BOARD["estate_cube_cost"]
    return first if s["pending"]["bought"][seat] == 0 else later


def legal_estate_purchase(s: dict, seat: int) -> Iterator[dict]:
    cost = estate_cost(s, seat)
    if discs_free(s, seat) > 0:
        for p in PROVINCES:
            pr = s["prov"][p]
            if pr["nobles"][seat] >= cost and free_space(pr) is not None:
                yield {"type": "buy_estate", "province": p}
    yield {"type": "pass"}


def apply_estate_purchase(s: dict, seat: int, action: dict, ev: list) -> None:
    if action["type"] == "pass":
        event(ev, "estates_done", f"{name(seat)} buys no more estates this round.", seat=seat)
        turns.pass_turn(s)
        return
    cost = estate_cost(s, seat)
    writable(s, action["province"])["nobles"][seat] -= cost
    s["pending"]["bought"][seat] += 1
    place_estate(s, seat, action["province"], ev)
    turns.next_turn(s)

