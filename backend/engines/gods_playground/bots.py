"""Bots for God's Playground: each sees only its seat's view (docs/engines.md).

The heuristic bot keeps to a few plain ideas: protect the provinces where it
holds estates, buy estates where the border is quiet, turn cubes into VP on
enemy boxes and Jesuit schools, build towns on its best estates, and keep its
Sejm discs (2 VP each) rather than spend them.
"""

from __future__ import annotations

import random

from .board import ENEMIES, ESTATE_VP, HOME, PROVINCES, SLOTS


def random_bot(view: dict, legal: list[dict], rng: random.Random) -> dict:
    return rng.choice(legal)


# ---- reading the view -------------------------------------------------------------


def threat(view: dict, p: str) -> int:
    """How many enemy cubes are likely to stand in province p after the invasions."""
    pr = view["provinces"][p] if "provinces" in view else view["prov"][p]
    c = next(c for c in ENEMIES if HOME[c] == p)
    box = view["box"][c]
    incoming = view["strength"][c] - sum(box["nobles"]) - box["royal"]
    if c == "purple" and view["round"] <= 3:
        incoming = view["influence"] - sum(pr["nobles"])
    if c == "orange" and view["round"] == 3:
        incoming = 0  # the Turks march on Vienna in round 3
    if view["treaty"] == c:
        incoming = 0
    return max(incoming, 0) + sum(pr["enemy"].values())


def my_estates(view: dict, p: str, me: int) -> int:
    return view["prov"][p]["estates"].count(me)


def defence_power(view: dict, p: str, me: int) -> float:
    inf, cav, can = view["prov"][p]["units"][me]
    return inf * (2 + can) / 6 + cav * (3 + can) / 6


# ---- decisions ------------------------------------------------------------------------


def heuristic_bot(view: dict, legal: list[dict], rng: random.Random) -> dict:
    if len(legal) == 1:
        return legal[0]
    kind = view["pending"]["kind"]
    me = view["you"]
    chooser = CHOOSERS.get(kind)
    choice = chooser(view, legal, me, rng) if chooser else None
    return choice if choice in legal else rng.choice(legal)


def by_type(legal: list[dict], kind: str) -> list[dict]:
    return [a for a in legal if a["type"] == kind]


def choose_setup(view, legal, me, rng):
    def score(a):
        p = a["province"]
        row = view["prov"][p]["estates"]
        nxt = ESTATE_VP[p][row.index(None)]
        return (threat(view, p) - nxt, rng.random())

    return min(legal, key=score)


def province_priority(view, me):
    """Provinces by how much this seat cares: its estates, then quiet borders."""
    return sorted(PROVINCES, key=lambda p: (-my_estates(view, p, me), threat(view, p)))


def choose_noble(view, legal, me, rng):
    placed = view["your_nobles"]
    left = sorted(view["your_tiles_left"], reverse=True)
    empty = [p for p in province_priority(view, me) if p not in placed]
    slots = len(empty) + ("royal" not in placed)
    # With twelve tiles in hand, keep a balanced half for the next round: one of each value.
    distinct = sorted(set(left), reverse=True)
    extras = [v for v in distinct for _ in range(left.count(v) - 1)]
    pool = (distinct + extras)[:slots]
    pool.sort(reverse=True)
    plan = dict(zip(empty, pool))
    if "royal" not in placed:
        plan["royal"] = pool[-1]
    for slot in SLOTS:
        action = {"type": "place_noble", "slot": slot, "value": plan.get(slot)}
        if action in legal:
            return action
    return None


def choose_shortage(view, legal, me, rng):
    order = province_priority(view, me)
    return max(legal, key=lambda a: order.index(a["province"]))


def choose_bid(view, legal, me, rng):
    return {"type": "bid", "amount": min(view["money"][me], rng.randint(0, 3))}


def choose_estate(view, legal, me, rng):
    buys = by_type(legal, "buy_estate")
    first = view["pending"]["bought"][me] == 0
    # The first estate costs one cube and pays income for the rest of the game: take the
    # quietest province; later ones (two cubes) only where the border is quiet.
    safe = [a for a in buys if first or threat(view, a["province"]) <= 2]
    if not safe:
        return {"type": "pass"}
    return min(safe, key=lambda a: (threat(view, a["province"]), rng.random()))


def choose_special(view, legal, me, rng):
    if view["pending"]["second"]:
        return {"type": "stop"}
    r = view["round"]
    towns = by_type(legal, "town")
    if towns:
        return max(towns, key=lambda a: (ESTATE_VP[a["province"]][a["space"]], -threat(view, a["province"])))
    arms = by_type(legal, "right_of_arms")
    if arms:
        return arms[0]
    stewards = by_type(legal, "steward")
    if stewards and r <= 2:
        return min(stewards, key=lambda a: threat(view, a["province"]))
    danzig = by_type(legal, "danzig")
    jesuits = by_type(legal, "jesuits")
    if jesuits:
        best = max(jesuits, key=lambda a: len(a["provinces"]))
        if len(best["provinces"]) >= 3 or r == 4:
            return best
    pr = view["prov"]["prussia"]
    if danzig and pr["income"] * sum(o is not None for o in pr["estates"]) >= 4:
        return danzig[0]
    if stewards:
        return stewards[0]
    return {"type": "pass"}


def choose_recruit(view, legal, me, rng):
    buys = by_type(legal, "recruit")
    money = view["money"][me]
    if not buys or money < 4:
        return {"type": "pass"}

    def need(p):
        return threat(view, p) * (1 + my_estates(view, p, me)) - 3 * defence_power(view, p, me)

    # Troops campaign only where a cube is left after opening the province (p.9): keep one.
    opened = view["pending"]["opened"][me]
    mine = {p: view["prov"][p]["nobles"][me] for p in PROVINCES}
    buys = [a for a in buys if mine[a["province"]] >= (1 if a["province"] in opened else 2)] or buys
    wanted = [a for a in buys if need(a["province"]) > 0 and a["unit"] in ("infantry", "cannon", "cossack")]
    if not wanted:
        wanted = [a for a in buys if need(a["province"]) > 0]
    if not wanted:
        return {"type": "pass"}
    return max(wanted, key=lambda a: (need(a["province"]), a["unit"] == "cannon", rng.random()))


def choose_campaign(view, legal, me, rng):
    own = [a for a in legal if a["type"] == "campaign" and not a["royal"]]
    if not own:
        return {"type": "pass"}

    def gap(a):
        box = view["box"][a["enemy"]]
        others = max(n for s, n in enumerate(box["nobles"]) if s != me)
        return box["nobles"][me] - others

    return min(own, key=lambda a: (gap(a), rng.random()))


def choose_counter(view, legal, me, rng):
    attacks = by_type(legal, "counterattack")
    if not attacks:
        return {"type": "pass"}
    free = view["pending"]["free"] and view["start"] == me

    def value(a):
        if a["target"] == "habsburg":
            return 1
        return my_estates(view, a["target"], me) * 2 + 1

    best = max(attacks, key=value)
    if free or value(best) >= 5:
        return best
    return {"type": "pass"}


CHOOSERS = {
    "setup_estate": choose_setup,
    "nobles": choose_noble,
    "shortage": choose_shortage,
    "bid": choose_bid,
    "estate_purchase": choose_estate,
    "special": choose_special,
    "recruitment": choose_recruit,
    "campaigns": choose_campaign,
    "counterattack": choose_counter,
}

BOTS = {"random": random_bot, "heuristic": heuristic_bot}
