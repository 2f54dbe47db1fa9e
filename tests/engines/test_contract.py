"""The shared engine contract, checked on every registered engine."""

import importlib

import pytest

import backend.engines as engines
from backend.engines import MalformedAction, Played, available_engines, engine_ids, get_engine
from backend.engines.base import clone, visible_events


def test_unknown_game_is_a_clear_error():
    with pytest.raises(KeyError, match="Unknown game 'chess'"):
        get_engine("chess")


@pytest.mark.parametrize("game_id", engine_ids())
def test_every_registered_engine_imports(game_id):
    module = importlib.import_module(engines._REGISTRY[game_id])
    assert module.ENGINE.id == game_id and get_engine(game_id) is module.ENGINE
    assert set(available_engines()) == set(engine_ids())


def test_an_engine_that_fails_to_import_is_loud(monkeypatch):
    """A broken game must fail the tests and the catalogue, not vanish from /api/games/."""
    monkeypatch.setitem(engines._REGISTRY, "broken", "tests.engines.no_such_engine_module")
    with pytest.raises(ImportError):
        get_engine("broken")
    with pytest.raises(ImportError):
        available_engines()
    monkeypatch.setitem(engines._REGISTRY, "broken", "tests.engines.toy_engine")  # a module without ENGINE
    with pytest.raises(AttributeError):
        available_engines()


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
    with pytest.raises(MalformedAction):
        engine.apply(state, 0, {"type": "no_such_action"})
    with pytest.raises(MalformedAction):
        engine.apply(state, 0, "not an action")
    assert state == before


@pytest.mark.parametrize("game_id", sorted(available_engines()))
def test_play_returns_the_state_events_and_canonical_action(game_id):
    engine = get_engine(game_id)
    state = engine.setup(engine.min_players, engine.validate_options({}), seed=3)
    seat = engine.to_move(state)[0]
    action = engine.legal_actions(state, seat)[-1]
    played = engine.play(state, seat, dict(action))
    assert isinstance(played, Played) and played.action == action
    assert (played.state, played.events) == engine.step(state, seat, action)


@pytest.mark.parametrize("game_id", sorted(available_engines()))
def test_play_checks_the_action_sent_without_listing_the_others(game_id):
    """play, and `action in legal_actions(...)`, decide on the one action sent: an
    engine that cannot list its legal actions plays, accepts and refuses the same."""
    engine = get_engine(game_id)

    class Unlisted(type(engine)):
        def generate_legal(self, state, seat):
            raise AssertionError("the legal actions were listed")

        def count_legal(self, state, seat):
            raise AssertionError("the legal actions were counted")

    unlisted = Unlisted()
    state = engine.setup(engine.min_players, engine.validate_options({}), seed=5)
    for step in range(60):
        if engine.is_over(state):
            break
        seat = engine.to_move(state)[0]
        legal = engine.legal_actions(state, seat)
        action = legal[(7 * step) % len(legal)]
        assert action in unlisted.legal_actions(state, seat)
        assert {**action, "type": "no_such_type"} not in unlisted.legal_actions(state, seat)
        played = unlisted.play(state, seat, action)
        assert played == engine.play(state, seat, action)
        state = played.state
