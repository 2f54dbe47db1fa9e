"""Which actions God's Playground allows, checked one at a time, and why it
refuses the others, in words a player understands.

`refusal` is the engine's one check of legality: None for a legal action,
else the reason (the listing in flow.py must agree, as
tests/engines/test_legality.py proves).  It reads only what the acting seat
may know: the public board, its own noble tiles and its own bid.
"""

from __future__ import annotations

from ..base import NotLegal, NotYourTurn
from .actions import diplomacy_allowed, fewest_vp, recruit_cost, takeable_estate
from .board import BOARD, HOME
from .early import estate_cost, free_space
from .layouts import fits
from .state import PLAYERS, discs_free, enemies_in, sejm_seats, units_free
from .war import royal_ready

# The action types each decision takes (the second part of a special action: move_cube, stop).
TYPES = {
    "setup_estate": {"place_estate"},
    "nobles": {"place_nobles"},
    "shortage": {"reduce_nobles"},
    "bid": {"bid"},
    "estate_purchase": {"buy_estate", "pass"},
    "special": {"steward", "danzig", "diplomacy", "move_cube", "liberum_veto", "right_of_arms", "jesuits", "town",
                "pass"},
    "recruitment": {"recruit", "recruit_done", "recruit_resume", "pass"},
    "campaigns": {"campaign", "pass"},
    "counterattack": {"counterattack", "pass"},
}
SECOND_MOVE = {"move_cube", "stop"}


def refusal(s: dict, seat: int, action: dict) -> NotLegal | None:
    """Why the seat to move may not play `action` (as parsed), or None when it may
    (a pass, or the stop after one cube moved, is always allowed where it is asked)."""
    pend = s["pending"]
    kind = pend["kind"]
    second = kind == "special" and pend["second"]
    if action["type"] not in (SECOND_MOVE if second else TYPES[kind]):
        return wrong_decision(kind, second)
    if kind == "recruitment":
        done = seat in pend.get("done", ())
        if done != (action["type"] == "recruit_resume"):
            return _recruit_word(done)
    reason = _REASONS.get(action["type"])
    return reason(s, seat, action) if reason else None


def wrong_decision(kind: str, second: bool) -> NotLegal:
    if kind == "setup_estate":
        return NotLegal("That is not something you can do now: choose a province for one of your starting estates.")
    if kind == "nobles":
        return NotLegal("That is not something you can do now: place your noble tiles, one on each province "
                        "and one on the royal army.")
    if kind == "shortage":
        return NotLegal("That is not something you can do now: you are short of cubes, so choose a province "
                        "where you place one cube fewer.")
    if kind == "bid":
        return NotLegal("That is not something you can do now: seal your bid for the crown.")
    if kind == "estate_purchase":
        return NotLegal("That is not something you can do now: buy an estate or pass.")
    if second:
        return NotLegal("That is not something you can do now: move a second noble cube, or stop.")
    if kind == "special":
        return NotLegal("That is not something you can do now: take a special action or pass.")
    if kind == "recruitment":
        return NotLegal("That is not something you can do now: recruit a unit or pass.")
    if kind == "campaigns":
        return NotLegal("That is not something you can do now: launch a campaign or pass.")
    return NotLegal("That is not something you can do now: lead the royal army against an enemy, or pass.")


def not_your_turn(s: dict, seat: int) -> NotYourTurn:
    pend = s["pending"]
    kind = pend["kind"]
    if kind == "nobles":
        return NotYourTurn("You have placed all your nobles; the others are still placing theirs.")
    if kind == "bid":
        if seat not in pend["seats"]:
            return NotYourTurn("Only the families tied for the crown bid.")
        return NotYourTurn("You have sealed your bid; the others are still bidding.")
    if kind in ("estate_purchase", "recruitment", "campaigns", "counterattack") and seat not in pend["active"]:
        return NotYourTurn("You have passed: you take no more turns in this phase.")
    return NotYourTurn("It is not your turn.")


# ---- one reason per action type ------------------------------------------------


def _no_cube() -> NotLegal:
    return NotLegal("You need one of your noble cubes in that province.")


def _no_deputy(s: dict, seat: int, disc: str) -> NotLegal | None:
    if s["sejm"][disc] == seat:
        return None
    if not sejm_seats(s, seat):
        return NotLegal("That needs one of your deputies in the Sejm, and you have none.")
    return NotLegal("You have no deputy in the Sejm for that province: give up one of your own.")


def _full(s: dict, p: str) -> NotLegal | None:
    if free_space(s["prov"][p]) is None:
        return NotLegal("That province has no empty estate space left.")
    return None


