"""Phase 8 special actions (two rounds in player order, p.7-8) and phase 9
recruitment (p.8)."""

from __future__ import annotations

from itertools import combinations
from typing import Iterator

from . import turns
from .board import BOARD, ENEMIES, HOME, PROVINCES, UNIT_COST, UNIT_LIMIT, UNITS
from ..base import event
from .early import name, pname
from .state import PLAYERS, discs_free, enemies_in, order_from, roll, sejm_seats, writable

# ---- 8 special actions -----------------------------------------------------------


def phase_special(s: dict, ev: list) -> None:
    order = order_from(s["start"])
    s["pending"] = {"kind": "special", "order": order + order, "i": 0, "second": False}


def cube_moves(s: dict, seat: int) -> Iterator[dict]:
    for a in PROVINCES:
        if s["prov"][a]["nobles"][seat] >= 1:
            for b in PROVINCES:
                if b != a:
                    yield {"type": "move_cube", "from": a, "to": b}


def fewest_vp(s: dict, seat: int) -> bool:
    """Strictly the fewest VP: a shared last place does not qualify (p.8)."""
    return all(s["vp"][seat] < s["vp"][x] for x in range(PLAYERS) if x != seat)


def diplomacy_allowed(s: dict, colour: str) -> bool:
    if colour == "orange":
        return False  # never with the Turks (p.7)
    if colour == "purple":
        return s["round"] == 4 and s["turks_on_habsburg"] == 0
    return True


def takeable_estate(pr: dict, target: int) -> int | None:
    """The target's least valuable estate without a town (p.8)."""
    for i, owner in enumerate(pr["estates"]):
        if owner == target and not pr["towns"][i]:
            return i
    return None


