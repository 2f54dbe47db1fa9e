"""Components and setup: rulebook pp. 3, 5 and 10; the engine contract's test hook."""

from collections import Counter

import pytest

from backend.engines import IllegalAction, canonical
from backend.engines.condottiere.board import ADJACENCY, REGIONS
from backend.engines.condottiere.cards import STANDARD_DECK
from backend.engines.condottiere.rules import all_cards

from .helpers import ENGINE, new_game, stacked_deck


def test_deck_has_the_110_cards_of_p10_to_p15():
    counts = Counter(STANDARD_DECK)
    assert len(STANDARD_DECK) == 110
    assert counts["m1"] == 10
    assert all(counts[m] == 8 for m in ("m2", "m3", "m4", "m5", "m6", "m10"))
    assert (counts["winter"], counts["spring"], counts["bishop"], counts["courtesan"]) == (3, 3, 6, 12)
    assert (counts["drummer"], counts["heroine"], counts["scarecrow"], counts["surrender"]) == (6, 3, 16, 3)


def test_map_has_17_regions_and_34_symmetric_borders():
    """p. 3: 17 regions; borders from the research file's edge table."""
    assert len(REGIONS) == 17 and REGIONS[0] == "torino" and REGIONS[-1] == "napoli"
    assert sum(len(v) for v in ADJACENCY.values()) == 68
    assert all(a in ADJACENCY[b] for a in ADJACENCY for b in ADJACENCY[a])
    assert "modena" not in ADJACENCY["genova"] and "roma" in ADJACENCY["firenze"]


# Typed from the board notes, section 1.2 (neighbours of each region on the FFG board).
BOARD_NOTES_NEIGHBOURS = {
    "torino": "milano genova", "milano": "torino genova parma modena mantova venezia",
    "venezia": "milano mantova ferrara", "genova": "torino milano parma",
    "mantova": "milano venezia ferrara modena", "ferrara": "venezia mantova modena bologna",
    "parma": "genova milano modena lucca", "modena": "milano mantova ferrara bologna firenze lucca parma",
    "bologna": "modena ferrara firenze urbino", "lucca": "parma modena firenze",
    "firenze": "lucca modena bologna urbino spoleto roma siena", "siena": "firenze roma",
    "urbino": "bologna firenze spoleto ancona", "ancona": "urbino spoleto napoli",
    "spoleto": "firenze urbino ancona roma napoli", "roma": "siena firenze spoleto napoli",
    "napoli": "roma spoleto ancona",
}


def test_every_region_has_exactly_the_neighbours_of_the_board_notes():
    """p. 3: 17 regions; p. 2: adjacent = a common border. Value by value against the board notes."""
    assert set(REGIONS) == set(BOARD_NOTES_NEIGHBOURS)
    for region, neighbours in BOARD_NOTES_NEIGHBOURS.items():
        assert sorted(ADJACENCY[region]) == sorted(neighbours.split()), region


def test_connected_region_sets_match_the_board_notes_counts():
    """Board notes 1.5: 84 connected 3-region sets, 209 of 4, 489 of 5 (checks largest_group too)."""
    from itertools import combinations

    from backend.engines.condottiere.board import largest_group

    counts = [sum(1 for c in combinations(REGIONS, k) if largest_group(c) == k) for k in (3, 4, 5)]
    assert counts == [84, 209, 489]


def test_each_player_gets_10_cards_and_the_rest_stays_in_the_deck():
    """p. 5: the first condottiere deals 10 cards to each player."""
    state = ENGINE.setup(4, seed=3)
    assert [len(h) for h in state["hands"]] == [10] * 4
    assert len(state["deck"]) == 70
    assert Counter(all_cards(state)) == Counter(STANDARD_DECK)
    assert state["phase"] == "place_token"
    assert ENGINE.to_move(state) == [state["holder"]]


