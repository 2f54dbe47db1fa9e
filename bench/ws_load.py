"""Load benchmark of live play: Daphne + PostgreSQL + Redis, as deployed.

Opens M concurrent Condottiere matches, each with 3 players and 1 spectator
(--spectators) connected over real WebSockets, and drives them:

  paced      each match acts about once a second (live play)
  saturated  every client acts the moment it may

and prints actions/s, latency from an action's send until all 4 clients of
its match hold the new version (p50/p95/p99/max), lost and duplicated
updates, statements per action (from PostgreSQL's table statistics), and the
CPU seconds per 1,000 actions of the Daphne process(es) and of the PostgreSQL
backends serving the benchmark database.

    .venv/bin/python bench/ws_load.py --mode paced --matches 200
    .venv/bin/python bench/ws_load.py --mode saturated --matches 50 --layer core
    .venv/bin/python bench/ws_load.py --mode saturated --matches 50 --time-control realtime:600:10
    .venv/bin/python bench/ws_load.py --mode paced --matches 200 --nginx --servers 2
    .venv/bin/python bench/ws_load.py --mode saturated --matches 50 --spectators 0 --runs 3
    .venv/bin/python bench/ws_load.py --mode saturated --matches 50 --spectators 0 --frames full patch

The fourth one is the side-by-side harness's workload (3 players, no spectator):
CPU per action is the figure to optimise against on a shared box, where
actions/s move with the neighbours' load.  `--frames patch` opens the sockets
with ?frames=patch (difference frames, docs/api.md); with several values each
run measures each in turn, on fresh matches and a fresh server, and the
summary puts them side by side.  "frame B" is the average state or patch frame.

With --nginx the workers run as deploy/systemd/games@.service starts them and
the clients connect with wss:// through deploy/nginx/ rendered for free ports
(tests/support/deploy.py), which routes each match's sockets to one worker.

Needs PostgreSQL and Redis on 127.0.0.1 (the database is created and
migrated if missing).  Run it alone: it uses every core of the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.deploy import Nginx, Worker, tls_context
from tests.support.servers import Daphne, free_port
from backend.matches import patches
from tests.support.wsclient import ConnectionClosed, WebSocket

LAYERS = {
    "pubsub": "channels_redis.pubsub.RedisPubSubChannelLayer",
    "core": "channels_redis.core.RedisChannelLayer",
}
# The server writes each state message as {"type":"state","version":N,"seat":S,"status":"...",...}.
STATE_HEAD = re.compile(r'\{"type":"state","version":(\d+),"seat":(?:\d+|null),"status":"(\w+)"')
NO_LEGAL = ',"legal_actions":[],"events":'
try:
    from ujson import loads  # autobahn's dependency: about 2x the standard parser
except ImportError:
    from json import loads
RUN = uuid.uuid4().hex[:12]  # action ids: unique per run without a uuid4 per action
ACTION_IDS = itertools.count()
MERCENARY = {"m1": 1, "m2": 2, "m3": 3, "m4": 4, "m5": 5, "m6": 6, "m10": 10}


def choose(legal: list[dict], rng: random.Random) -> dict:
    """A quick player: strongest mercenary, else anything (ends battles briskly)."""
    mercenaries = [a for a in legal if a["type"] == "play" and a.get("card") in MERCENARY and "take" not in a]
    if mercenaries and rng.random() < 0.8:
        return max(mercenaries, key=lambda a: MERCENARY[a["card"]])
    return rng.choice(legal)


# ---- server side ---------------------------------------------------------------
def server_env(args) -> dict:
    env = dict(os.environ)
    env.update(
        DATABASE_URL=args.db_url, REDIS_URL=args.redis_url, CHANNEL_LAYER_BACKEND=LAYERS[args.layer],
        DJANGO_DEBUG="0", LOG_LEVEL="WARNING", BOT_DELAY="0",
        MATCH_WS_RATE="1000", MATCH_WS_BURST="1000", PYTHONUNBUFFERED="1",
        # Every client of the benchmark comes from 127.0.0.1.
        MATCH_SOCKETS_PER_ADDRESS="1000000", MATCH_SOCKETS_PER_USER="1000000",
    )
    return env


def prepare_database(env: dict, db_url: str) -> None:
    name = db_url.rsplit("/", 1)[1]
    subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", name], check=False, capture_output=True)
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)


def time_control(text: str) -> dict:
    """`none`, `realtime:BANK_S:INCREMENT_S` or `turn_based:PER_MOVE_S` as the lobby's time_control."""
    kind, *numbers = text.split(":")
    fields = {"none": [], "realtime": ["bank_s", "increment_s"], "turn_based": ["per_move_s"]}
    if kind not in fields or len(numbers) != len(fields[kind]):
        raise argparse.ArgumentTypeError("none, realtime:BANK_S:INCREMENT_S or turn_based:PER_MOVE_S")
    return {"kind": kind, **{k: int(v) for k, v in zip(fields[kind], numbers)}}


