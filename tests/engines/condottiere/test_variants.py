"""The optional rules (pp. 17-19): draw after battle, points, larger kingdoms, conquering regions."""

from collections import Counter

import pytest

from backend.engines import IllegalAction
from backend.engines.condottiere.cards import STANDARD_DECK
from backend.engines.condottiere.rules import all_cards

from .helpers import ENGINE, act, give, new_game, own, pass_, place, play, take_all
from .test_victory import win_battle

DRAW = {"draw_after_battle": True}


def test_draw_after_battle_starts_with_seven_cards_p17():
    state = ENGINE.setup(4, options=DRAW, seed=2)
    assert [len(h) for h in state["hands"]] == [7] * 4


def test_draw_after_battle_example_p17():
    """p. 17: Mari holds 9 cards and one region, so her limit is 11 and she draws 2, not 3."""
    state = new_game(2, hands=[["m10"], ["m1"]], options=DRAW, holder=0)
    give(state, 1, ["m2", "m3", "m4"])
    own(state, 1, ["torino"])
    state = place(state, "siena")
    state = play(state, 0, "m10")
    state = play(state, 1, "m1")
    state = pass_(state, 0)
    state = pass_(state, 1)
    assert state["owner"] == {"torino": 1, "siena": 0}
    assert [len(h) for h in state["hands"]] == [6 + 3, 9 + 2]
    state = place(state, "roma")
    assert state["phase"] == "battle"  # no hand discard, no round end in this variant


def test_draw_after_battle_deals_ten_when_nobody_has_cards_p17():
    """p. 17: "Ha egy ütközet úgy ér véget, hogy senkinek nincs kártyája, akkor ... mindenki tíz lapot húz"."""
    state = new_game(2, hands=[["m10"], ["m1"]], options=DRAW, holder=0)
    for seat, card in ((0, "m10"), (1, "m1")):
        take_all(state, seat)
        give(state, seat, [card])
    state = play(place(state, "siena"), 0, "m10")
    state = play(state, 1, "m1")
    assert [len(h) for h in state["hands"]] == [10, 10]
    assert Counter(all_cards(state)) == Counter(STANDARD_DECK)


def test_draw_after_battle_reshuffles_the_discard_pile_when_the_deck_runs_out():
    """p. 17 (silent on an empty deck); docs/rules: the discard pile is shuffled into a new deck."""
    state = new_game(2, hands=[["m10"], ["m1"]], options=DRAW, holder=0)
    state["discard"] = state["deck"][2:]
    state["deck"] = state["deck"][:2]
    state = play(place(state, "siena"), 0, "m10")
    state = pass_(state, 1)
    state = pass_(state, 0)
    assert [len(h) for h in state["hands"]] == [9, 10]
    assert Counter(all_cards(state)) == Counter(STANDARD_DECK)


POINTS = {"points": True, "points_target": 20}


def adjacency_win(points_before, seat1_regions=("roma",)):
    state = new_game(3, hands=[["m10"]], options=POINTS, holder=0)
    state["points"] = list(points_before)
    own(state, 0, ["milano", "genova", "torino"])
    own(state, 1, list(seat1_regions))
    return win_battle(state, 0, "parma")


def test_points_one_per_region_plus_five_for_an_adjacency_win_then_a_new_game_p18():
    """p. 18: 1 point per region; +5 for winning with adjacent regions; play on until the target."""
    state = adjacency_win([0, 0, 0])
    assert state["points"] == [4 + 5, 1, 0]
    assert not ENGINE.is_over(state)
    assert state["game_no"] == 2 and state["owner"] == {} and state["legate"] is None
    assert state["phase"] == "place_token" and state["holder"] == 0  # the youngest starts every game (p. 5)
    assert [len(h) for h in state["hands"]] == [10, 10, 10]
    assert Counter(all_cards(state)) == Counter(STANDARD_DECK)
    assert ENGINE.result(state)["scores"] == [9, 1, 0]


