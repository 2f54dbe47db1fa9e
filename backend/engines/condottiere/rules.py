"""The flow of a game of Condottiere: dealing, battles, resolution, rounds,
victory, the final battle and the optional rules (pp. 5-20).

Every function mutates the private state copy handed to it by the engine and
appends events.  Page numbers refer to the Hungarian FFG 2006 rulebook.
"""

from __future__ import annotations

import random

from ..base import event
from ..rng import SplitMix64
from . import board
from .cards import HIDDEN, MERCENARY_VALUES, STANDARD_DECK, bare, card_name, counted, line_totals

# ---- small helpers ---------------------------------------------------------


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def rng(state: dict) -> SplitMix64 | random.Random:
    """A fresh generator for the next random decision; the state keeps seed and
    counter.  A state recording `"generator": 2` uses backend/engines/rng.py; a state
    without it is a match stored before that generator and keeps CPython's
    random.Random, so it replays as it was played."""
    key = f"condottiere:{state['seed']}:{state['shuffles']}"
    state["shuffles"] += 1
    if state.get("generator") == 2:
        return SplitMix64.from_key(key)
    return random.Random(key)


def all_cards(state: dict) -> list[str]:
    """Every card of the state (deck, discard pile, hands, lines) as bare codes."""
    out = list(state["deck"]) + list(state["discard"])
    for hand in state["hands"]:
        out.extend(hand)
    for line in state["lines"]:
        out.extend(bare(c) for c in line)
    return out


def regions_of(state: dict, seat: int) -> list[str]:
    return [r for r, s in state["owner"].items() if s == seat]


def region_count(state: dict, seat: int) -> int:
    return sum(1 for s in state["owner"].values() if s == seat)


def seats_from(state: dict, start: int) -> list[int]:
    n = state["num_players"]
    return [(start + k) % n for k in range(n)]


def face_down_index(line: list) -> int:
    for i, code in enumerate(line):
        if code[0] == HIDDEN:
            return i
    return -1


def token_allowed(state: dict, region: str) -> bool:
    """Whether the condottiere token may go to `region`: no control marker (unless
    Conquering Regions, p. 19) and never the papal legate's region (p. 4)."""
    return region != state["legate"] and (state["opts"]["conquering_regions"] or region not in state["owner"])


def token_regions(state: dict) -> list[str]:
    return [r for r in board.REGIONS if token_allowed(state, r)]


def legate_allowed(state: dict, region: str) -> bool:
    """Whether a Bishop's player may put the legate on `region` (p. 12; anywhere with
    Conquering Regions, p. 19) -- never under the condottiere token (see docs/rules)."""
    return region != state["token"] and (state["opts"]["conquering_regions"] or region not in state["owner"])


def legate_regions(state: dict) -> list[str]:
    return [r for r in board.REGIONS if legate_allowed(state, r)]


def takeable(state: dict, seat: int) -> list[str]:
    """Own face-up mercenaries a Scarecrow may take back (p. 15, p. 20)."""
    return sorted({c for c in state["lines"][seat] if c in MERCENARY_VALUES})


def may_wait(state: dict, seat: int) -> bool:
    """Conquering Regions (p. 19): the defender may pass without leaving the
    battle until their first card, while any other player is still in."""
    if seat != state["defender"] or state["defender_played"]:
        return False
    passed = state["passed"]
    return any(not passed[s] for s in range(state["num_players"]) if s != seat)


def draw(state: dict, seat: int, count: int, events: list, reshuffle: bool = False) -> None:
    """Seat draws `count` cards from the top; with `reshuffle` an empty deck is
    refilled from the discard pile (Draw After Battle only)."""
    got = []
    deck = state["deck"]
    while len(got) < count:
        if not deck:
            if not (reshuffle and state["discard"]):
                break
            deck.extend(state["discard"])
            state["discard"] = []
            rng(state).shuffle(deck)
            event(events, "reshuffle", "The discard pile is shuffled into a new deck.", seat=None)
        take = min(count - len(got), len(deck))
        got.extend(deck[:take])
        del deck[:take]
    if not got:
        return
    state["hands"][seat].extend(got)
    event(events, "deal", f"Seat {seat} receives {plural(len(got), 'card')}.", seat=seat, count=len(got))
    # In the view's order (a sorted hand), not the deal's: the order cards come off a reshuffled deck depends on
    # hidden cards (those discarded into it), and the seat's events must tell no more than its view.
    dealt = sorted(got)
    event(events, "deal_private", "You receive: " + ", ".join(card_name(c) for c in dealt) + ".", seat=seat, to=[seat],
          cards=dealt)


