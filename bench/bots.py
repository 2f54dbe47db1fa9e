"""How often each engine's heuristic bot beats random bots.

    .venv/bin/python bench/bots.py [--games 300] [--players 3] [--engine condottiere] [--options '{}']

Game g uses seed g and seats the heuristic bot at seat g % players, the other
seats playing `random`.  Bots see only their own view (play_bots).  A shared
victory that includes the heuristic bot counts as a win and is reported
separately.  The issue's target for Condottiere: at least 70% of 300
three-player games.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from backend.engines import available_engines  # noqa: E402
from backend.engines.bots_common import play_bots, random_bot  # noqa: E402


def match(engine, players: int, games: int, options: dict, bot: str = "heuristic", first_seed: int = 0) -> dict:
    wins = shared = steps = 0
    for g in range(first_seed, first_seed + games):
        seat = g % players
        bots = [random_bot] * players
        bots[seat] = engine.bots[bot]
        state, n = play_bots(engine, bots, seed=g, options=options)
        steps += n
        winners = engine.result(state)["winners"]
        if seat in winners:
            wins += 1
            shared += len(winners) > 1
    return {"games": games, "wins": wins, "shared": shared, "steps": steps}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--bot", default="heuristic")
    parser.add_argument("--engine", action="append", help="only this engine id (repeatable)")
    parser.add_argument("--options", default="{}", help="engine options as JSON")
    args = parser.parse_args()
    options = json.loads(args.options)

    engines = {k: e for k, e in available_engines().items() if args.bot in getattr(e, "bots", {})}
    if args.engine:
        engines = {k: e for k, e in engines.items() if k in args.engine}
    if not engines:
        sys.exit(f"No engine with a {args.bot!r} bot imports yet.")
    for game_id, engine in engines.items():
        players = min(max(args.players, engine.min_players), engine.max_players)
        start = time.perf_counter()
        r = match(engine, players, args.games, options, args.bot, args.first_seed)
        elapsed = time.perf_counter() - start
        print(
            f"{game_id:16s} {args.bot} vs {players - 1} random: won {r['wins']}/{r['games']} "
            f"= {100 * r['wins'] / r['games']:.1f}% ({r['shared']} shared; chance {100 / players:.0f}%)  "
            f"{elapsed:.1f} s, {r['steps'] / r['games']:.0f} actions/game, options {options or 'default'}"
        )


if __name__ == "__main__":
    main()
