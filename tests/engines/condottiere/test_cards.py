"""Every card as written, with the rulebook's worked examples (pp. 10-15)."""

import pytest

from backend.engines import IllegalAction, NotLegal
from backend.engines.condottiere.cards import line_totals

from .helpers import ENGINE, act, new_game, own, pass_, place, play, put_line, strengths


def battle(n=2, hands=None, lines=None, holder=0, options=None, region="siena"):
    """A battle in progress at `region`, lines laid out directly from the deck."""
    state = place(new_game(n, hands=hands, holder=holder, options=options), region)
    for seat, cards in enumerate(lines or []):
        put_line(state, seat, cards)
    return state


def test_winter_example_p10():
    """p. 10: two 10s, a 5 and a 4 make 29; after a Winter the line is worth 4."""
    state = battle(hands=[["winter"]], lines=[[], ["m10", "m10", "m5", "m4"]])
    assert strengths(state)[1] == 29
    state = play(state, 0, "winter")
    assert strengths(state)[1] == 4


def test_several_winters_count_once_p11():
    """p. 11: "két vagy több tél hatása pontosan ugyanaz, mintha csak egy tél lenne"."""
    assert line_totals([["m10", "winter", "winter"], ["m6"]]) == [1, 1]


def test_winter_discards_every_spring_and_spring_every_winter_p10_p11():
    state = battle(hands=[["winter", "spring"], ["m1"]], lines=[["spring"], ["spring", "m6"]])
    state = play(state, 0, "winter")
    assert state["lines"] == [["winter"], ["m6"]] and state["discard"].count("spring") == 2
    assert ENGINE.view(state, None)["battle"]["season"] == "winter"
    state = play(state, 1, "m1")
    state = play(state, 0, "spring")
    assert state["lines"] == [["spring"], ["m6", "m1"]]
    assert strengths(state) == [0, 10]


def test_spring_example_p11():
    """p. 11: Gábor 2 + 5 + 5 becomes 18; Csilla 1 + 4 + Heroine + Spring stays 15."""
    state = battle(hands=[[], ["spring"]], lines=[["m2", "m5", "m5"], ["m1", "m4", "heroine"]])
    state = play(state, 0, "scarecrow", take=None)
    state = play(state, 1, "spring")
    assert strengths(state) == [18, 15]


def test_spring_counts_the_highest_mercenary_of_every_line_including_a_passed_one():
    """p. 11: "a legerősebb zsoldos ereje 3-mal megnő, bármelyik csatarendben legyen is"."""
    state = battle(hands=[[], ["spring", "m1"]], lines=[["m6"], ["m6", "m2"]])
    state = pass_(state, 0)
    state = play(state, 1, "spring")
    assert strengths(state) == [9, 11]


def test_spring_picks_the_highest_printed_value_not_the_drummed_one():
    """docs/rules: Spring's "legerősebb zsoldos" is read on printed values (p. 14 keeps calling
    the doubled 4 "a 4-es erejű zsoldos")."""
    assert line_totals([["m4", "drummer"], ["m5", "spring"]]) == [8, 8]


def test_bishop_example_p12():
    """p. 12: Gábor 6,3,1,1 and Csilla 6,1,1; Csilla's Bishop discards both 6s, then she takes the legate."""
    state = battle(hands=[[], ["bishop"]], lines=[["m6", "m3", "m1", "m1"], ["m6", "m1", "m1"]])
    state = play(state, 0, "scarecrow", take=None)
    state, events = ENGINE.step(state, 1, {"type": "play", "card": "bishop"})
    assert state["lines"] == [["m3", "m1", "m1"], ["m1", "m1"]]
    assert state["discard"].count("m6") == 2 and "bishop" in state["discard"]
    assert state["phase"] == "legate" and ENGINE.to_move(state) == [1]
    assert any("discards 2 x Mercenary 6" in e["text"] for e in events)
    offered = {a["region"] for a in ENGINE.legal_actions(state, 1)}
    assert None in offered and "roma" in offered
    state = act(state, 1, {"type": "place_legate", "region": "roma"})
    assert state["legate"] == "roma" and state["legate_seat"] == 1
    assert state["phase"] == "battle" and ENGINE.to_move(state) == [0]


