"""How strong each bot level is: seat-rotated three-player games between levels.

    .venv/bin/python bench/bots.py [--engine condottiere] [--games 300] [--gp-games 100]
                                   [--budget 1.0 | --iterations N] [--jobs 1] [--matchup master] [--every N]

Matchups (the issue's targets, a fair share being 33%):
  * master against two advanced bots: at least 50%;
  * advanced against two beginners: at least 50%;
  * beginner against two random bots: beats them (above 33%).

Game g uses seed g and seats the bot under test at seat g % 3, so every seat
and every deal is played alike.  A shared win counts as that share.  Win rates
come with 95% Wilson intervals.  The master bot thinks `--budget` seconds a
move (the server's default is 1 s), or a fixed `--iterations` worlds a move
(cheaper, and the same on any box: say which when quoting a figure); its
think time per move is printed (median, p99, max), for the moves it searched
(more than one choice) and for all of them.  Condottiere plays `--games`
games, God's Playground `--gp-games`.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from backend.engines import get_engine  # noqa: E402
from backend.engines.bots_common import play_bots, random_bot  # noqa: E402

MATCHUPS = {
    "master": ("master", "advanced", "advanced"),
    "advanced": ("advanced", "beginner", "beginner"),
    "beginner": ("beginner", "random", "random"),
}
PLAYERS = 3


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def one_game(game_id: str, lineup: tuple, g: int, budget: float | None, iterations: int | None):
    """(share of the win of lineup[0], [(seconds, searched) per master move])."""
    engine = get_engine(game_id)
    times = []

    def bot(name):
        if name == "random":
            return random_bot
        choose = engine.bots[name]
        if name != "master":
            return choose

        def timed(view, legal, rng):
            start = time.perf_counter()
            action = choose(view, legal, rng, budget=budget, iterations=iterations)
            times.append((time.perf_counter() - start, len(legal) > 1))
            return action
        return timed

    seat = g % PLAYERS
    seats = [bot(lineup[(i - seat) % PLAYERS]) for i in range(PLAYERS)]
    state, _ = play_bots(engine, seats, seed=g)
    winners = engine.result(state)["winners"]
    return (1 / len(winners) if seat in winners else 0.0), times


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", action="append", choices=["condottiere", "gods_playground"])
    parser.add_argument("--matchup", action="append", choices=sorted(MATCHUPS))
    parser.add_argument("--games", type=int, default=300, help="Condottiere games per matchup")
    parser.add_argument("--gp-games", type=int, default=100, help="God's Playground games per matchup")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--budget", type=float, default=1.0, help="master seconds a move")
    parser.add_argument("--iterations", type=int, default=None, help="master worlds a move (instead of --budget)")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once (the box is shared: keep it low)")
    parser.add_argument("--every", type=int, default=0, help="print the tally so far every N games (0: only at the end)")
    args = parser.parse_args()
    budget = None if args.iterations else args.budget
    think = f"{args.iterations} worlds a move" if args.iterations else f"{args.budget:g} s a move"
    for game_id in args.engine or ["condottiere", "gods_playground"]:
        games = args.games if game_id == "condottiere" else args.gp_games
        for key in args.matchup or list(MATCHUPS):
            lineup = MATCHUPS[key]
            seeds = range(args.first_seed, args.first_seed + games)
            start = time.perf_counter()
            label = f"{lineup[0]} vs {lineup[1]} x2"
            results = []
            with ProcessPoolExecutor(args.jobs) as pool:
                for r in pool.map(one_game, [game_id] * games, [lineup] * games, seeds,
                                  [budget] * games, [args.iterations] * games):
                    results.append(r)
                    if args.every and len(results) % args.every == 0 and len(results) < games:
                        won = sum(x[0] for x in results)
                        lo, hi = wilson(won, len(results))
                        searched = [t for x in results for t, s in x[1] if s]
                        times = (f"  master think median {statistics.median(searched) * 1000:.0f} ms, "
                                 f"p99 {percentile(searched, 0.99) * 1000:.0f} ms" if searched else "")
                        print(f"{game_id:16s} {label:26s} so far {won:.1f}/{len(results)} = {won / len(results):5.1%} "
                              f"(95% CI {lo:5.1%}-{hi:5.1%}){times}", flush=True)
            wins = sum(r[0] for r in results)
            lo, hi = wilson(wins, games)
            print(f"{game_id:16s} {label:26s} {wins:6.1f}/{games} = {wins / games:5.1%} "
                  f"(95% CI {lo:5.1%}-{hi:5.1%})  {time.perf_counter() - start:7.1f} s wall", flush=True)
            if key == "master":
                moves = [t for r in results for t in r[1]]
                searched = [t for t, s in moves if s]
                every = [t for t, _ in moves]
                for name, xs in (("searched moves", searched), ("all moves", every)):
                    if xs:
                        print(f"{'':16s} master think time ({think}), {name}: n={len(xs)} "
                              f"median {statistics.median(xs) * 1000:.0f} ms, p99 {percentile(xs, 0.99) * 1000:.0f} ms, "
                              f"max {max(xs) * 1000:.0f} ms", flush=True)


if __name__ == "__main__":
    main()
