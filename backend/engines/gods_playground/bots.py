"""Bots for God's Playground: each sees only its seat's view (docs/engines.md).

The heuristic bot plays a round as a budget.  Its talers go first to troops in
the provinces it cares about (its estates under threat, and the boxes where a
majority is cheap); Jesuit schools, treaties and the like only get what is left
over.  Troops stand where they both defend the estates and campaign against
the box that threatens them, so every hit cube keeps invaders out.  After the
invasions the royal army clears provinces where its estates stand, and the
Sejm discs (2 VP each) are spent only when an estate is worth more.
"""

from __future__ import annotations

import random
import zlib

from .board import BOARD, HIT_ON, HOME, PROVINCES, SLOTS, UNIT_COST, UNIT_LIMIT, UNITS

HOME_ENEMY = {p: c for c, p in HOME.items()}
MINIMUM_INCOME = BOARD["minimum_income"]


def printed(view: dict, key: str):
    """A value of the match's board, as the view carries it."""
    return view["board"]["values"][key]
# Invaders a round's campaigns can hope to keep out of one province: beyond this,
# hits only thin the invasion that comes anyway.
HOLDABLE = 6
# Troops are paid for before schools when the bot's own estimate puts them at this
# many VP a taler or more.  A school pays half a VP a taler, but the estimate below
# overrates troops (3-bot games, bench/gp_bot_games.py, 60 games: a floor of 0.75
# scored 25 VP a seat, 1.5 scored 29 with a third of the talers still kept for
# troops, 2 scored about the same with hardly any troops), so the bar sits above it.
PLAN_FLOOR = 1.5
# The other seats campaign for the same majority: a hit wins about half its VP.
CONTESTED = 0.5


def random_bot(view: dict, legal: list[dict], rng: random.Random) -> dict:
    return rng.choice(legal)


# ---- reading the view -------------------------------------------------------------


def incoming(view: dict, p: str) -> int:
    """Enemy cubes the home enemy of province p will send in this round's invasion."""
    c = HOME_ENEMY[p]
    box = view["box"][c]
    if view["treaty"] == c:
        return 0
    if c == "purple" and view["round"] <= 3:
        return max(view["influence"] - sum(view["prov"][p]["nobles"]), 0)
    if c == "orange" and view["round"] == 3:
        return 0  # the Turks march on Vienna in round 3
    return max(view["strength"][c] - sum(box["nobles"]) - box["royal"], 0)


def threat(view: dict, p: str) -> int:
    """How many enemy cubes are likely to stand in province p after the invasions."""
    return incoming(view, p) + sum(view["prov"][p]["enemy"].values())


def rounds_left(view: dict) -> int:
    return 5 - view["round"]


def my_estates(view: dict, p: str, me: int) -> int:
    return view["prov"][p]["estates"].count(me)


def income(view: dict, me: int) -> int:
    return sum(pr["income"] + (2 if pr["stewards"][i] else 0)
               for pr in view["prov"].values() for i, o in enumerate(pr["estates"]) if o == me)


def stake(view: dict, p: str, me: int) -> float:
    """What this seat's estates in province p are worth in VP: their printed VP at the
    end (a town triples it) and, at a fifth of a VP a taler, the income still to come,
    which counts only above the minimum income of 10 the bank pays anyway."""
    pr = view["prov"][p]
    paid = income(view, me) > MINIMUM_INCOME
    value = 0.0
    for i, owner in enumerate(pr["estates"]):
        if owner == me:
            value += printed(view, "estate_vp")[p][i] * (3 if pr["towns"][i] else 1)
            if paid:
                value += (pr["income"] + (2 if pr["stewards"][i] else 0)) * (rounds_left(view) - 1) / 5
    return value


def cube_value(view: dict, p: str, me: int) -> float:
    """What one enemy cube standing in p at the estates phase costs this seat: an estate
    (any owner's, so this seat's share of them) and a step of income."""
    pr = view["prov"][p]
    held = sum(o is not None for o in pr["estates"])
    if not held:
        return 0.0
    step = my_estates(view, p, me) * (rounds_left(view) - 1) / 5 if income(view, me) > MINIMUM_INCOME else 0
    return stake(view, p, me) / held + step


