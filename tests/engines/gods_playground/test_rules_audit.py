"""Second-reading audit of the rulebook: rules the first implementation simplified
or read differently (each test quotes the page it checks)."""

import random

from backend.engines.gods_playground import ENGINE, actions, early, scoring, war
from backend.engines.gods_playground.bots import BOTS
from backend.engines.gods_playground.board import DEFAULT, ENEMIES, PROVINCES

from .helpers import BLUE, RED, WHITE, act, blank, enemy, estates, nobles, play_random, units


def _recruitment(round_=2, start=WHITE):
    s = blank(round_=round_, start=start)
    s["phase"] = "recruitment"
    actions.phase_recruitment(s, [])
    return s


def test_a_pass_in_recruitment_is_not_final_p8():
    """p.8: "Aki már passzolt, az ebben a fordulóban már kezdhet megint toborzásba" - a seat
    that passed may recruit again; the phase ends only when nobody wants more (all pass in
    a row)."""
    s = _recruitment(start=WHITE)
    s["money"] = [20, 20, 20]
    for p in ("prussia", "ukraine"):
        nobles(s, p, [1, 1, 1])
    s = act(s, WHITE, {"type": "pass"})
    s = act(s, BLUE, {"type": "recruit", "province": "prussia", "unit": "infantry"})
    s = act(s, RED, {"type": "pass"})
    # White passed before, yet recruits now, after blue's purchase.
    assert WHITE in ENGINE.to_move(s)
    s = act(s, WHITE, {"type": "recruit", "province": "prussia", "unit": "infantry"})
    assert s["prov"]["prussia"]["units"][WHITE] == [1, 0, 0]
    s = act(s, BLUE, {"type": "pass"})
    s = act(s, RED, {"type": "pass"})
    assert s["pending"]["kind"] == "recruitment"  # white has not passed since buying
    s = act(s, WHITE, {"type": "pass"})
    assert s["pending"] is None  # three passes in a row end the phase


def test_recruitment_opening_cube_is_paid_once_per_round_even_after_a_pass_p8():
    """p.8: "onnét el kell távolítania egy nemeskockáját; ezután már bárhány egységet
    toborozhat ide" - one cube per province and round, also for units bought after a pass."""
    s = _recruitment(start=WHITE)
    s["money"] = [20, 20, 20]
    nobles(s, "prussia", [1, 0, 0])
    nobles(s, "ukraine", [0, 1, 0])
    s = act(s, WHITE, {"type": "recruit", "province": "prussia", "unit": "infantry"})
    s = act(s, BLUE, {"type": "recruit", "province": "ukraine", "unit": "infantry"})
    s = act(s, RED, {"type": "pass"})
    s = act(s, WHITE, {"type": "pass"})
    s = act(s, BLUE, {"type": "recruit", "province": "ukraine", "unit": "infantry"})
    s = act(s, RED, {"type": "pass"})
    # White has no cube left in Prussia, but the province is already open to him.
    s = act(s, WHITE, {"type": "recruit", "province": "prussia", "unit": "cavalry"})
    assert s["prov"]["prussia"]["nobles"][WHITE] == 0 and s["prov"]["prussia"]["units"][WHITE] == [1, 1, 0]
    assert s["prov"]["ukraine"]["nobles"][BLUE] == 0 and s["prov"]["ukraine"]["units"][BLUE] == [2, 0, 0]


def test_recruit_done_leaves_the_round_so_nobody_passes_once_per_lap_p8():
    """p.8: "Ezt az eljárást addig folytatjátok, amíg már egyikőtök sem akar többet
    toborozni" - a seat may say once that it wants no more (recruit_done, D8a): it is
    not asked again while the others buy, and the phase ends when they pass in a row."""
    s = _recruitment(start=WHITE)
    s["money"] = [20, 20, 20]
    for p in ("prussia", "ukraine"):
        nobles(s, p, [1, 1, 1])
    assert {"type": "recruit_done"} in ENGINE.legal_actions(s, WHITE)
    s = act(s, WHITE, {"type": "recruit_done"})
    for _ in range(2):
        s = act(s, BLUE, {"type": "recruit", "province": "prussia", "unit": "infantry"})
        s = act(s, RED, {"type": "recruit", "province": "ukraine", "unit": "infantry"})
        assert ENGINE.asked(s) == [BLUE]  # white is skipped after every purchase
    s = act(s, BLUE, {"type": "pass"})
    assert ENGINE.asked(s) == [RED]
    s = act(s, RED, {"type": "pass"})
    assert s["pending"] is None
    assert s["prov"]["prussia"]["units"][WHITE] == [0, 0, 0] and s["money"][WHITE] == 20


