"""Phases 10-13 against the rulebook's worked examples (p.9-13).

Dice are scripted with the test hook; in a fight infantry roll before cavalry,
then Cossacks, then the royal army, and defenders roll in player order."""

from backend.engines.gods_playground import war
from backend.engines.gods_playground.board import DEFAULT

from .helpers import BLUE, RED, WHITE, act, blank, enemy, nobles, units


def campaigns(round_=2, start=BLUE, dice=None):
    s = blank(round_=round_, start=start, dice=dice)
    s["phase"] = "campaigns"
    war.phase_campaigns(s, [])
    return s


def test_campaign_examples_p9():
    """p.9: blue campaigns from Ukraine against the Tatars: one hit from his units and one
    from the Cossacks, so two hit cubes on the Tatar box. White does the same: one hit, the
    Cossacks none and one of them rolled a 1 and is destroyed. Red campaigns from Little
    Poland against the Turks with a cannon: three hits, the first removes the Turkish cube in
    the province, two hit cubes go on the box; an infantry that rolled 1 is destroyed although
    the cannon makes it a 2."""
    dice = [3, 4, 2, 5, 3,  # blue: infantry, 2 cavalry, 2 Cossacks
            1, 4, 5, 3, 2,  # red: 3 infantry, 2 cavalry, +1 for the cannon
            5, 2, 3, 1, 2]  # white: 2 infantry, cavalry, 2 Cossacks
    s = campaigns(start=BLUE, dice=dice)
    nobles(s, "ukraine", [1, 1, 0])
    nobles(s, "little_poland", [0, 0, 1])
    units(s, "ukraine", BLUE, infantry=1, cavalry=2)
    units(s, "ukraine", WHITE, infantry=2, cavalry=1)
    units(s, "little_poland", RED, infantry=3, cavalry=2, cannon=1)
    s["cossacks"] = {"box": 0, "ukraine": 2, "tatars": 0}
    enemy(s, "little_poland", orange=1)
    s = act(s, BLUE, {"type": "campaign", "enemy": "yellow", "royal": False})
    assert s["box"]["yellow"]["nobles"] == [0, 2, 0] and s["prov"]["ukraine"]["nobles"] == [1, 0, 0]
    s = act(s, RED, {"type": "campaign", "enemy": "orange", "royal": False})
    s = act(s, WHITE, {"type": "campaign", "enemy": "yellow", "royal": False})
    assert s["box"]["yellow"]["nobles"] == [1, 2, 0]
    assert s["cossacks"] == {"box": 1, "ukraine": 1, "tatars": 0}
    assert s["prov"]["little_poland"]["enemy"]["orange"] == 0
    assert s["box"]["orange"]["nobles"] == [0, 0, 2]
    assert s["prov"]["little_poland"]["units"][RED] == [2, 2, 1]
    assert s["dice_queue"] == []


def test_campaign_needs_a_cube_in_the_bordering_province_p9():
    s = campaigns(round_=3)
    units(s, "lithuania", BLUE, infantry=2)
    assert list(war.legal_campaigns(s, BLUE)) == [{"type": "pass"}]
    nobles(s, "lithuania", [0, 1, 0])
    assert {"type": "campaign", "enemy": "green", "royal": False} in war.legal_campaigns(s, BLUE)
    # No campaign against the Habsburgs before round 4, nor against a treaty partner.
    nobles(s, "great_poland", [0, 1, 0])
    units(s, "great_poland", BLUE, infantry=1)
    assert not [a for a in war.legal_campaigns(s, BLUE) if a.get("enemy") == "purple"]
    s["treaty"] = "green"
    assert not [a for a in war.legal_campaigns(s, BLUE) if a.get("enemy") == "green"]
    enemy(s, "lithuania", green=1)  # ...unless its cubes stand in the province
    assert {"type": "campaign", "enemy": "green", "royal": False} in war.legal_campaigns(s, BLUE)
    s["round"] = 4
    assert {"type": "campaign", "enemy": "purple", "royal": False} in war.legal_campaigns(s, BLUE)


