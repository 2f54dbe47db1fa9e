"""The 110 cards and how a battle line's strength is computed (pp. 10-15).

Inside the state a line is a list of card codes; a face-down card (Hidden
Cards variant, p. 19) carries a "?" prefix, e.g. "?m10".
"""

from __future__ import annotations

from collections import Counter

MERCENARY_VALUES = {"m1": 1, "m2": 2, "m3": 3, "m4": 4, "m5": 5, "m6": 6, "m10": 10}

DECK_COUNTS = {
    "m1": 10, "m2": 8, "m3": 8, "m4": 8, "m5": 8, "m6": 8, "m10": 8,
    "winter": 3, "spring": 3, "bishop": 6, "courtesan": 12, "drummer": 6,
    "heroine": 3, "scarecrow": 16, "surrender": 3,
}
STANDARD_DECK = tuple(code for code, count in DECK_COUNTS.items() for _ in range(count))
assert len(STANDARD_DECK) == 110

CARD_NAMES = {
    **{code: f"Mercenary {value}" for code, value in MERCENARY_VALUES.items()},
    "winter": "Winter", "spring": "Spring", "bishop": "Bishop", "courtesan": "Courtesan",
    "drummer": "Drummer", "heroine": "Heroine", "scarecrow": "Scarecrow", "surrender": "Surrender",
}
# Printed strength: Heroine 10 and Courtesan 1 are not mercenaries (pp. 13-14).
PRINTED = {**MERCENARY_VALUES, "heroine": 10, "courtesan": 1}
# Played face down in the Hidden Cards variant (p. 19).
FACE_DOWN_KINDS = frozenset(MERCENARY_VALUES) | {"drummer", "heroine", "courtesan"}

HIDDEN = "?"


def is_mercenary(code: str) -> bool:
    return code in MERCENARY_VALUES


def same_cards(cards) -> bool:
    """True if `cards` is a permutation of the standard deck."""
    return isinstance(cards, list) and all(isinstance(c, str) for c in cards) and Counter(cards) == DECK_COUNTS


def card_name(code: str) -> str:
    return CARD_NAMES[code]


def bare(code: str) -> str:
    return code[1:] if code[0] == HIDDEN else code


def season_of(lines) -> str | None:
    """The season in effect; Winter and Spring never coexist (each discards the other, pp. 10-11)."""
    for line in lines:
        for code in line:
            if code == "winter":
                return "winter"
            if code == "spring":
                return "spring"
    return None


def counted(lines, seen) -> list[list[str]]:
    """The cards of each line that count for a viewer.

    `seen` is "all" (battle resolution: everything is turned up), or a seat
    (that seat also counts its own face-down card), or None (face-up only).
    """
    out = []
    for seat, line in enumerate(lines):
        if seen == "all" or seen == seat:
            out.append([bare(c) for c in line])
        else:
            out.append([c for c in line if c[0] != HIDDEN])
    return out


def highest_mercenary(lines) -> int:
    """Highest printed mercenary value among the given (already filtered) lines, 0 if none."""
    best = 0
    for line in lines:
        for code in line:
            value = MERCENARY_VALUES.get(code, 0)
            if value > best:
                best = value
    return best


def card_strengths(lines) -> list[list[int]]:
    """Per-card live strength of each (filtered) line.

    Winter makes every mercenary 1, a Drummer doubles its own line's
    mercenaries after Winter (p. 13: Winter + Drummer = 2), Spring then adds 3
    to every mercenary of the highest printed value in any line (p. 14: double
    first, then +3).  Several copies of one of these cards count once.
    """
    season = season_of(lines)
    top = highest_mercenary(lines) if season == "spring" else 0
    result = []
    for line in lines:
        drum = "drummer" in line
        values = []
        for code in line:
            printed = MERCENARY_VALUES.get(code)
            if printed is None:
                values.append(PRINTED.get(code, 0))
                continue
            value = 1 if season == "winter" else printed
            if drum:
                value *= 2
            if printed == top:
                value += 3
            values.append(value)
        result.append(values)
    return result


def line_totals(lines) -> list[int]:
    return [sum(values) for values in card_strengths(lines)]
