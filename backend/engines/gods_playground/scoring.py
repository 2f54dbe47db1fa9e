"""Phases 14-16 (estates, victory points, end of round, p.13-14) and the game end
(estate VP, towns triple, tie-breaks, p.15)."""

from __future__ import annotations

from .board import BOARD, ENEMIES, GARRISON, PROVINCES, UNITS, board_of
from ..base import event
from .early import name, pname
from .state import PLAYERS, enemies_in, nobles_in, order_from, writable

# ---- 14 estates -------------------------------------------------------------------


def lose_estates(s: dict, p: str, n: int, ev: list) -> None:
    """From the most valuable occupied space backwards; a town is lost with its estate (p.13)."""
    pr = writable(s, p)
    lost = 0
    for i in range(len(pr["estates"]) - 1, -1, -1):
        if lost == n:
            break
        if pr["estates"][i] is None:
            continue
        owner = pr["estates"][i]
        pr["estates"][i] = None
        if pr["stewards"][i]:
            pr["stewards"][i] = False
            s["stewards_left"] += 1
        pr["towns"][i] = False  # the town token leaves the game
        lost += 1
        event(ev, "estate_lost", f"{name(owner)} loses an estate in {pname(p)}.", seat=owner, province=p)


def habsburg_special(s: dict, p: str) -> bool:
    """Rounds 1-3, Turks not on the Habsburg box: Great Poland and any province with
    influence markers follow the influence rule unless enemy cubes stand there (p.13)."""
    pr = s["prov"][p]
    if s["round"] > 3 or s["turks_overran_habsburg"] or s["turks_on_habsburg"] or enemies_in(pr):
        return False
    return p == "great_poland" or pr["influence"] > 0


def phase_estates(s: dict, ev: list) -> None:
    for p in PROVINCES:
        pr = s["prov"][p]
        enemy, nobles, markers = enemies_in(pr), nobles_in(pr), pr["influence"]
        if enemy:
            lose_estates(s, p, max(1, enemy - nobles), ev)
        elif markers > nobles:
            lose_estates(s, p, markers - nobles, ev)
        pr = s["prov"][p]  # lose_estates may have taken a copy of it to change
        if habsburg_special(s, p):
            change = -1 if markers else (1 if nobles >= BOARD["habsburg_rise_cubes"] else 0)
        elif enemy:
            change = -1
        elif pr["invaded"]:
            change = 0  # invaded, but every invader was destroyed
        else:
            change = 1  # peace
        new = min(BOARD["income_max"], max(BOARD["income_min"], pr["income"] + change))
        if new != pr["income"]:
            event(ev, "income_track", f"Estate income in {pname(p)} goes from {pr['income']} to {new}.", province=p,
                  income=new)
            writable(s, p)["income"] = new


# ---- 15 victory points -----------------------------------------------------------


def box_vp(nobles: list[int], royal: int, vp: int) -> list[int]:
    """Most cubes on a box take its VP; ties split evenly, fractions lost; the king's
    (royal cubes') share is lost and a royal majority gives nobody anything (p.14)."""
    top = max(max(nobles), royal)
    out = [0] * len(nobles)
    if top == 0:
        return out
    winners = [x for x, n in enumerate(nobles) if n == top]
    if not winners:
        return out
    share = vp // (len(winners) + (1 if royal == top else 0))
    for x in winners:
        out[x] = share
    return out