def test_royal_army_joins_a_campaign_for_a_sejm_disc_and_places_royal_cubes_p9():
    s = campaigns(dice=[5, 6, 2])  # blue's infantry, then the royal infantry and cavalry
    nobles(s, "prussia", [0, 2, 0])
    units(s, "prussia", BLUE, infantry=1)
    s["royal_army"] = {"infantry": 1, "cavalry": 1, "cannon": 0}
    s["sejm"]["ukraine"] = BLUE
    s = act(s, BLUE, {"type": "campaign", "enemy": "black", "royal": True, "disc": "ukraine"})
    assert s["box"]["black"]["nobles"] == [0, 1, 0] and s["box"]["black"]["royal"] == 1
    assert s["sejm"]["ukraine"] is None
    assert s["royal_army"] == {"infantry": 1, "cavalry": 1, "cannon": 0}
    assert not [a for a in war.legal_campaigns(s, BLUE) if a.get("royal")]  # no disc left


def invasion_state(round_, start, dice):
    s = blank(round_=round_, start=start, dice=dice)
    for c in ("black", "green", "yellow", "orange", "purple"):
        s["box"][c]["royal"] = 30  # borders held unless a test opens one
    return s


def test_invasion_example_1_p10_p11():
    """p.10-11: round 2, dice 1, 3, 5, 6: a cube on the Prussian and the Tatar box, a marker on
    the Habsburg box, and a Cossack (the one alive in Ukraine) defects. The Tatars are 9 strong
    (7 + 1 + 1 Cossack) against six noble cubes on their box: three Tatar cubes enter Ukraine.
    Blue and white defend and score one hit: two Tatar cubes stay. The Turks face as many
    cubes as their strength and do not attack. More noble cubes than markers in Great Poland:
    the Habsburgs fail."""
    defence = [5, 2, 3,  # blue (start player): infantry, 2 cavalry
               2, 3, 2]  # white: 2 infantry, cavalry
    s = invasion_state(2, BLUE, [1, 3, 5, 6] + defence)
    s["box"]["yellow"]["royal"] = 0
    s["box"]["yellow"]["nobles"] = [3, 3, 0]
    s["box"]["orange"]["royal"] = 0
    s["box"]["orange"]["nobles"] = [4, 4, 0]  # = the Turks' round-2 strength
    units(s, "ukraine", BLUE, infantry=1, cavalry=2)
    units(s, "ukraine", WHITE, infantry=2, cavalry=1)
    s["cossacks"] = {"box": 1, "ukraine": 1, "tatars": 0}
    nobles(s, "great_poland", [1, 2, 1])
    ev = []
    war.phase_invasions(s, ev)
    assert s["box"]["black"]["cubes"] == 1 and s["box"]["yellow"]["cubes"] == 1
    assert s["cossacks"] == {"box": 1, "ukraine": 0, "tatars": 1}
    assert war.strength(s, "yellow") == 9
    assert s["prov"]["ukraine"]["enemy"]["yellow"] == 2 and s["prov"]["ukraine"]["invaded"]
    assert s["prov"]["little_poland"]["enemy"]["orange"] == 0
    assert s["prov"]["great_poland"]["nobles"] == [1, 1, 1]  # the start player (blue) lost one
    assert s["prov"]["great_poland"]["influence"] == 0 and s["influence"] == 0
    assert s["dice_queue"] == []


def test_invasion_example_2_habsburg_influence_p11():
    """p.11: four markers from the events and one more now: five noble cubes leave Great
    Poland in player order (the example's blue-white-red), first, second, third, first, second.
    Here blue starts and the seating makes red second and white third."""
    s = invasion_state(1, BLUE, [5, 6, 6, 6])
    s["influence"] = 4
    nobles(s, "great_poland", [3, 3, 3])
    war.phase_invasions(s, [])
    assert s["prov"]["great_poland"]["nobles"] == [2, 1, 1]  # white (third) lost one, the others two
    assert s["prov"]["great_poland"]["influence"] == 0 and s["influence"] == 0
    # With too few cubes the rest of the markers settle on Great Poland.
    s = invasion_state(1, BLUE, [5, 6, 6, 6])
    s["influence"] = 4
    nobles(s, "great_poland", [1, 1, 0])
    war.phase_invasions(s, [])
    assert s["prov"]["great_poland"]["nobles"] == [0, 0, 0] and s["prov"]["great_poland"]["influence"] == 3


