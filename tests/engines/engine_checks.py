"""Contract checks that hold for every engine (docs/engines.md), as plain functions.

test_properties.py drives them with hypothesis over every registered engine;
test_engine_checks.py runs them on deliberately broken toy engines to show
each one can fail.  Each check raises AssertionError with the offending step.
"""

from __future__ import annotations

import json
import random
import re
from itertools import pairwise
from typing import Callable

import orjson

from backend.engines import IllegalAction, MalformedAction, NotLegal, NotYourTurn, canonical
from backend.engines.base import Engine, visible_events
from backend.engines.vocabulary import Codes

class _NothingListed(Engine):
    def legal_actions(self, state, seat):
        return []


# What the base class says of an action it does not find listed (a game's own check says more).
FALLBACK = _NothingListed().refusal({}, 0, {"type": "pass"}).template

# A reachable position: the state, and the (seat, action) chosen there
# (None at the final position).
Step = tuple[dict, int | None, dict | None]

# Seats that are never valid, whatever the table size.
BAD_SEATS = (-1, None, "0", True, 0.5)
# Actions that no engine accepts.
MALFORMED = (None, "pass", [], {}, {"type": 1}, {"type": None}, {"type": "no_such_action"}, {"kind": "pass"})


def action_key(action) -> bytes:
    """An action's identity for comparing whole lists of legal actions: its JSON with
    sorted keys, as canonical() but through orjson, since a God's Playground nobles
    decision lists 29,520 layouts and canonical() over them all cost seconds a position."""
    return orjson.dumps(action, option=orjson.OPT_SORT_KEYS)


# Values that replace a legal action's parameters to make it illegal.
BAD_VALUES = (None, -1, 10**6, "no_such_thing", [], {}, 1.5)


def random_game(engine, players: int, options: dict, seed: int, rng: random.Random, max_steps: int) -> list[Step]:
    """Play random legal actions; the list of positions, the final one last."""
    state = engine.setup(players, options=options, seed=seed)
    steps: list[Step] = []
    for _ in range(max_steps):
        to_move = engine.to_move(state)
        if not to_move:
            steps.append((state, None, None))
            return steps
        seat = rng.choice(to_move)
        action = rng.choice(engine.legal_actions(state, seat))
        steps.append((state, seat, action))
        state = engine.apply(state, seat, action)
    raise AssertionError(f"no result after {max_steps} random actions (seed {seed}, options {options})")


# A listing longer than this (God's Playground's nobles: up to 29,520 layouts) is checked
# at sampled indices at each position; tests/engines/gods_playground/test_layouts.py
# checks whole listings of every kind of hand once.
LONG = 1000


