"""Deployments sharing one Redis: the channel layer's prefix keeps their groups apart.

Redis pub/sub ignores the database number in REDIS_URL, so before the prefix
was a setting two sites on one Redis heard each other's `match-<id>` groups.
The layers here are configured exactly as backend/settings.py configures
them for a given environment (read from a fresh process).
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import uuid

import pytest
from django.utils.module_loading import import_string

from tests.support.deploy import RedisServer
from tests.support.servers import ROOT, server_env

def _layer_settings(redis_url: str, prefix: str | None) -> dict:
    env = server_env("sqlite:///:memory:", REDIS_URL=redis_url)
    env.pop("CHANNEL_LAYER_PREFIX", None)
    if prefix is not None:
        env["CHANNEL_LAYER_PREFIX"] = prefix
    code = "import json; from django.conf import settings; print(json.dumps(settings.CHANNEL_LAYERS['default']))"
    out = subprocess.run([sys.executable, "-c", f"import django; django.setup(); {code}"], cwd=ROOT, check=True,
                         env={**env, "DJANGO_SETTINGS_MODULE": "backend.settings"}, capture_output=True, text=True)
    return json.loads(out.stdout)


def _layer(config: dict):
    return import_string(config["BACKEND"])(**config["CONFIG"])


async def _hears(listener, speaker, within: float = 1.5) -> bool:
    """Whether a message `speaker` sends to a group reaches a channel of `listener` in that group (of the same
    name).  It is sent every 0.1 s, as a subscription takes effect a moment after group_add returns; each probe
    has a group and a nonce of its own, so a late copy from an earlier probe cannot answer it."""
    group, nonce = f"match-{uuid.uuid4().hex[:8]}", uuid.uuid4().hex
    channel = await listener.new_channel()
    await listener.group_add(group, channel)
    received = asyncio.ensure_future(listener.receive(channel))
    try:
        for _ in range(int(within / 0.1)):
            await speaker.group_send(group, {"type": "version", "nonce": nonce})
            done, _ = await asyncio.wait({received}, timeout=0.1)
            if done:
                return received.result()["nonce"] == nonce
        return False
    finally:
        received.cancel()
        await listener.group_discard(group, channel)


@pytest.fixture
def redis(tmp_path):
    with RedisServer(tmp_path) as server:
        yield server


async def test_two_prefixes_on_one_redis_do_not_hear_each_other(redis):
    sites = {name: await asyncio.to_thread(_layer_settings, redis.url, name) for name in ("site-a", "site-b")}
    assert sites["site-a"]["CONFIG"]["prefix"] == "site-a"
    a, b = _layer(sites["site-a"]), _layer(sites["site-b"])
    a_too = _layer(sites["site-a"])  # another process of site A
    try:
        assert await _hears(a, a_too)  # the control: the same prefix does hear
        assert not await _hears(a, b)
        assert not await _hears(b, a)
    finally:
        for layer in (a, b, a_too):
            await layer.flush()


async def test_the_prefix_has_a_default_of_its_own(redis):
    config = await asyncio.to_thread(_layer_settings, redis.url, None)
    assert config["CONFIG"]["prefix"] == "games"  # not channels-redis's "asgi", which every site shares
