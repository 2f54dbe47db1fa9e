"""Recorded answers: what an engine says to many actions at or near the legal
ones, so a change to how it checks actions can be shown to answer exactly as
before (tests/engines/test_answers.py replays the files).

    .venv/bin/python tools/engine_answers.py record tests/engines/answers/GAME.json.gz --game GAME
    .venv/bin/python tools/engine_answers.py check tests/engines/answers/*.json.gz

At positions of seeded random games, every seat is sent actions built from
legal ones: each field set to every value its type allows (and a few it does
not), each optional field left out, and one action of every other type.  An
answer is the canonical action of an accepted one, or the refusal's kind,
template and parameters.  Only the public engine API is used, so the same file
records the engines before a change and checks them after.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import sys
from itertools import combinations

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from backend.engines import IllegalAction, get_engine  # noqa: E402
from backend.engines.vocabulary import Bool, Code, Codes, Int  # noqa: E402

GAMES = {"condottiere": [(2, {}), (3, {"hidden_cards": True}), (4, {"conquering_regions": True}),
                         (5, {"draw_after_battle": True})],
         "gods_playground": [(3, {})] * 4}


def values(field) -> list:
    """Every value a field's type allows (bounded for numbers), and some it does not."""
    if isinstance(field, Code):
        return [*field.codes, *([None] if field.nullable else []), "no_such_code"]
    if isinstance(field, Codes):
        codes = field.codes
        small = [[], *([c] for c in codes)]
        if len(codes) <= 8:  # every set of a short vocabulary (God's Playground's provinces)
            small += [list(c) for k in (2, 3, 5) for c in combinations(codes, k)]
        return small + [[codes[0], codes[0]], [codes[0], codes[1], codes[2]], "x"]
    if isinstance(field, Int):
        return [*range(-1, 9), 10**6, True, 1.5]
    if isinstance(field, Bool):
        return [True, False, 0]
    raise TypeError(field)


def near(engine, action: dict, rng: random.Random) -> list[dict]:
    """Actions one field away from `action`."""
    fields = engine.actions.types[action["type"]]
    out = []
    for name, field in fields.items():
        options = values(field)
        if isinstance(field, Int) and isinstance(action.get(name), int):
            options = [action[name] - 1, action[name] + 1, *options]  # the boundaries of a legal number
        for value in rng.sample(options, min(len(options), 12)):
            out.append({**action, name: value})
        if field.optional and name in action:
            out.append({k: v for k, v in action.items() if k != name})
    return out


def other_types(engine) -> list[dict]:
    """One action of every type, each field at its type's first value."""
    return [{"type": kind, **{name: values(f)[0] for name, f in fields.items()}}
            for kind, fields in engine.actions.types.items()]


def answer(engine, state: dict, seat: int, action: dict) -> list:
    try:
        played = engine.play(state, seat, action)
    except IllegalAction as err:
        return [type(err).__name__, err.template, err.params]
    return ["ok", played.action]


def record_game(engine, players: int, options: dict, seed: int, positions: int) -> dict:
    rng = random.Random(seed)
    state = engine.setup(players, options, seed)
    steps, asked = [], []
    while engine.to_move(state):
        steps.append(state)
        seat = rng.choice(engine.to_move(state))
        state = engine.play(state, seat, rng.choice(engine.legal_actions(state, seat))).state
    picks = sorted(rng.sample(range(len(steps)), min(positions, len(steps))))
    for i in picks:
        state = steps[i]
        mover = engine.to_move(state)[0]
        offered = engine.legal_actions(state, mover)
        theirs = rng.sample(offered, min(2, len(offered)))  # sent by the other seats too
        for seat in range(players):
            legal = engine.legal_actions(state, seat)
            sample = rng.sample(legal, min(3, len(legal))) if len(legal) else []
            tries = [a for base in sample for a in near(engine, dict(base), rng)] + sample + theirs
            if seat == mover:
                tries += other_types(engine)
            asked.append({"step": i, "seat": seat,
                          "answers": [[a, answer(engine, state, seat, a)] for a in tries]})
    return {"players": players, "options": options, "seed": seed, "positions": asked}


def record(game: str, per_table: int, positions: int) -> dict:
    engine = get_engine(game)
    games = [record_game(engine, players, options, 1000 * n + k, positions)
             for n, (players, options) in enumerate(GAMES[game]) for k in range(per_table)]
    return {"note": __doc__.split("\n\n")[0].replace("\n", " "), "game": game, "games": games}


def replay_positions(engine, game: dict):
    """(state, seat, [[action, answer], ...]) of a recorded game, its positions played again."""
    rng = random.Random(game["seed"])
    state = engine.setup(game["players"], game["options"], game["seed"])
    steps = []
    while engine.to_move(state):
        steps.append(state)
        seat = rng.choice(engine.to_move(state))
        state = engine.play(state, seat, rng.choice(engine.legal_actions(state, seat))).state
    for asked in game["positions"]:
        yield steps[asked["step"]], asked["seat"], asked["answers"]


def load(path: str) -> dict:
    with gzip.open(path, "rt") as f:
        return json.load(f)


def differences(record_: dict, limit: int = 10) -> list[str]:
    """Where the engine now answers otherwise than recorded (at most `limit`)."""
    engine = get_engine(record_["game"])
    out = []
    for game in record_["games"]:
        for state, seat, answers in replay_positions(engine, game):
            for action, expected in answers:
                got = json.loads(json.dumps(answer(engine, state, seat, action)))
                if got != expected:
                    out.append(f"seed {game['seed']}, seat {seat}, {action}: {got}, recorded {expected}")
                    if len(out) >= limit:
                        return out
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    rec = sub.add_parser("record")
    rec.add_argument("out")
    rec.add_argument("--game", required=True, choices=sorted(GAMES))
    rec.add_argument("--per-table", type=int, default=2)
    rec.add_argument("--positions", type=int, default=16)
    chk = sub.add_parser("check")
    chk.add_argument("files", nargs="+")
    args = parser.parse_args()
    if args.cmd == "record":
        data = record(args.game, args.per_table, args.positions)
        with gzip.open(args.out, "wt", compresslevel=9) as f:
            json.dump(data, f, separators=(",", ":"))
        print(f"{args.out}: {sum(len(p['answers']) for g in data['games'] for p in g['positions'])} answers")
        return
    bad = 0
    for path in args.files:
        diffs = differences(load(path))
        bad += bool(diffs)
        print(path, "ok" if not diffs else "DIFFERS:\n  " + "\n  ".join(diffs))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
