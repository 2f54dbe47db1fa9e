"""The deployed stack for tests: two workers as the systemd unit runs them,
behind the shipped nginx, on one PostgreSQL (the test database) and a Redis
of the test's own."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

import pytest
from django.db import connection

from tests.support.deploy import Nginx, RedisServer, Worker, migrated_database_url, with_application_name
from tests.support.servers import server_env


@dataclass
class Stack:
    workers: list[Worker]
    nginx: Nginx
    redis: RedisServer
    env: dict
    directory: object

    @property
    def wss(self) -> str:
        return f"wss://127.0.0.1:{self.nginx.https_port}"

    def worker_lines(self, event: str, path: str) -> list[list[dict]]:
        return [[line for line in w.json_lines() if line.get("event") == event and line.get("path") == path]
                for w in self.workers]


@pytest.fixture
def stack(tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("two workers on one PostgreSQL (DATABASE_URL=postgres://...)")
    redis = RedisServer(tmp_path).start()
    # Production settings, as deployed: behind nginx's TLS, X-Forwarded-Proto says https.
    database = migrated_database_url(connection.settings_dict, tmp_path)
    env = server_env(database, REDIS_URL=redis.url,
                     LOG_FORMAT="json", LOG_LEVEL="INFO", DJANGO_PRODUCTION="1", DJANGO_SECRET_KEY=secrets.token_urlsafe(64),
                     DJANGO_ALLOWED_HOSTS="127.0.0.1", TRUSTED_PROXY_COUNT="1")
    workers: list[Worker] = []
    nginx = None
    try:
        # Each worker's PostgreSQL connections carry its name (tests terminate them).
        workers += [Worker(dict(env, DATABASE_URL=with_application_name(database, f"worker-{i}")),
                           tmp_path / f"worker-{i}.log") for i in range(2)]
        nginx = Nginx(tmp_path / "nginx", [w.port for w in workers]).start()
        yield Stack(workers, nginx, redis, env, tmp_path)
    finally:
        if nginx is not None:
            nginx.stop()
        for w in workers:
            w.stop()
        redis.stop()


