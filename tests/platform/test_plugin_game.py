"""A third game is one engine module, one manifest and one frontend folder (docs/new-game.md): Nim, from
tests/plugin_game/, joins the site through settings alone (its manifest added to GAMES, its folder laid over a
copy of the web app), and the site lists it, opens a lobby and a match for it and serves its pages and files.
No platform file is edited."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from backend.engines import engine_ids
from backend.web import assets

pytestmark = pytest.mark.django_db

PLUGIN = Path(__file__).resolve().parents[1] / "plugin_game"


@pytest.fixture
def nim(settings, tmp_path):
    app = tmp_path / "frontend"
    shutil.copytree(settings.FRONTEND_DIR, app)
    shutil.copytree(PLUGIN / "frontend", app, dirs_exist_ok=True)
    settings.FRONTEND_DIR = app
    settings.GAMES = [*settings.GAMES, PLUGIN / "game.toml"]
    yield
    # (pytest-django's settings fixture puts GAMES back; the registry then forgets Nim's engine.)


def _boot(html: str) -> dict:
    return json.loads(re.search(r'<script id="boot" type="application/json">(.*?)</script>', html)[1])


def _names(html: str, rel: str) -> set[str]:
    return {assets.unhash(h) for h in re.findall(rf'<link rel="{rel}" href="/app/([^"]+)"', html)}


def test_the_site_lists_the_game_in_both_languages(nim):
    en = APIClient().get("/api/games/", HTTP_ACCEPT_LANGUAGE="en").json()
    assert [g["id"] for g in en] == ["condottiere", "gods_playground", "nim"]
    nim_en = en[-1]
    assert (nim_en["name"], nim_en["min_players"], nim_en["max_players"]) == ("Nim", 2, 2)
    assert nim_en["bots"] == ["advanced", "beginner"] and nim_en["options_schema"]["pile"]["default"] == 9
    hu = APIClient().get("/api/games/", HTTP_ACCEPT_LANGUAGE="hu").json()
    assert hu[-1]["name"] == "Nim játék" and hu[-1]["options_schema"]["pile"]["label"] == "Kövek"
    assert nim_en["options_schema"]["pile"]["label"] == "Stones"


def test_a_lobby_and_a_match_of_the_game(nim, make_user, client_for):
    host = client_for(make_user())
    lobby = host.post("/api/lobbies/", {"game": "nim", "options": {"pile": 5}, "num_seats": 2}, format="json")
    assert lobby.status_code == 201, lobby.json()
    lobby = lobby.json()
    assert host.post(f"/api/lobbies/{lobby['id']}/bots/", {"bot": "advanced"}, format="json").status_code == 200
    started = host.post(f"/api/lobbies/{lobby['id']}/start/")
    assert started.status_code == 201, started.json()
    record = host.get(f"/api/matches/{started.json()['match_id']}/").json()
    assert record["game"] == "nim"


def test_its_match_page_preloads_its_table_and_serves_its_files(nim, make_user, client):
    from backend.matches.services import create_match

    match = create_match("nim", {}, [make_user(), "beginner"], 1, True)
    html = client.get(f"/match/{match.pk}").content.decode()
    assert {"js/games/nim/table.js", "js/main.js"} <= _names(html, "modulepreload")
    assert not {m for m in _names(html, "modulepreload") if m.startswith(("js/games/condottiere/", "js/games/gods_playground/"))}
    assert _names(html, "preload") >= {"nim.css", "i18n/en/nim.json"}
    boot = _boot(html)["games"][-1]
    assert boot["id"] == "nim" and boot["table"]["module"] == "js/games/nim/table.js" and boot["pitch"]["hu"] == "Vedd el az utolsó követ!"
    # Its files, under their hashed names as the import map gives them, and under their plain ones.
    imports = json.loads(re.search(r'<script type="importmap">(.*?)</script>', html)[1])["imports"]
    for name in ("js/games/nim/table.js", "nim.css", "i18n/en/nim.json"):
        response = client.get(imports[f"/app/{name}"])
        assert response.status_code == 200, name
        assert client.get(f"/app/{name}").status_code == 200
    table = client.get(imports["/app/js/games/nim/table.js"])
    assert "javascript" in table["Content-Type"] and b"NimTable" in b"".join(table.streaming_content if table.streaming else [table.content])


def test_its_rules_and_leaderboard_pages_take_their_titles_and_modules_from_the_manifest(nim, client):
    html = client.get("/rules/nim", HTTP_ACCEPT_LANGUAGE="hu").content.decode()
    assert "<title>Nim: a játék menete · " in html
    assert "js/games/nim/rules.js" in _names(html, "modulepreload")
    assert "<title>Nim leaderboard · " in client.get("/leaderboard/nim").content.decode()


def test_the_game_leaves_with_its_manifest(settings):
    """Without Nim's manifest (the setting as shipped), its engine is not registered and nothing lists it."""
    assert "nim" not in engine_ids()
    assert "nim" not in [g["id"] for g in APIClient().get("/api/games/").json()]


def test_a_manifest_that_lacks_a_key_stops_the_site_naming_it(tmp_path):
    from django.core.exceptions import ImproperlyConfigured

    from backend.games.registry import load_manifest

    bad = tmp_path / "bad.toml"
    bad.write_text('id = "nim"\nname = { en = "Nim" }\n')
    with pytest.raises(ImproperlyConfigured, match=r"bad\.toml: needs 'engine'"):
        load_manifest(bad)
    bad.write_text('id = "nim"\nengine = "tests.plugin_game.engine"\nname = { en = "Nim" }\n[table]\nmodule = "x.js"\n')
    with pytest.raises(ImproperlyConfigured, match=r"\[table\]: needs 'export'"):
        load_manifest(bad)
