"""Why Condottiere refuses an action, in words a player understands.

The engine decides legality by legal_actions alone; these functions only say
why a well-formed action was not among them (or why the seat may not act).
Each reason uses what the acting seat may know: its own hand and the table.
"""

from __future__ import annotations

from ..base import NotLegal, NotYourTurn
from .cards import MERCENARY_VALUES

PHASE_OF = {
    "place_token": "place_token", "play": "battle", "pass": "battle", "wait": "battle",
    "place_legate": "legate", "discard_hand": "discard_hand", "keep_hand": "discard_hand", "keep": "keep",
}


def refusal(state: dict, seat: int, action: dict) -> NotLegal | None:
    """The reason, or None when there is nothing more specific to say."""
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
    if action["region"] == state["legate"]:
        return NotLegal("The papal legate stands there: no battle can be fought in that region.")
    return NotLegal("That region already has a control marker: choose one without.")


def _play(state, seat, action):
    card, take = action["card"], action["take"]
    if card not in state["hands"][seat]:
        return NotLegal("You do not hold that card.")
    if card != "scarecrow":
        return NotLegal("Only a Scarecrow takes a mercenary back.")
    if take not in MERCENARY_VALUES:
        return NotLegal("A Scarecrow takes back a mercenary, not another kind of card.")
    return NotLegal("A Scarecrow can only take back one of your own face-up mercenaries.")


def _pass(state, seat, action):
    return NotLegal("You have no face-down card to reveal.")


def _wait(state, seat, action):
    if not state["opts"]["conquering_regions"]:
        return NotLegal("Only a defender may wait, and this game is played without Conquering Regions.")
    return NotLegal("Only the defender may wait, before their first card and while someone else still fights.")


def _place_legate(state, seat, action):
    if action["region"] == state["token"]:
        return NotLegal("The papal legate cannot go where the battle is being fought.")
    return NotLegal("The papal legate cannot go to a region with a control marker: choose one without, "
                    "or keep it off the board.")


def _discard_hand(state, seat, action):
    return NotLegal("Only a hand without any mercenary may be discarded.")


def _keep(state, seat, action):
    if len(action["cards"]) > 2:
        return NotLegal("Keep at most two cards.")
    return NotLegal("You do not hold all of those cards.")


_REASONS = {
    "place_token": _place_token, "play": _play, "pass": _pass, "wait": _wait, "place_legate": _place_legate,
    "discard_hand": _discard_hand, "keep": _keep,
}
