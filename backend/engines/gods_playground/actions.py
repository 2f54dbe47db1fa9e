"""Phase 8 special actions (two rounds in player order, p.7-8) and phase 9
recruitment (p.8)."""

from __future__ import annotations

from itertools import combinations

from . import turns
from .board import BOARD, ENEMIES, HOME, PROVINCES, UNIT_COST, UNITS
from .early import name, pname, say
from .state import PLAYERS, discs_free, enemies_in, order_from, roll, sejm_seats, units_free

# ---- 8 special actions -----------------------------------------------------------


def phase_special(s: dict, ev: list) -> None:
    order = order_from(s["start"])
    s["pending"] = {"kind": "special", "order": order + order, "i": 0, "second": False}


def cube_moves(s: dict, seat: int) -> list:
    out = []
    for a in PROVINCES:
        if s["prov"][a]["nobles"][seat] >= 1:
            out += [{"type": "move_cube", "from": a, "to": b} for b in PROVINCES if b != a]
    return out


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


def legal_special(s: dict, seat: int) -> list:
    if s["pending"]["second"]:
        return cube_moves(s, seat) + [{"type": "stop"}]
    out = []
    prov = s["prov"]
    r = s["round"]
    mine = {p: prov[p]["nobles"][seat] for p in PROVINCES}
    if s["stewards_left"] > 0:
        for p in PROVINCES:
            if mine[p] >= 1:
                pr = prov[p]
                out += [{"type": "steward", "province": p, "space": i}
                        for i, o in enumerate(pr["estates"]) if o == seat and not pr["stewards"][i]]
    if mine["prussia"] >= 1:
        out.append({"type": "danzig"})
    if s["treaty"] is None:
        # Any one of the seat's Sejm discs, its choice (p.7).
        out += [{"type": "diplomacy", "enemy": c, "disc": d} for c in ENEMIES
                if diplomacy_allowed(s, c) and mine[HOME[c]] >= 1 for d in sejm_seats(s, seat)]
    out += cube_moves(s, seat)
    if any(v is not None for v in s["sejm"].values()):
        out += [{"type": "liberum_veto", "province": p} for p in PROVINCES if mine[p] >= 1]
    # The taker puts down a disc of his own (p.7: "kicserélje a sajátjára").
    if r >= 3 and fewest_vp(s, seat) and discs_free(s, seat) > 0:
        for p in PROVINCES:
            if mine[p] >= BOARD["right_of_arms_cubes"]:
                for t in range(PLAYERS):
                    if t != seat and prov[p]["nobles"][t] < mine[p] and takeable_estate(prov[p], t) is not None:
                        out.append({"type": "right_of_arms", "province": p, "target": t})
    if r >= 2:
        usable = [p for p in PROVINCES if mine[p] >= 1]
        most = min(len(usable), s["money"][seat] // BOARD["jesuit_cost"])
        for k in range(1, most + 1):
            out += [{"type": "jesuits", "provinces": list(c)} for c in combinations(usable, k)]
    if r >= 3 and not s["town_built"] and s["towns_left"] > 0:
        for p in PROVINCES:
            if mine[p] >= BOARD["town_cubes"]:
                pr = prov[p]
                out += [{"type": "town", "province": p, "space": i}
                        for i, o in enumerate(pr["estates"]) if o == seat and not pr["towns"][i]]
    out.append({"type": "pass"})
    return out


def apply_special(s: dict, seat: int, action: dict, ev: list) -> None:
    kind = action["type"]
    prov = s["prov"]
    pend = s["pending"]
    if kind == "move_cube":
        prov[action["from"]]["nobles"][seat] -= 1
        prov[action["to"]]["nobles"][seat] += 1
        say(ev, f"{name(seat)} moves a cube from {pname(action['from'])} to {pname(action['to'])}.", "move", seat=seat,
            **{"from": action["from"], "dest": action["to"]})
        if not pend["second"]:
            pend["second"] = True  # up to two cubes (p.7): a second move or stop
            return
    elif kind == "stop":
        pass
    elif kind == "steward":
        pr = prov[action["province"]]
        pr["nobles"][seat] -= 1
        pr["stewards"][action["space"]] = True
        s["stewards_left"] -= 1
        say(ev, f"{name(seat)} hires a steward in {pname(action['province'])}.", "steward", seat=seat,
            province=action["province"])
    elif kind == "danzig":
        pr = prov["prussia"]
        pr["nobles"][seat] -= 1
        income = sum(pr["income"] + (BOARD["steward_bonus"] if pr["stewards"][i] else 0)
                     for i, o in enumerate(pr["estates"]) if o is not None)
        s["money"][seat] += 2 * income
        say(ev, f"{name(seat)} trades through Danzig for {2 * income} talers.", "danzig", seat=seat, amount=2 * income)
    elif kind == "diplomacy":
        diplomacy(s, seat, action["enemy"], action["disc"], ev)
    elif kind == "liberum_veto":
        prov[action["province"]]["nobles"][seat] -= 1
        for p in PROVINCES:
            s["sejm"][p] = None
        say(ev, f"{name(seat)} uses the liberum veto: every disc leaves the Sejm.", "veto", seat=seat)
    elif kind == "right_of_arms":
        pr = prov[action["province"]]
        pr["nobles"][seat] -= BOARD["right_of_arms_cubes"]
        i = takeable_estate(pr, action["target"])
        pr["estates"][i] = seat
        if pr["stewards"][i]:
            pr["stewards"][i] = False
            s["stewards_left"] += 1
        say(ev, f"{name(seat)} takes an estate in {pname(action['province'])} from {name(action['target'])} "
                "by the right of arms.", "right_of_arms", seat=seat, province=action["province"], owner=action["target"])
    elif kind == "jesuits":
        k = len(action["provinces"])
        for p in action["provinces"]:
            prov[p]["nobles"][seat] -= 1
        s["money"][seat] -= BOARD["jesuit_cost"] * k
        gain = k + (BOARD["jesuit_bonus_all"] if k == len(PROVINCES) else 0)
        s["vp"][seat] += gain
        say(ev, f"{name(seat)} funds Jesuit schools in {k} province(s) for {gain} VP.", "jesuits", seat=seat, count=k,
            vp=gain)
    elif kind == "town":
        pr = prov[action["province"]]
        pr["nobles"][seat] -= BOARD["town_cubes"]
        pr["towns"][action["space"]] = True
        s["towns_left"] -= 1
        s["town_built"] = True
        say(ev, f"{name(seat)} founds a town in {pname(action['province'])}.", "town", seat=seat,
            province=action["province"])
    elif kind == "pass":
        say(ev, f"{name(seat)} takes no special action.", "special_pass", seat=seat)
    pend["second"] = False
    pend["i"] += 1
    if pend["i"] == len(pend["order"]):
        s["pending"] = None


def diplomacy(s: dict, seat: int, colour: str, disc: str, ev: list) -> None:
    """Cube from the bordering province, a Sejm disc, then pay a die roll plus two (p.7)."""
    s["prov"][HOME[colour]]["nobles"][seat] -= 1
    s["sejm"][disc] = None
    d = roll(s)
    cost = d + BOARD["treaty_extra_cost"]
    if s["money"][seat] >= cost:
        s["money"][seat] -= cost
        s["treaty"] = colour
        s["treaty_made"] = True
        say(ev, f"{name(seat)} rolls {d} and pays {cost} talers for a treaty with the {colour} enemy.",
            "treaty", seat=seat, enemy=colour, die=d, cost=cost)
    else:
        paid = s["money"][seat]
        s["money"][seat] = 0
        say(ev, f"{name(seat)} rolls {d} but cannot pay {cost}: {paid} talers are lost and no treaty is made.",
            "treaty_failed", seat=seat, enemy=colour, die=d, cost=cost, lost=paid)


# ---- 9 recruitment -------------------------------------------------------------


def phase_recruitment(s: dict, ev: list) -> None:
    turns.start_round_robin(s, "recruitment", {"opened": [[] for _ in range(PLAYERS)], "passes": 0})


def recruit_cost(s: dict, p: str, unit: str) -> int:
    cost = UNIT_COST[unit]
    # Halved where enemy cubes stand, Cossacks included (p.8, player aid p.16).
    return cost // 2 if enemies_in(s["prov"][p]) > 0 else cost


def legal_recruitment(s: dict, seat: int) -> list:
    out = []
    opened = s["pending"]["opened"][seat]
    money = s["money"][seat]
    for p in PROVINCES:
        if p not in opened and s["prov"][p]["nobles"][seat] < 1:
            continue
        for u in UNITS:
            if u == "cannon" and s["round"] == 1:
                continue  # no cannon in round 1 (p.8)
            if units_free(s, seat, u) > 0 and money >= recruit_cost(s, p, u):
                out.append({"type": "recruit", "province": p, "unit": u})
        if p == "ukraine" and s["cossacks"]["box"] > 0 and money >= recruit_cost(s, p, "cossack"):
            out.append({"type": "recruit", "province": p, "unit": "cossack"})
    return out + [{"type": "pass"}]


def apply_recruitment(s: dict, seat: int, action: dict, ev: list) -> None:
    if action["type"] == "pass":
        say(ev, f"{name(seat)} passes.", "recruit_pass", seat=seat)
        if turns.pass_for_now(s):
            end_recruitment(s, ev)
        return
    p, unit = action["province"], action["unit"]
    opened = s["pending"]["opened"][seat]
    if p not in opened:
        s["prov"][p]["nobles"][seat] -= 1  # one cube opens the province (p.8)
        opened.append(p)
    cost = recruit_cost(s, p, unit)
    s["money"][seat] -= cost
    if unit == "cossack":
        s["cossacks"]["box"] -= 1
        s["cossacks"]["ukraine"] += 1
    else:
        s["prov"][p]["units"][seat][UNITS.index(unit)] += 1
    say(ev, f"{name(seat)} recruits {unit} in {pname(p)} for {cost} talers.", "recruit", seat=seat, province=p,
        unit=unit, cost=cost)
    turns.next_turn(s)


def end_recruitment(s: dict, ev: list) -> None:
    n = s["cossacks"]["box"]
    if n:
        s["cossacks"]["box"] = 0
        s["cossacks"]["tatars"] += n
        say(ev, f"{n} unhired Cossack(s) join the Tatars.", "cossacks_join", count=n)
