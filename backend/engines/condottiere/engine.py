"""Condottiere behind the shared engine contract (docs/engines.md).

This module declares the action vocabulary and options; what each decision
offers and does is decisions.py, which actions are legal and why others are
refused refusals.py, the game flow rules.py, the card arithmetic cards.py,
views view.py.
"""

from __future__ import annotations

from ..base import Engine, IllegalAction
from ..vocabulary import Bool, Code, Codes, Vocabulary
from . import board, refusals, rules
from .bots import BOTS
from .cards import DECK_COUNTS, same_cards
from .decisions import DECISIONS
from .master import make_master
from .view import build_view, build_views

_CARDS = sorted(DECK_COUNTS)  # the order legal_actions lists a kept pair in

ACTIONS = Vocabulary({
    "place_token": {"region": Code(board.REGIONS)},
    "play": {"card": Code(_CARDS), "take": Code(_CARDS, nullable=True, default=None)},
    "pass": {"reveal": Bool(default=False)},
    "wait": {},
    "place_legate": {"region": Code(board.REGIONS, nullable=True, default=None)},
    "discard_hand": {},
    "keep_hand": {},
    "keep": {"cards": Codes(_CARDS)},
})

_FLAT_LISTS = ("deck", "discard", "passed", "points", "queue", "asked", "discarding", "final", "winners")

# What each option does, in plain words for the lobby (translated in backend/games/texts.py); the rulebook's
# pages: draw after battle p. 17, points and larger kingdoms p. 18, conquering regions p. 19, hidden cards pp. 19-20.
OPTIONS_SCHEMA = {
    "draw_after_battle": {"type": "bool", "default": False, "label": "Draw after battle",
                          "help": "Everyone starts with 7 cards and there are no rounds: "
                                  "after every battle each player draws up to 3 cards."},
    "points": {"type": "bool", "default": False, "label": "Play for points",
               "help": "Several games in a row: each region you hold when a game ends is worth 1 point, "
                       "a win by bordering regions 5 more. The first to reach the target wins."},
    "points_target": {"type": "int", "default": 20, "min": 5, "max": 200, "label": "Points to reach",
                      "help": "How many points win the match when playing for points."},
    "larger_kingdoms": {"type": "bool", "default": False, "label": "Larger kingdoms",
                        "help": "A win by bordering regions needs one region more than usual."},
    "conquering_regions": {"type": "bool", "default": False, "label": "Conquering regions",
                           "help": "Battles may also be fought over regions someone already holds: the holder defends, "
                                   "may wait before playing a card, and keeps the region on a tie."},
    "hidden_cards": {"type": "bool", "default": False, "label": "Hidden cards",
                     "help": "Mercenaries, Drummers, Heroines and Courtesans are played face down, "
                             "so the others see only part of your strength."},
    "deck": {"type": "list", "default": None, "nullable": True, "test_hook": True, "label": "Stacked deck",
             "help": "A permutation of the 110 card codes, top card first, replacing the shuffle."},
    # Which shuffle generator a match uses (rules.rng): 2 for every new match;
    # stored options naming every other option but not this one are from a
    # match shuffled by generator 1 (Engine.setup).
    "generator": {"type": "int", "default": 2, "min": 1, "max": 2, "legacy_default": 1, "test_hook": True,
                  "label": "Random generator", "help": "1: CPython's random (matches before it was recorded); "
                                                       "2: backend/engines/rng.py."},
}


class CondottiereEngine(Engine):
    id = "condottiere"
    name = "Condottiere"
    min_players = 2
    max_players = 6
    options_schema = OPTIONS_SCHEMA
    actions = ACTIONS
    decisions = DECISIONS
    bots = BOTS

    # ---- setup ----------------------------------------------------------
    def _setup(self, num_players: int, options: dict, seed: int) -> dict:
        deck = options["deck"]
        if deck is not None and not same_cards(deck):
            raise ValueError("Option 'deck' must be a permutation of the 110 Condottiere cards "
                             "(m1 x10; m2, m3, m4, m5, m6, m10 x8; winter, spring x3; bishop x6; courtesan x12; "
                             "drummer x6; heroine x3; scarecrow x16; surrender x3).")
        opts = {k: v for k, v in options.items() if k not in ("deck", "generator")}
        return rules.new_state(num_players, opts, seed, deck, options["generator"])

    def copy_state(self, state: dict) -> dict:
        """Copy every mutable container of the state (see rules.new_state for
        the schema); `last` is only ever replaced whole, never edited, and the
        scalars are immutable.  About ten times faster than the generic clone."""
        s = dict(state)
        for key in _FLAT_LISTS:
            if s[key] is not None:
                s[key] = s[key][:]
        s["hands"] = [h[:] for h in state["hands"]]
        s["lines"] = [l[:] for l in state["lines"]]
        s["owner"] = dict(state["owner"])
        s["opts"] = dict(state["opts"])
        return s

    # ---- queries --------------------------------------------------------
    def to_move(self, state: dict) -> list[int]:
        phase = state["phase"]
        if phase == "over":
            return []
        if phase == "place_token":
            return [state["holder"]]
        if phase == "discard_hand":
            return list(state["queue"])
        return [state["turn"]]

    def is_over(self, state: dict) -> bool:
        return state["phase"] == "over"

    def asked(self, state: dict) -> list[int]:
        # The keep-or-discard question shows every seat asked until all have answered (p. 8, docs/rules).
        return list(state["asked"]) if state["phase"] == "discard_hand" else self.to_move(state)

    def defaults(self, state: dict) -> dict:
        # p. 8: discarding is a choice ("dönthet úgy"); whoever does not discard keeps the hand.
        if state["phase"] != "discard_hand":
            return {}
        return {seat: {"type": "keep_hand"} for seat in state["queue"]}

    def result(self, state: dict) -> dict:
        n = state["num_players"]
        if state["opts"]["points"]:
            scores = list(state["points"])
        else:
            scores = [rules.region_count(state, s) for s in range(n)]
        winners = list(state["winners"] or [])
        return {"winners": winners, "scores": scores, "reason": state["reason"], "shared": len(winners) > 1}

    def view(self, state: dict, seat: int | None) -> dict:
        return build_view(self, state, seat)

    def views(self, state: dict, seats) -> dict:
        return build_views(self, state, seats)

    def decision(self, state: dict) -> str:
        return state["phase"]  # every phase but "over" is a decision (decisions.py)

    # ---- actions ----------------------------------------------------------
    def refusal(self, state: dict, seat: int, action: dict) -> IllegalAction | None:
        return refusals.refusal(state, seat, action)

    def spell(self, state: dict, seat: int, action: dict) -> dict:
        """As listed: `take` for a Scarecrow only, `reveal` only when true."""
        kind = action["type"]
        if kind == "play" and action["card"] != "scarecrow":
            return {"type": "play", "card": action["card"]}
        if kind == "pass" and not action["reveal"]:
            return {"type": "pass"}
        return action  # parsed afresh: every field present, lists sorted and new

    def not_your_turn(self, state: dict, seat: int) -> IllegalAction:
        return refusals.not_your_turn(state, seat)


# The master bot searches by playing games with the engine itself (master.py).
CondottiereEngine.bots = {**BOTS, "master": make_master(CondottiereEngine())}
