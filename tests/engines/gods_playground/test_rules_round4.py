"""The last round's special cases and a few corners of the combat rules (p.9-12)."""

from backend.engines.gods_playground import war
from backend.engines.gods_playground.board import DEFAULT

from .helpers import BLUE, RED, WHITE, act, blank, enemy, nobles, units


def held_borders(round_, start=WHITE, dice=None):
    s = blank(round_=round_, start=start, dice=dice)
    for c in ("black", "green", "yellow", "orange", "purple"):
        s["box"][c]["royal"] = 30
    return s


def test_habsburgs_invade_great_poland_in_round_four_p2_p10():
    """p.2, p.10: the Habsburgs attack in the last round like any other enemy (their round-4
    strength is not in the text: the board's calibrated value)."""
    base = DEFAULT.values["enemy_strength"]["purple"][3]
    s = held_borders(4, dice=[5, 6, 6, 6])
    s["box"]["purple"]["royal"] = 0
    s["box"]["purple"]["nobles"] = [2, 1, 0]
    war.phase_invasions(s, [])
    assert s["box"]["purple"]["cubes"] == 1
    assert s["prov"]["great_poland"]["enemy"]["purple"] == base + 1 - 3 > 0


def test_turkish_habsburg_box_attacks_with_turks_and_raids_along_purple_arrows_p10():
    """p.10: in round 4 the Turks holding the Habsburg box are the Habsburgs: the box attacks
    Great Poland with Turkish cubes and the purple arrows count as orange. Its strength is
    10 plus the garrison (12, p.16), but "két török kocka mindig lekötve marad" (p.16): the
    box counts two noble cubes, as in the raids (p.12), so the garrison never attacks (D12)."""
    s = held_borders(4, dice=[6, 6, 6, 6])
    s["turks_on_habsburg"], s["turks_hold_habsburg"] = 2, True
    s["box"]["purple"]["royal"] = 0
    s["box"]["purple"]["nobles"] = [4, 4, 0]
    war.phase_invasions(s, [])
    assert s["prov"]["great_poland"]["enemy"]["orange"] == 12 - 8 - 2
    war.phase_raids(s, [])
    assert s["prov"]["prussia"]["enemy"]["orange"] == 2 and s["prov"]["little_poland"]["enemy"]["orange"] == 2
    assert s["turks_on_habsburg"] == 2  # the garrison does not march again in round 4 (D16)


def test_turkish_habsburg_strength_shown_is_the_strength_that_attacks_p10_p16():
    """p.10 "a Habsburgban pedig 10 (ehhez hozzáadódik még a Habsburg-birodalmat
    pacifikáló 1 vagy 2 ...)", p.16 "két török kocka mindig lekötve marad": with a full
    garrison on an undefended box the table shows 10 and exactly 10 cubes attack (the
    audit found the view saying 12 while 10 attacked)."""
    from backend.engines.gods_playground import ENGINE

    s = held_borders(4, dice=[6, 6, 6, 6])
    s["turks_on_habsburg"], s["turks_hold_habsburg"] = 2, True
    s["box"]["purple"]["royal"] = 0
    shown = ENGINE.view(s, None)["strength"]["purple"]
    war.phase_invasions(s, [])
    assert shown == 10 == s["prov"]["great_poland"]["enemy"]["orange"]
    # One Turkish cube left on the box: base 10 + 1, less the two that stay behind.
    s = held_borders(4, dice=[6, 6, 6, 6])
    s["turks_on_habsburg"], s["turks_hold_habsburg"] = 1, True
    s["box"]["purple"]["royal"] = 0
    shown = ENGINE.view(s, None)["strength"]["purple"]
    war.phase_invasions(s, [])
    assert shown == 9 == s["prov"]["great_poland"]["enemy"]["orange"]


def test_cossacks_defend_ukraine_only_against_the_tatars_p9():
    s = blank(round_=1, dice=[6, 6])
    s["cossacks"] = {"box": 0, "ukraine": 2, "tatars": 0}
    war.arrive(s, "ukraine", "orange", 3, [])
    assert s["prov"]["ukraine"]["enemy"]["orange"] == 3 and s["dice_queue"] == [6, 6]
    war.arrive(s, "ukraine", "yellow", 3, [])
    assert s["prov"]["ukraine"]["enemy"]["yellow"] == 0  # two Cossack hits, then 1 cancels 1 orange
    assert s["prov"]["ukraine"]["enemy"]["orange"] == 2


def test_a_treaty_partners_cubes_in_the_province_can_be_fought_but_its_box_cannot_p7_p9():
    s = blank(round_=2, start=RED, dice=[6, 6, 6])
    s["phase"] = "campaigns"
    war.phase_campaigns(s, [])
    s["treaty"] = "green"
    nobles(s, "lithuania", [0, 0, 1])
    units(s, "lithuania", RED, infantry=3)
    enemy(s, "lithuania", green=1)
    s = act(s, RED, {"type": "campaign", "enemy": "green", "royal": False})
    assert s["prov"]["lithuania"]["enemy"]["green"] == 0
    assert s["box"]["green"]["nobles"] == [0, 0, 0]  # two surplus hits are lost


def test_invaders_are_limited_by_the_cube_supply_p2():
    base = DEFAULT.values["enemy_strength"]["black"][0]
    s = held_borders(1, dice=[6, 6, 6, 6])
    s["box"]["black"]["royal"] = 0
    enemy(s, "lithuania", black=25 - (base - 2))  # 25 cubes in the game: base - 2 left
    war.phase_invasions(s, [])
    assert s["prov"]["prussia"]["enemy"]["black"] == base - 2


def test_a_seat_without_a_free_disc_wins_no_sejm_seat_p6():
    from backend.engines.gods_playground import early

    s = blank()
    for p in ("prussia", "lithuania", "ukraine"):
        s["prov"][p]["estates"] = [BLUE] * 5 + [None] * 2
    nobles(s, "little_poland", [0, 3, 0])
    early.phase_elections(s, [])
    assert s["sejm"]["little_poland"] is None and s["prov"]["little_poland"]["nobles"] == [0, 2, 0]
