import os
import re
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
# Under pytest-xdist (`make test`, --dist loadgroup) each of these folders runs as one group on one
# worker, in order: the browser tests share one server and one Chromium (tests/browser/conftest.py),
# and the deployment tests' workers, nginx and Redis of their own are heavy and kill PostgreSQL
# sessions by application name; everything else is spread over the workers one test at a time.
# BROWSER_GROUPS=n (default 1) deals the browser test modules, in name order, into n groups instead: each
# group's worker starts its own server and Chromium (free ports), so the browser tests can share workers.
XDIST_GROUPS = {"browser": "browser", "deploy": "deploy"}


def pytest_configure(config):
    """Each xdist worker its own Redis database and channel-layer prefix (pytest-django gives it its own test
    database): in this process's settings and in the environment its server processes inherit."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker and os.environ.get("REDIS_URL"):
        _redis_of_worker(worker)


def _redis_of_worker(worker: str) -> None:
    """gw0 keeps REDIS_URL's database number n, gwK takes n+K; pub/sub ignores the number, so the channel
    prefix says the worker too."""
    from django.conf import settings

    url, index = os.environ["REDIS_URL"], int(worker.removeprefix("gw"))
    match = re.fullmatch(r"(redis://[^/]*)(?:/(\d*))?", url)
    if match is None:
        raise pytest.UsageError(f"REDIS_URL={url!r}: expected redis://host:port/<db> for per-worker databases")
    db = int(match[2] or 0) + index
    if db > 15:
        raise pytest.UsageError(f"REDIS_URL={url!r}: worker {worker} would need Redis database {db} (0-15); "
                                "start from a lower number or use fewer TEST_WORKERS")
    os.environ["REDIS_URL"] = f"{match[1]}/{db}"
    os.environ["CHANNEL_LAYER_PREFIX"] = f"{os.environ.get('CHANNEL_LAYER_PREFIX', 'games')}-{worker}"
    settings.REDIS_URL = os.environ["REDIS_URL"]
    settings.CHANNEL_LAYER_PREFIX = os.environ["CHANNEL_LAYER_PREFIX"]
    layer = settings.CHANNEL_LAYERS["default"].get("CONFIG", {})
    if "hosts" in layer:
        layer.update(hosts=[settings.REDIS_URL], prefix=settings.CHANNEL_LAYER_PREFIX)
    if "redis" in settings.CACHES["default"]["BACKEND"].lower():
        settings.CACHES["default"]["LOCATION"] = settings.REDIS_URL


def pytest_itemcollected(item):
    """The xdist group of a test (see XDIST_GROUPS); set here, before xdist reads it in collection_modifyitems."""
    try:
        top = item.path.relative_to(TESTS).parts[0]
    except ValueError:
        return
    if top not in XDIST_GROUPS:
        return
    group, groups = XDIST_GROUPS[top], int(os.environ.get("BROWSER_GROUPS") or 1)
    if top == "browser" and groups > 1:
        modules = sorted(p.name for p in (TESTS / "browser").glob("test_*.py"))
        group += f"-{modules.index(item.path.name) % groups}"
    item.add_marker(pytest.mark.xdist_group(group))


@pytest.hookimpl(trylast=True)  # after pytest-django's own ordering
def pytest_collection_modifyitems(config, items):
    """Browser tests run last, and need Debian's Chromium (CI sets REQUIRE_BROWSER=1 so a missing one fails loudly).

    Last, in one process: Playwright's sync API keeps its event loop registered as running in the main
    thread while its browser lives, and pytest-asyncio cannot start a test's loop then; the browser's
    fixture ends with the last browser test (package scope, tests/browser/conftest.py), and the browser
    tests run back to back, last, so no other test falls between them.  Under xdist the worker that runs
    the browser group receives them back to back too."""
    items.sort(key=lambda item: "browser" in item.keywords)  # stable: the order is otherwise kept
    if os.path.exists("/usr/bin/chromium") or os.environ.get("REQUIRE_BROWSER") == "1":
        return
    skip = pytest.mark.skip(reason="/usr/bin/chromium not installed (apt-get install chromium)")
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _arm_connection_check(request):
    """Database tests arm the session-end check below; a run without them creates no database for it."""
    if request.node.get_closest_marker("django_db") or {"db", "transactional_db"} & set(request.fixturenames):
        request.getfixturevalue("_no_session_left_on_test_database")


@pytest.fixture(scope="session")
def _no_session_left_on_test_database(django_db_setup, django_db_blocker):
    """At the end, before the test database is dropped, nothing but this thread may still hold a
    connection to it: a thread, pool or subprocess that does makes DROP DATABASE fail, which
    pytest-django only warns about.  The failure names the sessions left and this process's threads."""
    yield
    from django.db import connection, connections

    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock():
        connections.close_all()  # this thread's own, then the pool's idle ones (what dropping does first)
        connection.close_pool()
    left = _sessions_on(connection.settings_dict)
    if left:
        import threading

        threads = sorted(t.name for t in threading.enumerate() if t is not threading.main_thread())
        pytest.fail(f"{len(left)} session(s) still on {connection.settings_dict['NAME']} at the end "
                    f"(pid, application_name, backend_type, state, backend_start, last query): {left}; "
                    f"threads of this process: {threads}", pytrace=False)


def _sessions_on(settings_dict: dict, wait_s: float = 5.0) -> list[tuple]:
    """Other sessions on the database; a backend that was just told to close may take a moment to go."""
    import time

    import psycopg

    s = settings_dict
    deadline = time.monotonic() + wait_s
    with psycopg.connect(host=s["HOST"], port=s["PORT"] or None, user=s["USER"], password=s["PASSWORD"] or None,
                         dbname="postgres", autocommit=True) as conn:
        while True:
            rows = conn.execute("SELECT pid, application_name, backend_type, state, backend_start::text, "
                                "left(query, 200) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
                                [s["NAME"]]).fetchall()
            if not rows or time.monotonic() > deadline:
                return rows
            time.sleep(0.1)
