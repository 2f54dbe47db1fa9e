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


def _static_imports(root, module: str) -> set[str]:
    text = (root / module).read_text()
    here = (root / module).parent
    return {(here / spec).resolve().relative_to(root.resolve()).as_posix()
            for spec in re.findall(r'^\s*import\b[^;]*?\bfrom\s+"(\.[^"]+)"', text, re.MULTILINE | re.DOTALL)}


def _dynamic_imports(root, module: str) -> set[str]:
    here = (root / module).parent
    return {(here / spec).resolve().relative_to(root.resolve()).as_posix()
            for spec in re.findall(r'import\("(\.[^"]+)"\)', (root / module).read_text())}


def _modules(root) -> tuple[set[str], set[str]]:
    """(every module under js/, the lazy ones: those loaded with import() on first use (the game tables, the
    screens but the match's, the match menu's dialogs, the rematch, the help sheet, the log's narrator): not
    reached by static imports from main.js, nor from what a game table imports from outside its folder, which
    is preloaded so that the table's round brings all it needs)."""
    modules = {p.relative_to(root).as_posix() for p in (root / "js").rglob("*.js")}
    in_game = {m for m in modules if re.fullmatch(r"js/games/[^/]+/[^/]+\.js", m)}
    shared = {i for m in in_game for i in _static_imports(root, m) if i not in in_game}
    eager, todo = set(), ["js/main.js", *sorted(shared)]
    while todo:
        m = todo.pop()
        if m not in eager:
            eager.add(m)
            todo += sorted(_static_imports(root, m))
    return modules, modules - eager


def test_every_module_a_page_needs_is_preloaded_and_no_game_table():
    """index.html lists every module each page needs, so the browser fetches them in one round instead of an
    import waterfall; a game's table modules are neither listed nor imported statically by them (they load
    with import() from js/games/tables.js when such a match opens), so no page downloads another game's code."""
    root = settings.FRONTEND_DIR
    html = (root / "index.html").read_text()
    listed = set(re.findall(r'<link rel="modulepreload" href="/app/([^"{]+)">', html))
    modules, lazy = _modules(root)
    assert {"js/games/condottiere/table.js", "js/games/gods_playground/table.js", "js/screens/home.js",
            *(f"js/games/gods_playground/{m}.js" for m in ("decide", "nobles", "bid", "chooser")), "js/match/menu_dialogs.js", "js/match/rematch_offer.js",
            "js/match/time_control.js", "js/help_sheet.js", "js/games/narrate.js", "js/games/sheet_dialog.js",
            "js/match/seat_notices.js", "js/match/cue_play.js", "js/games/condottiere/result.js",
            "js/match/clock_face.js", "js/screens/common.js"} <= lazy
    assert all(f"js/screens/{m}.js" in lazy for m in ("auth", "create_lobby", "lobby_room", "account", "reset"))
    assert modules - lazy <= listed, sorted(modules - lazy - listed)
    assert not lazy & listed, sorted(lazy & listed)
    assert all((root / m).is_file() for m in listed)
    eager_pulls = {(m, i) for m in modules - lazy for i in _static_imports(root, m) if i in lazy}
    assert not eager_pulls, sorted(eager_pulls)


@pytest.mark.parametrize("path, screens", [
    ("/", {"home.js", "matches.js", "common.js"}), ("/lobbies", {"home.js", "matches.js", "common.js"}),
    ("/login", {"auth.js"}), ("/signup/", {"auth.js"}), ("/lobbies/new", {"create_lobby.js", "common.js"}),
    ("/lobby/12", {"lobby_room.js", "common.js"}), ("/matches", {"matches.js", "common.js"}), ("/match/7", set()),
    ("/reset", {"reset.js", "auth.js"}), ("/reset/MQ/c4x2-0123456789abcdef", {"reset.js", "auth.js"}),
    ("/account/", {"account.js", "auth.js"}), ("/rules/condottiere", {"rules_condottiere.js", "rules.js"}),
    ("/rules/gods_playground/", {"rules_gods_playground.js", "rules.js", "common.js"}),
    ("/u/alice", {"players.js", "common.js"}), ("/leaderboard/condottiere", {"players.js", "common.js"}),
    ("/leaderboard", {"players.js", "common.js"}),
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
    """A game's loader (js/games/tables.js) names every module of its folder in import() calls, so they download
    in one parallel round; the only exceptions are modules the table itself fetches with import() on first use
    (God's Playground's decision panels), whose own static imports came with the table already."""
    root = settings.FRONTEND_DIR
    _, lazy = _modules(root)
    loaded = _dynamic_imports(root, "js/games/tables.js")
    folders = sorted({m.rsplit("/", 1)[0] for m in loaded})
    assert set(folders) == {f"js/games/{g}" for g in ("condottiere", "gods_playground", "generic")}
    for folder in folders:
        requested = {m for m in loaded if m.startswith(folder + "/")}
        later = {m for r in requested for m in _dynamic_imports(root, r) if m.startswith(folder + "/")}
        assert not requested & later, folder
        assert requested | later == {m for m in lazy if m.startswith(folder + "/")}, folder
        for m in later:
            assert _static_imports(root, m) & lazy <= requested, m


@pytest.mark.parametrize("path, expected", [("/", True), ("/login", True), ("/lobby/12", True), ("/account", True),
                                            ("/match/7", False), ("/rules/gods_playground", False), ("/nowhere", False)])
def test_the_lobby_screens_words_and_look_are_preloaded_only_where_they_show(client, path, expected):
    """The screens but the match's and the rules pages bring the "screens" words and lobby.css (js/main.js): the
    shell preloads them on those addresses only, so a match page does not carry them."""
    html = client.get(path).content.decode()
    assert ('href="/app/lobby.css"' in html) is expected
    assert ('/screens.json"' in html) is expected
