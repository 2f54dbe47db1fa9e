"""The match log in the reader's language: a Hungarian player of a Condottiere and of a God's Playground
match reads Hungarian log lines (worded from the events' kind and params, never the engines' English
text), and switching the language re-words the log in place."""

from __future__ import annotations

import random
import re
import time
import pytest

from .support import PHONE, Client, start_against_two_bots
from .support import take_turn as condottiere_turn
from .test_catalogues import catalogue
from .test_gods_playground import take_turn as gods_playground_turn
from .test_i18n import assert_hungarian

pytestmark = pytest.mark.browser

_LINES_JS = "() => [...document.querySelectorAll('[data-testid=log] li')].map((li) => li.textContent.trim())"
_EVENTS_JS = "id => fetch(`/api/matches/${id}/events/`, { credentials: 'same-origin' }).then((r) => r.json())"


def _play_until_the_log_has(client: Client, game: str, lines: int, timeout: float = 90) -> list[str]:
    rng = random.Random(3)
    turn = condottiere_turn if game == "condottiere" else (lambda c, r: gods_playground_turn(c.page, r))
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        shown = client.page.evaluate(_LINES_JS)
        if len(shown) >= lines:
            return shown
        if not turn(client, rng):  # the bots' turn: await their lines or this seat's turn
            client.page.wait_for_function(
                """n => document.querySelectorAll('[data-testid=log] li').length > n
                     || document.querySelector('[data-testid=table]')?.dataset.myTurn === 'yes'""",
                arg=len(shown), timeout=30000)
    raise AssertionError(f"{game}: the log has only {client.page.evaluate(_LINES_JS)}")


def _english_sentences(game: str) -> list[re.Pattern]:
    """The English narrator sentences of the game and the platform, as patterns."""
    out = []
    for part in ("site", f"{game}_events"):
        for key, value in catalogue("en", part).items():
            if key.startswith("ev."):
                for text in value.values() if isinstance(value, dict) else [value]:
                    out.append(re.compile(".+".join(re.escape(p) for p in re.split(r"\{\w+\}", text))))
    return out


@pytest.mark.parametrize("game", ["condottiere", "gods_playground"])
def test_a_hungarian_player_reads_the_log_in_hungarian_and_the_switch_rewords_it(browser, live_server_url, screenshots,
                                                                                 game):
    me = Client(browser, live_server_url, PHONE, locale="hu-HU")
    try:
        me.signup("naplo")
        start_against_two_bots(me, game)
        match_id = int(me.page.url.rstrip("/").rsplit("/", 1)[1])
        hungarian = _play_until_the_log_has(me, game, 8)
        events = me.page.evaluate(_EVENTS_JS, match_id)
        assert events and all("params" in e and "kind" in e for e in events)
        english_texts = {e["text"] for e in events}
        english = _english_sentences(game)
        for line in hungarian:
            assert line and line not in english_texts and "Seat " not in line, line
            assert not any(p.fullmatch(line) for p in english), f"English in the Hungarian log: {line}"
        assert_hungarian(me, f"{game} table with its log")
        me.page.screenshot(path=str(screenshots / f"log-{game}-hu-phone.png"), full_page=True)
        me.page.locator("[data-testid=log]").screenshot(path=str(screenshots / f"log-{game}-hu-lines.png"))

        me.page.click("[data-testid=language]")
        me.page.wait_for_function("() => document.documentElement.lang === 'en'")
        me.page.wait_for_function("n => document.querySelectorAll('[data-testid=log] li').length >= n", arg=len(hungarian))
        reworded = me.page.evaluate(_LINES_JS)[: len(hungarian)]
        assert reworded != hungarian
        assert sum(any(p.fullmatch(line) for p in english) for line in reworded) >= len(reworded) // 2, reworded
        me.page.screenshot(path=str(screenshots / f"log-{game}-en-phone.png"), full_page=True)
        me.page.locator("[data-testid=log]").screenshot(path=str(screenshots / f"log-{game}-en-lines.png"))
        assert me.errors == [], me.errors
    finally:
        me.close()