def unit_hits(inf: int, cav: int, cannon: bool) -> float:
    """Expected hits of one roll of these units (a cannon adds 1 to every die)."""
    bonus = 1 if cannon else 0
    return inf * (7 - HIT_ON["infantry"] + bonus) / 6 + cav * (7 - HIT_ON["cavalry"] + bonus) / 6


def own_hits(view: dict, p: str, me: int) -> float:
    inf, cav, can = view["prov"][p]["units"][me]
    hits = unit_hits(inf, cav, can > 0)
    if p == "ukraine" and inf + cav and view["treaty"] != "yellow":
        hits += view["cossacks"]["ukraine"] * (7 - HIT_ON["cossack"] + (1 if can else 0)) / 6
    return hits


def all_hits(view: dict, p: str) -> float:
    """Expected hits of every unit defending province p (any seat's cannon helps all)."""
    units = view["prov"][p]["units"]
    cannon = any(u[2] for u in units)
    return sum(unit_hits(u[0], u[1], cannon) for u in units)


def box_gap(view: dict, c: str, me: int) -> int:
    """Hit cubes this seat still needs to hold the box's majority alone (<= 0: it does)."""
    box = view["box"][c]
    others = max(max(n for s, n in enumerate(box["nobles"]) if s != me), box["royal"])
    return others + 1 - box["nobles"][me]


def box_scores(view: dict, c: str) -> bool:
    return not (c == "purple" and view["round"] <= 3) and view["treaty"] != c


def hit_value(view: dict, p: str, me: int) -> float:
    """What one more hit cube on the box bordering p is worth to this seat.  Any invader
    left at the estates phase costs an estate and a step of income, so keeping p clear
    is worth a share of the estates there for each hit still needed, and far less when
    the invasion is too big to stop; raids out of p (while its invaders outnumber its
    noble cubes) threaten the provinces the enemy's arrows point to.  A hit also counts
    towards the box's VP while a majority is within reach."""
    c = HOME_ENEMY[p]
    value = 0.0
    inc = incoming(view, p)
    if box_scores(view, c):
        inc -= others_hits(view, p, me)  # what the other seats' troops there will hit
    if inc > 0:
        guarded = cube_value(view, p, me)
        if inc + sum(view["prov"][p]["enemy"].values()) > sum(view["prov"][p]["nobles"]):
            guarded += sum(cube_value(view, t, me) for t in printed(view, "raid_arrows")[c])
        value += guarded * (1.5 if inc <= HOLDABLE else 0.4) / max(inc, 2)
    if box_scores(view, c):
        gap = box_gap(view, c, me)
        if 0 < gap <= 3:
            value += printed(view, "enemy_vp")[c] / gap * CONTESTED
    return value


def others_hits(view: dict, p: str, me: int) -> float:
    """Hits the other seats' troops in p can be expected to score in their campaigns
    (two each at most: a campaign costs a cube and few hold more)."""
    pr = view["prov"][p]
    total = 0.0
    for seat, (inf, cav, can) in enumerate(pr["units"]):
        if seat != me:
            total += unit_hits(inf, cav, can > 0) * min(pr["nobles"][seat], 2)
    return total


def invaders(view: dict, p: str) -> int:
    """Enemy cubes troops in p may have to fight: Habsburg influence is no army."""
    if HOME_ENEMY[p] == "purple" and view["round"] <= 3:
        return sum(view["prov"][p]["enemy"].values())
    return threat(view, p)


def noise(view: dict, me: int, key: str) -> float:
    """A repeatable 0..1 value for this game position, so identical bots differ."""
    text = f"{view['round']}:{me}:{key}:{view['money']}:{view['vp']}"
    return zlib.crc32(text.encode()) / 2**32


# ---- decisions ------------------------------------------------------------------------


def heuristic_bot(view: dict, legal: list[dict], rng: random.Random) -> dict:
    kind = view["pending"]["kind"]
    # A client is offered the nobles decision as one entry naming the tiles: not an action.
    if len(legal) == 1 and kind != "nobles":
        return legal[0]
    me = view["you"]
    chooser = CHOOSERS.get(kind)
    choice = chooser(view, legal, me, rng) if chooser else None
    if kind == "nobles" and choice is not None:
        return choice  # made from the tiles in hand; a client's list names only the hand
    return choice if choice in legal else rng.choice(legal)


