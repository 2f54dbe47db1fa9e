"""A tiny engine for platform tests, so lobby tests do not depend on a real game's rules.

Players take turns saying a number; after `rounds` full turns the highest total wins.
It has a normal option, a test-hook option and two bots, like the real games.
"""

from __future__ import annotations

from backend.engines.base import Engine, IllegalAction


def _first(view, legal, rng):
    return legal[0]


def _random(view, legal, rng):
    return rng.choice(legal)


class Counting(Engine):
    id = "counting"
    name = "Counting"
    min_players = 2
    max_players = 4
    options_schema = {
        "rounds": {"type": "int", "default": 2, "min": 1, "max": 5, "label": "Rounds", "help": "Turns per player."},
        "fixed_start": {"type": "int", "default": None, "nullable": True, "test_hook": True,
                        "label": "Fixed first seat", "help": "Tests only."},
    }
    bots = {"random": _random, "heuristic": _first}

    def _setup(self, num_players, options, seed):
        start = options["fixed_start"] if options["fixed_start"] is not None else seed % num_players
        return {"num_players": num_players, "turn": start, "left": options["rounds"] * num_players,
                "totals": [0] * num_players}

    def is_over(self, state):
        return state["left"] == 0

    def to_move(self, state):
        return [] if self.is_over(state) else [state["turn"]]

    def legal_actions(self, state, seat):
        return [{"type": "say", "n": n} for n in (1, 2, 3)] if seat in self.to_move(state) else []

    def _step(self, state, seat, action, events):
        if action not in self.legal_actions(state, seat):
            raise IllegalAction("Say 1, 2 or 3.")
        state["totals"][seat] += action["n"]
        state["left"] -= 1
        state["turn"] = (seat + 1) % state["num_players"]
        events.append({"text": f"Seat {seat} said {action['n']}", "to": None})

    def view(self, state, seat):
        return {"turn": state["turn"], "left": state["left"], "totals": state["totals"]}

    def result(self, state):
        best = max(state["totals"])
        return {"winners": [s for s, t in enumerate(state["totals"]) if t == best], "scores": state["totals"]}


ENGINE = Counting()
