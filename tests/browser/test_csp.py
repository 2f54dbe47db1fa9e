"""The app runs under its Content-Security-Policy with no violation, in real Chromium.

Every page records `securitypolicyviolation` events from before its first
script; the walk covers sign-up, the lobby screens, both games' tables with
moves played, the match list, the watch page and the admin's log-in.  And
the policy bites: a script injected into the page is refused and reported.
"""

from __future__ import annotations

import random

import pytest

from .support import DESKTOP, PHONE, Client, start_against_two_bots, take_turn

pytestmark = pytest.mark.browser

RECORD = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(
  `${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile || location.pathname}:${e.lineNumber}`));
"""


def _client(browser, base: str, viewport: dict) -> Client:
    client = Client(browser, base, viewport)
    client.context.add_init_script(RECORD)
    return client


def _violations(client: Client) -> list[str]:
    return client.page.evaluate("() => window.__csp") + [e for e in client.errors if "Content Security Policy" in e]


def _play_a_little(client: Client, rng: random.Random, moves: int) -> None:
    for _ in range(400):
        if moves == 0 or client.page.locator("[data-testid=result]").count():
            return
        if take_turn(client, rng):
            moves -= 1
        else:
            client.page.wait_for_timeout(50)


def test_the_app_runs_with_no_policy_violation(browser, live_server_url):
    rng = random.Random(14)
    player = _client(browser, live_server_url, PHONE)
    watcher = _client(browser, live_server_url, DESKTOP)
    try:
        seen: dict[str, list[str]] = {}
        player.goto("/")
        player.page.wait_for_selector("#app *")
        seen["/"] = _violations(player)
        player.signup("csp")
        for game in ("condottiere", "gods_playground"):
            start_against_two_bots(player, game)
            match_path = "/" + player.page.url.split("/", 3)[3]
            _play_a_little(player, rng, 3)
            seen[f"{game} table"] = _violations(player)
            watcher.goto(match_path)
            watcher.page.wait_for_selector("[data-testid=table]")
            seen[f"{game} watched"] = _violations(watcher)
        for path in ("/matches", "/lobbies/new", "/admin/login/"):
            player.goto(path)
            player.page.wait_for_load_state("networkidle")
            seen[path] = _violations(player)
        assert all(not v for v in seen.values()), {k: v for k, v in seen.items() if v}

        # The listener hears what the policy refuses: an injected inline script does not run.
        player.goto("/")
        player.page.wait_for_selector("#app *")
        ran = player.page.evaluate("""() => {
            const s = document.createElement('script');
            s.textContent = 'window.__injected = true';
            document.head.appendChild(s);
            return window.__injected === true;
        }""")
        player.page.wait_for_function("() => window.__csp.length > 0")
        assert not ran and "script-src" in _violations(player)[0]
    finally:
        player.close()
        watcher.close()