def test_recruit_done_counts_the_passes_already_made_p8():
    """A pass since the last purchase still stands when another seat leaves: white passed,
    blue is done, red passes - nobody wants more, so the phase ends (p.8)."""
    s = _recruitment(start=WHITE)
    s["money"] = [20, 20, 20]
    nobles(s, "prussia", [1, 1, 1])
    s = act(s, WHITE, {"type": "pass"})
    s = act(s, BLUE, {"type": "recruit_done"})
    assert ENGINE.asked(s) == [RED] and s["pending"]["kind"] == "recruitment"
    s = act(s, RED, {"type": "pass"})
    assert s["pending"] is None


def test_recruit_done_by_everyone_ends_the_phase_and_the_cossacks_go_to_the_tatars_p8():
    """p.8: "A fel nem fogadott kozák lovast, lovasokat a tatárok dobozára kell raknotok"."""
    s = _recruitment(start=BLUE)
    s["money"] = [20, 20, 20]
    nobles(s, "ukraine", [1, 1, 1])
    events = []
    for seat in (BLUE, RED, WHITE):
        assert ENGINE.asked(s) == [seat] and s["phase"] == "recruitment"
        played = ENGINE.play(s, seat, {"type": "recruit_done"})
        s = played.state
        events += played.events
    assert [e["kind"] for e in events].count("recruit_done") == 3
    assert [e["params"]["count"] for e in events if e["kind"] == "cossacks_join"] == [2]


def test_recruit_done_can_be_taken_back_while_the_phase_lasts_p8():
    """p.8: "Aki már passzolt, az ebben a fordulóban már kezdhet megint toborzásba" - not
    even "I recruit no more" is final: the seat may take it back at any time while the phase
    lasts (recruit_resume, D8a), is not waited for meanwhile, and is asked again in its place
    in player order; the passes made before still count."""
    s = _recruitment(start=WHITE)
    s["money"] = [20, 20, 20]
    for p in ("prussia", "ukraine"):
        nobles(s, p, [1, 1, 1])
    s = act(s, WHITE, {"type": "recruit_done"})
    assert s["pending"]["done"] == [WHITE]
    # Out of the turns but free to come back: the one move white has, and nobody waits for it.
    assert ENGINE.to_move(s) == [BLUE, WHITE] and ENGINE.asked(s) == [BLUE]
    assert list(ENGINE.legal_actions(s, WHITE)) == [{"type": "recruit_resume"}]
    assert ENGINE.view(s, RED)["to_move"] == [BLUE]
    s = act(s, BLUE, {"type": "pass"})
    played = ENGINE.play(s, WHITE, {"type": "recruit_resume"})  # out of turn: red is to move
    s = played.state
    assert [e["kind"] for e in played.events] == ["recruit_resume"]
    assert s["pending"]["active"] == [WHITE, BLUE, RED] and s["pending"]["done"] == []
    assert ENGINE.to_move(s) == [RED] and s["pending"]["passes"] == 1  # blue's pass stands
    s = act(s, RED, {"type": "pass"})
    assert ENGINE.to_move(s) == [WHITE]  # asked again, with every choice it had
    assert {"type": "recruit", "province": "prussia", "unit": "infantry"} in ENGINE.legal_actions(s, WHITE)
    s = act(s, WHITE, {"type": "pass"})
    assert s["pending"] is None  # three passes in a row: nobody wants more


def test_recruit_resume_ends_with_the_phase_p8():
    """Once every seat still in has passed, the phase is over and the word stands: nothing is
    left to take back (p.8: "amíg már egyikőtök sem akar többet toborozni")."""
    s = _recruitment(start=WHITE)
    s["money"] = [20, 20, 20]
    nobles(s, "prussia", [1, 1, 1])
    s = act(s, WHITE, {"type": "recruit_done"})
    s = act(s, BLUE, {"type": "pass"})
    s = act(s, RED, {"type": "pass"})
    assert s["pending"] is None and ENGINE.to_move(s) == []
    assert list(ENGINE.legal_actions(s, WHITE)) == []


