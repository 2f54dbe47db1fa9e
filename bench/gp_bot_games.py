"""God's Playground: what three heuristic bots make of a game.

    .venv/bin/python bench/gp_bot_games.py [--games 100] [--bot heuristic]

Plays games with the same bot in all three seats (game g uses seed g) and
prints averages: final score (and its sources), final province income, estates held at the end,
and per round the talers a seat holds before and after the special actions,
its hit cubes on the enemy boxes after the campaigns, and how many provinces
hold enemy cubes when the counterattack begins.  Real session reports score
roughly 39-59 per player; bot play that leaves every border open ends far
lower.  Figures are per seat unless said otherwise.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from backend.engines.gods_playground import ENGINE  # noqa: E402
from backend.engines.gods_playground.board import PROVINCES  # noqa: E402

PLAYERS = 3
SOURCES = ("boxes", "sejm", "schools", "talers", "estates")


def play(seed: int, bot) -> dict:
    """One game; samples the state at the first decision of the phases we report on."""
    state = ENGINE.setup(PLAYERS, seed=seed)
    rngs = [random.Random(f"{seed}:{x}") for x in range(PLAYERS)]
    seen: dict[tuple[int, str], dict] = {}
    sources = dict.fromkeys(SOURCES, 0.0)
    while True:
        to_move = ENGINE.to_move(state)
        if not to_move:
            break
        kind = state["pending"]["kind"]
        key = (state["round"], kind)
        if key not in seen:
            seen[key] = {
                "money": list(state["money"]),
                "hits": sum(sum(b["nobles"]) for b in state["box"].values()) / PLAYERS,
                "invaded": sum(1 for pr in state["prov"].values() if sum(pr["enemy"].values())),
            }
        seat = to_move[0]
        legal = ENGINE.legal_actions(state, seat)
        state, events = ENGINE.step(state, seat, bot(ENGINE.view(state, seat), legal, rngs[seat]))
        for e in events:
            if e.get("vp") and e["kind"] in ("vp", "jesuits"):
                text = e["text"]
                source = ("boxes" if " box" in text else "talers" if "splendour" in text
                          else "estates" if "for estates" in text else "schools")
                sources[source] += e["vp"] / PLAYERS
    # The Sejm's 2 VP a disc are scored without an event: they are the rest.
    sources["sejm"] = sum(state["vp"]) / PLAYERS - sum(sources.values())
    return {
        "sources": sources,
        "scores": list(state["vp"]),
        "income": [state["prov"][p]["income"] for p in PROVINCES],
        "estates": sum(o is not None for p in PROVINCES for o in state["prov"][p]["estates"]) / PLAYERS,
        "seen": seen,
    }


def mean(xs) -> float:
    xs = list(xs)
    return statistics.fmean(xs) if xs else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--bot", default="heuristic")
    args = parser.parse_args()
    bot = ENGINE.bots[args.bot]
    start = time.perf_counter()
    games = [play(g, bot) for g in range(args.first_seed, args.first_seed + args.games)]
    elapsed = time.perf_counter() - start
    scores = [x for g in games for x in g["scores"]]
    winners = [max(g["scores"]) for g in games]
    print(f"gods_playground, 3 x {args.bot}, {args.games} games, {elapsed:.1f} s")
    print(f"  final score: mean {mean(scores):.1f}, winner mean {mean(winners):.1f}, "
          f"min {min(scores)}, max {max(scores)}")
    print(f"  final income per province: mean {mean(x for g in games for x in g['income']):.2f} "
          f"(start 3, range 1-5); " + ", ".join(
              f"{p} {mean(g['income'][i] for g in games):.2f}" for i, p in enumerate(PROVINCES)))
    print(f"  estates held at the end per seat: {mean(g['estates'] for g in games):.1f}")
    print("  VP per seat by source: " + ", ".join(f"{k} {mean(g['sources'][k] for g in games):.1f}" for k in SOURCES))
    print("  round | talers before specials | after specials | hit cubes/seat after campaigns | provinces with enemies")
    for r in range(1, 5):
        def pick(kind, field, r=r):
            return [g["seen"][(r, kind)][field] for g in games if (r, kind) in g["seen"]]
        before = [x for m in pick("special", "money") for x in m]
        after = [x for m in pick("recruitment", "money") for x in m]
        print(f"  {r:5d} | {mean(before):22.1f} | {mean(after):14.1f} | "
              f"{mean(pick('counterattack', 'hits')):30.1f} | {mean(pick('counterattack', 'invaded')):.1f}")


if __name__ == "__main__":
    main()
