"""Contract checks that hold for every engine (docs/engines.md), as plain functions.

test_properties.py drives them with hypothesis over every engine that imports;
test_engine_checks.py runs them on deliberately broken toy engines to show
each one can fail.  Each check raises AssertionError with the offending step.
"""

from __future__ import annotations

import json
import random
from typing import Callable

from backend.engines import IllegalAction, canonical

# A reachable position: the state, and the (seat, action) chosen there
# (None at the final position).
Step = tuple[dict, int | None, dict | None]

# Seats that are never valid, whatever the table size.
BAD_SEATS = (-1, None, "0", True, 0.5)
# Actions that no engine accepts.
MALFORMED = (None, "pass", [], {}, {"type": 1}, {"type": None}, {"type": "no_such_action"}, {"kind": "pass"})
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
            assert all(isinstance(a, dict) and isinstance(a.get("type"), str) for a in legal), legal
            assert len({canonical(a) for a in legal}) == len(legal), f"duplicate legal actions for seat {seat}"
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
        assert engine.legal_actions(copy, other) == engine.legal_actions(state, other), (
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
    legal_any = [a for s in range(players) for a in engine.legal_actions(state, s)]
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
    return {canonical(_without_nulls(a)) for a in engine.legal_actions(state, seat)}


def check_illegal_rejected(engine, state: dict, rng: random.Random, seen: list = ()) -> int:
    """Everything that is not a legal action raises IllegalAction and changes nothing.

    Returns how many illegal actions were tried (so a caller can insist on some)."""
    before = canonical(state)
    players = engine.num_players(state)
    tried = 0
    listed = {seat: listed_keys(engine, state, seat) for seat in range(players)}
    for seat, action in illegal_candidates(engine, state, rng, list(seen)):
        valid_seat = isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < players
        if valid_seat and isinstance(action, dict) and canonical(_without_nulls(action)) in listed[seat]:
            continue
        try:
            engine.apply(state, seat, action)
        except IllegalAction as err:
            assert str(err), f"IllegalAction without a message for seat {seat!r}, {action!r}"
        else:
            raise AssertionError(f"seat {seat!r} could play {action!r}, which is not among its legal actions")
        tried += 1
        assert canonical(state) == before, f"a rejected action changed the state (seat {seat!r}, {action!r})"
    return tried


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
    assert json.dumps(state, sort_keys=True) == before, "computing views changed the state"


# perturb(state, rng) -> [(changed state, seats that may notice the change)]: hidden
# facts changed in the state; every other viewer's view must stay byte-identical.
Perturber = Callable[[dict, random.Random], list[tuple[dict, set]]]


def check_hidden(engine, state: dict, perturb: Perturber, rng: random.Random) -> int:
    """Returns how many (change, viewer) pairs were compared."""
    players = engine.num_players(state)
    views = {seat: canonical(engine.view(state, seat)) for seat in [None, *range(players)]}
    compared = 0
    for changed, may_notice in perturb(state, rng):
        for seat, view in views.items():
            if seat in may_notice:
                continue
            assert canonical(engine.view(changed, seat)) == view, (
                f"the view of {'the spectator' if seat is None else f'seat {seat}'} reveals a hidden fact "
                f"that only seats {sorted(may_notice)} may know"
            )
            compared += 1
    return compared
