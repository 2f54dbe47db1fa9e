"""God's Playground (Martin Wallace, Warfrog 2009) for exactly three players."""

from __future__ import annotations

from ..base import Engine, IllegalAction
from ..vocabulary import Bool, Code, Codes, Int, Vocabulary
from . import early, flow, layouts, refusals, scoring
from .board import DEFAULT, ENEMIES, PROVINCES, SLOTS, UNITS, board_from_json
from .bots import BOTS
from .master import make_master
from .state import PLAYERS, copy_state, done, new_state
from .view import view as make_view, views as make_views

_PROVINCE = Code(PROVINCES)
LEGACY_BOARD = "legacy"

ACTIONS = Vocabulary({
    "place_estate": {"province": _PROVINCE},
    "place_nobles": {slot: Int() for slot in SLOTS},
    "reduce_nobles": {"province": _PROVINCE},
    "bid": {"amount": Int()},
    "buy_estate": {"province": _PROVINCE},
    "pass": {},
    "steward": {"province": _PROVINCE, "space": Int()},
    "danzig": {},
    "diplomacy": {"enemy": Code(ENEMIES), "disc": _PROVINCE},
    "move_cube": {"from": _PROVINCE, "to": _PROVINCE},
    "stop": {},
    "liberum_veto": {"province": _PROVINCE},
    "right_of_arms": {"province": _PROVINCE, "target": Int()},
    "jesuits": {"provinces": Codes(PROVINCES)},
    "town": {"province": _PROVINCE, "space": Int()},
    "recruit": {"province": _PROVINCE, "unit": Code(UNITS + ("cossack",))},
    "recruit_done": {},
    "recruit_resume": {},
    "campaign": {"enemy": Code(ENEMIES), "royal": Bool(), "disc": Code(PROVINCES, nullable=True, default=None)},
    "counterattack": {"target": Code(PROVINCES + ("habsburg",)), "disc": Code(PROVINCES, nullable=True, default=None)},
})


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
        # Not a player's choice: the platform fills it in when it creates a match with the
        # server's board (GP_BOARD_FILE, else board.toml), so the match keeps that board.
        # None: the default board.  "legacy": no board recorded (matches stored before).
        "board": {
            "type": "board",
            "default": None,
            "legacy_default": LEGACY_BOARD,
            "label": "Board",
            "help": "The board's values ({\"name\", \"values\"}, as board.Board.to_json gives them).",
            "test_hook": True,
        },
    }
    bots = BOTS
    actions = ACTIONS
    optional_types = frozenset({"recruit_resume"})  # D8b: a seat out of the recruitment may come back
    decisions = flow.DECISIONS

    def _setup(self, num_players: int, options: dict, seed: int) -> dict:
        dice = options["dice"]
        if not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice):
            raise ValueError("Option 'dice' must be a list of whole numbers from 1 to 6.")
        board = options["board"]
        if board != LEGACY_BOARD:
            board = (DEFAULT if board is None else board_from_json(board)).to_json()
        s = new_state(seed, dice, None if board == LEGACY_BOARD else board)
        early.start_setup(s)
        return s

    def copy_state(self, state: dict) -> dict:
        return copy_state(state)

    def decision(self, state: dict) -> str:
        return state["pending"]["kind"]

    def _step(self, state: dict, seat: int, action: dict, events: list) -> None:
        super()._step(state, seat, action, events)
        flow.settle(state, events)  # the automatic phases and passes up to the next decision
        done(state)

    def refusal(self, state: dict, seat: int, action: dict) -> IllegalAction | None:
        return refusals.refusal(state, seat, action)

    def spell(self, state: dict, seat: int, action: dict) -> dict:
        """As listed: a `disc` of null (a campaign without the royal army, the start
        player's free counterattack) is left out."""
        if action.get("disc", "") is None:
            del action["disc"]
        return action  # parsed afresh: every field present, lists sorted and new

    def not_your_turn(self, state: dict, seat: int) -> IllegalAction:
        return refusals.not_your_turn(state, seat)

    def to_move(self, state: dict) -> list[int]:
        return flow.to_move(state)

    def asked(self, state: dict) -> list[int]:
        # A seat that said it recruits no more may take that back (to_move) but is not waited for.
        return flow.asked(state)

    def count_legal(self, state: dict, seat: int) -> int | None:
        """The nobles decision is counted and indexed without listing its layouts."""
        if self._placing(state, seat):
            return layouts.count(state["hand"][seat])
        return None

    def legal_at(self, state: dict, seat: int, index: int) -> dict:
        return layouts.layout_at(state["hand"][seat], index)

    @staticmethod
    def _placing(state: dict, seat: int) -> bool:
        """Whether the seat is still to lay its nobles (flow.to_move's nobles case)."""
        pending = state["pending"]
        return (pending is not None and pending["kind"] == "nobles" and not state["over"]
                and len(state["secret"][seat]) < len(SLOTS))

    def offered_actions(self, state: dict, seat: int) -> list[dict]:
        """The nobles decision would list up to 29,520 layouts: a client is sent one entry
        naming the tiles in hand instead, {"type": "place_nobles", "tiles": [...]}, and
        sends back one layout, {"type": "place_nobles", "prussia": v, ..., "royal": v}."""
        if self._placing(state, seat):
            return [{"type": "place_nobles", "tiles": sorted(state["hand"][seat])}]
        return list(self.legal_actions(state, seat))

    def view(self, state: dict, seat: int | None) -> dict:
        return make_view(state, seat)

    def views(self, state: dict, seats) -> dict:
        return make_views(state, seats)

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


# The master bot searches by playing games with the engine itself (master.py).
GodsPlaygroundEngine.bots = {**BOTS, "master": make_master(GodsPlaygroundEngine())}

ENGINE = GodsPlaygroundEngine()
