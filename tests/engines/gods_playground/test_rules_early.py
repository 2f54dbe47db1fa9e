"""Phases 1-7, each checked against the rulebook's worked example."""

import pytest

from backend.engines import IllegalAction
from backend.engines.gods_playground import ENGINE, early
from backend.engines.gods_playground.flow import settle

from .helpers import BLUE, RED, WHITE, blank, estates, nobles


def test_income_example_p4():
    """p.4: Lithuania's marker on 3; red has two estates there, one with a steward, so 8;
    white and blue get 3 each for theirs. The minimum income is 10."""
    s = blank()
    for p in ("prussia", "ukraine", "little_poland", "great_poland"):
        s["prov"][p]["income"] = 5
    estates(s, "lithuania", [RED, RED, WHITE, BLUE])
    s["prov"]["lithuania"]["stewards"][1] = True
    estates(s, "ukraine", [RED, WHITE, WHITE])
    assert early.income_of(s, RED) == 8 + 5
    assert early.income_of(s, WHITE) == 3 + 10
    assert early.income_of(s, BLUE) == 10  # 3 is below the minimum of 10
    ev = []
    early.phase_income(s, ev)
    assert s["money"] == [10 + 13, 10 + 10, 10 + 13]


def royal_tiles(s, white, blue, red):
    s["revealed"] = [{"royal": white}, {"royal": blue}, {"royal": red}]


def test_royal_army_example_p5_first_round():
    """p.5: red and blue put 3s, white a 2 on the royal box: red and blue bid, red wins.
    The sum 8 adds two infantry and one cavalry to the court troops (2+2 in round 1);
    the cannon the table gives is not used in round 1."""
    s = blank(round_=1, start=WHITE)
    royal_tiles(s, 2, 3, 3)
    s["phase"] = "king"
    ev = []
    early.phase_king(s, ev)
    assert s["pending"]["kind"] == "bid" and sorted(s["pending"]["seats"]) == [BLUE, RED]
    s = ENGINE.apply(s, RED, {"type": "bid", "amount": 4})
    s = ENGINE.apply(s, BLUE, {"type": "bid", "amount": 2})
    assert s["start"] == RED
    assert s["money"][RED] == 6 and s["money"][BLUE] == 8  # every bid goes to the bank
    assert s["royal_army"] == {"infantry": 4, "cavalry": 3, "cannon": 0}


def test_royal_army_cannon_from_round_two_and_limits_p5():
    """p.5: from round 2 the cannon is available; the royal army is at most 4/4/1."""
    s = blank(round_=2)
    royal_tiles(s, 5, 5, 5)
    early.phase_royal_army(s, [])
    assert s["royal_army"] == {"infantry": 4, "cavalry": 4, "cannon": 1}
    royal_tiles(s, 3, 3, 2)
    early.phase_royal_army(s, [])
    assert s["royal_army"] == {"infantry": 4, "cavalry": 3, "cannon": 1}


def test_king_is_the_single_highest_royal_tile_p5():
    s = blank(start=WHITE)
    royal_tiles(s, 1, 5, 4)
    early.phase_king(s, [])
    assert s["start"] == BLUE and s["pending"] is None


def test_bidding_impossible_keeps_the_marker_p5():
    """p.5: if nobody in the tie can bid, the start player marker stays put."""
    s = blank(start=WHITE)
    s["money"] = [5, 0, 0]
    royal_tiles(s, 1, 5, 5)
    early.phase_king(s, [])
    assert s["start"] == WHITE and s["pending"] is None


def test_events_example_p6():
    """p.6: two 2s, a 4 and a 6: two green cubes on the Russian box, one orange on the
    Turkish box, the 6 does nothing."""
    s = blank(dice=[2, 4, 2, 6])
    early.phase_events(s, [])
    assert {c: b["cubes"] for c, b in s["box"].items()} == {"black": 0, "green": 2, "yellow": 0, "orange": 1, "purple": 0}
    assert s["influence"] == 0


def test_events_fives_add_habsburg_influence_then_turks_in_round_four_p6_p10():
    """p.10 (example 1): a 5 adds Habsburg influence; p.6: in round 4 with Turkish cubes
    on the Habsburg box each 5 adds a Turkish cube there instead."""
    s = blank(round_=2, dice=[5, 5, 1, 3])
    early.phase_events(s, [])
    assert s["influence"] == 2 and s["box"]["black"]["cubes"] == 1 and s["box"]["yellow"]["cubes"] == 1
    s = blank(round_=4, dice=[5, 5, 6, 6])
    s["turks_on_habsburg"], s["turks_hold_habsburg"] = 2, True
    early.phase_events(s, [])
    assert s["turks_on_habsburg"] == 4 and s["influence"] == 0 and s["box"]["purple"]["cubes"] == 0
    s = blank(round_=4, dice=[5, 6, 6, 6])
    early.phase_events(s, [])
    assert s["box"]["purple"]["cubes"] == 1