def test_the_playing_bots_never_say_recruit_done():
    """The beginner and advanced bots pass or buy as before (a bot is never asked for a seat
    whose one move is recruit_resume: the platform plays bots for asked seats only)."""
    s = _recruitment(start=WHITE)
    s["money"] = [20, 20, 20]
    nobles(s, "prussia", [1, 1, 1])
    for bot in ("beginner", "advanced"):
        for seed in range(20):
            legal = list(ENGINE.legal_actions(s, WHITE))
            choice = BOTS[bot](ENGINE.view(s, WHITE), legal, random.Random(seed))
            assert choice["type"] in ("recruit", "pass"), (bot, choice)


def test_recruit_done_is_offered_only_beside_a_purchase_p8():
    """A seat that can buy nothing has nothing to give up: it is passed for it, as before."""
    s = _recruitment(start=WHITE)
    s["money"] = [0, 20, 20]
    nobles(s, "prussia", [1, 1, 1])
    assert list(actions.legal_recruitment(s, WHITE)) == [{"type": "pass"}]
    assert {"type": "recruit_done"} in list(actions.legal_recruitment(s, BLUE))


def _counterattack(round_=2, start=BLUE, dice=None):
    s = blank(round_=round_, start=start, dice=dice)
    s["phase"] = "counterattack"
    s["royal_army"] = {"infantry": 2, "cavalry": 2, "cannon": 0}
    war.phase_counterattack(s, [])
    return s


def test_counterattack_goes_round_the_table_and_a_pass_is_final_p12():
    """p.12: the start player first, "sorban következnek a többiek ... Aki egyszer passzolt,
    az már nem vetheti be a királyi sereget ebben a fordulóban" - one attack per turn in
    player order, round and round, until everybody has passed."""
    s = _counterattack(start=BLUE, dice=[6, 6, 6, 6] * 4)
    enemy(s, "ukraine", yellow=9)
    s["sejm"]["prussia"] = BLUE
    s["sejm"]["lithuania"] = RED
    s["sejm"]["ukraine"] = RED
    s = act(s, BLUE, {"type": "counterattack", "target": "ukraine"})  # the free attack
    assert ENGINE.to_move(s) == [RED]  # the next seat, not blue again
    s = act(s, RED, {"type": "counterattack", "target": "ukraine", "disc": "lithuania"})
    s = act(s, WHITE, {"type": "pass"})
    assert ENGINE.to_move(s) == [BLUE]
    s = act(s, BLUE, {"type": "pass"})
    s = act(s, RED, {"type": "counterattack", "target": "ukraine", "disc": "ukraine"})
    # Blue and white passed for good; red, alone, has no disc left: only passing remains.
    assert s["pending"]["active"] == [RED] and ENGINE.to_move(s) == [RED]
    assert list(war.legal_counterattack(s, RED)) == [{"type": "pass"}]


def test_the_player_chooses_which_sejm_disc_to_give_up_p7():
    """p.7: "Érdemes figyelni arra, hogy a Szejmről nem szükségszerűen a litvániai mezőről
    kell a korongot levenni" - any of the player's Sejm discs, his choice; the same choice
    for the royal army in a campaign (p.9) and in a counterattack (p.12)."""
    s = blank(round_=1, start=RED, dice=[5])
    s["phase"] = "special"
    actions.phase_special(s, [])
    s["money"][RED] = 10
    nobles(s, "lithuania", [0, 0, 1])
    s["sejm"]["prussia"] = RED
    s["sejm"]["lithuania"] = RED
    legal = ENGINE.legal_actions(s, RED)
    assert {a["disc"] for a in legal if a["type"] == "diplomacy" and a["enemy"] == "green"} == {"prussia", "lithuania"}
    s = act(s, RED, {"type": "diplomacy", "enemy": "green", "disc": "lithuania"})
    assert s["sejm"]["lithuania"] is None and s["sejm"]["prussia"] == RED
    assert s["treaty"] == "green" and s["money"][RED] == 3

    s = blank(round_=2, start=BLUE)
    s["phase"] = "campaigns"
    war.phase_campaigns(s, [])
    s["royal_army"] = {"infantry": 1, "cavalry": 0, "cannon": 0}
    nobles(s, "ukraine", [0, 1, 0])
    s["sejm"]["prussia"] = BLUE
    s["sejm"]["great_poland"] = BLUE
    royal = [a for a in ENGINE.legal_actions(s, BLUE) if a["type"] == "campaign" and a["royal"]]
    assert sorted(a["disc"] for a in royal) == ["great_poland", "prussia"]
    s = act(s, BLUE, {"type": "campaign", "enemy": "yellow", "royal": True, "disc": "great_poland"})
    assert s["sejm"] == {"prussia": BLUE, "lithuania": None, "ukraine": None, "little_poland": None,
                         "great_poland": None}


