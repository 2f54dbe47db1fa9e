"""Refusals say what is wrong and what is expected (issue 13): the kind of
refusal, and a reason that fits the decision being asked for."""

from backend.engines import MalformedAction, NotLegal, NotYourTurn
from backend.engines.base import canonical
from backend.engines.gods_playground import ENGINE, actions, early, war

from .. import engine_checks as checks
from .helpers import BLUE, RED, WHITE, blank, enemy, estates, nobles, units


def refused(state, seat, action, kind, text):
    return checks.refused(ENGINE, state, seat, action, kind, text)


def decision(phase, round_=1, start=WHITE):
    s = blank(round_=round_, start=start)
    s["phase"] = phase
    {"special": actions.phase_special, "recruitment": actions.phase_recruitment,
     "campaigns": war.phase_campaigns, "counterattack": war.phase_counterattack,
     "estate_purchase": early.phase_estate_purchase}[phase](s, [])
    return s


def test_an_unknown_action_type_names_the_actions_of_the_game():
    s = ENGINE.setup(3, seed=1)
    seat = ENGINE.to_move(s)[0]
    err = refused(s, seat, {"type": "dance"}, MalformedAction, "Unknown action type")
    assert "place_estate" in err.params["types"] and "counterattack" in err.params["types"]
    refused(s, seat, ["place_estate"], MalformedAction, "must be an object")
    refused(s, seat, {"type": "place_estate", "province": "vienna"}, MalformedAction, '"province" must be one of')
    refused(s, seat, {"type": "bid", "amount": True}, MalformedAction, "whole number")
    refused(s, seat, {"type": "bid", "amount": 1.0}, MalformedAction, "whole number")
    refused(s, seat, {"type": "bid", "amount": 10**5000}, MalformedAction, "out of range")


def test_an_action_of_another_decision_says_what_is_expected():
    s = ENGINE.setup(3, seed=1)
    seat = ENGINE.to_move(s)[0]
    refused(s, seat, {"type": "bid", "amount": 0}, NotLegal,
            "not something you can do now: choose a province for one of your starting estates")
    s = decision("special")
    refused(s, WHITE, {"type": "stop"}, NotLegal, "take a special action or pass")
    nobles(s, "prussia", [2, 0, 0])
    s = ENGINE.apply(s, WHITE, {"type": "move_cube", "from": "prussia", "to": "ukraine"})
    refused(s, WHITE, {"type": "pass"}, NotLegal, "move a second noble cube, or stop")
    refused(s, WHITE, {"type": "move_cube", "from": "lithuania", "to": "ukraine"}, NotLegal,
            "no noble cube in the province you move from")
    refused(s, WHITE, {"type": "move_cube", "from": "prussia", "to": "prussia"}, NotLegal, "different province")


def test_out_of_turn_refusals_say_why():
    s = ENGINE.setup(3, seed=1)
    seat = ENGINE.to_move(s)[0]
    refused(s, (seat + 1) % 3, {"type": "place_estate", "province": "ukraine"}, NotYourTurn, "not your turn")
    refused(s, 7, {"type": "place_estate", "province": "ukraine"}, NotYourTurn, "no such seat")
    s = decision("estate_purchase")
    nobles(s, "ukraine", [1, 1, 1])
    s = ENGINE.apply(s, WHITE, {"type": "pass"})
    assert ENGINE.to_move(s) == [BLUE]
    refused(s, WHITE, {"type": "buy_estate", "province": "ukraine"}, NotYourTurn, "You have passed")
    refused(s, RED, {"type": "buy_estate", "province": "ukraine"}, NotYourTurn, "not your turn")


