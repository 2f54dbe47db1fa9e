"""The Condottiere heuristic bot's judgement in set positions.

Each position is a real engine state with hands and lines written in, so the
bot gets a real view and the engine's own legal actions.  Card effects are
those of the rulebook: Bishop p. 12, Winter p. 10, Drummer p. 13-14,
Scarecrow p. 15, Surrender p. 15, end of round (keep two) p. 8.
"""

from __future__ import annotations

import random

import pytest

from backend.engines import available_engines

ENGINE = available_engines().get("condottiere")
pytestmark = pytest.mark.skipif(ENGINE is None, reason="the Condottiere engine does not import yet")


def battle(hand, lines, passed=(False, True, True), hand_counts=(None, 5, 5), owner=None, region="urbino"):
    """Seat 0 to play in a three-player battle for `region`."""
    state = ENGINE.setup(3, seed=7)
    state = ENGINE.apply(state, state["holder"], {"type": "place_token", "region": region})
    state["owner"] = dict(owner or {})
    state["hands"] = [list(hand)] + [["scarecrow"] * n for n in hand_counts[1:]]
    state["lines"] = [list(line) for line in lines]
    state["passed"] = list(passed)
    state["turn"] = 0
    return state


def choose(state, seat=0):
    legal = ENGINE.legal_actions(state, seat)
    action = ENGINE.bots["heuristic"](ENGINE.view(state, seat), legal, random.Random(0))
    assert action in legal
    return action


def test_surrenders_when_ahead_while_others_could_still_play():
    state = battle(["surrender", "m3"], [["m10"], ["m5"], ["m2"]], passed=(False, False, False))
    assert choose(state) == {"type": "play", "card": "surrender"}


def test_passes_when_already_winning_and_everyone_else_passed():
    state = battle(["m10", "heroine", "m2"], [["m6"], ["m5"], ["m2"]])
    assert choose(state) == {"type": "pass"}


def test_wins_with_the_cheapest_card_that_is_enough():
    state = battle(["m10", "m4", "m2", "heroine"], [["m3"], ["m6"], ["m1"]])
    assert choose(state) == {"type": "play", "card": "m4"}


def test_bishop_when_an_opponent_holds_the_highest_mercenary():
    # p. 12: the Bishop discards every mercenary of the highest printed value.
    state = battle(["bishop", "m6", "m3"], [["m5", "m4"], ["m10", "m10"], ["m2"]])
    assert choose(state) == {"type": "play", "card": "bishop"}


def test_winter_against_big_mercenaries_when_the_own_line_is_a_heroine():
    # p. 10: under Winter every mercenary counts 1; the Heroine stays 10.
    state = battle(["winter", "m2"], [["heroine", "m1"], ["m10", "m10"], []])
    assert choose(state) == {"type": "play", "card": "winter"}


def test_drummer_doubles_an_own_line_of_mercenaries():
    # p. 13: the Drummer doubles the mercenaries of its own line: 6 + 5 -> 22.
    state = battle(["drummer", "m1"], [["m6", "m5"], ["m10", "m5"], []])
    assert choose(state) == {"type": "play", "card": "drummer"}


def test_scarecrow_takes_back_a_big_mercenary_from_a_lost_battle():
    # p. 15: the Scarecrow returns one of your own mercenaries to your hand.
    state = battle(["scarecrow", "m1"], [["m10"], ["m10", "m10", "m10", "m10"], []])
    assert choose(state) == {"type": "play", "card": "scarecrow", "take": "m10"}


def test_folds_a_hopeless_battle_instead_of_spending_cards():
    state = battle(["m2", "m3", "m1"], [[], ["m10", "m10", "heroine"], ["m5"]])
    assert choose(state) == {"type": "pass"}


def test_stays_in_cheaply_while_ahead_and_an_opponent_can_still_play():
    # Ahead with only big cards: a Scarecrow taking nothing (p. 15) keeps the seat in to answer later.
    state = battle(["scarecrow", "m10", "m6"], [["m5"], ["m4"], []], passed=(False, False, True))
    assert choose(state) == {"type": "play", "card": "scarecrow", "take": None}
    # Behind, that card would be thrown away for nothing: a card that adds strength, or a pass.
    state = battle(["scarecrow", "m10", "m6"], [["m3"], ["m4"], []], passed=(False, False, True))
    assert choose(state) != {"type": "play", "card": "scarecrow", "take": None}


def test_chooses_a_battle_next_to_its_own_regions():
    state = ENGINE.setup(3, seed=7)
    state["holder"] = 0
    state["owner"] = {"torino": 0, "genova": 0, "napoli": 1, "roma": 1, "siena": 2}
    state["hands"][0] = ["m10", "m10", "heroine", "m6", "m5", "m4", "m3", "drummer", "m2", "m1"]
    region = choose(state)["region"]
    assert region in {"milano", "parma"}  # the free neighbours of Torino and Genova


def test_puts_the_legate_where_the_leader_would_grow():
    state = battle(["m1"], [[], [], []], owner={"napoli": 1, "roma": 1, "ancona": 1, "torino": 0})
    state["phase"] = "legate"
    region = choose(state)["region"]
    assert region == "spoleto"  # borders all three of the leader's regions: a 4-region group wins


def test_keeps_the_two_strongest_cards_at_the_end_of_a_round():
    state = battle(["scarecrow", "heroine", "m1", "m10", "courtesan"], [[], [], []])
    state["phase"] = "keep"
    assert choose(state) == {"type": "keep", "cards": ["heroine", "m10"]}


def test_opens_a_battle_with_a_small_mercenary_not_a_scarecrow_taking_nothing():
    # Issue 26: the bot playing an absent player's seat opened a battle with a Scarecrow that took nothing
    # back (p. 15 allows it): a card thrown away while a 1 would have added strength.
    state = battle(["scarecrow", "m1", "m5", "m10", "heroine"], [[], [], []], passed=(False, False, False))
    assert choose(state) == {"type": "play", "card": "m1"}
    state = battle(["scarecrow", "m3", "m10"], [[], [], []], passed=(False, False, False))
    assert choose(state) == {"type": "play", "card": "m3"}


def test_never_throws_a_scarecrow_away_while_a_small_mercenary_would_add_strength():
    """Seeded games of three heuristic bots: whenever the bot's line is not ahead and it holds a mercenary of
    1 to 3 it may play, it does not spend a Scarecrow taking nothing (the card would be lost for nothing)."""
    small = {"m1", "m2", "m3"}
    checked = 0
    for seed in range(30):
        state = ENGINE.setup(3, seed=seed)
        rngs = [random.Random(f"{seed}:{seat}") for seat in range(3)]
        while ENGINE.to_move(state):
            seat = ENGINE.to_move(state)[0]
            legal = ENGINE.legal_actions(state, seat)
            view = ENGINE.view(state, seat)
            action = ENGINE.bots["heuristic"](view, legal, rngs[seat])
            if view["phase"] == "battle":
                lines = {line["seat"]: line["strength"] for line in view["battle"]["lines"]}
                behind = lines[seat] <= max(v for s, v in lines.items() if s != seat)
                if behind and any(a["type"] == "play" and a["card"] in small for a in legal):
                    checked += 1
                    assert not (action["type"] == "play" and action["card"] == "scarecrow" and not action.get("take")), \
                        (seed, view["hand"], lines)
            state = ENGINE.apply(state, seat, action)
    assert checked > 100
