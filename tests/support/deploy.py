"""Deployment pieces for tests, on top of servers.py and wsclient.py.

- `Worker`: a Daphne started with the command line of deploy/systemd/games@.service,
  whose JSON log lines a test can read and await
- `Nginx`: deploy/nginx/ rendered for test ports, paths and a self-signed certificate
- `RedisServer`: a Redis of the test's own (to stop, kill and restart at will)
- `fetch` and `Session` (cookies and CSRF) for REST over http or https
- `connect` (ws:// or wss:// URLs), `MatchViewer` and `play` for match sockets
- `with_application_name` and `terminate_backends`: one worker's PostgreSQL connections
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shlex
import signal
import socket
import ssl
import subprocess
import time
from http import client as httpclient
from pathlib import Path
from urllib.parse import urlsplit

from .servers import ROOT, Daphne, database_url, free_port, manage
from .wsclient import WebSocket

DEPLOY = ROOT / "deploy"
WORKER_UNIT = DEPLOY / "systemd" / "games@.service"


def _stop(proc: subprocess.Popen, sig: int, timeout: float) -> int:
    if proc.poll() is None:
        proc.send_signal(sig)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return proc.returncode


def _wait_for_port(port: int, proc: subprocess.Popen, what: str, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{what} did not listen on {port} within {timeout} s")


def migrated_database_url(settings_dict: dict, directory: Path) -> str:
    """servers.database_url, with the SQLite file migrated for a worker to use."""
    url = database_url(settings_dict, Path(directory) / "worker.sqlite3")
    if url.startswith("sqlite"):
        manage({**os.environ, "DATABASE_URL": url}, "migrate", "--noinput", "-v", "0")
    return url


# ---- workers as the systemd unit starts them -------------------------------------------------
def worker_argv(port: int, unit: Path = WORKER_UNIT) -> list[str]:
    """Daphne's arguments in the unit's ExecStart, for instance `port`."""
    line = next(l for l in unit.read_text().splitlines() if l.startswith("ExecStart="))
    argv = shlex.split(line.removeprefix("ExecStart=").replace("%i", str(port)))
    assert argv[0].endswith("/bin/daphne"), argv
    return argv[1:]


class Worker(Daphne):
    """A Daphne worker with the shipped unit's arguments; its output goes to `log`."""

    def __init__(self, env: dict, log: Path, port: int | None = None):
        port = port or free_port()
        super().__init__(env, port, Path(log), argv=worker_argv(port))

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def text(self) -> str:
        return self.log_path.read_text(errors="replace")

    def json_lines(self) -> list[dict]:
        """Every log line, each of which must be one JSON object (LOG_FORMAT=json)."""
        return [json.loads(line) for line in self.text().splitlines() if line.strip()]

    def wait_for_lines(self, predicate, count: int = 1, timeout: float = 10) -> list[dict]:
        """The JSON log lines matching `predicate`, once there are `count` of them
        (log lines are written as events happen; this is how a test awaits one)."""
        deadline = time.monotonic() + timeout
        while True:
            found = [line for line in self.json_lines() if predicate(line)]
            if len(found) >= count or time.monotonic() > deadline:
                return found
            time.sleep(0.05)

    def open_files(self) -> int:
        return len(os.listdir(f"/proc/{self.pid}/fd"))