def test_legate_goes_only_on_a_free_region_other_than_the_battle():
    """p. 12: "egy olyan régióra helyezi, ahol még nem található uralomjelző"; not under the token (docs/rules)."""
    state = battle(hands=[["bishop"]], lines=[[], ["m2"]], region="siena")
    own(state, 1, ["milano"])
    state = play(state, 0, "bishop")
    offered = {a["region"] for a in ENGINE.legal_actions(state, 0)}
    assert "milano" not in offered and "siena" not in offered and len(offered) == 16  # 15 regions + off board
    for region, reason in (("milano", "a region with a control marker"), ("siena", "where the battle is being fought")):
        with pytest.raises(NotLegal, match=reason):
            act(state, 0, {"type": "place_legate", "region": region})
    state = act(state, 0, {"type": "place_legate", "region": None})
    assert state["legate"] is None and state["legate_seat"] == 0


def test_a_new_bishop_takes_the_legate_from_wherever_it_is():
    """p. 3: one legate token; p. 12: the Bishop's player "elveszi a pápai legátus jelzőjét"."""
    state = battle(hands=[["bishop"]], lines=[[], ["m2"]])
    state["legate"], state["legate_seat"] = "roma", 1
    state = play(state, 0, "bishop")
    state = act(state, 0, {"type": "place_legate", "region": "napoli"})
    assert state["legate"] == "napoli" and state["legate_seat"] == 0


def test_bishop_hits_a_passed_players_mercenaries_p12():
    """p. 12: "Már passzolt játékos zsoldosa is eldobható püspökkel"."""
    state = battle(hands=[[], ["bishop"]], lines=[["m10", "m2"], ["m5"]])
    state = pass_(state, 0)
    state = play(state, 1, "bishop")
    assert state["lines"] == [["m2"], ["m5"]]


def test_bishop_ignores_heroines_and_courtesans():
    """pp. 13-14: Courtesan and Heroine are not mercenaries, so the Bishop does not touch them."""
    state = battle(hands=[["bishop"]], lines=[[], ["heroine", "courtesan", "m3"]])
    state = play(state, 0, "bishop")
    assert state["lines"][1] == ["heroine", "courtesan"]


def test_bishop_with_no_mercenary_in_play_still_gives_the_legate():
    """docs/rules: p. 12 sets no condition on taking the legate."""
    state = battle(hands=[["bishop"]], lines=[[], ["heroine"]])
    state = play(state, 0, "bishop")
    assert state["lines"][1] == ["heroine"] and state["phase"] == "legate"


def test_bishop_uses_printed_values_even_in_winter():
    """docs/rules: under Winter every mercenary is worth 1 only "az ütközet eldöntésénél" (p. 13); the Bishop
    still discards the highest printed value."""
    state = battle(hands=[["bishop"]], lines=[["winter"], ["m10", "m1"]])
    state = play(state, 0, "bishop")
    assert state["lines"][1] == ["m1"]


def test_drummer_example_p13_p14():
    """pp. 13-14: Mari's three mercenaries worth 21 become 42 with a Drummer, 6 after a Winter."""
    state = battle(hands=[["drummer"], ["winter"]], lines=[["m10", "m6", "m5"]])
    assert strengths(state)[0] == 21
    state = play(state, 0, "drummer")
    assert strengths(state)[0] == 42
    state = play(state, 1, "winter")
    assert strengths(state)[0] == 6


def test_drummer_and_spring_example_p14():
    """p. 14: Pali's 2 and 4 with a Drummer under Spring (the 4 is highest): 4 + 8 + 3 = 15."""
    state = battle(hands=[["drummer"], ["spring"]], lines=[["m2", "m4"]])
    state = play(state, 0, "drummer")
    state = play(state, 1, "spring")
    assert strengths(state)[0] == 15


