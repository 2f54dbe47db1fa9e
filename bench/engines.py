"""Engine speed, one core: random legal play and bot games on every engine that imports.

    .venv/bin/python bench/engines.py [--seconds 10] [--players 3] [--engine condottiere] [--profile]

Prints, per engine:
  * random legal actions per second: the whole driver loop (to_move,
    legal_actions, a random choice, apply), what a simulation or a bot search
    can get.  The engines take turns in short slices and each is timed by the
    CPU time it used, so one run compares them fairly on a shared, noisy box;
  * full random games per second with that many players;
  * the contract's random playouts (tests/engines/engine_checks.random_game):
    microseconds per action, legal_actions included;
  * the median microseconds of one apply, one legal_actions and one view (of
    the seat to move), each timed on its own over the states those games
    passed through; for God's Playground also the median and slowest commit
    of a noble layout (place_nobles);
  * a whole game of heuristic bots played as the server plays it, every
    engine call it makes timed (play, views of every seat and a spectator,
    offered_actions, to_move, asked, defaults, result): the slowest of each,
    which must stay under a millisecond (the server makes them on its event
    loop), and the bots' own slowest decision.  A call's cost is the least CPU
    time of a few calls of it (engine calls are pure), so what a busy box adds
    does not count.
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

SLICE_S = 0.25  # CPU seconds an engine plays before the next one takes over
REPEATS = 5  # calls of one engine call timed, the least kept


class RandomPlay:
    """Random legal play that can be stopped and resumed (one engine's share of the run)."""

    def __init__(self, engine, players: int, options: dict) -> None:
        self.engine, self.players, self.options = engine, players, options
        self.rng = random.Random(1)
        self.seed = 0
        self.state = None
        self.actions = self.games = 0
        self.cpu = 0.0

    def run(self, cpu_seconds: float) -> None:
        engine, rng = self.engine, self.rng
        start = time.process_time()
        deadline = start + cpu_seconds
        state = self.state
        while True:
            if state is None:
                state = engine.setup(self.players, options=self.options, seed=self.seed)
                self.seed += 1
            to_move = engine.to_move(state)
            if not to_move:
                self.games += 1
                state = None
                continue
            seat = to_move[0]
            state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
            self.actions += 1
            if self.actions % 64 == 0 and time.process_time() >= deadline:
                break
        self.state = state
        self.cpu += time.process_time() - start


def playout_us(engine, players: int, options: dict, games: int) -> float:
    """Microseconds per action of the contract's random playouts (test suite's driver)."""
    from tests.engines.engine_checks import random_game

    actions = 0
    start = time.process_time()
    for seed in range(games):
        actions += len(random_game(engine, players, options, seed, random.Random(seed), 20_000)) - 1
    return (time.process_time() - start) / actions * 1e6


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
        len(legal)  # listed: a lazy sequence would otherwise list nothing here
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


def least_us(fn, *args, repeats: int = REPEATS):
    """(fn(*args), the least CPU microseconds of `repeats` calls): engine calls are pure,
    so the least of a few is the call's own cost, without a busy box's interruptions."""
    best = None
    for _ in range(repeats):
        t0 = time.thread_time_ns()
        out = fn(*args)
        spent = time.thread_time_ns() - t0
        best = spent if best is None else min(best, spent)
    return out, best / 1000


def noble_commits(engine, games: int) -> tuple[float, float, float, int]:
    """(median, 90th percentile, slowest) microseconds of a place_nobles commit, and how
    many, over random games (a third of them reveal the nobles and run phases 3 to 7)."""
    rng = random.Random(3)
    times = []
    for seed in range(games):
        state = engine.setup(3, seed=seed)
        while engine.to_move(state):
            seat = engine.to_move(state)[0]
            action = rng.choice(engine.legal_actions(state, seat))
            new_state, spent = least_us(engine.apply, state, seat, action)
            if action["type"] == "place_nobles":
                times.append(spent)
            state = new_state
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.9)], times[-1], len(times)


