"""Real processes for tests and benchmarks, started as production starts them.

- `Daphne`: a worker with the command line of deploy/systemd/games@.service
- `Nginx`: deploy/nginx/ rendered for test ports, paths and a self-signed certificate
- `RedisServer`: a Redis of the test's own (to stop, kill and restart at will)
- `WebSocket`: a small RFC 6455 client (ws:// and wss://), standard library only;
  `MatchViewer` and `play` on top of it for match sockets
- `terminate_backends`: PostgreSQL drops a worker's connections (pg_terminate_backend)
- `fetch` and `Session` (cookies and CSRF) for REST; `server_env`, `shared_database_url`, `manage`, `free_port`

This is the one place for these: tests/platform/test_ws_restart.py,
tests/browser/conftest.py and bench/ws_load.py still start Daphne their own
way, and backend/matches/client.py still holds a client; they can move here.
Nothing here imports Django, so a benchmark or a script can use it as is.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import os
import re
import shlex
import signal
import socket
import ssl
import struct
import subprocess
import sys
import time
from pathlib import Path
from http import client as httpclient
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
WORKER_UNIT = DEPLOY / "systemd" / "games@.service"
BIN = Path(sys.executable).parent  # the running virtualenv's bin/


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, proc: subprocess.Popen | None = None, timeout: float = 30, what: str = "server") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{what} did not listen on {port} within {timeout} s")


def _stop(proc: subprocess.Popen, sig: int, timeout: float) -> int:
    if proc.poll() is None:
        proc.send_signal(sig)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return proc.returncode


# ---- the application's environment ---------------------------------------------------------
def server_env(database_url: str, redis_url: str = "", **settings: str) -> dict:
    """A worker's environment: this one's, with the database and channel layer
    given, bots without delay, no rate limit for scripted players, and
    `settings` (environment variables of backend/settings.py) on top."""
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(DATABASE_URL=database_url, REDIS_URL=redis_url, BOT_DELAY="0", MATCH_WS_RATE="1000",
               MATCH_WS_BURST="1000", DJANGO_DEBUG="0", LOG_LEVEL="WARNING", PYTHONUNBUFFERED="1")
    env.update(settings)
    return env


def with_application_name(database_url: str, name: str) -> str:
    """The URL with a libpq application_name, so a test can find (or terminate) one worker's connections."""
    return f"{database_url}{'&' if '?' in database_url else '?'}application_name={name}"


def terminate_backends(database_url: str, application_name: str) -> int:
    """pg_terminate_backend on every connection named `application_name`; how many there were."""
    import psycopg

    with psycopg.connect(database_url.split("?")[0], autocommit=True) as conn:
        return conn.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                            "WHERE application_name = %s AND pid <> pg_backend_pid()", [application_name]).fetchone()[0]


def manage(env: dict, *args: str, timeout: float = 120) -> str:
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=timeout)
    if done.returncode:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stderr[-3000:]}")
    return done.stdout


def shared_database_url(settings_dict: dict, directory: Path) -> str:
    """A database a worker can share with the test: the test database itself on
    PostgreSQL (transactional tests commit for real), else a migrated SQLite
    file in `directory`."""
    if settings_dict["ENGINE"].endswith("postgresql"):
        s = settings_dict
        auth = s["USER"] + (f":{s['PASSWORD']}" if s.get("PASSWORD") else "")
        return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"
    url = f"sqlite:///{directory / 'worker.sqlite3'}"
    manage(server_env(url), "migrate", "--noinput", "-v", "0")
    return url


# ---- Daphne as the systemd unit starts it --------------------------------------------------
def worker_argv(port: int, unit: Path = WORKER_UNIT) -> list[str]:
    """The unit's ExecStart for instance `port`, with this virtualenv's daphne."""
    line = next(l for l in unit.read_text().splitlines() if l.startswith("ExecStart="))
    argv = shlex.split(line.removeprefix("ExecStart=").replace("%i", str(port)))
    assert argv[0].endswith("/bin/daphne"), argv
    return [str(BIN / "daphne"), *argv[1:]]