def by_type(legal: list[dict], kind: str) -> list[dict]:
    return [a for a in legal if a["type"] == kind]


def choose_setup(view, legal, me, rng):
    def score(a):
        p = a["province"]
        row = view["prov"][p]["estates"]
        nxt = printed(view, "estate_vp")[p][row.index(None)]
        return (threat(view, p) - nxt + 0.7 * row.count(me), rng.random())

    return min(legal, key=score)


def noble_priority(view, me, p):
    """How much this seat wants cubes in p: its estates there, the hits it can score
    from there, and the Sejm seat it may win; noise keeps identical bots from placing
    identical tiles (every election would tie)."""
    pr = view["prov"][p]
    mine = pr["nobles"][me]
    others = max(n for s, n in enumerate(pr["nobles"]) if s != me)
    value = stake(view, p, me) / 3 + hit_value(view, p, me) / 2 + 3 * noise(view, me, p)
    if mine + 3 > others:
        value += 1.5  # a Sejm seat (2 VP) is within reach
    return value


def choose_noble(view, legal, me, rng):
    """All six tiles in one layout: the lowest spare tile on the royal army (higher ones win
    provinces' elections, Sejm seats at 2 VP each), the rest highest first where wanted most."""
    left = view["your_tiles_left"]
    # With twelve tiles in hand, keep one of each value for the next round.
    this_round = sorted(set(left), reverse=True) if len(left) == 12 else sorted(left, reverse=True)
    this_round = this_round[:6]
    layout = {"royal": this_round[-1]}
    todo = sorted(PROVINCES, key=lambda p: -noble_priority(view, me, p))
    for p, v in zip(todo, this_round):
        layout[p] = v
    return {"type": "place_nobles", **{slot: layout[slot] for slot in SLOTS}}


def choose_shortage(view, legal, me, rng):
    return min(legal, key=lambda a: noble_priority(view, me, a["province"]))


def choose_bid(view, legal, me, rng):
    return {"type": "bid", "amount": min(view["money"][me], rng.randint(0, 3))}


# What a noble cube left in a province is worth to this seat, in VP: it can launch a
# campaign, open a province for recruits, pay for a special action, hold raiders back,
# and it stays for the next round's elections; in the last round only this round's uses.
CUBE_VP = (0.8, 0.7, 0.6, 0.3)


def estate_loss_risk(view, p, me, cubes_after):
    """The chance an estate bought now in p (the row's most valuable, so the first lost)
    is gone by the end of the game: enemies likely to stand there after this round's
    invasions and raids, and a share of that again for each later round."""
    expected = threat(view, p) - all_hits(view, p)
    if HOME_ENEMY[p] == "purple" and view["round"] <= 3:
        expected = threat(view, p) - cubes_after  # influence is cancelled by noble cubes
    this_round = min(0.9, max(0.05, 0.15 + 0.12 * expected - 0.05 * cubes_after))
    later = 0.15 * (rounds_left(view) - 1)
    return min(0.95, this_round + (1 - this_round) * later)


def estate_gain(view, p, me, cost):
    """VP an estate bought now in p is worth, less the cubes it costs: the printed VP of
    the next space and the income it pays in the rounds to come (above the minimum
    income the bank pays anyway), times the chance it survives."""
    pr = view["prov"][p]
    space = pr["estates"].index(None)
    worth = printed(view, "estate_vp")[p][space]
    if income(view, me) + pr["income"] > MINIMUM_INCOME:
        worth += pr["income"] * (rounds_left(view) - 1) / BOARD["talers_per_vp"]
    cubes_after = pr["nobles"][me] - cost
    risk = estate_loss_risk(view, p, me, sum(pr["nobles"]) - cost)
    return worth * (1 - risk) - cost * CUBE_VP[view["round"] - 1] - (0.3 if cubes_after == 0 else 0)


def choose_estate(view, legal, me, rng):
    """Buy where an estate is worth more than the cubes it costs, most valuable first (a
    person buys estates: they pay every round and score at the end)."""
    buys = by_type(legal, "buy_estate")
    if not buys:
        return {"type": "pass"}
    cost = BOARD["estate_cube_cost"][0 if view["pending"]["bought"][me] == 0 else 1]
    best = max(buys, key=lambda a: (estate_gain(view, a["province"], me, cost), rng.random()))
    return best if estate_gain(view, best["province"], me, cost) > 0 else {"type": "pass"}


