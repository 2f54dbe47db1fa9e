"""Round-robin turns for the phases where players act in order until all pass.

Estate purchase, campaigns and the counterattack: a pass is final for the round
(p.6, p.9, p.12). Recruitment: a seat that passed may buy again later, and the
phase ends when every seat passes in a row (p.8, see D8 in the rules doc); a seat
may also leave the round ("recruit_done", D8a) and come back into it while the
phase lasts ("recruit_resume")."""

from __future__ import annotations

from .state import order_from


def start_round_robin(s: dict, kind: str, extra: dict | None = None) -> None:
    order = order_from(s["start"])
    s["pending"] = {"kind": kind, "active": order, "turn": order[0], **(extra or {})}


def next_turn(s: dict) -> None:
    pend = s["pending"]
    active = pend["active"]
    pend["turn"] = active[(active.index(pend["turn"]) + 1) % len(active)]
    if "passes" in pend:
        pend["passes"] = 0


def pass_turn(s: dict) -> bool:
    """Drop the seat to move from the round; True when everybody has passed."""
    pend = s["pending"]
    active = pend["active"]
    i = active.index(pend["turn"])
    active.pop(i)
    if not active:
        s["pending"] = None
        return True
    pend["turn"] = active[i % len(active)]
    return False


def pass_for_now(s: dict) -> bool:
    """Pass without leaving the round; True when every seat has passed in a row."""
    pend = s["pending"]
    passes = pend["passes"] + 1
    if passes == len(pend["active"]):
        s["pending"] = None
        return True
    next_turn(s)
    pend["passes"] = passes
    return False


def leave_for_now(s: dict) -> bool:
    """The seat to move leaves a pass-for-now round for good; True when the seats left
    have all passed since the last purchase (or none is left)."""
    pend = s["pending"]
    if pass_turn(s):
        return True
    if pend["passes"] >= len(pend["active"]):
        s["pending"] = None
        return True
    return False


def rejoin(s: dict, seat: int) -> None:
    """A seat that left a pass-for-now round comes back into it, in its place in
    player order; the turn stays where it is."""
    pend = s["pending"]
    pend["done"].remove(seat)
    back = set(pend["active"]) | {seat}
    pend["active"] = [x for x in order_from(s["start"]) if x in back]
