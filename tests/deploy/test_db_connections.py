"""A worker on PostgreSQL holds a bounded number of connections, however many requests it serves.

Under ASGI every request runs in a thread of its own; with persistent
connections (the former DB_CONN_MAX_AGE) each left one open: about 80 calls
left 53 idle connections, and anonymous traffic alone exhausted PostgreSQL.
Now each process borrows from a pool of at most DB_POOL_MAX.
"""

from __future__ import annotations

import threading
import uuid
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest
from django.db import connection

from tests.support.deploy import Worker, fetch, with_application_name
from tests.support.servers import database_url, server_env

pytestmark = pytest.mark.django_db(transaction=True)
POOL = 4
CALLS = 500


def _connections(dsn: str, name: str) -> int:
    with psycopg.connect(dsn, autocommit=True) as conn:
        return conn.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", [name]).fetchone()[0]


def test_500_rest_calls_leave_a_bounded_number_of_connections(tmp_path, django_user_model):
    if connection.vendor != "postgresql":
        pytest.skip("about PostgreSQL connections (DATABASE_URL=postgres://...)")
    from rest_framework.authtoken.models import Token

    user = django_user_model.objects.create_user(username=f"pool{uuid.uuid4().hex[:8]}", password="x-long-pass-1")
    token = Token.objects.create(user=user).key
    name = f"games-{uuid.uuid4().hex[:8]}"  # this worker's connections, and only them
    dsn = database_url(connection.settings_dict, tmp_path / "unused.sqlite3")
    worker = Worker(server_env(with_application_name(dsn, name), DB_POOL_MAX=str(POOL), DB_POOL_MIN="1"),
                    tmp_path / "worker.log")
    peak, done = 0, threading.Event()

    def watch() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _connections(dsn, name))
            done.wait(0.02)

    # Anonymous and token-authenticated reads, 25 at a time.
    calls = [("/api/games/", None), ("/api/lobbies/", None), ("/api/matches/live/", None), ("/", None),
             ("/api/auth/me/", token), ("/api/matches/", token)]

    def call(i: int) -> int:
        path, key = calls[i % len(calls)]
        return fetch("GET", worker.url + path, headers={"Authorization": f"Token {key}"} if key else {})[0]

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        with ThreadPoolExecutor(25) as pool:
            statuses = list(pool.map(call, range(CALLS)))
        done.set()
        watcher.join()
        after = _connections(dsn, name)
    finally:
        done.set()
        worker.stop()
    assert statuses.count(200) == CALLS, {s: statuses.count(s) for s in set(statuses)}
    assert 1 <= peak <= POOL, peak
    assert after <= POOL, after
    assert _connections(dsn, name) == 0  # a stopped worker leaves none behind
