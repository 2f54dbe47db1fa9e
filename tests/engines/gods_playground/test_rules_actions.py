"""Phase 8 special actions and phase 9 recruitment, against the rulebook (p.7-8)."""

import pytest

from backend.engines import IllegalAction
from backend.engines.gods_playground import ENGINE, actions

from .helpers import BLUE, RED, WHITE, act, blank, enemy, estates, nobles, units


def special(round_=1, start=WHITE, dice=None):
    s = blank(round_=round_, start=start, dice=dice)
    s["phase"] = "special"
    actions.phase_special(s, [])
    return s


def test_two_rounds_of_special_actions_in_player_order_p7():
    """p.7: start player first, then clockwise; then the whole round once more."""
    s = special(start=BLUE)
    for p in ("prussia", "lithuania"):
        nobles(s, p, [3, 3, 3])
    order = []
    for _ in range(6):
        (seat,) = ENGINE.to_move(s)
        order.append(seat)
        s = ENGINE.apply(s, seat, {"type": "danzig"})
    assert order == [BLUE, RED, WHITE, BLUE, RED, WHITE]
    assert s["phase"] != "special"


def test_diplomacy_example_p7():
    """p.7: round 1, red makes a treaty with the Russians: a disc off the Sejm, a cube off
    Lithuania, rolls 5 and pays 7 talers."""
    s = special(start=RED, dice=[5])
    nobles(s, "lithuania", [0, 0, 2])
    s["sejm"]["prussia"] = RED  # any of red's Sejm discs will do, not only Lithuania's
    s = ENGINE.apply(s, RED, {"type": "diplomacy", "enemy": "green", "disc": "prussia"})
    assert s["treaty"] == "green"
    assert s["money"][RED] == 10 - 7
    assert s["sejm"]["prussia"] is None and s["prov"]["lithuania"]["nobles"][RED] == 1


def test_diplomacy_limits_p7():
    """p.7: never with the Turks; the Habsburgs only in round 4 without Turkish cubes on
    their box; one treaty per round; a player who cannot pay loses his money and no treaty
    is made, so someone else may try."""
    s = special(start=RED, dice=[6])
    for p in ("lithuania", "little_poland", "great_poland"):
        nobles(s, p, [1, 1, 1])
    s["sejm"]["prussia"], s["sejm"]["ukraine"] = RED, WHITE
    offered = {a["enemy"] for a in ENGINE.legal_actions(s, RED) if a["type"] == "diplomacy"}
    assert offered == {"green"}
    s["money"][RED] = 5
    s = ENGINE.apply(s, RED, {"type": "diplomacy", "enemy": "green", "disc": "prussia"})
    assert s["treaty"] is None and s["money"][RED] == 0
    assert {"type": "diplomacy", "enemy": "green", "disc": "ukraine"} in ENGINE.legal_actions(s, WHITE)
    r4 = special(round_=4)
    nobles(r4, "great_poland", [1, 0, 0])
    r4["sejm"]["prussia"] = WHITE
    assert {"type": "diplomacy", "enemy": "purple", "disc": "prussia"} in ENGINE.legal_actions(r4, WHITE)
    r4["turks_on_habsburg"] = 1
    assert {"type": "diplomacy", "enemy": "purple", "disc": "prussia"} not in ENGINE.legal_actions(r4, WHITE)


def test_move_up_to_two_cubes_p7():
    s = special()
    nobles(s, "prussia", [2, 0, 0])
    s = ENGINE.apply(s, WHITE, {"type": "move_cube", "from": "prussia", "to": "ukraine"})
    assert ENGINE.to_move(s) == [WHITE]  # a second cube, or stop
    assert {"type": "stop"} in ENGINE.legal_actions(s, WHITE)
    s = ENGINE.apply(s, WHITE, {"type": "move_cube", "from": "prussia", "to": "lithuania"})
    assert [s["prov"][p]["nobles"][WHITE] for p in ("prussia", "lithuania", "ukraine")] == [0, 1, 1]
    # Blue and red hold no cubes, so only passing was open to them: white acts again.
    assert s["pending"]["i"] == 3 and not s["pending"]["second"] and ENGINE.to_move(s) == [WHITE]


