"""Fixtures shared by the platform tests: clients, users, the match tests' settings (`match_env`), a registered
test game, clean throttles."""

from __future__ import annotations

import itertools
import uuid

import pytest
from django.db import connections
from rest_framework.test import APIClient

PASSWORD = "correct horse battery staple"
_names = itertools.count(1)


@pytest.fixture(autouse=True)
def _fast_and_isolated(settings):
    """A fast password hash; and throttle counters in a cache of the test's own, never a shared Redis."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # Tests open many lobbies per user; test_lobby_caps.py sets the caps it tests.
    settings.LOBBY_MAX_HOSTED = settings.LOBBY_MAX_SEATED = 1000
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "lobby": "100000/hour"}  # test_throttles.py tests it
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": f"test-{uuid.uuid4().hex}"}}


@pytest.fixture(autouse=True)
async def _close_match_runtimes():
    """Each test's event loop ends with it; so must its match runtime, with
    its work in flight done, before the database is flushed or dropped."""
    yield
    from asgiref.sync import sync_to_async
    from django.db import connections

    from backend.matches.runtime import MatchHub

    await MatchHub.close_current()
    MatchHub.close_all()  # hubs of other loops (a test's "other process")
    # Channels' test communicators turn database_sync_to_async's closing of
    # connections into a no-op while they pass messages, so the app's calls
    # (ws_auth, channels' get_user, lobby consumers) leave asgiref's
    # thread-sensitive executor holding a pooled connection; give it back.
    await sync_to_async(connections.close_all)()


@pytest.fixture
def match_env(settings):
    """Scripted players act far faster than people: lift the rate limit; bots
    act at once (as `make test` sets); and the runtime of each test's event
    loop closes its connections so the test database can be dropped at the end."""
    settings.MATCH_WS_RATE = settings.MATCH_WS_BURST = 10_000
    settings.BOT_DELAY = 0
    settings.MATCH_SPECTATORS_EVERY = 0.05  # test_ws_presence.py checks the slower cadence itself
    db = connections["default"].settings_dict
    max_age, db["CONN_MAX_AGE"] = db.get("CONN_MAX_AGE", 0), 0
    yield settings
    db["CONN_MAX_AGE"] = max_age


@pytest.fixture
def fake_game(settings):
    """Offers tests/platform/lobby_game.py as game "counting" (2-4 players, bots "random"/"heuristic") through
    its manifest, lobby_game.toml, as a new game joins the site (docs/new-game.md)."""
    from pathlib import Path

    import backend.engines as engines

    settings.GAMES = [*settings.GAMES, Path(__file__).with_name("lobby_game.toml")]
    return engines.get_engine("counting")


def csrf_client(**defaults) -> APIClient:
    """A browser-like client: CSRF enforced, token taken from GET /api/auth/csrf/.
    `defaults` are request META for every call (REMOTE_ADDR, HTTP_X_FORWARDED_FOR)."""
    client = APIClient(enforce_csrf_checks=True, **defaults)
    assert client.get("/api/auth/csrf/").status_code == 204
    client.credentials(HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)
    return client


@pytest.fixture
def api_client():
    return APIClient()


@pytest.fixture
def make_user(django_user_model):
    def make(username: str | None = None, password: str = PASSWORD):
        return django_user_model.objects.create_user(username=username or f"player{next(_names)}", password=password)

    return make


@pytest.fixture
def client_for():
    """A session-authenticated API client for a user (CSRF not enforced, like DRF's test default)."""

    def make(user):
        client = APIClient()
        client.force_login(user)
        return client

    return make


@pytest.fixture
def user(make_user):
    return make_user()


@pytest.fixture
def logged_in(client_for, user):
    return client_for(user)
