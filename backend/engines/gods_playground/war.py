"""Phases 10-13: campaigns (p.9), invasions (p.10-11), counterattack (p.12) and
raids (p.12-13), with the combat rules they share."""

from __future__ import annotations

from collections import Counter
from typing import Iterator

from . import turns
from .board import BOARD, DIE, DIE_ENEMY, ENEMIES, GARRISON, HIT_ON, HOME, PROVINCES, TURKS_R4_WITH_HABSBURG, board_of
from ..base import event
from .early import add_die_cube, name, pname
from .state import (
    PLAYERS, box_attackers, cube_supply, enemies_in, enemy_supply, home_colour, influence_supply, nobles_in,
    order_from, rand_below, roll, roll_n, royal_cube_supply, sejm_seats, writable, writable_box,
)

# ---- combat ---------------------------------------------------------------------


def roll_units(s: dict, inf: int, cav: int, bonus: int) -> tuple[int, int, int]:
    """Infantry roll first, then cavalry. Hit on 5+ / 4+, a cannon adds 1; a natural 1
    destroys the unit even with a cannon (p.9). Returns (hits, infantry lost, cavalry lost)."""
    hits = lost_inf = lost_cav = 0
    for _ in range(inf):
        r = roll(s)
        if r == 1:
            lost_inf += 1
        elif r + bonus >= HIT_ON["infantry"]:
            hits += 1
    for _ in range(cav):
        r = roll(s)
        if r == 1:
            lost_cav += 1
        elif r + bonus >= HIT_ON["cavalry"]:
            hits += 1
    return hits, lost_inf, lost_cav


def cannon_bonus(cannons) -> int:
    return BOARD["cannon_bonus"] if cannons else 0


def roll_cossacks(s: dict, bonus: int) -> int:
    """The Cossacks in Ukraine roll as cavalry; a destroyed one returns to its box (p.9)."""
    hits, _, lost = roll_units(s, 0, s["cossacks"]["ukraine"], bonus)
    s["cossacks"]["ukraine"] -= lost
    s["cossacks"]["box"] += lost
    return hits


def roll_player(s: dict, p: str, seat: int, bonus: int | None = None) -> int:
    """A seat's infantry and cavalry in province p roll; by default its own cannon adds 1."""
    units = writable(s, p)["units"][seat]
    hits, li, lc = roll_units(s, units[0], units[1], cannon_bonus(units[2]) if bonus is None else bonus)
    units[0] -= li
    units[1] -= lc
    return hits


def roll_royal(s: dict) -> int:
    army = s["royal_army"]
    hits, li, lc = roll_units(s, army["infantry"], army["cavalry"], cannon_bonus(army["cannon"]))
    army["infantry"] -= li
    army["cavalry"] -= lc
    return hits


def clear_cubes(pr: dict, hits: int, first: str | None) -> int:
    """Remove enemy cubes from a province, colour `first` before the others; return unused hits."""
    for c in ([first] if first else []) + [c for c in ENEMIES if c != first]:
        k = min(hits, pr["enemy"][c])
        pr["enemy"][c] -= k
        hits -= k
    return hits


# ---- 10 campaigns ---------------------------------------------------------------


def phase_campaigns(s: dict, ev: list) -> None:
    turns.start_round_robin(s, "campaigns")


def royal_ready(s: dict) -> bool:
    return s["royal_army"]["infantry"] + s["royal_army"]["cavalry"] > 0


def legal_campaigns(s: dict, seat: int) -> Iterator[dict]:
    discs = sejm_seats(s, seat) if royal_ready(s) else []
    for c in ENEMIES:
        if c == "purple" and s["round"] < 4:
            continue  # the Habsburgs cannot be attacked before round 4 (p.9)
        pr = s["prov"][HOME[c]]
        if pr["nobles"][seat] < 1:
            continue
        if s["treaty"] == c and enemies_in(pr) == 0:
            continue  # with a treaty only enemy cubes in the province can be fought (p.7, p.9)
        if pr["units"][seat][0] + pr["units"][seat][1] > 0:
            yield {"type": "campaign", "enemy": c, "royal": False}
        # The royal army for one Sejm disc of the seat's choosing (p.9, p.7).
        for d in discs:
            yield {"type": "campaign", "enemy": c, "royal": True, "disc": d}
    yield {"type": "pass"}


