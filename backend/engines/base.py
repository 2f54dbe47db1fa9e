"""The engine contract shared by every game (see docs/engines.md).

Engines are pure: no Django, no I/O, no module-level mutable state.  A state
is a plain JSON value that holds everything, including the RNG seed/counter,
so replaying the same seed and actions yields byte-identical states.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator, Sequence
from typing import Any, Callable, NamedTuple

State = dict
Action = dict
Event = dict  # {"kind": str, "seat": int | None, "params": dict, "to": None | [seat, ...], "text": str}
Bot = Callable[[dict, list, random.Random], dict]


# ---- refusals ---------------------------------------------------------------


class IllegalAction(Exception):
    """An action the engine refuses; nothing changed.

    Raised as `NotLegal("Choose {count} cards.", count=2)`: the first argument
    is always a string literal (gettext extracts it with the class names as
    keywords), the keyword arguments are its parameters: numbers, or codes
    (card, region, province...) the platform names in the reader's language,
    never anything hidden from the player.  `str(exc)` is the English text.
    `code` is the platform's error code; raise one of the three subclasses.
    """

    code = "illegal_action"

    def __init__(self, template: str, **params: Any) -> None:
        self.template = template
        self.params = params
        super().__init__(template.format(**params))


class MalformedAction(IllegalAction):
    """Not an action of this game: not an object, unknown type, a missing,
    ill-typed or unknown field."""

    code = "bad_message"


class NotYourTurn(IllegalAction):
    """The seat may not act now (or there is no such seat)."""

    code = "not_your_turn"


class NotLegal(IllegalAction):
    """A well-formed action the rules forbid now."""

    code = "illegal_action"


class Played(NamedTuple):
    """What `Engine.play` returns: the new state, the events, and the action in
    the engine's canonical spelling (as legal_actions lists it)."""

    state: State
    events: list[Event]
    action: Action


# ---- JSON helpers ---------------------------------------------------------------


_NO_SEAT = object()


def event(events: list[Event], kind: str, text: str, *, seat: Any = _NO_SEAT, to: list | None = None,
          **params: Any) -> None:
    """Append an event (docs/engines.md, Events): `kind` names its sentence, `seat`
    is the acting seat, `to` the seats that may see it (None: everyone), `params`
    everything else a client needs to word it in any language, and `text` the
    English sentence for older clients.  A `seat` left out is left out of the
    event; None is written as null (Condottiere's events always carry the key, God's
    Playground's only where a family acts: kept so, as stored matches replay byte
    for byte)."""
    e = {"text": text, "to": to, "kind": kind}
    if seat is not _NO_SEAT:
        e["seat"] = seat
    e["params"] = params
    events.append(e)


def visible_events(events: list[Event], seat: int | None) -> list[Event]:
    """The events a viewer may see: public ones, plus those addressed to its seat."""
    return [e for e in events if e.get("to") is None or (seat is not None and seat in e["to"])]


def clone(value: Any) -> Any:
    """Deep copy of a JSON value; several times faster than copy.deepcopy (it
    descends only into containers: JSON values are exact dicts and lists)."""
    kind = type(value)
    if kind is dict:
        return {k: clone(v) if type(v) in _CONTAINERS else v for k, v in value.items()}
    if kind is list:
        return [clone(v) if type(v) in _CONTAINERS else v for v in value]
    return value


_CONTAINERS = (dict, list)


