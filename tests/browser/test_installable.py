"""The installable web app (issue 28): Chromium finds nothing missing for installing it, it opens without
a network saying so, it never stores an API answer or a match page, and a push delivered to its real
service worker shows the notice with its text and link (docs/notifications.md)."""

from __future__ import annotations

import json

import pytest

from .conftest import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS

pytestmark = pytest.mark.browser

NOTICE = {"title": "Your move", "body": "Condottiere #7 with ann: it is your move.", "url": "/match/7",
          "tag": "match-7"}


@pytest.fixture
def app(browser, live_server_url, tmp_path):
    # A profile on disk: Chromium installs nothing from an incognito context, which new_context() makes.
    context = browser.browser_type.launch_persistent_context(tmp_path / "profile", executable_path=CHROMIUM,
                                                             args=CHROMIUM_ARGS, locale="en-GB")
    context.grant_permissions(["notifications"], origin=live_server_url)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(live_server_url + "/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")  # installed and active
    yield page, context.new_cdp_session(page), errors
    context.close()


def test_chromium_finds_the_app_installable(app, live_server_url):
    page, cdp, errors = app
    assert cdp.send("Page.getInstallabilityErrors") == {"installabilityErrors": []}
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == [] and manifest["url"] == live_server_url + "/manifest.webmanifest"
    body = json.loads(manifest["data"])
    assert body["display"] == "standalone" and body["name"] == "Condottiere & God's Playground"
    assert {i["sizes"] for i in body["icons"]} == {"192x192", "512x512"} and body["theme_color"]
    hungarian = page.request.get(live_server_url + "/manifest.webmanifest", headers={"Accept-Language": "hu"}).json()
    assert hungarian["name"] == "Condottiere & Az Isten játszótere" and hungarian["lang"] == "hu"
    assert errors == []


def test_it_opens_offline_and_says_so_and_never_keeps_an_api_answer(app, live_server_url):
    page, _cdp, errors = app
    page.reload()  # controlled now: what the app fetches passes through the worker
    page.wait_for_selector("header")
    page.evaluate("fetch('/api/games/').then(r => r.json())")
    page.context.set_offline(True)
    page.goto(live_server_url + "/match/7")
    assert page.locator("section[lang=en] h1").inner_text() == "No connection"
    assert page.locator("section[lang=hu] h1").inner_text() == "Nincs kapcsolat"
    page.screenshot(path=ARTIFACTS / "offline.png")
    kept = page.evaluate("""async () => {
        const out = [];
        for (const name of await caches.keys()) {
            for (const request of await (await caches.open(name)).keys()) out.push(new URL(request.url).pathname);
        }
        return out;
    }""")
    assert "/offline/" in kept and any(p.startswith("/app/") for p in kept)
    assert [p for p in kept if not (p.startswith("/app/") or p == "/offline/")] == [], kept
    page.context.set_offline(False)
    assert errors == []


def test_a_push_shows_the_notice_with_its_text_and_link(app, live_server_url):
    page, cdp, errors = app
    registrations = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda event: registrations.extend(event["registrations"]))
    cdp.send("ServiceWorker.enable")
    # Its events follow the answer; the sync API delivers them while it waits, so wait in short steps.
    for _ in range(100):
        if registrations:
            break
        page.wait_for_timeout(20)
    (registration,) = [r for r in registrations if not r["isDeleted"]]
    cdp.send("ServiceWorker.deliverPushMessage", {"origin": live_server_url, "registrationId":
                                                  registration["registrationId"], "data": json.dumps(NOTICE)})
    # No page event tells that the worker showed a notice: ask the registration until it lists one.
    shown = page.evaluate("""async () => {
        const registration = await navigator.serviceWorker.ready;
        for (let i = 0; i < 600; i++) {  // 30 s: a busy CI box can take seconds to wake the worker
            const list = await registration.getNotifications();
            if (list.length) return list.map(n => ({title: n.title, body: n.body, tag: n.tag, url: n.data.url}));
            await new Promise(resolve => setTimeout(resolve, 50));
        }
        return null;
    }""")
    assert shown == [{"title": NOTICE["title"], "body": NOTICE["body"], "tag": "match-7", "url": "/match/7"}]
    assert errors == []