def test_points_are_carried_over_several_games_and_each_game_restarts_the_board_p18():
    """p. 18: "több játék után derül csak ki a végső győztes"; each game is set up afresh (p. 5), so the
    youngest player (the seeded first condottiere) is again the first condottiere ("A legfiatalabb játékos
    lesz az első condottiere")."""
    state = new_game(3, hands=[[], [], ["m10"]], options=POINTS, holder=2)
    own(state, 2, ["milano", "genova", "torino"])
    own(state, 0, ["roma"])
    state["legate"], state["legate_seat"] = "napoli", 1
    state = win_battle(state, 2, "parma")  # game 1: seat 2 wins by 4 adjacent regions
    assert state["points"] == [1, 0, 4 + 5] and state["game_no"] == 2
    assert state["owner"] == {} and state["legate"] is None and state["legate_seat"] is None
    assert state["token"] is None and state["round"] == 1 and state["last"] is None
    assert state["holder"] == 2 and ENGINE.to_move(state) == [2]
    assert all(line == [] for line in state["lines"]) and state["discard"] == []
    assert [len(h) for h in state["hands"]] == [10, 10, 10]
    # game 2: seat 0 wins by six regions, none adjacent to the others' enough for a bonus
    take_all(state, 0)
    give(state, 0, ["m10"])
    own(state, 0, ["torino", "venezia", "lucca", "siena", "ancona"])
    own(state, 1, ["napoli"])
    state = win_battle(state, 0, "bologna")
    assert state["points"] == [1 + 6, 1, 9] and state["game_no"] == 3 and state["holder"] == 2
    assert ENGINE.result(state)["scores"] == [7, 1, 9] and not ENGINE.is_over(state)
    # game 3 reaches the target of 20: the most points win the match
    take_all(state, 1)
    give(state, 1, ["m10"])
    own(state, 1, ["milano", "genova", "torino"])
    state = win_battle(state, 1, "parma")
    assert state["points"] == [7, 1 + 9, 9]
    assert not ENGINE.is_over(state) and state["game_no"] == 4


def test_points_no_bonus_for_a_win_by_total_regions():
    """p. 18: the +5 is only for "Aki három (illetve 2 vagy 3 játékosnál négy) szomszédos régió birtoklásával nyer"."""
    state = new_game(3, hands=[["m10"]], options=POINTS, holder=0)
    own(state, 0, ["torino", "venezia", "lucca", "siena", "ancona"])
    state = win_battle(state, 0, "bologna")
    assert state["points"] == [6, 0, 0]


def test_points_reaching_the_target_ends_the_match_p18():
    """p. 18: "Addig játsszatok, amíg valaki el nem éri vagy meg nem haladja a megjelölt pontszámot"."""
    state = adjacency_win([15, 3, 0])
    assert ENGINE.is_over(state)
    assert ENGINE.result(state) == {"winners": [0], "scores": [24, 4, 0], "reason": "most points", "shared": False}


def test_points_tie_at_the_top_goes_to_a_final_battle_p18():
    """p. 18: "egyenlőség esetén az érintettek a szokásos módon végső ütközetet vívnak"."""
    state = adjacency_win([11, 19, 0])
    assert state["points"] == [20, 20, 0]
    assert state["final"] == [0, 1] and not ENGINE.is_over(state)
    assert [len(h) for h in state["hands"]] == [14, 11, 0]


@pytest.mark.parametrize("n,adjacent,wins", [(4, 3, False), (4, 4, True), (3, 4, False), (3, 5, True)])
def test_larger_kingdoms_needs_one_more_adjacent_region_p18(n, adjacent, wins):
    """p. 18: 4 adjacent regions with 4-6 players, 5 with 2-3 players."""
    chain = ["torino", "milano", "mantova", "venezia", "ferrara"]
    state = new_game(n, hands=[["m10"]], options={"larger_kingdoms": True}, holder=0)
    own(state, 0, chain[: adjacent - 1])
    state = win_battle(state, 0, chain[adjacent - 1])
    assert ENGINE.is_over(state) is wins