def test_invasion_example_3_turks_against_vienna_p11():
    """p.11: round 3, the Turks attack the Habsburgs with 8 (12 + 1 cube - 5 noble cubes):
    the six markers leave the Habsburg box and eight Turkish cubes go on it."""
    s = invasion_state(3, RED, [4, 5, 6, 6])
    s["box"]["orange"]["royal"] = 0
    s["box"]["orange"]["nobles"] = [0, 2, 3]
    s["influence"] = 5
    nobles(s, "great_poland", [2, 0, 0])
    war.phase_invasions(s, [])
    assert s["turks_on_habsburg"] == 8 and s["influence"] == 0
    assert s["prov"]["little_poland"]["enemy"]["orange"] == 0
    assert s["prov"]["great_poland"]["nobles"] == [2, 0, 0]


def test_a_treaty_holds_unless_two_dice_show_its_number_p10():
    s = invasion_state(1, WHITE, [2, 6, 6, 6])
    s["box"]["green"]["royal"] = 0
    s["treaty"] = "green"
    war.phase_invasions(s, [])
    assert s["treaty"] == "green" and s["prov"]["lithuania"]["enemy"]["green"] == 0
    assert s["box"]["green"]["cubes"] == 1
    s = invasion_state(1, WHITE, [2, 2, 6, 6])
    s["box"]["green"]["royal"] = 0
    s["treaty"] = "green"
    war.phase_invasions(s, [])
    assert s["treaty"] is None and s["box"]["green"]["cubes"] == 0  # no cubes from the dice
    assert s["prov"]["lithuania"]["enemy"]["green"] == DEFAULT.values["enemy_strength"]["green"][0]  # round-1 base


def test_a_treaty_that_holds_is_told_as_such_p7_p10():
    """p.10 "Nem támad az az ellenfél, akinek dobozán ott van az egyezségkorong": the log
    says the treaty held (its own kind), not an invasion without a count."""
    s = invasion_state(1, WHITE, [2, 6, 6, 6])
    s["box"]["green"]["royal"] = 0
    s["treaty"] = "green"
    ev = []
    war.phase_invasions(s, ev)
    held = [e for e in ev if e["params"].get("enemy") == "green" and e["kind"] != "dice"]
    assert [(e["kind"], e["params"]["enemy"]) for e in held] == [("treaty_held", "green")]
    assert all(e["kind"] != "invasion" or "count" in e["params"] for e in ev)


def test_other_colours_cancel_after_the_defence_p10():
    s = invasion_state(1, WHITE, [6, 6, 6, 6, 5])
    s["box"]["black"]["royal"] = 0
    s["box"]["black"]["nobles"] = [DEFAULT.values["enemy_strength"]["black"][0] - 3, 0, 0]  # 3 Teutonic cubes
    enemy(s, "prussia", green=1)
    units(s, "prussia", WHITE, infantry=1)
    war.phase_invasions(s, [])
    # One hit on the invaders, then the Russian cube cancels one more: one black cube left.
    assert s["prov"]["prussia"]["enemy"] == {"black": 1, "green": 0, "yellow": 0, "orange": 0, "purple": 0}


def test_counterattack_example_p12():
    """p.12: continuing example 1, blue (start player) attacks Ukraine with the royal army for
    free and scores a hit; white gives up a Sejm disc, attacks Ukraine too and removes the
    last Tatar cube; surplus hits are lost and never reach the Tatar box."""
    s = blank(round_=2, start=BLUE, dice=[6, 2, 3, 2,  6, 6, 3, 2])
    s["phase"] = "counterattack"
    s["royal_army"] = {"infantry": 2, "cavalry": 2, "cannon": 0}
    enemy(s, "ukraine", yellow=2)
    s["sejm"]["prussia"] = WHITE
    war.phase_counterattack(s, [])
    s = act(s, BLUE, {"type": "counterattack", "target": "ukraine"})
    assert s["prov"]["ukraine"]["enemy"]["yellow"] == 1
    # Blue's free attack is spent and he has no disc: only passing is left.
    assert list(war.legal_counterattack(s, BLUE)) == [{"type": "pass"}]
    s = act(s, RED, {"type": "pass"})  # red has no Sejm disc
    s = act(s, WHITE, {"type": "counterattack", "target": "ukraine", "disc": "prussia"})
    assert s["prov"]["ukraine"]["enemy"]["yellow"] == 0 and s["sejm"]["prussia"] is None
    assert s["box"]["yellow"]["cubes"] == 0 and s["box"]["yellow"]["royal"] == 0