def apply_campaigns(s: dict, seat: int, action: dict, ev: list) -> None:
    if action["type"] == "pass":
        event(ev, "campaigns_done", f"{name(seat)} launches no more campaigns.", seat=seat)
        turns.pass_turn(s)
        return
    campaign(s, seat, action["enemy"], action.get("disc"), ev)
    turns.next_turn(s)


def campaign(s: dict, seat: int, c: str, disc: str | None, ev: list) -> None:
    p = HOME[c]
    pr = writable(s, p)
    pr["nobles"][seat] -= 1
    royal = disc is not None
    if royal:
        s["sejm"][disc] = None  # the Sejm's consent costs a disc (p.9)
    units = pr["units"][seat]
    attacking = units[0] + units[1] > 0
    bonus = cannon_bonus(units[2])
    hits = roll_player(s, p, seat)
    if c == "yellow" and attacking and s["cossacks"]["ukraine"]:
        hits += roll_cossacks(s, bonus)  # Cossacks fight only the Tatars (p.9)
    royal_hits = roll_royal(s) if royal else 0
    colour = box_attackers(s, c)
    # Hits clear enemy cubes in the starting province first (p.9).
    left = clear_cubes(pr, hits, colour)
    royal_left = clear_cubes(pr, royal_hits, colour)
    placed = royal_placed = 0
    if s["treaty"] != c:
        placed = min(left, cube_supply(s, seat))
        writable_box(s, c)["nobles"][seat] += placed
        royal_placed = min(royal_left, royal_cube_supply(s))
        writable_box(s, c)["royal"] += royal_placed
    event(ev, "campaign",
          f"{name(seat)} campaigns from {pname(p)} against the {c} enemy: {hits + royal_hits} hit(s), "
            f"{placed} noble and {royal_placed} royal hit cube(s) on the box.",
          seat=seat, enemy=c, province=p, hits=hits + royal_hits, placed=placed, royal_placed=royal_placed)


# ---- 11 invasions ---------------------------------------------------------------


def strength(s: dict, c: str) -> int:
    """The strength a box attacks with (before hit cubes), as the table shows it.

    A Turkish-held Habsburg box (round 4) has base 10 plus its Turkish cubes, but two of
    them always stay behind as a garrison (p.16 "két török kocka mindig lekötve marad",
    p.12 "mintha lenne a Habsburgok dobozán két nemeskocka"), so they never attack: the
    strength shown is the strength that attacks (D12)."""
    r = s["round"]
    box = s["box"][c]
    if c == "purple" and s["turks_hold_habsburg"]:
        return TURKS_R4_WITH_HABSBURG + s["turks_on_habsburg"] + box["cubes"] - GARRISON
    base = board_of(s)["enemy_strength"][c][r - 1]
    if c == "orange" and s["turks_hold_habsburg"]:
        base = TURKS_R4_WITH_HABSBURG
    extra = s["cossacks"]["tatars"] if c == "yellow" else 0
    return base + box["cubes"] + extra


def box_defence(s: dict, c: str) -> int:
    """Hit cubes on the box, noble and royal."""
    return sum(s["box"][c]["nobles"]) + s["box"][c]["royal"]


def phase_invasions(s: dict, ev: list) -> None:
    dice = roll_n(s, BOARD["enemy_dice"])
    s["last_roll"] = dice
    counts = Counter(dice)
    event(ev, "dice_invasions", f"{name(s['start'])} rolls for invasions: {', '.join(map(str, dice))}.",
          seat=s["start"], dice=list(dice))
    broken = None
    if s["treaty"] and counts[DIE[s["treaty"]]] >= BOARD["treaty_break_dice"]:
        broken = s["treaty"]
        s["treaty"] = None
        event(ev, "treaty_broken", f"The {broken} enemy breaks its treaty.", enemy=broken)
    for d in dice:
        if d in DIE_ENEMY and DIE_ENEMY[d] != broken:
            add_die_cube(s, DIE_ENEMY[d], ev)
    if s["round"] == 2:
        for _ in range(counts[6]):
            defect_cossack(s, ev)
    for c in ENEMIES:
        invade(s, c, ev)