def test_special_action_reasons():
    s = decision("special")
    refused(s, WHITE, {"type": "danzig"}, NotLegal, "Danzig needs one of your noble cubes in Prussia")
    refused(s, WHITE, {"type": "jesuits", "provinces": ["prussia"]}, NotLegal, "from round 2 on")
    refused(s, WHITE, {"type": "town", "province": "prussia", "space": 0}, NotLegal, "from round 3 on")
    refused(s, WHITE, {"type": "right_of_arms", "province": "prussia", "target": BLUE}, NotLegal, "from round 3 on")
    refused(s, WHITE, {"type": "liberum_veto", "province": "prussia"}, NotLegal, "Sejm is empty")
    refused(s, WHITE, {"type": "diplomacy", "enemy": "orange", "disc": "prussia"}, NotLegal, "no diplomacy with the Turks")
    refused(s, WHITE, {"type": "diplomacy", "enemy": "purple", "disc": "prussia"}, NotLegal, "only in round 4")
    err = refused(s, WHITE, {"type": "diplomacy", "enemy": "green", "disc": "prussia"}, NotLegal,
                  "needs one of your noble cubes in lithuania")
    assert err.params == {"province": "lithuania"}
    nobles(s, "lithuania", [1, 0, 0])
    refused(s, WHITE, {"type": "diplomacy", "enemy": "green", "disc": "prussia"}, NotLegal,
            "deputies in the Sejm, and you have none")
    s["sejm"]["ukraine"] = WHITE
    refused(s, WHITE, {"type": "diplomacy", "enemy": "green", "disc": "prussia"}, NotLegal,
            "no deputy in the Sejm for that province")
    estates(s, "prussia", [WHITE])
    refused(s, WHITE, {"type": "steward", "province": "prussia", "space": 0}, NotLegal, "noble cubes in that province")
    nobles(s, "prussia", [1, 0, 0])
    refused(s, WHITE, {"type": "steward", "province": "prussia", "space": 1}, NotLegal, "own estates there")
    ENGINE.play(s, WHITE, {"type": "steward", "province": "prussia", "space": 0})


def test_jesuit_and_town_reasons():
    s = decision("special", round_=3)
    nobles(s, "prussia", [1, 0, 0])
    nobles(s, "ukraine", [1, 0, 0])
    s["money"][WHITE] = 2
    refused(s, WHITE, {"type": "jesuits", "provinces": []}, NotLegal, "at least one province")
    refused(s, WHITE, {"type": "jesuits", "provinces": ["prussia", "prussia"]}, NotLegal, "each province only once")
    refused(s, WHITE, {"type": "jesuits", "provinces": ["prussia", "lithuania"]}, NotLegal, "Each school needs")
    err = refused(s, WHITE, {"type": "jesuits", "provinces": ["ukraine", "prussia"]}, NotLegal, "you can pay for 1")
    assert err.params == {"cost": 2, "count": 1}
    estates(s, "prussia", [WHITE])
    refused(s, WHITE, {"type": "town", "province": "prussia", "space": 0}, NotLegal, "A town needs 2")
    s["town_built"] = True
    refused(s, WHITE, {"type": "town", "province": "prussia", "space": 0}, NotLegal, "already been founded")


def test_a_list_in_another_order_is_the_same_action_and_logged_canonically():
    s = decision("special", round_=2)
    for p in ("prussia", "ukraine", "great_poland"):
        nobles(s, p, [1, 0, 0])
    played = ENGINE.play(s, WHITE, {"type": "jesuits", "provinces": ["great_poland", "prussia", "ukraine"]})
    assert played.action == {"type": "jesuits", "provinces": ["prussia", "ukraine", "great_poland"]}
    assert canonical(ENGINE.play(s, WHITE, played.action).state) == canonical(played.state)


def test_recruitment_reasons():
    s = decision("recruitment")
    refused(s, WHITE, {"type": "recruit", "province": "prussia", "unit": "cossack"}, NotLegal, "Ukraine only")
    refused(s, WHITE, {"type": "recruit", "province": "prussia", "unit": "cannon"}, NotLegal, "round 1")
    refused(s, WHITE, {"type": "recruit", "province": "prussia", "unit": "infantry"}, NotLegal,
            "needs one of your noble cubes there")
    nobles(s, "prussia", [1, 0, 0])
    s["money"][WHITE] = 1
    err = refused(s, WHITE, {"type": "recruit", "province": "prussia", "unit": "cavalry"}, NotLegal, "talers")
    assert set(err.params) == {"cost", "money"} and err.params["money"] == 1
    s["money"] = [20, 20, 20]
    nobles(s, "prussia", [1, 1, 1])
    refused(s, WHITE, {"type": "recruit_resume"}, NotLegal, "nothing to take back")
    s = ENGINE.apply(s, WHITE, {"type": "recruit_done"})  # blue and red still buy
    assert ENGINE.asked(s) == [BLUE] and ENGINE.to_move(s) == [BLUE, WHITE]
    # White may only take its word back (D8a); blue, whose turn it is, has nothing to take back.
    for action in ({"type": "recruit", "province": "prussia", "unit": "infantry"}, {"type": "pass"},
                   {"type": "recruit_done"}):
        refused(s, WHITE, action, NotLegal, "take that back first")
    refused(s, BLUE, {"type": "recruit_resume"}, NotLegal, "nothing to take back")
    refused(s, RED, {"type": "recruit_resume"}, NotYourTurn, "not your turn")


