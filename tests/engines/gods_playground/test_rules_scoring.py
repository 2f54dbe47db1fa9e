"""Phases 14-16 and the game end against the rulebook (p.13-15)."""

from backend.engines.gods_playground import ENGINE, scoring

from .helpers import BLUE, RED, WHITE, blank, enemy, estates, nobles


def test_estates_example_p13_p14():
    """p.13-14 (continuing the Swedish raid): Prussia's difference is three, three estates
    go; in Lithuania the noble cubes outnumber the enemy, still one estate goes; Great Poland's
    difference is one, one estate. Income drops in those three; Ukraine was invaded but the
    Tatars were beaten, so it stays; no enemy came to Little Poland, so it rises."""
    s = blank(round_=2)
    estates(s, "prussia", [WHITE, BLUE, RED, WHITE, BLUE])
    s["prov"]["prussia"]["towns"][3] = True
    s["prov"]["prussia"]["stewards"][4] = True
    s["stewards_left"] -= 1
    enemy(s, "prussia", black=4)
    nobles(s, "prussia", [1, 0, 0])
    estates(s, "lithuania", [BLUE, RED])
    enemy(s, "lithuania", black=1)
    nobles(s, "lithuania", [0, 2, 0])
    estates(s, "great_poland", [RED, RED, WHITE])
    enemy(s, "great_poland", black=4)
    nobles(s, "great_poland", [1, 1, 1])
    for p in ("prussia", "lithuania", "great_poland", "ukraine"):
        s["prov"][p]["invaded"] = True
    scoring.phase_estates(s, [])
    assert s["prov"]["prussia"]["estates"][:5] == [WHITE, BLUE, None, None, None]
    assert not any(s["prov"]["prussia"]["towns"]) and s["stewards_left"] == 8
    assert s["prov"]["lithuania"]["estates"][:2] == [BLUE, None]
    assert s["prov"]["great_poland"]["estates"][:3] == [RED, RED, None]
    incomes = {p: s["prov"][p]["income"] for p in s["prov"]}
    assert incomes == {"prussia": 2, "lithuania": 2, "ukraine": 3, "little_poland": 4, "great_poland": 2}


def test_income_stays_between_1_and_5_p13():
    s = blank(round_=4)
    s["prov"]["little_poland"]["income"] = 5
    s["prov"]["prussia"]["income"] = 1
    enemy(s, "prussia", black=1)
    scoring.phase_estates(s, [])
    assert s["prov"]["little_poland"]["income"] == 5 and s["prov"]["prussia"]["income"] == 1


def test_great_poland_under_habsburg_influence_p13():
    """p.13: rounds 1-3, Turks not on the Habsburg box: Great Poland's income rises only with
    at least two noble cubes there, falls with a marker there, else stays; markers beyond the
    noble cubes destroy estates. With Turks on the Habsburg box the normal rule applies."""
    s = blank(round_=1)
    nobles(s, "great_poland", [1, 1, 0])
    scoring.phase_estates(s, [])
    assert s["prov"]["great_poland"]["income"] == 4
    s = blank(round_=1)
    nobles(s, "great_poland", [1, 0, 0])
    scoring.phase_estates(s, [])
    assert s["prov"]["great_poland"]["income"] == 3
    s = blank(round_=2)
    estates(s, "great_poland", [RED, BLUE, WHITE])
    s["prov"]["great_poland"]["influence"] = 2
    scoring.phase_estates(s, [])
    assert s["prov"]["great_poland"]["income"] == 2
    assert s["prov"]["great_poland"]["estates"][:3] == [RED, None, None]
    s = blank(round_=3)
    s["turks_on_habsburg"] = 2
    scoring.phase_estates(s, [])
    assert s["prov"]["great_poland"]["income"] == 4


def test_victory_points_example_p14():
    """p.14: red has the most cubes on the Turkish box: 5 VP. Blue and white tie on the
    Tatar box and share its VP, one each (the fraction is lost). Each Sejm disc gives 2 VP;
    every 5 talers buy 1 VP, at most 4 talers stay."""
    s = blank()
    s["box"]["orange"]["nobles"] = [1, 2, 3]
    s["box"]["yellow"]["nobles"] = [2, 2, 1]
    s["sejm"]["prussia"], s["sejm"]["ukraine"] = BLUE, BLUE
    s["money"] = [14, 4, 5]
    scoring.phase_victory_points(s, [])
    assert s["vp"] == [1 + 2, 1 + 4, 5 + 1]
    assert s["money"] == [4, 4, 0]


def test_every_victory_point_scored_is_told_in_the_log_p14():
    """p.14 "A Szejmen lévő minden korongért két győzelmi pont jár a tulajdonosnak": the
    Sejm's VP are an event of their own (the audit saw "4 VP" in the log while the score
    rose by 8), so the events of the phase add up to each seat's gain."""
    s = blank()
    s["box"]["orange"]["nobles"] = [0, 0, 3]
    s["sejm"]["prussia"], s["sejm"]["ukraine"], s["sejm"]["lithuania"] = BLUE, BLUE, RED
    s["money"] = [3, 4, 12]
    ev = []
    scoring.phase_victory_points(s, ev)
    told = [0, 0, 0]
    for e in ev:
        told[e["seat"]] += e["params"]["vp"]
    assert told == s["vp"] == [0, 4, 5 + 2 + 2]
    sejm = [e for e in ev if e["kind"] == "sejm_vp"]
    assert [(e["seat"], e["params"]["discs"], e["params"]["vp"]) for e in sejm] == [(BLUE, 2, 4), (RED, 1, 2)]
    assert all(e["to"] is None and e["text"] for e in sejm)