def create_matches(m: int, seed: int, control: dict) -> list[dict]:
    """M matches of 3 fresh users each (no password hashing: token auth only)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from rest_framework.authtoken.models import Token

    from backend.accounts.models import fold
    from backend.matches.services import create_match

    User = get_user_model()
    run = uuid.uuid4().hex[:8]
    unusable = make_password(None)
    users = User.objects.bulk_create(User(username=f"b{run}-{i}", username_key=fold(f"b{run}-{i}"), password=unusable)
                                     for i in range(3 * m))
    tokens = Token.objects.bulk_create(Token(user=u, key=Token.generate_key()) for u in users)
    out = []
    for i in range(m):
        match = create_match("condottiere", {"points": True, "points_target": 200},
                             users[3 * i:3 * i + 3], seed + i, True, time_control=control)
        out.append({"id": match.pk, "tokens": [t.key for t in tokens[3 * i:3 * i + 3]]})
    return out


def db_counters(db_url: str) -> tuple[int, int]:
    """(transactions, table accesses) of the benchmark database so far.

    The server sends its statements in autocommit, one transaction each (an
    action is one UPDATE-and-INSERT statement), so committed plus rolled-back
    transactions count the statements it sent.  Table accesses (index and
    sequential scans plus inserted log rows, from pg_stat_user_tables) also
    count the foreign-key check PostgreSQL runs inside the INSERT."""
    import psycopg

    with psycopg.connect(db_url, autocommit=True) as conn:
        xacts = conn.execute("SELECT xact_commit + xact_rollback FROM pg_stat_database "
                             "WHERE datname = current_database()").fetchone()[0]
        tables = conn.execute(
            "SELECT coalesce(sum(coalesce(seq_scan,0) + coalesce(idx_scan,0)), 0) + coalesce(sum(n_tup_ins) "
            "FILTER (WHERE relname = 'matches_actionlog'), 0) FROM pg_stat_user_tables "
            "WHERE relname IN ('matches_match', 'matches_actionlog', 'matches_matchseat')"
        ).fetchone()[0]
    return int(xacts), int(tables)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def postgres_backends(db_name: str) -> list[int]:
    """PIDs of the PostgreSQL backends connected to `db_name` (their command
    line reads "postgres: [cluster: ]user db host(port) state")."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            words = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").split()
        except OSError:
            continue
        if words and words[0] == "postgres:" and db_name in words[2:4]:
            found.append(int(entry.name))
    return found


def postgres_cpu(db_name: str) -> dict[int, float]:
    out = {}
    for pid in postgres_backends(db_name):
        try:
            out[pid] = cpu_seconds(pid)
        except OSError:  # ended meanwhile
            pass
    return out