def test_several_drummers_do_not_stack_p13():
    assert line_totals([["m5", "drummer", "drummer"]]) == [10]


def test_heroine_is_ten_and_immune_to_winter_spring_and_drummer_p14():
    assert line_totals([["heroine", "drummer", "winter"]]) == [10]
    assert line_totals([["heroine", "spring"]]) == [10]
    assert line_totals([["courtesan", "drummer", "winter"]]) == [1]


def test_scarecrow_taking_nothing_back_only_discards_itself_p15():
    """p. 15: "a madárijesztő kijátszható úgy is, hogy a játékos nem vesz vissza zsoldost"."""
    state = battle(hands=[["scarecrow"]], lines=[["m10"], ["m6"]])
    hand = len(state["hands"][0])
    state, events = ENGINE.step(state, 0, {"type": "play", "card": "scarecrow", "take": None})
    assert state["lines"] == [["m10"], ["m6"]] and len(state["hands"][0]) == hand - 1
    assert state["discard"] == ["scarecrow"]
    assert events[0]["text"] == "Seat 0 plays Scarecrow, taking nothing back (strength 10)."


def test_scarecrow_takes_back_one_own_mercenary_or_none_p15():
    """p. 15: take back one of your mercenaries, or none; never a special card nor another line's card."""
    state = battle(hands=[["scarecrow", "scarecrow"]], lines=[["m10", "heroine", "m2"], ["m6"]])
    offers = [a for a in ENGINE.legal_actions(state, 0) if a.get("card") == "scarecrow"]
    assert sorted(str(a["take"]) for a in offers) == ["None", "m10", "m2"]
    for bad in ("heroine", "m6"):
        with pytest.raises(IllegalAction, match="Scarecrow"):
            play(state, 0, "scarecrow", take=bad)
    state = play(state, 0, "scarecrow", take="m10")
    assert state["lines"][0] == ["heroine", "m2"] and "m10" in state["hands"][0]
    assert "scarecrow" in state["discard"]


def test_a_retrieved_mercenary_can_be_played_again_in_the_same_battle():
    """docs/rules: p. 15 does not forbid replaying the card taken back."""
    state = battle(hands=[["scarecrow"], ["m1"]], lines=[["m10"]])
    state = play(state, 0, "scarecrow", take="m10")
    state = play(state, 1, "m1")
    state = play(state, 0, "m10")
    assert state["lines"][0] == ["m10"]


def test_surrender_is_played_into_the_line_and_worth_nothing():
    """p. 15 gives Surrender no strength; docs/rules decision 7."""
    assert line_totals([["surrender", "m3"]]) == [3]


def test_spring_with_no_mercenary_in_play_changes_nothing_p11():
    """p. 11: Spring raises "a legerősebb zsoldos"; Heroines and Courtesans are not mercenaries (pp. 13-14)."""
    state = battle(hands=[["spring"]], lines=[["heroine"], ["courtesan", "courtesan"]])
    state = play(state, 0, "spring")
    assert strengths(state) == [10, 2]
    assert line_totals([["spring"], ["drummer", "heroine"]]) == [0, 10]


def test_winter_then_spring_leaves_only_spring_and_spring_then_winter_only_winter_p10_p11():
    """p. 10: "Tél kijátszásakor azonnal dobjátok el az összes kijátszott tavaszt"; p. 11 the reverse."""
    state = battle(hands=[["winter", "m1"], ["spring", "winter"]], lines=[["m10"], ["m4"]])
    state = play(state, 0, "winter")
    assert strengths(state) == [1, 1]
    state = play(state, 1, "spring")
    assert strengths(state) == [13, 4] and state["discard"].count("winter") == 1
    state = play(state, 0, "m1")
    state = play(state, 1, "winter")
    assert strengths(state) == [2, 1] and state["discard"].count("spring") == 1
    assert ENGINE.view(state, None)["battle"]["season"] == "winter"
