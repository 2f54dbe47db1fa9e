"""legal_actions is a lazy, read-only sequence of plain data (docs/engines.md).

Every item is a fresh dict of JSON values: it survives copy.deepcopy, pickle
and a JSON round trip unchanged, and changing it changes nothing the engine
hands out later.  The sequence counts, indexes, iterates and compares like the
list it stands for, and `in` asks the engine about that one action.
"""

from __future__ import annotations

import copy
import json
import pickle
import random

import pytest

from backend.engines import available_engines, canonical
from backend.engines.base import LegalActions

from . import engine_checks as checks

ENGINES = available_engines()


def positions(game_id: str, games: int = 3):
    """(state, seat to move) at every step of a few seeded random games."""
    engine = ENGINES[game_id]
    players = min(3, engine.max_players) if engine.min_players <= 3 else engine.min_players
    for seed in range(games):
        for state, seat, _ in checks.random_game(engine, players, {}, seed, random.Random(seed), 20_000)[:-1]:
            yield state, seat


@pytest.mark.parametrize("game_id", sorted(ENGINES))
def test_every_legal_action_is_plain_data(game_id):
    engine = ENGINES[game_id]
    checked = 0
    for state, seat in positions(game_id):
        legal = engine.legal_actions(state, seat)
        for action in checks.sampled(legal):
            assert copy.deepcopy(action) == action
            assert pickle.loads(pickle.dumps(action)) == action
            assert json.loads(json.dumps(action)) == action
            assert type(action) is dict and all(type(v) in (str, int, bool, list, type(None)) for v in action.values())
            checked += 1
    assert checked > 1000


@pytest.mark.parametrize("game_id", sorted(ENGINES))
def test_changing_a_returned_action_changes_nothing_the_engine_returns_later(game_id):
    engine = ENGINES[game_id]
    for n, (state, seat) in enumerate(positions(game_id, games=1)):
        legal = engine.legal_actions(state, seat)
        before, state_before = json.dumps(checks.sampled(legal)), canonical(state)
        handed = [*checks.sampled(legal), legal[n % len(legal)], next(iter(legal)), legal[:2][0]]
        for action in handed:
            for key, value in list(action.items()):
                if isinstance(value, list):
                    value.append("changed")
                elif key != "type":
                    action[key] = "changed"
        assert json.dumps(checks.sampled(legal)) == before  # the same sequence
        assert json.dumps(checks.sampled(engine.legal_actions(state, seat))) == before
        assert canonical(state) == state_before
        if n > 150:
            break


def test_the_sequence_behaves_like_the_list_it_stands_for():
    engine = ENGINES["condottiere"]
    state = engine.setup(3, seed=4)
    seat = engine.to_move(state)[0]
    legal = engine.legal_actions(state, seat)
    listed = list(legal)
    assert isinstance(legal, LegalActions) and len(legal) == len(listed) > 1
    assert legal == listed and listed == legal and legal != listed[:-1] and legal != [*listed, listed[0]]
    assert legal[0] == listed[0] and legal[-1] == listed[-1] and legal[1:3] == listed[1:3]
    assert legal.index(listed[-1]) == len(listed) - 1 and legal.count(listed[0]) == 1
    assert legal[0] is not legal[0]  # fresh each time
    with pytest.raises(IndexError):
        legal[len(listed)]
    with pytest.raises(TypeError):
        legal[0] = listed[0]
    assert bool(legal) and not engine.legal_actions(state, (seat + 1) % 3)
    assert engine.legal_actions(state, (seat + 1) % 3) == []
    assert all(a in legal for a in listed)
    assert {"type": "no_such_action"} not in legal and "pass" not in legal


def test_a_hand_of_twelve_noble_tiles_is_counted_and_indexed_without_listing_it():
    engine = ENGINES["gods_playground"]
    state = next(s for s, seat in positions("gods_playground", games=1) if s["pending"]["kind"] == "nobles")
    seat = engine.to_move(state)[0]
    legal = engine.legal_actions(state, seat)
    assert len(legal) == 29_520
    assert legal[0] == {"type": "place_nobles", "prussia": 0, "lithuania": 0, "ukraine": 1, "little_poland": 1,
                        "great_poland": 2, "royal": 2}
    assert legal[-1] == {"type": "place_nobles", "prussia": 5, "lithuania": 5, "ukraine": 4, "little_poland": 4,
                         "great_poland": 3, "royal": 3}
    assert legal[-1] == legal[29_519]
    with pytest.raises(IndexError):
        legal[29_520]
    assert legal[-1] in legal and {**legal[-1], "royal": 5} not in legal
