"""The account page's notifications panel in Chromium, in English and Hungarian: what to be told by push
and by e-mail (saved on the server as it is ticked), and the devices, each removable (docs/api.md,
Notifications). Screenshots: test-artifacts/screenshots/notify-account-<lang>.png."""

from __future__ import annotations

import base64
import os

import pytest

from .conftest import ARTIFACTS
from .support import DESKTOP, Client

pytestmark = pytest.mark.browser


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _settings(client: Client) -> dict:
    return client.page.request.get(client.base + "/api/notifications/").json()


@pytest.mark.parametrize("lang, locale, title", [("en", "en-US", "Notifications"), ("hu", "hu-HU", "Értesítések")])
def test_choose_what_to_be_told_and_remove_a_device(browser, live_server_url, lang, locale, title):
    client = Client(browser, live_server_url, DESKTOP, locale=locale)
    try:
        client.signup()
        # A device as a browser's pushManager makes it (headless Chromium has no push service to ask).
        device = {"endpoint": f"https://fcm.googleapis.com/fcm/send/{_b64(os.urandom(12))}",
                  "keys": {"p256dh": _b64(b"\x04" + os.urandom(64)), "auth": _b64(os.urandom(16))}, "label": "Phone"}
        client.goto("/account")
        client.page.evaluate("body => import('/app/js/api.js').then(m => m.post('/api/notifications/devices/', body))",
                             device)
        client.page.reload()
        panel = client.page.locator("[data-testid=notifications]")
        assert panel.locator("h2").inner_text() == title
        assert client.page.locator("[data-testid=push-your_move]").is_checked()
        assert client.page.locator("[data-testid=email-your_move]").is_disabled()  # no confirmed address
        for kind in ("chat", "match_start"):  # each tick is saved at once: wait for its answer
            with client.page.expect_response(lambda r: r.url.endswith("/api/notifications/")
                                             and r.request.method == "PUT" and r.ok):
                client.page.locator(f"[data-testid=push-{kind}]").uncheck()
        assert client.page.locator("[data-testid=devices] li").inner_text().startswith("Phone")
        panel.screenshot(path=ARTIFACTS / f"notify-account-{lang}.png")
        assert _settings(client)["push"] == ["your_move", "rematch", "match_end"]

        (device_id,) = [d["id"] for d in _settings(client)["devices"]]
        client.page.click(f"[data-testid=remove-device-{device_id}]")
        client.page.wait_for_selector("[data-testid=no-devices]")
        assert _settings(client)["devices"] == []
        assert client.errors == []
    finally:
        client.context.close()
