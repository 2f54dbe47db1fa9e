"""Golden games: a game recorded as (game, players, options, seed, actions) with
the SHA-256 of its final state and of all its events, so a test can replay it
and prove the engine still plays it byte for byte.

    .venv/bin/python tools/engine_golden.py record OUT.json --game condottiere \
        [--players 3] [--seed 7] [--options '{}'] [--validate] [--bot-seed 1] [--note "..."]
    .venv/bin/python tools/engine_golden.py check FILE.json [FILE.json ...]

`record` plays random legal actions (seeded by --bot-seed) and writes the file;
`--validate` passes the options through `engine.validate_options` first, as the
platform does when it creates a match (so they carry every default, the
generator marker included).  `check` replays files and says whether each still
matches; the test suite does the same (tests/engines/test_golden.py).

A one-off development tool: files recorded before a change to the engines are
the evidence that stored matches still replay after it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from backend.engines import canonical, get_engine  # noqa: E402


def digest(value) -> str:
    return hashlib.sha256(canonical(value).encode()).hexdigest()


def replay(record: dict) -> tuple[dict, list]:
    """The final state and every event of a recorded game, played again."""
    engine = get_engine(record["game"])
    state = engine.setup(record["players"], record["options"], record["seed"])
    events = []
    for seat, action in record["actions"]:
        state, new = engine.step(state, seat, action)
        events.append(new)
    return state, events


def record_game(game: str, players: int, options: dict, seed: int, bot_seed: int, validate: bool) -> dict:
    engine = get_engine(game)
    if validate:
        options = engine.validate_options(options)
    rng = random.Random(bot_seed)
    state = engine.setup(players, options, seed)
    actions, events = [], []
    while engine.to_move(state):
        seat = rng.choice(engine.to_move(state))
        action = rng.choice(engine.legal_actions(state, seat))
        state, new = engine.step(state, seat, action)
        actions.append([seat, action])
        events.append(new)
    return {"game": game, "players": players, "options": options, "seed": seed, "actions": actions,
            "state_sha256": digest(state), "events_sha256": digest(events)}


def check(path: str) -> bool:
    with open(path) as f:
        record = json.load(f)
    state, events = replay(record)
    ok = digest(state) == record["state_sha256"] and digest(events) == record["events_sha256"]
    print(f"{'ok  ' if ok else 'FAIL'} {path} ({len(record['actions'])} actions)")
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record")
    rec.add_argument("out")
    rec.add_argument("--game", required=True)
    rec.add_argument("--players", type=int, default=3)
    rec.add_argument("--seed", type=int, default=7)
    rec.add_argument("--options", default="{}")
    rec.add_argument("--bot-seed", type=int, default=1)
    rec.add_argument("--validate", action="store_true", help="options as the platform stores them (defaults filled)")
    rec.add_argument("--note", default="")
    chk = sub.add_parser("check")
    chk.add_argument("files", nargs="+")
    args = parser.parse_args()
    if args.command == "check":
        sys.exit(0 if all([check(path) for path in args.files]) else 1)
    record = record_game(args.game, args.players, json.loads(args.options), args.seed, args.bot_seed, args.validate)
    record = {"note": args.note, **record}
    with open(args.out, "w") as f:
        # One action per line keeps the file readable and its diffs small.
        head = {k: v for k, v in record.items() if k != "actions"}
        f.write(json.dumps(head, indent=1)[:-2] + ',\n "actions": [\n')
        f.write(",\n".join("  " + json.dumps(a) for a in record["actions"]))
        f.write("\n ]\n}\n")
    print(f"{args.out}: {len(record['actions'])} actions, state {record['state_sha256'][:12]}")


if __name__ == "__main__":
    main()
