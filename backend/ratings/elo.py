"""The rating arithmetic: places from a match's result, and Elo changes from places.

Pure functions on plain values (docs/ratings.md gives the formula and worked
examples).  A match of n players counts as the n(n-1)/2 two-player games of
its final ranking, each worth K/(n-1): a player's change is

    (K / (n - 1)) * sum over the others j of (S_ij - E_ij)

with S_ij 1 when i placed above j, 1/2 when level, 0 below, and
E_ij = 1 / (1 + 10 ** ((R_j - R_i) / 400)), every E from the ratings before the
match.  With two players this is plain Elo; with more, one match moves a rating
about as far as one two-player game does, whatever the table's size.
"""

from __future__ import annotations

INITIAL = 1500.0
K = 32.0


def places(num_seats: int, winners, scores=None, ranking=None, forfeits=()) -> list[int]:
    """Each seat's place, 1 best; level seats share a place and the next place
    is skipped (1, 2, 2, 4).  In order: a seat that forfeited (resigned, ran
    out of time, was handed to the bot while away) is below every other and
    level with the other forfeits; then a winner above a non-winner; then the
    higher score; then the game's own ranking (its tie-breaks), if it has one."""
    forfeits = set(forfeits)
    winners = set(winners or ())
    position = {seat: i for i, seat in enumerate(ranking or ())}

    def key(seat):
        if seat in forfeits:
            return (1,)
        score = scores[seat] if scores is not None and seat < len(scores) and scores[seat] is not None else 0
        return (0, seat not in winners, -score, position.get(seat, len(position)))

    keys = [key(s) for s in range(num_seats)]
    return [1 + sum(other < mine for other in keys) for mine in keys]


def expected(rating: float, other: float) -> float:
    """The score `rating` is expected to make against `other` in one game."""
    return 1.0 / (1.0 + 10.0 ** ((other - rating) / 400.0))


def changes(ratings: list[float], seat_places: list[int], k: float = K, weights=None) -> list[float]:
    """Each seat's rating change from the ratings before the match and the places it ended in.

    `weights[i][j]` (symmetric; 1 when not given) scales the pairwise game of
    seats i and j: a pair that met often lately counts less (repeat_weight).
    Symmetric weights keep the changes adding up to zero."""
    n = len(ratings)
    if n < 2:
        return [0.0] * n
    per_pair = k / (n - 1)
    out = []
    for i in range(n):
        total = 0.0
        for j in range(n):
            if i == j:
                continue
            score = 1.0 if seat_places[i] < seat_places[j] else 0.5 if seat_places[i] == seat_places[j] else 0.0
            total += (1.0 if weights is None else weights[i][j]) * (score - expected(ratings[i], ratings[j]))
        out.append(per_pair * total)
    return out


def repeat_weight(earlier: int, full: int) -> float:
    """The weight of a pair's game when they already finished `earlier` rated matches of the game
    together within the window: 1 for the first `full`, then half the one before each time."""
    return 1.0 if earlier < full else 0.5 ** (earlier - full + 1)
