"""Replay stepping speed (backend/matches/replays.py, docs/api.md Replays).

    DATABASE_URL=postgres://... .venv/bin/python bench/replay.py [--seeds 6] [--every 16]

Plays the longest of a few God's Playground games of three heuristic bots
through the services into a throwaway test database (PostgreSQL when
DATABASE_URL names one), then
asks the replay API (Django's test client: the whole request path but the
network) for its steps and prints milliseconds per request:
  * cold: the first request of the last step (reads the log, walks the whole match);
  * forward and back: every step in order, then in reverse, the public view;
  * own seat: the same walk forward for one player's own view;
  * jumps: random steps;
and, without Django's request path, the walk alone (Walk.state) and the engine's
view per step.  Figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backend.settings")


def longest_game(engine, seeds: int) -> tuple[int, list]:
    """(seed, [(seat, action)]) of the longest heuristic-bot game among `seeds` seeds."""
    best = (0, [])
    for seed in range(seeds):
        rng, state, moves = random.Random(seed), engine.setup(3, {}, seed), []
        while not engine.is_over(state):
            seat = engine.to_move(state)[0]
            action = engine.bots["heuristic"](engine.view(state, seat), engine.legal_actions(state, seat), rng)
            state, _events, action = engine.play(state, seat, action)
            moves.append((seat, action))
        if len(moves) > len(best[1]):
            best = (seed, moves)
    return best


def ms(samples: list[float]) -> str:
    samples = sorted(samples)
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    return f"median {statistics.median(samples) * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms, max {samples[-1] * 1000:.2f} ms"


def timed(client, paths: list[str]) -> list[float]:
    out = []
    for path in paths:
        start = time.perf_counter()
        answer = client.get(path)
        out.append(time.perf_counter() - start)
        assert answer.status_code == 200, (path, answer.content[:200])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=6)
    parser.add_argument("--every", type=int, default=None, help="checkpoint spacing (default: the module's)")
    args = parser.parse_args()

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.test.utils import setup_databases, setup_test_environment, teardown_databases

    from backend.engines import get_engine
    from backend.matches import replays, services
    from backend.matches.models import Match

    if args.every:
        replays.CHECKPOINT_EVERY = args.every
    engine = get_engine("gods_playground")
    seed, moves = longest_game(engine, args.seeds)
    setup_test_environment()
    old = setup_databases(verbosity=0, interactive=False)
    try:
        users = [get_user_model().objects.create_user(f"bench{i}", password="x-very-long-pass-1") for i in range(3)]
        match = services.create_match("gods_playground", {}, users, seed, True)
        for version, (seat, action) in enumerate(moves):
            services.apply_action(match.pk, seat, version, action, f"b{version}")
        match = Match.objects.get(pk=match.pk)
        assert match.status == "finished", match.status
        last = match.version
        base = f"/api/matches/{match.pk}/replay/"
        client = Client()
        print(f"God's Playground, seed {seed}: {last} steps, checkpoints every {replays.CHECKPOINT_EVERY}, "
              f"{connection_vendor()}")
        cold = timed(client, [f"{base}{last}/"])[0]
        print(f"  cold (first request, last step): {cold * 1000:.1f} ms")
        print(f"  forward, public view:  {ms(timed(client, [f'{base}{s}/' for s in range(last + 1)]))}")
        print(f"  back, public view:     {ms(timed(client, [f'{base}{s}/' for s in range(last, -1, -1)]))}")
        rng = random.Random(1)
        print(f"  random jumps:          {ms(timed(client, [f'{base}{rng.randrange(last + 1)}/' for _ in range(300)]))}")
        client.force_login(users[0])
        print(f"  forward, own seat:     {ms(timed(client, [f'{base}{s}/?seat=0' for s in range(last + 1)]))}")
        print(f"  the whole log:         {ms(timed(client, [base] * 20))}")

        walk = replays.CACHE.walks[match.pk]
        cached = walk.size()
        fresh = replays.Walk(engine, walk.checkpoints[0], walk.moves, walk.final, every=replays.CHECKPOINT_EVERY)
        steps, views = [], []
        for version in [*range(last + 1), *range(last, -1, -1)]:
            start = time.perf_counter()
            state = fresh.state(version)
            steps.append(time.perf_counter() - start)
            start = time.perf_counter()
            engine.view(state, None)
            views.append(time.perf_counter() - start)
        print(f"  walk alone (forward then back, first pass): {ms(steps)}")
        print(f"  engine.view per step:  {ms(views)}")
        print(f"  states cached for this match: {cached}")
    finally:
        teardown_databases(old, verbosity=0)


def connection_vendor() -> str:
    from django.db import connection

    return connection.vendor


if __name__ == "__main__":
    main()