def sampled(legal) -> list[dict]:
    """The whole listing, or for a long one the entries at a fixed spread of indices."""
    n = len(legal)
    if n <= LONG:
        return list(legal)
    return [legal[i] for i in sorted({0, n - 1, *range(0, n, n // 97)})]


def check_turn_flow(engine, state: dict) -> None:
    """to_move is [] exactly at the end; movers have actions, the others none."""
    players = engine.num_players(state)
    to_move = engine.to_move(state)
    assert (to_move == []) == engine.is_over(state), f"to_move {to_move} but is_over {engine.is_over(state)}"
    assert len(set(to_move)) == len(to_move) and set(to_move) <= set(range(players)), f"bad to_move {to_move}"
    for seat in range(players):
        legal = engine.legal_actions(state, seat)
        if seat in to_move:
            assert legal, f"seat {seat} must move but has no legal action"
            listed = sampled(legal)
            assert all(isinstance(a, dict) and isinstance(a.get("type"), str) for a in listed), listed
            assert len({action_key(a) for a in listed}) == len(listed), f"duplicate legal actions for seat {seat}"
        else:
            assert legal == [], f"seat {seat} is not to move but has legal actions {legal[:3]}"


def check_result(engine, state: dict) -> None:
    players = engine.num_players(state)
    result = engine.result(state)
    assert json.loads(json.dumps(result)) == result, "the result is not plain JSON"
    winners, scores = result["winners"], result["scores"]
    assert winners and all(isinstance(w, int) and 0 <= w < players for w in winners), f"bad winners {winners}"
    assert len(set(winners)) == len(winners), f"duplicate winners {winners}"
    assert len(scores) == players and all(isinstance(s, (int, float)) for s in scores), f"bad scores {scores}"


def check_events(players: int, events: list) -> None:
    for event in events:
        assert isinstance(event.get("text"), str) and event["text"], f"event without text: {event}"
        # Events are data (docs/engines.md, Events): a kind naming the sentence, its parameters, the acting seat.
        assert isinstance(event.get("kind"), str) and re.fullmatch(r"[a-z][a-z0-9_]*", event["kind"]), event
        assert isinstance(event.get("params"), dict), f"event without params: {event}"
        assert event.get("seat") is None or event["seat"] in range(players), f"bad seat: {event}"
        to = event.get("to")
        assert to is None or (isinstance(to, list) and set(to) <= set(range(players))), f"bad audience: {event}"
    assert json.loads(json.dumps(events)) == events, "events are not plain JSON"


def check_pure_and_json_stable(engine, state: dict, seat: int, action: dict) -> dict:
    """apply leaves its input alone, and a JSON round trip of the state changes nothing.

    Returns the next state so a caller can walk on."""
    before = canonical(state)
    new_state, events = engine.step(state, seat, action)
    assert canonical(state) == before, f"apply mutated its input (seat {seat}, {action})"
    check_events(engine.num_players(state), events)
    copy = json.loads(json.dumps(state))
    assert engine.to_move(copy) == engine.to_move(state), "to_move changed after a JSON round trip"
    for other in range(engine.num_players(state)):
        assert sampled(engine.legal_actions(copy, other)) == sampled(engine.legal_actions(state, other)), (
            f"legal actions of seat {other} changed after a JSON round trip"
        )
    again, again_events = engine.step(copy, seat, action)
    assert canonical(again) == canonical(new_state), f"the round-tripped state stepped differently on {action}"
    assert again_events == events, f"the round-tripped state told different events on {action}"
    assert json.loads(json.dumps(new_state)) == new_state, "the new state is not plain JSON"
    return new_state


def check_replay(engine, players: int, options: dict, seed: int, steps: list[Step]) -> None:
    """The same seed and the same actions give byte-identical states."""
    state = engine.setup(players, options=options, seed=seed)
    for expected, seat, action in steps:
        assert canonical(state) == canonical(expected), "replaying the same actions gave a different state"
        if action is not None:
            state = engine.apply(state, seat, action)


def check_all_legal_apply(engine, state: dict, rng: random.Random | None = None, limit: int = 0) -> None:
    """Every legal action applies; with `limit`, a random `limit` of them per seat
    (a God's Playground position can offer hundreds; other positions cover the rest)."""
    before = canonical(state)
    for seat in engine.to_move(state):
        legal = engine.legal_actions(state, seat)
        if limit and len(legal) > limit:
            legal = (rng or random).sample(legal, limit)
        for action in legal:
            new_state, events = engine.step(state, seat, action)
            assert isinstance(new_state, dict)
            check_events(engine.num_players(state), events)
    assert canonical(state) == before, "applying the legal actions mutated the state"


def illegal_candidates(
    engine, state: dict, rng: random.Random, seen: list, per_kind: int = 6, limit: int = 60
) -> list[tuple]:
    """(seat, action) pairs to try; the caller skips those that are in fact legal.

    `seen` holds actions that were legal elsewhere in the game (for other seats,
    at other times): a card another player held, a choice offered earlier."""
    players = engine.num_players(state)
    to_move = engine.to_move(state)
    legal_any = [a for s in range(players) for a in sampled(engine.legal_actions(state, s))]
    sample = rng.sample(legal_any, min(per_kind, len(legal_any)))
    out: list[tuple] = []
    # Out of turn, wrong seat, or an action legal for another seat.
    out += [(seat, action) for seat in range(players) for action in sample]
    first = sample[0] if sample else {"type": "pass"}
    out += [(seat, first) for seat in BAD_SEATS + (players, players + 1)]
    mover = to_move[0] if to_move else 0
    out += [(mover, action) for action in MALFORMED]
    out += [(seat, action) for seat in range(players) for action in rng.sample(seen, min(per_kind, len(seen)))]
    # A legal action with one parameter missing or replaced by nonsense.
    for action in sample:
        for key in action:
            if key == "type":
                continue
            out.append((mover, {k: v for k, v in action.items() if k != key}))
            for bad in rng.sample(BAD_VALUES, 3):
                out.append((mover, {**action, key: bad}))
    return rng.sample(out, min(limit, len(out)))


def _without_nulls(action: dict) -> dict:
    return {k: v for k, v in action.items() if v is not None}


def listed_keys(engine, state: dict, seat: int) -> set[str]:
    """The seat's legal actions, compared with an absent parameter counting as null
    (Condottiere lists {"card": "scarecrow", "take": null} and accepts it without "take")."""
    return {action_key(_without_nulls(a)) for a in engine.legal_actions(state, seat)}


def refused(engine, state: dict, seat, action, kind: type, text: str) -> IllegalAction:
    """Sending `action` is refused with exactly `kind`, a message matching
    `text` (a regular expression), and the state is left alone."""
    before = canonical(state)
    try:
        engine.play(state, seat, action)
    except IllegalAction as err:
        assert type(err) is kind, f"{action}: {type(err).__name__} ({err}), expected {kind.__name__}"
        assert re.search(text, str(err)), f"{action}: {err!s} does not say {text!r}"
        assert canonical(state) == before, f"{action}: the refusal changed the state"
        check_refusal(err)
        return err
    raise AssertionError(f"{action} was accepted from seat {seat}")


def check_refusal(err: IllegalAction) -> None:
    """A refusal is one of the three kinds, its text its template filled with
    JSON parameters (the platform translates the template and fills it again)."""
    assert type(err) in (MalformedAction, NotYourTurn, NotLegal), f"untyped refusal {type(err).__name__}: {err}"
    assert str(err) and str(err) == err.template.format(**err.params), f"the message is not its template: {err}"
    assert all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in err.params.values()), err.params


def expected_refusal(engine, state: dict, seat, action) -> type:
    """The refusal that fits an action that is not legal for `seat`: the
    shape first, then the seat, the end of the game, the turn, the rules."""
    if engine.actions is not None:
        try:
            engine.actions.parse(action)
        except MalformedAction:
            return MalformedAction
    elif not isinstance(action, dict) or not isinstance(action.get("type"), str):
        return MalformedAction
    if not (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < engine.num_players(state)):
        return NotYourTurn
    if engine.is_over(state):
        return NotLegal
    return NotLegal if seat in engine.to_move(state) else NotYourTurn


def _listed(action: dict, listed: set) -> bool:
    try:
        return action_key(_without_nulls(action)) in listed
    except (TypeError, orjson.JSONEncodeError):  # a value JSON cannot hold is no legal action
        return False


def check_illegal_rejected(engine, state: dict, rng: random.Random, seen: list = (), specific: bool = False) -> int:
    """Everything that is not a legal action raises the right IllegalAction
    subclass and changes nothing; with `specific`, never the generic fallback.

    Returns how many illegal actions were tried (so a caller can insist on some)."""
    before = canonical(state)
    players = engine.num_players(state)
    tried = 0
    listed = {seat: listed_keys(engine, state, seat) for seat in range(players)}
    for seat, action in illegal_candidates(engine, state, rng, list(seen)):
        valid_seat = isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < players
        if valid_seat and isinstance(action, dict) and _listed(action, listed[seat]):
            continue
        try:
            engine.apply(state, seat, action)
        except IllegalAction as err:
            check_refusal(err)
            expected = expected_refusal(engine, state, seat, action)
            assert type(err) is expected, (
                f"seat {seat!r}, {action!r}: {type(err).__name__} ({err}), expected {expected.__name__}"
            )
            assert not specific or err.template != FALLBACK, f"no specific reason for seat {seat!r}, {action!r}"
        else:
            raise AssertionError(f"seat {seat!r} could play {action!r}, which is not among its legal actions")
        tried += 1
        assert canonical(state) == before, f"a rejected action changed the state (seat {seat!r}, {action!r})"
    return tried


def respellings(engine, action: dict) -> list[dict]:
    """Other spellings of a legal action the engine must take as the same one:
    every left-out optional field written at its default, lists reversed."""
    if engine.actions is None:
        return []
    fields = engine.actions.types[action["type"]]
    full = {**{k: f.default for k, f in fields.items() if f.optional}, **action}
    out = [full] if full != action else []
    flipped = {k: v[::-1] if isinstance(fields.get(k), Codes) else v for k, v in full.items()}
    if flipped != full:
        out.append(flipped)
    return out


def check_canonical(engine, state: dict, seat: int, action: dict) -> None:
    """play's canonical action is one of the seat's legal actions, and playing
    it (or any other spelling of the same action) gives the same bytes."""
    before = canonical(state)
    played = engine.play(state, seat, action)
    key = action_key(played.action)
    assert any(action_key(a) == key for a in engine.legal_actions(state, seat)), (
        f"canonical action {played.action} is not a legal action")
    for spelling in [played.action, *respellings(engine, action)]:
        again = engine.play(state, seat, spelling)
        assert canonical(again.action) == canonical(played.action), f"{spelling} gave {again.action}, not {played.action}"
        assert canonical(again.state) == canonical(played.state), f"{spelling} and {action} gave different states"
        assert canonical(again.events) == canonical(played.events), f"{spelling} and {action} told different events"
    assert engine.step(state, seat, action) == (played.state, played.events), "step differs from play"
    assert canonical(state) == before, "play mutated its input"
    after = canonical(played.state)
    for value in played.action.values():
        if isinstance(value, list):
            value.append("changed")
    assert canonical(played.state) == after, "the new state shares a list with the canonical action"


def check_views(engine, state: dict) -> None:
    seats = [None, *range(engine.num_players(state))]
    before = json.dumps(state, sort_keys=True)
    together = engine.views(state, seats)  # what the server sends: every watched seat at once
    assert sorted(together, key=str) == sorted(seats, key=str)
    for seat in seats:
        view = engine.view(state, seat)
        assert isinstance(view, dict)
        assert json.loads(json.dumps(view, allow_nan=False)) == view, f"view for {seat} is not plain JSON"
        # Byte for byte, key order included: the hidden-fact checks on view() cover views() too.
        assert json.dumps(together[seat]) == json.dumps(view), f"views() differs from view() for {seat}"
    # What the clocks run on is what every viewer is shown as asked.
    shown = together[None].get("to_move")
    assert shown is None or list(engine.asked(state)) == list(shown), "asked() differs from the view's to_move"
    asked = set(engine.asked(state))
    for seat in set(engine.to_move(state)) - asked:
        # Only a seat whose every move is optional (nobody waits for it) may act unasked.
        types = {a["type"] for a in engine.legal_actions(state, seat)}
        assert types and types <= engine.optional_types, f"seat {seat} is to move with {types} but not shown asked"
    assert json.dumps(state, sort_keys=True) == before, "computing views changed the state"


# perturb(state, rng) -> [(changed state, seats that may notice the change)]: hidden
# facts changed in the state; every other viewer's view must stay byte-identical.
Perturber = Callable[[dict, random.Random], list[tuple[dict, set]]]
# secret(state, seat, action) -> whether the rules keep that action's content from the other seats.
Secret = Callable[[dict, int, dict], bool]


def answer(engine, state: dict, seat, action) -> tuple:
    """What a seat is told when it sends `action`: the canonical action taken,
    or the refusal (its kind, template and parameters)."""
    try:
        return ("played", canonical(engine.play(state, seat, action).action))
    except IllegalAction as err:
        return ("refused", type(err).__name__, err.template, canonical(err.params))


def check_events_hide(engine, state: dict, changed: dict, may_notice: set, rng: random.Random, limit: int = 3,
                      reveals: frozenset = frozenset()) -> int:
    """Events tell a viewer no more than its view: the same action played in the
    state and in the changed one (a hidden fact moved), every viewer who may not
    notice the change and whose view after both is still identical (the rules did
    not reveal the fact) is told byte-identical events -- so no public event's
    params carry a hidden card, tile or bid.  Only facts some seat knows are
    tried: the future (deck order, dice) is told to everyone once drawn or rolled,
    which a view need not keep; so are the events of the kinds in `reveals`, which
    turn a hidden fact up for everyone by the rules (the game hooks name them and
    why).  Returns how many were compared."""
    compared = 0
    if not may_notice:
        return compared
    viewers = [None, *range(engine.num_players(state))]
    for seat in engine.to_move(state):
        legal = engine.legal_actions(state, seat)
        for action in rng.sample(legal, min(limit, len(legal))):
            try:
                after_changed, events_changed = engine.step(changed, seat, action)
            except IllegalAction:
                continue  # the change took this action away (a card no longer held)
            after, events = engine.step(state, seat, action)
            for viewer in viewers:
                if viewer in may_notice or canonical(engine.view(after, viewer)) != canonical(engine.view(after_changed, viewer)):
                    continue
                who = "the spectator" if viewer is None else f"seat {viewer}"
                turned_up = [e for e in visible_events(events, viewer) if e.get("kind") in reveals]
                if canonical(turned_up) != canonical(
                        [e for e in visible_events(events_changed, viewer) if e.get("kind") in reveals]):
                    # The rules turned the changed fact up for this viewer in this very action (a face-down
                    # card at the battle's comparison): what follows from it (the strengths) is public too.
                    continue
                told = [e for e in visible_events(events, viewer) if e.get("kind") not in reveals]
                told_changed = [e for e in visible_events(events_changed, viewer) if e.get("kind") not in reveals]
                assert canonical(told) == canonical(told_changed), (
                    f"the events {who} is told of {action} by seat {seat} reveal a hidden fact that only seats "
                    f"{sorted(may_notice)} may know"
                )
                compared += 1
    return compared


def check_choices_hide(engine, state: dict, secret: Secret, rng: random.Random, limit: int = 4) -> int:
    """A secret choice (a card played face down, a noble tile, a bid: `secret`
    says which actions are) stays secret in the events too: two secret actions
    of a seat after which another viewer's view is identical tell that viewer
    byte-identical events."""
    compared = 0
    viewers = [None, *range(engine.num_players(state))]
    for seat in engine.to_move(state):
        secrets = [a for a in sampled(engine.legal_actions(state, seat)) if secret(state, seat, a)]
        played = [(*engine.step(state, seat, a), a) for a in rng.sample(secrets, min(limit, len(secrets)))]
        for (after, events, action), (other, other_events, other_action) in pairwise(played):
            for viewer in viewers:
                if viewer == seat or canonical(engine.view(after, viewer)) != canonical(engine.view(other, viewer)):
                    continue
                who = "the spectator" if viewer is None else f"seat {viewer}"
                assert canonical(visible_events(events, viewer)) == canonical(visible_events(other_events, viewer)), (
                    f"the events {who} is told tell seat {seat}'s secret choice apart: {action} / {other_action}"
                )
                compared += 1
    return compared


def check_hidden(engine, state: dict, perturb: Perturber, rng: random.Random, probes: list = (),
                 secret: Secret | None = None, reveals: frozenset = frozenset()) -> int:
    """A hidden fact changed leaves every other viewer's view byte-identical,
    what each other seat is told when it sends one of the `probes`, and the
    events of the next action (check_events_hide); and no seat's secret choice
    shows in the events (check_choices_hide, given which actions are `secret`).

    Returns how many (change, viewer) pairs were compared."""
    players = engine.num_players(state)
    views = {seat: canonical(engine.view(state, seat)) for seat in [None, *range(players)]}
    answers = {seat: [answer(engine, state, seat, p) for p in probes] for seat in range(players)}
    compared = check_choices_hide(engine, state, secret, rng) if secret else 0
    for changed, may_notice in perturb(state, rng):
        for seat, view in views.items():
            if seat in may_notice:
                continue
            who = "the spectator" if seat is None else f"seat {seat}"
            assert canonical(engine.view(changed, seat)) == view, (
                f"the view of {who} reveals a hidden fact that only seats {sorted(may_notice)} may know"
            )
            if seat is not None:
                told = [answer(engine, changed, seat, p) for p in probes]
                assert told == answers[seat], (
                    f"what {who} is told about an action reveals a hidden fact that only seats "
                    f"{sorted(may_notice)} may know: {[p for p, a, b in zip(probes, told, answers[seat]) if a != b]}"
                )
            compared += 1
        compared += check_events_hide(engine, state, changed, may_notice, rng, reveals=reveals)
    return compared