def canonical(value: Any) -> str:
    """Byte-stable JSON used to compare states and views."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class LegalActions(Sequence):
    """`legal_actions(state, seat)`: every legal action of the seat, listed lazily
    and read-only, in the manner of python-chess's LegalMoveGenerator.

    Nothing is listed until asked: `action in legal` checks that one action as
    `play` would (`Engine.is_legal`); `len`, indexing and iteration list the
    actions (a game may count and index a long decision without listing it, as
    God's Playground's 29,520 noble layouts).  Every item handed out is a fresh
    plain dict: a caller may change, copy, pickle or serialise it without
    touching what the engine returns later.  It compares equal to a list of the
    same actions.  States are never changed in place (the contract), so the
    sequence always describes the state it was made from."""

    __slots__ = ("_engine", "_state", "_seat", "_listed")

    def __init__(self, engine: "Engine", state: State, seat: int) -> None:
        self._engine, self._state, self._seat = engine, state, seat
        self._listed: list[Action] | None = None

    def _list(self) -> list[Action]:
        if self._listed is None:
            self._listed = list(self._engine.generate_legal(self._state, self._seat))
        return self._listed

    def __len__(self) -> int:
        if self._listed is None:
            count = self._engine.count_legal(self._state, self._seat)
            if count is not None:
                return count
        return len(self._list())

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [clone(a) for a in self._list()[index]]
        if self._listed is None:
            n = self._engine.count_legal(self._state, self._seat)
            if n is not None:  # the game indexes its long decision without listing it
                if not -n <= index < n:
                    raise IndexError("legal action index out of range")
                return self._engine.legal_at(self._state, self._seat, index % n)
        action = self._list()[index]
        # An action's fields are numbers, codes or lists of codes (its vocabulary): a
        # one-level copy is a whole one.  A game without a vocabulary may nest deeper.
        if self._engine.actions is None:
            return clone(action)
        return {k: v[:] if type(v) is list else v for k, v in action.items()}

    def __iter__(self) -> Iterator[Action]:
        if self._listed is not None:
            return (clone(a) for a in self._listed)
        return iter(self._engine.generate_legal(self._state, self._seat))

    def __contains__(self, action: object) -> bool:
        return self._engine.is_legal(self._state, self._seat, action)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, (list, tuple, LegalActions)):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<LegalActions seat={self._seat} count={len(self)}>"


class Engine:
    """Base class: a game subclasses it and implements the abstract hooks.

    Subclasses implement `_setup`, `to_move`, `generate_legal` (or
    `legal_actions`), `refusal`, `spell`, `_step`, `view`, `is_over` and
    `result`, and declare their action vocabulary in `actions`
    (backend.engines.vocabulary.Vocabulary).  The public `play` checks every
    action the same way for every game: its shape, the seat, the turn, then the
    rules on that one action (`refusal`), before `_step` runs on its canonical
    spelling (`spell`).
    """

    id: str = ""
    name: str = ""
    min_players: int = 0
    max_players: int = 0
    options_schema: dict = {}
    bots: dict[str, Bot] = {}
    # The action vocabulary (a vocabulary.Vocabulary).  Without one, an action
    # is looked up in legal_actions by its exact JSON and every refusal that is
    # not about the seat or the turn is NotLegal.
    actions = None
    # Action types a seat may take without being asked: nobody waits for them (no clock runs, no bot plays
    # them), so a seat whose only moves are of these types is in to_move but not in asked (God's Playground:
    # taking back "I recruit no more").
    optional_types: frozenset[str] = frozenset()
    # What the game does in each of its decisions: {decision: (listing, step)}, where
    # `decision(state)` names the one under way, listing(state, seat) yields the
    # seat's legal actions and step(state, seat, action, events) applies one.
    decisions: dict[str, tuple[Callable, Callable]] = {}

    # ---- public API -----------------------------------------------------
    def setup(self, num_players: int, options: dict | None = None, seed: int = 0) -> State:
        """A new game; missing options take their defaults.  Options stored by
        the platform name every option (validate_options fills them in): if
        such options lack only options that have a `legacy_default`, they were
        stored before those existed, and those take their legacy value, so the
        match replays as it was played."""
        if not _is_int(num_players):
            raise ValueError("The number of players must be a whole number.")
        if not self.min_players <= num_players <= self.max_players:
            raise ValueError(
                f"{self.name} is played by {self.min_players} to {self.max_players} players, not {num_players}."
            )
        if not _is_int(seed):
            raise ValueError("The seed must be a whole number.")
        if isinstance(options, dict) and options:
            missing = [k for k in self.options_schema if k not in options]
            if missing and all("legacy_default" in self.options_schema[k] for k in missing):
                options = {**options, **{k: self.options_schema[k]["legacy_default"] for k in missing}}
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
            if not _is_int(value):
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

    def play(self, state: State, seat: int, action: Action) -> Played:
        """Apply an action: (new state, events, canonical action).  Never
        mutates `state`; raises MalformedAction, NotYourTurn or NotLegal.
        The action is checked on its own (`refusal`), never looked up in a
        listing of every legal action."""
        chosen = self._checked(state, seat, action)
        new_state = self.copy_state(state)
        events: list[Event] = []
        self._step(new_state, seat, chosen, events)
        return Played(new_state, events, chosen)

    def is_legal(self, state: State, seat: int, action: Any) -> bool:
        """Whether `play` would accept `action` from `seat` (python-chess's
        is_legal): `action in legal_actions(state, seat)` asks exactly this."""
        try:
            self._checked(state, seat, action)
        except IllegalAction:
            return False
        return True

    def _checked(self, state: State, seat: int, action: Any) -> Action:
        """The canonical spelling of `action` if `seat` may play it now; else the
        refusal, checked in the contract's order: shape, seat, end, turn, rules."""
        parsed = self._parse(action)
        if not _is_int(seat) or not 0 <= seat < self.num_players(state):
            raise NotYourTurn("There is no such seat in this game.")
        if seat not in self.to_move(state):
            if self.is_over(state):
                raise NotLegal("The game is over.")
            raise self.not_your_turn(state, seat)
        reason = self.refusal(state, seat, parsed)
        if reason is not None:
            raise reason
        return self.spell(state, seat, parsed)

    def step(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        """`play` without the canonical action: (new state, events)."""
        new_state, events, _ = self.play(state, seat, action)
        return new_state, events

    def apply(self, state: State, seat: int, action: Action) -> State:
        return self.play(state, seat, action).state

    def visible_events(self, events: list[Event], seat: int | None) -> list[Event]:
        return visible_events(events, seat)

    # ---- parsing ------------------------------------------------------------
    def _parse(self, action: Any) -> dict:
        if self.actions is not None:
            return self.actions.parse(action)
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise MalformedAction("An action must be an object with a \"type\".")
        return action

    # ---- hooks ----------------------------------------------------------
    def refusal(self, state: State, seat: int, action: Action) -> IllegalAction | None:
        """Why a well-formed action (`action` as parsed: every field present) of a
        seat to move is not legal, or None when it is: the one check of legality,
        worded for the player.  A game overrides it to check the action on its own
        (tests/engines/test_legality.py proves it agrees with `generate_legal`);
        this default looks the action up in the listing.  It must not depend on
        anything the seat may not know."""
        if self._find(action, self.legal_actions(state, seat)) is not None:
            return None
        return NotLegal("That is not one of the actions you can take now.")

    def spell(self, state: State, seat: int, action: Action) -> Action:
        """The canonical spelling of a legal action (as parsed): exactly as
        legal_actions lists it.  The default: the listed entry it stands for."""
        return clone(self._find(action, self.legal_actions(state, seat)))

    def _find(self, parsed: dict, legal) -> Action | None:
        if self.actions is not None:
            return self.actions.find(parsed, legal)
        wanted = canonical(parsed)
        return next((a for a in legal if canonical(a) == wanted), None)

    def not_your_turn(self, state: State, seat: int) -> IllegalAction:
        """The refusal for a seat that is not in to_move (games may say more)."""
        return NotYourTurn("It is not your turn.")

    def copy_state(self, state: State) -> State:
        """The private copy `_step` mutates. A game may override it with a
        schema-aware copy that is faster than the generic deep clone."""
        return clone(state)

    def num_players(self, state: State) -> int:
        return state["num_players"]

    def _setup(self, num_players: int, options: dict, seed: int) -> State:  # pragma: no cover
        raise NotImplementedError

    def _step(self, state: State, seat: int, action: Action, events: list[Event]) -> None:
        """Change the private copy `state` in place and append events: the step of
        the decision under way.  `action` is checked and canonical (it becomes
        Played.action), so a step neither changes it nor stores its lists."""
        self.decisions[self.decision(state)][1](state, seat, action, events)

    def to_move(self, state: State) -> list[int]:  # pragma: no cover
        raise NotImplementedError

    def legal_actions(self, state: State, seat: int) -> Sequence[Action]:
        """Every legal action of `seat`, complete and finite; empty exactly for a
        seat not in to_move.  A lazy, read-only LegalActions over the game's
        `generate_legal` (a game may also return a plain list)."""
        return LegalActions(self, state, seat)

    def generate_legal(self, state: State, seat: int) -> Iterator[Action]:
        """Every legal action of `seat` as a fresh dict, in the game's order: the
        listing of the decision under way."""
        if seat not in self.to_move(state):
            return iter(())
        return self.decisions[self.decision(state)][0](state, seat)

    def decision(self, state: State) -> str:  # pragma: no cover
        """The decision under way (a key of `decisions`); asked only while some seat is to move."""
        raise NotImplementedError

    def count_legal(self, state: State, seat: int) -> int | None:
        """How many legal actions `seat` has, where the game counts a long decision
        without listing it (then `legal_at` indexes it); None: list and count."""
        return None

    def legal_at(self, state: State, seat: int, index: int) -> Action:  # pragma: no cover
        """The legal action at `index` (0 <= index < count_legal) as a fresh dict."""
        raise NotImplementedError

    def offered_actions(self, state: State, seat: int) -> list[Action]:
        """What a client is sent as the seat's legal actions: legal_actions itself,
        unless a game states a decision too large to list on the wire in a shorter form
        of its own (God's Playground's nobles: one entry instead of 29,520 layouts; see
        docs/engines.md).  Empty exactly when legal_actions is."""
        return list(self.legal_actions(state, seat))

    def view(self, state: State, seat: int | None) -> dict:  # pragma: no cover
        raise NotImplementedError

    def asked(self, state: State) -> list[int]:
        """The seats every viewer sees asked to act (the spectator view's
        `to_move`).  Where a game hides who has already answered a question
        put to several seats at once, this keeps listing them all until the
        question is settled; a seat whose only moves are `optional_types` is
        left out (nobody waits for it); otherwise it is to_move."""
        return self.to_move(state)

    def defaults(self, state: State) -> dict[int, Action]:
        """What the rules do for a seat that says nothing in the present step,
        where silence has a meaning (Condottiere: a hand not discarded is kept),
        by seat still asked.  The platform answers so for them once a short
        window has passed: nobody has to tap a forced answer, and a seat with
        no choice is never told apart from a slow one.  Empty (the default)
        where every decision must be made."""
        return {}

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
