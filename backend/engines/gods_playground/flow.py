"""The phase machine: four rounds of the sixteen phases in order (p.4).

Automatic phases run inside `advance`; a phase that needs decisions sets
`state["pending"]` and the machine waits.  A seat whose only choice would be
to pass is passed automatically, so every turn offered is a real decision.
"""

from __future__ import annotations

from itertools import islice

from ..base import event
from . import actions, early, scoring, war
from .board import SLOTS

PHASES = (
    "income", "nobles", "king", "royal_army", "events", "elections", "estate_purchase", "special",
    "recruitment", "campaigns", "invasions", "counterattack", "raids", "estates", "victory_points", "end_of_round",
)

ENTER = {
    "income": early.phase_income,
    "nobles": early.phase_nobles,
    "king": early.phase_king,
    "royal_army": early.phase_royal_army,
    "events": early.phase_events,
    "elections": early.phase_elections,
    "estate_purchase": early.phase_estate_purchase,
    "special": actions.phase_special,
    "recruitment": actions.phase_recruitment,
    "campaigns": war.phase_campaigns,
    "invasions": war.phase_invasions,
    "counterattack": war.phase_counterattack,
    "raids": war.phase_raids,
    "estates": scoring.phase_estates,
    "victory_points": scoring.phase_victory_points,
    "end_of_round": scoring.phase_end_of_round,
}

# decision (the pending kind) -> (its listing, its step); flow.settle runs after each step
DECISIONS = {
    "setup_estate": (early.legal_setup, early.apply_setup),
    "nobles": (early.legal_nobles, early.apply_nobles),
    "shortage": (early.legal_shortage, early.apply_shortage),
    "bid": (early.legal_bid, early.apply_bid),
    "estate_purchase": (early.legal_estate_purchase, early.apply_estate_purchase),
    "special": (actions.legal_special, actions.apply_special),
    "recruitment": (actions.legal_recruitment, actions.apply_recruitment),
    "campaigns": (war.legal_campaigns, war.apply_campaigns),
    "counterattack": (war.legal_counterattack, war.apply_counterattack),
}

# Kinds where a seat with nothing but "pass" is passed for it.
AUTO_PASS = {"estate_purchase", "special", "recruitment", "campaigns", "counterattack"}


def to_move(s: dict) -> list[int]:
    if s["over"] or s["pending"] is None:
        return []
    pend = s["pending"]
    kind = pend["kind"]
    if kind == "nobles":
        return [x for x in range(s["num_players"]) if len(s["secret"][x]) < len(SLOTS)]
    if kind == "bid":
        return [x for x in pend["seats"] if pend["bids"][x] is None]
    if kind == "shortage":
        return [pend["seats"][0]]
    if kind in ("setup_estate", "special"):
        return [pend["order"][pend["i"]]]
    if kind == "recruitment":
        # The seat whose turn it is, then those that said they recruit no more: they may take
        # it back at any time while the phase lasts (D8a), though nobody waits for them (asked).
        return [pend["turn"], *pend.get("done", ())]
    return [pend["turn"]]


def asked(s: dict) -> list[int]:
    """The seats the game waits for (what every viewer sees asked, what the clocks run on):
    to_move without the seats whose one move is to take back "I recruit no more"."""
    movers = to_move(s)
    return movers[:1] if movers and s["pending"]["kind"] == "recruitment" else movers


def settle(s: dict, ev: list) -> None:
    """Run automatic phases and automatic passes until a real decision is due."""
    while not s["over"]:
        pend = s["pending"]
        if pend is None:
            if s["phase_entered"]:
                s["phase"] = PHASES[0] if s["phase"] in ("setup", PHASES[-1]) else PHASES[PHASES.index(s["phase"]) + 1]
                s["phase_entered"] = False
            else:
                s["phase_entered"] = True
                number = PHASES.index(s["phase"]) + 1
                event(ev, "phase", f"Round {s['round']}, phase {number}: {s['phase'].replace('_', ' ')}.",
                      round=s["round"], number=number, phase=s["phase"])
                ENTER[s["phase"]](s, ev)
            continue
        if pend["kind"] in AUTO_PASS:
            seat = to_move(s)[0]
            legal, apply_fn = DECISIONS[pend["kind"]]
            first = list(islice(legal(s, seat), 2))  # a pass comes last: one action is the pass alone
            if len(first) == 1:
                apply_fn(s, seat, first[0], ev)
                continue
        return
