"""Refusals say what is wrong and what is expected (issue 13), and log the
engine's own spelling of what was accepted."""

from backend.engines import MalformedAction, NotLegal, NotYourTurn, canonical

from .. import engine_checks as checks
from .helpers import ENGINE, act, new_game, pass_, place, put_line, settle_discards


def refused(state, seat, action, kind, text):
    return checks.refused(ENGINE, state, seat, action, kind, text)


def test_malformed_actions_are_told_apart_from_illegal_ones():
    state = new_game(3, hands=[["m1"]], holder=0)
    err = refused(state, 0, {"type": "dance"}, MalformedAction, "Unknown action type")
    assert "place_token" in err.params["types"]
    refused(state, 0, {"type": "place_token"}, MalformedAction, 'needs "region"')
    refused(state, 0, {"type": "place_token", "region": "atlantis"}, MalformedAction, '"region" must be one of')
    refused(state, 0, {"type": "place_token", "regoin": "roma"}, MalformedAction, "takes only these fields: region")
    refused(state, 0, {"type": "wait", "region": "roma"}, MalformedAction, "takes no fields")
    refused(state, 0, {"type": "keep", "cards": "m1"}, MalformedAction, '"cards" must be a list')
    # Well-formed, but not what this moment asks for.
    refused(state, 0, {"type": "keep", "cards": ["m1", "m1", "m1"]}, NotLegal, "choose the region of the next battle")
    # The shape is checked before the turn: a malformed message is malformed from anyone.
    refused(state, 1, {"type": "dance"}, MalformedAction, "Unknown action type")
    refused(state, 1, {"type": "place_token", "region": "roma"}, NotYourTurn, "not your turn")
    refused(state, 9, {"type": "place_token", "region": "roma"}, NotYourTurn, "no such seat")


def test_battle_refusals_say_why():
    state = place(new_game(3, hands=[["m1", "scarecrow"], ["m2"], ["m3"]], holder=0), "siena")
    refused(state, 0, {"type": "play", "card": "scarecrow", "take": "winter"}, NotLegal, "not another kind of card")
    refused(state, 0, {"type": "play", "card": "scarecrow", "take": "m1"}, NotLegal, "own face-up mercenaries")
    refused(state, 0, {"type": "pass", "reveal": True}, NotLegal, "no face-down card")
    refused(state, 0, {"type": "wait"}, NotLegal, "without Conquering Regions")
    state = pass_(state, 0)
    refused(state, 0, {"type": "pass"}, NotYourTurn, "You have passed")


def test_the_discard_question_tells_who_has_answered_only_to_themselves():
    state = new_game(3, hands=[["m1"], [], ["m2"]], holder=0)
    for seat in (0, 1, 2):
        state = pass_(state if seat else place(state, "siena"), seat)
    state = place(state, "roma", seat=1)
    answered = act(state, 1, {"type": "keep_hand"})
    refused(answered, 1, {"type": "keep_hand"}, NotYourTurn, "answered already")
    refused(state, 0, {"type": "discard_hand"}, NotLegal, "without any mercenary")
    assert settle_discards(answered)["phase"] == "battle"


def test_keep_and_legate_reasons():
    state = new_game(2, hands=[["m1", "m2", "m3"], []], holder=0)
    state["phase"], state["turn"] = "keep", 0
    refused(state, 0, {"type": "keep", "cards": ["m1", "m2", "m3"]}, NotLegal, "at most two")
    refused(state, 0, {"type": "keep", "cards": ["m10"]}, NotLegal, "do not hold all of those cards")
    state = place(new_game(3, hands=[["bishop"], ["m2"], ["m3"]], holder=0), "siena")
    state = act(state, 0, {"type": "play", "card": "bishop"})
    refused(state, 0, {"type": "place_legate", "region": "siena"}, NotLegal, "where the battle is being fought")
    refused(state, 0, {"type": "pass"}, NotLegal, "place the papal legate, or keep it off the board")


def test_the_canonical_action_is_the_listed_spelling():
    state = place(new_game(3, hands=[["m1", "scarecrow"], ["m2"], ["m3"]], holder=0), "siena")
    put_line(state, 0, ["m5"])
    assert ENGINE.play(state, 0, {"type": "play", "card": "m1", "take": None}).action == {"type": "play", "card": "m1"}
    assert ENGINE.play(state, 0, {"type": "play", "card": "scarecrow"}).action == {
        "type": "play", "card": "scarecrow", "take": None}
    assert ENGINE.play(state, 0, {"type": "pass", "reveal": False}).action == {"type": "pass"}
    keep = new_game(2, hands=[["winter", "m1", "m2"], []], holder=0)
    keep["phase"], keep["turn"] = "keep", 0
    played = ENGINE.play(keep, 0, {"type": "keep", "cards": ["winter", "m1"]})
    assert played.action == {"type": "keep", "cards": ["m1", "winter"]}
    assert played.action in ENGINE.legal_actions(keep, 0)
    assert canonical(ENGINE.play(keep, 0, played.action).state) == canonical(played.state)
