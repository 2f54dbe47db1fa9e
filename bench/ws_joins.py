"""What one more connection to a crowded match costs the server.

Opens spectator sockets on one Condottiere match, one after another, and at
N = 100, 500 and 2000 (by default) measures the Daphne process's CPU time
for the next STEP joins (handshake, first state, presence), per join, and
how long each join took until its first state arrived.  Flat in N is the
goal: a join must not cost work per connection already there.

    .venv/bin/python bench/ws_joins.py                      # SQLite, in-memory layer
    .venv/bin/python bench/ws_joins.py --db postgres://postgres@127.0.0.1:5432/bench_joins \\
        --redis redis://127.0.0.1:6379/5
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.servers import Daphne, cpu_seconds, crowd_setup  # noqa: E402
from tests.support.wsclient import ConnectionClosed, WebSocket  # noqa: E402



async def drain(ws: WebSocket, counts: dict) -> None:
    """Read everything the server sends this socket, counting presence frames."""
    try:
        while True:
            text = await ws.recv()
            if text.startswith('{"type":"presence"'):
                counts["presence"] += 1
    except (ConnectionClosed, asyncio.CancelledError):
        return


async def join(port: int, path: str, sockets: list, readers: list, counts: dict) -> float:
    start = time.perf_counter()
    ws = await WebSocket.connect("127.0.0.1", port, path)
    first = json.loads(await ws.recv())
    assert first["type"] == "state", first
    elapsed = time.perf_counter() - start
    sockets.append(ws)
    readers.append(asyncio.create_task(drain(ws, counts)))
    return elapsed


async def run(args) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the server inherits it
    tmp = Path(tempfile.mkdtemp(prefix="ws-joins-"))
    database = args.db or f"sqlite:///{tmp / 'db.sqlite3'}"
    env, (match_id,) = await asyncio.to_thread(crowd_setup, database, args.redis or "", 1)
    server = await asyncio.to_thread(Daphne, env, None, tmp / "daphne.log")
    path = f"/ws/matches/{match_id}/"
    sockets: list[WebSocket] = []
    readers: list[asyncio.Task] = []
    counts = {"presence": 0}
    rows = []
    try:
        for target in args.counts:
            while len(sockets) < target - args.step:
                await join(server.port, path, sockets, readers, counts)
            await asyncio.sleep(args.settle)  # the previous joins' presence frames have gone out
            cpu0, presence0 = cpu_seconds(server.pid), counts["presence"]
            waits = [await join(server.port, path, sockets, readers, counts) for _ in range(args.step)]
            await asyncio.sleep(args.settle)  # and these joins' frames too
            cpu = cpu_seconds(server.pid) - cpu0
            rows.append((target, 1000 * cpu / args.step, 1000 * statistics.median(waits), 1000 * max(waits),
                         (counts["presence"] - presence0) / args.step))
    finally:
        for task in readers:
            task.cancel()
        for ws in sockets:
            await ws.close()
        await asyncio.to_thread(server.stop)
    print(f"layer={'redis' if args.redis else 'in-memory'} db={'postgres' if args.db else 'sqlite'} "
          f"step={args.step} settle={args.settle}s")
    print(f"{'N':>6} {'CPU ms/join':>12} {'p50 join ms':>12} {'max join ms':>12} {'presence frames/join':>21}")
    for n, cpu, p50, worst, frames in rows:
        print(f"{n:>6} {cpu:>12.2f} {p50:>12.1f} {worst:>12.1f} {frames:>21.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--counts", type=lambda s: [int(x) for x in s.split(",")], default=[100, 500, 2000])
    parser.add_argument("--step", type=int, default=50, help="joins measured at each N")
    parser.add_argument("--settle", type=float, default=4.0,
                        help="seconds to wait around each measured step (a presence update at most every 3 s)")
    parser.add_argument("--db", help="PostgreSQL URL (default: a fresh SQLite file)")
    parser.add_argument("--redis", help="Redis URL for the channel layer (default: in-memory)")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
