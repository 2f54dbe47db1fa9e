"""Bots: legal actions only, their seat's view only, and the heuristic beats random.

The 300-game figure of the issue comes from bench/bots.py; here a smaller
sample checks that the heuristic bot is clearly better than chance.
"""

from __future__ import annotations

import random

import pytest

from backend.engines import available_engines, canonical
from backend.engines.bots_common import BotError, play_bots, random_bot

ENGINES = available_engines()
BOTS = [(g, name) for g, e in sorted(ENGINES.items()) for name in sorted(getattr(e, "bots", {}))]


def test_condottiere_has_a_random_and_a_heuristic_bot():
    engine = ENGINES.get("condottiere")
    if engine is None:
        pytest.skip("the Condottiere engine does not import yet")
    assert {"random", "heuristic"} <= set(engine.bots)


def test_play_bots_rejects_a_bot_that_cheats_the_menu():
    if not ENGINES:
        pytest.skip("no engine imports yet")
    engine = ENGINES[sorted(ENGINES)[0]]

    def sneaky(view, legal, rng):
        return {"type": "no_such_action"}

    with pytest.raises(BotError, match="not a legal action"):
        play_bots(engine, [sneaky] * engine.min_players, seed=1)


@pytest.mark.parametrize("game_id,name", BOTS)
@pytest.mark.parametrize("players_offset", [0, 1, 2])
def test_bot_gets_only_its_view_and_answers_legally(game_id, name, players_offset):
    """Replay the game: each call got exactly view(state, seat) and legal_actions(state, seat)."""
    engine = ENGINES[game_id]
    players = min(engine.min_players + players_offset, engine.max_players)
    calls = []

    def spy(view, legal, rng):
        assert isinstance(rng, random.Random)
        before = canonical([view, legal])
        action = engine.bots[name](view, legal, rng)
        assert canonical([view, legal]) == before, "the bot changed what it was handed"
        calls.append((view, legal, action))
        return action

    bots = [spy] + [random_bot] * (players - 1) if name != "random" else [spy] * players
    for seed in range(3):
        calls.clear()
        final, _ = play_bots(engine, bots, seed=seed + 100 * players_offset)
        state = engine.setup(players, seed=seed + 100 * players_offset)
        mine = iter(calls)
        rngs = [random.Random(f"{seed + 100 * players_offset}:{s}") for s in range(players)]
        while engine.to_move(state):
            seat = engine.to_move(state)[0]
            legal = engine.legal_actions(state, seat)
            if bots[seat] is spy:
                view, offered, action = next(mine)
                assert view == engine.view(state, seat)
                assert offered == legal
                assert action in legal
            else:
                action = random_bot(None, legal, rngs[seat])
            state = engine.apply(state, seat, action)
        assert canonical(state) == canonical(final)
        assert next(mine, None) is None


@pytest.mark.parametrize("game_id", sorted(g for g, name in BOTS if name == "heuristic"))
def test_heuristic_bot_clearly_beats_two_random_bots(game_id):
    """40 three-player games, rotating seat: chance is 1/3; demand more than half.

    The issue's 70%-over-300-games figure is measured by bench/bots.py."""
    engine = ENGINES[game_id]
    players = min(max(3, engine.min_players), engine.max_players)
    wins = 0
    for g in range(40):
        seat = g % players
        bots = [random_bot] * players
        bots[seat] = engine.bots["heuristic"]
        state, _ = play_bots(engine, bots, seed=10_000 + g)
        wins += seat in engine.result(state)["winners"]
    assert wins > 20, f"the heuristic bot won only {wins} of 40 games"