def test_counterattack_relieves_vienna_p12():
    """p.12: continuing example 3, the start player's free attack and a second one for a disc
    against the Turks on the Habsburg box: four hits remove four Turkish cubes."""
    s = blank(round_=3, start=RED, dice=[5, 6, 2, 2,  5, 1, 4, 3])
    s["phase"] = "counterattack"
    s["royal_army"] = {"infantry": 2, "cavalry": 2, "cannon": 0}
    s["turks_on_habsburg"] = 8
    s["sejm"]["ukraine"] = RED
    war.phase_counterattack(s, [])
    s = act(s, RED, {"type": "counterattack", "target": "habsburg"})
    s = act(s, WHITE, {"type": "pass"})
    s = act(s, BLUE, {"type": "pass"})
    s = act(s, RED, {"type": "counterattack", "target": "habsburg", "disc": "ukraine"})
    assert s["turks_on_habsburg"] == 4
    assert s["royal_army"] == {"infantry": 1, "cavalry": 2, "cannon": 0}  # a 1 destroyed a unit


def test_raid_example_1_p13():
    """p.13: the Swedes in Prussia outnumber the noble cubes there by 4: four new Swedish
    cubes go to Lithuania and to Great Poland. In Lithuania blue's two units score one hit;
    the two Russian cubes there cancel two Swedes: one Swede is left."""
    s = blank(round_=2, start=BLUE, dice=[5, 3])
    enemy(s, "prussia", black=5)
    nobles(s, "prussia", [1, 0, 0])
    enemy(s, "lithuania", green=2)
    units(s, "lithuania", BLUE, infantry=2)
    war.phase_raids(s, [])
    assert s["prov"]["prussia"]["enemy"]["black"] == 5 and s["prov"]["prussia"]["nobles"] == [1, 0, 0]
    assert s["prov"]["lithuania"]["enemy"]["black"] == 1 and s["prov"]["lithuania"]["enemy"]["green"] == 0
    assert s["prov"]["great_poland"]["enemy"]["black"] == 4


def test_raid_example_2_turkish_garrison_p13():
    """p.13: four Turkish cubes on the Habsburg box: two stay as if two noble cubes were
    there, the other two move into Great Poland."""
    s = blank(round_=3)
    s["turks_on_habsburg"] = 4
    war.phase_raids(s, [])
    assert s["turks_on_habsburg"] == 2 and s["prov"]["great_poland"]["enemy"]["orange"] == 2


def test_raids_never_enter_a_province_with_their_own_cubes_and_share_a_short_supply_p12():
    s = blank()
    enemy(s, "prussia", black=20)
    enemy(s, "great_poland", black=1)
    war.phase_raids(s, [])
    assert s["prov"]["great_poland"]["enemy"]["black"] == 1
    assert s["prov"]["lithuania"]["enemy"]["black"] == 4  # only 4 cubes left in the supply
    s = blank()
    enemy(s, "prussia", black=20)
    war.phase_raids(s, [])
    split = sorted([s["prov"]["lithuania"]["enemy"]["black"], s["prov"]["great_poland"]["enemy"]["black"]])
    assert split == [2, 3]


def test_habsburg_influence_spreads_along_the_purple_arrows_p12():
    s = blank(start=WHITE)
    s["prov"]["great_poland"]["influence"] = 2
    nobles(s, "prussia", [1, 0, 0])
    enemy(s, "little_poland", orange=1)
    nobles(s, "little_poland", [0, 1, 0])  # enough that the Turkish cube does not raid
    war.phase_raids(s, [])
    assert s["prov"]["prussia"]["nobles"] == [0, 0, 0] and s["prov"]["prussia"]["influence"] == 1
    assert s["prov"]["little_poland"]["influence"] == 0  # destroyed by the enemy cube there
