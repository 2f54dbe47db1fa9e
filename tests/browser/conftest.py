"""A live server (Daphne on a free port, temp SQLite, fast bots) and Chromium for the browser tests."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.support.servers import Daphne, manage, server_env

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
ARTIFACTS = ROOT / "test-artifacts" / "screenshots"


@contextmanager
def _serve(tmp: Path):
    """Daphne serving the real ASGI app on a fresh database in `tmp`: (its address, its environment, for a
    `manage.py` command on the same database)."""
    env = server_env(
        f"sqlite:///{tmp / 'db.sqlite3'}",
        REDIS_URL="",  # one process: the in-memory channel layer is enough
        BOT_DELAY="0.05",
        THROTTLE_SIGNUP="1000/min",
        THROTTLE_LOGIN="1000/min",
        DJANGO_PRODUCTION="",
        DJANGO_DEBUG="0",
        LOG_LEVEL="WARNING",
    )
    manage(env, "migrate", "--noinput", "-v0", timeout=600)
    with Daphne(env, log=tmp / "daphne.log") as server:
        yield f"http://127.0.0.1:{server.port}", env


# Package scope: one server and one Chromium for all the browser tests, which run back to back (and under
# xdist as one group on one worker, tests/conftest.py); both end with the last of them, as Playwright's
# event loop must before another test starts one of its own.
@pytest.fixture(scope="package")
def live_site(tmp_path_factory):
    """The package's server: (its URL, its environment, for `manage(env, "shell", ...)` on the same database).
    Not `live_server`: pytest-django's fixture of that name would set up a test database."""
    with _serve(tmp_path_factory.mktemp("browser-server")) as served:
        yield served


@pytest.fixture(scope="package")
def live_server_url(live_site):
    return live_site[0]


@pytest.fixture(scope="module")
def managed_server(tmp_path_factory):
    """A server of the module's own whose database a `manage.py shell` script can reach (to put a match into a
    state through the services): (its address, its environment)."""
    with _serve(tmp_path_factory.mktemp("managed-server")) as served:
        yield served


@pytest.fixture(scope="package")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
