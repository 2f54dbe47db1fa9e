"""The board file (backend/engines/gods_playground/board.toml): its schema, the
rulebook's constraints (each a test citing its page) and the messages a bad file gets."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from backend.engines.gods_playground import board_rules
from backend.engines.gods_playground.board import DEFAULT, BoardError, board_from_json, parse_board, thaw

TEXT = (Path(board_rules.__file__).parent / "board.toml").read_text(encoding="utf-8")


def with_value(path: str, new: str, text: str = TEXT) -> str:
    """board.toml with the tagged value at a dotted path ("enemy_vp.yellow",
    "enemy_strength.orange[1]") replaced by the TOML literal `new`."""
    head, _, index = path.partition("[")
    section, _, key = head.rpartition(".")
    start = text.index(f"[{section}]\n") if section else 0
    line_start = text.index(f"\n{key} = ", start) + 1
    if not index:
        end = text.index("\n", line_start)
        old = text[line_start:end]
        tag = re.sub(r"value = (\[[^\]]*\]|\"[^\"]*\"|[^,]+),", f"value = {new},", old, count=1)
        return text[:line_start] + tag + text[end:]
    n = int(index.rstrip("]"))
    block_end = text.index("\n]", line_start)
    block = text[line_start:block_end]
    spots = list(re.finditer(r"value = (\[[^\]]*\]|\"[^\"]*\"|-?\d+)", block))
    m = spots[n]
    block = block[:m.start()] + f"value = {new}" + block[m.end():]
    return text[:line_start] + block + text[block_end:]


def refusal(text: str) -> str:
    with pytest.raises(BoardError) as caught:
        parse_board(text)
    return str(caught.value)


def test_the_default_board_loads_and_is_immutable():
    assert DEFAULT.name == "default"
    assert re.fullmatch(r"[0-9a-f]{64}", DEFAULT.hash)
    with pytest.raises(TypeError):
        DEFAULT.values["enemy_vp"]["orange"] = 1  # type: ignore[index]
    assert isinstance(DEFAULT.values["estate_vp"]["prussia"], tuple)


def test_loading_is_a_pure_function_of_the_text():
    again = parse_board(TEXT)
    assert again == parse_board(TEXT) and again.hash == DEFAULT.hash
    other = parse_board(with_value("enemy_vp.black", "4"))
    assert other.hash != DEFAULT.hash and DEFAULT.values["enemy_vp"]["black"] == 3


def test_the_hash_is_of_the_values_not_the_comments_or_sources():
    assert parse_board("# a comment\n" + TEXT.replace('"research"', '"printed"')).hash == DEFAULT.hash


def test_every_value_carries_a_source():
    assert all(re.fullmatch(r"rulebook p\.\d+|research|calibrated|provisional|printed", s)
               for s in DEFAULT.sources.values())
    message = refusal(TEXT.replace('cannon_bonus = { value = 1, source = "rulebook p.9" }', "cannon_bonus = 1"))
    assert "cannon_bonus = 1: needs its source" in message
    message = refusal(TEXT.replace('cannon_bonus = { value = 1, source = "rulebook p.9" }',
                                   'cannon_bonus = { value = 1, source = "a friend" }'))
    assert "cannon_bonus: source 'a friend'" in message


@pytest.mark.parametrize("path,new,expected", [
    ("enemy_vp.black", '"three"', "enemy_vp.black = 'three': must be a whole number"),
    ("enemy_vp.black", "true", "enemy_vp.black = true: must be a whole number"),
    ("enemy_vp.black", "-1", "enemy_vp.black = -1: must be from 0 to 20"),
    ("enemy_strength.green[2]", "31", "enemy_strength.green[2] = 31: must be from 0 to 30"),
    ("estate_vp.prussia", "[]", "estate_vp.prussia = []: must have 1 to 15 entries, not 0"),
    ("noble_tiles", "[0, 1]", "noble_tiles = [0, 1]: must have 12 entries, not 2"),
    ("raid_arrows.green", '["ukraine", "mazovia"]', "raid_arrows.green[1] = 'mazovia': must be one of prussia"),
    ("round_names[1]", '""', "round_names[1] = '': must be a text"),
])
def test_the_schema_refuses_a_bad_value_naming_it(path, new, expected):
    assert expected in refusal(with_value(path, new))


def test_every_province_and_enemy_must_be_present_and_nothing_else():
    text = TEXT.replace('purple = { value = 3, source = "provisional" }\n', "", 1)
    assert "enemy_vp.purple: missing" in refusal(text)
    text = TEXT.replace("[enemy_vp]\n", '[enemy_vp]\nmazovia = { value = 3, source = "provisional" }\n')
    assert "enemy_vp.mazovia: not a key of the board" in refusal(text)
    text = TEXT.replace("[estate_vp]\n", "[estate_vps]\n")
    message = refusal(text)
    assert "estate_vp: missing" in message and "estate_vps: not a key of the board" in message


def test_a_file_that_is_not_toml_or_has_no_name_is_refused():
    assert "not valid TOML" in refusal("name = ")
    assert "name = None" in refusal(TEXT.replace('name = "default"\n', ""))


# Every number the rulebook states: changing it is refused, naming the value and the page.
@pytest.mark.parametrize("constraint", board_rules.STATED, ids=lambda c: c.rule)
def test_each_stated_number_is_enforced_with_its_page(constraint):
    values = thaw(DEFAULT.values)
    assert constraint.problems(values) == []
    message = constraint.problems(_break(values, constraint))[0]
    assert re.match(r"[a-z_0-9]+(\.[a-z_0-9]+|\[\d\])* = ", message), message
    assert message.endswith(f"(rulebook {constraint.page})")


def _break(values: dict, constraint) -> dict:
    """A copy of the default values with the one value this constraint pins changed."""
    for path in _leaf_paths(values):
        changed = _bump(values, path)
        if changed is not None and constraint.problems(changed):
            return changed
    raise AssertionError(f"nothing breaks {constraint.rule}")


def _leaf_paths(node, path=()):
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _leaf_paths(v, path + (k,))
    elif isinstance(node, list) and node and isinstance(node[0], (int, str)) and not isinstance(node[0], bool):
        yield path
        for i in range(len(node)):
            yield path + (i,)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _leaf_paths(v, path + (i,))
    else:
        yield path


def _bump(values: dict, path: tuple):
    copy = thaw(values)
    node = copy
    for key in path[:-1]:
        node = node[key]
    old = node[path[-1]]
    if isinstance(old, str):
        node[path[-1]] = "ukraine" if old != "ukraine" else "prussia"
        return copy
    if isinstance(old, bool) or not isinstance(old, (int, list)):
        return None
    node[path[-1]] = old + 1 if isinstance(old, int) else old[::-1] if len(set(old)) > 1 else old + old[:1]
    return copy


# What the examples imply (board_rules.DERIVED), one test each.


def test_turks_round2_base_is_at_most_5_p11():
    """p.11, example 1 (round 2): "A törökök dobozán pont annyi lengyel nemeskocka van, amennyi
    a törökök ereje, így a törökök nem támadják meg Kis-Lengyelországot"."""
    assert DEFAULT.values["enemy_strength"]["orange"][1] <= 5
    message = refusal(with_value("enemy_strength.orange[1]", "8"))
    assert "enemy_strength.orange[1] = 8: the Turks' round-2 base strength is at most 5" in message
    assert "(rulebook p.11)" in message
    parse_board(with_value("enemy_strength.orange[1]", "5"))


