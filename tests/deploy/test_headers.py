"""Security headers on what the app serves (the browser test checks the app runs under them)."""

from __future__ import annotations

import base64
import hashlib
import re

import pytest

pytestmark = pytest.mark.django_db


def _directives(policy: str) -> dict[str, list[str]]:
    return {name: values for name, *values in (part.split() for part in policy.split(";") if part.strip())}


@pytest.mark.parametrize("path", ["/", "/match/7", "/api/games/", "/api/no-such/", "/admin/login/",
                                  "/app/js/main.js"])
def test_every_response_carries_the_policies(client, path):
    response = client.get(path)
    policy = _directives(response["Content-Security-Policy"])
    assert policy["default-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"] and policy["frame-ancestors"] == ["'none'"]
    assert policy["base-uri"] == ["'none'"]
    for directive in ("script-src", "style-src"):
        assert not {"'unsafe-inline'", "'unsafe-eval'", "*", "data:"} & set(policy[directive]), directive
    assert "camera=()" in response["Permissions-Policy"] and "geolocation=()" in response["Permissions-Policy"]
    assert response["Referrer-Policy"] == "same-origin"


def test_the_page_allows_exactly_its_import_map_and_early_js(client):
    """The only inline scripts that run are the import map and early.js, each allowed by its hash;
    the boot data is JSON, which never runs, and needs none."""
    response = client.get("/")
    page = response.content.decode()
    scripts = re.findall(r"<script(?![^>]*\bsrc=)([^>]*)>(.*?)</script>", page, re.S)
    running = [body for attrs, body in scripts if "application/json" not in attrs]
    assert len(running) == 2 and '"imports"' in running[1] and "__earlyMatch" in running[0]
    digests = [f"'sha256-{base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()}'" for body in running]
    assert _directives(response["Content-Security-Policy"])["script-src"] == ["'self'", *digests]
    assert "/app/early.js" not in page


def test_the_policy_names_the_import_map_the_page_holds(client):
    """The hash follows the page as served: an edited import map is never blocked by a stale hash."""
    from backend.common.headers import inline_script_hashes

    response = client.get("/")
    page = response.content.decode()
    [importmap] = re.findall(r'<script type="importmap">(.*?)</script>', page, re.S)
    digest = base64.b64encode(hashlib.sha256(importmap.encode()).digest()).decode()
    assert f"'sha256-{digest}'" in _directives(response["Content-Security-Policy"])["script-src"]
    edited = page.replace('"htm":"/app/vendor/htm.module.', '"htm":"/app/vendor/htm.module.v2.')
    assert edited != page and inline_script_hashes(edited) != inline_script_hashes(page)


def test_the_api_docs_page_names_its_cdn_and_runs_no_inline_script(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    page = response.content.decode()
    assert not [attrs for attrs, _ in re.findall(r"<script(?![^>]*\bsrc=)([^>]*)>(.*?)</script>", page, re.S)]
    policy = _directives(response["Content-Security-Policy"])
    assert "https://cdn.jsdelivr.net" in policy["script-src"] and "'unsafe-inline'" not in policy["style-src"]
    style = re.search(r"<style>(.*?)</style>", page, re.S).group(1)
    assert f"'sha256-{base64.b64encode(hashlib.sha256(style.encode()).digest()).decode()}'" in policy["style-src"]
    script = client.get("/api/docs/?script=")
    assert script.status_code == 200 and "SwaggerUIBundle" in script.content.decode()
