"""What one seat (or a spectator) may see of a Condottiere state.

Hands are counts except your own, face-down cards of others are
{"hidden": true}, the deck is a count, the RNG is absent.  Strengths are
computed here so the frontend never re-implements the rules.  Nothing is
sent twice: whose turn it is lives in `to_move` only, a card's printed
value in the card catalogue, and `hidden` and `strength_with_hidden` appear
only where a card is face down (docs/engines.md).
"""

from __future__ import annotations

from . import board
from .cards import HIDDEN, card_strengths, counted, season_of


def build_view(engine, state: dict, seat, public_values=None) -> dict:
    """`public_values`: card_strengths of the face-up cards, if the caller has them."""
    n = state["num_players"]
    me = seat if isinstance(seat, int) and 0 <= seat < n else None
    lines = state["lines"]
    if public_values is None:
        public_values = card_strengths(counted(lines, None))
    own_values = card_strengths(counted(lines, me)) if me is not None else None
    out_lines = [_line(state, s, me, public_values, own_values) for s in range(len(lines))]
    held: list[list[str]] = [[] for _ in range(n)]
    for region, owner in state["owner"].items():
        held[owner].append(region)
    players = []
    for s in range(n):
        mine = sorted(held[s])
        players.append({"seat": s, "hand_count": len(state["hands"][s]), "regions": mine,
                        "region_count": len(mine),
                        "largest_group": len(mine) if len(mine) < 2 else board.largest_group(mine),
                        "points": state["points"][s]})
    final = state["final"]
    over = state["phase"] == "over"
    return {
        "game": "condottiere",
        "seat": me,
        "num_players": n,
        "options": dict(state["opts"]),
        "phase": state["phase"],
        # While hands are being kept or discarded, who has answered stays secret.
        "to_move": engine.asked(state),
        "game_no": state["game_no"], "round": state["round"], "battle_no": state["battle_no"],
        "regions": {r: state["owner"].get(r) for r in board.REGIONS},
        "legate": state["legate"], "legate_seat": state["legate_seat"],
        "token": {"region": state["token"], "holder": state["holder"]},
        "targets": board.targets(n, state["opts"]["larger_kingdoms"]),
        "battle": {
            "region": state["token"], "final": final is not None,
            "participants": list(final) if final is not None else list(range(n)),
            "season": season_of(lines),
            "defender": state["defender"], "lines": out_lines,
        },
        "players": players,
        "hand": sorted(state["hands"][me]) if me is not None else None,
        "deck_count": len(state["deck"]), "discard_count": len(state["discard"]),
        "last_battle": _last_battle(state["last"]),
        "result": engine.result(state) if over else None,
    }


def build_views(engine, state: dict, seats) -> dict:
    """build_view for several seats: the spectator's view once, then for each
    seat only what differs (its hand, its own line, whether it acts).  The
    views share the rest."""
    n = state["num_players"]
    lines = state["lines"]
    public_values = card_strengths(counted(lines, None))
    public = build_view(engine, state, None, public_values)
    out = {}
    for seat in seats:
        me = seat if isinstance(seat, int) and 0 <= seat < n else None
        if me is None:
            out[seat] = public
            continue
        view = dict(public)
        view["seat"] = me
        view["hand"] = sorted(state["hands"][me])
        battle = view["battle"] = dict(public["battle"])
        out_lines = battle["lines"] = list(battle["lines"])
        if any(c[0] == HIDDEN for c in lines[me]):  # else its line is the one everyone sees
            out_lines[me] = _line(state, me, me, public_values, card_strengths(counted(lines, me)))
        out[seat] = view
    return out


def _line(state: dict, s: int, me, public_values, own_values) -> dict:
    """Seat s's battle line as `me` sees it (own_values: strengths counting me's face-down cards)."""
    line = state["lines"][s]
    cards, k, own_hidden = [], 0, False
    for i, code in enumerate(line):
        if code[0] == HIDDEN:
            if s == me:  # your own face-down card, valued as you alone can see it
                own_hidden = True
                cards.append({"card": code[1:], "strength": own_values[s][i], "hidden": True})
            else:
                cards.append({"hidden": True})
            continue
        cards.append({"card": code, "strength": public_values[s][k]})
        k += 1
    entry = {"seat": s, "passed": state["passed"][s], "strength": sum(public_values[s]),
             "courtesans": sum(1 for c in line if c == "courtesan"), "cards": cards}
    if own_hidden:
        entry["strength_with_hidden"] = sum(own_values[s])
    return entry


def _last_battle(last):
    """A fresh copy, so a caller editing a view can never reach into the state."""
    if last is None:
        return None
    return {**last, "strengths": list(last["strengths"])}
