"""How Django serves the web app (no browser needed): the shell on every client route, modules under /app/,
and nothing shadowing the API."""

from __future__ import annotations

import gzip
import json
import re

import pytest
from django.conf import settings
from django.test import override_settings

from backend.games import registry
from backend.web import assets
from backend.web.lean import lean_bytes

pytestmark = pytest.mark.django_db


def _preloaded(html: str, rel: str = "modulepreload") -> set[str]:
    """The shipped names of the files a page preloads with `rel`; each must be named by its current hash."""
    hrefs = re.findall(rf'<link rel="{rel}" href="/app/([^"]+)"', html)
    names = {assets.unhash(h) for h in hrefs}
    assert None not in names, hrefs
    return names


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
    boot = _boot(response)
    assert boot["user"] is None
    # Each game's parts, from its manifest (backend/games/registry.py), for the app's loaders.
    assert [g["id"] for g in boot["games"]] == ["condottiere", "gods_playground"]
    assert "csrftoken" in response.cookies


def test_the_shell_knows_who_is_signed_in(client, django_user_model):
    user = django_user_model.objects.create_user(username="Ann</script>", password="a-long-passphrase-1")
    client.force_login(user)
    response = client.get("/match/3")
    assert _boot(response)["user"] == {"id": user.pk, "username": "Ann</script>"}
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


def _table_modules(game: str) -> set[str]:
    """What a game's loader (js/games/tables.js) requests at once: its manifest's [table] modules."""
    table = registry.game(game).table
    return {table.module, *table.modules}


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


def _match(django_user_model, game: str, public: bool = True) -> int:
    from backend.matches.services import create_match

    users = [django_user_model.objects.create_user(username=f"{game[:4]}{i}", password="a-long-passphrase-1")
             for i in range(3)]
    return create_match(game, {}, users, 5, public).pk


def test_every_module_a_page_needs_is_preloaded_and_no_game_table(client):
    """The shell lists every module each page needs, so the browser fetches them in one round instead of an
    import waterfall; a game's table modules are neither listed nor imported statically by them (they load
    with import() from js/games/tables.js, as their manifests name them, when such a match opens), so no page
    downloads another game's code."""
    root = settings.FRONTEND_DIR
    listed = {m for m in _preloaded(client.get("/nowhere").content.decode()) if m.startswith("js/")}
    modules, lazy = _modules(root)
    assert {"js/games/condottiere/table.js", "js/games/gods_playground/table.js", "js/screens/home.js",
            *(f"js/games/gods_playground/{m}.js" for m in ("decide", "nobles", "bid", "chooser")), "js/match/menu_dialogs.js", "js/match/rematch_offer.js",
            "js/match/time_control.js", "js/help_sheet.js", "js/games/narrate.js", "js/games/sheet_dialog.js",
            "js/match/seat_notices.js", "js/match/cue_play.js", "js/games/condottiere/result.js",
            "js/match/clock_face.js", "js/screens/common.js"} <= lazy
    assert all(f"js/screens/{m}.js" in lazy for m in ("auth", "create_lobby", "lobby_room", "account", "reset"))
    assert listed == modules - lazy, sorted(listed ^ (modules - lazy))
    eager_pulls = {(m, i) for m in modules - lazy for i in _static_imports(root, m) if i in lazy}
    assert not eager_pulls, sorted(eager_pulls)


@pytest.mark.parametrize("game, other, look, words", [("condottiere", "gods_playground", "condottiere.css", "condottiere"),
                                                      ("gods_playground", "condottiere", "gp.css", "gods_playground")])
def test_a_match_page_preloads_its_games_table_and_not_the_others(client, django_user_model, game, other, look, words):
    """A match page's graph includes its game's table (what js/games/tables.js loads for it, from its manifest:
    its modules, look and words), so the table downloads with the shell; the other game's never."""
    root = settings.FRONTEND_DIR
    html = client.get(f"/match/{_match(django_user_model, game)}").content.decode()
    listed = {m for m in _preloaded(html) if m.startswith("js/")}
    modules, lazy = _modules(root)
    table = _table_modules(game)
    assert table and listed == (modules - lazy) | table, sorted(listed ^ ((modules - lazy) | table))
    assert not {m for m in listed if m.startswith(f"js/games/{other}/")}
    assert _preloaded(html, "preload") == {look, f"i18n/en/site.json", f"i18n/en/{words}.json"}


def test_a_private_match_page_tells_a_stranger_nothing_of_its_game(client, django_user_model):
    match_id = _match(django_user_model, "gods_playground", public=False)
    html = client.get(f"/match/{match_id}").content.decode()
    assert not {m for m in _preloaded(html) if m.startswith("js/games/gods_playground/")}
    assert _preloaded(html, "preload") == {"i18n/en/site.json"}
    assert "gp.css" not in _preloaded(html, "preload")


