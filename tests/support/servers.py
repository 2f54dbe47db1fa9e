"""Real server processes for tests and benchmarks: a Daphne on a free port.

One launcher for everything that starts Daphne (the restart, presence and
wire tests, the browser tests, bench/ws_load.py).  Synchronous, so pytest
fixtures and asyncio code (through asyncio.to_thread) can both use it.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DAPHNE = Path(sys.executable).with_name("daphne")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def manage(env: dict, *args: str, timeout: float = 120) -> str:
    """Run manage.py with `env`; its stdout (fails on a non-zero exit)."""
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stderr[-3000:]}")
    return done.stdout


def server_env(database_url: str, **extra: str) -> dict:
    """The environment of a server process on `database_url`: fast bots, no
    rate limits in the way of scripted clients, unbuffered output."""
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(DATABASE_URL=database_url, BOT_DELAY="0", MATCH_WS_RATE="1000", MATCH_WS_BURST="1000",
               THROTTLE_LOBBY="100000/hour", PYTHONUNBUFFERED="1")
    env.update(extra)
    return env


_CROWD_SETUP = """
import json, uuid
from django.contrib.auth import get_user_model
from backend.matches.services import create_match
User = get_user_model()
ids = []
for m in range({matches}):
    users = [User.objects.create_user(username=f"crowd{{m}}-{{i}}-{{uuid.uuid4().hex[:6]}}") for i in range(3)]
    ids.append(create_match("condottiere", {{}}, users, m, True).pk)
print(json.dumps(ids))
"""


def crowd_setup(database: str, redis: str, matches: int) -> tuple[dict, list[int]]:
    """For the socket benchmarks: a migrated database with `matches` three-player
    Condottiere matches, and a server environment without the per-user and
    per-address socket caps (one script opens every socket). Returns the
    environment and the match ids."""
    env = server_env(database, REDIS_URL=redis, MATCH_SOCKETS_PER_USER="1000000",
                     MATCH_SOCKETS_PER_ADDRESS="1000000", LOG_LEVEL="WARNING", DJANGO_DEBUG="0")
    manage(env, "migrate", "--noinput", "-v", "0")
    out = manage(env, "shell", "-c", _CROWD_SETUP.format(matches=matches))
    return env, json.loads(out.strip().splitlines()[-1])


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def database_url(settings_dict: dict, sqlite_file: Path) -> str:
    """The test database's URL on PostgreSQL (transactional tests commit for
    real, so a server process sees their rows); else a fresh SQLite file."""
    if settings_dict["ENGINE"].endswith("postgresql"):
        s = settings_dict
        return f"postgres://{s['USER']}@{s['HOST']}:{s['PORT']}/{s['NAME']}"
    return f"sqlite:///{sqlite_file}"


class Daphne:
    """A Daphne process serving backend.asgi; use as a context manager or call stop()."""

    def __init__(self, env: dict, port: int | None = None, log: Path | None = None, argv: list[str] | None = None,
                 command: list[str] | None = None):
        self.port = port or free_port()
        self.log_path = log
        self.log = log.open("a") if log else subprocess.DEVNULL
        args = argv or ["-b", "127.0.0.1", "-p", str(self.port), "backend.asgi:application"]
        self.proc = subprocess.Popen((command or [str(DAPHNE)]) + args, cwd=ROOT, env=env,
                                     stdout=self.log, stderr=subprocess.STDOUT if log else subprocess.PIPE)
        self.wait_listening()

    @property
    def pid(self) -> int:
        return self.proc.pid

    def wait_listening(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"daphne exited with {self.proc.returncode}: {self._output()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.05)
        self.kill()
        raise RuntimeError("daphne did not start listening")

    def _output(self) -> str:
        if self.log_path is not None:
            return self.log_path.read_text()[-3000:]
        return self.proc.stderr.read().decode(errors="replace")[-3000:] if self.proc.stderr else ""

    def stop(self, timeout: float = 20) -> int:
        """SIGTERM, then SIGKILL after `timeout` seconds; the exit code."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.log_path is not None:
            self.log.close()
        return self.proc.returncode

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def __enter__(self) -> "Daphne":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
