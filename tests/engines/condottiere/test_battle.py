"""Placing the token, playing or passing, ending and resolving a battle (pp. 4-9)."""

import pytest

from backend.engines import MalformedAction, NotLegal, NotYourTurn

from .helpers import ENGINE, act, new_game, own, pass_, place, play, settle_discards, strengths, take_all


def regions_offered(state):
    return {a["region"] for a in ENGINE.legal_actions(state, state["holder"])}


def test_token_cannot_go_on_a_controlled_region_or_the_legate():
    """p. 4: "nem rakhatjátok olyan régióra, ahol már található uralomjelző, vagy ahol a pápai legátus"."""
    state = new_game(3)
    own(state, 1, ["milano"])
    state["legate"] = "roma"
    offered = regions_offered(state)
    assert "milano" not in offered and "roma" not in offered and len(offered) == 15
    with pytest.raises(NotLegal, match="already has a control marker"):
        place(state, "milano")
    with pytest.raises(NotLegal, match="legate stands there"):
        place(state, "roma")


def test_the_placer_acts_first_then_clockwise():
    """p. 6: the player who placed the token starts, then clockwise."""
    state = place(new_game(3, holder=1), "siena")
    assert state["phase"] == "battle" and ENGINE.to_move(state) == [1]
    state = play(state, 1, "scarecrow", take=None)
    assert ENGINE.to_move(state) == [2]
    state = pass_(state, 2)
    assert ENGINE.to_move(state) == [0]


def test_a_passed_player_is_skipped_and_a_lone_player_may_keep_playing():
    """p. 6: passing is final; whoever has not passed may keep playing alone."""
    state = place(new_game(3, hands=[["m1"], ["m2", "m3", "m4"], []]), "siena")
    state = pass_(state, 0)
    state = play(state, 1, "m2")
    state = pass_(state, 2)
    assert ENGINE.to_move(state) == [1]
    state = play(state, 1, "m3")
    assert ENGINE.to_move(state) == [1]
    assert not any(a["type"] == "play" for a in ENGINE.legal_actions(state, 0))
    state = play(state, 1, "m4")
    state = pass_(state, 1)
    assert state["owner"] == {"siena": 1}


def test_a_passed_line_still_fights_and_can_win():
    """p. 6: "eladdig felállt csatarendje még harcol, és akár meg is nyerheti"."""
    state = place(new_game(2, hands=[["m10"], ["m2", "m3"]]), "lucca")
    state = play(state, 0, "m10")
    state = play(state, 1, "m2")
    state = pass_(state, 0)
    state = play(state, 1, "m3")
    assert ENGINE.to_move(state) == [1]
    state = pass_(state, 1)
    assert state["owner"] == {"lucca": 0}
    assert state["holder"] == 0 and state["phase"] == "place_token"


def test_surrender_ends_the_battle_at_once_for_the_strongest_line():
    """p. 7 and p. 15: "az ütközet azon nyomban véget ér"; the strongest line at that moment takes the region."""
    state = place(new_game(3, hands=[["m5"], ["m6", "surrender"], ["m10"]]), "parma")
    state = play(state, 0, "m5")
    state = play(state, 1, "m6")
    state = play(state, 2, "m10")
    state = play(state, 0, "scarecrow", take=None)
    state = play(state, 1, "surrender")
    assert state["owner"] == {"parma": 2}
    assert state["phase"] == "place_token" and state["holder"] == 2


def test_surrender_with_tied_strengths_is_a_tie():
    """p. 15 with p. 7: if the strongest lines are tied when the Surrender is played, nobody takes the region."""
    state = place(new_game(2, hands=[["m5"], ["m5", "surrender"]]), "parma")
    state = play(state, 0, "m5")
    state = play(state, 1, "m5")
    state = pass_(state, 0)
    state = play(state, 1, "surrender")
    assert state["owner"] == {} and state["holder"] == 1 and state["phase"] == "place_token"


def test_a_tie_places_no_marker_and_the_token_goes_left_of_the_last_holder():
    """p. 7: "a régióra nem kerül uralomjelző, és a condottiere jelzőjét addigi birtokosa bal oldali szomszédjának"."""
    state = place(new_game(3, hands=[["m5"], ["m5"], []], holder=1), "genova")
    state = play(state, 1, "m5")
    state = pass_(state, 2)
    state = play(state, 0, "m5")
    state = pass_(state, 1)
    state = pass_(state, 0)
    assert state["owner"] == {}
    assert state["holder"] == 2
    assert state["last"]["winner"] is None


def test_the_tied_region_may_be_chosen_again():
    """p. 8: "a legutóbbi ütközet helyszínét is választhatja, ha senkinek sem sikerült megszereznie"."""
    state = place(new_game(2, hands=[["m5"], ["m5"]]), "genova")
    state = play(state, 0, "m5")
    state = play(state, 1, "m5")
    state = pass_(state, 0)
    state = pass_(state, 1)
    assert state["owner"] == {} and state["phase"] == "place_token"
    assert "genova" in regions_offered(state)
    state = place(state, "genova")
    assert state["token"] == "genova"


