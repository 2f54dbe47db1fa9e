import os

import pytest


@pytest.hookimpl(trylast=True)  # after pytest-django's own ordering
def pytest_collection_modifyitems(config, items):
    """Browser tests run last, and need Debian's Chromium (CI sets REQUIRE_BROWSER=1 so a missing one fails loudly).

    Last: Playwright's sync API keeps its event loop registered as running in the main thread while the
    session's browser lives, and pytest-asyncio cannot start a test's loop after that; pytest-django puts
    tests without a database behind the others, so such an async test could otherwise follow them."""
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