def _own_space(s: dict, seat: int, a: dict, marks: str) -> bool:
    """Whether a["space"] is one of the seat's estates in a["province"] not yet marked
    (no steward, no town)."""
    pr, i = s["prov"][a["province"]], a["space"]
    return 0 <= i < len(pr["estates"]) and pr["estates"][i] == seat and not pr[marks][i]


def _place_estate(s, seat, a):
    return _full(s, a["province"])


def _place_nobles(s, seat, a):
    """Only the seat's own hand is read: the other seats' tiles stay out of the answer."""
    missing = fits(s["hand"][seat], a)
    if missing is None:
        return None
    value, slot = missing
    return NotLegal("You have no noble tile of value {value} left to put on {slot}.", value=value, slot=slot)


def _reduce_nobles(s, seat, a):
    if s["pending"]["demand"][seat][a["province"]] > 0:
        return None
    return NotLegal("You are not placing any cube there: choose a province where you place at least one.")


def _bid(s, seat, a):
    if 0 <= a["amount"] <= s["money"][seat]:
        return None
    return NotLegal("Bid a whole number of talers from 0 to {money}.", money=s["money"][seat])


def _buy_estate(s, seat, a):
    p = a["province"]
    if discs_free(s, seat) == 0:
        return NotLegal("You have no disc left for another estate.")
    cost, have = estate_cost(s, seat), s["prov"][p]["nobles"][seat]
    if have < cost:
        return NotLegal("An estate costs {count} of your noble cubes in its province; you have {have} there.",
                        count=cost, have=have)
    return _full(s, p)


def _steward(s, seat, a):
    if s["stewards_left"] == 0:
        return NotLegal("No steward is left.")
    if s["prov"][a["province"]]["nobles"][seat] < 1:
        return _no_cube()
    if _own_space(s, seat, a, "stewards"):
        return None
    return NotLegal("Choose one of your own estates there that has no steward yet.")


def _danzig(s, seat, a):
    if s["prov"]["prussia"]["nobles"][seat] >= 1:
        return None
    return NotLegal("Trading through Danzig needs one of your noble cubes in Prussia.")


def _diplomacy(s, seat, a):
    c = a["enemy"]
    if s["treaty"] is not None:
        return NotLegal("A treaty has already been made this round.")
    if c == "orange":
        return NotLegal("There is no diplomacy with the Turks.")
    if not diplomacy_allowed(s, c):
        return NotLegal("Diplomacy with the Habsburgs is possible only in round 4, while no Turkish cube stands "
                        "on their box.")
    if s["prov"][HOME[c]]["nobles"][seat] < 1:
        return NotLegal("Negotiating with that enemy needs one of your noble cubes in {province}, on its border.",
                        province=HOME[c])
    return _no_deputy(s, seat, a["disc"])


def _move_cube(s, seat, a):
    if a["from"] == a["to"]:
        return NotLegal("Move the cube to a different province.")
    if s["prov"][a["from"]]["nobles"][seat] >= 1:
        return None
    return NotLegal("You have no noble cube in the province you move from.")


def _liberum_veto(s, seat, a):
    if all(v is None for v in s["sejm"].values()):
        return NotLegal("The Sejm is empty: there is nothing to veto.")
    if s["prov"][a["province"]]["nobles"][seat] >= 1:
        return None
    return _no_cube()


def _right_of_arms(s, seat, a):
    p, target = a["province"], a["target"]
    mine = s["prov"][p]["nobles"][seat]
    if s["round"] < 3:
        return NotLegal("The right of arms can be used from round 3 on.")
    if not fewest_vp(s, seat):
        return NotLegal("Only the family with strictly the fewest victory points may use the right of arms.")
    if discs_free(s, seat) == 0:
        return NotLegal("You have no disc left for another estate.")
    if mine < BOARD["right_of_arms_cubes"]:
        return NotLegal("The right of arms needs {count} of your noble cubes in that province.",
                        count=BOARD["right_of_arms_cubes"])
    if not 0 <= target < PLAYERS or target == seat:
        return NotLegal("Choose another family to take the estate from.")
    if s["prov"][p]["nobles"][target] >= mine:
        return NotLegal("You need more noble cubes in that province than the family you take from.")
    if takeable_estate(s["prov"][p], target) is not None:
        return None
    return NotLegal("That family has no estate without a town in that province.")


