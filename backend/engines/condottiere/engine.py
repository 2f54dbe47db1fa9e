"""Condottiere behind the shared engine contract (docs/engines.md).

This module checks and dispatches actions and lists the legal ones; the game
flow lives in rules.py, the card arithmetic in cards.py, views in view.py.
"""

from __future__ import annotations

from itertools import combinations

from ..base import Engine, IllegalAction
from . import rules
from .cards import FACE_DOWN_KINDS, HIDDEN, MERCENARY_VALUES, card_name, counted, highest_mercenary, same_cards
from .rules import event
from .view import build_view, build_views

_ACTION_KEYS = {
    "place_token": {"region"}, "play": {"card", "take"}, "pass": {"reveal"}, "wait": set(),
    "place_legate": {"region"}, "discard_hand": set(), "keep_hand": set(), "keep": {"cards"},
}
_PHASE_OF = {
    "place_token": "place_token", "play": "battle", "pass": "battle", "wait": "battle",
    "place_legate": "legate", "discard_hand": "discard_hand", "keep_hand": "discard_hand", "keep": "keep",
}
_PHASE_WORDS = {
    "place_token": "choose where the next battle is fought", "battle": "play a card or pass",
    "legate": "place the papal legate", "discard_hand": "decide whether to discard your hand",
    "keep": "choose up to two cards to keep",
}

_FLAT_LISTS = ("deck", "discard", "passed", "points", "queue", "asked", "discarding", "final", "winners")

OPTIONS_SCHEMA = {
    "draw_after_battle": {"type": "bool", "default": False, "label": "Draw after battle",
                          "help": "Start with 7 cards and draw up to 3 after every battle (p. 17)."},
    "points": {"type": "bool", "default": False, "label": "Play for points",
               "help": "Several games; 1 point per region, +5 for an adjacency win (p. 18)."},
    "points_target": {"type": "int", "default": 20, "min": 5, "max": 200, "label": "Points to reach",
                      "help": "Used with 'Play for points'."},
    "larger_kingdoms": {"type": "bool", "default": False, "label": "Larger kingdoms",
                        "help": "One more adjacent region is needed to win (p. 18)."},
    "conquering_regions": {"type": "bool", "default": False, "label": "Conquering regions",
                           "help": "Controlled regions may be attacked; the defender has privileges (p. 19)."},
    "hidden_cards": {"type": "bool", "default": False, "label": "Hidden cards",
                     "help": "Mercenaries, Drummers, Heroines and Courtesans are played face down (pp. 19-20)."},
    "deck": {"type": "list", "default": None, "nullable": True, "test_hook": True, "label": "Stacked deck",
             "help": "A permutation of the 110 card codes, top card first, replacing the shuffle."},
}


