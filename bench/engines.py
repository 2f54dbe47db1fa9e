"""Engine speed, one core: random legal play on every engine that imports.

    .venv/bin/python bench/engines.py [--seconds 5] [--players 3] [--engine condottiere]

Prints, per engine:
  * random legal actions per second: the whole driver loop (to_move,
    legal_actions, a random choice, apply), so it is what a simulation or a
    bot search can actually get;
  * full random games per second with that many players;
  * the median microseconds of one apply, one legal_actions and one view
    (of the seat to move), each timed on its own over the states those games
    passed through.
Figures depend on the machine and its load; run it on an idle core.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from backend.engines import available_engines  # noqa: E402


def throughput(engine, players: int, seconds: float, options: dict) -> tuple[int, int, float]:
    """Random games until `seconds` pass; returns (actions, finished games, elapsed)."""
    rng = random.Random(1)
    actions = games = 0
    seed = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = engine.setup(players, options=options, seed=seed)
        seed += 1
        while True:
            to_move = engine.to_move(state)
            if not to_move:
                games += 1
                break
            seat = to_move[0]
            state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
            actions += 1
            if actions % 512 == 0 and time.perf_counter() >= deadline:
                break
    return actions, games, time.perf_counter() - start


def call_medians(engine, players: int, samples: int, options: dict) -> dict[str, float]:
    """Median microseconds of apply / legal_actions / view, each timed alone."""
    rng = random.Random(2)
    clock = time.perf_counter_ns
    times: dict[str, list[int]] = {"apply": [], "legal_actions": [], "view": []}
    seed = 10_000
    state = engine.setup(players, options=options, seed=seed)
    while len(times["apply"]) < samples:
        to_move = engine.to_move(state)
        if not to_move:
            seed += 1
            state = engine.setup(players, options=options, seed=seed)
            continue
        seat = to_move[0]
        t0 = clock()
        legal = engine.legal_actions(state, seat)
        t1 = clock()
        engine.view(state, seat)
        t2 = clock()
        new_state = engine.apply(state, seat, rng.choice(legal))
        t3 = clock()
        times["legal_actions"].append(t1 - t0)
        times["view"].append(t2 - t1)
        times["apply"].append(t3 - t2)
        state = new_state
    return {name: statistics.median(values) / 1000 for name, values in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0, help="time spent on the throughput loop per engine")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--samples", type=int, default=20_000, help="calls timed for the medians")
    parser.add_argument("--engine", action="append", help="only this engine id (repeatable)")
    parser.add_argument("--options", default="{}", help="engine options as JSON, e.g. '{\"hidden_cards\": true}'")
    parser.add_argument("--profile", action="store_true", help="also print where the random play spends its time (cProfile)")
    args = parser.parse_args()
    options = json.loads(args.options)

    engines = available_engines()
    if args.engine:
        engines = {k: v for k, v in engines.items() if k in args.engine}
    if not engines:
        sys.exit("No engine imports yet.")
    print(f"python {sys.version.split()[0]}, {args.players} players, options {options or 'default'}")
    for game_id, engine in engines.items():
        players = min(max(args.players, engine.min_players), engine.max_players)
        actions, games, elapsed = throughput(engine, players, args.seconds, options)
        medians = call_medians(engine, players, args.samples, options)
        print(
            f"{game_id:16s} {actions / elapsed:10,.0f} actions/s  {games / elapsed:8.2f} games/s "
            f"({players} players, {actions / max(games, 1):.0f} actions/game)  "
            f"median us: apply {medians['apply']:.1f}, legal_actions {medians['legal_actions']:.1f}, "
            f"view {medians['view']:.1f}"
        )
        if args.profile:
            profile(engine, players, min(args.seconds, 3.0), options)


def profile(engine, players: int, seconds: float, options: dict) -> None:
    import cProfile
    import pstats

    profiler = cProfile.Profile()
    profiler.runcall(throughput, engine, players, seconds, options)
    pstats.Stats(profiler).sort_stats("tottime").print_stats(12)


if __name__ == "__main__":
    main()
