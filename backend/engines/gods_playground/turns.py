"""Round-robin turns for the phases where players act in order until all pass
(estate purchase, recruitment, campaigns): a pass is final for the round."""

from __future__ import annotations

from .state import order_from


def start_round_robin(s: dict, kind: str, extra: dict | None = None) -> None:
    order = order_from(s["start"])
    s["pending"] = {"kind": kind, "active": order, "turn": order[0], **(extra or {})}


def next_turn(s: dict) -> None:
    pend = s["pending"]
    active = pend["active"]
    pend["turn"] = active[(active.index(pend["turn"]) + 1) % len(active)]


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
