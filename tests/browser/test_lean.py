"""The web app's files as shipped (backend/web/lean.py): without comments, still the same program.

Every module's lean text must parse as an ES module (Node's own parser, `node --check`); the browser tests run
the lean files, so they check that the app still behaves. No browser needed here."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings

from backend.web import assets
from backend.web.lean import lean, lean_bytes, strip_js

pytestmark = pytest.mark.django_db


def test_comments_and_layout_go_and_the_code_stays():
    src = """// A module.
import { html } from "./lib.js";  // trailing

/** Documented. */
export function A({ x }) {
    const y = x / 2 / 3;   /* halves */
    return x   +   y;
}
"""
    assert strip_js(src) == 'import { html } from "./lib.js";\nexport function A({ x }) {\nconst y = x / 2 / 3;\nreturn x + y;\n}\n'


def test_strings_regular_expressions_and_licences_are_copied_as_they_are():
    src = """const a = "// not a comment /* nor this */";
const b = 'it\\'s // here';
const r = /\\/\\/[/*]x/g, s = x.replace(/ +/g, " ");
/*! licence: kept */
const c = (n) => n / 2;
"""
    out = strip_js(src)
    for kept in ('"// not a comment /* nor this */"', "'it\\'s // here'", "/\\/\\/[/*]x/g", "/ +/g, \" \"",
                 "/*! licence: kept */", "n / 2"):
        assert kept in out


def test_template_literals_keep_their_text_and_their_code_is_stripped():
    # htm's closing tag <//>, spaces and a line that looks like a comment are the template's own text.
    src = """const v = html`<${Sheet} title=${t("x") /* the title */}>
      // shown as text
      ${open && html`<b>${ {a: 1}.a }</b>   <//>`}
    <//>`; // after
const w = `${a}/${b}`;
"""
    out = strip_js(src)
    assert out == ('const v = html`<${Sheet} title=${t("x") }>\n      // shown as text\n'
                   '      ${open && html`<b>${ {a: 1}.a }</b>   <//>`}\n    <//>`;\nconst w = `${a}/${b}`;\n')


def test_a_module_it_cannot_read_is_shipped_as_written():
    src = b"// unfinished\nconst a = `${b}\n"
    assert lean("odd.js", src) == src


def test_words_become_compact_json_and_css_loses_its_comments():
    words = (settings.FRONTEND_DIR / "i18n" / "hu" / "site.json").read_bytes()
    assert json.loads(lean("site.json", words)) == json.loads(words)
    css = lean("a.css", b"/* Look. */\n.a {\n  color: red; /* why */\n}\n")
    assert css == b".a{color:red}"


def test_every_shipped_module_parses_as_an_es_module(tmp_path):
    node = shutil.which("node")
    if node is None:  # CI installs it (.ci/run) and fails loudly without it
        assert os.environ.get("REQUIRE_BROWSER") != "1", "Node.js is missing (apt-get install nodejs)"
        pytest.skip("Node.js parses the shipped modules: apt-get install nodejs")
    modules = sorted(settings.FRONTEND_DIR.rglob("*.js"))
    assert len(modules) > 50
    for path in modules:
        shipped = tmp_path / (path.relative_to(settings.FRONTEND_DIR).as_posix().replace("/", "__") + ".mjs")
        shipped.write_bytes(lean_bytes(path))
        done = subprocess.run([node, "--check", str(shipped)], capture_output=True, text=True)
        assert done.returncode == 0, f"{path}: {done.stderr[-800:]}"
        assert len(shipped.read_bytes()) <= path.stat().st_size


def test_django_serves_the_lean_bytes_and_revalidates_on_the_source(client):
    source = settings.FRONTEND_DIR / "js" / "main.js"
    response = client.get("/app/js/main.js")
    assert response.status_code == 200 and "javascript" in response["Content-Type"]
    assert response.content == lean_bytes(source) and len(response.content) < source.stat().st_size
    assert response["Cache-Control"] == "no-cache" and response["X-Content-Type-Options"] == "nosniff"
    again = client.get("/app/js/main.js", HTTP_IF_MODIFIED_SINCE=response["Last-Modified"])
    assert again.status_code == 304
    assert b"".join(client.get("/app/icon.svg").streaming_content) == (settings.FRONTEND_DIR / "icon.svg").read_bytes()
    assert client.get("/app/js/nope.js").status_code == 404


@override_settings(FRONTEND_LEAN=False)
def test_the_sources_as_they_are_when_lean_is_off(client):
    response = client.get("/app/js/main.js")
    assert b"".join(response.streaming_content) == (settings.FRONTEND_DIR / "js" / "main.js").read_bytes()


def test_collectstatic_ships_the_same_bytes_for_nginx(tmp_path):
    with override_settings(STATIC_ROOT=str(tmp_path)):
        call_command("collectstatic", interactive=False, verbosity=0)
    app = tmp_path / "app"
    for name in ("js/main.js", "styles.css", "i18n/hu/site.json", "vendor/preact.module.js"):
        assert (app / name).read_bytes() == lean_bytes(settings.FRONTEND_DIR / name), name
    assert (app / "icon.svg").read_bytes() == (settings.FRONTEND_DIR / "icon.svg").read_bytes()
    assert not (app / "index.html").exists() and not (app / "README.md").exists()  # the shell is a template
    # Each also under the hashed name the pages use (backend/web/assets.py), with the same bytes.
    for name, hashed in assets.manifest().names.items():
        assert (app / hashed).read_bytes() == (app / name).read_bytes(), name
