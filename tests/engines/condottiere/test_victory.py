"""The end of the game (p. 16): victory, all regions taken, the final battle."""

from collections import Counter

import pytest

from backend.engines.condottiere.cards import STANDARD_DECK
from backend.engines.condottiere.rules import all_cards

from .helpers import ENGINE, give, new_game, own, pass_, place, play, take_all

# 17 regions over 6 seats, nobody holding 3 adjacent (checked in the first test).
SPREAD = [["bologna", "genova", "parma", "spoleto"], ["siena", "roma", "venezia"], ["urbino", "torino", "milano"],
          ["ancona", "firenze", "napoli"], ["lucca", "ferrara"], ["mantova", "modena"]]


def win_battle(state, winner, region, others_pass=True):
    """`winner` plays a 10 at `region` and everybody passes."""
    state = place(state, region)
    n = state["num_players"]
    seat = state["holder"]
    for _ in range(n + 1):
        if state["phase"] != "battle":
            break
        if seat == winner and "m10" in state["hands"][seat] and not state["lines"][seat]:
            state = play(state, seat, "m10")
        else:
            state = pass_(state, seat)
        seat = state["turn"] if state["turn"] is not None else seat
    return state


def game_with(n, regions_by_seat, winner_hand=("m10",), holder=None):
    winner_hand = list(winner_hand)
    hands = [[] for _ in range(n)]
    state = new_game(n, hands=hands, holder=0 if holder is None else holder)
    for seat, regions in enumerate(regions_by_seat):
        own(state, seat, regions)
    return state, winner_hand


@pytest.mark.parametrize("n,regions,site,wins", [
    (3, ["torino", "venezia", "lucca", "siena", "ancona"], "bologna", True),   # 6 regions, 2-3 players
    (3, ["torino", "venezia", "lucca", "siena"], "bologna", False),            # 5 regions are not enough
    (3, ["milano", "genova", "torino"], "parma", True),                         # 4 adjacent
    (3, ["milano", "genova"], "parma", False),                                  # 3 adjacent, 2-3 players
    (4, ["milano", "genova"], "parma", True),                                   # 3 adjacent, 4-6 players
    (5, ["torino", "venezia", "lucca", "siena"], "bologna", True),             # 5 regions, 4-6 players
    (6, ["torino", "venezia", "lucca"], "bologna", False),
])
def test_victory_conditions_by_player_count_p16(n, regions, site, wins):
    """p. 16: 4-6 players need 5 regions or 3 adjacent; 2-3 players 6 regions or 4 adjacent."""
    state = new_game(n, hands=[["m10"]], holder=0)
    own(state, 0, regions)
    state = win_battle(state, 0, site)
    assert state["owner"][site] == 0
    assert ENGINE.is_over(state) is wins
    if wins:
        assert ENGINE.to_move(state) == [] and state["phase"] == "over"
        result = ENGINE.result(state)
        assert result["winners"] == [0] and result["scores"][0] == len(regions) + 1
        assert ENGINE.view(state, 1)["result"]["winners"] == [0]
    else:
        assert state["phase"] == "place_token"


def test_all_regions_taken_most_regions_wins_p16():
    """p. 16: "Ha a játékosok már az összes régiót elfoglalták ... az nyer, aki a legtöbb területet birtokolja"."""
    from backend.engines.condottiere.board import largest_group

    assert sorted(r for g in SPREAD for r in g) == sorted(set(r for g in SPREAD for r in g)) and len(
        sum(SPREAD, [])) == 17
    assert all(largest_group(g) <= 2 for g in SPREAD)
    state = new_game(6, hands=[["m10"]], holder=0)
    for seat, regions in enumerate(SPREAD):
        own(state, seat, [r for r in regions if r != "spoleto"])
    state = win_battle(state, 0, "spoleto")
    assert ENGINE.is_over(state)
    assert ENGINE.result(state) == {"winners": [0], "scores": [4, 3, 3, 3, 2, 2], "reason": "most regions",
                                    "shared": False}


def test_the_last_free_region_under_the_legate_counts_as_all_taken_p16():
    """p. 16: "már csak egy gazdátlan régió található, de azon ott van a pápai legátus jelzője is"."""
    state = new_game(6, hands=[["m10"]], holder=0)
    for seat, regions in enumerate(SPREAD):
        own(state, seat, [r for r in regions if r not in ("spoleto", "napoli")])
    state["legate"] = "napoli"
    state = win_battle(state, 0, "spoleto")
    assert ENGINE.result(state)["winners"] == [0] and ENGINE.is_over(state)