def _jesuits(s, seat, a):
    chosen = a["provinces"]
    cost = BOARD["jesuit_cost"]
    if s["round"] < 2:
        return NotLegal("Jesuit schools can be founded from round 2 on.")
    if not chosen:
        return NotLegal("Name at least one province for the schools.")
    if len(set(chosen)) < len(chosen):
        return NotLegal("Name each province only once.")
    if any(s["prov"][p]["nobles"][seat] < 1 for p in chosen):
        return NotLegal("Each school needs one of your noble cubes in its province.")
    if len(chosen) * cost <= s["money"][seat]:
        return None
    return NotLegal("Schools cost {cost} talers each: you can pay for {count}.", cost=cost,
                    count=s["money"][seat] // cost)


def _town(s, seat, a):
    if s["round"] < 3:
        return NotLegal("Towns can be founded from round 3 on.")
    if s["town_built"]:
        return NotLegal("A town has already been founded this round.")
    if s["towns_left"] == 0:
        return NotLegal("No town is left.")
    if s["prov"][a["province"]]["nobles"][seat] < BOARD["town_cubes"]:
        return NotLegal("A town needs {count} of your noble cubes in its province.", count=BOARD["town_cubes"])
    if _own_space(s, seat, a, "towns"):
        return None
    return NotLegal("Choose one of your own estates there that has no town yet.")


def _recruit_word(done: bool) -> NotLegal:
    """A seat out of the recruitment by its own word may only take it back (D8a); a seat in it has
    nothing to take back."""
    if done:
        return NotLegal("You said you recruit no more this round: take that back first to recruit again.")
    return NotLegal("You have not said you recruit no more this round, so there is nothing to take back.")


def _recruit(s, seat, a):
    p, unit = a["province"], a["unit"]
    if unit == "cossack" and p != "ukraine":
        return NotLegal("Cossacks are hired in Ukraine only.")
    if unit == "cannon" and s["round"] == 1:
        return NotLegal("No cannon can be recruited in round 1.")
    if p not in s["pending"]["opened"][seat] and s["prov"][p]["nobles"][seat] < 1:
        return NotLegal("Recruiting in a province needs one of your noble cubes there.")
    if unit == "cossack" and s["cossacks"]["box"] == 0:
        return NotLegal("No Cossack is left to hire.")
    if unit != "cossack" and units_free(s, seat, unit) == 0:
        return NotLegal("You have no {unit} left in your supply.", unit=unit)
    cost = recruit_cost(s, p, unit)
    if s["money"][seat] >= cost:
        return None
    return NotLegal("That costs {cost} talers and you have {money}.", cost=cost, money=s["money"][seat])


def _campaign(s, seat, a):
    c, royal, disc = a["enemy"], a["royal"], a["disc"]
    p = HOME[c]
    pr = s["prov"][p]
    if c == "purple" and s["round"] < 4:
        return NotLegal("The Habsburgs cannot be attacked before round 4.")
    if pr["nobles"][seat] < 1:
        return NotLegal("A campaign against that enemy needs one of your noble cubes in {province}.", province=p)
    if s["treaty"] == c and enemies_in(pr) == 0:
        return NotLegal("You have a treaty with that enemy: only its cubes inside the province may be fought, "
                        "and there are none.")
    if not royal:
        if disc is not None:
            return NotLegal("Only a campaign with the royal army costs a deputy in the Sejm.")
        if pr["units"][seat][0] + pr["units"][seat][1] > 0:
            return None
        return NotLegal("You have no infantry or cavalry in {province} to campaign with.", province=p)
    if not royal_ready(s):
        return NotLegal("The royal army has no infantry or cavalry.")
    if disc is None:
        return NotLegal("The royal army needs the Sejm's consent: name one of your deputies to give up.")
    return _no_deputy(s, seat, disc)


def _counterattack(s, seat, a):
    target, disc = a["target"], a["disc"]
    if not royal_ready(s):
        return NotLegal("The royal army has no infantry or cavalry.")
    if target == "habsburg":
        if not s["turks_on_habsburg"]:
            return NotLegal("No Turkish cube stands on the Habsburg box.")
    elif not enemies_in(s["prov"][target]):
        return NotLegal("There is no enemy cube in that province.")
    if s["pending"]["free"] and seat == s["start"]:
        if disc is None:
            return None
        return NotLegal("Your first attack is free: it costs no deputy in the Sejm.")
    if disc is None:
        return NotLegal("The royal army needs the Sejm's consent: name one of your deputies to give up.")
    return _no_deputy(s, seat, disc)


_REASONS = {
    "place_estate": _place_estate, "place_nobles": _place_nobles, "reduce_nobles": _reduce_nobles, "bid": _bid,
    "buy_estate": _buy_estate, "steward": _steward, "danzig": _danzig, "diplomacy": _diplomacy,
    "move_cube": _move_cube, "liberum_veto": _liberum_veto, "right_of_arms": _right_of_arms, "jesuits": _jesuits,
    "town": _town, "recruit": _recruit, "campaign": _campaign, "counterattack": _counterattack,
}
