"""The shared engine contract, checked on every registered engine that imports."""

import pytest

from backend.engines import IllegalAction, available_engines, get_engine
from backend.engines.base import clone, visible_events


def test_unknown_game_is_a_clear_error():
    with pytest.raises(KeyError, match="Unknown game 'chess'"):
        get_engine("chess")


def test_visible_events_filters_by_seat():
    events = [{"text": "public", "to": None}, {"text": "for 1", "to": [1]}]
    assert [e["text"] for e in visible_events(events, None)] == ["public"]
    assert [e["text"] for e in visible_events(events, 0)] == ["public"]
    assert [e["text"] for e in visible_events(events, 1)] == ["public", "for 1"]


def test_clone_is_deep():
    value = {"a": [1, {"b": [2]}]}
    copy = clone(value)
    copy["a"][1]["b"].append(3)
    assert value == {"a": [1, {"b": [2]}]}


@pytest.mark.parametrize("game_id", sorted(available_engines()))
def test_engine_rejects_bad_setup_and_actions(game_id):
    engine = get_engine(game_id)
    with pytest.raises(ValueError):
        engine.setup(engine.max_players + 1)
    with pytest.raises(ValueError):
        engine.setup(engine.min_players, options={"no_such_option": 1})
    state = engine.setup(engine.min_players, seed=1)
    before = clone(state)
    with pytest.raises(IllegalAction):
        engine.apply(state, 0, {"type": "no_such_action"})
    with pytest.raises(IllegalAction):
        engine.apply(state, 0, "not an action")
    assert state == before