def choose_special(view, legal, me, rng):
    if view["pending"]["second"]:
        return {"type": "stop"}
    r = view["round"]
    # Troops first (see PLAN_FLOOR): schools only get the talers left over.
    spare = view["money"][me] - troop_plan(view, me, PLAN_FLOOR)
    towns = [a for a in by_type(legal, "town") if threat(view, a["province"]) <= 4]
    if towns:
        return max(towns, key=lambda a: (printed(view, "estate_vp")[a["province"]][a["space"]], -threat(view, a["province"])))
    arms = by_type(legal, "right_of_arms")
    if arms:
        return arms[0]
    danzig = by_type(legal, "danzig")
    pr = view["prov"]["prussia"]
    danzig_pay = 2 * sum(pr["income"] + 2 * pr["stewards"][i] for i, o in enumerate(pr["estates"]) if o is not None)
    if danzig and danzig_pay >= 8:
        return danzig[0]
    stewards = [a for a in by_type(legal, "steward") if threat(view, a["province"]) <= 3]
    if stewards and r <= 2:
        return min(stewards, key=lambda a: threat(view, a["province"]))
    # Schools only with talers the troops do not need, and never the last cube of a
    # province (it opens the province for recruits and holds raiders back).
    jesuits = [a for a in by_type(legal, "jesuits")
               if 2 * len(a["provinces"]) <= spare
               and all(view["prov"][p]["nobles"][me] >= 2 for p in a["provinces"])]
    if jesuits:
        best = max(jesuits, key=lambda a: len(a["provinces"]) + (2 if len(a["provinces"]) == 5 else 0))
        if len(best["provinces"]) >= 2 or r == 4:
            return best
    if danzig and danzig_pay >= 4:
        return danzig[0]
    if stewards and r <= 3:
        return stewards[0]
    return {"type": "pass"}


def troop_score(view, me, p, unit, units, opened, worth=None):
    """Hits per taler a unit adds in province p, weighted by what the hits are worth: in
    the campaigns this seat can still launch from p (one cube each) and in the defence
    roll if invaders are likely to outnumber the defenders.  `worth`: province_worth of p,
    if the caller has it."""
    attack_worth, defence_worth = worth or province_worth(view, me, p)
    inf, cav, can = units
    if unit == "cannon":
        per_roll = (inf + cav) / 6
    else:
        k = "cavalry" if unit in ("cavalry", "cossack") else "infantry"
        per_roll = (7 - HIT_ON[k] + (1 if can else 0)) / 6
    campaigns = view["prov"][p]["nobles"][me] - (0 if p in opened else 1)
    # hit_value prices the next hit only: count at most one hit's worth per unit.
    attack = attack_worth * min(per_roll * max(min(campaigns, 4), 0), 1.0)
    defend = defence_worth * per_roll if defence_worth is not None else 0
    cost = UNIT_COST[unit] if not sum(view["prov"][p]["enemy"].values()) else UNIT_COST[unit] // 2
    return (attack + defend) / cost


def province_worth(view, me, p) -> tuple[float, float | None]:
    """What a hit from province p is worth to this seat in a campaign, and in its
    defence (None when the defenders are likely to hold without it): both read the
    view alone, so a plan of several purchases works them out once a province."""
    defence = cube_value(view, p, me) if invaders(view, p) > all_hits(view, p) else None
    return hit_value(view, p, me), defence


def troop_plan(view, me, floor):
    """Talers this seat would spend on troops worth at least `floor` a taler, buying
    greedily as the recruitment phase would."""
    units = {p: list(view["prov"][p]["units"][me]) for p in PROVINCES}
    free = {u: UNIT_LIMIT[u] - sum(units[p][i] for p in PROVINCES) for i, u in enumerate(UNITS)}
    money = view["money"][me]
    spent = 0
    opened: set = set()
    worth = {p: province_worth(view, me, p) for p in PROVINCES}
    # A purchase changes only its own province's scores.
    scores = {p: {u: troop_score(view, me, p, u, units[p], opened, worth[p]) for u in UNITS} for p in PROVINCES}
    while True:
        options = [(scores[p][u], p, u)
                   for p in PROVINCES if view["prov"][p]["nobles"][me] >= 1 or p in opened
                   for u in UNITS if free[u] and not (u == "cannon" and view["round"] == 1)]
        if not options:
            return spent
        score, p, u = max(options)
        cost = UNIT_COST[u] // (2 if sum(view["prov"][p]["enemy"].values()) else 1)
        if score < floor or spent + cost > money:
            return spent
        spent += cost
        opened.add(p)
        units[p][UNITS.index(u)] += 1
        free[u] -= 1
        scores[p] = {u: troop_score(view, me, p, u, units[p], opened, worth[p]) for u in UNITS}