def test_elections_example_p6():
    """p.6: white won Prussia; in Lithuania red has clearly the most cubes, removes one
    and puts a disc on the Sejm; had red only two like blue, nobody would be elected."""
    s = blank()
    nobles(s, "prussia", [3, 1, 0])
    nobles(s, "lithuania", [1, 2, 3])
    nobles(s, "ukraine", [0, 2, 2])
    early.phase_elections(s, [])
    assert s["sejm"]["prussia"] == WHITE and s["sejm"]["lithuania"] == RED and s["sejm"]["ukraine"] is None
    assert s["prov"]["lithuania"]["nobles"] == [1, 2, 2]
    assert s["prov"]["prussia"]["nobles"] == [2, 1, 0]
    assert s["prov"]["ukraine"]["nobles"] == [0, 2, 2]


def test_estate_purchase_example_p6():
    """p.6: round 1, red starts and buys in Ukraine for one cube; white buys elsewhere;
    blue buys in Ukraine for one cube; red passes for good; blue buys again for two."""
    s = blank(round_=1, start=RED)
    nobles(s, "ukraine", [0, 4, 3])
    nobles(s, "prussia", [2, 0, 0])
    s["phase"] = "estate_purchase"
    early.phase_estate_purchase(s, [])
    s = ENGINE.apply(s, RED, {"type": "buy_estate", "province": "ukraine"})
    s = ENGINE.apply(s, WHITE, {"type": "buy_estate", "province": "prussia"})
    s = ENGINE.apply(s, BLUE, {"type": "buy_estate", "province": "ukraine"})
    s = ENGINE.apply(s, RED, {"type": "pass"})
    # White has one cube left in Prussia, below the two a second estate costs: passed for it.
    assert ENGINE.to_move(s) == [BLUE]
    s = ENGINE.apply(s, BLUE, {"type": "buy_estate", "province": "ukraine"})
    assert s["prov"]["ukraine"]["estates"][:3] == [RED, BLUE, BLUE]
    assert s["prov"]["ukraine"]["nobles"] == [0, 1, 2]
    assert s["prov"]["prussia"]["estates"][0] == WHITE and s["prov"]["prussia"]["nobles"] == [1, 0, 0]
    # Blue's last cube cannot pay for a third estate (2 cubes): the phase is over.
    assert s["phase"] != "estate_purchase"


def test_a_pass_in_estate_purchase_is_final_p6():
    s = blank(round_=1, start=RED)
    nobles(s, "ukraine", [0, 0, 5])
    nobles(s, "prussia", [5, 0, 0])
    s["phase"] = "estate_purchase"
    early.phase_estate_purchase(s, [])
    s = ENGINE.apply(s, RED, {"type": "pass"})
    assert ENGINE.to_move(s) == [WHITE]
    s = ENGINE.apply(s, WHITE, {"type": "buy_estate", "province": "prussia"})
    assert ENGINE.to_move(s) == [WHITE]  # red passed for good, blue has no cubes
    with pytest.raises(IllegalAction):
        ENGINE.apply(s, RED, {"type": "buy_estate", "province": "ukraine"})


def test_short_of_cubes_the_player_chooses_where_fewer_go_p5():
    """p.5: only 20 cubes; a player who cannot place them all decides where fewer go."""
    s = blank()
    nobles(s, "prussia", [18, 0, 0])
    s["secret"] = [
        {"prussia": 0, "lithuania": 1, "ukraine": 2, "little_poland": 0, "great_poland": 1, "royal": 5},
        {"prussia": 0, "lithuania": 1, "ukraine": 1, "little_poland": 0, "great_poland": 2, "royal": 2},
        {"prussia": 0, "lithuania": 1, "ukraine": 1, "little_poland": 3, "great_poland": 0, "royal": 2},
    ]
    s["phase"], s["phase_entered"] = "nobles", True
    ev = []
    early.reveal_nobles(s, ev)
    assert s["pending"]["kind"] == "shortage" and ENGINE.to_move(s) == [WHITE]
    assert [a["province"] for a in ENGINE.legal_actions(s, WHITE)] == ["lithuania", "ukraine", "great_poland"]
    s = ENGINE.apply(s, WHITE, {"type": "reduce_nobles", "province": "ukraine"})
    assert s["pending"]["kind"] == "shortage"  # still 3 wanted for 2 cubes
    s = ENGINE.apply(s, WHITE, {"type": "reduce_nobles", "province": "great_poland"})
    assert [s["prov"][p]["nobles"][WHITE] for p in ("prussia", "lithuania", "ukraine", "great_poland")] == [17, 1, 1, 0]  # 17: Prussia elected white


def test_settle_walks_into_the_next_decision():
    s = blank()
    s["phase"], s["phase_entered"], s["pending"] = "end_of_round", True, None
    ev = []
    settle(s, ev)
    assert s["phase"] == "nobles" and s["pending"]["kind"] == "nobles"
