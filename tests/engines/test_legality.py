"""One action checked on its own and the listing of every legal action agree.

`play` decides on the action sent (the game's `refusal`, then `spell`) and never
lists the others; `legal_actions` stays the complete statement of what is
legal.  Over random positions of both games: every listed action is accepted
and spelled exactly as listed, and actions one field away from listed ones, or
of another type, are accepted exactly when they are listed.  That the refusals
say what they said before the check was split from the listing is
test_answers.py's part.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from backend.engines import available_engines
from tools.engine_answers import near, other_types

from . import engine_checks as checks
from .test_properties import games, play

ENGINES = available_engines()
FEW = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def listing_keys(legal) -> set[bytes]:
    return {checks.action_key(a) for a in legal}


def check_agreement(engine, state: dict, rng: random.Random) -> int:
    """The check and the listing agree at `state`; returns how many actions were compared."""
    compared = 0
    for seat in range(engine.num_players(state)):
        legal = engine.legal_actions(state, seat)
        listed = checks.sampled(legal)
        for action in listed:
            played = engine.play(state, seat, action)
            # Exactly as listed, key order included: the log keeps these bytes.
            assert json.dumps(played.action) == json.dumps(action), (played.action, action)
        keys = listing_keys(legal)  # the whole listing, all 29,520 layouts included
        mover = engine.to_move(state)[0] if engine.to_move(state) else None
        tries = [a for base in rng.sample(listed, min(4, len(listed))) for a in near(engine, base, rng)]
        if mover is not None:
            theirs = checks.sampled(engine.legal_actions(state, mover))
            tries += rng.sample(theirs, min(3, len(theirs))) + other_types(engine)
        for action in tries:
            accepted = engine.is_legal(state, seat, action)
            try:
                spelled = engine.play(state, seat, action).action
            except Exception:  # noqa: BLE001 - refused: then it must not be listed in any spelling
                spelled = None
            assert (spelled is not None and checks.action_key(spelled) in keys) == accepted, (seat, action)
            compared += 1
    return compared


@pytest.mark.parametrize("game_id", sorted(ENGINES))
@FEW
@given(data=st.data(), sample_seed=st.integers(0, 2**31 - 1))
def test_the_check_of_one_action_agrees_with_the_listing(game_id, data, sample_seed):
    engine = ENGINES[game_id]
    rng = random.Random(sample_seed)
    steps = play(game_id, data.draw(games(game_id)))
    picks = [steps[0], *rng.sample(steps[1:-1], min(12, len(steps) - 2)), steps[-1]]
    assert sum(check_agreement(engine, state, rng) for state, _, _ in picks) > 0


def test_a_check_that_strays_from_the_listing_is_caught(monkeypatch):
    """Condottiere's check made to accept a Scarecrow taking back any card: caught."""
    from backend.engines.condottiere import refusals

    engine = ENGINES["condottiere"]
    monkeypatch.setitem(refusals._REASONS, "play",
                        lambda s, seat, a: None if a["card"] in s["hands"][seat] else refusals._play(s, seat, a))
    steps = play("condottiere", (3, {}, 7, 7))
    with pytest.raises(AssertionError):
        for state, _, _ in steps:
            check_agreement(engine, state, random.Random(0))
