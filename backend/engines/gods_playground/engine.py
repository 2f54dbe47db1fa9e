"""God's Playground (Martin Wallace, Warfrog 2009) for exactly three players."""

from __future__ import annotations

from ..base import Engine, IllegalAction
from . import early, flow, scoring
from .bots import BOTS
from .state import PLAYERS, new_state
from .view import view as make_view

# Why an action was refused, by the decision being asked for (never mentions hidden facts).
REFUSALS = {
    "setup_estate": "Choose a province that still has an empty estate space.",
    "nobles": "Put one of your remaining noble tiles on a box you have not filled yet.",
    "shortage": "You are short of cubes: choose a province where you still place at least one cube.",
    "bid": "Bid a whole number of talers between 0 and what you have.",
    "estate_purchase": "You cannot buy an estate there: you need the cubes in that province, a free space and a disc.",
    "special": "That special action is not available to you now.",
    "recruitment": "You cannot recruit that unit there now.",
    "campaigns": "You cannot launch that campaign now.",
    "counterattack": "The royal army cannot attack there now.",
}


class GodsPlaygroundEngine(Engine):
    id = "gods_playground"
    name = "God's Playground"
    min_players = PLAYERS
    max_players = PLAYERS
    options_schema = {
        "dice": {
            "type": "list",
            "default": [],
            "label": "Fixed dice",
            "help": "Die results (1-6) used in order before the seeded dice; for tests and replays.",
            "test_hook": True,
        },
    }
    bots = BOTS

    def _setup(self, num_players: int, options: dict, seed: int) -> dict:
        dice = options["dice"]
        if not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice):
            raise ValueError("Option 'dice' must be a list of whole numbers from 1 to 6.")
        s = new_state(seed, dice)
        early.start_setup(s)
        return s

    def _step(self, state: dict, seat: int, action: dict, events: list) -> None:
        legal = flow.legal_actions(state, seat)
        try:
            chosen = legal[legal.index(action)]
        except ValueError:
            raise IllegalAction(REFUSALS[state["pending"]["kind"]]) from None
        # Apply the engine's own copy, so look-alike values (True for 1) never enter the state.
        flow.apply(state, seat, dict(chosen), events)

    def to_move(self, state: dict) -> list[int]:
        return flow.to_move(state)

    def legal_actions(self, state: dict, seat: int) -> list[dict]:
        return flow.legal_actions(state, seat)

    def view(self, state: dict, seat: int | None) -> dict:
        return make_view(state, seat)

    def is_over(self, state: dict) -> bool:
        return state["over"]

    def result(self, state: dict) -> dict:
        order = scoring.ranking(state)
        return {
            "winners": [order[0]],
            "scores": list(state["vp"]),
            "ranking": order,
            "estate_vp": state["final_estate_vp"],
            "money": list(state["money"]),
        }


ENGINE = GodsPlaygroundEngine()