class Daphne:
    """One worker on 127.0.0.1:`port`; its stdout and stderr go to `log_path`."""

    def __init__(self, env: dict, log_path: Path, port: int | None = None):
        self.env, self.log_path, self.port = env, Path(log_path), port or free_port()
        self.proc: subprocess.Popen | None = None

    def start(self, timeout: float = 30) -> "Daphne":
        with self.log_path.open("ab") as log:
            self.proc = subprocess.Popen(worker_argv(self.port), cwd=ROOT, env=self.env, stdout=log,
                                         stderr=subprocess.STDOUT)
        try:
            wait_for_port(self.port, self.proc, timeout, what="daphne")
        except RuntimeError as exc:
            raise RuntimeError(f"{exc}\n{self.log()[-3000:]}") from None
        return self

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self, timeout: float = 20) -> int:
        """SIGTERM, as systemd stops it; the exit status."""
        return _stop(self.proc, signal.SIGTERM, timeout) if self.proc else 0

    def kill(self) -> None:
        _stop(self.proc, signal.SIGKILL, 10)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def json_lines(self) -> list[dict]:
        """Every log line, each of which must be one JSON object (LOG_FORMAT=json)."""
        return [json.loads(line) for line in self.log().splitlines() if line.strip()]

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

    def __enter__(self) -> "Daphne":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


# ---- Redis of a test's own -------------------------------------------------------------------
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
        wait_for_port(self.port, self.proc, 10, what="redis-server")
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
            (r"/srv/games/app/staticfiles/", f"{self.static_root}/", 1),
            (r"/srv/games/app/frontend/", f"{ROOT / 'frontend'}/", 1),
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
        wait_for_port(self.https_port, self.proc, 10, what="nginx")
        wait_for_port(self.http_port, self.proc, 10, what="nginx")
        return self

    def stop(self) -> None:
        if self.proc:
            _stop(self.proc, signal.SIGQUIT, 10)  # graceful: let open requests finish

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.https_port}"

    def access_log(self) -> str:
        path = self.dir / "logs" / "games.access.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def __enter__(self) -> "Nginx":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


# ---- clients ---------------------------------------------------------------------------------
def _tls() -> ssl.SSLContext:
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
        conn = httpclient.HTTPSConnection(parts.hostname, parts.port, timeout=timeout, context=_tls())
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


class ConnectionClosed(Exception):
    def __init__(self, code: int | None):
        super().__init__(f"WebSocket closed ({code})")
        self.code = code