class CondottiereEngine(Engine):
    id = "condottiere"
    name = "Condottiere"
    min_players = 2
    max_players = 6
    options_schema = OPTIONS_SCHEMA

    def __init__(self):
        self.bots = {}

    # ---- setup ----------------------------------------------------------
    def _setup(self, num_players: int, options: dict, seed: int) -> dict:
        deck = options["deck"]
        if deck is not None and not same_cards(deck):
            raise ValueError("Option 'deck' must be a permutation of the 110 Condottiere cards "
                             "(m1 x10; m2, m3, m4, m5, m6, m10 x8; winter, spring x3; bishop x6; courtesan x12; "
                             "drummer x6; heroine x3; scarecrow x16; surrender x3).")
        opts = {k: v for k, v in options.items() if k != "deck"}
        return rules.new_state(num_players, opts, seed, deck)

    def copy_state(self, state: dict) -> dict:
        """Copy every mutable container of the state (see rules.new_state for
        the schema); `last` is only ever replaced whole, never edited, and the
        scalars are immutable.  About ten times faster than the generic clone."""
        s = dict(state)
        for key in _FLAT_LISTS:
            if s[key] is not None:
                s[key] = s[key][:]
        s["hands"] = [h[:] for h in state["hands"]]
        s["lines"] = [l[:] for l in state["lines"]]
        s["owner"] = dict(state["owner"])
        s["opts"] = dict(state["opts"])
        return s

    # ---- queries --------------------------------------------------------
    def to_move(self, state: dict) -> list[int]:
        phase = state["phase"]
        if phase == "over":
            return []
        if phase == "place_token":
            return [state["holder"]]
        if phase == "discard_hand":
            return list(state["queue"])
        return [state["turn"]]

    def is_over(self, state: dict) -> bool:
        return state["phase"] == "over"

    def result(self, state: dict) -> dict:
        n = state["num_players"]
        if state["opts"]["points"]:
            scores = list(state["points"])
        else:
            scores = [rules.region_count(state, s) for s in range(n)]
        winners = list(state["winners"] or [])
        return {"winners": winners, "scores": scores, "reason": state["reason"], "shared": len(winners) > 1}

    def view(self, state: dict, seat: int | None) -> dict:
        return build_view(self, state, seat)

    def views(self, state: dict, seats) -> dict:
        return build_views(self, state, seats)

    def legal_actions(self, state: dict, seat: int) -> list[dict]:
        if seat not in self.to_move(state):
            return []
        phase = state["phase"]
        if phase == "battle":
            return self._battle_actions(state, seat)
        if phase == "place_token":
            return [{"type": "place_token", "region": r} for r in rules.token_regions(state)]
        if phase == "legate":
            return [{"type": "place_legate", "region": r} for r in rules.legate_regions(state)] + [
                {"type": "place_legate", "region": None}]
        if phase == "discard_hand":
            keep = [{"type": "keep_hand"}]
            return keep if any(c in MERCENARY_VALUES for c in state["hands"][seat]) else [{"type": "discard_hand"}] + keep
        if phase == "keep":
            hand = sorted(state["hands"][seat])
            choices = {()} | {(c,) for c in hand} | set(combinations(hand, 2))
            return [{"type": "keep", "cards": list(c)} for c in sorted(choices)]
        return []

    def _battle_actions(self, state: dict, seat: int) -> list[dict]:
        out = []
        for card in sorted(set(state["hands"][seat])):
            if card == "scarecrow":
                out.append({"type": "play", "card": card, "take": None})
                out.extend({"type": "play", "card": card, "take": m} for m in _takeable(state, seat))
            else:
                out.append({"type": "play", "card": card})
        out.append({"type": "pass"})
        if rules.face_down_index(state["lines"][seat]) >= 0:
            out.append({"type": "pass", "reveal": True})
        if _may_wait(state, seat):
            out.append({"type": "wait"})
        return out

    # ---- actions ----------------------------------------------------------
    def _step(self, state: dict, seat: int, action: dict, events: list) -> None:
        kind = action["type"]
        keys = _ACTION_KEYS.get(kind)
        if keys is None:
            raise IllegalAction(f"Unknown action type {kind!r} in Condottiere.")
        extra = set(action) - keys - {"type"}
        if extra:
            raise IllegalAction(f"Unexpected field(s) in a {kind} action: {', '.join(sorted(extra))}.")
        if _PHASE_OF[kind] != state["phase"]:
            raise IllegalAction(f"You cannot do that now; you must {_PHASE_WORDS[state['phase']]}.")
        getattr(self, "_do_" + kind)(state, seat, action, events)

    def _do_place_token(self, state, seat, action, events):
        region = action.get("region")
        if region not in rules.token_regions(state):
            raise IllegalAction("The condottiere token cannot go there: choose a region without a control marker "
                                "or the papal legate.")
        state["token"] = region
        owner = state["owner"].get(region)
        extra = f" (held by Seat {owner})" if owner is not None else ""
        event(events, f"Seat {seat} places the condottiere token on {region.title()}{extra}.", kind="token_placed",
              seat=seat, region=region)
        rules.after_token_placed(state, events)

    def _do_play(self, state, seat, action, events):
        card = action.get("card")
        hand = state["hands"][seat]
        if not isinstance(card, str) or card not in hand:
            raise IllegalAction("You do not hold that card.")
        take = action.get("take")
        if card != "scarecrow" and take is not None:
            raise IllegalAction("Only a Scarecrow takes a mercenary back.")
        if take is not None and take not in _takeable(state, seat):
            raise IllegalAction("A Scarecrow can only take back one of your own face-up mercenaries.")
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
            self._bishop(state, events)
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
            event(events, f"Seat {seat} plays a card face down (visible strength {rules.public_strength(state, seat)}).",
                  kind="play", seat=seat, card=None)
            event(events, f"You play {card_name(card)} face down.", to=[seat], kind="play_private", seat=seat, card=card)
        else:
            what = card_name(card)
            if card == "winter" and gone or card == "spring" and gone:
                what += f", discarding {gone} {card_name(other)}"
            if card == "scarecrow":
                what += f", taking back {card_name(take)}" if take else ", taking nothing back"
            event(events, f"Seat {seat} plays {what} (strength {rules.public_strength(state, seat)}).", kind="play",
                  seat=seat, card=card, take=take)
        if old_down >= 0:
            event(events, f"Seat {seat} turns up {card_name(line[old_down])}.", kind="reveal", seat=seat,
                  card=line[old_down])
        if seat == state["defender"]:
            state["defender_played"] = True
        if card == "surrender":
            event(events, f"Seat {seat}'s Surrender ends the battle.", kind="surrender", seat=seat)
            state["turn"] = None
            rules.end_battle(state, events)
        elif card == "bishop" and state["final"] is None:
            state["phase"] = "legate"
        else:
            rules.settle_turn(state, (seat + 1) % state["num_players"], events)

    def _bishop(self, state, events):
        """p. 12: every face-up mercenary of the highest printed value, in every
        line (passed players' too), is discarded; face-down ones are ignored (p. 20)."""
        top = highest_mercenary(counted(state["lines"], None))
        if not top:
            event(events, "The Bishop finds no mercenary to discard.", kind="bishop")
            return
        code = next(c for c, v in MERCENARY_VALUES.items() if v == top)
        count = 0
        for l in state["lines"]:
            while code in l:
                l.remove(code)
                count += 1
        state["discard"].extend([code] * count)
        event(events, f"The Bishop discards {count} x {card_name(code)}.", kind="bishop", card=code, count=count)

    def _do_pass(self, state, seat, action, events):
        reveal = action.get("reveal", False)
        if not isinstance(reveal, bool):
            raise IllegalAction("'reveal' must be true or false.")
        if reveal and rules.face_down_index(state["lines"][seat]) < 0:
            raise IllegalAction("You have no face-down card to reveal.")
        state["passed"][seat] = True
        event(events, f"Seat {seat} passes.", kind="pass", seat=seat)
        if reveal:
            rules.reveal(state, seat, events)
        rules.settle_turn(state, (seat + 1) % state["num_players"], events)

    def _do_wait(self, state, seat, action, events):
        if not _may_wait(state, seat):
            raise IllegalAction("Only the defender may wait, before their first card and while someone else still fights.")
        event(events, f"Seat {seat} (defender) waits.", kind="wait", seat=seat)
        rules.settle_turn(state, (seat + 1) % state["num_players"], events)

    def _do_place_legate(self, state, seat, action, events):
        region = action.get("region")
        if region is not None and region not in rules.legate_regions(state):
            raise IllegalAction("The papal legate cannot go there: choose a region without a control marker "
                                "(not the one being fought over), or keep it off the board.")
        state["legate"], state["legate_seat"] = region, seat
        where = f"on {region.title()}" if region else "off the board"
        event(events, f"Seat {seat} places the papal legate {where}.", kind="legate", seat=seat, region=region)
        state["phase"] = "battle"
        rules.settle_turn(state, (seat + 1) % state["num_players"], events)

    def _do_discard_hand(self, state, seat, action, events):
        if any(c in MERCENARY_VALUES for c in state["hands"][seat]):
            raise IllegalAction("Only a hand without any mercenary may be discarded.")
        rules.answer_discard(state, seat, True, events)

    def _do_keep_hand(self, state, seat, action, events):
        rules.answer_discard(state, seat, False, events)

    def _do_keep(self, state, seat, action, events):
        cards = action.get("cards")
        hand = state["hands"][seat]
        if not isinstance(cards, list) or len(cards) > 2:
            raise IllegalAction("Keep a list of at most two of your cards.")
        rest = list(hand)
        for c in cards:
            if not isinstance(c, str) or c not in rest:
                raise IllegalAction("You do not hold that card.")
            rest.remove(c)
        state["hands"][seat] = list(cards)
        state["discard"].extend(rest)
        event(events, f"Seat {seat} keeps {rules.plural(len(cards), 'card')}.", kind="keep", seat=seat)
        rules.redeal(state, events)


def _takeable(state: dict, seat: int) -> list[str]:
    """Own face-up mercenaries a Scarecrow may take back (p. 15, p. 20)."""
    return sorted({c for c in state["lines"][seat] if c in MERCENARY_VALUES})


def _may_wait(state: dict, seat: int) -> bool:
    """Conquering Regions (p. 19): the defender may pass without leaving the
    battle until their first card, while any other player is still in."""
    if seat != state["defender"] or state["defender_played"]:
        return False
    passed = state["passed"]
    return any(not passed[s] for s in range(state["num_players"]) if s != seat)