def test_campaign_and_counterattack_reasons():
    s = decision("campaigns", round_=2)
    refused(s, WHITE, {"type": "campaign", "enemy": "purple", "royal": False}, NotLegal, "before round 4")
    refused(s, WHITE, {"type": "campaign", "enemy": "green", "royal": False}, NotLegal, "noble cubes in lithuania")
    nobles(s, "lithuania", [1, 0, 0])
    refused(s, WHITE, {"type": "campaign", "enemy": "green", "royal": False}, NotLegal, "no infantry or cavalry")
    refused(s, WHITE, {"type": "campaign", "enemy": "green", "royal": False, "disc": "prussia"}, NotLegal,
            "Only a campaign with the royal army")
    refused(s, WHITE, {"type": "campaign", "enemy": "green"}, MalformedAction, 'needs "royal"')
    units(s, "lithuania", WHITE, infantry=1)
    ENGINE.play(s, WHITE, {"type": "campaign", "enemy": "green", "royal": False, "disc": None})
    s["royal_army"]["infantry"] = 2
    refused(s, WHITE, {"type": "campaign", "enemy": "green", "royal": True}, NotLegal, "Sejm's consent")

    c = decision("counterattack", round_=2)
    refused(c, WHITE, {"type": "counterattack", "target": "ukraine"}, NotLegal, "no infantry or cavalry")
    c["royal_army"]["cavalry"] = 2
    refused(c, WHITE, {"type": "counterattack", "target": "ukraine"}, NotLegal, "no enemy cube in that province")
    refused(c, WHITE, {"type": "counterattack", "target": "habsburg"}, NotLegal, "No Turkish cube")
    enemy(c, "ukraine", yellow=2)
    refused(c, WHITE, {"type": "counterattack", "target": "ukraine", "disc": "prussia"}, NotLegal, "first attack is free")
    ENGINE.play(c, WHITE, {"type": "counterattack", "target": "ukraine"})


def test_estate_purchase_reasons():
    s = decision("estate_purchase", start=RED)
    err = refused(s, RED, {"type": "buy_estate", "province": "ukraine"}, NotLegal, "costs 1 of your noble cubes")
    assert err.params == {"count": 1, "have": 0}
    nobles(s, "ukraine", [0, 0, 1])
    estates(s, "ukraine", [WHITE] * len(s["prov"]["ukraine"]["estates"]))
    refused(s, RED, {"type": "buy_estate", "province": "ukraine"}, NotLegal, "no empty estate space")


def test_simultaneous_decisions_say_who_is_still_deciding():
    s = ENGINE.setup(3, seed=2)
    while s["pending"]["kind"] == "setup_estate":
        (seat,) = ENGINE.to_move(s)
        s = ENGINE.apply(s, seat, ENGINE.legal_actions(s, seat)[0])
    layout = dict(zip(("prussia", "lithuania", "ukraine", "little_poland", "great_poland", "royal"), range(6)))
    s = ENGINE.apply(s, 0, {"type": "place_nobles", **layout})
    refused(s, 0, {"type": "place_nobles", **layout}, NotYourTurn, "placed all your nobles")
    b = blank()
    early.open_bidding(b, [WHITE, BLUE], [])
    refused(b, RED, {"type": "bid", "amount": 0}, NotYourTurn, "Only the families tied for the crown bid")
    b = ENGINE.apply(b, WHITE, {"type": "bid", "amount": 1})
    refused(b, WHITE, {"type": "bid", "amount": 2}, NotYourTurn, "sealed your bid")
    err = refused(b, BLUE, {"type": "bid", "amount": 99}, NotLegal, "from 0 to")
    assert err.params == {"money": b["money"][BLUE]}
