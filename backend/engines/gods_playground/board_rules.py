"""What a God's Playground board file must say: its shape (every key, type,
length and range) and every constraint the rulebook puts on its values.

`problems(values)` lists each broken rule as "path = value: what is wrong"
(the constraints add the page they come from), so an operator's bad file is
refused with a message naming the value and the rule it breaks.  Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from typing import Any

ROUNDS = 4
PROVINCES = ("prussia", "lithuania", "ukraine", "little_poland", "great_poland")
ENEMIES = ("black", "green", "yellow", "orange", "purple")
UNITS = ("infantry", "cavalry", "cannon")
MAX_NOBLE_SUM = 15  # three noble tiles of at most 5 (p.2) on the royal box


# ---- shape ---------------------------------------------------------------------


@dataclass(frozen=True)
class Int:
    lo: int
    hi: int


@dataclass(frozen=True)
class Str:
    choices: tuple | None = None  # None: any non-empty text


@dataclass(frozen=True)
class Seq:
    item: Any
    lo: int
    hi: int


def _per(keys, spec) -> dict:
    return {k: spec for k in keys}


SCHEMA: dict = {
    "influence_markers": Int(0, 50),
    "turks_round4_with_habsburg": Int(0, 30),
    "turkish_garrison": Int(0, 10),
    "income_start": Int(1, 10),
    "income_min": Int(0, 10),
    "income_max": Int(1, 10),
    "minimum_income": Int(0, 100),
    "steward_bonus": Int(0, 10),
    "start_money": Int(0, 100),
    "start_estates": Int(0, 5),
    "noble_cubes": Int(1, 50),
    "discs": Int(1, 50),
    "discs_on_vp_track": Int(0, 5),
    "noble_tiles": Seq(Int(0, 5), 12, 12),
    "cossacks": Int(0, 10),
    "stewards": Int(0, 30),
    "towns": Int(0, 10),
    "royal_cubes": Int(0, 50),
    "enemy_dice": Int(1, 10),
    "treaty_break_dice": Int(1, 10),
    "treaty_extra_cost": Int(0, 20),
    "estate_cube_cost": Seq(Int(0, 5), 2, 2),
    "right_of_arms_cubes": Int(0, 10),
    "town_cubes": Int(0, 10),
    "cannon_bonus": Int(0, 5),
    "habsburg_rise_cubes": Int(0, 10),
    "jesuit_cost": Int(0, 20),
    "jesuit_bonus_all": Int(0, 20),
    "sejm_vp": Int(0, 20),
    "talers_per_vp": Int(1, 50),
    "town_multiplier": Int(1, 10),
    "round_names": Seq(Str(), ROUNDS, ROUNDS),
    "court_troops": Seq({"infantry": Int(0, 4), "cavalry": Int(0, 4)}, ROUNDS, ROUNDS),
    "royal_table": Seq(Seq(Int(0, MAX_NOBLE_SUM), 4, 4), 1, MAX_NOBLE_SUM + 1),
    "enemy_province": _per(ENEMIES, Str(PROVINCES)),
    "enemy_die": _per(ENEMIES, Int(1, 6)),
    "enemy_strength": _per(ENEMIES, Seq(Int(0, 30), ROUNDS, ROUNDS)),
    "enemy_vp": _per(ENEMIES, Int(0, 20)),
    "enemy_cubes": _per(ENEMIES, Int(1, 50)),
    "raid_arrows": _per(ENEMIES, Seq(Str(PROVINCES), 1, len(PROVINCES) - 1)),
    "estate_vp": _per(PROVINCES, Seq(Int(0, 20), 1, 15)),
    "unit_limits": _per(UNITS, Int(0, 10)),
    "unit_cost": _per(UNITS + ("cossack",), Int(0, 20)),
    "hit_on": _per(("infantry", "cavalry", "cossack"), Int(1, 7)),
    "royal_limits": _per(UNITS, Int(0, 10)),
}


def _show(value) -> str:
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return str(value).lower() if isinstance(value, bool) else str(value)


def shape_problems(spec, value, path: str) -> list[str]:
    """Every way `value` (plain JSON) differs from `spec`, each naming its path."""
    if isinstance(spec, dict):
        if not isinstance(value, dict):
            return [f"{path}: must be a table with the keys {', '.join(spec)}"]
        out = [f"{path}.{k}: missing" if path else f"{k}: missing" for k in spec if k not in value]
        out += [f"{path + '.' if path else ''}{k}: not a key of the board (known: {', '.join(spec)})"
                for k in value if k not in spec]
        for k in spec:
            if k in value:
                out += shape_problems(spec[k], value[k], f"{path}.{k}" if path else k)
        return out
    if isinstance(spec, Seq):
        if not isinstance(value, (list, tuple)):
            return [f"{path} = {_show(value)}: must be a list"]
        if not spec.lo <= len(value) <= spec.hi:
            size = str(spec.lo) if spec.lo == spec.hi else f"{spec.lo} to {spec.hi}"
            return [f"{path} = {_show(value)}: must have {size} entries, not {len(value)}"]
        return [p for i, v in enumerate(value) for p in shape_problems(spec.item, v, f"{path}[{i}]")]
    if isinstance(spec, Int):
        if not isinstance(value, int) or isinstance(value, bool):
            return [f"{path} = {_show(value)}: must be a whole number"]
        if not spec.lo <= value <= spec.hi:
            return [f"{path} = {value}: must be from {spec.lo} to {spec.hi}"]
        return []
    if not isinstance(value, str) or not value.strip():
        return [f"{path} = {_show(value)}: must be a text"]
    if spec.choices is not None and value not in spec.choices:
        return [f"{path} = {_show(value)}: must be one of {', '.join(spec.choices)}"]
    return []


# ---- the rulebook's constraints ------------------------------------------------
# Each: the page, what the rulebook says, and a check returning (path, value) pairs
# that break it.  The tests hold one bad board per constraint.


@dataclass(frozen=True)
class Constraint:
    page: str
    rule: str
    check: Callable[[dict], list]

    def problems(self, b: dict) -> list[str]:
        return [f"{path} = {_show(value)}: {self.rule} (rulebook {self.page})" for path, value in self.check(b)]


def _get(b: dict, path: str):
    node = b
    for part in path.replace("]", "").replace("[", ".").split("."):
        node = node[int(part)] if part.isdigit() else node[part]
    return node


def _equals(path: str, expected) -> Callable[[dict], list]:
    def check(b):
        value = _get(b, path)
        plain = list(value) if isinstance(value, (list, tuple)) else value
        want = list(expected) if isinstance(expected, (list, tuple)) else expected
        if isinstance(plain, list):
            plain = [list(v) if isinstance(v, (list, tuple)) else v for v in plain]
        return [] if plain == want else [(path, value)]
    return check


def _printed(path: str, value, page: str, what: str) -> Constraint:
    return Constraint(page, f"the rulebook states {_show(value)} ({what})", _equals(path, value))


# Numbers the rulebook states outright.
STATED = [
    _printed("enemy_strength.yellow[1]", 7, "p.11", "example 1: the Tatars' base strength 7 in round 2"),
    _printed("enemy_strength.orange[2]", 12, "p.11", "example 3: the Turks' base strength 12 in round 3"),
    _printed("enemy_strength.orange[3]", 3, "p.10", "the Turks' base strength 3 in round 4"),
    _printed("turks_round4_with_habsburg", 10, "p.10", "round 4, Turks holding the Habsburg box: base 10"),
    _printed("turkish_garrison", 2, "p.10", "at most two Turkish cubes stay on the Habsburg box"),
    _printed("enemy_vp.orange", 5, "p.14", "the Turks' box gives 5 VP"),
    _printed("sejm_vp", 2, "p.14", "2 VP per Sejm disc"),
    _printed("talers_per_vp", 5, "p.14", "1 VP per 5 talers"),
    _printed("jesuit_cost", 2, "p.8", "2 talers per Jesuit school"),
    _printed("jesuit_bonus_all", 2, "p.8", "2 more VP for all five provinces"),
    _printed("court_troops[0].infantry", 2, "p.5", "round 1 court troops: two infantry"),
    _printed("court_troops[0].cavalry", 2, "p.5", "round 1 court troops: two cavalry"),
    _printed("royal_table[4]", [8, 2, 1, 1], "p.5", "nobles summing 8 add two infantry, a cavalry and the cannon"),
    _printed("royal_limits.infantry", 4, "p.5", "the royal army has four infantry"),
    _printed("royal_limits.cavalry", 4, "p.5", "the royal army has four cavalry"),
    _printed("royal_limits.cannon", 1, "p.5", "the royal army has one cannon"),
    _printed("unit_limits.infantry", 4, "p.8", "four infantry per player"),
    _printed("unit_limits.cavalry", 3, "p.8", "three cavalry per player"),
    _printed("unit_limits.cannon", 1, "p.8", "one cannon per player"),
    _printed("unit_cost.infantry", 2, "p.8", "an infantry costs 2 talers"),
    _printed("unit_cost.cavalry", 4, "p.8", "a cavalry costs 4 talers"),
    _printed("unit_cost.cannon", 6, "p.8", "a cannon costs 6 talers"),
    _printed("unit_cost.cossack", 2, "p.8", "a Cossack costs 2 talers"),
    _printed("hit_on.infantry", 5, "p.9", "infantry hits on 5 or more"),
    _printed("hit_on.cavalry", 4, "p.9", "cavalry hits on 4 or more"),
    _printed("hit_on.cossack", 4, "p.9", "Cossacks fight as cavalry"),
    _printed("cannon_bonus", 1, "p.9", "a cannon adds 1 to every roll"),
    _printed("noble_cubes", 20, "p.2", "20 noble cubes per player"),
    _printed("discs", 16, "p.2", "16 discs per player"),
    _printed("discs_on_vp_track", 1, "p.14", "one disc marks the VP track"),
    _printed("stewards", 8, "p.2", "8 steward discs"),
    _printed("towns", 2, "p.2", "2 town discs"),
    _printed("royal_cubes", 20, "p.2", "20 royal cubes"),
    _printed("cossacks", 2, "p.2", "2 Cossack cavalry"),
    _printed("influence_markers", 10, "p.2", "10 Habsburg influence markers"),
    _printed("enemy_cubes.orange", 25, "p.2", "25 cubes per enemy colour"),
    _printed("noble_tiles", [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5], "p.2", "two noble tiles of each value 0-5"),
    _printed("start_money", 10, "p.4", "10 talers each at the start"),
    _printed("start_estates", 3, "p.4", "three estates each at the start"),
    _printed("income_start", 3, "p.4", "every income marker starts on 3"),
    _printed("minimum_income", 10, "p.4", "an income below 10 is raised to 10"),
    _printed("steward_bonus", 2, "p.4", "a steward adds 2 to the estate's income"),
    _printed("income_min", 1, "p.13", "an income never falls below 1"),
    _printed("income_max", 5, "p.13", "an income never rises above 5"),
    _printed("habsburg_rise_cubes", 2, "p.13", "Great Poland needs two noble cubes to rise under influence"),
    _printed("town_multiplier", 3, "p.15", "a town triples its estate's VP"),
    _printed("enemy_dice", 4, "p.6", "four dice for events and invasions"),
    _printed("treaty_extra_cost", 2, "p.7", "a treaty costs the die plus 2 talers"),
    _printed("treaty_break_dice", 2, "p.7", "two dice showing the enemy's number break a treaty"),
    _printed("estate_cube_cost", [1, 2], "p.6", "the first estate of a round costs one cube, later ones two"),
    _printed("right_of_arms_cubes", 2, "p.7", "the right of arms costs two noble cubes"),
    _printed("town_cubes", 2, "p.8", "a town costs two noble cubes"),
    _printed("enemy_province.black", "prussia", "p.14", "the black enemy strikes Prussia"),
    _printed("enemy_province.green", "lithuania", "p.9", "Russia is attacked from Lithuania"),
    _printed("enemy_province.yellow", "ukraine", "p.9", "the Tatars are attacked from Ukraine"),
    _printed("enemy_province.orange", "little_poland", "p.9", "the Turks are attacked from Little Poland"),
    _printed("enemy_province.purple", "great_poland", "p.10", "the Habsburgs' influence falls on Great Poland"),
    _printed("enemy_die.black", 1, "p.10", "a 1 adds a black cube"),
    _printed("enemy_die.green", 2, "p.6", "a 2 adds a Russian cube"),
    _printed("enemy_die.yellow", 3, "p.10", "a 3 adds a Tatar cube"),
    _printed("enemy_die.orange", 4, "p.6", "a 4 adds a Turkish cube"),
    _printed("enemy_die.purple", 5, "p.10", "a 5 adds a Habsburg influence marker"),
    _printed("raid_arrows.black", ["lithuania", "great_poland"], "p.13",
             "raid example 1: the Swedes spread from Prussia to Lithuania and Great Poland"),
] + [
    _printed(f"enemy_strength.purple[{r}]", 0, "p.10", f"the Habsburgs have no army in round {r + 1}")
    for r in range(3)
]


def _turks_round2(b):
    value = b["enemy_strength"]["orange"][1]
    return [] if value <= 5 else [("enemy_strength.orange[1]", value)]


def _tatars_vp(b):
    value = b["enemy_vp"]["yellow"]
    return [] if value // 2 == 1 else [("enemy_vp.yellow", value)]


def _lithuania_example(b):
    """p.15: red scores 9 for a Lithuanian estate with a town (a 3) and 4 for another,
    blue 10 and white 4 for theirs: the row holds disjoint spaces for all four."""
    row = list(b["estate_vp"]["lithuania"])
    for red in ((i, j) for i in range(len(row)) for j in range(len(row)) if i != j):
        if row[red[0]] * b["town_multiplier"] != 9 or row[red[1]] != 4:
            continue
        rest = [v for k, v in enumerate(row) if k not in red]
        if _two_disjoint_sums(rest, 10, 4):
            return []
    return [("estate_vp.lithuania", row)]


def _two_disjoint_sums(values: list, first: int, second: int) -> bool:
    idx = range(len(values))
    for n in range(1, len(values) + 1):
        for a in combinations(idx, n):
            if sum(values[i] for i in a) != first:
                continue
            rest = [values[i] for i in idx if i not in a]
            if any(sum(c) == second for m in range(1, len(rest) + 1) for c in combinations(rest, m)):
                return True
    return False


# What the rulebook's examples imply without stating the number.
DERIVED = [
    Constraint("p.11", "the Turks' round-2 base strength is at most 5: five noble cubes on their box match "
               "their strength and they do not invade (example 1; p.14: Little Poland's income rises)",
               _turks_round2),
    Constraint("p.14", "the Tatars' VP are 2 or 3: a two-way tie for the most cubes gives each player 1 VP",
               _tatars_vp),
    Constraint("p.15", "Lithuania's row must fit the end-game example: red 9 for an estate with a town and 4, "
               "blue 10 and white 4 from other spaces", _lithuania_example),
]


# ---- consistency the engine relies on ------------------------------------------


def _rows_least_first(b):
    return [(f"estate_vp.{p}", row) for p, row in b["estate_vp"].items() if list(row) != sorted(row)]


def _starting_estates_fit(b):
    spaces = sum(len(row) for row in b["estate_vp"].values())
    need = 3 * b["start_estates"]
    return [] if spaces >= need else [("estate_vp", f"{spaces} spaces")]


def _arrows_leave_home(b):
    out = []
    for c, targets in b["raid_arrows"].items():
        if b["enemy_province"][c] in targets or len(set(targets)) != len(targets):
            out.append((f"raid_arrows.{c}", targets))
    return out


def _one_enemy_per_province(b):
    homes = list(b["enemy_province"].values())
    return [] if sorted(homes) == sorted(PROVINCES) else [("enemy_province", homes)]


def _royal_rows(b):
    rows = b["royal_table"]
    out = []
    if rows[0][0] != 0:
        out.append(("royal_table[0]", rows[0]))
    for i in range(1, len(rows)):
        if rows[i][0] <= rows[i - 1][0] or any(rows[i][k] < rows[i - 1][k] for k in (1, 2, 3)):
            out.append((f"royal_table[{i}]", rows[i]))
    return out


def _court_within_royal_limits(b):
    return [(f"court_troops[{r}].{u}", row[u]) for r, row in enumerate(b["court_troops"])
            for u in ("infantry", "cavalry") if row[u] > b["royal_limits"][u]]


def _income_range(b):
    ok = b["income_min"] <= b["income_start"] <= b["income_max"]
    return [] if ok else [("income_start", b["income_start"])]


CONSISTENCY = [
    Constraint("p.4, p.12", "estate rows run from the least valuable space to the most valuable",
               _rows_least_first),
    Constraint("p.4", "the rows must hold the three players' starting estates", _starting_estates_fit),
    Constraint("p.11", "raid arrows lead out of the enemy's own province, each to a different province",
               _arrows_leave_home),
    Constraint("p.3", "each province borders exactly one enemy box", _one_enemy_per_province),
    Constraint("p.5", "royal table rows start at sum 0, their sums rise, and more nobles never give fewer troops",
               _royal_rows),
    Constraint("p.5", "court troops fit in the royal army", _court_within_royal_limits),
    Constraint("p.4, p.13", "the income track starts between its lowest and highest space", _income_range),
]

CONSTRAINTS = STATED + DERIVED + CONSISTENCY


def problems(values: dict) -> list[str]:
    """Every broken rule of a board's plain values; empty when the board is valid."""
    out = shape_problems(SCHEMA, values, "")
    if out:
        return out  # the constraints read values of the right shape
    return [p for c in CONSTRAINTS for p in c.problems(values)]
