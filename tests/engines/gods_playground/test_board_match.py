"""A match plays on the board it was created with: the engine's "board" option,
recorded in the state, read by the rules, the bots and the view."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from backend.engines.base import canonical
from backend.engines.bots_common import play_bots
from backend.engines.gods_playground import ENGINE, board_rules, early, scoring, war
from backend.engines.gods_playground.board import DEFAULT, PINNED, BoardError, thaw

from .helpers import RED, blank, estates

ENGINE_DIR = Path(board_rules.__file__).parent


def other_board(**changes) -> dict:
    """The default board with some values changed, as the option takes it."""
    stored = DEFAULT.to_json()
    stored["name"] = "test board"
    for key, value in changes.items():
        node = stored["values"]
        *path, last = key.split("__")
        for part in path:
            node = node[part]
        node[last] = value
    return stored


def test_a_new_match_records_its_board_and_an_old_one_plays_on_the_default():
    s = ENGINE.setup(3, {}, 1)
    assert s["board"] == DEFAULT.to_json()
    old = ENGINE.setup(3, {"dice": []}, 1)  # options stored before the "board" option existed
    assert "board" not in old
    assert ENGINE.view(old, 0)["board"]["hash"] == DEFAULT.hash


def test_the_board_option_is_validated_naming_the_bad_value():
    bad = other_board(enemy_strength__orange=[4, 9, 12, 3])
    with pytest.raises(BoardError, match=r"enemy_strength.orange\[1\] = 9: .*\(rulebook p.11\)"):
        ENGINE.setup(3, {"board": bad}, 1)
    with pytest.raises(ValueError, match=r"estate_vp.prussia: missing"):
        ENGINE.setup(3, {"board": {"name": "x", "values": {**bad["values"], "estate_vp": {}}}}, 1)
    with pytest.raises(ValueError):
        ENGINE.setup(3, {"board": "printed"}, 1)


def test_the_rules_read_the_matchs_board():
    board = other_board(estate_vp__prussia=[2, 5, 9], enemy_strength__green=[1, 2, 3, 4],
                        court_troops=[{"infantry": 2, "cavalry": 2}, {"infantry": 0, "cavalry": 1},
                                      {"infantry": 2, "cavalry": 2}, {"infantry": 1, "cavalry": 1}],
                        enemy_vp__black=2)
    s = ENGINE.setup(3, {"board": board}, 1)
    assert len(s["prov"]["prussia"]["estates"]) == 3
    s["round"] = 2
    assert war.strength(s, "green") == 2 + s["box"]["green"]["cubes"]
    s["revealed"] = [{"royal": 0}, {"royal": 0}, {"royal": 0}]
    early.phase_royal_army(s, [])
    assert s["royal_army"]["infantry"] == 0 and s["royal_army"]["cavalry"] == 1
    s["prov"]["prussia"]["estates"] = [RED, RED, RED]
    assert scoring.estate_points(s)[RED] >= 2 + 5 + 9
    s["box"]["black"]["nobles"] = [0, 0, 3]
    before = s["vp"][RED]
    scoring.phase_victory_points(s, [])
    assert s["vp"][RED] - before >= 2
    view = ENGINE.view(s, RED)
    assert view["board"]["name"] == "test board"
    assert view["board"]["values"]["estate_vp"]["prussia"] == [2, 5, 9]
    assert view["board"]["values"]["enemy_strength"]["green"] == [1, 2, 3, 4]


def test_a_running_match_keeps_its_board():
    board = other_board(enemy_vp__black=2)
    s = ENGINE.setup(3, {"board": board}, 4)
    first = s["board"]
    rng = random.Random(4)
    for _ in range(300):
        if ENGINE.is_over(s):
            break
        seat = rng.choice(ENGINE.to_move(s))
        s = ENGINE.apply(s, seat, rng.choice(ENGINE.legal_actions(s, seat)))
        assert s["board"] == first
    assert s["board"]["hash"] != DEFAULT.hash


def test_the_bots_play_a_whole_game_on_another_board():
    board = other_board(estate_vp__ukraine=[1, 1, 1, 6, 6], raid_arrows__green=["prussia"], enemy_vp__green=6)
    bot = ENGINE.bots["heuristic"]
    final, _ = play_bots(ENGINE, [bot] * 3, seed=9, options={"board": board})
    assert ENGINE.is_over(final) and final["board"]["values"]["enemy_vp"]["green"] == 6


def test_blank_state_helper_still_plays_on_a_recorded_board():
    s = blank()
    estates(s, "lithuania", [RED])
    assert s["board"]["hash"] == DEFAULT.hash and canonical(s["board"]) == canonical(DEFAULT.to_json())


# The values the engine reads from module constants are the ones every valid board
# shares (pinned to the rulebook); the others it must read through board_of(state).


def _fully_pinned(key: str) -> bool:
    values = thaw(DEFAULT.values)

    def leaves(node, path):
        if isinstance(node, dict):
            for k, v in node.items():
                yield from leaves(v, path + [k])
        elif isinstance(node, list):
            for i, v in enumerate(node):
                yield from leaves(v, path + [i])
        else:
            yield path

    for path in leaves(values[key], [key]):
        changed = thaw(values)
        node = changed
        for part in path[:-1]:
            node = node[part]
        old = node[path[-1]]
        node[path[-1]] = (old + 1) if isinstance(old, int) else ("ukraine" if old != "ukraine" else "prussia")
        if not any(c.problems(changed) for c in board_rules.STATED):
            return False
    return True


def test_module_constants_hold_only_values_the_rulebook_pins():
    assert all(_fully_pinned(key) for key in PINNED)
    used = set()
    for path in ENGINE_DIR.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "BOARD"
                    and isinstance(node.slice, ast.Constant)):
                used.add(node.slice.value)
    assert used and [k for k in sorted(used) if not _fully_pinned(k)] == []
    assert not _fully_pinned("estate_vp") and not _fully_pinned("enemy_strength")


def test_the_golden_game_plays_on_the_default_board_recorded_in_its_state():
    """tests/engines/golden/gods_playground_3p_board.json (replayed by tests/engines/test_golden.py)
    pins the final state of a game on the recorded default board with fixed dice."""
    import json

    from tools.engine_golden import replay

    record = json.loads((Path(__file__).parents[1] / "golden" / "gods_playground_3p_board.json").read_text())
    assert record["options"]["board"] is None and len(record["options"]["dice"]) == 80
    state, _ = replay(record)
    assert state["over"] and state["board"] == DEFAULT.to_json()