def test_the_kings_share_is_lost_p14():
    """p.14: if the king's (royal) cubes are the most on a box nobody scores it; in a tie
    with the king the VP are split and the king's share is lost."""
    assert scoring.box_vp([2, 1, 0], 3, 5) == [0, 0, 0]
    assert scoring.box_vp([2, 1, 0], 2, 5) == [2, 0, 0]
    assert scoring.box_vp([2, 2, 0], 2, 5) == [1, 1, 0]
    assert scoring.box_vp([0, 0, 0], 0, 5) == [0, 0, 0]


def test_end_of_round_example_p14():
    """p.14: enemy boxes, the Sejm and the armies are cleared; in a province only as many
    enemy cubes stay as there are noble cubes: Prussia keeps 1 Swede, Great Poland 3,
    Lithuania 1. At most two Turkish cubes stay on the Habsburg box. Noble cubes stay."""
    s = blank(round_=2)
    enemy(s, "prussia", black=5)
    nobles(s, "prussia", [1, 0, 0])
    enemy(s, "great_poland", black=4)
    nobles(s, "great_poland", [1, 1, 1])
    enemy(s, "lithuania", black=1)
    nobles(s, "lithuania", [0, 2, 0])
    s["box"]["black"] = {"cubes": 3, "nobles": [1, 2, 0], "royal": 2}
    s["sejm"]["ukraine"] = RED
    s["prov"]["ukraine"]["units"][RED] = [2, 1, 1]
    s["cossacks"] = {"box": 0, "ukraine": 1, "tatars": 1}
    s["treaty"] = "green"
    s["turks_on_habsburg"] = 5
    s["hand"] = [[], [], []]
    scoring.phase_end_of_round(s, [])
    assert [s["prov"][p]["enemy"]["black"] for p in ("prussia", "great_poland", "lithuania")] == [1, 3, 1]
    assert s["box"]["black"] == {"cubes": 0, "nobles": [0, 0, 0], "royal": 0}
    assert s["sejm"]["ukraine"] is None and s["prov"]["ukraine"]["units"][RED] == [0, 0, 0]
    assert s["cossacks"] == {"box": 2, "ukraine": 0, "tatars": 0} and s["treaty"] is None
    assert s["turks_on_habsburg"] == 2
    assert s["prov"]["great_poland"]["nobles"] == [1, 1, 1]
    assert s["round"] == 3 and all(len(h) == 12 for h in s["hand"])  # all twelve nobles back after round 2


def test_round_four_turks_hold_the_habsburg_box_p10():
    """p.10, p.16: Turkish cubes on the Habsburg box at the start of round 4 make it a Turkish
    box: the Turks' base strength is 10, the Habsburg box's 10 plus its garrison, less the
    two garrison cubes that never attack (D12)."""
    s = blank(round_=3)
    s["turks_on_habsburg"] = 2
    scoring.phase_end_of_round(s, [])
    assert s["round"] == 4 and s["turks_hold_habsburg"]
    from backend.engines.gods_playground.war import strength

    assert strength(s, "orange") == 10 and strength(s, "purple") == 10 + 2 - 2


def test_end_game_estates_example_p15():
    """p.15: red's first Lithuanian estate has a town and scores 9, his second 4: 13.
    Blue scores 10 and white 4 for their Lithuanian estates. Stewards change nothing."""
    s = blank(round_=4)
    estates(s, "lithuania", [BLUE, BLUE, BLUE, RED, BLUE, RED, WHITE])
    s["prov"]["lithuania"]["towns"][3] = True
    s["prov"]["lithuania"]["stewards"][6] = True
    assert scoring.estate_points(s) == [4, 10, 13]


def test_game_end_and_tie_breaks_p15():
    """p.15: most VP wins; ties go to more noble cubes on the board, then more money, then
    the player nearer the start player in turn order."""
    s = blank(round_=4, start=RED)
    s["vp"] = [10, 10, 10]
    assert scoring.ranking(s) == [RED, WHITE, BLUE]
    s["money"] = [0, 3, 0]
    assert scoring.ranking(s)[0] == BLUE
    nobles(s, "ukraine", [1, 0, 0])
    assert scoring.ranking(s)[0] == WHITE
    s["vp"] = [10, 10, 11]
    assert scoring.ranking(s)[0] == RED
    estates(s, "ukraine", [BLUE])
    s["phase"] = "end_of_round"
    scoring.phase_end_of_round(s, [])
    assert s["over"] and s["vp"] == [10, 11, 11]  # blue's estate scored 1
    # Blue and red tie on VP and on cubes (none); blue has more money.
    assert ENGINE.result(s)["winners"] == [BLUE] and ENGINE.to_move(s) == []