def collect_all(state: dict) -> None:
    """Gather every card into the deck and shuffle it."""
    state["deck"] = all_cards(state)
    state["discard"] = []
    n = state["num_players"]
    state["hands"] = [[] for _ in range(n)]
    state["lines"] = [[] for _ in range(n)]
    rng(state).shuffle(state["deck"])


# ---- setup and new games ------------------------------------------------------


def new_state(num_players: int, opts: dict, seed: int, deck: list | None, generator: int) -> dict:
    n = num_players
    state = {
        "num_players": n, "opts": opts, "seed": seed, "shuffles": 0,
        "deck": list(deck) if deck is not None else list(STANDARD_DECK), "discard": [],
        "hands": [[] for _ in range(n)], "lines": [[] for _ in range(n)], "passed": [False] * n,
        "owner": {}, "legate": None, "legate_seat": None, "token": None, "holder": 0,
        "phase": "place_token", "turn": None, "queue": [], "asked": [], "discarding": [], "final": None,
        "defender": None, "defender_played": False,
        "game_no": 1, "round": 1, "battle_no": 0, "first": 0, "fresh": True,
        "points": [0] * n, "last": None, "winners": None, "reason": None,
    }
    if generator != 1:  # legacy states stay byte for byte as they were
        state["generator"] = generator
    if deck is None:
        rng(state).shuffle(state["deck"])
    # The youngest player becomes the first condottiere (p. 5): a seeded random seat.
    state["holder"] = state["first"] = rng(state).randrange(n)
    hand_size = 7 if opts["draw_after_battle"] else 10
    for seat in range(n):
        state["hands"][seat] = state["deck"][:hand_size]
        del state["deck"][:hand_size]
    return state


def new_game(state: dict, events: list) -> None:
    """Playing for Points (p. 18): the next game of the match starts afresh with
    the setup of p. 5, so the youngest player (the seeded first condottiere of
    the match) is again the first condottiere."""
    n = state["num_players"]
    state["game_no"] += 1
    state["owner"] = {}
    state["legate"] = state["legate_seat"] = state["token"] = None
    state["passed"] = [False] * n
    collect_all(state)
    state["holder"] = state["first"]
    state["round"], state["fresh"], state["last"] = 1, True, None
    event(events, "new_game", f"Game {state['game_no']} begins; Seat {state['holder']} is the condottiere.",
          seat=state["holder"], game=state["game_no"])
    hand_size = 7 if state["opts"]["draw_after_battle"] else 10
    for seat in seats_from(state, state["holder"]):
        draw(state, seat, hand_size, events)
    state["phase"], state["turn"] = "place_token", state["holder"]


# ---- battles -----------------------------------------------------------------


def begin_battle(state: dict, events: list) -> None:
    n = state["num_players"]
    state["battle_no"] += 1
    state["passed"] = [False] * n
    state["lines"] = [[] for _ in range(n)]
    region = state["token"]
    state["defender"] = state["owner"].get(region) if state["opts"]["conquering_regions"] else None
    state["defender_played"] = False
    state["phase"] = "battle"
    # The player who placed the token acts first (p. 6).
    settle_turn(state, state["holder"], events)


def can_act(state: dict, seat: int) -> bool:
    return bool(state["hands"][seat]) or face_down_index(state["lines"][seat]) >= 0


def settle_turn(state: dict, start: int, events: list) -> None:
    """Give the turn to the next seat still in the battle, clockwise from
    `start`; a seat with nothing to do passes (p. 9); nobody left ends it (p. 7)."""
    passed = state["passed"]
    for seat in seats_from(state, start):
        if passed[seat]:
            continue
        if can_act(state, seat):
            state["turn"] = seat
            return
        passed[seat] = True
        event(events, "no_cards", f"Seat {seat} has no cards and passes.", seat=seat)
    state["turn"] = None
    end_battle(state, events)


def public_strength(state: dict, seat: int) -> int:
    return line_totals(counted(state["lines"], None))[seat]


def reveal(state: dict, seat: int, events: list) -> None:
    line = state["lines"][seat]
    i = face_down_index(line)
    if i >= 0:
        line[i] = bare(line[i])
        event(events, "reveal", f"Seat {seat} turns up {card_name(line[i])}.", seat=seat, card=line[i])


