"""Health probes for process managers and load balancers.

    GET /healthz   200 while the process answers; touches nothing else
    GET /readyz    200 when the database and the channel layer answer,
                   else 503 naming the one that did not

Answered by a middleware near the top of the chain, so a probe is never
redirected to HTTPS, refused for its Host header (a probe on the worker's
own port names 127.0.0.1), throttled, given a session or sent the web app.
The body names which check failed and the kind of error, never a host,
a URL or a credential; the details go to the log.
"""

from __future__ import annotations

import asyncio
import logging

from asgiref.sync import async_to_sync, iscoroutinefunction, sync_to_async
from channels.layers import get_channel_layer
from django.db import connections
from django.http import JsonResponse
from django.utils.decorators import sync_and_async_middleware

logger = logging.getLogger(__name__)
PROBE_TIMEOUT = 3.0  # seconds each dependency gets to answer
READY_GROUP = "readyz"  # a group nobody joins: a send to it only proves the layer answers


def _database() -> None:
    connection = connections["default"]
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    finally:
        connection.close()  # back to the pool: a probe holds nothing between calls


async def _channel_layer() -> None:
    layer = get_channel_layer()
    if layer is not None:
        await layer.group_send(READY_GROUP, {"type": "readyz"})


async def _check(name: str, probe) -> str:
    try:
        await asyncio.wait_for(probe(), PROBE_TIMEOUT)
    except Exception as exc:  # any failure means "not ready"; which one goes to the log
        logger.warning("readyz: %s check failed: %s", name, type(exc).__name__, exc_info=True)
        return "timeout" if isinstance(exc, TimeoutError) else f"error: {type(exc).__name__}"
    return "ok"


async def readiness() -> JsonResponse:
    database, layer = await asyncio.gather(
        _check("database", sync_to_async(_database, thread_sensitive=False)),
        _check("channel_layer", _channel_layer),
    )
    checks = {"database": database, "channel_layer": layer}
    ready = all(v == "ok" for v in checks.values())
    return _answer({"status": "ok" if ready else "unavailable", "checks": checks}, 200 if ready else 503)


def liveness() -> JsonResponse:
    return _answer({"status": "ok"}, 200)


def _answer(body: dict, status: int) -> JsonResponse:
    response = JsonResponse(body, status=status)
    response["Cache-Control"] = "no-store"
    return response


PATHS = {"/healthz", "/readyz"}


@sync_and_async_middleware
def health_middleware(get_response):
    if iscoroutinefunction(get_response):
        async def middleware(request):
            if request.path not in PATHS:
                return await get_response(request)
            return liveness() if request.path == "/healthz" else await readiness()
    else:
        def middleware(request):
            if request.path not in PATHS:
                return get_response(request)
            return liveness() if request.path == "/healthz" else async_to_sync(readiness)()
    return middleware