def bot_game(engine, players: int, seed: int) -> tuple[dict[str, float], float, int]:
    """A game of heuristic bots, each engine call the server makes timed: ({call: slowest
    microseconds}, the bots' slowest decision in microseconds, moves).  Each call's cost is
    the least CPU time of a few calls (least_us)."""
    clock = time.thread_time_ns
    slowest: dict[str, float] = {}
    bot_max = 0.0

    def timed(name, fn, *args):
        out, spent = least_us(fn, *args)
        slowest[name] = max(slowest.get(name, 0.0), spent)
        return out

    bot = engine.bots["heuristic"]
    rngs = [random.Random(f"{seed}:{s}") for s in range(players)]
    state = engine.setup(players, seed=seed)
    viewers = [None, *range(players)]
    moves = 0
    while True:
        to_move = timed("to_move", engine.to_move, state)
        if not to_move:
            timed("result", engine.result, state)
            return slowest, bot_max, moves
        timed("views", engine.views, state, viewers)
        timed("asked", engine.asked, state)
        timed("defaults", engine.defaults, state)
        for s in to_move:
            json.dumps(timed("offered_actions", engine.offered_actions, state, s))
        seat = to_move[0]
        view, legal = engine.view(state, seat), engine.legal_actions(state, seat)
        t0 = clock()
        action = bot(view, legal, rngs[seat])
        bot_max = max(bot_max, (clock() - t0) / 1000)
        state = timed("play", engine.play, state, seat, action).state
        timed("is_over", engine.is_over, state)
        moves += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10.0, help="CPU seconds of random play per engine")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--samples", type=int, default=20_000, help="calls timed for the medians")
    parser.add_argument("--bot-games", type=int, default=3, help="heuristic bot games timed call by call")
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
    players = {g: min(max(args.players, e.min_players), e.max_players) for g, e in engines.items()}
    plays = {g: RandomPlay(e, players[g], options) for g, e in engines.items()}
    while any(p.cpu < args.seconds for p in plays.values()):
        for play in plays.values():
            if play.cpu < args.seconds:
                play.run(min(SLICE_S, args.seconds - play.cpu))
    rates = {g: p.actions / p.cpu for g, p in plays.items()}
    for game_id, engine in engines.items():
        play, n = plays[game_id], players[game_id]
        medians = call_medians(engine, n, args.samples, options)
        print(f"{game_id:16s} {rates[game_id]:10,.0f} actions/s  {play.games / play.cpu:8.2f} games/s "
              f"({n} players, {play.actions / max(play.games, 1):.0f} actions/game, CPU time, interleaved)")
        print(f"{'':16s} playouts {playout_us(engine, n, options, 10):.1f} us/action (the contract's random games);"
              f" median us: apply {medians['apply']:.1f}, legal_actions {medians['legal_actions']:.1f},"
              f" view {medians['view']:.1f}")
        if game_id == "gods_playground":
            median, p90, top, count = noble_commits(engine, 20)
            print(f"{'':16s} place_nobles commit: median {median:.1f} us, p90 {p90:.1f}, slowest {top:.1f} "
                  f"({count} commits, each the least of {REPEATS})")
        worst: dict[str, float] = {}
        bot_max, moves = 0.0, 0
        for g in range(args.bot_games):
            slowest, think, m = bot_game(engine, n, 500 + g)
            moves += m
            bot_max = max(bot_max, think)
            for name, us in slowest.items():
                worst[name] = max(worst.get(name, 0.0), us)
        if worst:
            name, top = max(worst.items(), key=lambda kv: kv[1])
            print(f"{'':16s} {args.bot_games} heuristic bot games ({moves} moves): slowest engine call {name} {top:.0f} us; "
                  + ", ".join(f"{k} {v:.0f}" for k, v in sorted(worst.items()))
                  + f"; slowest bot decision {bot_max:.0f} us")
        if args.profile:
            profile(engine, n, min(args.seconds, 3.0), options)
    if len(rates) > 1:
        base = max(rates.values())
        print("relative to the fastest: " + ", ".join(f"{g} {r / base:.2f}" for g, r in rates.items()))


def profile(engine, players: int, seconds: float, options: dict) -> None:
    import cProfile
    import pstats

    profiler = cProfile.Profile()
    profiler.runcall(RandomPlay(engine, players, options).run, seconds)
    pstats.Stats(profiler).sort_stats("tottime").print_stats(12)


if __name__ == "__main__":
    main()
