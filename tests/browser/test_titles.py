"""The tab title names the screen and, on a match, its game: the site hosts two games."""

from __future__ import annotations

import html
import json
import re

import pytest

from .support import DESKTOP, Client, start_against_two_bots

pytestmark = pytest.mark.browser

SITE = "Condottiere & God's Playground"


def _title_matches(client: Client, pattern: str) -> str:
    """Wait until document.title matches `pattern` (the app sets it after rendering) and return it."""
    client.page.wait_for_function(f"() => new RegExp({json.dumps(pattern)}).test(document.title)")
    return client.page.title()


@pytest.mark.parametrize("game_id, game", [("condottiere", "Condottiere"), ("gods_playground", "God's Playground")])
def test_the_tab_names_the_screen_and_the_game_of_a_match(browser, live_server_url, game_id, game):
    player = Client(browser, live_server_url, DESKTOP)
    watcher = Client(browser, live_server_url, DESKTOP)
    try:
        # Before the app runs (and for anything reading the served page) the title is the neutral site name.
        shell = player.page.request.get(live_server_url + "/").text()
        assert html.unescape(re.search(r"<title>(.*?)</title>", shell).group(1)) == SITE
        player.goto("/")
        assert _title_matches(player, "^Lobbies · ") == f"Lobbies · {SITE}"
        player.signup()
        start_against_two_bots(player, game_id)
        match_id = re.search(r"/match/(\d+)", player.page.url).group(1)
        # A bot may already have passed the move on: the seated player's tab then leads with it.
        title = _title_matches(player, f"{re.escape(game)} · match #{match_id}$")
        assert re.fullmatch(f"(● Your move · )?{re.escape(game)} · match #{match_id}", title), title

        watcher.goto(f"/match/{match_id}")
        assert _title_matches(watcher, "^Watching · ") == f"Watching · {game} · match #{match_id}"
        assert player.errors == [] and watcher.errors == []
    finally:
        player.close()
        watcher.close()
