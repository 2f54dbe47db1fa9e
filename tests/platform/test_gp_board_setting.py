"""GP_BOARD_FILE: an operator's God's Playground board. New matches record the
server's board (name, hash, values) in their options and state, so a running
match never changes board; players never see or set it as an option; a bad file
stops the server at start with the value and the rule it breaks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from backend.engines import get_engine
from backend.engines.gods_playground.board import DEFAULT
from backend.games import boards
from backend.matches.models import Match

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
BOARD_TOML = ROOT / "backend" / "engines" / "gods_playground" / "board.toml"
PRINTED = BOARD_TOML.read_text(encoding="utf-8").replace('name = "default"', 'name = "printed copy"').replace(
    'black = { value = 3, source = "provisional" }', 'black = { value = 4, source = "printed" }')


@pytest.fixture
def server_board_file(settings, tmp_path):
    """Point GP_BOARD_FILE at a file; the server board is read afresh, and again after the test."""
    def use(text: str | None) -> None:
        if text is None:
            settings.GP_BOARD_FILE = ""
        else:
            path = tmp_path / "board.toml"
            path.write_text(text, encoding="utf-8")
            settings.GP_BOARD_FILE = str(path)
        boards.server_board.cache_clear()
    yield use
    boards.server_board.cache_clear()


def _user(name: str):
    return get_user_model().objects.create_user(username=name, password="x-very-long-pass-1")


def _start_match(host) -> int:
    client = APIClient()
    client.force_authenticate(host)
    lobby = client.post("/api/lobbies/", {"game": "gods_playground", "num_seats": 3}, format="json").json()
    for bot in ("heuristic", "random"):
        assert client.post(f"/api/lobbies/{lobby['id']}/bots/", {"bot": bot}, format="json").status_code == 200
    started = client.post(f"/api/lobbies/{lobby['id']}/start/")
    assert started.status_code == 201, started.content
    return started.json()["match_id"]


def test_a_new_match_records_the_servers_board_and_keeps_it(server_board_file):
    host = _user("gpb")
    server_board_file(None)
    first = Match.objects.get(pk=_start_match(host))
    assert first.options["board"] == DEFAULT.to_json() == first.state["board"]

    server_board_file(PRINTED)
    second = Match.objects.get(pk=_start_match(host))
    assert second.state["board"]["name"] == "printed copy"
    assert second.state["board"]["values"]["enemy_vp"]["black"] == 4
    assert second.state["board"]["hash"] != DEFAULT.hash
    first.refresh_from_db()
    assert first.state["board"]["hash"] == DEFAULT.hash  # the running match keeps its board
    engine = get_engine("gods_playground")
    assert engine.view(second.state, None)["board"]["values"]["enemy_vp"]["black"] == 4
    # Replaying the stored options rebuilds the same start, whatever the server's board is now.
    server_board_file(None)
    again = engine.setup(3, second.options, second.seed)
    assert again["board"] == second.state["board"]


def test_players_neither_see_nor_set_the_board_option():
    host = _user("gpo")
    client = APIClient()
    client.force_authenticate(host)
    games = {g["id"]: g for g in client.get("/api/games/").json()}
    assert "board" not in games["gods_playground"]["options_schema"]
    refused = client.post("/api/lobbies/", {"game": "gods_playground", "num_seats": 3,
                                            "options": {"board": DEFAULT.to_json()}}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "bad_message"
    match_id = _start_match(host)
    assert "board" not in client.get(f"/api/matches/{match_id}/").json()["options"]


def _django_start(env_board: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "GP_BOARD_FILE": env_board, "DJANGO_SETTINGS_MODULE": "backend.settings"}
    env.pop("DATABASE_URL", None)
    return subprocess.run([sys.executable, "-c", "import django; django.setup(); print('started')"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False)


def test_a_bad_board_file_stops_the_server_naming_the_value_and_the_rule(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(PRINTED.replace('yellow = { value = 3, source = "provisional" }',
                                   'yellow = { value = 5, source = "printed" }'), encoding="utf-8")
    done = _django_start(str(bad))
    assert done.returncode != 0 and "started" not in done.stdout
    assert "ImproperlyConfigured" in done.stderr
    assert "enemy_vp.yellow = 5: the Tatars' VP are 2 or 3" in done.stderr and "(rulebook p.14)" in done.stderr
    missing = _django_start(str(tmp_path / "nowhere.toml"))
    assert missing.returncode != 0 and "cannot read it" in missing.stderr
    good = tmp_path / "good.toml"
    good.write_text(PRINTED, encoding="utf-8")
    assert _django_start(str(good)).stdout.strip() == "started"