def defect_cossack(s: dict, ev: list) -> None:
    """Round 2: each 6 turns a Cossack, from Ukraine first, then from its box (p.10)."""
    cs = s["cossacks"]
    if cs["ukraine"]:
        cs["ukraine"] -= 1
    elif cs["box"]:
        cs["box"] -= 1
    else:
        return
    cs["tatars"] += 1
    event(ev, "cossack_defects", "A Cossack defects to the Tatars.")


def invade(s: dict, c: str, ev: list) -> None:
    if s["treaty"] == c:
        event(ev, "treaty_held", f"The {c} enemy keeps its treaty and does not attack.", enemy=c)
        return
    if c == "purple" and s["round"] <= 3:
        n, s["influence"] = s["influence"], 0
        if n:
            influence_arrives(s, "great_poland", n, ev)
        return
    diff = strength(s, c) - box_defence(s, c)
    if diff <= 0:
        event(ev, "held", f"The {c} enemy is held at the border.", enemy=c)
        return
    if c == "orange" and s["round"] == 3:
        # Round 3: the Turks attack the Habsburgs instead of Little Poland (p.10).
        n = min(diff, enemy_supply(s, "orange"))
        s["turks_on_habsburg"] += n
        s["influence"] = 0
        s["turks_overran_habsburg"] = s["turks_overran_habsburg"] or n > 0
        event(ev, "turks_vienna", f"The Turks march on Vienna: {n} Turkish cube(s) on the Habsburg box.", enemy=c,
              count=n)
        return
    colour = box_attackers(s, c)
    n = min(diff, enemy_supply(s, colour))
    event(ev, "invasion", f"The {c} enemy invades {pname(HOME[c])} with {n} cube(s).", enemy=c, province=HOME[c],
          count=n)
    arrive(s, HOME[c], colour, n, ev)


def influence_arrives(s: dict, p: str, n: int, ev: list) -> None:
    """Habsburg influence cancels noble cubes one for one in player order; what is left
    stays on the province unless enemy cubes are there (p.10-11)."""
    pr = writable(s, p)
    removed = 0
    while n and nobles_in(pr):
        for seat in order_from(s["start"]):
            if n and pr["nobles"][seat]:
                pr["nobles"][seat] -= 1
                n -= 1
                removed += 1
    if n and enemies_in(pr) == 0:
        pr["influence"] += n
    event(ev, "influence", f"Habsburg influence in {pname(p)}: {removed} noble cube(s) removed, {n} marker(s) left.",
          province=p, removed=removed, left=n)


def arrive(s: dict, p: str, colour: str, n: int, ev: list) -> None:
    """Enemy cubes land: influence markers go, the Polish units defend, then other
    colours cancel one for one (p.10, player aid)."""
    if n <= 0:
        return
    pr = writable(s, p)
    pr["invaded"] = True
    pr["enemy"][colour] += n
    pr["influence"] = 0
    # All Polish units there fight together, so any cannon there adds 1 to every roll
    # (p.10 "a tartományon lévő összes lengyel egység", p.9 "Ha a tartományon van ágyú"; D17).
    bonus = cannon_bonus(any(pr["units"][x][2] for x in range(PLAYERS)))
    hits = 0
    for seat in order_from(s["start"]):
        hits += roll_player(s, p, seat, bonus)
    if colour == "yellow" and p == "ukraine" and s["cossacks"]["ukraine"]:
        hits += roll_cossacks(s, bonus)
    clear_cubes(pr, hits, colour)
    for o in ENEMIES:
        if o != colour and pr["enemy"][o] and pr["enemy"][colour]:
            k = min(pr["enemy"][o], pr["enemy"][colour])
            pr["enemy"][o] -= k
            pr["enemy"][colour] -= k
    if hits:
        event(ev, "defence", f"The defenders of {pname(p)} score {hits} hit(s).", province=p, hits=hits)


# ---- 12 counterattack -----------------------------------------------------------


def phase_counterattack(s: dict, ev: list) -> None:
    # One attack per turn from the start player round the table; a pass is final (p.12).
    turns.start_round_robin(s, "counterattack", {"free": True})


