"""The match log across a reconnect: each connection's first state marks where the socket's lines begin; the
lines before it come from REST, only the part the page lacks (`?after=<what it holds>&upto=<that state>`, the
whole log on the first connection), so a reconnect fetches what happened while away, each line once, in place;
the REST history holds every line this viewer may see (a player's own private lines included)."""

from __future__ import annotations

import random
import re
import time

import pytest

from .support import DESKTOP, Client, start_against_two_bots
from .test_gods_playground import _stage_nobles, take_turn

pytestmark = pytest.mark.browser

# Feeds state messages through match_log.js's pieces as useMatchLog does, then folds a REST range in.
_MERGE_JS = """async ({ messages, history, after, upto }) => {
  const { tagEvents, withRange } = await import('/app/js/screens/match_log.js');
  let log = [];
  for (const [was, version, events] of messages) log = log.concat(tagEvents(events, was, version));
  return { live: log.map((e) => e.text), merged: withRange(log, history, after, upto).map((e) => e.text) };
}"""


def _pub(text: str) -> dict:
    return {"text": text, "to": None, "kind": "info"}


def _mine(text: str) -> dict:
    return {"text": text, "to": [1], "kind": "secret"}


def _history(*rows) -> list[dict]:
    """REST rows (version, text[, private])."""
    return [{"version": r[0], "seat": 0, "text": r[1], "kind": "info", **({"private": True} if r[2:] else {})}
            for r in rows]


@pytest.fixture()
def app_page(browser, live_server_url):
    client = Client(browser, live_server_url, DESKTOP)
    client.goto("/")
    yield client.page
    assert client.errors == []
    client.close()


def _merge(page, messages, history, after, upto) -> dict:
    return page.evaluate(_MERGE_JS, {"messages": messages, "history": history, "after": after, "upto": upto})


def test_a_reconnect_folds_in_what_happened_meanwhile(app_page):
    # Before the drop the socket brought versions 1-5; the new connection's first state is at 7, and its next
    # (8) came before the REST answer for versions 6-7 (F, and this player's own line w).
    messages = [
        [0, 1, [_pub("A")]],
        [1, 2, [_pub("B"), _mine("x"), _pub("C")]],
        [2, 4, [_mine("y"), _pub("D"), _pub("E")]],  # a slow client skipped version 3
        [4, 5, [_mine("z")]],
        [7, 8, [_pub("G")]],
    ]
    out = _merge(app_page, messages, _history((6, "F"), (7, "w", 1)), 5, 7)
    assert out["live"] == ["A", "B", "x", "C", "y", "D", "E", "z", "G"]
    assert out["merged"] == ["A", "B", "x", "C", "y", "D", "E", "z", "F", "w", "G"]


def test_the_first_history_goes_before_the_socket_lines_and_a_retry_replaces_its_range(app_page):
    # The first connection's state was at 1; the socket brought 2 and 3 before the whole history (up to 1) came.
    messages = [[1, 2, [_mine("x"), _pub("B")]], [2, 3, [_pub("C")]]]
    out = _merge(app_page, messages, _history((1, "A")), None, 1)
    assert out["merged"] == ["A", "x", "B", "C"]
    # An empty history (the match just started) keeps what the socket brought.
    assert _merge(app_page, messages, [], None, 1)["merged"] == ["x", "B", "C"]
    # A fetch that failed is asked again by the next connection from what the page last held whole (1): the
    # range replaces the lines the page holds in it, none twice.
    out = _merge(app_page, [[0, 1, [_pub("A")]], *messages],
                 _history((2, "x", 1), (2, "B"), (3, "C"), (4, "D")), 1, 4)
    assert out["merged"] == ["A", "x", "B", "C", "D"]


_LOG_JS = """() => [...document.querySelectorAll('[data-testid=log] li')].map((li) => ({
  text: li.textContent, secret: li.className.includes('noble_secret') || li.className.includes('bid_secret') }))"""


def test_own_secret_lines_survive_a_reconnect(browser, live_server_url):
    """God's Playground: the nobles a player lays out secretly (one action, D2) are logged for that player
    only ("You place your nobles face down: ...")."""
    player = Client(browser, live_server_url, DESKTOP)
    page = player.page
    try:
        player.signup("log")
        start_against_two_bots(player, "gods_playground")
        page.wait_for_selector("[data-testid=table][data-game=gods_playground]")
        rng = random.Random(3)
        deadline = time.monotonic() + 60
        while not page.locator("[data-testid=stage-submit]").count():  # the phases before the nobles
            assert time.monotonic() < deadline, "the noble placement never came"
            if not take_turn(page, rng):
                page.wait_for_timeout(50)
        _stage_nobles(page, rng)
        page.wait_for_function(f"() => ({_LOG_JS})().some((l) => l.secret)")
        before = page.evaluate(_LOG_JS)
        secrets = [line["text"] for line in before if line["secret"]]
        assert secrets and all(t.startswith("You place your nobles face down") for t in secrets), secrets

        # A reconnect asks at most for what happened while away (nothing, or the bots' moves); the lines stay.
        asked: list[str] = []
        page.on("request", lambda r: asked.append(r.url) if "/events/" in r.url else None)
        shown = player.table_version()
        page.evaluate("() => { for (const s of window.__sockets) s.drop(); }")
        page.wait_for_selector("[data-testid=connection]", state="detached")
        page.wait_for_function("v => Number(document.querySelector('[data-testid=table]').dataset.version) >= v",
                               arg=shown)
        # (a bot's move may come between reading the version and the drop: then the page holds more)
        assert all(re.search(r"/events/\?after=(\d+)&upto=\d+$", url) for url in asked), asked
        assert all(int(re.search(r"after=(\d+)", url)[1]) >= shown for url in asked), (shown, asked)
        assert [line["text"] for line in page.evaluate(_LOG_JS) if line["secret"]][:len(secrets)] == secrets

        # A reload reads the whole history: it holds the player's own secret lines, marked private (the page words
        # them from kind and params, so compare the events, not the English `text` older clients read).
        with page.expect_response(lambda r: "/events/?upto=" in r.url) as reloaded:
            page.reload()
        history = reloaded.value.json()
        private = [e for e in history if e.get("private")]
        assert len(private) >= len(secrets), private
        page.wait_for_function(f"n => ({_LOG_JS})().filter((l) => l.secret).length >= n", arg=len(secrets))
        after = page.evaluate(_LOG_JS)
        assert [line["text"] for line in after if line["secret"]][:len(secrets)] == secrets
        # Each secret line still follows the public line it followed before.
        def predecessors(log):
            return [log[i - 1]["text"] if i else None for i, line in enumerate(log) if line["secret"]]
        assert predecessors(after)[:len(secrets)] == predecessors(before)
        assert len(after) >= len(history)
        assert player.errors == []
    finally:
        player.close()