def test_larger_kingdoms_keeps_the_total_regions_goal_p18():
    state = new_game(4, hands=[["m10"]], options={"larger_kingdoms": True}, holder=0)
    own(state, 0, ["torino", "venezia", "lucca", "siena"])
    assert ENGINE.is_over(win_battle(state, 0, "bologna"))
    assert ENGINE.view(state, 0)["targets"] == {"total": 5, "adjacent": 4}


CONQUER = {"conquering_regions": True}


def conquest(defender_hand=("m6",), attacker_hand=("m5",)):
    state = new_game(3, hands=[list(attacker_hand), list(defender_hand)], options=CONQUER, holder=0)
    own(state, 1, ["siena"])
    state["legate"] = "roma"
    return state


def test_conquering_lets_the_token_go_on_controlled_regions_but_not_the_legate_p19():
    state = conquest()
    offered = {a["region"] for a in ENGINE.legal_actions(state, 0)}
    assert "siena" in offered and "roma" not in offered and len(offered) == 16
    state = place(state, "siena")
    assert state["defender"] == 1 and ENGINE.view(state, None)["battle"]["defender"] == 1


def test_the_defender_may_wait_and_join_after_everyone_else_passed_p19():
    """p. 19: the defender "megteheti, hogy először passzol akár többször is", even until all others passed."""
    state = place(conquest(), "siena")
    state = play(state, 0, "m5")
    assert {"type": "wait"} in ENGINE.legal_actions(state, 1)
    state = act(state, 1, {"type": "wait"})
    assert not state["passed"][1]
    state = pass_(state, 2)
    state = pass_(state, 0)
    assert ENGINE.to_move(state) == [1] and {"type": "wait"} not in ENGINE.legal_actions(state, 1)
    state = play(state, 1, "m6")
    state = pass_(state, 1)
    assert state["owner"]["siena"] == 1 and state["holder"] == 1


def test_once_the_defender_has_played_a_pass_is_final_p19():
    state = place(conquest(defender_hand=("m6", "m1")), "siena")
    state = play(state, 0, "m5")
    state = play(state, 1, "m1")
    state = pass_(state, 2)
    assert ENGINE.to_move(state) == [0]
    state = play(state, 0, "scarecrow", take=None)
    assert ENGINE.to_move(state) == [1]
    assert {"type": "wait"} not in ENGINE.legal_actions(state, 1)
    with pytest.raises(IllegalAction, match="Only the defender"):
        act(state, 1, {"type": "wait"})
    state = pass_(state, 1)
    assert state["passed"][1] and ENGINE.to_move(state) == [0]


def test_only_the_defender_may_wait():
    """p. 19: the repeated pass is the privilege of "a terület védelmezője" only."""
    state = place(conquest(), "siena")
    with pytest.raises(IllegalAction, match="Only the defender"):
        act(state, 0, {"type": "wait"})


def test_a_tied_attack_leaves_the_region_and_gives_the_token_to_the_defender_p19():
    """p. 19: "Ha az ütközetben senki sem győz, a megtámadott régiót védelmező játékos megtartja ... és ő kapja meg
    a condottiere jelzőjét"."""
    state = place(conquest(defender_hand=("m5",)), "siena")
    state = play(state, 0, "m5")
    state = play(state, 1, "m5")
    state = pass_(state, 2)
    state = pass_(state, 0)
    state = pass_(state, 1)
    assert state["owner"]["siena"] == 1 and state["holder"] == 1


def test_a_successful_attack_takes_the_region_p19():
    state = place(conquest(defender_hand=("m1",), attacker_hand=("m10",)), "siena")
    state = play(state, 0, "m10")
    state = play(state, 1, "m1")
    state = pass_(state, 2)
    state = pass_(state, 0)
    state = pass_(state, 1)
    assert state["owner"] == {"siena": 0} and state["holder"] == 0