def test_a_paid_tie_bids_again_but_a_tie_at_zero_ends_the_bidding_p5():
    """p.5: "Ha a licit is egyenlő volt, a licitek a bankba kerülnek, és új licitet kell
    tartanotok, addig, amíg valaki nem győz"; if nobody tied can pay, "a kezdőjátékos
    jelzője marad annál a játékosnál, akinél most van". A tie at zero would be bid again
    for ever at no cost (the audit of issue 11): it ends like the no-money case (D3)."""
    s = blank(round_=1, start=RED)
    s["revealed"] = [{"royal": 3}, {"royal": 3}, {"royal": 1}]
    s["money"] = [5, 5, 5]
    early.phase_king(s, [])
    s = act(s, WHITE, {"type": "bid", "amount": 1})
    s = act(s, BLUE, {"type": "bid", "amount": 1})
    assert s["pending"]["kind"] == "bid" and s["pending"]["seats"] == [WHITE, BLUE]
    assert s["money"] == [4, 4, 5]
    s = act(s, WHITE, {"type": "bid", "amount": 0})
    s = act(s, BLUE, {"type": "bid", "amount": 0})
    assert s["pending"] is None and s["start"] == RED and s["money"] == [4, 4, 5]


def test_a_cannon_in_the_province_helps_every_defender_p9_p10():
    """p.10: "A harc szabályai megegyeznek a hadjáratoknál leírtakkal"; p.9: "Ha a tartományon
    van ágyú, minden dobás eredményéhez +1 járul" - in a defence all units there fight
    together, so one seat's cannon adds 1 to every defender's roll."""
    s = blank(round_=2, start=WHITE, dice=[4])
    units(s, "prussia", WHITE, cannon=1)
    units(s, "prussia", BLUE, infantry=1)
    war.arrive(s, "prussia", "black", 2, [])
    # Blue's infantry rolled 4: a hit only with white's cannon.
    assert s["prov"]["prussia"]["enemy"]["black"] == 1


def test_right_of_arms_needs_a_free_disc_p7():
    """p.7: the taker "egy másik játékos korongját kicserélje a sajátjára" - he puts down a
    disc of his own, so without a free disc the action is not offered."""
    s = blank(round_=3, start=BLUE)
    s["phase"] = "special"
    actions.phase_special(s, [])
    s["vp"] = [10, 2, 10]
    estates(s, "lithuania", [RED])
    nobles(s, "lithuania", [0, 5, 4])
    assert any(a["type"] == "right_of_arms" for a in ENGINE.legal_actions(s, BLUE))
    # Fill blue's discs: 15 usable (p.2, one on the VP track, p.14).
    rows = [p for p in PROVINCES if p != "lithuania"]
    n = 0
    for p in rows:
        pr = s["prov"][p]
        for i in range(len(pr["estates"])):
            if n < 15:
                pr["estates"][i] = BLUE
                n += 1
    assert all(a["type"] != "right_of_arms" for a in ENGINE.legal_actions(s, BLUE))


def test_influence_does_not_spread_where_markers_already_stand_p12():
    """p.12: "Egy ellenség nem portyázhat át olyan tartományba, ahol már van saját kockája",
    and the Habsburg markers spread "ezen a módon"."""
    s = blank(round_=2, start=WHITE)
    s["prov"]["great_poland"]["influence"] = 3
    s["prov"]["prussia"]["influence"] = 1
    war.phase_raids(s, [])
    assert s["prov"]["prussia"]["influence"] == 1
    assert s["prov"]["little_poland"]["influence"] == 3