def test_nobody_playing_anything_is_a_tie():
    """p. 7 tie rule; docs/rules decision 8: 0 against 0 is a tie, the token goes left."""
    state = place(new_game(3, holder=2), "napoli")
    for seat in (2, 0, 1):
        state = pass_(state, seat)
    assert state["owner"] == {} and state["holder"] == 0


def test_courtesan_majority_takes_the_token_while_the_winner_takes_the_region():
    """p. 13: the player with most Courtesans gets the token instead of the winner; the winner places the marker."""
    state = place(new_game(2, hands=[["m10"], ["courtesan", "courtesan"]]), "urbino")
    state = play(state, 0, "m10")
    state = play(state, 1, "courtesan")
    state = pass_(state, 0)
    state = play(state, 1, "courtesan")
    state = pass_(state, 1)
    assert state["owner"] == {"urbino": 0}
    assert state["holder"] == 1 and ENGINE.to_move(state) == [1]


def test_courtesans_tied_leave_the_token_with_the_winner():
    """p. 13: with two or more players tied on Courtesans the battle winner takes the token."""
    state = place(new_game(3, hands=[["courtesan"], ["courtesan", "m3"], []], holder=0), "urbino")
    state = play(state, 0, "courtesan")
    state = play(state, 1, "courtesan")
    state = pass_(state, 2)
    state = pass_(state, 0)
    state = play(state, 1, "m3")
    state = pass_(state, 1)
    assert state["owner"] == {"urbino": 1} and state["holder"] == 1


def test_courtesans_tied_and_strength_tied_pass_the_token_left():
    """p. 13: "amennyiben ilyen esetben a csatának nincs győztese, akkor ... bal oldali szomszédjához"."""
    state = place(new_game(3, hands=[["courtesan"], ["courtesan"], []], holder=0), "urbino")
    state = play(state, 0, "courtesan")
    state = play(state, 1, "courtesan")
    for seat in (2, 0, 1):
        state = pass_(state, seat)
    assert state["owner"] == {} and state["holder"] == 1


def test_courtesan_majority_takes_the_token_even_in_a_strength_tie():
    """p. 13: the Courtesan majority takes the token instead of the (here absent) winner."""
    state = place(new_game(3, hands=[["courtesan"], ["m1"], []], holder=0), "urbino")
    state = play(state, 0, "courtesan")
    state = play(state, 1, "m1")
    for seat in (2, 0, 1):
        state = pass_(state, seat)
    assert state["owner"] == {} and state["holder"] == 0


def test_a_player_without_cards_must_pass():
    """p. 9: "nincs már kártya a kezében, akkor nem tehet mást, passzolnia kell"."""
    state = new_game(3, hands=[["m4"], [], []], holder=0)
    take_all(state, 1)
    state, events = ENGINE.step(place(state, "siena"), 0, {"type": "play", "card": "m4"})
    assert state["passed"][1] and ENGINE.to_move(state) == [2]
    assert any(e["text"] == "Seat 1 has no cards and passes." for e in events)


def test_winning_with_the_last_card_still_takes_the_token_and_chooses():
    """p. 9: the winner who laid their last card gets the token, chooses the site, then passes."""
    state = new_game(3, hands=[["m10"], ["m1"], ["m1"]], holder=0)
    state["deck"].extend(state["hands"][0][1:])
    state["hands"][0] = ["m10"]
    state = place(state, "siena")
    state = play(state, 0, "m10")
    state = pass_(state, 1)
    state = pass_(state, 2)
    assert state["owner"] == {"siena": 0} and state["holder"] == 0
    assert ENGINE.to_move(state) == [0] and state["phase"] == "place_token"
    state = settle_discards(place(state, "roma"))
    assert state["phase"] == "battle" and state["passed"][0] and ENGINE.to_move(state) == [1]


def test_illegal_plays_are_refused_with_a_clear_message():
    state = place(new_game(2, hands=[["m1"], ["m2"]]), "siena")
    with pytest.raises(NotLegal, match="do not hold"):
        play(state, 0, "m2")
    with pytest.raises(NotYourTurn, match="not your turn"):
        play(state, 1, "m2")
    with pytest.raises(NotLegal, match="not something you can do now: play a card or pass"):
        place(state, "roma", seat=0)
    with pytest.raises(NotLegal, match="Only a Scarecrow"):
        play(state, 0, "m1", take="m1")
    with pytest.raises(MalformedAction, match="reveal"):
        act(state, 0, {"type": "pass", "reveal": "yes"})


def test_view_shows_live_strength_and_turn():
    state = place(new_game(2, hands=[["m6", "drummer"], ["m4"]]), "siena")
    state = play(state, 0, "m6")
    state = play(state, 1, "m4")
    state = play(state, 0, "drummer")
    view = ENGINE.view(state, 1)
    assert strengths(state, 1) == [12, 4]
    assert view["to_move"] == [1] and view["token"] == {"region": "siena", "holder": 0}
    assert view["battle"]["lines"][0]["cards"][0] == {"card": "m6", "strength": 12}
