"""How Django serves the web app (no browser needed): the shell on every client route, modules under /app/,
and nothing shadowing the API."""

from __future__ import annotations

import json
import re

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db


def _boot(response) -> dict:
    html = response.content.decode()
    m = re.search(r'<script id="boot" type="application/json">(.*?)</script>', html)
    assert m, "the page carries the boot data"
    return json.loads(m.group(1))


@pytest.mark.parametrize("path", ["/", "/login", "/signup", "/lobbies/new", "/lobby/12", "/matches", "/match/7",
                                  "/reset", "/reset/MQ/c4x2-0123456789abcdef", "/account", "/rules/condottiere",
                                  "/rules/gods_playground"])
def test_client_routes_return_the_shell(client, path):
    response = client.get(path)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    assert _boot(response) == {"user": None}
    assert "csrftoken" in response.cookies


def test_the_shell_knows_who_is_signed_in(client, django_user_model):
    user = django_user_model.objects.create_user(username="Ann</script>", password="a-long-passphrase-1")
    client.force_login(user)
    response = client.get("/match/3")
    assert _boot(response) == {"user": {"id": user.pk, "username": "Ann</script>"}}
    assert "Ann</script>" not in response.content.decode()  # escaped inside the JSON script


def test_modules_are_served_and_the_api_is_not_shadowed(client):
    js = client.get("/app/js/main.js")
    assert js.status_code == 200 and "javascript" in js["Content-Type"]
    assert client.get("/app/vendor/preact.module.js").status_code == 200
    assert client.get("/app/js/nope.js").status_code == 404
    assert client.get("/app/../manage.py").status_code in (400, 404)  # never the file outside frontend/
    api = client.get("/api/no-such-endpoint/")
    assert api.status_code == 404 and b'id="boot"' not in api.content
    assert b'id="boot"' not in client.get("/ws/matches/1/").content
    assert client.get("/api/games/").status_code == 200
    assert client.post("/", {}).status_code == 405


def _modules(root) -> tuple[set[str], set[str]]:
    """(every module under js/, the lazy ones: a game folder's modules besides its index.js loader, the
    screens main.js loads with import(), and the chat lazy.js loads so)."""
    modules = {p.relative_to(root).as_posix() for p in (root / "js").rglob("*.js")}
    lazy = {m for m in modules if re.fullmatch(r"js/games/[^/]+/[^/]+\.js", m) and not m.endswith("/index.js")}
    lazy |= {f"js/{m}" for m in re.findall(r'import\("\./([^"]+)"\)', (root / "js" / "main.js").read_text())}
    lazy |= {f"js/{m}" for m in re.findall(r'import\("\./([^"]+)"\)', (root / "js" / "lazy.js").read_text())}  # the chat
    return modules, lazy


def _static_imports(root, module: str) -> set[str]:
    text = (root / module).read_text()
    here = (root / module).parent
    return {(here / spec).resolve().relative_to(root.resolve()).as_posix()
            for spec in re.findall(r'^\s*import\b[^;]*?\bfrom\s+"(\.[^"]+)"', text, re.M | re.S)}


def test_every_module_a_page_needs_is_preloaded_and_no_game_table():
    """index.html lists every module each page needs, so the browser fetches them in one round instead of an
    import waterfall; a game's table modules are neither listed nor imported statically by them (they load
    with import() from the game's index.js when such a match opens), so no page downloads another game's code."""
    root = settings.FRONTEND_DIR
    html = (root / "index.html").read_text()
    listed = set(re.findall(r'<link rel="modulepreload" href="/app/([^"{]+)">', html))
    modules, lazy = _modules(root)
    assert {"js/games/condottiere/table.js", "js/games/gods_playground/table.js", "js/screens/home.js"} <= lazy
    assert modules - lazy <= listed, sorted(modules - lazy - listed)
    assert not lazy & listed, sorted(lazy & listed)
    assert all((root / m).is_file() for m in listed)
    eager_pulls = {(m, i) for m in modules - lazy for i in _static_imports(root, m) if i in lazy}
    assert not eager_pulls, sorted(eager_pulls)


@pytest.mark.parametrize("path, screens", [
    ("/", {"home.js", "matches.js"}), ("/lobbies", {"home.js", "matches.js"}), ("/login", {"auth.js"}),
    ("/signup/", {"auth.js"}), ("/lobbies/new", {"create_lobby.js"}), ("/lobby/12", {"lobby_room.js"}),
    ("/matches", {"matches.js"}), ("/match/7", set()), ("/reset", {"reset.js", "auth.js"}),
    ("/reset/MQ/c4x2-0123456789abcdef", {"reset.js", "auth.js"}), ("/account/", {"account.js", "auth.js"}),
    ("/rules/condottiere", {"rules_condottiere.js", "rules.js"}), ("/rules/gods_playground/", {"rules_gods_playground.js", "rules.js"}),
    ("/u/alice", {"players.js"}), ("/leaderboard/condottiere", {"players.js"}), ("/leaderboard", {"players.js"}),
])
def test_the_shell_preloads_the_screen_its_address_shows_and_no_other(client, path, screens):
    """A cold load fetches the lazily loaded screen it opens with in the same round as the shell's modules;
    a match page (the heaviest) downloads no other screen."""
    html = client.get(path).content.decode()
    preloaded = set(re.findall(r'<link rel="modulepreload" href="/app/js/screens/([^"]+)">', html))
    _, lazy = _modules(settings.FRONTEND_DIR)
    assert {m for m in preloaded if f"js/screens/{m}" in lazy} == screens
    assert all((settings.FRONTEND_DIR / "js" / "screens" / m).is_file() for m in screens)


def test_each_game_loader_requests_its_whole_table_at_once():
    """A loader names every module of its folder in import() calls, so they download in one parallel round."""
    root = settings.FRONTEND_DIR
    _, lazy = _modules(root)
    loaders = sorted((root / "js" / "games").glob("*/index.js"))
    assert {p.parent.name for p in loaders} >= {"condottiere", "gods_playground"}
    for loader in loaders:
        folder = loader.parent.relative_to(root).as_posix()
        requested = {f"{folder}/{name}" for name in re.findall(r'import\("\./([^"]+)"\)', loader.read_text())}
        assert requested == {m for m in lazy if m.startswith(folder + "/")}, folder