def end_battle(state: dict, events: list) -> None:
    """Resolution (pp. 7-8): compare strength, token, victory, new site."""
    n = state["num_players"]
    for seat in range(n):
        reveal(state, seat, events)
    strengths = line_totals(state["lines"])
    if state["final"] is not None:
        finish_final(state, strengths, events)
        return
    region, holder, defender = state["token"], state["holder"], state["defender"]
    best = max(strengths)
    tops = [s for s in range(n) if strengths[s] == best]
    winner = tops[0] if len(tops) == 1 else None
    courtesans = [sum(1 for c in line if c == "courtesan") for line in state["lines"]]
    most = max(courtesans)
    court_seat = courtesans.index(most) if most > 0 and courtesans.count(most) == 1 else None
    shown = ", ".join(f"Seat {s}: {strengths[s]}" for s in range(n))
    if winner is not None:
        previous = state["owner"].get(region)
        state["owner"][region] = winner
        if previous is not None and previous != winner:
            event(events, "battle_won_from",
                  f"Seat {winner} wins the battle for {region.title()} from Seat {previous} ({shown}).",
                  seat=winner, region=region, previous=previous, strengths=strengths)
        else:
            event(events, "battle_won", f"Seat {winner} wins the battle for {region.title()} ({shown}).", seat=winner,
                  region=region, strengths=strengths)
    elif defender is not None:
        event(events, "battle_tied_kept",
              f"The battle for {region.title()} is tied ({shown}); Seat {defender} keeps it.", seat=defender,
              region=region, strengths=strengths)
    else:
        event(events, "battle_tied", f"The battle for {region.title()} is tied ({shown}); nobody takes it.", seat=None,
              region=region, strengths=strengths)
    if court_seat is not None:
        token_to = court_seat
    elif winner is not None:
        token_to = winner
    elif defender is not None:
        token_to = defender  # Conquering Regions, p. 19
    else:
        token_to = (holder + 1) % n  # tie: to the left of the last holder (p. 7)
    state["holder"] = token_to
    state["last"] = {"region": region, "winner": winner, "strengths": strengths, "token_to": token_to,
                     "courtesan_seat": court_seat}
    event(events, "token", f"Seat {token_to} takes the condottiere token.", seat=token_to)
    state["token"] = None
    state["defender"] = None
    if winner is not None and has_won(state, winner):
        win_game(state, winner, events)
        return
    if all(r in state["owner"] or r == state["legate"] for r in board.REGIONS):
        all_taken(state, events)
        return
    if state["opts"]["draw_after_battle"]:
        draw_after_battle(state, events)
    discard_lines(state)
    state["phase"], state["turn"] = "place_token", state["holder"]


def discard_lines(state: dict) -> None:
    for line in state["lines"]:
        state["discard"].extend(bare(c) for c in line)
    n = state["num_players"]
    state["lines"] = [[] for _ in range(n)]
    state["passed"] = [False] * n


def draw_after_battle(state: dict, events: list) -> None:
    """Draw After Battle (p. 17): up to 3 cards each, never above 10 + regions;
    10 each when nobody holds a card."""
    nobody = not any(state["hands"])
    for seat in seats_from(state, state["holder"]):
        if nobody:
            count = 10
        else:
            count = max(0, min(3, 10 + region_count(state, seat) - len(state["hands"][seat])))
        draw(state, seat, count, events, reshuffle=True)


def after_token_placed(state: dict, events: list) -> None:
    """Steps 3-4 (p. 8): optional hand discards, then the end-of-round check.

    Every seat holding cards answers at once (keep or, without a mercenary,
    discard) and the answers are applied together, so being asked reveals
    nothing about a hand (docs/rules)."""
    if state["fresh"] or state["opts"]["draw_after_battle"]:
        state["fresh"] = False
        begin_battle(state, events)
        return
    asked = [s for s in range(state["num_players"]) if state["hands"][s]]
    state["asked"], state["queue"], state["discarding"] = asked, list(asked), []
    if asked:
        state["phase"], state["turn"] = "discard_hand", None
    else:
        round_end_check(state, events)


def answer_discard(state: dict, seat: int, discard: bool, events: list) -> None:
    state["queue"].remove(seat)
    if discard:
        state["discarding"].append(seat)
    if state["queue"]:
        return
    for s in sorted(state["discarding"]):
        hand = state["hands"][s]
        state["discard"].extend(hand)
        state["hands"][s] = []
        event(events, "discard_hand", f"Seat {s} discards their hand ({plural(len(hand), 'card')}).", seat=s,
              count=len(hand))
    state["asked"], state["discarding"] = [], []
    round_end_check(state, events)


def round_end_check(state: dict, events: list) -> None:
    """p. 8: the round ends when at most one player still holds cards."""
    holding = [s for s in range(state["num_players"]) if state["hands"][s]]
    if len(holding) > 1:
        begin_battle(state, events)
    elif holding:
        state["phase"], state["turn"] = "keep", holding[0]
    else:
        redeal(state, events)


