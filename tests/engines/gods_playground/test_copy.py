"""A step's private copy (state.copy_state) shares nothing it may change in place.

The step functions change the state in place.  copy_state copies every container
but the ones a step only ever replaces whole (SHARED, the items of SHARED_ITEMS)
and the provinces and enemy boxes, which the copy shares until a step takes one to
change with state.writable or state.writable_box.  Two checks hold that to the
code as it is and as it will be: every container of real states is walked, and
whole random games are played on states whose provinces and boxes are read-only,
so a change that bypasses writable fails.
"""

from __future__ import annotations

import random

from backend.engines.base import canonical
from backend.engines.gods_playground.state import SHARED, SHARED_ITEMS, copy_state

from ..engine_checks import random_game
from .helpers import ENGINE


def containers(value, path=()):
    if isinstance(value, dict):
        yield path, value
        for k, v in value.items():
            yield from containers(v, (*path, k))
    elif isinstance(value, (list, tuple)):
        yield path, value
        for i, v in enumerate(value):
            yield from containers(v, (*path, i))


def shared(path: tuple) -> bool:
    """Parts the copy may share: replaced whole, or a province or box (changed only after writable)."""
    return bool(path) and (path[0] in SHARED or (path[0] in SHARED_ITEMS | {"prov", "box"} and len(path) > 1))


def test_every_container_is_copied_but_the_provinces_and_those_replaced_whole():
    checked = 0
    for seed in range(3):
        for state, _, _ in random_game(ENGINE, 3, {}, seed, random.Random(seed), 5000):
            copied = copy_state(state)
            theirs = {id(c) for path, c in containers(state) if not shared(path)}
            for path, c in containers(copied):
                if shared(path):
                    continue
                assert id(c) not in theirs, f"the copy shares {path} with the state"
                checked += 1
    assert checked > 10_000


class ReadOnly(dict):
    def _refuse(self, *args, **kwargs):
        raise TypeError("a province or box was changed without state.writable")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _refuse


def frozen(value):
    if isinstance(value, dict):
        return ReadOnly({k: frozen(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(frozen(v) for v in value)
    return value


def guarded(state: dict) -> dict:
    """The state with read-only provinces and boxes."""
    return {**state, "prov": {p: frozen(pr) for p, pr in state["prov"].items()},
            "box": {c: frozen(b) for c, b in state["box"].items()}}


def test_every_step_changes_provinces_and_boxes_only_through_writable():
    """Whole random games, each action played on a state whose provinces and boxes are
    read-only: a step that changes one it did not take with writable raises TypeError."""
    played = 0
    for seed in range(20):
        for state, seat, action in random_game(ENGINE, 3, {}, seed, random.Random(seed), 5000)[:-1]:
            assert canonical(ENGINE.play(guarded(state), seat, action)) == canonical(ENGINE.play(state, seat, action))
            played += 1
    assert played > 3000


def test_the_guard_catches_a_change_that_bypasses_writable(monkeypatch):
    """A step changing its province directly (as before writable) is caught."""
    from backend.engines.gods_playground import early

    def careless(s, seat, p, ev):
        s["prov"][p]["estates"][early.free_space(s["prov"][p])] = seat

    monkeypatch.setattr(early, "place_estate", careless)
    state = ENGINE.setup(3, seed=2)
    seat = ENGINE.to_move(state)[0]
    try:
        ENGINE.play(guarded(state), seat, ENGINE.legal_actions(state, seat)[0])
    except TypeError:
        return
    raise AssertionError("a direct change to a shared province went unnoticed")


def test_the_shared_keys_are_keys_of_the_state_and_the_board_is_shared():
    state = ENGINE.setup(3, seed=1)
    assert SHARED | SHARED_ITEMS <= set(state) | {"board"}
    assert copy_state(state)["board"] is state["board"]