def test_tatars_vp_split_in_a_two_way_tie_gives_one_each_p14():
    """p.14: "A tatároknál a kék és a fehér játékos között döntetlen az állás az első helyen,
    így mindketten kapnak egy győzelmi pontot"."""
    for vp in (2, 3):
        parse_board(with_value("enemy_vp.yellow", str(vp)))
    for vp in (1, 4):
        message = refusal(with_value("enemy_vp.yellow", str(vp)))
        assert f"enemy_vp.yellow = {vp}: the Tatars' VP are 2 or 3" in message and "(rulebook p.14)" in message


def test_lithuania_row_fits_the_end_game_example_p15():
    """p.15: "A vörös játékos első litvániai birtokáért 9 győzelmi pontot kap, mivel van ott
    városa, a másodikért 4-et ... A kék játékos 10, a fehér 4 győzelmi pontot kap"."""
    parse_board(with_value("estate_vp.lithuania", "[1, 2, 3, 3, 4, 4, 4]"))
    message = refusal(with_value("estate_vp.lithuania", "[1, 1, 2, 2, 3, 3, 3]"))
    assert "estate_vp.lithuania = [1, 1, 2, 2, 3, 3, 3]: Lithuania's row must fit" in message
    assert "(rulebook p.15)" in message


@pytest.mark.parametrize("path,new,words", [
    ("estate_vp.ukraine", "[2, 1, 3]", "estate rows run from the least valuable"),
    ("raid_arrows.green", '["lithuania", "ukraine"]', "raid arrows lead out of the enemy's own province"),
    ("raid_arrows.green", '["ukraine", "ukraine"]', "each to a different province"),
    ("enemy_province.black", '"ukraine"', "the black enemy strikes Prussia"),
    ("royal_table[2]", "[4, 0, 1, 0]", "more nobles never give fewer troops"),
    ("royal_table[0]", "[1, 0, 0, 0]", "royal table rows start at sum 0"),
])
def test_the_consistency_rules_refuse_a_board_the_engine_cannot_play(path, new, words):
    assert words in refusal(with_value(path, new))