def choose_recruit(view, legal, me, rng):
    buys = by_type(legal, "recruit")
    if not buys:
        return {"type": "pass"}
    opened = view["pending"]["opened"][me]
    worth = {p: province_worth(view, me, p) for p in {a["province"] for a in buys}}

    def score(a):
        p = a["province"]
        return troop_score(view, me, p, a["unit"], view["prov"][p]["units"][me], opened, worth[p])

    best = max(buys, key=lambda a: (score(a), rng.random()))
    # A taler kept is worth a fifth of a VP at the end of the round.
    return best if score(best) > 0.3 else {"type": "pass"}


def choose_campaign(view, legal, me, rng):
    own = [a for a in legal if a["type"] == "campaign" and not a["royal"]]
    if not own:
        return {"type": "pass"}

    def worth(a):
        p = HOME[a["enemy"]]
        hits = own_hits(view, p, me)
        present = sum(view["prov"][p]["enemy"].values())
        cleared = min(hits, present)
        value = cleared * 2 * (cube_value(view, p, me) + 0.5) + (hits - cleared) * hit_value(view, p, me)
        # The cube spent no longer holds raiders back or saves an estate.
        return value - (cube_value(view, p, me) if threat(view, p) >= sum(view["prov"][p]["nobles"]) else 0)

    best = max(own, key=lambda a: (worth(a), rng.random()))
    return best if worth(best) >= 0.5 else {"type": "pass"}


def choose_counter(view, legal, me, rng):
    attacks = by_type(legal, "counterattack")
    if not attacks:
        return {"type": "pass"}
    free = view["pending"]["free"] and view["start"] == me
    army = view["royal_army"]
    hits = unit_hits(army["infantry"], army["cavalry"], army["cannon"] > 0)

    def value(a):
        if a["target"] == "habsburg":
            return 1.0
        p = a["target"]
        pr = view["prov"][p]
        present = sum(pr["enemy"].values())
        removed = min(hits, present)
        value = removed * cube_value(view, p, me)
        if present > sum(pr["nobles"]):
            # Fewer cubes left means fewer raiders (none once the nobles outnumber them).
            value += removed * sum(cube_value(view, t, me) for t in printed(view, "raid_arrows")[HOME_ENEMY[p]]) / 2
        if present <= hits + 0.5:
            value += stake(view, p, me) / 3 + my_estates(view, p, me)  # cleared: no estate lost
        return value

    best = max(attacks, key=value)
    # A disc on the Sejm is worth 2 VP at the end of the round.
    if free or value(best) >= 3:
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

def beginner_bot(view: dict, legal: list[dict], rng: random.Random) -> dict:
    """Simple and sensible: the advanced bot's troops, estates and nobles, but no
    special actions (schools, towns, stewards, treaties), no bids for the start, and
    the first campaign it finds worth a Sejm disc's while."""
    kind = view["pending"]["kind"]
    if len(legal) == 1 and kind != "nobles":
        return legal[0]
    choice = None
    if kind == "special":
        choice = {"type": "stop"} if view["pending"]["second"] else {"type": "pass"}
    elif kind == "bid":
        choice = {"type": "bid", "amount": 0}
    return choice if choice is not None and choice in legal else heuristic_bot(view, legal, rng)


# The levels a lobby offers ("kezdő / haladó / mester"); "heuristic" is the advanced
# bot's old name, kept for the matches that stored it.  The master bot searches with
# the engine, so engine.py adds it (master.py).
BOTS = {"random": random_bot, "beginner": beginner_bot, "advanced": heuristic_bot, "heuristic": heuristic_bot}