def test_first_condottiere_is_a_seeded_random_seat():
    """p. 5 says the youngest player starts; the engine draws a seat from the seed."""
    holders = {ENGINE.setup(5, seed=s)["holder"] for s in range(40)}
    assert len(holders) > 2
    assert ENGINE.setup(5, seed=7)["holder"] == ENGINE.setup(5, seed=7)["holder"]


def test_same_seed_gives_the_same_state_and_different_seeds_differ():
    assert canonical(ENGINE.setup(3, seed=11)) == canonical(ENGINE.setup(3, seed=11))
    assert canonical(ENGINE.setup(3, seed=11)) != canonical(ENGINE.setup(3, seed=12))


def test_stacked_deck_deals_top_card_first_in_blocks_of_ten():
    deck = stacked_deck([["m10", "heroine"], ["winter"]])
    state = ENGINE.setup(2, options={"deck": deck}, seed=0)
    assert state["hands"][0] == deck[:10] and state["hands"][0][:2] == ["m10", "heroine"]
    assert state["hands"][1] == deck[10:20]
    assert state["deck"] == deck[20:]


@pytest.mark.parametrize("bad", [
    list(STANDARD_DECK)[:-1],
    list(STANDARD_DECK)[:-1] + ["m10"],
    list(STANDARD_DECK)[:-1] + ["joker"],
    "m1 m2",
    [1] * 110,
])
def test_a_deck_that_is_not_a_permutation_is_rejected(bad):
    with pytest.raises(ValueError, match="deck"):
        ENGINE.setup(3, options={"deck": bad})


def test_unknown_options_and_bad_player_counts_are_rejected():
    with pytest.raises(ValueError, match="Unknown option"):
        ENGINE.setup(3, options={"fog_of_war": True})
    with pytest.raises(ValueError):
        ENGINE.setup(1)
    with pytest.raises(ValueError):
        ENGINE.setup(7)
    with pytest.raises(ValueError):
        ENGINE.setup(3, options={"hidden_cards": "yes"})


def test_options_schema_marks_the_deck_as_a_test_hook():
    schema = ENGINE.options_schema
    assert schema["deck"]["test_hook"] is True
    for name in ("draw_after_battle", "points", "larger_kingdoms", "conquering_regions", "hidden_cards"):
        assert schema[name]["type"] == "bool" and schema[name]["default"] is False
    assert "deck" not in ENGINE.setup(2, options={"deck": list(STANDARD_DECK)})["opts"]


def test_malformed_actions_are_refused_without_touching_the_state():
    state = new_game(3, holder=0)
    before = canonical(state)
    for seat, action in [
        (0, {"type": "place_token", "region": "atlantis"}),
        (0, {"type": "play", "card": "m10"}),
        (0, {"type": "place_token", "region": "milano", "extra": 1}),
        (1, {"type": "place_token", "region": "milano"}),
        (0, {"type": "dance"}),
    ]:
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, seat, action)
    assert canonical(state) == before


def test_json_round_trip_behaves_identically():
    import json

    state = ENGINE.setup(3, seed=5)
    copy = json.loads(json.dumps(state))
    seat = ENGINE.to_move(state)[0]
    action = ENGINE.legal_actions(state, seat)[0]
    assert canonical(ENGINE.apply(state, seat, action)) == canonical(ENGINE.apply(copy, seat, action))


@pytest.mark.parametrize("options", [{}, {"hidden_cards": True, "conquering_regions": True},
                                     {"draw_after_battle": True, "points": True, "points_target": 5}])
def test_apply_never_mutates_its_input_with_the_fast_state_copy(options):
    """The engine overrides copy_state; every container it mutates must be copied."""
    import random

    rng = random.Random(9)
    for seed in range(3):
        state = ENGINE.setup(4, options=options, seed=seed)
        while not ENGINE.is_over(state):
            before = canonical(state)
            seat = rng.choice(ENGINE.to_move(state))
            new = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
            assert canonical(state) == before
            state = new
