"""God's Playground: what three heuristic bots make of a game, beside published play.

    .venv/bin/python bench/gp_bot_games.py [--games 200] [--bot heuristic] [--first-seed 0]

Plays games with the same bot in all three seats (game g uses seed g) and
prints the distribution of final scores, of the winner's score and of the
end-of-game estate points per seat (highest, middle, lowest of each game), each beside the
figures published in session reports (PUBLISHED below); then averages: final
score by source, final province income, estates held at the end, and per
round the talers a seat holds before and after the special actions, its hit
cubes on the enemy boxes after the campaigns, and how many provinces hold
enemy cubes when the counterattack begins.  Figures are per seat unless said
otherwise.  backend/engines/gods_playground/calibration.md records the
method and the results.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from backend.engines.gods_playground import ENGINE
from backend.engines.gods_playground.board import BOARD, PROVINCES
from backend.engines.gods_playground.bots import estate_loss_risk

PLAYERS = 3
SOURCES = ("boxes", "sejm", "schools", "talers", "estates")
# The event kinds that score VP (their params carry "vp"), by source.
VP_KINDS = {"vp_box": "boxes", "sejm_vp": "sejm", "jesuits": "schools", "vp_splendour": "talers",
            "vp_estates": "estates"}

# Published three-player results (/work/shared/boards/gods_playground.md §6.5 and
# issue 11): final scores by place, and end-of-game estate points of one game.
PUBLISHED = {
    "games": [(40, 34, 24), (41, 39, 28), (59, 46, 41), (55, 51, 48)],
    "estate_points": (29, 23, 7),
}


def quantiles(xs) -> str:
    """min / 10% / 25% / median / 75% / 90% / max of a list of numbers."""
    xs = sorted(xs)

    def q(f):
        return xs[min(len(xs) - 1, int(f * len(xs)))]

    return f"{xs[0]:3d} {q(.1):3d} {q(.25):3d} {q(.5):3d} {q(.75):3d} {q(.9):3d} {xs[-1]:3d}"


def histogram(xs, width: int = 5) -> str:
    """Counts per band of `width` points, as a one-line bar chart."""
    top = max(xs) // width
    bands = [sum(1 for x in xs if x // width == b) for b in range(top + 1)]
    peak = max(bands)
    return " ".join(f"{b * width}:{'#' * round(8 * n / peak) if n else '.'}" for b, n in enumerate(bands) if b * width >= min(xs) // width * width)


def play(seed: int, bot) -> dict:
    """One game; samples the state at the first decision of the phases we report on."""
    state = ENGINE.setup(PLAYERS, seed=seed)
    rngs = [random.Random(f"{seed}:{x}") for x in range(PLAYERS)]
    seen: dict[tuple[int, str], dict] = {}
    sources = dict.fromkeys(SOURCES, 0.0)
    traded = {"estate": -3.0, "estate_lost": 0.0}  # the three starting estates are not bought
    buys: list[dict] = []
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
        view = ENGINE.view(state, seat)
        action = bot(view, legal, rngs[seat])
        if action["type"] == "buy_estate":
            buys.append(bought_estate(view, seat, action["province"]))
        state, events = ENGINE.step(state, seat, action)
        for e in events:
            if e["kind"] in ("estate", "estate_lost"):
                traded[e["kind"]] += 1 / PLAYERS
            source = VP_KINDS.get(e["kind"])
            if source:
                sources[source] += e["params"]["vp"] / PLAYERS
    result = ENGINE.result(state)
    order = result["ranking"]
    return {
        "sources": sources,
        "bought": traded["estate"],
        "lost": traded["estate_lost"],
        "scores": list(state["vp"]),
        # By finishing place: winner first.
        "placed": [state["vp"][x] for x in order],
        "estate_points": sorted(result["estate_vp"], reverse=True),
        "estate_points_by_seat": list(result["estate_vp"]),
        "income": [state["prov"][p]["income"] for p in PROVINCES],
        "estates": sum(o is not None for p in PROVINCES for o in state["prov"][p]["estates"]) / PLAYERS,
        "held": {p: sum(o is not None for o in state["prov"][p]["estates"]) for p in PROVINCES},
        # A bought estate counts as lost if its space has another owner or none at the end
        # (one lost and bought back by the same seat counts as kept: rare).
        "buys": [{**b, "lost": state["prov"][b["province"]]["estates"][b["space"]] != b["seat"]} for b in buys],
        "seen": seen,
    }


def bought_estate(view: dict, seat: int, p: str) -> dict:
    """An estate the bot buys: where, and the chance the bot gives it of being lost
    by the end of the game (bots.estate_loss_risk, as the bot reckons it)."""
    pr = view["prov"][p]
    cost = BOARD["estate_cube_cost"][0 if view["pending"]["bought"][seat] == 0 else 1]
    return {"province": p, "space": pr["estates"].index(None), "seat": seat, "round": view["round"],
            "risk": estate_loss_risk(view, p, seat, sum(pr["nobles"]) - cost)}


def mean(xs) -> float:
    xs = list(xs)
    return statistics.fmean(xs) if xs else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--bot", default="heuristic")
    args = parser.parse_args()
    bot = ENGINE.bots[args.bot]
    start = time.perf_counter()
    games = [play(g, bot) for g in range(args.first_seed, args.first_seed + args.games)]
    report(games, args.bot, time.perf_counter() - start)


def report(games: list[dict], bot_name: str, elapsed: float) -> None:
    """Print the distributions and averages of a list of play() results."""
    scores = [x for g in games for x in g["scores"]]
    winners = [g["placed"][0] for g in games]
    published = PUBLISHED["games"]
    pub_scores = [x for g in published for x in g]
    print(f"gods_playground, 3 x {bot_name}, {len(games)} games, {elapsed:.1f} s")
    print("                          min 10% 25% med 75% 90% max   mean | published")
    print(f"  final score, all seats  {quantiles(scores)}  {mean(scores):5.1f} | "
          f"{' '.join(map(str, sorted(pub_scores)))} (mean {mean(pub_scores):.1f})")
    for place, label in enumerate(("winner", "second", "third")):
        xs = [g["placed"][place] for g in games]
        pub = [g[place] for g in published]
        print(f"  {label:23s} {quantiles(xs)}  {mean(xs):5.1f} | {' '.join(map(str, pub))} (mean {mean(pub):.1f})")
    for place, label in enumerate(("highest", "middle", "lowest")):
        xs = [g["estate_points"][place] for g in games]
        print(f"  estate points, {label:8s} {quantiles(xs)}  {mean(xs):5.1f} | {PUBLISHED['estate_points'][place]}")
    seats = [x for g in games for x in g["estate_points_by_seat"]]
    print(f"  estate points, any seat {quantiles(seats)}  {mean(seats):5.1f} | "
          f"{', '.join(map(str, sorted(PUBLISHED['estate_points'])))} (mean {mean(PUBLISHED['estate_points']):.1f})")
    print(f"  winner's score in 39-59 (the published range): {sum(39 <= w <= 59 for w in winners) / len(winners):.0%}")
    print(f"  final scores, bands of 5: {histogram(scores)}")
    print(f"  final income per province: mean {mean(x for g in games for x in g['income']):.2f} "
          f"(start 3, range 1-5); " + ", ".join(
              f"{p} {mean(g['income'][i] for g in games):.2f}" for i, p in enumerate(PROVINCES)))
    print(f"  estates per seat: bought {mean(g['bought'] for g in games):.1f} (besides the 3 at the start), "
          f"lost {mean(g['lost'] for g in games):.1f}, held at the end {mean(g['estates'] for g in games):.1f}")
    print("  estates held at the end, per game: " + ", ".join(
        f"{p} {mean(g['held'][p] for g in games):.1f}" for p in PROVINCES) + " (7 spaces each)")
    for r in range(1, 5):
        buys = [b for g in games for b in g["buys"] if b["round"] == r]
        if buys:
            print(f"  estates bought in round {r}: {len(buys) / len(games):.1f} a game, lost by the end "
                  f"{mean(b['lost'] for b in buys):.0%} (the bot reckoned {mean(b['risk'] for b in buys):.0%})")
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
