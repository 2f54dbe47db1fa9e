"""A third game in real Chromium: Nim (tests/plugin_game/), added by settings alone (its manifest in GAMES, its
frontend folder laid over a copy of the web app), shows on the home page, has its rules page, and its match
page draws its own table with its words, from its own module. No platform file is edited."""

from __future__ import annotations

import re
import shutil

import pytest
from django.conf import settings

from tests.support.servers import Daphne, manage, server_env

from .conftest import ROOT
from .support import DESKTOP, Client

PLUGIN = ROOT / "tests" / "plugin_game"
_MATCH = ("from backend.matches.services import create_match; "
          "print(create_match('nim', {'pile': 30}, ['beginner', 'advanced'], 1, True).pk)")


@pytest.fixture(scope="module")
def nim_site(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("nim-site")
    app = tmp / "frontend"
    shutil.copytree(settings.FRONTEND_DIR, app)
    shutil.copytree(PLUGIN / "frontend", app, dirs_exist_ok=True)
    env = server_env(f"sqlite:///{tmp / 'db.sqlite3'}", REDIS_URL="", DJANGO_PRODUCTION="", DJANGO_DEBUG="0",
                     LOG_LEVEL="WARNING", DJANGO_SETTINGS_MODULE="tests.plugin_game.settings",
                     PLUGIN_FRONTEND_DIR=str(app))
    manage(env, "migrate", "--noinput", "-v0")
    match_id = int(manage(env, "shell", "-c", _MATCH).split()[-1])
    with Daphne(env, log=tmp / "daphne.log") as server:
        yield f"http://127.0.0.1:{server.port}", match_id


def test_nim_shows_on_the_home_page_its_rules_and_its_own_table(browser, nim_site, screenshots):
    url, match_id = nim_site
    client = Client(browser, url, DESKTOP)
    page = client.page
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url.split("/app/", 1)[1]) if "/app/" in r.url else None)
    try:
        client.goto("/")
        card = page.locator("[data-testid=game-card][data-game=nim]")
        card.wait_for()
        assert "Nim" in card.inner_text() and "Take the last stone." in card.inner_text()
        page.click("[data-testid=language]")  # to Hungarian, without a reload: the manifest's words follow
        page.wait_for_function("() => document.querySelector('[data-game=nim]').innerText.includes('Nim játék')")
        assert "Vedd el az utolsó követ!" in card.inner_text()

        client.goto("/rules/nim")
        page.wait_for_selector("[data-testid=rules][data-game=nim]")

        client.goto(f"/match/{match_id}")
        page.wait_for_selector("[data-testid=table][data-version] [data-testid=nim-pile]")
        assert re.fullmatch(r"\d+ kő", page.inner_text("[data-testid=nim-pile]"))  # the bots may have taken some
        page.screenshot(path=str(screenshots / "plugin-nim-table.png"))
        assert any(u.startswith("js/games/nim/table.") for u in fetched)
        assert any(u.startswith("i18n/hu/nim.") for u in fetched) and any(u.startswith("nim.") for u in fetched)
        assert not [u for u in fetched if u.startswith(("js/games/condottiere/", "js/games/gods_playground/"))]
        assert not client.errors, client.errors
    finally:
        client.close()
