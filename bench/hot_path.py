"""CPU of an action's Python work in the server, without sockets or a database.

Replays saturated Condottiere play (3 seats, the points game of
bench/ws_load.py) through the server's own code for each action: the client
message parsed, the move checked (`domain.check`), its row for the group
commit encoded (`store.write_params`), the room advanced, and the state
message of every viewer built and framed (`MatchSocket._state_text`,
`wire.text_frame`), or with `--frames patch` its difference frame
(`MatchSocket._patch_text`: the message as values and its patch).  What it leaves out (the kernel's socket work, Twisted
and autobahn, psycopg, PostgreSQL) is measured by bench/ws_load.py.

    .venv/bin/python bench/hot_path.py [--actions 20000] [--viewers 3] [--repeat 5] [--frames full|patch]

Prints CPU microseconds per action (process time, the median and spread of
the repeats) and how they split between the steps.  Run it on a quiet core
for absolute figures; the split and before/after comparisons within one
run of it hold on a busy one.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backend.settings")
os.environ.pop("DATABASE_URL", None)

import django

django.setup()

from backend.matches import clock as clocks
from backend.matches import domain, store, timing
from backend.matches.domain import MatchInfo, SeatInfo, check, snapshot_of
from backend.matches.runtime.room import Room
from backend.matches.ws import wire
from backend.matches.ws.socket import MatchSocket

OPTIONS = {"points": True, "points_target": 200}


class Viewer(MatchSocket):
    """A MatchSocket without a connection: what it would write is framed and kept."""

    def __init__(self, room: Room, seat, patching: bool):
        self.room, self.seat, self.sent_version = room, seat, room.snapshot.version
        self.wanted, self.ready, self.closed, self.draining, self.outbox = -1, True, False, None, ()
        self.wire = self
        self.bytes = 0
        self.patching, self.held = patching, None
        if patching:  # the first state a patching socket sends: what its patches start from
            self._full_text(room.snapshot, [])

    def send_text(self, text: str) -> bool:
        self.bytes += len(wire.text_frame(text.encode()))
        return True


def new_room(seed: int, viewers: int, patching: bool) -> tuple[Room, list[Viewer]]:
    engine = domain.get_engine("condottiere")
    options = engine.validate_options(OPTIONS)
    info = MatchInfo(seed, "condottiere", options, seed, True,
                     tuple(SeatInfo(i + 1, f"u{i}", "") for i in range(3)), dict(clocks.UNTIMED))
    state = engine.setup(3, options, seed)
    fields = timing.start_fields(None, info.owners, domain.public_asked(engine, state), timing.now_ms())
    snapshot = snapshot_of(engine, 0, state, domain.ACTIVE, clock=fields["clock"], control=tuple(fields["control"]))
    room = Room(info, snapshot, {})
    seats = [0, 1, 2] + [None] * max(0, viewers - 3)
    room.viewers = {Viewer(room, seat, patching) for seat in seats[:viewers]}
    return room, list(room.viewers)


def play(actions: int, viewers: int, seed: int, split: dict | None, patching: bool = False) -> float:
    """Process seconds for `actions` actions; `split` (if given) gets the time per step."""
    rng = random.Random(seed)
    room, views = new_room(seed, viewers, patching)
    clock = time.process_time
    steps = {"parse": 0.0, "check": 0.0, "row": 0.0, "deliver": 0.0}
    start = clock()
    for counter in range(actions):
        snapshot = room.snapshot
        if snapshot.status != domain.ACTIVE:
            room, views = new_room(rng.randrange(1 << 30), viewers, patching)
            snapshot = room.snapshot
        seat = snapshot.to_move[0]
        legal = json.loads(room.rendered(snapshot, seat)[1])
        text = json.dumps({"type": "action", "version": snapshot.version, "id": f"run.{counter}",
                           "action": rng.choice(legal)})
        t0 = clock()
        message = json.loads(text)
        t1 = clock()
        move = check(room.info, snapshot, seat, message["action"], message["id"], timing.now_ms())
        t2 = clock()
        store.write_params([move])
        t3 = clock()
        room.advance(move.applied, {move.applied.version: (move.client_id, move.events)})
        for viewer in views:
            viewer.offer(move.applied.version)
        t4 = clock()
        steps["parse"] += t1 - t0
        steps["check"] += t2 - t1
        steps["row"] += t3 - t2
        steps["deliver"] += t4 - t3
    total = clock() - start
    if split is not None:
        for key, value in steps.items():
            split[key] = split.get(key, 0.0) + value
    return total - sum(steps.values())  # the driver's own work (choosing, legal from JSON)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=20000)
    parser.add_argument("--viewers", type=int, default=3, help="sockets per match (3 seats, then spectators)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--frames", choices=["full", "patch"], default="full",
                        help="whole state messages (default) or difference frames (?frames=patch)")
    args = parser.parse_args()
    from backend.common import collector

    collector.tune()  # as backend/asgi.py runs the server
    patching = args.frames == "patch"
    play(2000, args.viewers, 99, None, patching)  # warm-up: imports, caches
    per_action, splits = [], []
    for r in range(args.repeat):
        split: dict = {}
        play(args.actions, args.viewers, r, split, patching)
        per_action.append(1e6 * sum(split.values()) / args.actions)
        splits.append(split)
    per_action.sort()
    print(f"hot path, {args.frames} frames, {args.viewers} viewers per match, {args.actions} actions x {args.repeat}: "
          f"{statistics.median(per_action):.1f} us CPU per action "
          f"(min {per_action[0]:.1f}, max {per_action[-1]:.1f}); that is s per 1,000 actions / 1000")
    for key in splits[0]:
        values = sorted(1e6 * s[key] / args.actions for s in splits)
        print(f"  {key:8} {statistics.median(values):6.1f} us  (min {values[0]:.1f}, max {values[-1]:.1f})")


if __name__ == "__main__":
    main()
