"""Everything printed on the God's Playground board or box, in one place.

Each value is tagged with where it comes from:
  * "rulebook p.N"  - a number the Hungarian rulebook (Warfrog 2009) states;
  * "research"      - /work/shared/boards/gods_playground.md, a public source;
  * "provisional"   - a guess that lets the game run until the printed board
                      is available (docs/rules/gods_playground.md lists them all).
The engine reads only the plain constants at the bottom, which strip the tags,
so a real board replaces the guesses here and nowhere else.
"""

from __future__ import annotations


def T(value, source):
    """A board value with its source."""
    return {"value": value, "source": source}


def _plain(tagged):
    if isinstance(tagged, dict) and set(tagged) == {"value", "source"}:
        return _plain(tagged["value"])
    if isinstance(tagged, dict):
        return {k: _plain(v) for k, v in tagged.items()}
    if isinstance(tagged, (list, tuple)):
        return tuple(_plain(v) for v in tagged)
    return tagged


# ---- Families and provinces --------------------------------------------------

TAGGED = {
    # Seat 0, 1, 2 (p.2: white Radziwiłł, blue Potocki, red Sapieha).
    "families": T(("Radziwiłł", "Potocki", "Sapieha"), "rulebook p.2"),
    "colours": T(("white", "blue", "red"), "rulebook p.2"),
    # Province order is the election order, "Prussia first, then clockwise" (p.6).
    "provinces": T(("prussia", "lithuania", "ukraine", "little_poland", "great_poland"), "rulebook p.6"),
    # Enemy order is the invasion order black-green-yellow-orange, purple last (p.10).
    "enemies": T(("black", "green", "yellow", "orange", "purple"), "rulebook p.10"),
    # Each enemy box borders one province (p.3, p.9: "to attack Russia remove the cube from Lithuania").
    "enemy_province": {
        "black": T("prussia", "rulebook p.14"),
        "green": T("lithuania", "rulebook p.9"),
        "yellow": T("ukraine", "rulebook p.9"),
        "orange": T("little_poland", "rulebook p.9"),
        "purple": T("great_poland", "rulebook p.10"),
    },
    # Die face that adds a cube to each box (examples p.6 and p.10: 1 Prussians, 2 Russians,
    # 3 Tatars, 4 Turks, 5 Habsburg influence, 6 nothing).
    "enemy_die": {
        "black": T(1, "rulebook p.10"),
        "green": T(2, "rulebook p.6"),
        "yellow": T(3, "rulebook p.10"),
        "orange": T(4, "rulebook p.6"),
        "purple": T(5, "rulebook p.10"),
    },
    # Base strength per round (the box's strength track, p.10).
    "enemy_strength": {
        "black": (T(8, "provisional"), T(10, "provisional"), T(6, "provisional"), T(10, "provisional")),
        "green": (T(3, "provisional"), T(6, "provisional"), T(9, "provisional"), T(14, "provisional")),
        "yellow": (T(8, "provisional"), T(7, "rulebook p.11"), T(6, "provisional"), T(4, "provisional")),
        "orange": (T(4, "provisional"), T(8, "provisional"), T(12, "rulebook p.11"), T(3, "rulebook p.10")),
        # Rounds 1-3: influence only, no military strength (p.10); round 4 attacks.
        "purple": (T(0, "rulebook p.10"), T(0, "rulebook p.10"), T(0, "rulebook p.10"), T(10, "provisional")),
    },
    # Round 4 with Turkish cubes on the Habsburg box: both Turkish boxes have base 10
    # (p.10; the player aid's "12" is 10 plus the two garrison cubes, see the rules doc).
    "turks_round4_with_habsburg": T(10, "rulebook p.10"),
    # Turkish cubes left on the Habsburg box as a garrison (p.10, p.12, p.14).
    "turkish_garrison": T(2, "rulebook p.10"),
    # VP for the most noble cubes on a box (p.14: Turks 5; Tatars split 1 each in a
    # two-way tie, so the Tatars' value is 2 or 3: the guess 3 keeps to that).
    "enemy_vp": {
        "black": T(3, "provisional"),
        "green": T(3, "provisional"),
        "yellow": T(3, "provisional"),
        "orange": T(5, "rulebook p.14"),
        "purple": T(3, "provisional"),
    },
    # Enemy cubes in the box (p.2) and Habsburg influence markers (p.2).
    "enemy_cubes": {
        "black": T(25, "rulebook p.2"),
        "green": T(25, "rulebook p.2"),
        "yellow": T(25, "rulebook p.2"),
        "orange": T(25, "rulebook p.2"),
        "purple": T(25, "rulebook p.2"),
    },
    "influence_markers": T(10, "rulebook p.2"),
    # Raiding arrows: where each enemy's cubes spread from its province (p.12).
    "raid_arrows": {
        "black": T(("lithuania", "great_poland"), "rulebook p.13"),
        "green": T(("ukraine", "great_poland"), "provisional"),
        "yellow": T(("little_poland", "lithuania"), "provisional"),
        "orange": T(("ukraine", "great_poland"), "provisional"),
        "purple": T(("prussia", "little_poland"), "research"),
    },
    # Estate rows, least valuable first (p.4: the first disc goes on the least valuable
    # space). The printed values are unknown except Lithuania, fitted to the end-game
    # example (p.15: red 3 with a town = 9 and 4; blue 10; white 4).
    "estate_vp": {
        "prussia": T((1, 1, 2, 2, 3, 3, 4), "provisional"),
        "lithuania": T((1, 2, 3, 3, 4, 4, 4), "provisional"),
        "ukraine": T((1, 2, 2, 3, 3, 4, 5), "provisional"),
        "little_poland": T((1, 1, 2, 2, 3, 3, 4), "provisional"),
        "great_poland": T((1, 1, 2, 2, 3, 3, 4), "provisional"),
    },
    "income_start": T(3, "rulebook p.4"),
    "income_min": T(1, "rulebook p.13"),
    "income_max": T(5, "rulebook p.13"),
    "minimum_income": T(10, "rulebook p.4"),
    "steward_bonus": T(2, "rulebook p.4"),
    "start_money": T(10, "rulebook p.4"),
    "start_estates": T(3, "rulebook p.4"),
    # Per player (p.2).
    "noble_cubes": T(20, "rulebook p.2"),
    "discs": T(16, "rulebook p.2"),
    # One disc marks the VP track (p.14), so 15 are left for estates and the Sejm.
    "discs_on_vp_track": T(1, "rulebook p.14"),
    "noble_tiles": T((0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5), "rulebook p.2"),
    "unit_limits": {
        "infantry": T(4, "rulebook p.8"),
        "cavalry": T(3, "rulebook p.8"),
        "cannon": T(1, "rulebook p.8"),
    },
    "unit_cost": {
        "infantry": T(2, "rulebook p.8"),
        "cavalry": T(4, "rulebook p.8"),
        "cannon": T(6, "rulebook p.8"),
        "cossack": T(2, "rulebook p.8"),
    },
    # Hit on this roll or better; a cannon adds 1 to every roll; a natural 1 destroys (p.9).
    "hit_on": {"infantry": T(5, "rulebook p.9"), "cavalry": T(4, "rulebook p.9"), "cossack": T(4, "rulebook p.9")},
    "cossacks": T(2, "rulebook p.2"),
    "stewards": T(8, "rulebook p.2"),
    "towns": T(2, "rulebook p.2"),
    "royal_cubes": T(20, "rulebook p.2"),
    "royal_limits": {
        "infantry": T(4, "rulebook p.5"),
        "cavalry": T(4, "rulebook p.5"),
        "cannon": T(1, "rulebook p.5"),
    },
    # Court troops by round, read from the round track (p.5: round 1 two infantry, two cavalry).
    "court_troops": (
        {"infantry": T(2, "rulebook p.5"), "cavalry": T(2, "rulebook p.5")},
        {"infantry": T(2, "provisional"), "cavalry": T(2, "provisional")},
        {"infantry": T(2, "provisional"), "cavalry": T(2, "provisional")},
        {"infantry": T(1, "provisional"), "cavalry": T(1, "provisional")},
    ),
    # Extra royal troops by the sum of the three nobles on the royal box: rows are
    # (lowest sum, +infantry, +cavalry, +cannon). Only the sum-8 row is printed in the
    # rulebook (p.5: two infantry, one cavalry and the cannon).
    "royal_table": (
        T((0, 0, 0, 0), "research"),
        T((2, 1, 0, 0), "research"),
        T((4, 1, 1, 0), "research"),
        T((6, 2, 1, 0), "research"),
        T((8, 2, 1, 1), "rulebook p.5"),
        T((10, 2, 2, 1), "research"),
    ),
    # Four dice for events and invasions (p.2: "4 dobókocka"), events p.6 and invasions p.10.
    "enemy_dice": T(4, "rulebook p.6"),
    # A treaty breaks when at least two invasion dice show its enemy's number (p.7, p.10).
    "treaty_break_dice": T(2, "rulebook p.7"),
    # A treaty costs a die roll plus two talers (p.7: a 5 costs 7).
    "treaty_extra_cost": T(2, "rulebook p.7"),
    # Estate purchase: the first of the round costs one cube from the province, every
    # later one two (p.6, p.16).
    "estate_cube_cost": T((1, 2), "rulebook p.6"),
    # Cubes removed from the province for the right of arms and for a town (p.7, p.8).
    "right_of_arms_cubes": T(2, "rulebook p.7"),
    "town_cubes": T(2, "rulebook p.8"),
    # A cannon adds this to every roll (p.9).
    "cannon_bonus": T(1, "rulebook p.9"),
    # Great Poland's income rises under Habsburg influence only with this many cubes (p.13).
    "habsburg_rise_cubes": T(2, "rulebook p.13"),
    # Jesuit schools: 1 VP per province, +2 for all five (p.8), cost 2 talers each.
    "jesuit_cost": T(2, "rulebook p.8"),
    "jesuit_bonus_all": T(2, "rulebook p.8"),
    "sejm_vp": T(2, "rulebook p.14"),
    "talers_per_vp": T(5, "rulebook p.14"),
    "town_multiplier": T(3, "rulebook p.15"),
    "round_names": (T("Jagiellon", "rulebook p.4"), T("Vasa", "research"), T("Sobieski", "research"), T("Augustus", "research")),
}

