"""Condottiere behind the shared engine contract (docs/engines.md).

This module declares the action vocabulary, lists the legal actions and
applies the one chosen; why others are refused is worded in refusals.py, the
game flow lives in rules.py, the card arithmetic in cards.py, views in view.py.
"""

from __future__ import annotations

from itertools import combinations

from ..vocabulary import Bool, Code, Codes, Vocabulary
from ..base import Engine, IllegalAction
from . import board, refusals, rules
from .bots import BOTS
from .cards import (
    DECK_COUNTS, FACE_DOWN_KINDS, HIDDEN, MERCENARY_VALUES, card_name, counted, highest_mercenary, same_cards,
)
from .rules import event, may_wait, takeable
from .view import build_view, build_views

_CARDS = sorted(DECK_COUNTS)  # the order legal_actions lists a kept pair in

ACTIONS = Vocabulary({
    "place_token": {"region": Code(board.REGIONS)},
    "play": {"card": Code(_CARDS), "take": Code(_CARDS, nullable=True, default=None)},
    "pass": {"reveal": Bool(default=False)},
    "wait": {},
    "place_legate": {"region": Code(board.REGIONS, nullable=True, default=None)},
    "discard_hand": {},
    "keep_hand": {},
    "keep": {"cards": Codes(_CARDS)},
})

_FLAT_LISTS = ("deck", "discard", "passed", "points", "queue", "asked", "discarding", "final", "winners")

# What each option does, in plain words for the lobby (translated in backend/games/texts.py); the rulebook's
# pages: draw after battle p. 17, points and larger kingdoms p. 18, conquering regions p. 19, hidden cards pp. 19-20.
OPTIONS_SCHEMA = {
    "draw_after_battle": {"type": "bool", "default": False, "label": "Draw after battle",
                          "help": "Everyone starts with 7 cards and there are no rounds: "
                                  "after every battle each player draws up to 3 cards."},
    "points": {"type": "bool", "default": False, "label": "Play for points",
               "help": "Several games in a row: each region you hold when a game ends is worth 1 point, "
                       "a win by bordering regions 5 more. The first to reach the target wins."},
    "points_target": {"type": "int", "default": 20, "min": 5, "max": 200, "label": "Points to reach",
                      "help": "How many points win the match when playing for points."},
    "larger_kingdoms": {"type": "bool", "default": False, "label": "Larger kingdoms",
                        "help": "A win by bordering regions needs one region more than usual."},
    "conquering_regions": {"type": "bool", "default": False, "label": "Conquering regions",
                           "help": "Battles may also be fought over regions someone already holds: the holder defends, "
                                   "may wait before playing a card, and keeps the region on a tie."},
    "hidden_cards": {"type": "bool", "default": False, "label": "Hidden cards",
                     "help": "Mercenaries, Drummers, Heroines and Courtesans are played face down, "
                             "so the others see only part of your strength."},
    "deck": {"type": "list", "default": None, "nullable": True, "test_hook": True, "label": "Stacked deck",
             "help": "A permutation of the 110 card codes, top card first, replacing the shuffle."},
    # Which shuffle generator a match uses (rules.rng): 2 for every new match;
    # stored options naming every other option but not this one are from a
    # match shuffled by generator 1 (Engine.setup).
    "generator": {"type": "int", "default": 2, "min": 1, "max": 2, "legacy_default": 1, "test_hook": True,
                  "label": "Random generator", "help": "1: CPython's random (matches before it was recorded); "
                                                       "2: backend/engines/rng.py."},
}