def test_liberum_veto_clears_the_sejm_p7():
    s = special()
    nobles(s, "ukraine", [1, 0, 0])
    s["sejm"].update({"prussia": WHITE, "lithuania": BLUE, "ukraine": RED})
    s = ENGINE.apply(s, WHITE, {"type": "liberum_veto", "province": "ukraine"})
    assert all(v is None for v in s["sejm"].values()) and s["prov"]["ukraine"]["nobles"][WHITE] == 0


def test_right_of_arms_example_p8():
    """p.8: round 4, blue has the fewest VP; Lithuania: blue 5 cubes, red 4, white 6.
    Blue removes two cubes and takes red's least valuable estate there; white's estate
    cannot be taken as white has more cubes. A steward goes back to its box."""
    s = special(round_=4, start=BLUE)
    s["vp"] = [20, 10, 15]
    nobles(s, "lithuania", [6, 5, 4])
    estates(s, "lithuania", [WHITE, RED, RED])
    s["prov"]["lithuania"]["stewards"][1] = True
    s["stewards_left"] -= 1
    legal = [a for a in ENGINE.legal_actions(s, BLUE) if a["type"] == "right_of_arms"]
    assert legal == [{"type": "right_of_arms", "province": "lithuania", "target": RED}]
    s = ENGINE.apply(s, BLUE, legal[0])
    assert s["prov"]["lithuania"]["estates"][:3] == [WHITE, BLUE, RED]
    assert s["prov"]["lithuania"]["stewards"][1] is False and s["stewards_left"] == 8
    assert s["prov"]["lithuania"]["nobles"] == [6, 3, 4]


def test_right_of_arms_only_for_the_strict_last_from_round_three_p8():
    s = special(round_=4, start=BLUE)
    nobles(s, "lithuania", [0, 5, 1])
    estates(s, "lithuania", [RED])
    s["vp"] = [10, 10, 15]  # blue shares last place
    assert not [a for a in ENGINE.legal_actions(s, BLUE) if a["type"] == "right_of_arms"]
    s["vp"] = [11, 10, 15]
    assert [a for a in ENGINE.legal_actions(s, BLUE) if a["type"] == "right_of_arms"]
    s["round"] = 2
    assert not [a for a in ENGINE.legal_actions(s, BLUE) if a["type"] == "right_of_arms"]
    s["round"] = 4
    s["prov"]["lithuania"]["towns"][0] = True  # a town estate cannot be taken
    assert not [a for a in ENGINE.legal_actions(s, BLUE) if a["type"] == "right_of_arms"]


def test_jesuit_schools_p8():
    """p.8: a cube and 2 talers per province for 1 VP each; all five give 7 VP; not in round 1."""
    s = special(round_=2)
    for p in ("prussia", "lithuania", "ukraine", "little_poland", "great_poland"):
        nobles(s, p, [1, 0, 0])
    s["money"][WHITE] = 10
    assert not [a for a in ENGINE.legal_actions(special(round_=1), WHITE) if a["type"] == "jesuits"]
    everything = {"type": "jesuits", "provinces": ["prussia", "lithuania", "ukraine", "little_poland", "great_poland"]}
    s2 = act(s, WHITE, everything)
    assert s2["vp"][WHITE] == 7 and s2["money"][WHITE] == 0
    s3 = act(s, WHITE, {"type": "jesuits", "provinces": ["prussia", "lithuania", "ukraine"]})
    assert s3["vp"][WHITE] == 3 and s3["money"][WHITE] == 4
    s["money"][WHITE] = 9  # four schools at most
    assert everything not in ENGINE.legal_actions(s, WHITE)


def test_town_once_per_round_from_round_three_p8():
    s = special(round_=3)
    nobles(s, "ukraine", [4, 0, 0])
    estates(s, "ukraine", [BLUE, WHITE, WHITE])
    assert not [a for a in ENGINE.legal_actions(special(round_=2), WHITE) if a["type"] == "town"]
    s = ENGINE.apply(s, WHITE, {"type": "town", "province": "ukraine", "space": 2})
    assert s["prov"]["ukraine"]["towns"] == [False, False, True] + [False] * 4
    assert s["towns_left"] == 1 and s["prov"]["ukraine"]["nobles"][WHITE] == 2
    assert ENGINE.to_move(s) == [WHITE] and s["pending"]["i"] == 3  # the others could only pass
    assert not [a for a in ENGINE.legal_actions(s, WHITE) if a["type"] == "town"]