def test_the_import_map_names_every_file_by_its_hash_and_the_page_loads_hashed_names_only(client):
    """Modules import each other by plain relative names, which the import map turns into hashed ones (the
    stylesheets and words too, through import.meta.resolve in js/lib.js): every file the page names, and every
    one the app reaches, comes under a name whose bytes never change."""
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="hu")
    html = response.content.decode()
    [text] = re.findall(r'<script type="importmap">(.*?)</script>', html, re.S)
    imports = json.loads(text)["imports"]
    for bare, name in assets.BARE.items():
        assert assets.unhash(imports[bare].removeprefix("/app/")) == name
    shipped = {p.relative_to(settings.FRONTEND_DIR).as_posix() for p in settings.FRONTEND_DIR.rglob("*")
               if p.suffix in (".js", ".css", ".json", ".svg") and not p.is_relative_to(settings.FRONTEND_DIR / "i18n" / "en")} - {"early.js"}
    assert {k.removeprefix("/app/") for k in imports if k.startswith("/app/")} == shipped
    assert all(assets.unhash(v.removeprefix("/app/")) == k.removeprefix("/app/") for k, v in imports.items() if k.startswith("/app/"))
    for url in re.findall(r'(?:href|src)="(/app/[^"]+)"', html):
        assert assets.unhash(url.removeprefix("/app/")), url


def test_hashed_names_are_kept_for_a_year_and_plain_names_revalidated(client):
    hashed = assets.manifest().names["js/main.js"]
    response = client.get(f"/app/{hashed}")
    assert response.status_code == 200 and response.content == lean_bytes(settings.FRONTEND_DIR / "js" / "main.js")
    assert response["Cache-Control"] == "public, max-age=31536000, immutable"
    assert "javascript" in response["Content-Type"] and response["X-Content-Type-Options"] == "nosniff"
    plain = client.get("/app/js/main.js")
    assert plain.status_code == 200 and plain["Cache-Control"] == "no-cache" and plain.content == response.content
    # A name whose hash is not the file's current one (an old deploy's) is not served as if it were.
    stale = re.sub(r"\.[0-9a-f]{10}\.", ".0123456789.", hashed)
    assert stale != hashed and client.get(f"/app/{stale}").status_code == 404
    picture = assets.manifest().names["icon.svg"]
    assert client.get(f"/app/{picture}")["Cache-Control"] == assets.IMMUTABLE


def test_the_embedded_default_serves_the_app_gzipped(client):
    """`make run` (Daphne alone, no nginx) compresses the app's files for a browser that asks, as nginx does."""
    for name in ("js/main.js", "styles.css", "i18n/hu/site.json", "vendor/preact.module.js", "icon.svg"):
        for url in (f"/app/{name}", f"/app/{assets.manifest().names[name]}"):
            response = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
            assert response.status_code == 200 and response["Content-Encoding"] == "gzip", url
            assert "Accept-Encoding" in response["Vary"]
            shipped = (lean_bytes if name.endswith((".js", ".css", ".json")) else lambda p: p.read_bytes())(
                settings.FRONTEND_DIR / name)
            assert gzip.decompress(response.content) == shipped
            assert len(response.content) < len(shipped)
            assert not client.get(url).has_header("Content-Encoding")  # no gzip where the browser did not ask


@override_settings(FRONTEND_LEAN=False)
def test_with_lean_off_hashes_name_the_sources(client):
    name = assets.manifest().names["js/main.js"]
    response = client.get(f"/app/{name}")
    assert b"".join(response.streaming_content) == (settings.FRONTEND_DIR / "js" / "main.js").read_bytes()


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
    preloaded = {m.removeprefix("js/screens/") for m in _preloaded(html) if m.startswith("js/screens/")}
    _, lazy = _modules(settings.FRONTEND_DIR)
    assert {m for m in preloaded if f"js/screens/{m}" in lazy} == screens
    assert all((settings.FRONTEND_DIR / "js" / "screens" / m).is_file() for m in screens)


def test_each_game_loader_requests_its_whole_table_at_once():
    """A game's loader (js/games/tables.js) requests every module of its folder at once (its manifest's [table];
    the generic table's in import() calls), so they download in one parallel round; the only exceptions are
    modules the table itself fetches with import() on first use (God's Playground's decision panels), whose own
    static imports came with the table already."""
    root = settings.FRONTEND_DIR
    _, lazy = _modules(root)
    loaded = _dynamic_imports(root, "js/games/tables.js").union(*map(_table_modules, registry.games()))
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
    assert ("lobby.css" in _preloaded(html, "preload")) is expected
    assert ("i18n/en/screens.json" in _preloaded(html, "preload")) is expected