class CondottiereEngine(Engine):
    id = "condottiere"
    name = "Condottiere"
    min_players = 2
    max_players = 6
    options_schema = OPTIONS_SCHEMA
    actions = ACTIONS
    bots = BOTS

    # ---- setup ----------------------------------------------------------
    def _setup(self, num_players: int, options: dict, seed: int) -> dict:
        deck = options["deck"]
        if deck is not None and not same_cards(deck):
            raise ValueError("Option 'deck' must be a permutation of the 110 Condottiere cards "
                             "(m1 x10; m2, m3, m4, m5, m6, m10 x8; winter, spring x3; bishop x6; courtesan x12; "
                             "drummer x6; heroine x3; scarecrow x16; surrender x3).")
        opts = {k: v for k, v in options.items() if k not in ("deck", "generator")}
        return rules.new_state(num_players, opts, seed, deck, options["generator"])

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

    def asked(self, state: dict) -> list[int]:
        # The keep-or-discard question shows every seat asked until all have answered (p. 8, docs/rules).
        return list(state["asked"]) if state["phase"] == "discard_hand" else self.to_move(state)

    def defaults(self, state: dict) -> dict:
        # p. 8: discarding is a choice ("dönthet úgy"); whoever does not discard keeps the hand.
        if state["phase"] != "discard_hand":
            return {}
        return {seat: {"type": "keep_hand"} for seat in state["queue"]}

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

    def generate_legal(self, state: dict, seat: int) -> list[dict]:
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
                out.extend({"type": "play", "card": card, "take": m} for m in takeable(state, seat))
            else:
                out.append({"type": "play", "card": card})
        out.append({"type": "pass"})
        if rules.face_down_index(state["lines"][seat]) >= 0:
            out.append({"type": "pass", "reveal": True})
        if may_wait(state, seat):
            out.append({"type": "wait"})
        return out

    # ---- actions ----------------------------------------------------------
    def _step(self, state: dict, seat: int, action: dict, events: list) -> None:
        getattr(self, "_do_" + action["type"])(state, seat, action, events)

    def refusal(self, state: dict, seat: int, action: dict) -> IllegalAction | None:
        return refusals.refusal(state, seat, action)

    def spell(self, state: dict, seat: int, action: dict) -> dict:
        """As listed: `take` for a Scarecrow only, `reveal` only when true."""
        kind = action["type"]
        if kind == "play" and action["card"] != "scarecrow":
            return {"type": "play", "card": action["card"]}
        if kind == "pass" and not action["reveal"]:
            return {"type": "pass"}
        return action  # parsed afresh: every field present, lists sorted and new

    def not_your_turn(self, state: dict, seat: int) -> IllegalAction:
        return refusals.not_your_turn(state, seat)

    def _do_place_token(self, state, seat, action, events):
        region = action["region"]
        state["token"] = region
        owner = state["owner"].get(region)
        if owner is not None:
            event(events, f"Seat {seat} places the condottiere token on {region.title()} (held by Seat {owner}).",
                  kind="token_placed_held", seat=seat, region=region, owner=owner)
        else:
            event(events, f"Seat {seat} places the condottiere token on {region.title()}.", kind="token_placed",
                  seat=seat, region=region)
        rules.after_token_placed(state, events)

    def _do_play(self, state, seat, action, events):
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
            strength = rules.public_strength(state, seat)
            event(events, f"Seat {seat} plays a card face down (visible strength {strength}).",
                  kind="play_hidden", seat=seat, strength=strength)
            event(events, f"You play {card_name(card)} face down.", to=[seat], kind="play_private", seat=seat,
                  card=card)
        else:
            strength = rules.public_strength(state, seat)
            if card in ("winter", "spring") and gone:
                event(events, f"Seat {seat} plays {card_name(card)}, discarding {gone} {card_name(other)} "
                      f"(strength {strength}).", kind="play_season", seat=seat, card=card, other=other, count=gone,
                      strength=strength)
            elif card == "scarecrow" and take:
                event(events, f"Seat {seat} plays Scarecrow, taking back {card_name(take)} (strength {strength}).",
                      kind="play_scarecrow", seat=seat, card=card, take=take, strength=strength)
            elif card == "scarecrow":
                event(events, f"Seat {seat} plays Scarecrow, taking nothing back (strength {strength}).",
                      kind="play_scarecrow_none", seat=seat, card=card, strength=strength)
            else:
                event(events, f"Seat {seat} plays {card_name(card)} (strength {strength}).", kind="play", seat=seat,
                      card=card, strength=strength)
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
            event(events, "The Bishop finds no mercenary to discard.", kind="bishop_none")
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
        state["passed"][seat] = True
        event(events, f"Seat {seat} passes.", kind="pass", seat=seat)
        if action.get("reveal"):
            rules.reveal(state, seat, events)
        rules.settle_turn(state, (seat + 1) % state["num_players"], events)

    def _do_wait(self, state, seat, action, events):
        event(events, f"Seat {seat} (defender) waits.", kind="wait", seat=seat)
        rules.settle_turn(state, (seat + 1) % state["num_players"], events)

    def _do_place_legate(self, state, seat, action, events):
        region = action["region"]
        state["legate"], state["legate_seat"] = region, seat
        if region:
            event(events, f"Seat {seat} places the papal legate on {region.title()}.", kind="legate", seat=seat,
                  region=region)
        else:
            event(events, f"Seat {seat} places the papal legate off the board.", kind="legate_off", seat=seat)
        state["phase"] = "battle"
        rules.settle_turn(state, (seat + 1) % state["num_players"], events)

    def _do_discard_hand(self, state, seat, action, events):
        rules.answer_discard(state, seat, True, events)

    def _do_keep_hand(self, state, seat, action, events):
        rules.answer_discard(state, seat, False, events)

    def _do_keep(self, state, seat, action, events):
        cards = action["cards"]
        rest = list(state["hands"][seat])
        for c in cards:
            rest.remove(c)
        state["hands"][seat] = list(cards)
        state["discard"].extend(rest)
        event(events, f"Seat {seat} keeps {rules.plural(len(cards), 'card')}.", kind="keep", seat=seat,
              count=len(cards))
        rules.redeal(state, events)