def test_conquering_legate_may_go_on_a_controlled_region_p19():
    """p. 19: "bármelyik régióra lerakhatja a pápai legátus jelzőjét (olyanra is, amelyen található már uralomjelző)"."""
    state = conquest(attacker_hand=("bishop",))
    own(state, 2, ["milano"])
    state = play(place(state, "siena"), 0, "bishop")
    offered = {a["region"] for a in ENGINE.legal_actions(state, 0)}
    assert "milano" in offered and "roma" in offered and "siena" not in offered
    state = act(state, 0, {"type": "place_legate", "region": "milano"})
    assert state["legate"] == "milano"


def test_draw_after_battle_never_exceeds_the_limit_and_follows_a_tie_too_p17():
    """p. 17: "húzhat 3 kártyát vagy kevesebbet, ha a húzott lapokkal meghaladná kártyalimitjét" (10 + regions),
    after every battle ("az ütközetek után"), a tied one included; nobody discards from hand."""
    state = new_game(2, hands=[["m5"], ["m5"]], options=DRAW, holder=0)
    give(state, 0, ["m1"] * 5)  # 12 cards, 11 after the battle: above the limit of 10 + 0
    own(state, 1, ["torino", "napoli"])  # limit 12
    give(state, 1, ["m2"] * 3)  # 10 cards
    state = play(place(state, "siena"), 0, "m5")
    state = play(state, 1, "m5")
    state = pass_(state, 0)
    state = pass_(state, 1)
    assert state["owner"] == {"torino": 1, "napoli": 1}  # a tie
    assert [len(h) for h in state["hands"]] == [11, 9 + 3]
    assert state["holder"] == 1 and ENGINE.legal_actions(state, 1)[0]["type"] == "place_token"


def test_conquering_tie_with_a_courtesan_majority_gives_the_token_to_that_player_p13_p19():
    """docs/rules decision 10: p. 13 ("Aki a legtöbb kurtizánnal bír ... az kapja meg ... a condottiere
    jelzőjét") comes before the defender's claim of p. 19; the defender still keeps the region."""
    state = place(conquest(defender_hand=("m1",), attacker_hand=("courtesan",)), "siena")
    state = play(state, 0, "courtesan")
    state = play(state, 1, "m1")
    state = pass_(state, 2)
    state = pass_(state, 0)
    state = pass_(state, 1)
    assert state["owner"]["siena"] == 1 and state["holder"] == 0


def test_conquering_all_regions_held_ends_the_game_on_most_regions_p16_p19():
    """docs/rules: p. 16 "Ha a játékosok már az összes régiót elfoglalták" applies unchanged with Conquering."""
    from .test_victory import SPREAD

    state = new_game(6, hands=[["m10"]], options=CONQUER, holder=0)
    for seat, regions in enumerate(SPREAD):
        own(state, seat, [r for r in regions if r != "spoleto"])
    state = win_battle(state, 0, "spoleto")
    assert ENGINE.is_over(state) and ENGINE.result(state)["reason"] == "most regions"


def test_conquering_the_holder_may_fight_for_their_own_region_as_its_defender_p19():
    """docs/rules: p. 19 lets the token go where "már van valakinek uralomjelzője", the holder's own included;
    the owner is the defender and may wait."""
    state = new_game(3, hands=[["m5"], ["m6"]], options=CONQUER, holder=0)
    own(state, 0, ["siena"])
    state = place(state, "siena")
    assert state["defender"] == 0 and {"type": "wait"} in ENGINE.legal_actions(state, 0)
    state = act(state, 0, {"type": "wait"})
    state = play(state, 1, "m6")
    state = pass_(state, 2)
    state = play(state, 0, "m5")
    state = pass_(state, 1)
    state = pass_(state, 0)
    assert state["owner"] == {"siena": 1} and state["holder"] == 1