def test_great_poland_loses_the_habsburg_estate_rule_once_the_turks_overran_them_p13():
    """p.13: the influence estate rule holds "Az első három fordulóban, ha a törökök nem
    rohanták le a Habsburgokat" - if they did, even a royal counterattack that drives every
    Turk off the Habsburg box does not bring the special rule back."""
    s = blank(round_=3, start=WHITE)
    s["box"]["orange"]["cubes"] = 0
    war.invade(s, "orange", [])
    assert s["turks_on_habsburg"] == 12
    s["turks_on_habsburg"] = 0  # all driven off by the royal army (p.12)
    nobles(s, "great_poland", [1, 0, 0])  # fewer than two cubes: no rise under the special rule
    scoring.phase_estates(s, [])
    assert s["prov"]["great_poland"]["income"] == 4  # peace: +1 under the normal rule


def test_tatars_tied_first_place_gives_one_vp_each_p14():
    """p.14: "A tatároknál a kék és a fehér játékos között döntetlen az állás az első helyen,
    így mindketten kapnak egy győzelmi pontot"; the Turks' box gives 5."""
    assert scoring.box_vp([2, 2, 0], 0, DEFAULT.values["enemy_vp"]["yellow"]) == [1, 1, 0]
    assert scoring.box_vp([0, 0, 3], 0, DEFAULT.values["enemy_vp"]["orange"]) == [0, 0, 5]


def test_a_province_never_holds_two_enemy_colours_p10():
    """p.10: cubes of another colour cancel the newcomers one for one, so at most one colour
    stands in a province; which colour a hit removes is never a choice."""
    for seed in range(3):  # (check_supplies asserts the same in every random-game test)
        for s, _seat, _action in play_random(seed):
            for p in PROVINCES:
                colours = [c for c in ENEMIES if s["prov"][p]["enemy"][c]]
                assert len(colours) <= 1, (seed, p, colours)


# Every number the rulebook states, with the page it is on: board.py must use it and say so.
RULEBOOK_NUMBERS = {
    ("enemy_strength", "yellow", 1): (7, "p.11"),   # example 1: "7-es alaperő" in round 2
    ("enemy_strength", "orange", 2): (12, "p.11"),  # example 3: "12-es alaperő" in round 3
    ("enemy_strength", "orange", 3): (3, "p.10"),   # "az alaperejük 3"
    ("turks_round4_with_habsburg",): (10, "p.10"),
    ("turkish_garrison",): (2, "p.10"),  # "legfeljebb két török kocka maradhat"
    ("enemy_vp", "orange"): (5, "p.14"),
    ("sejm_vp",): (2, "p.14"),
    ("talers_per_vp",): (5, "p.14"),
    ("jesuit_cost",): (2, "p.8"),
    ("jesuit_bonus_all",): (2, "p.8"),
    ("court_troops", 0, "infantry"): (2, "p.5"),
    ("court_troops", 0, "cavalry"): (2, "p.5"),
    ("royal_table", 4): ((8, 2, 1, 1), "p.5"),
    ("royal_limits", "infantry"): (4, "p.5"),
    ("royal_limits", "cavalry"): (4, "p.5"),
    ("royal_limits", "cannon"): (1, "p.5"),
    ("unit_limits", "infantry"): (4, "p.8"),
    ("unit_limits", "cavalry"): (3, "p.8"),
    ("unit_limits", "cannon"): (1, "p.8"),
    ("unit_cost", "infantry"): (2, "p.8"),
    ("unit_cost", "cavalry"): (4, "p.8"),
    ("unit_cost", "cannon"): (6, "p.8"),
    ("unit_cost", "cossack"): (2, "p.8"),
    ("hit_on", "infantry"): (5, "p.9"),
    ("hit_on", "cavalry"): (4, "p.9"),
    ("cannon_bonus",): (1, "p.9"),
    ("noble_cubes",): (20, "p.2"),
    ("discs",): (16, "p.2"),
    ("stewards",): (8, "p.2"),
    ("towns",): (2, "p.2"),
    ("royal_cubes",): (20, "p.2"),
    ("cossacks",): (2, "p.2"),
    ("influence_markers",): (10, "p.2"),
    ("enemy_cubes", "orange"): (25, "p.2"),
    ("noble_tiles",): ((0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5), "p.2"),
    ("start_money",): (10, "p.4"),
    ("start_estates",): (3, "p.4"),
    ("income_start",): (3, "p.4"),
    ("minimum_income",): (10, "p.4"),
    ("steward_bonus",): (2, "p.4"),
    ("income_min",): (1, "p.13"),
    ("income_max",): (5, "p.13"),
    ("habsburg_rise_cubes",): (2, "p.13"),
    ("town_multiplier",): (3, "p.15"),
    ("enemy_dice",): (4, "p.6"),
    ("treaty_extra_cost",): (2, "p.7"),
    ("treaty_break_dice",): (2, "p.7"),
    ("estate_cube_cost",): ((1, 2), "p.6"),
    ("right_of_arms_cubes",): (2, "p.7"),
    ("town_cubes",): (2, "p.8"),
}