def test_a_stored_board_is_checked_like_a_file():
    stored = DEFAULT.to_json()
    assert board_from_json(stored) == DEFAULT.__class__(DEFAULT.name, DEFAULT.hash, DEFAULT.values,
                                                          board_from_json(stored).sources)
    stored["values"]["enemy_vp"]["yellow"] = 7
    with pytest.raises(BoardError, match=r"enemy_vp.yellow = 7: .*\(rulebook p.14\)"):
        board_from_json(stored)


# The calibrated default board (backend/engines/gods_playground/calibration.md): the soft
# bounds of the examples, which a printed board need not keep exactly, hold for it too.


def test_the_calibrated_strengths_keep_the_examples_soft_bounds_p9_p10():
    """K8, p.10 (example 1, round 2: "1, 3, 5 és 6" adds one black cube) and p.13 (five
    Swedish cubes in Prussia after the invasion, nobody having hit their box): the black
    round-2 base is at most 4.  K9, p.9: "az első eltávolítja a török ellenségkockát a
    tartományról" in round 2's campaigns, so the Turks could invade in round 1."""
    strength = DEFAULT.values["enemy_strength"]
    assert strength["black"][1] + 1 <= 5
    assert strength["orange"][0] >= 1
    # The research file's shape (not the rulebook's numbers): the Teutonic Knights are a
    # main round-1 threat, Russia grows round by round (p.2), the Turks peak in round 3.
    assert strength["green"] == tuple(sorted(strength["green"]))
    assert strength["orange"][2] == max(strength["orange"])
    assert strength["black"][0] == max(s[0] for s in strength.values())


def test_the_calibrated_values_are_tagged_and_listed_in_calibration_md():
    doc = (Path(__file__).parents[3] / "backend" / "engines" / "gods_playground" / "calibration.md").read_text(
        encoding="utf-8")
    calibrated = [path for path, source in DEFAULT.sources.items() if source == "calibrated"]
    assert {p.split("[")[0] for p in calibrated} == {
        "enemy_strength.black", "enemy_strength.green", "enemy_strength.yellow", "enemy_strength.orange",
        "enemy_strength.purple", "estate_vp.prussia", "estate_vp.ukraine", "estate_vp.little_poland",
        "estate_vp.great_poland"}
    section = doc[doc.index("## Result"):doc.index("## Why the estate points stay low")]
    for path in calibrated:
        assert path.split("[")[0] in section, path
