"""The match log across a reconnect: the history reloads from REST, which holds
every line this viewer may see (a player's own private lines included), and the
lines the socket brought after it stay, each once."""

from __future__ import annotations

import random
import time

import pytest

from .support import DESKTOP, Client, start_against_two_bots
from .test_gods_playground import _stage_nobles, take_turn

pytestmark = pytest.mark.browser

# Feeds state messages through match_log.js as screens/match.js does, then reloads the history.
_MERGE_JS = """async ({ messages, history }) => {
  const { tagEvents, withHistory } = await import('/app/js/screens/match_log.js');
  let log = [];
  for (const [after, version, events] of messages) log = log.concat(tagEvents(events, after, version));
  return { live: log.map((e) => e.text), reloaded: withHistory(log, history).map((e) => e.text) };
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


def test_a_reload_keeps_every_line_in_its_place(app_page):
    messages = [
        [0, 1, [_pub("A")]],
        [1, 2, [_pub("B"), _mine("x"), _pub("C")]],
        [2, 4, [_mine("y"), _pub("D"), _pub("E")]],  # a slow client skipped version 3
        [4, 5, [_mine("z")]],
    ]
    # After the drop the history holds what happened meanwhile (F at version 6), this player's lines included.
    history = _history((1, "A"), (2, "B"), (2, "x", 1), (2, "C"), (3, "y", 1), (3, "D"), (4, "E"), (5, "z", 1),
                       (6, "F"))
    out = app_page.evaluate(_MERGE_JS, {"messages": messages, "history": history})
    assert out["live"] == ["A", "B", "x", "C", "y", "D", "E", "z"]
    assert out["reloaded"] == ["A", "B", "x", "C", "y", "D", "E", "z", "F"]


def test_a_history_older_than_the_socket_keeps_the_newer_events_once(app_page):
    messages = [[0, 1, [_pub("A")]], [1, 2, [_mine("x"), _pub("B")]], [2, 3, [_pub("C")]]]
    # Answered before version 2 was played: only A. Socket events after it stay, none twice.
    out = app_page.evaluate(_MERGE_JS, {"messages": messages, "history": _history((1, "A"))})
    assert out["reloaded"] == ["A", "x", "B", "C"]
    # Answered after everything: the history replaces what the socket brought.
    out = app_page.evaluate(_MERGE_JS, {"messages": messages,
                                        "history": _history((1, "A"), (2, "x", 1), (2, "B"), (3, "C"))})
    assert out["reloaded"] == ["A", "x", "B", "C"]
    # An empty history (the match just started) keeps what the socket brought.
    out = app_page.evaluate(_MERGE_JS, {"messages": messages, "history": []})
    assert out["reloaded"] == ["A", "x", "B", "C"]


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

        with page.expect_response(lambda r: r.url.endswith("/events/")) as reloaded:
            page.evaluate("() => { for (const s of window.__sockets) s.ws.close(); }")
        history = reloaded.value.json()
        # The player's own log holds their secret lines, marked private (the page words them from
        # kind and params, so compare the events, not the English `text` older clients read).
        private = [e for e in history if e.get("private")]
        assert len(private) >= len(secrets), private
        page.wait_for_selector("[data-testid=connection]", state="detached")
        page.wait_for_timeout(300)  # the reloaded history is rendered
        after = page.evaluate(_LOG_JS)
        assert [line["text"] for line in after if line["secret"]][:len(secrets)] == secrets
        # Each secret line still follows the public line it followed before the drop.
        def predecessors(log):
            return [log[i - 1]["text"] if i else None for i, line in enumerate(log) if line["secret"]]
        assert predecessors(after)[:len(secrets)] == predecessors(before)
        assert len(after) >= len(history)
        assert player.errors == []
    finally:
        player.close()
