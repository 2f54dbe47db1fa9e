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


@pytest.mark.parametrize("path", ["/", "/login", "/signup", "/lobbies/new", "/lobby/12", "/matches", "/match/7"])
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


def test_every_module_is_preloaded():
    """index.html lists every module, so the browser fetches them in one round instead of an import waterfall."""
    root = settings.FRONTEND_DIR
    html = (root / "index.html").read_text()
    listed = set(re.findall(r'<link rel="modulepreload" href="/app/([^"]+)">', html))
    modules = {str(p.relative_to(root)) for p in (root / "js").rglob("*.js")}
    # God's Playground's table loads with import() from its preloaded index.js, so other pages never fetch it.
    lazy = {m for m in modules if m.startswith("js/games/gods_playground/") and not m.endswith("/index.js")}
    assert modules - lazy <= listed, sorted(modules - lazy - listed)
    assert not lazy & listed, sorted(lazy & listed)
    assert all((root / m).is_file() for m in listed)
