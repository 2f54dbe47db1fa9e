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
