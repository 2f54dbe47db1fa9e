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
# Each bot at the smallest, a middle and the largest table of its game.
BOT_TABLES = [
    (g, name, players)
    for g, name in BOTS
    for players in sorted({ENGINES[g].min_players, (ENGINES[g].min_players + ENGINES[g].max_players) // 2,
                           ENGINES[g].max_players})
]


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


@pytest.mark.parametrize("game_id,name,players", BOT_TABLES)
def test_bot_gets_only_its_view_and_answers_legally(game_id, name, players):
    """Replay the game: each call got exactly view(state, seat) and legal_actions(state, seat)."""
    engine = ENGINES[game_id]
    calls = []

    # The master bot searches with one sampled world a move here (its strength is bench/bots.py's).
    kwargs = {"iterations": 1} if name == "master" else {}

    def spy(view, legal, rng):
        assert isinstance(rng, random.Random)
        before = canonical([view, list(legal)])
        action = engine.bots[name](view, legal, rng, **kwargs)
        assert canonical([view, list(legal)]) == before, "the bot changed what it was handed"
        calls.append((view, legal, action))
        return action

    bots = [spy] + [random_bot] * (players - 1) if name != "random" else [spy] * players
    for seed in range(1 if name == "master" else 3):
        calls.clear()
        final, _ = play_bots(engine, bots, seed=seed + 100 * players)
        state = engine.setup(players, seed=seed + 100 * players)
        mine = iter(calls)
        rngs = [random.Random(f"{seed + 100 * players}:{s}") for s in range(players)]
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


def _variants(engine):
    flags = sorted(k for k, spec in engine.options_schema.items() if spec["type"] == "bool" and not spec.get("test_hook"))
    return [{}] + [{flag: True} for flag in flags] + [{flag: True for flag in flags}]


@pytest.mark.parametrize("game_id", sorted(g for g, name in BOTS if name == "heuristic"))
def test_heuristic_bots_finish_every_variant_and_table_size(game_id):
    """Heuristic bots among themselves (odd tables: with one random seat) under each option:
    games end (no table of cautious bots passing forever) and every move is legal."""
    engine = ENGINES[game_id]
    for i, options in enumerate(_variants(engine)):
        for players in range(engine.min_players, engine.max_players + 1):
            bots = [engine.bots["heuristic"]] * players
            if players % 2:
                bots[-1] = random_bot
            state, steps = play_bots(engine, bots, seed=i * 10 + players, options=options, max_steps=20_000)
            assert engine.is_over(state), (options, players)