def phase_victory_points(s: dict, ev: list) -> None:
    for c in ENEMIES:
        box = s["box"][c]
        for seat, gain in enumerate(box_vp(box["nobles"], box["royal"], board_of(s)["enemy_vp"][c])):
            if gain:
                s["vp"][seat] += gain
                event(ev, "vp_box", f"{name(seat)} scores {gain} VP on the {c} box.", seat=seat, enemy=c, vp=gain)
    # The Sejm's 2 VP a disc (p.14), told as an event of their own so the log adds up.
    for seat in range(PLAYERS):
        discs = sum(1 for owner in s["sejm"].values() if owner == seat)
        if discs:
            gain = discs * BOARD["sejm_vp"]
            s["vp"][seat] += gain
            event(ev, "sejm_vp", f"{name(seat)} scores {gain} VP for {discs} disc(s) in the Sejm.", seat=seat,
                  discs=discs, vp=gain)
    for seat in range(PLAYERS):
        gain = s["money"][seat] // BOARD["talers_per_vp"]
        s["money"][seat] -= gain * BOARD["talers_per_vp"]
        s["vp"][seat] += gain
        if gain:
            event(ev, "vp_splendour",
                  f"{name(seat)} spends {gain * BOARD['talers_per_vp']} talers on splendour for {gain} VP.",
                  seat=seat, talers=gain * BOARD["talers_per_vp"], vp=gain)


# ---- 16 end of round -------------------------------------------------------------


def phase_end_of_round(s: dict, ev: list) -> None:
    for c in ENEMIES:
        s["box"][c] = {"cubes": 0, "nobles": [0] * PLAYERS, "royal": 0}
    s["influence"] = 0
    s["turks_on_habsburg"] = min(s["turks_on_habsburg"], GARRISON)  # at most two stay (p.14)
    for p in PROVINCES:
        s["sejm"][p] = None
        pr = writable(s, p)
        pr["units"] = [[0] * len(UNITS) for _ in range(PLAYERS)]
        pr["invaded"] = False
        # Enemy cubes (and influence) beyond the noble cubes there go home (p.14).
        nobles = nobles_in(pr)
        excess = enemies_in(pr) - nobles
        for c in sorted(ENEMIES, key=lambda c: -pr["enemy"][c]):
            k = min(max(excess, 0), pr["enemy"][c])
            pr["enemy"][c] -= k
            excess -= k
        pr["influence"] = min(pr["influence"], nobles)
    s["cossacks"] = {"box": BOARD["cossacks"], "ukraine": 0, "tatars": 0}
    s["royal_army"] = {u: 0 for u in UNITS}
    s["treaty"] = None
    s["treaty_made"] = False
    s["town_built"] = False
    s["turks_overran_habsburg"] = False
    s["revealed"] = None
    if s["round"] == 2:
        s["hand"] = [list(BOARD["noble_tiles"]) for _ in range(PLAYERS)]  # nobles back after round 2
    if s["round"] == 4:
        final_scoring(s, ev)
        return
    s["round"] += 1
    if s["round"] == 4:
        s["turks_hold_habsburg"] = s["turks_on_habsburg"] > 0
    event(ev, "round", f"Round {s['round']} begins.", round=s["round"])


# ---- game end ------------------------------------------------------------------


def estate_points(s: dict) -> list[int]:
    out = [0] * PLAYERS
    for p in PROVINCES:
        pr = s["prov"][p]
        for i, owner in enumerate(pr["estates"]):
            if owner is not None:
                out[owner] += board_of(s)["estate_vp"][p][i] * (BOARD["town_multiplier"] if pr["towns"][i] else 1)
    return out


def final_scoring(s: dict, ev: list) -> None:
    points = estate_points(s)
    s["final_estate_vp"] = points
    for seat in range(PLAYERS):
        s["vp"][seat] += points[seat]
        event(ev, "vp_estates", f"{name(seat)} scores {points[seat]} VP for estates.", seat=seat, vp=points[seat])
    s["over"] = True
    s["pending"] = None
    r = ranking(s)
    event(ev, "game_over", f"Game over: {name(r[0])} wins with {s['vp'][r[0]]} VP.", seat=r[0], vp=s["vp"][r[0]],
          ranking=r)


def ranking(s: dict) -> list[int]:
    """VP, then noble cubes on the board, then money, then nearness to the start player (p.15)."""
    near = {seat: i for i, seat in enumerate(order_from(s["start"]))}

    def key(seat):
        cubes = sum(pr["nobles"][seat] for pr in s["prov"].values()) + sum(b["nobles"][seat] for b in s["box"].values())
        return (-s["vp"][seat], -cubes, -s["money"][seat], near[seat])

    return sorted(range(PLAYERS), key=key)