def legal_counterattack(s: dict, seat: int) -> Iterator[dict]:
    if royal_ready(s):
        targets = [p for p in PROVINCES if enemies_in(s["prov"][p])]
        if s["turks_on_habsburg"]:
            targets.append("habsburg")
        if s["pending"]["free"] and seat == s["start"]:
            for t in targets:
                yield {"type": "counterattack", "target": t}
        else:
            discs = sejm_seats(s, seat)
            for t in targets:
                for d in discs:
                    yield {"type": "counterattack", "target": t, "disc": d}
    yield {"type": "pass"}


def apply_counterattack(s: dict, seat: int, action: dict, ev: list) -> None:
    pend = s["pending"]
    if action["type"] == "pass":
        event(ev, "counterattack_pass", f"{name(seat)} leaves the royal army be.", seat=seat)
        turns.pass_turn(s)
        return
    if "disc" in action:
        s["sejm"][action["disc"]] = None  # the Sejm's consent, a disc of the seat's choosing
    else:
        pend["free"] = False  # the start player's first attack is free (p.12)
    hits = roll_royal(s)
    target = action["target"]
    if target == "habsburg":
        k = min(hits, s["turks_on_habsburg"])
        s["turks_on_habsburg"] -= k
    else:
        k = hits - clear_cubes(writable(s, target), hits, None)
    event(ev, "counterattack",
          f"{name(seat)} leads the royal army against {pname(target)}: {hits} hit(s), {k} enemy cube(s) removed.",
          seat=seat, province=target, hits=hits, removed=k)
    turns.next_turn(s)


# ---- 13 raids -------------------------------------------------------------------


def phase_raids(s: dict, ev: list) -> None:
    for p in PROVINCES:
        if p == "great_poland" and s["round"] == 3 and s["turks_on_habsburg"] > GARRISON:
            # Turks leave two cubes as a garrison and move the rest into Great Poland (p.12, p.13).
            n = s["turks_on_habsburg"] - GARRISON
            s["turks_on_habsburg"] = GARRISON
            event(ev, "turks_march", f"{n} Turkish cube(s) march from the Habsburg lands into Great Poland.", count=n)
            arrive(s, p, "orange", n, ev)
        raid_from(s, p, ev)
    gp = s["prov"]["great_poland"]
    if s["round"] <= 3 and gp["influence"] > nobles_in(gp):
        spread_influence(s, gp["influence"] - nobles_in(gp), ev)


def box_of(p: str) -> str:
    return next(c for c in ENEMIES if HOME[c] == p)


def raid_from(s: dict, p: str, ev: list) -> None:
    pr = s["prov"][p]
    colour = home_colour(s, p)
    diff = pr["enemy"][colour] - nobles_in(pr)
    if diff <= 0:
        return
    # An enemy never raids a province that already holds its cubes (p.12).
    targets = [t for t in board_of(s)["raid_arrows"][box_of(p)] if s["prov"][t]["enemy"][colour] == 0]
    if not targets:
        return
    box = writable_box(s, colour)
    supply = enemy_supply(s, colour)
    available = supply + box["cubes"]
    sizes = [diff] * len(targets)
    if diff * len(targets) > available:
        # Fewer raiders, split evenly; the odd one joins a random raid (p.12).
        sizes = [available // len(targets)] * len(targets)
        for _ in range(available % len(targets)):
            sizes[rand_below(s, len(targets))] += 1
    from_box = max(0, sum(sizes) - supply)
    box["cubes"] -= from_box
    for t, n in zip(targets, sizes):
        if n:
            event(ev, "raid", f"{n} {colour} raider(s) ride from {pname(p)} into {pname(t)}.", enemy=colour,
                  **{"from": p}, province=t, count=n)
            arrive(s, t, colour, n, ev)


def spread_influence(s: dict, diff: int, ev: list) -> None:
    """Markers spread like raiders (p.12): never where markers already stand, and they
    vanish at once where enemy cubes stand."""
    for t in board_of(s)["raid_arrows"]["purple"]:
        n = min(diff, influence_supply(s))
        if n and enemies_in(s["prov"][t]) == 0 and s["prov"][t]["influence"] == 0:
            influence_arrives(s, t, n, ev)