def test_every_number_the_rulebook_states_is_on_the_board_tagged_with_its_page():
    from backend.engines.gods_playground.board import DEFAULT, thaw

    for path, (value, page) in RULEBOOK_NUMBERS.items():
        node = DEFAULT.values
        for key in path:
            node = node[key]
        dotted = path[0] + "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in path[1:])
        assert thaw(node) == (list(value) if isinstance(value, tuple) else value), path
        assert DEFAULT.sources[dotted] == f"rulebook {page}", path


def test_campaign_example_continued_p9():
    """p.9, the second half of the example: "A kék és a fehér játékos újra támad ... A kék egy,
    a fehér játékos két találatot ér el. Ezután már egyikük sem indíthat hadjáratot ebből a
    tartományból" (no cube left there); red attacks the Turks again, scores two hits but loses
    an infantry and a cavalry, then spends his last cube on a final campaign and one hit."""
    dice = [3, 4, 2, 5, 3,  # blue: infantry, 2 cavalry, 2 Cossacks -> 2 hits
            1, 4, 5, 3, 2,  # red: 3 infantry, 2 cavalry, +1 cannon -> 3 hits, an infantry lost
            5, 2, 3, 1, 2,  # white: 2 infantry, cavalry, 2 Cossacks -> 1 hit, a Cossack lost
            2, 4, 3, 2,     # blue again: infantry, 2 cavalry, the Cossack left -> 1 hit
            1, 5, 1, 4,     # red again: 2 infantry, 2 cavalry (+1) -> 2 hits, 2 units lost
            6, 5, 2, 3,     # white again: 2 infantry, cavalry, Cossack -> 2 hits
            3, 4]           # red's last: infantry, cavalry (+1) -> 1 hit
    s = blank(round_=2, start=BLUE, dice=dice)
    s["phase"] = "campaigns"
    war.phase_campaigns(s, [])
    nobles(s, "ukraine", [2, 2, 0])
    nobles(s, "little_poland", [0, 0, 3])
    units(s, "ukraine", BLUE, infantry=1, cavalry=2)
    units(s, "ukraine", WHITE, infantry=2, cavalry=1)
    units(s, "little_poland", RED, infantry=3, cavalry=2, cannon=1)
    s["cossacks"] = {"box": 0, "ukraine": 2, "tatars": 0}
    enemy(s, "little_poland", orange=1)
    tatars = {"type": "campaign", "enemy": "yellow", "royal": False}
    turks = {"type": "campaign", "enemy": "orange", "royal": False}
    for seat, action in [(BLUE, tatars), (RED, turks), (WHITE, tatars),
                         (BLUE, tatars), (RED, turks), (WHITE, tatars)]:
        s = act(s, seat, action)
    assert ENGINE.legal_actions(s, BLUE) == [{"type": "pass"}]  # no cube left in Ukraine
    s = act(s, BLUE, {"type": "pass"})
    s = act(s, RED, turks)
    assert ENGINE.legal_actions(s, WHITE) == [{"type": "pass"}]
    assert s["box"]["yellow"]["nobles"] == [3, 3, 0]
    assert s["box"]["orange"]["nobles"] == [0, 0, 5]
    assert s["prov"]["little_poland"]["units"][RED] == [1, 1, 1]
    assert s["prov"]["little_poland"]["nobles"][RED] == 0 and s["dice_queue"] == []


