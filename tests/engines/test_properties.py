"""Property tests of the engine contract, run on every registered engine.

Hypothesis picks the engine's player count, its (non-test-hook) options, the
generator of a game whose options record one (new or legacy), the setup seed
and the seed of the random legal play; the checks themselves live in
engine_checks.py.  Game-specific knowledge (hidden facts to perturb, extra
invariants such as Condottiere's 110 cards) is registered in GAME_HOOKS, and
an engine without its hidden-fact perturber fails the suite.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, event, given, note, settings
from hypothesis import strategies as st

from backend.engines import available_engines

from . import engine_checks as checks
from .game_hooks import GAME_HOOKS

ENGINES = available_engines()  # raises if a registered engine fails to import
GAME_IDS = sorted(ENGINES)

# Modest on purpose: each example plays a whole game.
FEW = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SOME = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])



def test_every_engine_has_its_test_hooks():
    """The strong hidden-information test needs each game's perturber: a new
    game without one must fail here, not skip its hidden-information test."""
    assert GAME_IDS, "no engine registered"
    for game_id in GAME_IDS:
        assert game_id in GAME_HOOKS, f"{game_id}: register its hooks in tests/engines/game_hooks.py"
        assert callable(GAME_HOOKS[game_id].get("perturb_hidden")), (
            f"{game_id}: no perturb_hidden in tests/engines/game_hooks.py (which hidden facts does it have?)"
        )
        assert callable(GAME_HOOKS[game_id].get("secret_choice")), (
            f"{game_id}: no secret_choice in tests/engines/game_hooks.py (which actions are made in secret?)"
        )


@st.composite
def games(draw, game_id):
    """(players, options, setup seed, play seed) for one random game."""
    engine = ENGINES[game_id]
    hooks = GAME_HOOKS.get(game_id, {})
    players = draw(st.sampled_from(range(engine.min_players, engine.max_players + 1)))
    options = {}
    for key, spec in sorted(engine.options_schema.items()):
        if "legacy_default" in spec:  # stored matches of before the option and new ones
            options[key] = draw(st.sampled_from([spec["legacy_default"], spec["default"]]))
            continue
        if spec.get("test_hook") or key in hooks.get("fixed_options", {}):
            continue
        if spec["type"] == "bool":
            options[key] = draw(st.booleans())
        elif spec["type"] == "choice":
            options[key] = draw(st.sampled_from(spec["choices"]))
        elif spec["type"] == "int":
            # The smallest value keeps multi-game options (targets) short.
            options[key] = spec.get("min", spec.get("default", 0))
    options.update(hooks.get("fixed_options", {}))
    seed = draw(st.integers(0, 2**31 - 1))
    play_seed = draw(st.integers(0, 2**31 - 1))
    note(f"players={players} options={options} seed={seed} play_seed={play_seed}")
    return players, options, seed, play_seed


def play(game_id, game):
    players, options, seed, play_seed = game
    hooks = GAME_HOOKS.get(game_id, {})
    engine = ENGINES[game_id]
    return checks.random_game(engine, players, options, seed, random.Random(play_seed), hooks.get("max_steps", 20_000))


@pytest.mark.parametrize("game_id", GAME_IDS)
@SOME
@given(data=st.data())
def test_random_play_ends_with_a_result_and_a_sound_turn_flow(game_id, data):
    engine = ENGINES[game_id]
    invariants = GAME_HOOKS.get(game_id, {}).get("invariants", [])
    steps = play(game_id, data.draw(games(game_id)))
    event(f"players={engine.num_players(steps[0][0])}")
    event(f"steps={(len(steps) // 100) * 100}+")
    for state, _, _ in steps:
        checks.check_turn_flow(engine, state)
        for invariant in invariants:
            invariant(state)
    assert engine.is_over(steps[-1][0])
    checks.check_result(engine, steps[-1][0])


@pytest.mark.parametrize("game_id", GAME_IDS)
@FEW
@given(data=st.data())
def test_apply_is_pure_deterministic_and_json_stable(game_id, data):
    engine = ENGINES[game_id]
    game = data.draw(games(game_id))
    steps = play(game_id, game)
    for state, seat, action in steps[:-1]:
        checks.check_pure_and_json_stable(engine, state, seat, action)
    players, options, seed, _ = game
    checks.check_replay(engine, players, options, seed, steps)


@pytest.mark.parametrize("game_id", GAME_IDS)
@FEW
@given(data=st.data(), sample_seed=st.integers(0, 2**31 - 1))
def test_every_legal_action_applies_and_every_other_is_rejected(game_id, data, sample_seed):
    engine = ENGINES[game_id]
    steps = play(game_id, data.draw(games(game_id)))
    rng = random.Random(sample_seed)
    seen = [action for _, _, action in steps if action is not None]
    # Every position would be slow: the first, the last and ten others.
    middle = sorted(rng.sample(range(1, len(steps) - 1), min(10, max(0, len(steps) - 2))))
    positions = [steps[i] for i in [0, *middle, len(steps) - 1]]
    tried = 0
    for state, _, _ in positions:
        checks.check_all_legal_apply(engine, state, rng, limit=40)
        tried += checks.check_illegal_rejected(engine, state, rng, seen, specific=True)
    assert tried > 0


@pytest.mark.parametrize("game_id", GAME_IDS)
@FEW
@given(data=st.data())
def test_the_canonical_action_is_legal_and_replays_byte_for_byte(game_id, data):
    engine = ENGINES[game_id]
    for state, seat, action in play(game_id, data.draw(games(game_id)))[:-1]:
        checks.check_canonical(engine, state, seat, action)


@pytest.mark.parametrize("game_id", GAME_IDS)
@FEW
@given(data=st.data(), sample_seed=st.integers(0, 2**31 - 1))
def test_views_are_json_and_hide_what_they_must(game_id, data, sample_seed):
    engine = ENGINES[game_id]
    perturb = GAME_HOOKS[game_id]["perturb_hidden"]  # required: test_every_engine_has_its_test_hooks
    rng = random.Random(sample_seed)
    steps = play(game_id, data.draw(games(game_id)))
    seen = [action for _, _, action in steps if action is not None]
    compared = 0
    for state, _, _ in steps:
        checks.check_views(engine, state)
        if rng.random() < 0.15:  # perturbing every position would be slow
            # Refusals must not tell a seat more than its view: probe with actions from the game.
            probes = rng.sample(seen, min(6, len(seen)))
            compared += checks.check_hidden(engine, state, perturb, rng, probes, GAME_HOOKS[game_id]["secret_choice"],
                                            GAME_HOOKS[game_id].get("public_reveals", frozenset()))
    assert compared > 0, "no hidden fact was ever perturbed"


def test_cards_dealt_from_a_reshuffle_are_told_in_the_view_order():
    """Found by the property above: seat 4 of 6 keeps no card, its hand goes into the new round's deck, and the
    order seat 5 was dealt its cards in depended on which card seat 4 had held. The private deal event now lists
    the cards as the view shows the hand (sorted), so it tells no more than the view."""
    game_id = "condottiere"
    options = {"conquering_regions": True, "draw_after_battle": False, "generator": 2, "hidden_cards": False,
               "larger_kingdoms": True, "points": False, "points_target": 5}
    _check_found_case(game_id, options, 91669, 454, 454)


def test_a_face_down_card_turned_up_at_the_comparison_makes_the_strengths_public():
    """Found by the property above: with Hidden cards (pp. 19-20) every face-down card turns up for the battle's
    comparison, and the strengths in the battle's result follow from those cards. A changed face-down card shows in
    the `reveal` events (public by the rules), so the result's strengths may differ with it; the check compares the
    rest only when the turned-up cards are the same."""
    game_id = "condottiere"
    options = {"conquering_regions": False, "draw_after_battle": True, "generator": 2, "hidden_cards": True,
               "larger_kingdoms": True, "points": True, "points_target": 5}
    _check_found_case(game_id, options, 260, 272, 260)


def _check_found_case(game_id: str, options: dict, seed: int, play_seed: int, sample_seed: int) -> None:
    """The property's hidden-facts check over one found game, as hypothesis drew it."""
    steps = play(game_id, (6, options, seed, play_seed))
    rng = random.Random(sample_seed)
    seen = [action for _, _, action in steps if action is not None]
    hooks = GAME_HOOKS[game_id]
    compared = 0
    for state, _, _ in steps:
        if rng.random() < 0.15:
            probes = rng.sample(seen, min(6, len(seen)))
            compared += checks.check_hidden(ENGINES[game_id], state, hooks["perturb_hidden"], rng, probes,
                                            hooks["secret_choice"], hooks.get("public_reveals", frozenset()))
    assert compared > 0
