"""What each decision of Condottiere offers and does (the engine's `decisions`).

A decision is the phase of the game: its listing yields every legal action of
a seat, and its step applies one (already checked by refusals.py) to the
private copy of the state.  The game flow they call on lives in rules.py.
"""

from __future__ import annotations

from itertools import combinations

from ..base import event
from . import rules
from .cards import FACE_DOWN_KINDS, HIDDEN, MERCENARY_VALUES, card_name, counted, highest_mercenary
from .rules import may_wait, takeable

# ---- listings -------------------------------------------------------------------


def token_actions(state: dict, seat: int) -> list[dict]:
    return [{"type": "place_token", "region": r} for r in rules.token_regions(state)]


def battle_actions(state: dict, seat: int) -> list[dict]:
    out = []
    for card in sorted(set(state["hands"][seat])):
        if card == "scarecrow":
            out.append({"type": "play", "card": card, "take": None})
            out.extend({"type": "play", "card": card, "take": m} for m in takeable(state, seat))
        else:
            out.append({"type": "play", "card": card})
    out.append({"type": "pass"})
    if rules.face_down_index(state["lines"][seat]) >= 0:
        out.append({"type": "pass", "reveal": True})
    if may_wait(state, seat):
        out.append({"type": "wait"})
    return out


def legate_actions(state: dict, seat: int) -> list[dict]:
    return [{"type": "place_legate", "region": r} for r in rules.legate_regions(state)] + [
        {"type": "place_legate", "region": None}]


def hand_actions(state: dict, seat: int) -> list[dict]:
    keep = [{"type": "keep_hand"}]
    return keep if any(c in MERCENARY_VALUES for c in state["hands"][seat]) else [{"type": "discard_hand"}] + keep


def keep_actions(state: dict, seat: int) -> list[dict]:
    hand = sorted(state["hands"][seat])
    choices = {()} | {(c,) for c in hand} | set(combinations(hand, 2))
    return [{"type": "keep", "cards": list(c)} for c in sorted(choices)]


# ---- steps --------------------------------------------------------------------------


def battle(state, seat, action, events):
    {"play": play, "pass": pass_, "wait": wait}[action["type"]](state, seat, action, events)


def hand(state, seat, action, events):
    rules.answer_discard(state, seat, action["type"] == "discard_hand", events)


def place_token(state, seat, action, events):
    region = action["region"]
    state["token"] = region
    owner = state["owner"].get(region)
    if owner is not None:
        event(events, "token_placed_held",
              f"Seat {seat} places the condottiere token on {region.title()} (held by Seat {owner}).",
              seat=seat, region=region, owner=owner)
    else:
        event(events, "token_placed", f"Seat {seat} places the condottiere token on {region.title()}.", seat=seat,
              region=region)
    rules.after_token_placed(state, events)