class WebSocket:
    """One client connection: text messages each way, pings answered, close codes kept."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, headers: dict):
        self.reader, self.writer, self.headers = reader, writer, headers
        self.buffer = bytearray()
        self.close_code: int | None = None
        self.closed = self.close_sent = False

    @classmethod
    async def connect(cls, url: str, origin: str | None = None, headers: dict | None = None,
                      timeout: float = 10) -> "WebSocket":
        """`url` is ws://host:port/path?query or wss://...; the origin defaults to the server's own."""
        parts = urlsplit(url)
        secure = parts.scheme == "wss"
        port = parts.port or (443 if secure else 80)
        reader, writer = await asyncio.wait_for(asyncio.open_connection(
            parts.hostname, port, ssl=_tls() if secure else None), timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        target = parts.path + (f"?{parts.query}" if parts.query else "")
        lines = [f"GET {target} HTTP/1.1", f"Host: {parts.netloc}", "Upgrade: websocket", "Connection: Upgrade",
                 f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13",
                 f"Origin: {origin or ('https://' if secure else 'http://') + parts.netloc}"]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        head = (await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)).decode("latin1")
        status, *fields = head.split("\r\n")
        answer = {k.strip().lower(): v.strip() for k, _, v in (f.partition(":") for f in fields if f)}
        expected = base64.b64encode(hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode())
                                    .digest()).decode()
        if status.split(" ")[1:2] != ["101"] or answer.get("sec-websocket-accept") != expected:
            writer.close()
            raise ConnectionClosed(int(status.split(" ")[1]) if status.split(" ")[1:2] else None)
        return cls(reader, writer, answer)

    async def send(self, message: str | dict) -> None:
        self._write(0x1, (message if isinstance(message, str) else json.dumps(message)).encode())
        await self.writer.drain()

    def _write(self, opcode: int, payload: bytes) -> None:
        n = len(payload)
        length = bytes([0x80 | n]) if n < 126 else (
            struct.pack("!BH", 0x80 | 126, n) if n < 1 << 16 else struct.pack("!BQ", 0x80 | 127, n))
        mask = os.urandom(4)
        key = int.from_bytes((mask * (n // 4 + 1))[:n], "big")
        masked = (int.from_bytes(payload, "big") ^ key).to_bytes(n, "big") if n else b""
        self.writer.write(bytes([0x80 | opcode]) + length + mask + masked)

    async def recv(self, timeout: float = 10) -> str:
        """The next text message; ConnectionClosed (with the code) when the connection ends."""
        return await asyncio.wait_for(self._recv(), timeout)

    async def recv_json(self, timeout: float = 10) -> dict:
        return json.loads(await self.recv(timeout))

    async def _recv(self) -> str:
        message = bytearray()
        while True:
            fin, opcode, payload = await self._frame()
            if opcode == 0x8:
                self.close_code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
                await self._answer_close()
                raise ConnectionClosed(self.close_code)
            if opcode == 0x9:
                self._write(0xA, payload)
            elif opcode in (0x0, 0x1, 0x2):
                message += payload
                if fin:
                    return message.decode()

    async def _frame(self) -> tuple[bool, int, bytes]:
        """One whole frame from the buffer, reading as much as has arrived at a time."""
        while True:
            buf = self.buffer
            if len(buf) >= 2:
                size, offset = buf[1] & 0x7F, 2
                if size == 126 and len(buf) >= 4:
                    size, offset = struct.unpack_from("!H", buf, 2)[0], 4
                elif size == 127 and len(buf) >= 10:
                    size, offset = struct.unpack_from("!Q", buf, 2)[0], 10
                if size < 126 or offset > 2:
                    end = offset + size
                    if len(buf) >= end:
                        frame = (bool(buf[0] & 0x80), buf[0] & 0x0F, bytes(buf[offset:end]))
                        del buf[:end]
                        return frame
            chunk = await self.reader.read(65536) if not self.closed else b""
            if not chunk:
                self.closed = True
                raise ConnectionClosed(self.close_code or 1006)
            buf += chunk

    async def _answer_close(self) -> None:
        self.closed = True
        if not self.close_sent:
            self.close_sent = True
            try:
                self._write(0x8, struct.pack("!H", self.close_code or 1000))
                await self.writer.drain()
            except (ConnectionError, RuntimeError):
                pass
        self.writer.close()

    async def close(self, code: int = 1000) -> None:
        """Send a close frame and wait (briefly) for the server's."""
        if not self.closed:
            self.close_sent = True
            self._write(0x8, struct.pack("!H", code))
            try:
                await self.writer.drain()
                while True:
                    await self.recv(5)
            except (ConnectionClosed, ConnectionError, asyncio.TimeoutError):
                pass
        self.closed = True
        self.writer.close()


class MatchViewer:
    """One socket on /ws/matches/<id>/: the latest state and every version received, in order."""

    def __init__(self, ws: WebSocket):
        self.ws, self.state, self.versions = ws, None, []
        self.received: list[str] = []  # every state message, as sent

    @classmethod
    async def join(cls, url: str, token: str | None = None) -> "MatchViewer":
        """Connect (with an API token, sent as scripts do: a header) and await the first state."""
        viewer = cls(await WebSocket.connect(url, headers={"Authorization": f"Token {token}"} if token else None))
        await viewer.until(0)
        return viewer

    async def until(self, version: int, timeout: float = 10) -> dict:
        """Receive until this socket holds `version` (an error message fails)."""
        while self.state is None or self.state["version"] < version:
            raw = await self.ws.recv(timeout)
            message = json.loads(raw)
            if message["type"] == "error":
                raise AssertionError(message)
            if message["type"] == "state":
                self.received.append(raw)
                self.state = message
                self.versions.append(message["version"])
        return self.state

    async def act(self, action: dict) -> None:
        await self.ws.send({"type": "action", "version": self.state["version"], "id": os.urandom(16).hex(),
                            "action": action})


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