BOARD = _plain(TAGGED)

FAMILIES = BOARD["families"]
COLOURS = BOARD["colours"]
PROVINCES = BOARD["provinces"]
ENEMIES = BOARD["enemies"]
HOME = BOARD["enemy_province"]
DIE = BOARD["enemy_die"]
DIE_ENEMY = {v: k for k, v in DIE.items()}
STRENGTH = BOARD["enemy_strength"]
TURKS_R4_WITH_HABSBURG = BOARD["turks_round4_with_habsburg"]
GARRISON = BOARD["turkish_garrison"]
ENEMY_VP = BOARD["enemy_vp"]
ENEMY_CUBES = BOARD["enemy_cubes"]
INFLUENCE_MARKERS = BOARD["influence_markers"]
ARROWS = BOARD["raid_arrows"]
ESTATE_VP = BOARD["estate_vp"]
UNITS = ("infantry", "cavalry", "cannon")
UNIT_LIMIT = BOARD["unit_limits"]
UNIT_COST = BOARD["unit_cost"]
HIT_ON = BOARD["hit_on"]
ROYAL_LIMIT = BOARD["royal_limits"]
COURT = BOARD["court_troops"]
ROYAL_TABLE = BOARD["royal_table"]
SLOTS = PROVINCES + ("royal",)


def provisional_values() -> list[str]:
    """Dotted paths of every provisional value (for the rules doc and its test)."""
    out = []

    def walk(node, path):
        if isinstance(node, dict) and set(node) == {"value", "source"}:
            if node["source"] == "provisional":
                out.append(path)
            return
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, f"{path}.{k}" if path else k)
        elif isinstance(node, (list, tuple)):
            for i, v in enumerate(node):
                walk(v, f"{path}[{i}]")

    walk(TAGGED, "")
    return out