def redeal(state: dict, events: list) -> None:
    """End of the round (p. 8): shuffle everything not held, deal up to 10 each,
    then one more card per region held."""
    state["round"] += 1
    state["deck"].extend(state["discard"])
    state["discard"] = []
    rng(state).shuffle(state["deck"])
    event(events, "round", f"Round {state['round']} begins: the cards are shuffled and dealt.", seat=None,
          round=state["round"])
    order = seats_from(state, (state["holder"] + 1) % state["num_players"])
    wanted = {s: max(0, 10 - len(state["hands"][s])) + region_count(state, s) for s in order}
    for seat in order:
        draw(state, seat, wanted[seat], events)
    begin_battle(state, events)


# ---- winning -------------------------------------------------------------------


def has_won(state: dict, seat: int) -> bool:
    """Victory (p. 16; Larger Kingdoms p. 18): enough regions, or enough adjacent ones."""
    goal = board.targets(state["num_players"], state["opts"]["larger_kingdoms"])
    mine = regions_of(state, seat)
    return len(mine) >= goal["total"] or board.largest_group(mine) >= goal["adjacent"]


def won_by_adjacency(state: dict, seat: int) -> bool:
    goal = board.targets(state["num_players"], state["opts"]["larger_kingdoms"])
    return board.largest_group(regions_of(state, seat)) >= goal["adjacent"]


def game_over(state: dict, winners: list, reason: str, events: list) -> None:
    state["phase"], state["turn"], state["winners"], state["reason"] = "over", None, winners, reason
    names = " and ".join(f"Seat {s}" for s in winners)
    verb = "share the victory" if len(winners) > 1 else "wins the game"
    event(events, "game_over", f"{names} {verb} ({reason}).", seat=None, winners=winners,
          reason=reason.replace(" ", "_"))


def win_game(state: dict, winner: int, events: list) -> None:
    if state["opts"]["points"]:
        score_game(state, winner, events)
    else:
        game_over(state, [winner], "victory", events)


def all_taken(state: dict, events: list) -> None:
    """Every region taken (p. 16): most regions wins; a tie goes to a final battle."""
    event(events, "all_taken", "Every region is taken.", seat=None)
    if state["opts"]["points"]:
        score_game(state, None, events)
        return
    counts = [region_count(state, s) for s in range(state["num_players"])]
    best = max(counts)
    tops = [s for s, c in enumerate(counts) if c == best]
    if len(tops) == 1:
        game_over(state, tops, "most regions", events)
    else:
        start_final(state, tops, events)


def score_game(state: dict, winner, events: list) -> None:
    """Playing for Points (p. 18): 1 point per region, +5 for an adjacency win."""
    points = state["points"]
    for seat in range(state["num_players"]):
        gained = region_count(state, seat)
        if winner == seat and won_by_adjacency(state, seat):
            gained += 5
        points[seat] += gained
    event(events, "score",
          f"Game {state['game_no']} scores: " + ", ".join(f"Seat {s}: {p}" for s, p in enumerate(points)) + ".",
          seat=None, game=state["game_no"], points=list(points))
    best = max(points)
    if best < state["opts"]["points_target"]:
        new_game(state, events)
        return
    tops = [s for s, p in enumerate(points) if p == best]
    if len(tops) == 1:
        game_over(state, tops, "most points", events)
    else:
        start_final(state, tops, events)


def start_final(state: dict, seats: list, events: list) -> None:
    """Final battle between the tied players (p. 16): all 110 cards shuffled,
    10 + 1 per region each; the token holder or the nearest player on their
    left who takes part goes first."""
    n = state["num_players"]
    collect_all(state)
    state["final"] = list(seats)
    state["token"] = state["defender"] = None
    state["passed"] = [s not in seats for s in range(n)]
    state["battle_no"] += 1
    event(events, "final", "Final battle between " + " and ".join(f"Seat {s}" for s in seats) + ".", seat=None,
          seats=list(seats))
    for seat in seats:
        draw(state, seat, 10 + region_count(state, seat), events)
    state["phase"] = "battle"
    first = next(s for s in seats_from(state, state["holder"]) if s in seats)
    settle_turn(state, first, events)


def finish_final(state: dict, strengths: list, events: list) -> None:
    seats = state["final"]
    best = max(strengths[s] for s in seats)
    tops = [s for s in seats if strengths[s] == best]
    shown = ", ".join(f"Seat {s}: {strengths[s]}" for s in seats)
    event(events, "final_battle", f"The final battle ends ({shown}).", seat=None,
          strengths={str(s): strengths[s] for s in seats})
    state["last"] = {"region": None, "winner": tops[0] if len(tops) == 1 else None, "strengths": strengths,
                     "token_to": state["holder"], "courtesan_seat": None}
    game_over(state, tops, "final battle", events)