def legal_special(s: dict, seat: int) -> Iterator[dict]:
    if s["pending"]["second"]:
        yield from cube_moves(s, seat)
        yield {"type": "stop"}
        return
    prov = s["prov"]
    r = s["round"]
    mine = {p: prov[p]["nobles"][seat] for p in PROVINCES}
    if s["stewards_left"] > 0:
        for p in PROVINCES:
            if mine[p] >= 1:
                pr = prov[p]
                for i, o in enumerate(pr["estates"]):
                    if o == seat and not pr["stewards"][i]:
                        yield {"type": "steward", "province": p, "space": i}
    if mine["prussia"] >= 1:
        yield {"type": "danzig"}
    if s["treaty"] is None:
        # Any one of the seat's Sejm discs, its choice (p.7).
        discs = sejm_seats(s, seat)
        for c in ENEMIES:
            if diplomacy_allowed(s, c) and mine[HOME[c]] >= 1:
                for d in discs:
                    yield {"type": "diplomacy", "enemy": c, "disc": d}
    yield from cube_moves(s, seat)
    if any(v is not None for v in s["sejm"].values()):
        for p in PROVINCES:
            if mine[p] >= 1:
                yield {"type": "liberum_veto", "province": p}
    # The taker puts down a disc of his own (p.7: "kicserélje a sajátjára").
    if r >= 3 and fewest_vp(s, seat) and discs_free(s, seat) > 0:
        for p in PROVINCES:
            if mine[p] >= BOARD["right_of_arms_cubes"]:
                for t in range(PLAYERS):
                    if t != seat and prov[p]["nobles"][t] < mine[p] and takeable_estate(prov[p], t) is not None:
                        yield {"type": "right_of_arms", "province": p, "target": t}
    if r >= 2:
        usable = [p for p in PROVINCES if mine[p] >= 1]
        most = min(len(usable), s["money"][seat] // BOARD["jesuit_cost"])
        for k in range(1, most + 1):
            for c in combinations(usable, k):
                yield {"type": "jesuits", "provinces": list(c)}
    if r >= 3 and not s["town_built"] and s["towns_left"] > 0:
        for p in PROVINCES:
            if mine[p] >= BOARD["town_cubes"]:
                pr = prov[p]
                for i, o in enumerate(pr["estates"]):
                    if o == seat and not pr["towns"][i]:
                        yield {"type": "town", "province": p, "space": i}
    yield {"type": "pass"}


def apply_special(s: dict, seat: int, action: dict, ev: list) -> None:
    kind = action["type"]
    pend = s["pending"]
    if kind == "move_cube":
        writable(s, action["from"])["nobles"][seat] -= 1
        writable(s, action["to"])["nobles"][seat] += 1
        event(ev, "move", f"{name(seat)} moves a cube from {pname(action['from'])} to {pname(action['to'])}.",
              seat=seat, **{"from": action["from"], "dest": action["to"]})
        if not pend["second"]:
            pend["second"] = True  # up to two cubes (p.7): a second move or stop
            return
    elif kind == "stop":
        pass
    elif kind == "steward":
        pr = writable(s, action["province"])
        pr["nobles"][seat] -= 1
        pr["stewards"][action["space"]] = True
        s["stewards_left"] -= 1
        event(ev, "steward", f"{name(seat)} hires a steward in {pname(action['province'])}.", seat=seat,
              province=action["province"])
    elif kind == "danzig":
        pr = writable(s, "prussia")
        pr["nobles"][seat] -= 1
        income = sum(pr["income"] + (BOARD["steward_bonus"] if pr["stewards"][i] else 0)
                     for i, o in enumerate(pr["estates"]) if o is not None)
        s["money"][seat] += 2 * income
        event(ev, "danzig", f"{name(seat)} trades through Danzig for {2 * income} talers.", seat=seat,
              amount=2 * income)
    elif kind == "diplomacy":
        diplomacy(s, seat, action["enemy"], action["disc"], ev)
    elif kind == "liberum_veto":
        writable(s, action["province"])["nobles"][seat] -= 1
        for p in PROVINCES:
            s["sejm"][p] = None
        event(ev, "veto", f"{name(seat)} uses the liberum veto: every disc leaves the Sejm.", seat=seat)
    elif kind == "right_of_arms":
        pr = writable(s, action["province"])
        pr["nobles"][seat] -= BOARD["right_of_arms_cubes"]
        i = takeable_estate(pr, action["target"])
        pr["estates"][i] = seat
        if pr["stewards"][i]:
            pr["stewards"][i] = False
            s["stewards_left"] += 1
        event(ev, "right_of_arms",
              f"{name(seat)} takes an estate in {pname(action['province'])} from {name(action['target'])} "
                "by the right of arms.",
              seat=seat, province=action["province"], owner=action["target"])
    elif kind == "jesuits":
        k = len(action["provinces"])
        for p in action["provinces"]:
            writable(s, p)["nobles"][seat] -= 1
        s["money"][seat] -= BOARD["jesuit_cost"] * k
        gain = k + (BOARD["jesuit_bonus_all"] if k == len(PROVINCES) else 0)
        s["vp"][seat] += gain
        event(ev, "jesuits", f"{name(seat)} funds Jesuit schools in {k} province(s) for {gain} VP.", seat=seat, count=k,
              vp=gain)
    elif kind == "town":
        pr = writable(s, action["province"])
        pr["nobles"][seat] -= BOARD["town_cubes"]
        pr["towns"][action["space"]] = True
        s["towns_left"] -= 1
        s["town_built"] = True
        event(ev, "town", f"{name(seat)} founds a town in {pname(action['province'])}.", seat=seat,
              province=action["province"])
    elif kind == "pass":
        event(ev, "special_pass", f"{name(seat)} takes no special action.", seat=seat)
    pend["second"] = False
    pend["i"] += 1
    if pend["i"] == len(pend["order"]):
        s["pending"] = None


def diplomacy(s: dict, seat: int, colour: str, disc: str, ev: list) -> None:
    """Cube from the bordering province, a Sejm disc, then pay a die roll plus two (p.7)."""
    writable(s, HOME[colour])["nobles"][seat] -= 1
    s["sejm"][disc] = None
    d = roll(s)
    cost = d + BOARD["treaty_extra_cost"]
    if s["money"][seat] >= cost:
        s["money"][seat] -= cost
        s["treaty"] = colour
        s["treaty_made"] = True
        event(ev, "treaty", f"{name(seat)} rolls {d} and pays {cost} talers for a treaty with the {colour} enemy.",
              seat=seat, enemy=colour, die=d, cost=cost)
    else:
        paid = s["money"][seat]
        s["money"][seat] = 0
        event(ev, "treaty_failed",
              f"{name(seat)} rolls {d} but cannot pay {cost}: {paid} talers are lost and no treaty is made.",
              seat=seat, enemy=colour, die=d, cost=cost, lost=paid)


# ---- 9 recruitment -------------------------------------------------------------


def phase_recruitment(s: dict, ev: list) -> None:
    # "done": the seats that said they recruit no more (D8a), in the order they said it.
    turns.start_round_robin(s, "recruitment", {"opened": [[] for _ in range(PLAYERS)], "passes": 0, "done": []})


def recruit_cost(s: dict, p: str, unit: str) -> int:
    cost = UNIT_COST[unit]
    # Halved where enemy cubes stand, Cossacks included (p.8, player aid p.16);
    # legal_recruitment prices a province's units the same way.
    return cost // 2 if enemies_in(s["prov"][p]) > 0 else cost


def legal_recruitment(s: dict, seat: int) -> Iterator[dict]:
    if seat in s["pending"].get("done", ()):
        # Out of the round by its own word: it may take that back while the phase lasts (D8a).
        yield {"type": "recruit_resume"}
        return
    opened = s["pending"]["opened"][seat]
    money = s["money"][seat]
    # What the seat may still recruit at all; the price is halved where enemies stand.
    placed = [0, 0, 0]
    for pr in s["prov"].values():
        mine = pr["units"][seat]
        placed[0] += mine[0]
        placed[1] += mine[1]
        placed[2] += mine[2]
    units = [u for k, u in enumerate(UNITS) if placed[k] < UNIT_LIMIT[u] and not (u == "cannon" and s["round"] == 1)]
    buys = False
    if s["cossacks"]["box"] > 0:
        units.append("cossack")
    for p in PROVINCES:
        pr = s["prov"][p]
        if p not in opened and pr["nobles"][seat] < 1:
            continue
        halved = enemies_in(pr) > 0
        for u in units:
            if (u != "cossack" or p == "ukraine") and money >= (UNIT_COST[u] // 2 if halved else UNIT_COST[u]):
                yield {"type": "recruit", "province": p, "unit": u}
                buys = True
    if buys:
        # Offered only beside a purchase: a seat that can buy nothing is passed for it.
        yield {"type": "recruit_done"}
    yield {"type": "pass"}


def apply_recruitment(s: dict, seat: int, action: dict, ev: list) -> None:
    if action["type"] == "pass":
        event(ev, "recruit_pass", f"{name(seat)} passes.", seat=seat)
        if turns.pass_for_now(s):
            end_recruitment(s, ev)
        return
    if action["type"] == "recruit_done":
        # "Nobody wants to recruit more" (p.7) said once for the round, instead of a
        # pass on every lap (D8a in docs/rules/gods_playground.md).
        event(ev, "recruit_done", f"{name(seat)} recruits no more this round.", seat=seat)
        s["pending"].setdefault("done", []).append(seat)  # a state stored before D8a's undo lacks the list
        if turns.leave_for_now(s):
            end_recruitment(s, ev)
        return
    if action["type"] == "recruit_resume":
        # The word taken back (D8a): the seat is in the turns again, in its place in player order,
        # and is asked when the turn comes round to it; the passes made so far still stand.
        event(ev, "recruit_resume", f"{name(seat)} wants to recruit again.", seat=seat)
        turns.rejoin(s, seat)
        return
    p, unit = action["province"], action["unit"]
    opened = s["pending"]["opened"][seat]
    if p not in opened:
        writable(s, p)["nobles"][seat] -= 1  # one cube opens the province (p.8)
        opened.append(p)
    cost = recruit_cost(s, p, unit)
    s["money"][seat] -= cost
    if unit == "cossack":
        s["cossacks"]["box"] -= 1
        s["cossacks"]["ukraine"] += 1
    else:
        writable(s, p)["units"][seat][UNITS.index(unit)] += 1
    event(ev, "recruit", f"{name(seat)} recruits {unit} in {pname(p)} for {cost} talers.", seat=seat, province=p,
          unit=unit, cost=cost)
    turns.next_turn(s)


def end_recruitment(s: dict, ev: list) -> None:
    n = s["cossacks"]["box"]
    if n:
        s["cossacks"]["box"] = 0
        s["cossacks"]["tatars"] += n
        event(ev, "cossacks_join", f"{n} unhired Cossack(s) join the Tatars.", count=n)
