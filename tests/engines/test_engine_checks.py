"""The generic contract checks pass on a correct toy and fail on broken ones.

Without this, a check that silently tests nothing would look green on every
real engine too.
"""

import random

import pytest

from . import engine_checks as checks
from .toy_engine import (
    BlabbingToy, ChattyToy, ForgetfulToy, LaxToy, LeakyToy, MutatingToy, TellingToy, Toy, TurnFirstToy, UnseededToy, UntypedToy,
    swap_hidden,
)


def walk(engine, seed=3, players=2):
    return checks.random_game(engine, players, {}, seed, random.Random(seed), max_steps=100)


def test_a_correct_engine_passes_every_check():
    engine, rng = Toy(), random.Random(0)
    steps = walk(engine)
    checks.check_replay(engine, 2, {}, 3, steps)
    checks.check_result(engine, steps[-1][0])
    illegal = hidden = 0
    seen = [action for _, _, action in steps if action is not None]
    for state, seat, action in steps:
        checks.check_turn_flow(engine, state)
        checks.check_views(engine, state)
        checks.check_all_legal_apply(engine, state)
        illegal += checks.check_illegal_rejected(engine, state, rng, seen)
        hidden += checks.check_hidden(engine, state, swap_hidden, rng, probes=seen[:6])
        if action is not None:
            checks.check_pure_and_json_stable(engine, state, seat, action)
            checks.check_canonical(engine, state, seat, action)
    assert illegal > 100 and hidden > 10


def test_mutating_apply_is_caught():
    state, seat, action = walk(MutatingToy())[0]
    with pytest.raises(AssertionError, match="mutated its input"):
        checks.check_pure_and_json_stable(MutatingToy(), state, seat, action)


def test_leaking_view_is_caught():
    state = walk(LeakyToy())[0][0]
    with pytest.raises(AssertionError, match="reveals a hidden fact"):
        checks.check_hidden(LeakyToy(), state, swap_hidden, random.Random(0))


def test_an_event_telling_a_hidden_card_is_caught():
    """The strong test covers events: a hand card swapped with an undealt one must
    not change what the others are told when its holder plays another card."""
    state = walk(BlabbingToy())[0][0]
    with pytest.raises(AssertionError, match="reveal a hidden fact"):
        checks.check_hidden(BlabbingToy(), state, swap_hidden, random.Random(0))


def test_accepting_an_unheld_card_is_caught():
    steps = walk(LaxToy())
    seen = [action for _, _, action in steps if action is not None]
    with pytest.raises(AssertionError, match="not among its legal actions"):
        checks.check_illegal_rejected(LaxToy(), steps[0][0], random.Random(0), seen)


def test_actions_for_a_seat_not_to_move_are_caught():
    state = walk(ChattyToy())[0][0]
    with pytest.raises(AssertionError, match="not to move but has legal actions"):
        checks.check_turn_flow(ChattyToy(), state)


def test_an_unseeded_shuffle_is_caught():
    engine = UnseededToy()
    steps = walk(engine)
    with pytest.raises(AssertionError, match="replaying"):
        checks.check_replay(engine, 2, {}, 3, steps)


def _refusals_checked(engine):
    steps = walk(engine)
    seen = [action for _, _, action in steps if action is not None]
    for state, _, _ in steps:
        checks.check_illegal_rejected(engine, state, random.Random(0), seen)


def test_an_untyped_refusal_is_caught():
    with pytest.raises(AssertionError, match="untyped refusal"):
        _refusals_checked(UntypedToy())


def test_a_turn_checked_before_the_shape_is_caught():
    with pytest.raises(AssertionError, match="NotYourTurn .* expected MalformedAction"):
        _refusals_checked(TurnFirstToy())


def test_the_generic_refusal_is_caught_where_a_reason_is_required():
    with pytest.raises(AssertionError, match="no specific reason"):
        steps = walk(Toy())
        seen = [action for _, _, action in steps if action is not None]
        for state, _, _ in steps:
            checks.check_illegal_rejected(Toy(), state, random.Random(0), seen, specific=True)


def test_a_canonical_action_that_is_not_legal_is_caught():
    state, seat, action = walk(ForgetfulToy())[0]
    with pytest.raises(AssertionError, match="is not a legal action"):
        checks.check_canonical(ForgetfulToy(), state, seat, action)


def test_a_refusal_that_reveals_a_hand_is_caught():
    steps = walk(TellingToy())
    probes = [{"type": "play", "card": c} for c in range(1, 10)]
    with pytest.raises(AssertionError, match="what seat .* is told about an action reveals a hidden fact"):
        for state, _, _ in steps:
            checks.check_hidden(TellingToy(), state, swap_hidden, random.Random(0), probes)
