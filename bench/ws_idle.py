"""Idle capacity of one worker: how many match sockets it holds, what each
costs in memory, and how long all of them take to come back after a restart.

Opens N spectator sockets spread over M Condottiere matches (nobody acts:
idle viewers, as on a quiet evening), measures the worker's resident memory
before and after (per socket), then restarts the worker the way systemd
does (SIGTERM: it drains and closes every socket with 4503; a new process
starts on the same port) while every client reconnects with the app's
backoff, and prints the time until every socket holds a state again.

    .venv/bin/python bench/ws_idle.py --sockets 5000          # SQLite, in-memory layer
    .venv/bin/python bench/ws_idle.py --sockets 5000 --db postgres://postgres@127.0.0.1:5432/bench_idle \\
        --redis redis://127.0.0.1:6379/5
"""

from __future__ import annotations

import argparse
import asyncio
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.deploy import Worker  # noqa: E402
from tests.support.servers import crowd_setup, free_port  # noqa: E402
from tests.support.wsclient import ConnectionClosed, WebSocket  # noqa: E402



MAX_DELAY_S = 8.0  # frontend/js/live.js MAX_DELAY


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


class Viewer:
    """One spectator socket that reconnects by itself, as the app does after a
    close: at once on 4503 (the worker is restarting), then with a growing,
    jittered delay while the address refuses connections (frontend/js/live.js)."""

    def __init__(self, port: int, path: str):
        self.port, self.path = port, path
        self.ws: WebSocket | None = None
        self.states = 0
        self.has_state = asyncio.Event()
        self.reconnected_at: float | None = None

    async def run(self, start_gate: asyncio.Semaphore) -> None:
        attempt = 0
        while True:
            try:
                async with start_gate:  # a bounded number of handshakes in flight, as many browsers would be
                    self.ws = await asyncio.wait_for(WebSocket.connect("127.0.0.1", self.port, self.path), 15)
                attempt = 0
                while True:
                    text = await self.ws.recv()
                    if text.startswith('{"type":"state"'):
                        self.states += 1
                        if not self.has_state.is_set():
                            self.reconnected_at = time.perf_counter()
                        self.has_state.set()
            except (ConnectionClosed, OSError, EOFError, TimeoutError) as e:
                # EOFError: a handshake the stopping worker's listener had taken but never answered.
                self.has_state.clear()
                # frontend/js/live.js: at once (jittered) after 4503, else a growing, jittered delay.
                if "(4503)" in str(e):
                    attempt = 0
                    delay = random.random() * 0.3
                else:
                    delay = min(MAX_DELAY_S, 0.6 * 2 ** attempt) * (0.8 + random.random() * 0.4)
                attempt += 1
                await asyncio.sleep(delay)


async def all_hold_state(viewers: list[Viewer], timeout: float) -> None:
    await asyncio.wait_for(asyncio.gather(*(v.has_state.wait() for v in viewers)), timeout)


def stage(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


async def run(args) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the worker inherits it
    tmp = Path(tempfile.mkdtemp(prefix="ws-idle-"))
    database = args.db or f"sqlite:///{tmp / 'db.sqlite3'}"
    env, match_ids = await asyncio.to_thread(crowd_setup, database, args.redis or "", args.matches)
    port = free_port()
    stage("matches created")
    worker = await asyncio.to_thread(Worker, env, tmp / "worker.log", port)
    viewers = [Viewer(port, f"/ws/matches/{match_ids[i % len(match_ids)]}/") for i in range(args.sockets)]
    gate = asyncio.Semaphore(args.concurrent)
    tasks: list[asyncio.Task] = []
    try:
        # A first socket per match warms the worker (imports, caches) before the baseline is read.
        tasks += [asyncio.create_task(v.run(gate)) for v in viewers[:len(match_ids)]]
        await all_hold_state(viewers[:len(match_ids)], 120)
        await asyncio.sleep(args.settle)
        base_kb = rss_kb(worker.pid)
        stage("warm")
        t0 = time.perf_counter()
        tasks += [asyncio.create_task(v.run(gate)) for v in viewers[len(match_ids):]]
        await all_hold_state(viewers, 600)
        connect_s = time.perf_counter() - t0
        stage("all connected")
        await asyncio.sleep(args.settle)  # presence updates have gone out; buffers are drained
        full_kb = rss_kb(worker.pid)
        fds = worker.open_files()
        per_socket_kb = (full_kb - base_kb) / (args.sockets - len(match_ids))

        # Restart as systemd does: SIGTERM, the process drains and exits, a new one takes the port.
        t_stop = time.perf_counter()
        stage("restarting")
        await asyncio.to_thread(worker.stop, 60)
        stopped_s = time.perf_counter() - t_stop
        worker = await asyncio.to_thread(Worker, env, tmp / "worker.log", port)
        listening_s = time.perf_counter() - t_stop
        stage("new worker listening")
        await all_hold_state(viewers, 600)
        back_s = time.perf_counter() - t_stop
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for v in viewers:
            if v.ws is not None:
                v.ws.writer.close()
        await asyncio.to_thread(worker.stop)
    print(f"layer={'redis' if args.redis else 'in-memory'} db={'postgres' if args.db else 'sqlite'} "
          f"sockets={args.sockets} matches={args.matches} handshakes in flight<={args.concurrent}")
    print(f"  connect            {connect_s:.1f} s for {args.sockets - len(match_ids)} sockets "
          f"({(args.sockets - len(match_ids)) / connect_s:.0f}/s)")
    print(f"  worker memory      {base_kb / 1024:.0f} MB before, {full_kb / 1024:.0f} MB with {args.sockets} sockets: "
          f"{per_socket_kb:.1f} KB per socket; {fds} open files")
    print(f"  restart (SIGTERM)  old worker gone after {stopped_s:.1f} s, new one listening at {listening_s:.1f} s, "
          f"all {args.sockets} sockets hold a state again at {back_s:.1f} s "
          f"({back_s - listening_s:.1f} s after it listened; the clients' backoff included)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", type=int, default=5000)
    parser.add_argument("--matches", type=int, default=50, help="the sockets are spread over this many matches")
    parser.add_argument("--concurrent", type=int, default=200, help="handshakes in flight at once")
    parser.add_argument("--settle", type=float, default=4.0, help="seconds before each memory reading")
    parser.add_argument("--db", help="PostgreSQL URL (default: a fresh SQLite file)")
    parser.add_argument("--redis", help="Redis URL for the channel layer (default: in-memory)")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
