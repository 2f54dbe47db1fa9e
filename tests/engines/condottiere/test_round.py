"""Discarding a hand without mercenaries and the end of a round (p. 8)."""

import pytest

from backend.engines import IllegalAction

from backend.engines import canonical

from .helpers import ENGINE, act, give, new_game, own, pass_, place, play, settle_discards, take_all


def all_pass(state, seats):
    for seat in seats:
        state = pass_(state, seat)
    return state


def test_only_a_hand_without_mercenaries_may_be_discarded_after_the_battle():
    """p. 8: "Ha valakinek nincs egy zsoldoskártyája sem a kezében, akkor dönthet úgy, hogy eldobja összes lapját"."""
    state = new_game(3, hands=[["m1"], [], ["m2"]], holder=0)
    state = all_pass(place(state, "siena"), [0, 1, 2])
    assert state["phase"] == "place_token"
    state = place(state, "roma", seat=1)  # tie: the token went to seat 1
    # Everyone holding cards is asked at once, so being asked says nothing about a hand.
    assert state["phase"] == "discard_hand" and ENGINE.to_move(state) == [0, 1, 2]
    assert ENGINE.legal_actions(state, 1) == [{"type": "discard_hand"}, {"type": "keep_hand"}]
    for seat in (0, 2):
        assert ENGINE.legal_actions(state, seat) == [{"type": "keep_hand"}]
        with pytest.raises(IllegalAction, match="without any mercenary"):
            act(state, seat, {"type": "discard_hand"})
    kept = settle_discards(state)
    assert kept["phase"] == "battle" and len(kept["hands"][1]) == 10
    answered = act(state, 1, {"type": "discard_hand"})
    assert ENGINE.to_move(answered) == [0, 2]
    for viewer in (None, 0, 2):  # the answer stays secret until everybody has answered
        assert canonical(ENGINE.view(answered, viewer)) == canonical(ENGINE.view(state, viewer))
    answered = act(answered, 0, {"type": "keep_hand"})
    state, events = ENGINE.step(answered, 2, {"type": "keep_hand"})
    assert state["hands"][1] == [] and len(state["discard"]) == 10
    assert state["phase"] == "battle" and state["passed"][1] and ENGINE.to_move(state) == [2]
    assert events[0]["text"] == "Seat 1 discards their hand (10 cards)."


def test_no_discard_question_before_the_first_battle():
    """p. 8: hand discards are step 4 of resolving a battle, so the first battle (p. 5) starts at once."""
    state = place(new_game(3, holder=0), "siena")
    assert state["phase"] == "battle"


def test_the_round_ends_when_one_player_holds_cards_who_keeps_at_most_two():
    """p. 8: the last player with cards keeps up to two; everyone is dealt up to 10, plus one per region."""
    state = new_game(3, hands=[["m10", "m1"], ["m2"], ["m3", "heroine", "m5"]], holder=0)
    for seat, hand in ((0, ["m10"]), (1, ["m2"]), (2, ["m3", "heroine", "m5"])):
        take_all(state, seat)
        give(state, seat, hand)
    own(state, 1, ["bologna", "modena", "siena"])  # the p. 8 example's regions
    state = place(state, "lucca")
    state = play(state, 0, "m10")
    state = play(state, 1, "m2")
    state = pass_(state, 2)  # seats 0 and 1 have no cards left: they pass automatically
    assert state["owner"]["lucca"] == 0 and state["phase"] == "place_token"
    state = settle_discards(place(state, "roma"))
    assert state["phase"] == "keep" and ENGINE.to_move(state) == [2]
    offered = ENGINE.legal_actions(state, 2)
    assert {"type": "keep", "cards": []} in offered and {"type": "keep", "cards": ["heroine", "m5"]} in offered
    assert all(len(a["cards"]) <= 2 for a in offered) and len(offered) == 7
    with pytest.raises(IllegalAction):
        act(state, 2, {"type": "keep", "cards": ["m3", "m5", "heroine"]})
    with pytest.raises(IllegalAction, match="do not hold"):
        act(state, 2, {"type": "keep", "cards": ["m10"]})
    state = act(state, 2, {"type": "keep", "cards": ["heroine", "m5"]})
    # 0 cards + 1 region -> 11; "nincs kártya a kezében, és uralja Bolognát, Modenát és Sienát, akkor
    # 13 lapot kap" (p. 8); kept 2 + 8 -> 10.
    assert [len(h) for h in state["hands"]] == [11, 13, 10]
    assert state["hands"][2][:2] == ["heroine", "m5"]
    assert state["round"] == 2 and state["phase"] == "battle" and ENGINE.to_move(state) == [0]
    assert state["discard"] == [] and len(state["deck"]) == 110 - 34


def test_a_round_where_nobody_keeps_cards_redeals_at_once():
    """p. 8: "egy játékos sem ... tart a kezében kártyát": no one keeps anything; 10 each plus one per region."""
    state = new_game(2, hands=[["m10"], ["m2"]], holder=0)
    for seat, hand in ((0, ["m10"]), (1, ["m2"])):
        take_all(state, seat)
        give(state, seat, hand)
    state = play(place(state, "siena"), 0, "m10")
    state = play(state, 1, "m2")
    assert state["phase"] == "place_token"
    state, events = ENGINE.step(state, 0, {"type": "place_token", "region": "roma"})
    assert [len(h) for h in state["hands"]] == [11, 10] and state["round"] == 2
    assert any(e["kind"] == "round" for e in events)
    private = [e for e in events if e["to"] == [1]]
    assert private and all(e["params"]["cards"] for e in private)


def test_discarding_the_last_hand_can_end_the_round():
    """p. 8: the round-end check comes after step 4 (hand discards)."""
    state = new_game(2, hands=[["m10"], []], holder=0)
    take_all(state, 0)
    give(state, 0, ["m10"])
    take_all(state, 1)
    give(state, 1, ["scarecrow", "drummer"])
    state = play(place(state, "siena"), 0, "m10")
    state = pass_(state, 1)
    state = place(state, "roma")
    assert state["phase"] == "discard_hand" and ENGINE.to_move(state) == [1]
    state = act(state, 1, {"type": "discard_hand"})
    assert state["round"] == 2 and [len(h) for h in state["hands"]] == [11, 10]
