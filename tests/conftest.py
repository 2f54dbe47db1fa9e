import os

import pytest


def pytest_collection_modifyitems(config, items):
    """Browser tests need Debian's Chromium; CI sets REQUIRE_BROWSER=1 so a missing one fails loudly."""
    if os.path.exists("/usr/bin/chromium") or os.environ.get("REQUIRE_BROWSER") == "1":
        return
    skip = pytest.mark.skip(reason="/usr/bin/chromium not installed (apt-get install chromium)")
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)