# ---- Redis of a test's own ---------------------------------------------------------------
class RedisServer:
    def __init__(self, directory: Path, port: int | None = None):
        self.directory, self.port = Path(directory), port or free_port()
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> "RedisServer":
        self.proc = subprocess.Popen(
            ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", "", "--appendonly", "no",
             "--dir", str(self.directory), "--logfile", str(self.directory / f"redis-{self.port}.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _wait_for_port(self.port, self.proc, "redis-server")
        return self

    def stop(self) -> None:
        if self.proc:
            _stop(self.proc, signal.SIGTERM, 10)

    def kill(self) -> None:
        _stop(self.proc, signal.SIGKILL, 10)

    def __enter__(self) -> "RedisServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


# ---- nginx with the shipped configuration --------------------------------------------------
def self_signed_certificate(directory: Path) -> tuple[Path, Path]:
    cert, key = Path(directory) / "fullchain.pem", Path(directory) / "privkey.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    return cert, key


def _replace(text: str, pattern: str, new: str, count: int | None = None, name: str = "") -> str:
    """re.subn that insists the shipped file still has what a test renders."""
    out, n = re.subn(pattern, new, text, flags=re.M)
    if n == 0 or (count is not None and n != count):
        raise AssertionError(f"{name}: expected {count or 'some'} match(es) of {pattern!r}, found {n}")
    return out


def collect_static(static_root: Path) -> None:
    """collectstatic into `static_root`, as games-migrate.service runs it (the web app lands in app/)."""
    from django.core.management import call_command
    from django.test import override_settings

    with override_settings(STATIC_ROOT=str(static_root)):
        call_command("collectstatic", interactive=False, verbosity=0)


class Nginx:
    """deploy/nginx/{nginx,games,games-upstreams}.conf rendered into `directory`:
    the listen ports, the workers' ports, files and logs under the test's
    directories.  Everything else is the shipped text."""

    def __init__(self, directory: Path, workers: list[int], static_root: Path | None = None):
        self.dir = Path(directory)
        self.workers = workers
        self.http_port, self.https_port = free_port(), free_port()
        self.static_root = static_root or self.dir / "staticfiles"
        self.proc: subprocess.Popen | None = None
        self.conf = self.dir / "nginx.conf"

    def render(self) -> Path:
        d = self.dir
        (d / "logs").mkdir(parents=True, exist_ok=True)
        (d / "acme").mkdir(exist_ok=True)
        self.static_root.mkdir(parents=True, exist_ok=True)
        collect_static(self.static_root)
        cert, key = self_signed_certificate(d)

        upstreams = (DEPLOY / "nginx" / "games-upstreams.conf").read_text()
        servers = "".join(f"    server 127.0.0.1:{p};\n" for p in self.workers)
        upstreams = _replace(upstreams, r"^(    server 127\.0\.0\.1:\d+;\n)+", servers, 2, "games-upstreams.conf")
        (d / "games-upstreams.conf").write_text(upstreams)

        site = (DEPLOY / "nginx" / "games.conf").read_text()
        for pattern, new, count in (
            (r"^include /etc/nginx/games-upstreams\.conf;", f"include {d / 'games-upstreams.conf'};", 1),
            (r"^    listen \[::\]:\d+.*\n", "", 2),  # no IPv6 needed on a test box
            (r"^    listen 80;", f"    listen 127.0.0.1:{self.http_port};", 1),
            (r"^    listen 443 ssl", f"    listen 127.0.0.1:{self.https_port} ssl", 1),
            (r"/etc/letsencrypt/live/games\.example\.org/fullchain\.pem", str(cert), 1),
            (r"/etc/letsencrypt/live/games\.example\.org/privkey\.pem", str(key), 1),
            (r"/var/log/nginx/", f"{d / 'logs'}/", 2),
            (r"/var/www/acme", str(d / "acme"), 1),
            (r"/srv/games/app/staticfiles/", f"{self.static_root}/", 2),
        ):
            site = _replace(site, pattern, new, count, "games.conf")
        (d / "games.conf").write_text(site)

        main = (DEPLOY / "nginx" / "nginx.conf").read_text()
        temp = "".join(f"    {name}_temp_path {d / name};\n" for name in ("client_body", "proxy", "fastcgi", "uwsgi",
                                                                            "scgi"))
        for pattern, new in (
            (r"^pid /run/nginx\.pid;", f"pid {d / 'nginx.pid'};"),
            (r"^error_log /var/log/nginx/error\.log", f"error_log {d / 'logs' / 'error.log'}"),
            (r"^    include /etc/nginx/conf\.d/\*\.conf;", f"{temp}    include {d / 'games.conf'};"),
        ):
            main = _replace(main, pattern, new, 1, "nginx.conf")
        if os.geteuid() == 0:
            # The test's files are private to root; the workers must read them.
            main = "user root;\n" + main
        self.conf.write_text(main)
        return self.conf

    def check(self) -> str:
        """`nginx -t` on the rendered files; its output."""
        done = subprocess.run(["nginx", "-t", "-c", str(self.conf), "-p", str(self.dir)], capture_output=True,
                              text=True)
        if done.returncode:
            raise AssertionError(f"nginx -t failed:\n{done.stderr}")
        return done.stderr

    def start(self) -> "Nginx":
        if not self.conf.exists():
            self.render()
        self.proc = subprocess.Popen(["nginx", "-c", str(self.conf), "-p", str(self.dir), "-g", "daemon off;"],
                                     stdout=subprocess.DEVNULL, stderr=(self.dir / "stderr.log").open("ab"))
        _wait_for_port(self.https_port, self.proc, "nginx")
        _wait_for_port(self.http_port, self.proc, "nginx")
        return self

    def stop(self) -> None:
        if self.proc:
            _stop(self.proc, signal.SIGQUIT, 10)  # graceful: let open requests finish

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.https_port}"

    def access_log(self, *expected: str, timeout: float = 10) -> str:
        """The access log, once it holds every `expected` string (nginx writes a
        request's line after its response has gone, a socket's when it closes)."""
        path = self.dir / "logs" / "games.access.log"
        deadline = time.monotonic() + timeout
        while True:
            text = path.read_text(errors="replace") if path.exists() else ""
            if all(e in text for e in expected) or time.monotonic() > deadline:
                return text
            time.sleep(0.05)

    def __enter__(self) -> "Nginx":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


# ---- clients ---------------------------------------------------------------------------------
def tls_context() -> ssl.SSLContext:
    """The test's self-signed certificate is not verified; the tests are about what flows over TLS."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def fetch(method: str, url: str, body: dict | bytes | None = None, headers: dict | None = None,
          timeout: float = 10):
    """(status, headers, body) of one request; a dict body is sent as JSON. The
    headers are an http.client.HTTPMessage: case-insensitive, get_all() for Set-Cookie."""
    parts = urlsplit(url)
    if parts.scheme == "https":
        conn = httpclient.HTTPSConnection(parts.hostname, parts.port, timeout=timeout, context=tls_context())
    else:
        conn = httpclient.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    headers = dict(headers or {})
    if isinstance(body, dict):
        body = json.dumps(body).encode()
        headers.setdefault("Content-Type", "application/json")
    try:
        conn.request(method, parts.path + (f"?{parts.query}" if parts.query else ""), body=body, headers=headers)
        response = conn.getresponse()
        return response.status, response.headers, response.read()
    finally:
        conn.close()


class Session:
    """A REST client that keeps cookies and sends Django's CSRF token, like the web app."""

    def __init__(self, base: str):
        self.base = base
        self.cookies: dict[str, str] = {}

    def call(self, method: str, path: str, body: dict | None = None, headers: dict | None = None):
        """(status, parsed JSON body or None)."""
        headers = dict(headers or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if method != "GET" and "csrftoken" in self.cookies:
            headers["X-CSRFToken"] = self.cookies["csrftoken"]
        status, answer, data = fetch(method, self.base + path, body, headers)
        for cookie in answer.get_all("Set-Cookie") or []:
            name, _, value = cookie.split(";", 1)[0].partition("=")
            self.cookies[name.strip()] = value.strip()
        return status, (json.loads(data) if data and answer.get_content_type() == "application/json" else None)


async def connect(url: str, token: str | None = None, origin: str | None = None) -> WebSocket:
    """A WebSocket to ws://host:port/path?query or wss://...; an API token goes in a header, as scripts send it.
    The origin defaults to the server's own."""
    parts = urlsplit(url)
    secure = parts.scheme == "wss"
    target = parts.path + (f"?{parts.query}" if parts.query else "")
    origin = origin or f"{'https' if secure else 'http'}://{parts.netloc}"
    return await WebSocket.connect(parts.hostname, parts.port, target, origin=origin,
                                   headers={"Authorization": f"Token {token}"} if token else None,
                                   tls=tls_context() if secure else None)


def with_application_name(database_url: str, name: str) -> str:
    """The URL with a libpq application_name, so a test can find (or terminate) one worker's connections."""
    return f"{database_url}{'&' if '?' in database_url else '?'}application_name={name}"


def terminate_backends(database_url: str, application_name: str) -> int:
    """pg_terminate_backend on every connection named `application_name`; how many there were."""
    import psycopg

    with psycopg.connect(database_url.split("?")[0], autocommit=True) as conn:
        return conn.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                            "WHERE application_name = %s AND pid <> pg_backend_pid()", [application_name]).fetchone()[0]



class MatchViewer:
    """One socket on /ws/matches/<id>/: the latest state and every version received, in order."""

    def __init__(self, ws: WebSocket):
        self.ws, self.state, self.versions = ws, None, []
        self.received: list[str] = []  # every state message, as sent

    @classmethod
    async def join(cls, url: str, token: str | None = None) -> "MatchViewer":
        """Connect (with an API token, sent as scripts do: a header) and await the first state."""
        viewer = cls(await connect(url, token))
        await viewer.until(0)
        return viewer

    async def until(self, version: int, timeout: float = 10) -> dict:
        """Receive until this socket holds `version` (an error message fails)."""
        while self.state is None or self.state["version"] < version:
            raw = await asyncio.wait_for(self.ws.recv(), timeout)
            message = json.loads(raw)
            if message["type"] == "error":
                raise AssertionError(message)
            if message["type"] == "state":
                self.received.append(raw)
                self.state = message
                self.versions.append(message["version"])
        return self.state

    async def act(self, action: dict) -> None:
        await self.ws.send(json.dumps({"type": "action", "version": self.state["version"], "id": os.urandom(16).hex(),
                                       "action": action}))


async def play(seats: list[MatchViewer], watchers: list[MatchViewer], choose, limit: int) -> int:
    """One action at a time, chosen by `choose(legal_actions)` for the first seat that may act, until the
    match ends or `limit` actions; every viewer is awaited at each version.  The last version."""
    version = seats[0].state["version"]
    while seats[0].state["status"] == "active" and limit:
        mover = next(s for s in seats if s.state["legal_actions"])
        await mover.act(choose(mover.state["legal_actions"]))
        version, limit = version + 1, limit - 1
        for viewer in seats + watchers:
            await viewer.until(version)
    return version
