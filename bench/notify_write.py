"""What the outbox costs a move's write on PostgreSQL (docs/notifications.md, The outbox).

The group commit's statement (store.write_sql) carries a CTE that inserts the your-move rows of a
turn-based match's move. This times that statement against the same statement without the CTE,
interleaved, on batches of 1 and 64 moves of untimed matches (nothing to insert: what every real-time
and untimed move pays) and of turn-based ones (one row per move).

    DATABASE_URL=postgres://... .venv/bin/python bench/notify_write.py [--rounds 30]

Needs a migrated PostgreSQL database; it creates users and matches there. Prints the median
milliseconds per statement of each variant, and the ratio.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backend.settings")

import django

django.setup()

from django.contrib.auth import get_user_model
from django.db import connection

from backend.matches import domain, store, timing
from backend.matches.services import create_match

DAILY = {"kind": "turn_based", "per_move_s": 86_400}
WITH = store.write_sql()
WITHOUT = re.sub(r", told AS \(INSERT .*? ON CONFLICT DO NOTHING\)", "", WITH)
assert WITHOUT != WITH


def _matches(n: int, time_control) -> list[int]:
    User = get_user_model()
    users = [User.objects.create_user(username=f"bench{uuid.uuid4().hex[:10]}") for _ in range(2)]
    return [create_match("condottiere", {}, users, seed, True, time_control).pk for seed in range(n)]


def _moves(ids: list[int]) -> list[domain.Move]:
    out = []
    for match_id in ids:
        info = store.read_info(match_id)
        snapshot = store.read_snapshot(info)
        seat = snapshot.to_move[0]
        action = info.engine.legal_actions(snapshot.state, seat)[0]
        out.append(domain.check(info, snapshot, seat, action, uuid.uuid4().hex, timing.now_ms()))
    return out


def _timed(sql: str, moves) -> float:
    with connection.cursor() as cursor:
        start = time.perf_counter()
        cursor.execute(sql, store.write_params(moves))
        rows = cursor.fetchall()
        elapsed = time.perf_counter() - start
    assert all(written for _, written in rows) and len(rows) == len(moves)
    return elapsed * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()
    assert connection.vendor == "postgresql", "set DATABASE_URL to a migrated PostgreSQL database"
    connection.ensure_connection()
    for label, control in (("untimed", None), ("turn-based", DAILY)):
        for batch in (1, 64):
            ids = {"with": _matches(batch, control), "without": _matches(batch, control)}
            times, told = {"with": [], "without": []}, 0
            for r in range(args.rounds):
                order = ("with", "without") if r % 2 else ("without", "with")  # interleaved, alternating first
                for variant in order:
                    moves = _moves(ids[variant])
                    told += sum(len(m.notify) for m in moves) if variant == "with" else 0
                    times[variant].append(_timed(WITH if variant == "with" else WITHOUT, moves))
            a, b = statistics.median(times["with"]), statistics.median(times["without"])
            print(f"{label:10} batch {batch:2}: with outbox {a:6.2f} ms, without {b:6.2f} ms, ratio {a / b:4.2f}"
                  f"  ({told / (batch * args.rounds):.2f} outbox rows per move)")


if __name__ == "__main__":
    main()
