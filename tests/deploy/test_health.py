"""/healthz and /readyz: in-process, and on real workers whose database or Redis is gone."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from django.db import connection

from tests.support.deploy import RedisServer, Worker, fetch, migrated_database_url
from tests.support.servers import free_port, server_env


@pytest.mark.django_db
def test_liveness_touches_nothing(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = client.get("/healthz")
    assert response.status_code == 200 and response.json() == {"status": "ok"}
    assert response["Cache-Control"] == "no-store"
    assert not response.cookies  # no session, no CSRF cookie


@pytest.mark.django_db(transaction=True)
def test_readiness_on_this_setup(client):
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "checks": {"database": "ok", "channel_layer": "ok"}}


@pytest.mark.django_db(transaction=True)
def test_probes_answer_any_host_over_plain_http_in_production(client, settings):
    """A probe on the worker's own port names 127.0.0.1 and speaks HTTP: not
    a 400 for the Host, not a redirect to HTTPS, not the web app."""
    settings.ALLOWED_HOSTS = ["games.example.org"]
    settings.SECURE_SSL_REDIRECT = True
    for path in ("/healthz", "/readyz"):
        response = client.get(path, HTTP_HOST="127.0.0.1:8001")
        assert response.status_code == 200, path
        assert response["Content-Type"] == "application/json"
    assert client.get("/", HTTP_HOST="127.0.0.1:8001").status_code == 400  # everything else still checks
    assert client.get("/api/games/", HTTP_HOST="games.example.org").status_code == 301


@pytest.mark.django_db(transaction=True)
def test_readiness_names_the_channel_layer_it_cannot_reach(client, settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                                           "CONFIG": {"hosts": [f"redis://127.0.0.1:{free_port()}/0"]}}}
    response = client.get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable" and body["checks"]["database"] == "ok"
    assert body["checks"]["channel_layer"].startswith("error: ")
    assert "127.0.0.1" not in response.content.decode()  # which check, not where it looked


def _ready(worker: Worker) -> tuple[int, dict]:
    status, _, body = fetch("GET", worker.url + "/readyz")
    return status, json.loads(body)


def _until_ready(worker: Worker, status: int, timeout: float = 15) -> dict:
    """Probe until /readyz answers `status` (as a load balancer does), or fail."""
    deadline = time.monotonic() + timeout
    while True:
        got, body = _ready(worker)
        if got == status:
            return body
        assert time.monotonic() < deadline, (got, body)
        time.sleep(0.2)


@pytest.mark.django_db(transaction=True)
async def test_a_worker_is_unready_while_its_redis_is_down(tmp_path):
    database = await asyncio.to_thread(migrated_database_url, connection.settings_dict, tmp_path)
    redis = RedisServer(tmp_path)
    await asyncio.to_thread(redis.start)
    worker = await asyncio.to_thread(Worker, server_env(database, REDIS_URL=redis.url), tmp_path / "worker.log")
    try:
        assert await asyncio.to_thread(_ready, worker) == (200, {
            "status": "ok", "checks": {"database": "ok", "channel_layer": "ok"}})
        await asyncio.to_thread(redis.kill)
        body = await asyncio.to_thread(_until_ready, worker, 503)
        assert body["checks"]["database"] == "ok" and body["checks"]["channel_layer"] != "ok"
        assert (await asyncio.to_thread(fetch, "GET", worker.url + "/healthz"))[0] == 200  # alive, not ready
        await asyncio.to_thread(redis.start)  # the same port again
        assert (await asyncio.to_thread(_until_ready, worker, 200))["checks"]["channel_layer"] == "ok"
    finally:
        await asyncio.to_thread(worker.stop)
        await asyncio.to_thread(redis.stop)


async def test_a_worker_is_unready_without_its_database(tmp_path):
    nowhere = f"postgres://postgres@127.0.0.1:{free_port()}/games"
    worker = await asyncio.to_thread(Worker, server_env(nowhere, REDIS_URL="", DB_POOL_TIMEOUT="1"),
                                     tmp_path / "worker.log")
    try:
        status, body = await asyncio.to_thread(_ready, worker)
        assert status == 503 and body["checks"]["channel_layer"] == "ok"
        assert body["checks"]["database"] != "ok"
        assert (await asyncio.to_thread(fetch, "GET", worker.url + "/healthz"))[0] == 200
    finally:
        await asyncio.to_thread(worker.stop)
