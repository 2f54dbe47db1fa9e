"""Nim for two: a pile of stones, each turn take 1, 2 or 3; whoever takes the last stone wins.

No hidden information, so every seat's view is the whole state."""

from __future__ import annotations

from backend.engines.base import Engine, IllegalAction


def _largest(view, legal, rng):
    return legal[-1]


def _winning(view, legal, rng):
    """Leaves a multiple of four when it can."""
    return next((a for a in legal if (view["pile"] - a["take"]) % 4 == 0), legal[0])


class Nim(Engine):
    id = "nim"
    name = "Nim"
    min_players = 2
    max_players = 2
    options_schema = {"pile": {"type": "int", "default": 9, "min": 4, "max": 30, "label": "Stones",
                               "help": "Stones in the pile at the start."}}
    bots = {"beginner": _largest, "advanced": _winning}

    def _setup(self, num_players, options, seed):
        return {"pile": options["pile"], "turn": seed % 2, "winner": None}

    def is_over(self, state):
        return state["winner"] is not None

    def to_move(self, state):
        return [] if self.is_over(state) else [state["turn"]]

    def legal_actions(self, state, seat):
        if seat not in self.to_move(state):
            return []
        return [{"type": "take", "take": n} for n in (1, 2, 3) if n <= state["pile"]]

    def _step(self, state, seat, action, events):
        if action not in self.legal_actions(state, seat):
            raise IllegalAction("Take 1, 2 or 3 stones.")
        state["pile"] -= action["take"]
        events.append({"type": "took", "seat": seat, "take": action["take"], "to": None})
        if state["pile"] == 0:
            state["winner"] = seat
        state["turn"] = 1 - seat

    def view(self, state, seat):
        return dict(state)

    def result(self, state):
        return {"winners": [state["winner"]], "scores": [int(s == state["winner"]) for s in (0, 1)]}


ENGINE = Nim()
