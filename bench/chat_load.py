"""Chat under load: Daphne + PostgreSQL + Redis, as deployed.

Opens M Condottiere matches, each with 2 players and S signed-in spectators
connected over real WebSockets (optionally spread over several Daphne
processes), then every player and spectator writes LINES chat lines, one
every --pace seconds, and prints:
  * latency from a line's send until every connection that may read it has it
    (the table's line: everyone; a spectators' line: the spectators), p50/p95/max;
  * lines lost (a reader never got it) and leaked (a player got a spectators' line);
  * transactions per line (pg_stat_database, the history reads at connect excluded);
  * the time to connect every socket, each answered with its state and chat history.

    .venv/bin/python bench/chat_load.py --matches 20 --spectators 2 --lines 5 --servers 2

Needs PostgreSQL and Redis on 127.0.0.1 (the database is created and migrated if missing).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.servers import Daphne  # noqa: E402
from tests.support.wsclient import ConnectionClosed, WebSocket  # noqa: E402


def prepare(env: dict, db_url: str) -> None:
    subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", db_url.rsplit("/", 1)[1]], capture_output=True,
                   check=False)  # it may exist already
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)


def create_matches(m: int, spectators: int) -> list[dict]:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from rest_framework.authtoken.models import Token

    from backend.accounts.models import fold
    from backend.matches.services import create_match

    User = get_user_model()
    run, per = uuid.uuid4().hex[:8], 2 + spectators
    users = User.objects.bulk_create(User(username=f"c{run}-{i}", username_key=fold(f"c{run}-{i}"),
                                          password=make_password(None)) for i in range(per * m))
    tokens = Token.objects.bulk_create(Token(user=u, key=Token.generate_key()) for u in users)
    return [{"id": create_match("condottiere", {}, users[per * i:per * i + 2], i, True).pk,
             "tokens": [t.key for t in tokens[per * i:per * (i + 1)]]} for i in range(m)]


def transactions(db_url: str) -> int:
    import psycopg

    with psycopg.connect(db_url, autocommit=True) as conn:
        row = conn.execute("SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = %s",
                           (db_url.rsplit("/", 1)[1],)).fetchone()
    return row[0]


class Reader:
    def __init__(self, ws: WebSocket, seated: bool):
        self.ws, self.seated, self.got = ws, seated, {}

    async def read(self, until: float) -> None:
        while time.monotonic() < until:
            try:
                text = await asyncio.wait_for(self.ws.recv(), until - time.monotonic())
            except (TimeoutError, ConnectionClosed):
                return
            if text.startswith('{"type":"chat"'):
                message = json.loads(text)
                if message["type"] == "chat":
                    self.got[message["message"]["text"]] = time.monotonic()


async def main_async(args) -> None:
    env = dict(os.environ, DATABASE_URL=args.db_url, REDIS_URL=args.redis_url, DJANGO_DEBUG="0", LOG_LEVEL="WARNING",
               BOT_DELAY="0", CHAT_RATE="100000", MATCH_SOCKETS_PER_ADDRESS="1000000", PYTHONUNBUFFERED="1")
    os.environ.update({k: env[k] for k in ("DATABASE_URL", "REDIS_URL", "DJANGO_DEBUG")})
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backend.settings")
    prepare(env, args.db_url)
    import django

    django.setup()
    matches = await asyncio.to_thread(create_matches, args.matches, args.spectators)
    servers = [await asyncio.to_thread(Daphne, env) for _ in range(args.servers)]
    try:
        started = time.monotonic()
        readers: list[list[Reader]] = []
        for i, match in enumerate(matches):
            row = []
            for j, token in enumerate(match["tokens"]):
                port = servers[(i + j) % len(servers)].port  # a match's readers spread over the processes
                ws = await WebSocket.connect("127.0.0.1", port, f"/ws/matches/{match['id']}/",
                                             headers={"Authorization": f"Token {token}"})
                await ws.send('{"type": "chat_history"}')  # as the web app does on every (re)connect
                while not (await ws.recv()).startswith('{"type":"chat_history"'):
                    pass
                row.append(Reader(ws, j < 2))
            readers.append(row)
        connect_s = time.monotonic() - started
        before = transactions(args.db_url)
        sent: dict[str, tuple[float, int, bool]] = {}  # text -> (time, match, from a spectator)
        end = time.monotonic() + args.lines * args.pace + 10
        reading = [asyncio.create_task(r.read(end)) for row in readers for r in row]

        async def writer(i: int, j: int, reader: Reader) -> None:
            await asyncio.sleep(args.pace * (j / len(readers[i])))
            for n in range(args.lines):
                text = f"m{i}-r{j}-{n}"
                sent[text] = (time.monotonic(), i, not reader.seated)
                await reader.ws.send(json.dumps({"type": "chat", "text": text}))
                await asyncio.sleep(args.pace)

        await asyncio.gather(*(writer(i, j, r) for i, row in enumerate(readers) for j, r in enumerate(row)))
        # Until every reader holds every line it may read, or the end.
        while time.monotonic() < end and any(
                text not in r.got for text, (_, i, spect) in sent.items() for r in readers[i] if not (spect and r.seated)):
            await asyncio.sleep(0.1)
        for task in reading:
            task.cancel()
        after = transactions(args.db_url)
        latencies, lost, leaked = [], 0, 0
        for text, (at, i, spect) in sent.items():
            spread = []
            for r in readers[i]:
                if spect and r.seated:
                    leaked += text in r.got
                elif text in r.got:
                    spread.append(r.got[text] - at)
                else:
                    lost += 1
            if spread:
                latencies.append(max(spread) * 1000)
        latencies.sort()
        print(f"chat M={args.matches} readers/match={2 + args.spectators} servers={args.servers} "
              f"lines={len(sent)} pace={args.pace}s  (machine load average {os.getloadavg()[0]:.1f})")
        print(f"  latency ms   p50 {statistics.median(latencies):.1f}  "
              f"p95 {latencies[int(0.95 * (len(latencies) - 1))]:.1f}  max {latencies[-1]:.1f}  "
              f"(send -> every reader of its channel holds it)")
        print(f"  lost {lost}  leaked to players {leaked}")
        print(f"  transactions/line {(after - before) / len(sent):.2f}  (pg_stat_database; the runtime's background "
              f"reads and writes in the same time included)")
        print(f"  connect      {connect_s:.1f} s for {sum(map(len, readers))} sockets (state + chat history each)")
        for row in readers:
            for r in row:
                await r.ws.close()
    finally:
        for server in servers:
            await asyncio.to_thread(server.stop)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", "-m", type=int, default=20)
    parser.add_argument("--spectators", type=int, default=2)
    parser.add_argument("--lines", type=int, default=5)
    parser.add_argument("--pace", type=float, default=0.5)
    parser.add_argument("--servers", type=int, default=1)
    parser.add_argument("--db-url", default="postgres://postgres@127.0.0.1:5432/bench_chat")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