def test_a_treaty_partners_province_can_still_be_cleared_of_any_enemy_cubes_p9():
    """p.9: "Ha a hadjárat kiindulási tartományán van ellenségkocka először azt, azokat kell
    támadni ... A tartományon lévő ellenségkocka akkor is támadható, ha amúgy egyezség van
    kötve az adott ellenséggel" - with a treaty with the Tatars, Russian raiders standing in
    Ukraine can still be attacked from there; no hit reaches the Tatar box."""
    s = blank(round_=2, start=BLUE, dice=[5, 5])
    s["phase"] = "campaigns"
    war.phase_campaigns(s, [])
    s["treaty"] = "yellow"
    nobles(s, "ukraine", [0, 1, 0])
    units(s, "ukraine", BLUE, infantry=2)
    enemy(s, "ukraine", green=1)
    s = act(s, BLUE, {"type": "campaign", "enemy": "yellow", "royal": False})
    assert s["prov"]["ukraine"]["enemy"]["green"] == 0
    assert s["box"]["yellow"]["nobles"] == [0, 0, 0]


def test_estates_may_be_bought_where_enemy_cubes_stand_and_later_ones_cost_two_p6():
    """p.6: "Olyan tartományban vásárolhattok birtokot, amelyen van ellenségkocka"; blue in
    the example "Az utolsó két nemeskockáját levéve még egy birtokot vásárolhatna itt" - with
    two cubes left he may buy a third estate."""
    s = blank(round_=1, start=BLUE)
    s["phase"] = "estate_purchase"
    early.phase_estate_purchase(s, [])
    enemy(s, "ukraine", yellow=2)
    nobles(s, "ukraine", [0, 5, 0])
    for _ in range(3):
        assert {"type": "buy_estate", "province": "ukraine"} in ENGINE.legal_actions(s, BLUE)
        s = act(s, BLUE, {"type": "buy_estate", "province": "ukraine"})
        s["pending"]["turn"] = BLUE  # the others have nothing to buy with
    assert s["prov"]["ukraine"]["nobles"][BLUE] == 0
    assert s["prov"]["ukraine"]["estates"][:3] == [BLUE, BLUE, BLUE]


def test_the_royal_army_cannot_attack_influence_markers_p12():
    """p.12: "A királyi sereggel nem támadhatók a Habsburgok befolyásjelzői"; the Habsburg
    box is a target only with Turkish cubes on it."""
    s = _counterattack(round_=2, start=WHITE)
    s["prov"]["great_poland"]["influence"] = 3
    s["influence"] = 2
    assert list(war.legal_counterattack(s, WHITE)) == [{"type": "pass"}]
    s["turks_on_habsburg"] = 1
    assert list(war.legal_counterattack(s, WHITE)) == [{"type": "counterattack", "target": "habsburg"}, {"type": "pass"}]


def test_cossacks_join_a_campaign_only_with_the_players_own_troops_p9():
    """p.9: the Cossacks take part "ha ... a játékosnak van legalább egy támadó gyalogosa vagy
    lovasa" - a campaign of the royal army alone leaves them at home."""
    s = blank(round_=2, start=BLUE, dice=[5])  # the royal infantry's roll, nothing more
    s["phase"] = "campaigns"
    war.phase_campaigns(s, [])
    s["royal_army"] = {"infantry": 1, "cavalry": 0, "cannon": 0}
    s["cossacks"] = {"box": 0, "ukraine": 2, "tatars": 0}
    nobles(s, "ukraine", [0, 1, 0])
    s["sejm"]["prussia"] = BLUE
    rng = s["rng"]
    s = act(s, BLUE, {"type": "campaign", "enemy": "yellow", "royal": True, "disc": "prussia"})
    assert s["box"]["yellow"]["royal"] == 1 and s["box"]["yellow"]["nobles"] == [0, 0, 0]
    # One die only (the scripted one): the Cossacks never rolled.
    assert s["dice_queue"] == [] and s["rng"] == rng and s["cossacks"]["ukraine"] == 2