def play(state, seat, action, events):
    card = action["card"]
    take = action.get("take")
    hand = state["hands"][seat]
    hand.remove(card)
    lines = state["lines"]
    line = lines[seat]
    old_down = rules.face_down_index(line)
    hidden = state["opts"]["hidden_cards"] and card in FACE_DOWN_KINDS
    to_line = card not in ("bishop", "scarecrow")
    # The card's own effect resolves first, then a face-down card from an
    # earlier turn is turned up (docs/rules: Hidden Cards timing).
    if card == "winter" or card == "spring":
        other = "spring" if card == "winter" else "winter"
        gone = sum(l.count(other) for l in lines)
        if gone:
            for l in lines:
                while other in l:
                    l.remove(other)
            state["discard"].extend([other] * gone)
    elif card == "bishop":
        bishop(state, events)
    elif card == "scarecrow" and take is not None:
        line.remove(take)
        hand.append(take)
    if old_down >= 0:  # effects may have shifted it: a line holds at most one face-down card
        old_down = rules.face_down_index(line)
        line[old_down] = line[old_down][1:]
    if to_line:
        line.append(HIDDEN + card if hidden else card)
    else:
        state["discard"].append(card)
    if hidden:
        strength = rules.public_strength(state, seat)
        event(events, "play_hidden", f"Seat {seat} plays a card face down (visible strength {strength}).",
              seat=seat, strength=strength)
        event(events, "play_private", f"You play {card_name(card)} face down.", seat=seat, to=[seat], card=card)
    else:
        strength = rules.public_strength(state, seat)
        if card in ("winter", "spring") and gone:
            event(events, "play_season",
                  f"Seat {seat} plays {card_name(card)}, discarding {gone} {card_name(other)} "
                  f"(strength {strength}).",
                  seat=seat, card=card, other=other, count=gone, strength=strength)
        elif card == "scarecrow" and take:
            event(events, "play_scarecrow",
                  f"Seat {seat} plays Scarecrow, taking back {card_name(take)} (strength {strength}).",
                  seat=seat, card=card, take=take, strength=strength)
        elif card == "scarecrow":
            event(events, "play_scarecrow_none",
                  f"Seat {seat} plays Scarecrow, taking nothing back (strength {strength}).",
                  seat=seat, card=card, strength=strength)
        else:
            event(events, "play", f"Seat {seat} plays {card_name(card)} (strength {strength}).", seat=seat,
                  card=card, strength=strength)
    if old_down >= 0:
        event(events, "reveal", f"Seat {seat} turns up {card_name(line[old_down])}.", seat=seat,
              card=line[old_down])
    if seat == state["defender"]:
        state["defender_played"] = True
    if card == "surrender":
        event(events, "surrender", f"Seat {seat}'s Surrender ends the battle.", seat=seat)
        state["turn"] = None
        rules.end_battle(state, events)
    elif card == "bishop" and state["final"] is None:
        state["phase"] = "legate"
    else:
        rules.settle_turn(state, (seat + 1) % state["num_players"], events)

def bishop(state, events):
    """p. 12: every face-up mercenary of the highest printed value, in every
    line (passed players' too), is discarded; face-down ones are ignored (p. 20)."""
    top = highest_mercenary(counted(state["lines"], None))
    if not top:
        event(events, "bishop_none", "The Bishop finds no mercenary to discard.", seat=None)
        return
    code = next(c for c, v in MERCENARY_VALUES.items() if v == top)
    count = 0
    for l in state["lines"]:
        while code in l:
            l.remove(code)
            count += 1
    state["discard"].extend([code] * count)
    event(events, "bishop", f"The Bishop discards {count} x {card_name(code)}.", seat=None, card=code, count=count)

def pass_(state, seat, action, events):
    state["passed"][seat] = True
    event(events, "pass", f"Seat {seat} passes.", seat=seat)
    if action.get("reveal"):
        rules.reveal(state, seat, events)
    rules.settle_turn(state, (seat + 1) % state["num_players"], events)

def wait(state, seat, action, events):
    event(events, "wait", f"Seat {seat} (defender) waits.", seat=seat)
    rules.settle_turn(state, (seat + 1) % state["num_players"], events)

def place_legate(state, seat, action, events):
    region = action["region"]
    state["legate"], state["legate_seat"] = region, seat
    if region:
        event(events, "legate", f"Seat {seat} places the papal legate on {region.title()}.", seat=seat,
              region=region)
    else:
        event(events, "legate_off", f"Seat {seat} places the papal legate off the board.", seat=seat)
    state["phase"] = "battle"
    rules.settle_turn(state, (seat + 1) % state["num_players"], events)


def keep(state, seat, action, events):
    cards = action["cards"]
    rest = list(state["hands"][seat])
    for c in cards:
        rest.remove(c)
    state["hands"][seat] = list(cards)
    state["discard"].extend(rest)
    event(events, "keep", f"Seat {seat} keeps {rules.plural(len(cards), 'card')}.", seat=seat, count=len(cards))
    rules.redeal(state, events)


# decision (the phase) -> (its listing, its step)
DECISIONS = {
    "place_token": (token_actions, place_token),
    "battle": (battle_actions, battle),
    "legate": (legate_actions, place_legate),
    "discard_hand": (hand_actions, hand),
    "keep": (keep_actions, keep),
}