def test_steward_and_danzig_p7():
    """p.7: a steward goes under one of your estates (one per estate); Danzig pays twice the
    income of all Prussian estates, whoever owns them."""
    s = special()
    nobles(s, "prussia", [2, 0, 0])
    estates(s, "prussia", [BLUE, WHITE, RED])
    s["prov"]["prussia"]["income"] = 4
    assert [a for a in ENGINE.legal_actions(s, WHITE) if a["type"] == "steward"] == [
        {"type": "steward", "province": "prussia", "space": 1}]
    s = ENGINE.apply(s, WHITE, {"type": "steward", "province": "prussia", "space": 1})
    assert s["stewards_left"] == 7 and ENGINE.to_move(s) == [WHITE]
    s = act(s, WHITE, {"type": "danzig"})
    assert s["money"][WHITE] == 10 + 2 * (4 * 3 + 2)


def recruitment(round_=1, start=BLUE):
    s = blank(round_=round_, start=start)
    s["phase"] = "recruitment"
    actions.phase_recruitment(s, [])
    return s


def test_recruitment_example_p8():
    """p.8: blue removes a cube from Ukraine and buys two cavalry and an infantry for 10;
    white removes a cube there too and buys two infantry, a cavalry and both Cossacks for 12;
    red opens Little Poland, where a Turkish cube stands, and pays 10 instead of 20 for three
    infantry, two cavalry and a cannon."""
    s = recruitment(round_=2, start=BLUE)
    s["money"] = [20, 20, 20]
    nobles(s, "ukraine", [1, 1, 0])
    nobles(s, "little_poland", [0, 0, 1])
    enemy(s, "little_poland", orange=1)
    buys = {
        BLUE: [("ukraine", "cavalry"), ("ukraine", "cavalry"), ("ukraine", "infantry")],
        WHITE: [("ukraine", "infantry"), ("ukraine", "infantry"), ("ukraine", "cavalry"),
                ("ukraine", "cossack"), ("ukraine", "cossack")],
        RED: [("little_poland", u) for u in ("infantry", "infantry", "infantry", "cavalry", "cavalry", "cannon")],
    }
    while s["pending"] and s["pending"]["kind"] == "recruitment":
        (seat,) = ENGINE.to_move(s)
        if buys[seat]:
            p, u = buys[seat].pop(0)
            s = act(s, seat, {"type": "recruit", "province": p, "unit": u})
        else:
            s = act(s, seat, {"type": "pass"})
    assert s["money"] == [20 - 12, 20 - 10, 20 - 10]
    assert s["prov"]["ukraine"]["units"][BLUE] == [1, 2, 0]
    assert s["prov"]["ukraine"]["units"][WHITE] == [2, 1, 0]
    assert s["prov"]["little_poland"]["units"][RED] == [3, 2, 1]
    assert s["cossacks"] == {"box": 0, "ukraine": 2, "tatars": 0}
    # One cube opened each province, whatever the number of units.
    assert s["prov"]["ukraine"]["nobles"] == [0, 0, 0] and s["prov"]["little_poland"]["nobles"] == [0, 0, 0]


def test_recruitment_limits_p8():
    """p.8: 4 infantry, 3 cavalry, 1 cannon per player; no cannon in round 1; a cube is
    needed to open a province; Cossacks only in Ukraine; unhired Cossacks join the Tatars."""
    s = recruitment(round_=1, start=WHITE)
    s["money"] = [100, 0, 0]
    nobles(s, "prussia", [1, 0, 0])
    legal = ENGINE.legal_actions(s, WHITE)
    assert {(a.get("province"), a.get("unit")) for a in legal} == {
        ("prussia", "infantry"), ("prussia", "cavalry"), (None, None)}
    units(s, "ukraine", WHITE, infantry=4)
    legal = ENGINE.legal_actions(s, WHITE)
    assert {"type": "recruit", "province": "prussia", "unit": "infantry"} not in legal
    with pytest.raises(IllegalAction):
        ENGINE.apply(s, WHITE, {"type": "recruit", "province": "ukraine", "unit": "cavalry"})
    s = act(s, WHITE, {"type": "pass"})
    s = act(s, BLUE, {"type": "pass"})
    s = act(s, RED, {"type": "pass"})
    assert s["pending"] is None and s["cossacks"] == {"box": 0, "ukraine": 0, "tatars": 2}
