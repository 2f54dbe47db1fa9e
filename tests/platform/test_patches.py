"""backend/matches/patches.py: a patch turns the previous message into the next
one exactly, over random games of both games (every viewer's message sequence
as the socket builds it, versions skipped now and then, clocks of every kind)
and over arbitrary JSON values."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from backend.engines import get_engine
from backend.matches import clock as clocks
from backend.matches import jsoncodec, patches

CONTROLS = [{"kind": "none"}, {"kind": "realtime", "bank_s": 300, "increment_s": 5},
            {"kind": "turn_based", "per_move_s": 3600}]


def _messages(game: str, seed: int, moves: int):
    """Per move: {viewer: its state message}, viewers being the seats and a spectator."""
    engine, rng = get_engine(game), random.Random(seed)
    state = engine.setup(3, {}, seed)
    control = CONTROLS[seed % len(CONTROLS)]
    now = 1_764_900_000_000 + seed
    clock = clocks.start(control, 3, engine.to_move(state), now)
    viewers = [0, 1, 2, None]
    events_since = {v: [] for v in viewers}
    for version in range(1, moves + 1):
        movers = engine.to_move(state)
        if not movers:
            return
        seat = rng.choice(movers)
        state, events = engine.step(state, seat, rng.choice(list(engine.legal_actions(state, seat))))
        now += rng.choice((0, 1, 7, 250, 13_000))
        clock = clocks.advance(clock, now, engine.to_move(state), seat)
        views = engine.views(state, set(viewers))
        out = {}
        for v in viewers:
            events_since[v] = events_since[v] + engine.visible_events(events, v)
            legal = engine.offered_actions(state, v) if v is not None and v in engine.to_move(state) else []
            out[v] = {"type": "state", "version": version, "seat": v, "status": "active", "view": views[v],
                      "legal_actions": legal, "events": events_since[v],
                      "clock": clocks.frame(clock, now + rng.choice((0, 3))),
                      "control": [None, None, None], "defaults_in_ms": None}
        yield out
        for v in viewers:
            if rng.random() < 0.9:  # otherwise this viewer misses the version: the next patch spans two
                events_since[v] = []


def _wire(value):
    return json.loads(jsoncodec.dumps(value))


@pytest.mark.parametrize("game", ["condottiere", "gods_playground"])
@pytest.mark.parametrize("seed", range(6))
def test_each_patch_turns_the_previous_message_into_the_next(game, seed):
    held: dict = {}
    sizes = [0, 0]
    count = 0
    for messages in _messages(game, seed, 400):
        memo: dict = {}  # shared by the viewers of a version, as the socket shares it
        for viewer, message in messages.items():
            if viewer in held and (held[viewer]["version"] == message["version"] - 1 or not message["events"]):
                base = held[viewer]
                ops = patches.diff(base, message, memo)
                # As a client has them: parsed from the wire.
                assert patches.apply(_wire(base), _wire(ops)) == _wire(message)
                assert patches.apply(_wire(base), _wire(ops)) is not base
                sizes[0] += len(jsoncodec.dumps(ops))
                sizes[1] += len(jsoncodec.dumps(message))
            held[viewer] = message
            count += 1
    assert count > 40
    assert sizes[0] < sizes[1] / 2  # a patch is a small part of what it saves sending


def test_an_unchanged_message_needs_no_operation_and_the_base_is_left_alone():
    base = {"a": [1, 2, {"b": "c"}], "d": {"e/f": 1, "g~h": [True, None], "long": "x" * 200}}
    frozen = json.dumps(base)
    assert patches.diff(base, json.loads(frozen)) == []
    other = {"a": [1, {"b": "c"}], "d": {"e/f": 2, "g~h": [False, None], "long": "x" * 200, "new": []}}
    ops = patches.diff(base, other)
    assert patches.apply(base, ops) == other and json.dumps(base) == frozen
    assert {op["path"] for op in ops} >= {"/d/e~1f", "/d/g~0h/0"}


def test_a_list_loses_and_gains_elements_by_index():
    hand = ["m1", "m2", "m3", "m5", "m6", "m10", "heroine", "winter"]
    ops = patches.diff({"hand": hand}, {"hand": hand[:3] + hand[4:]})
    assert ops == [{"op": "remove", "path": "/hand/3"}]
    ops = patches.diff({"hand": hand}, {"hand": hand + ["bishop"]})
    assert ops == [{"op": "add", "path": "/hand/8", "value": "bishop"}]
    # Nothing in common: the whole value, shorter than the operations would be.
    assert patches.diff({"hand": hand}, {"hand": ["x", "y"]}) == [{"op": "replace", "path": "/hand",
                                                                   "value": ["x", "y"]}]


_json = st.recursive(
    st.none() | st.booleans() | st.integers(-2**53, 2**53) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.sampled_from(["a", "b", "~", "/", "0", ""]),
                                                               inner, max_size=4),
    max_leaves=25)


@settings(max_examples=400, deadline=None)
@given(_json, _json)
def test_any_two_json_values(a, b):
    assert patches.apply(_wire(a), _wire(patches.diff(a, b))) == _wire(b)
