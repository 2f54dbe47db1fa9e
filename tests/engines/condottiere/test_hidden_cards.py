"""The Hidden Cards optional rule (pp. 19-20)."""

import pytest

from backend.engines import IllegalAction

from .helpers import ENGINE, new_game, pass_, place, play, put_line, strengths

HIDDEN = {"hidden_cards": True}


def hidden_battle(hands, holder=0, n=2):
    return place(new_game(n, hands=hands, options=HIDDEN, holder=holder), "siena")


def test_mercenaries_drummers_heroines_courtesans_go_face_down_and_only_visible_strength_is_announced_p19():
    """p. 19: played face down; "a játékos csak a látható csatarendjének összerejét jelenti be"."""
    state = hidden_battle([["m10", "winter"], ["m2"]])
    state, events = ENGINE.step(state, 0, {"type": "play", "card": "m10"})
    public = ENGINE.visible_events(events, 1)
    assert [e["text"] for e in public] == ["Seat 0 plays a card face down (visible strength 0)."]
    assert "m10" not in repr(public) and "Mercenary" not in repr(public)
    assert [e["text"] for e in ENGINE.visible_events(events, 0)][-1] == "You play Mercenary 10 face down."
    assert ENGINE.view(state, 1)["battle"]["lines"][0]["cards"] == [{"hidden": True}]
    assert ENGINE.view(state, None)["battle"]["lines"][0]["strength"] == 0
    mine = ENGINE.view(state, 0)["battle"]["lines"][0]
    assert mine["cards"] == [{"card": "m10", "strength": 10, "hidden": True}]
    assert mine["strength"] == 0 and mine["strength_with_hidden"] == 10
    for kind in ("drummer", "heroine", "courtesan"):
        s = play(hidden_battle([[kind], []]), 0, kind)
        assert s["lines"][0] == ["?" + kind]


def test_special_cards_stay_face_up_p19():
    state = hidden_battle([["winter"], []])
    state = play(state, 0, "winter")
    assert state["lines"][0] == ["winter"]


def test_the_next_play_turns_the_face_down_card_up_p19():
    """p. 19: "Mikor legközelebb kártyát játszik ki, ha van lerakva képpel lefelé lapja, azt képpel felfelé forgatja"."""
    state = hidden_battle([["m10", "m2"], ["m1", "m3"]])
    state = play(state, 0, "m10")
    state = play(state, 1, "m1")
    state, events = ENGINE.step(state, 0, {"type": "play", "card": "m2"})
    assert state["lines"][0] == ["m10", "?m2"]
    assert "Seat 0 turns up Mercenary 10." in [e["text"] for e in ENGINE.visible_events(events, None)]
    assert strengths(state, None) == [10, 0]


def test_a_passing_player_may_keep_the_card_hidden_or_reveal_it_p19():
    state = hidden_battle([["m10", "m1"], ["m3", "m1"]])
    state = play(state, 0, "m10")
    assert {"type": "pass", "reveal": True} not in ENGINE.legal_actions(state, 1)
    assert {"type": "pass", "reveal": True} in ENGINE.legal_actions(play(state, 1, "m3"), 0)
    kept = pass_(play(state, 1, "m3"), 0)
    assert kept["lines"][0] == ["?m10"]
    shown = pass_(play(state, 1, "m3"), 0, reveal=True)
    assert shown["lines"][0] == ["m10"] and strengths(shown, None)[0] == 10
    with pytest.raises(IllegalAction, match="no face-down"):
        pass_(state, 1, reveal=True)


def test_every_face_down_card_is_turned_up_when_the_battle_is_compared_p19():
    state = hidden_battle([["m10", "m1"], ["m6", "m1"]])
    state = play(state, 0, "m10")
    state = play(state, 1, "m6")
    state = pass_(state, 0)
    state, events = ENGINE.step(state, 1, {"type": "pass"})
    assert state["owner"] == {"siena": 0}
    texts = [e["text"] for e in ENGINE.visible_events(events, None)]
    assert "Seat 0 turns up Mercenary 10." in texts and "Seat 1 turns up Mercenary 6." in texts


def test_scarecrow_cannot_take_back_a_face_down_mercenary_p20():
    """p. 20: "Képpel lefelé lévő zsoldos nem vehető vissza madárijesztővel"."""
    state = hidden_battle([["m10", "m4", "scarecrow"], ["m1", "m2"]])
    state = play(state, 0, "m4")
    state = play(state, 1, "m1")
    state = play(state, 0, "m10")  # the 4 is turned up, the 10 goes face down
    state = play(state, 1, "m2")
    takes = {a["take"] for a in ENGINE.legal_actions(state, 0) if a.get("card") == "scarecrow"}
    assert takes == {None, "m4"}
    with pytest.raises(IllegalAction, match="face-up"):
        play(state, 0, "scarecrow", take="m10")
    state = play(state, 0, "scarecrow", take="m4")
    assert state["lines"][0] == ["m10"]  # the Scarecrow took the 4 first, then the 10 was turned up


def test_bishop_ignores_face_down_mercenaries_example_p20():
    """p. 20: Pali has two 6s face up and a face-down 10; Mari (5, 1, 1) plays a Bishop: both 6s go, the 10 stays."""
    state = hidden_battle([[], ["bishop"]])
    put_line(state, 0, ["m6", "m6", "?m10"])
    put_line(state, 1, ["m5", "m1", "m1"])
    state = pass_(state, 0)
    state = play(state, 1, "bishop")
    assert state["lines"] == [["?m10"], ["m5", "m1", "m1"]]
    assert state["discard"].count("m6") == 2


def test_an_empty_hand_with_a_face_down_card_still_gets_a_turn_to_pass_or_reveal_p9_p19():
    """p. 9: no cards means passing; p. 19: a passing player "nem kötelező képpel felfelé fordítania de
    megteheti", so that choice is offered (docs/rules, Hidden cards)."""
    from .helpers import give, take_all

    state = new_game(2, hands=[[], ["m1", "m2"]], options=HIDDEN, holder=0)
    take_all(state, 0)
    give(state, 0, ["m10"])
    state = play(place(state, "siena"), 0, "m10")
    state = play(state, 1, "m1")
    assert ENGINE.to_move(state) == [0]
    assert ENGINE.legal_actions(state, 0) == [{"type": "pass"}, {"type": "pass", "reveal": True}]
    state = pass_(state, 0)
    assert state["lines"][0] == ["?m10"] and ENGINE.to_move(state) == [1]
