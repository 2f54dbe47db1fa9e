"""End to end (issue 28): a daily match between two players over a real Daphne, player B's tab
closed, the real notify worker as a process of its own. Each move of A's that hands B the turn
reaches B's device (a local stand-in for the push service, which decrypts it) within 10 s of the
move, and B's e-mail digest too; the worker is killed (SIGKILL) in the middle, A moves while none
runs, and that notice comes within 10 s of a new worker's start; in the end every notice was sent
exactly once."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest
from django.db import connection

from backend.notifications.keys import new_keys
from tests.support.push import PushService
from tests.support.servers import ROOT, Daphne, database_url, manage, server_env

from .test_ws_restart import Remote

pytestmark = pytest.mark.django_db(transaction=True)

SETUP = """
import json
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from backend.matches.services import create_match
from backend.notifications import services
from backend.notifications.models import Preferences
User = get_user_model()
b = User.objects.create_user(username="bea", password="x-long-pass-123", email="bea@example.com", language="hu")
a = User.objects.create_user(username="adam", password="x-long-pass-123")
services.add_device(b, %(endpoint)r, %(p256dh)r, %(auth)r, "phone")
Preferences.objects.create(user=b, push=["your_move"], email=["your_move"])
match = create_match("condottiere", {}, [b, a], 5, True, {"kind": "turn_based", "per_move_s": 86400})
print(json.dumps({"match": match.pk, "a": Token.objects.create(user=a).key, "b": Token.objects.create(user=b).key}))
"""

CHECK = """
import json
from backend.notifications.models import Outbox
rows = Outbox.objects.filter(kind="your_move").order_by("version")
print(json.dumps([[r.user.username, r.version, r.attempts, r.sent_to, r.done_at is not None] for r in rows]))
"""


class NotifyWorker:
    """manage.py notify_worker as a process; `ready` is set once it says it started (its log, line by line)."""

    def __init__(self, env: dict, log: Path):
        self.log = log
        self.ready = threading.Event()
        self.proc = subprocess.Popen([sys.executable, "manage.py", "notify_worker"], cwd=ROOT, env=env, text=True,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        with self.log.open("a") as out:
            for line in self.proc.stdout:
                out.write(line)
                out.flush()
                if "notify worker started" in line:
                    self.ready.set()

    async def started(self) -> None:
        assert await asyncio.to_thread(self.ready.wait, 60), self.log.read_text()[-2000:]

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self.reader.join(10)

    def stop(self) -> int:
        self.proc.terminate()
        code = self.proc.wait(20)
        self.reader.join(10)
        return code


async def _move(remote: Remote, version: int) -> float:
    """Send the first legal action; the monotonic time it was sent."""
    sent = time.monotonic()
    await remote.ws.send(json.dumps({"type": "action", "version": version, "id": uuid.uuid4().hex,
                                     "action": remote.state["legal_actions"][0]}))
    await remote.until(version + 1)
    return sent


async def _b_moves(port: int, match_id: int, token: str, a: Remote, version: int) -> None:
    """B opens the match, moves, and closes the tab again."""
    b = await Remote.join(port, match_id, token)
    await b.until(version)
    await _move(b, version)
    await b.ws.close()
    await a.until(version + 1)


def _mails(folder: Path) -> list[str]:
    return sorted(p.read_text() for p in folder.glob("*")) if folder.exists() else []


async def test_a_move_reaches_the_closed_tab_within_10_s_and_a_killed_worker_loses_nothing(tmp_path):
    push = PushService()
    device = push.device("bea")
    private, public = new_keys()
    mail_dir = tmp_path / "mail"
    env = server_env(database_url(connection.settings_dict, tmp_path / "db.sqlite3"),
                     VAPID_PRIVATE_KEY=private, VAPID_PUBLIC_KEY=public, NOTIFY_PUSH_HOSTS="127.0.0.1",
                     NOTIFY_PUSH_ALLOW_HTTP="1", NOTIFY_POLL_S="0.2",
                     EMAIL_BACKEND="django.core.mail.backends.filebased.EmailBackend", EMAIL_FILE_PATH=str(mail_dir))
    if connection.vendor != "postgresql":
        await asyncio.to_thread(manage, env, "migrate", "--noinput", "-v", "0")
    sub = device.subscription()
    made = json.loads((await asyncio.to_thread(manage, env, "shell", "-c", SETUP % {
        "endpoint": sub["endpoint"], "p256dh": sub["keys"]["p256dh"], "auth": sub["keys"]["auth"]})).splitlines()[-1])
    match_id = made["match"]
    server = await asyncio.to_thread(Daphne, env)
    worker = NotifyWorker(env, tmp_path / "worker.log")
    latencies = []  # seconds from a move (or, for the one made while no worker ran, the new worker's start)

    async def pushed(n: int, since: float) -> None:
        arrived = await asyncio.to_thread(push.wait, lambda s: len(s.received) >= n, 15)
        assert arrived, f"push {n} never came; worker log:\n{(tmp_path / 'worker.log').read_text()[-2000:]}"
        latencies.append(time.monotonic() - since)

    try:
        a = await Remote.join(server.port, match_id, made["a"])
        await worker.started()
        # Condottiere, seed 5, two seats: A (seat 1) places the token and plays, then B is asked.
        await _move(a, 0)
        sent = await _move(a, 1)
        assert a.state["view"]["to_move"] == [0]
        await pushed(1, sent)
        assert await asyncio.to_thread(lambda: _wait(lambda: len(_mails(mail_dir)) == 1, 10)), "no digest mail"

        await _b_moves(server.port, match_id, made["b"], a, 2)
        worker.kill()  # in the middle: between two notices
        await _move(a, 3)  # B's next turn is written while no worker runs
        worker = NotifyWorker(env, tmp_path / "worker.log")
        await worker.started()
        await pushed(2, time.monotonic())

        await _b_moves(server.port, match_id, made["b"], a, 4)
        sent = await _move(a, 5)
        await pushed(3, sent)
        await a.ws.close()
    finally:
        assert worker.stop() == 0
        server.stop()
        push.close()

    assert all(latency < 10 for latency in latencies), latencies
    bodies = [device.decrypt(body) for _, _, body in push.received]
    assert bodies == [{"title": "Te lépsz", "url": f"/match/{match_id}", "tag": f"match-{match_id}",
                       "body": f"Condottiere #{match_id} (adam): te lépsz."}] * 3
    rows = json.loads((await asyncio.to_thread(manage, env, "shell", "-c", CHECK)).splitlines()[-1])
    bea = [r for r in rows if r[0] == "bea"]
    assert [(v, attempts, len(sent_to), done) for _, v, attempts, sent_to, done in bea] == \
        [(2, 1, 1, True), (4, 1, 1, True), (6, 1, 1, True)]  # each claimed once, sent once
    assert len(push.attempts) == 3 and len(_mails(mail_dir)) == 1  # one digest for the day
    assert f"/match/{match_id}" in _mails(mail_dir)[0]


def _wait(predicate, timeout: float) -> bool:
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True