def postgres_cpu_delta(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU the backends used between two readings; a backend that began in
    between counts whole, one that ended in between is missed."""
    return sum(cpu - before.get(pid, 0.0) for pid, cpu in after.items())


def main_thread_cpu_seconds(pid: int) -> float:
    """CPU of Daphne's event-loop thread alone (the rest is DB worker threads)."""
    return cpu_seconds(pid) if not Path(f"/proc/{pid}/task/{pid}/stat").exists() else _task_cpu(pid, pid)


def _task_cpu(pid: int, tid: int) -> float:
    fields = Path(f"/proc/{pid}/task/{tid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


DAPHNE_LOG = Path("/tmp/ws_load_daphne.log")


def start_daphne(env: dict, profile: str | None = None) -> Daphne:
    if not profile:
        return Daphne(env, log=DAPHNE_LOG)
    port = free_port()
    argv = ["-b", "127.0.0.1", "-p", str(port), "backend.asgi:application"]
    code = ("import cProfile, sys; from daphne.cli import CommandLineInterface; "
            f"sys.argv = ['daphne'] + {argv!r}; "
            f"cProfile.run('CommandLineInterface.entrypoint()', {profile!r})")
    return Daphne(env, port, DAPHNE_LOG, argv=[], command=[sys.executable, "-c", code])


# ---- load generator ---------------------------------------------------------------
class Stats:
    def __init__(self):
        self.latencies: list[float] = []
        self.sent = self.applied = self.stale = self.other_errors = 0
        self.duplicates = 0
        self.measuring = False
        self.frames = self.frame_bytes = 0  # state and patch frames received in the window


class MatchDriver:
    """One match: 3 seats + the spectators; measures each version's spread."""

    def __init__(self, match: dict, args, stats: Stats, rng: random.Random):
        self.id, self.tokens, self.args, self.stats, self.rng = match["id"], match["tokens"], args, stats, rng
        self.clients: list = []
        self.versions: list[int] = [-1] * (3 + args.spectators)
        self.pending: dict[int, list] = {}  # target version -> [send time, clients holding it]
        self.next_send = 0.0
        self.latest = 0
        self.stop = False
        # Each socket is read from the moment it opens (Daphne closes a socket whose pings go unanswered
        # for 30 s, and connecting thousands over TLS takes longer); what arrives before the run starts
        # is held, the latest per socket, and handled when it starts.
        self.started = False
        self.held: dict[int, str] = {}
        self.listeners: list[asyncio.Task] = []
        self.path = f"/ws/matches/{self.id}/" + ("?frames=patch" if args.frames == "patch" else "")
        self.states: list[dict | None] = [None] * (3 + args.spectators)  # with patches: each client's state

    async def connect(self, ports: list[int], first: int) -> None:
        if self.args.nginx:  # one address; nginx routes the match to its worker
            for token in self.tokens + [None] * self.args.spectators:
                headers = {"Authorization": f"Token {token}"} if token else None
                self.clients.append(await WebSocket.connect(
                    "127.0.0.1", ports[0], self.path, origin=f"https://127.0.0.1:{ports[0]}",
                    headers=headers, tls=tls_context()))
            self.listeners = [asyncio.create_task(self._listen(i)) for i in range(len(self.clients))]
            return
        for i, token in enumerate(self.tokens + [None] * self.args.spectators):
            # With several server processes: all sockets of a match on one
            # process, as the proxy in deploy/README.md routes them (by match
            # id), or spread round-robin over them.
            port = ports[(first if self.args.route == "match" else first + i) % len(ports)]
            headers = {"Authorization": f"Token {token}"} if token else None
            self.clients.append(await WebSocket.connect("127.0.0.1", port, self.path, headers=headers))
        self.listeners = [asyncio.create_task(self._listen(i)) for i in range(len(self.clients))]

    async def run(self, index: int, start: float) -> None:
        self.next_send = start + (self.rng.random() if self.args.mode == "paced" else 0)
        self.started = True
        for i, text in sorted(self.held.items()):
            await self._handle(i, text)
        self.held.clear()
        await asyncio.gather(*self.listeners)

    async def _listen(self, i: int) -> None:
        ws = self.clients[i]
        try:
            while True:
                text = await ws.recv()
                if self.started:
                    await self._handle(i, text)
                elif text.startswith('{"type":"state"'):
                    self.held[i], self.states[i] = text, None
                elif text.startswith('{"type":"patch"'):  # before the run: kept up to date, handled at its start
                    state = self.states[i] = patches.apply(self.states[i] or loads(self.held[i]),
                                                           loads(text)["patch"], in_place=True)
                    self.held[i] = json.dumps(state)
        except (ConnectionClosed, asyncio.CancelledError):
            return

    async def _handle(self, i: int, text: str) -> None:
        # Lean parsing: the generator shares the cores with the server.
        # A state with no legal actions for this client only needs its
        # version, read from the fixed head the server writes; anything
        # else (or an unexpected head) is parsed in full.
        if self.stats.measuring and text.startswith(('{"type":"state"', '{"type":"patch"')):
            self.stats.frames += 1
            self.stats.frame_bytes += len(text.encode())
        head = STATE_HEAD.match(text)
        if head and NO_LEGAL in text and self.args.frames == "full":
            await self._on_state(i, {"version": int(head[1]), "legal_actions": [], "status": head[2]})
            return
        message = loads(text)
        kind = message["type"]
        if kind == "state":
            self.states[i] = message
            await self._on_state(i, message)
        elif kind == "patch":
            state = self.states[i]
            if state is None or state["version"] != message["base"]:
                self.stats.other_errors += 1
                print("a patch for another version:", message["base"], file=sys.stderr)
                await self.clients[i].send('{"type":"sync"}')
                return
            await self._on_state(i, patches.apply(state, message["patch"], in_place=True))
        elif kind == "error":
            if message["code"] == "stale_version":
                self.stats.stale += 1
            else:
                self.stats.other_errors += 1
                print("error:", message, file=sys.stderr)

    async def _on_state(self, i: int, message: dict) -> None:
        now = time.perf_counter()
        version = message["version"]
        if version <= self.versions[i]:
            self.stats.duplicates += 1
        self.versions[i] = max(self.versions[i], version)
        self.latest = max(self.latest, version)
        for target in [t for t in self.pending if t <= version]:
            entry = self.pending[target]
            entry[1].add(i)
            if len(entry[1]) == len(self.versions):
                del self.pending[target]
                if entry[2]:
                    self.stats.latencies.append(now - entry[0])
                self.stats.applied += 1
        legal = message["legal_actions"]
        if legal and not self.stop and message["status"] == "active":
            await self._act(i, version, legal)

    async def _act(self, i: int, version: int, legal: list) -> None:
        if self.args.mode == "paced":
            delay = self.next_send - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            if self.latest != version or self.stop:
                return  # someone else moved meanwhile; a newer state is coming
            self.next_send = max(self.next_send + 1.0, time.perf_counter() + 0.5)
        target = version + 1
        if target not in self.pending:
            self.pending[target] = [time.perf_counter(), set(), self.stats.measuring]
        self.stats.sent += 1
        await self.clients[i].send(json.dumps({"type": "action", "version": version, "id": f"{RUN}.{next(ACTION_IDS)}",
                                               "action": choose(legal, self.rng)}))


async def drive(args, matches: list[dict], ports: list[int], servers: list[Daphne]) -> dict:
    stats = Stats()
    rng = random.Random(args.seed)
    drivers = [MatchDriver(m, args, stats, random.Random(rng.random())) for m in matches]
    t0 = time.perf_counter()
    for chunk in range(0, len(drivers), 50):
        await asyncio.gather(*(d.connect(ports, chunk + j) for j, d in enumerate(drivers[chunk:chunk + 50])))
    connect_s = time.perf_counter() - t0
    start = time.perf_counter()
    tasks = [asyncio.create_task(d.run(i, start)) for i, d in enumerate(drivers)]
    await asyncio.sleep(args.warmup)
    stats.measuring = True
    db_name = args.db_url.rsplit("/", 1)[1]
    counters0, cpu0, applied0 = db_counters(args.db_url), sum(cpu_seconds(s.pid) for s in servers), stats.applied
    pg0 = postgres_cpu(db_name)
    own0 = sum(os.times()[:2])
    main0 = sum(main_thread_cpu_seconds(s.pid) for s in servers)
    t1 = time.perf_counter()
    spy = None
    if args.py_spy:  # a sampling profile of the (first) server during the window
        spy = subprocess.Popen([str(Path(sys.executable).with_name("py-spy")), "record", "-p", str(servers[0].pid),
                                "-d", str(int(args.seconds)), "-r", "250", "-f", "raw", "-o", args.py_spy,
                                "--nonblocking", *(["--gil"] if args.py_spy_gil else [])],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    await asyncio.sleep(args.seconds)
    if spy is not None:
        await asyncio.to_thread(spy.wait, 30)
    elapsed = time.perf_counter() - t1
    applied, cpu1 = stats.applied - applied0, sum(cpu_seconds(s.pid) for s in servers)
    pg_cpu = postgres_cpu_delta(pg0, postgres_cpu(db_name))
    own = sum(os.times()[:2]) - own0
    main_cpu = sum(main_thread_cpu_seconds(s.pid) for s in servers) - main0
    stats.measuring = False
    for d in drivers:
        d.stop = True
    await asyncio.sleep(3)  # let the last actions reach everyone
    lost = sum(len(d.pending) for d in drivers)
    behind = sum(1 for d in drivers for v in d.versions if v != max(d.versions))
    for d in drivers:
        for ws in d.clients:
            await ws.close()
    for task in tasks:
        task.cancel()
    await asyncio.sleep(11)  # PostgreSQL flushes idle backends' table statistics within 10 s
    counters = db_counters(args.db_url)
    # Minus the two transactions of each counters reading itself.
    statements = counters[0] - counters0[0] - 2
    table_accesses = counters[1] - counters0[1]
    lat = sorted(stats.latencies)

    def pct(p):
        return 1000 * lat[min(len(lat) - 1, int(p * len(lat)))] if lat else float("nan")

    return {
        "connect_s": connect_s, "actions": applied, "actions_per_s": applied / elapsed,
        "p50_ms": pct(0.50), "p95_ms": pct(0.95), "p99_ms": pct(0.99), "max_ms": 1000 * lat[-1] if lat else 0,
        "mean_ms": 1000 * statistics.fmean(lat) if lat else 0,
        "frame_bytes": stats.frame_bytes / max(1, stats.frames),
        "lost": lost, "clients_behind": behind, "duplicates": stats.duplicates,
        "stale": stats.stale, "errors": stats.other_errors,
        "statements_per_action": statements / max(1, applied),
        "table_accesses_per_action": table_accesses / max(1, applied),
        "server_cpu_ms_per_action": 1000 * (cpu1 - cpu0) / max(1, applied),
        "server_cpu_share": (cpu1 - cpu0) / elapsed,
        "main_thread_ms_per_action": 1000 * main_cpu / max(1, applied),
        "postgres_cpu_ms_per_action": 1000 * pg_cpu / max(1, applied),
        "generator_cpu_share": own / elapsed,
        "main_thread_share": main_cpu / elapsed,
        "match_ids": [m["id"] for m in matches],
    }


def verify_log(match_ids: list[int]) -> tuple[int, int]:
    """(matches whose log is not exactly versions 1..N, actions stored)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT m.id, m.version, count(l.id), coalesce(max(l.version), 0), count(DISTINCT l.version) "
            "FROM matches_match m LEFT JOIN matches_actionlog l ON l.match_id = m.id WHERE m.id = ANY(%s) "
            "GROUP BY m.id, m.version", [match_ids])
        rows = cursor.fetchall()
    bad = sum(1 for _, v, n, top, distinct in rows if not (v == n == top == distinct))
    return bad, sum(r[1] for r in rows)


async def main_async(args) -> None:
    env = server_env(args)
    os.environ.update({k: env[k] for k in ("DATABASE_URL", "REDIS_URL", "CHANNEL_LAYER_BACKEND", "DJANGO_DEBUG")})
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backend.settings")
    prepare_database(env, args.db_url)
    DAPHNE_LOG.write_text("")
    import django

    django.setup()
    kinds = args.frames
    results: dict[str, list] = {kind: [] for kind in kinds}
    for run in range(args.runs):
        # Each run: fresh matches on a fresh server (its warm-up included), each kind of frames in turn.
        for kind in kinds:
            args.frames = kind
            result = await one_run(args, env, args.seed + 1000 * run)
            report(args, result, run)
            results[kind].append(result)
    args.frames = kinds
    figures = (("actions_per_s", "actions/s"), ("p99_ms", "p99 ms"), ("max_ms", "max ms"),
               ("server_cpu_ms_per_action", "server CPU s per 1,000 actions"),
               ("main_thread_ms_per_action", "  its event-loop thread"),
               ("postgres_cpu_ms_per_action", "PostgreSQL CPU s per 1,000 actions"),
               ("statements_per_action", "statements/action"), ("frame_bytes", "frame B"))
    if args.runs > 1:
        for kind in kinds:
            print(f"frames={kind}, over {args.runs} runs (min / median / max):")
            for key, label in figures:
                values = sorted(r[key] for r in results[kind])
                print(f"  {label:36} {values[0]:.3f} / {statistics.median(values):.3f} / {values[-1]:.3f}")
    if len(kinds) > 1:
        print("side by side, medians:")
        print(f"  {'':36} " + " ".join(f"{kind:>10}" for kind in kinds))
        for key, label in figures:
            print(f"  {label:36} " + " ".join(f"{statistics.median(r[key] for r in results[kind]):10.3f}"
                                              for kind in kinds))


async def one_run(args, env: dict, seed: int) -> dict:
    matches = await asyncio.to_thread(create_matches, args.matches, seed, args.time_control)
    nginx = None
    if args.nginx:
        # Production settings, as deployed: behind nginx's TLS, X-Forwarded-Proto says https.
        env = dict(env, DJANGO_PRODUCTION="1", DJANGO_SECRET_KEY=uuid.uuid4().hex * 2, TRUSTED_PROXY_COUNT="1",
                   DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost")
        servers = [await asyncio.to_thread(Worker, env, DAPHNE_LOG) for _ in range(args.servers)]
        nginx = Nginx(Path(tempfile.mkdtemp(prefix="ws_load_nginx_")), [s.port for s in servers])
        await asyncio.to_thread(nginx.start)
        ports = [nginx.https_port]
    else:
        servers = [await asyncio.to_thread(start_daphne, env, args.profile) for _ in range(args.servers)]
        ports = [s.port for s in servers]
    try:
        result = await drive(args, matches, ports, servers)
    except Exception:
        print(DAPHNE_LOG.read_text()[-3000:], file=sys.stderr)
        raise
    finally:
        if nginx is not None:
            await asyncio.to_thread(nginx.stop)
        for server in servers:
            await asyncio.to_thread(server.stop)
    result["bad_logs"], result["stored"] = await asyncio.to_thread(verify_log, result.pop("match_ids"))
    return result


def report(args, result: dict, run: int) -> None:
    control = args.time_control["kind"] + "".join(f":{v}" for k, v in args.time_control.items() if k != "kind")
    clients = 3 + args.spectators
    print(f"mode={args.mode} M={args.matches} spectators={args.spectators} layer={args.layer} "
          f"servers={args.servers} route={'nginx (wss, by match)' if args.nginx else args.route} "
          f"time_control={control} seconds={args.seconds} frames={args.frames}"
          + (f" run={run + 1}/{args.runs}" if args.runs > 1 else ""))
    print(f"  actions/s        {result['actions_per_s']:.0f}  ({result['actions']} actions measured)")
    print(f"  latency ms       p50 {result['p50_ms']:.1f}  p95 {result['p95_ms']:.1f}  "
          f"p99 {result['p99_ms']:.1f}  max {result['max_ms']:.1f}  (send -> all {clients} clients hold it)")
    print(f"  lost updates     {result['lost']}  (actions some client never saw; clients behind at end: "
          f"{result['clients_behind']})")
    print(f"  duplicated       {result['duplicates']}  (a version delivered twice); log gaps/doubles in "
          f"{result['bad_logs']} matches; {result['stored']} actions stored")
    print(f"  stale_version    {result['stale']}  (simultaneous choices losing the race); other errors "
          f"{result['errors']}")
    print(f"  statements/action {result['statements_per_action']:.2f}  (transactions in pg_stat_database, "
          f"stale attempts included); table accesses/action {result['table_accesses_per_action']:.2f} "
          f"(with the FK check)")
    print(f"  server CPU       {result['server_cpu_ms_per_action']:.3f} s per 1,000 actions "
          f"(event-loop thread(s) {result['main_thread_ms_per_action']:.3f}); "
          f"{100 * result['server_cpu_share']:.0f}% of a core, event-loop thread(s) "
          f"{100 * result['main_thread_share']:.0f}%; load generator {100 * result['generator_cpu_share']:.0f}%")
    print(f"  PostgreSQL CPU   {result['postgres_cpu_ms_per_action']:.3f} s per 1,000 actions "
          f"(the benchmark database's backends)")
    print(f"  frames           {result['frame_bytes']:.0f} B on average (state or patch frame, payload)")
    print(f"  connect          {result['connect_s']:.1f} s for {clients * args.matches} sockets")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", choices=["paced", "saturated"], default="paced")
    parser.add_argument("--matches", "-m", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--spectators", type=int, default=1, help="spectator sockets per match (default 1)")
    parser.add_argument("--runs", type=int, default=1, help="repeat on fresh matches and a fresh server; "
                        "prints the spread of the figures")
    parser.add_argument("--warmup", type=float, default=3)
    parser.add_argument("--layer", choices=sorted(LAYERS), default="pubsub")
    parser.add_argument("--servers", type=int, default=1,
                        help="Daphne processes; each match's sockets are spread over them round-robin")
    parser.add_argument("--route", choices=["match", "socket"], default="match",
                        help="with --servers > 1: a match's sockets on one process (match) or spread (socket)")
    parser.add_argument("--nginx", action="store_true",
                        help="clients connect with wss:// through the shipped nginx config in front of --servers workers")
    parser.add_argument("--time-control", type=time_control, default={"kind": "none"},
                        help="none (default), realtime:BANK_S:INCREMENT_S or turn_based:PER_MOVE_S")
    parser.add_argument("--db-url", default="postgres://postgres@127.0.0.1:5432/helper4_bench")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/4")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--frames", nargs="+", choices=["full", "patch"], default=["full"],
                        help="whole state frames (default) or difference frames (?frames=patch); several: each in turn")
    parser.add_argument("--profile", metavar="FILE", help="run Daphne under cProfile, stats to FILE")
    parser.add_argument("--py-spy", metavar="FILE", help="py-spy record (raw, folded stacks) of Daphne in the window")
    parser.add_argument("--py-spy-gil", action="store_true", help="with --py-spy: only samples holding the GIL")
    args = parser.parse_args()
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