def final_battle_state(courtesan_for=None):
    """Seat 2 takes Ancona and ties seat 0 on 4 regions: a final battle between 0 and 2."""
    hands = [[], [], ["m10"], [], [], ["courtesan"]]
    state = new_game(6, hands=hands, holder=2)
    for seat, regions in enumerate(SPREAD):
        own(state, seat, [r for r in regions if r != "ancona"])
    state = place(state, "ancona")
    for seat in (2, 3, 4, 5, 0, 1):
        if seat == 2:
            state = play(state, 2, "m10")
        elif seat == courtesan_for:
            state = play(state, seat, "courtesan")
        else:
            state = pass_(state, seat)
    while state["final"] is None:
        state = pass_(state, state["turn"])
    return state


def test_a_tie_for_most_regions_leads_to_a_final_battle_p16():
    """p. 16: all cards shuffled, the tied players get 10 + 1 per region; the token holder starts."""
    state = final_battle_state()
    assert not ENGINE.is_over(state)
    assert state["final"] == [0, 2] and state["phase"] == "battle"
    assert [len(h) for h in state["hands"]] == [14, 0, 14, 0, 0, 0]
    assert Counter(all_cards(state)) == Counter(STANDARD_DECK) and state["discard"] == []
    assert ENGINE.to_move(state) == [2]
    view = ENGINE.view(state, None)
    assert view["battle"]["final"] is True and view["battle"]["participants"] == [0, 2]
    for seat, hand in ((0, ["m5", "m1"]), (2, ["m10"])):
        take_all(state, seat)
        give(state, seat, hand)
    state = play(state, 2, "m10")
    state = play(state, 0, "m5")  # seat 2 has no more cards and passes; seat 0 plays on alone
    state = pass_(state, 0)
    assert ENGINE.result(state)["winners"] == [2]
    assert ENGINE.result(state)["reason"] == "final battle"


def test_final_battle_tie_is_a_shared_victory_p16():
    """p. 16: "ha az ütközet döntetlennel végződik, akkor a küzdő felek megosztoznak a győzelmen"."""
    state = final_battle_state()
    for seat in (0, 2):
        take_all(state, seat)
        give(state, seat, ["m6"])
    state = play(state, 2, "m6")
    state = play(state, 0, "m6")
    assert ENGINE.result(state) == {"winners": [0, 2], "scores": [4, 3, 4, 2, 2, 2], "reason": "final battle",
                                    "shared": True}


def test_final_battle_starts_left_of_a_non_participating_token_holder_p16():
    """p. 16: "ha ő nem vesz részt a harcban, akkor a résztvevők közül az, aki az óramutató járása szerint a
    legközelebb ül hozzá"."""
    state = final_battle_state(courtesan_for=5)
    assert state["holder"] == 5 and state["final"] == [0, 2]
    assert ENGINE.to_move(state) == [0]
    assert state["passed"] == [False, True, False, True, True, True]


def test_a_bishop_in_the_final_battle_places_no_legate():
    """p. 16 final battle (no region at stake) with p. 12; docs/rules decision 9."""
    state = final_battle_state()
    take_all(state, 2)
    give(state, 2, ["bishop", "m1"])
    state = play(state, 2, "bishop")
    assert state["phase"] == "battle" and ENGINE.to_move(state) == [0]


@pytest.mark.parametrize("n,regions,site,wins", [
    # 4-6 players, p. 16: Genova, Lucca and Bologna touch no one another; taking Parma links Genova-Parma-Lucca.
    (4, ["genova", "lucca", "bologna"], "parma", True),
    (6, ["genova", "lucca", "bologna"], "siena", False),  # four regions, no three connected
    # 2-3 players: a path of four (Genova-Parma-Lucca-Firenze) is "négy szomszédos terület" though its ends never touch.
    (2, ["genova", "parma", "lucca"], "firenze", True),
    (2, ["genova", "parma", "lucca", "roma"], "napoli", False),  # five regions, groups of 3 and 2
])
def test_adjacent_regions_are_counted_as_a_connected_group_p2_p16(n, regions, site, wins):
    """p. 2: "két régió akkor szomszédos, ha van közös határuk"; p. 16: three (four with 2-3 players)
    adjacent regions win, read as a connected group of that size (a chain counts)."""
    state = new_game(n, hands=[["m10"]], holder=0)
    own(state, 0, regions)
    state = win_battle(state, 0, site)
    assert state["owner"][site] == 0 and ENGINE.is_over(state) is wins
