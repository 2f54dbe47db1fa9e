"""Which actions Condottiere allows, checked one at a time, and why it refuses
the others, in words a player understands.

`refusal` is the engine's one check of legality: None for a legal action,
else the reason (the listing in engine.py must agree, as
tests/engines/test_legality.py proves).  Each reason uses what the acting
seat may know: its own hand and the table.
"""

from __future__ import annotations

from collections import Counter

from ..base import NotLegal, NotYourTurn
from .cards import MERCENARY_VALUES
from .rules import face_down_index, legate_allowed, may_wait, token_allowed

PHASE_OF = {
    "place_token": "place_token", "play": "battle", "pass": "battle", "wait": "battle",
    "place_legate": "legate", "discard_hand": "discard_hand", "keep_hand": "discard_hand", "keep": "keep",
}


def refusal(state: dict, seat: int, action: dict) -> NotLegal | None:
    """Why the seat to move may not play `action` (as parsed), or None when it may."""
    kind = action["type"]
    if PHASE_OF[kind] != state["phase"]:
        return wrong_phase(state["phase"])
    reason = _REASONS.get(kind)
    return reason(state, seat, action) if reason else None


def wrong_phase(phase: str) -> NotLegal:
    if phase == "place_token":
        return NotLegal("That is not something you can do now: choose the region of the next battle.")
    if phase == "battle":
        return NotLegal("That is not something you can do now: play a card or pass.")
    if phase == "legate":
        return NotLegal("That is not something you can do now: place the papal legate, or keep it off the board.")
    if phase == "discard_hand":
        return NotLegal("That is not something you can do now: keep your hand, or discard it if it holds no mercenary.")
    return NotLegal("That is not something you can do now: choose up to two of your cards to keep.")


def not_your_turn(state: dict, seat: int) -> NotYourTurn:
    phase = state["phase"]
    if phase == "discard_hand":
        if seat in state["asked"]:
            return NotYourTurn("You have answered already; the others are still deciding about their hands.")
        return NotYourTurn("Only players who hold cards decide about their hands, and you hold none.")
    if phase == "battle":
        if state["final"] is not None and seat not in state["final"]:
            return NotYourTurn("You do not take part in the final battle.")
        if state["passed"][seat]:
            return NotYourTurn("You have passed: you are out of this battle.")
    return NotYourTurn("It is not your turn.")


def _place_token(state, seat, action):
    if token_allowed(state, action["region"]):
        return None
    if action["region"] == state["legate"]:
        return NotLegal("The papal legate stands there: no battle can be fought in that region.")
    return NotLegal("That region already has a control marker: choose one without.")


def _play(state, seat, action):
    card, take = action["card"], action["take"]
    if card not in state["hands"][seat]:
        return NotLegal("You do not hold that card.")
    if take is None:
        return None
    if card != "scarecrow":
        return NotLegal("Only a Scarecrow takes a mercenary back.")
    if take not in MERCENARY_VALUES:
        return NotLegal("A Scarecrow takes back a mercenary, not another kind of card.")
    if take in state["lines"][seat]:  # face-up: a face-down card is spelled with its mark
        return None
    return NotLegal("A Scarecrow can only take back one of your own face-up mercenaries.")


def _pass(state, seat, action):
    if not action["reveal"] or face_down_index(state["lines"][seat]) >= 0:
        return None
    return NotLegal("You have no face-down card to reveal.")


def _wait(state, seat, action):
    if may_wait(state, seat):
        return None
    if not state["opts"]["conquering_regions"]:
        return NotLegal("Only a defender may wait, and this game is played without Conquering Regions.")
    return NotLegal("Only the defender may wait, before their first card and while someone else still fights.")


def _place_legate(state, seat, action):
    region = action["region"]
    if region is None or legate_allowed(state, region):
        return None
    if region == state["token"]:
        return NotLegal("The papal legate cannot go where the battle is being fought.")
    return NotLegal("The papal legate cannot go to a region with a control marker: choose one without, "
                    "or keep it off the board.")


def _discard_hand(state, seat, action):
    if not any(c in MERCENARY_VALUES for c in state["hands"][seat]):
        return None
    return NotLegal("Only a hand without any mercenary may be discarded.")


def _keep(state, seat, action):
    if len(action["cards"]) > 2:
        return NotLegal("Keep at most two cards.")
    if Counter(action["cards"]) <= Counter(state["hands"][seat]):
        return None
    return NotLegal("You do not hold all of those cards.")


_REASONS = {
    "place_token": _place_token, "play": _play, "pass": _pass, "wait": _wait, "place_legate": _place_legate,
    "discard_hand": _discard_hand, "keep": _keep,
}
