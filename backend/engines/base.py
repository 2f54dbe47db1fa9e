"""The engine contract shared by every game (see docs/engines.md).

Engines are pure: no Django, no I/O, no module-level mutable state.  A state
is a plain JSON value that holds everything, including the RNG seed/counter,
so replaying the same seed and actions yields byte-identical states.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any, Callable

State = dict
Action = dict
Event = dict  # {"text": str, "to": None | [seat, ...], ...optional structured fields}
Bot = Callable[[dict, list, random.Random], dict]


class IllegalAction(Exception):
    """An action the rules do not allow; the message is shown to the player."""


def visible_events(events: list[Event], seat: int | None) -> list[Event]:
    """The events a viewer may see: public ones, plus those addressed to its seat."""
    return [e for e in events if e.get("to") is None or (seat is not None and seat in e["to"])]


def clone(value: Any) -> Any:
    """Deep copy of a JSON value; several times faster than copy.deepcopy."""
    if isinstance(value, dict):
        return {k: clone(v) for k, v in value.items()}
    if isinstance(value, list):
        return [clone(v) for v in value]
    return value


def canonical(value: Any) -> str:
    """Byte-stable JSON used to compare states and views."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


class Engine:
    """Base class: a game subclasses it and implements the abstract hooks.

    Subclasses implement `_setup`, `to_move`, `legal_actions`, `_step`,
    `view`, `is_over` and `result`.  The public `apply`/`step` wrap `_step`
    with the checks every game needs, so no engine can forget them.
    """

    id: str = ""
    name: str = ""
    min_players: int = 0
    max_players: int = 0
    options_schema: dict = {}
    bots: dict[str, Bot] = {}

    # ---- public API -----------------------------------------------------
    def setup(self, num_players: int, options: dict | None = None, seed: int = 0) -> State:
        if not isinstance(num_players, int) or isinstance(num_players, bool):
            raise ValueError("The number of players must be a whole number.")
        if not self.min_players <= num_players <= self.max_players:
            raise ValueError(
                f"{self.name} is played by {self.min_players} to {self.max_players} players, not {num_players}."
            )
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError("The seed must be a whole number.")
        return self._setup(num_players, self.validate_options(options), seed)

    def validate_options(self, options: dict | None) -> dict:
        """Fill defaults and reject unknown or ill-typed options (ValueError)."""
        options = {} if options is None else options
        if not isinstance(options, dict):
            raise ValueError("Options must be an object.")
        unknown = sorted(set(options) - set(self.options_schema))
        if unknown:
            raise ValueError(f"Unknown option(s) for {self.name}: {', '.join(unknown)}.")
        out = {}
        for key, spec in self.options_schema.items():
            value = options.get(key, copy.deepcopy(spec.get("default")))
            out[key] = self._check_option(key, spec, value)
        return out

    def _check_option(self, key: str, spec: dict, value: Any) -> Any:
        kind = spec["type"]
        if value is None and spec.get("nullable", False):
            return None
        if kind == "bool":
            if not isinstance(value, bool):
                raise ValueError(f"Option {key!r} must be true or false.")
        elif kind == "int":
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"Option {key!r} must be a whole number.")
            if "min" in spec and value < spec["min"] or "max" in spec and value > spec["max"]:
                raise ValueError(f"Option {key!r} must be between {spec.get('min')} and {spec.get('max')}.")
        elif kind == "choice":
            if value not in spec["choices"]:
                raise ValueError(f"Option {key!r} must be one of {', '.join(map(str, spec['choices']))}.")
        elif kind == "list":
            if not isinstance(value, list):
                raise ValueError(f"Option {key!r} must be a list.")
        return value

    def step(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        """Apply an action and return (new state, events). Never mutates `state`."""
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction("An action must be an object with a \"type\".")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.num_players(state):
            raise IllegalAction(f"There is no seat {seat!r} in this game.")
        if self.is_over(state):
            raise IllegalAction("The game is over.")
        if seat not in self.to_move(state):
            raise IllegalAction("It is not your turn.")
        new_state = self.copy_state(state)
        events: list[Event] = []
        self._step(new_state, seat, action, events)
        return new_state, events

    def apply(self, state: State, seat: int, action: Action) -> State:
        return self.step(state, seat, action)[0]

    def visible_events(self, events: list[Event], seat: int | None) -> list[Event]:
        return visible_events(events, seat)

    # ---- hooks ----------------------------------------------------------
    def copy_state(self, state: State) -> State:
        """The private copy `_step` mutates. A game may override it with a
        schema-aware copy that is faster than the generic deep clone."""
        return clone(state)

    def num_players(self, state: State) -> int:
        return state["num_players"]

    def _setup(self, num_players: int, options: dict, seed: int) -> State:  # pragma: no cover
        raise NotImplementedError

    def _step(self, state: State, seat: int, action: Action, events: list[Event]) -> None:  # pragma: no cover
        """Mutate the private copy `state` in place; append events; raise IllegalAction."""
        raise NotImplementedError

    def to_move(self, state: State) -> list[int]:  # pragma: no cover
        raise NotImplementedError

    def legal_actions(self, state: State, seat: int) -> list[Action]:  # pragma: no cover
        raise NotImplementedError

    def view(self, state: State, seat: int | None) -> dict:  # pragma: no cover
        raise NotImplementedError

    def views(self, state: State, seats) -> dict:
        """{seat: view(state, seat)} for several viewers of one state at once
        (None: a spectator).  A game may override it to compute what all
        viewers share only once; the views may then share those parts, so
        treat them as read-only.  Each must equal view(state, seat)."""
        return {seat: self.view(state, seat) for seat in seats}

    def is_over(self, state: State) -> bool:  # pragma: no cover
        raise NotImplementedError

    def result(self, state: State) -> dict:  # pragma: no cover
        raise NotImplementedError
