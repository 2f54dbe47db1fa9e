"""The SPA shell and its ES modules.

The frontend has no build step, so its files are served from FRONTEND_DIR
(JavaScript, CSS and words lean, `lean.py`): `/app/<path>` for modules, styles and vendored libraries, under
their plain names (revalidated) and their content-hashed ones (kept for a year, `assets.py`), gzipped for
browsers that take it; and index.html for `/` and every client-side route, so a reload or a shared link
(`/lobby/12?code=...`, `/match/7`) lands in the app. index.html is a Django
template: the server writes the request's language into `<html lang>` (the app
speaks what it says), the title, the import map and the preloads of the page's whole module graph (the
screen the address shows, a match's game table), early.js inline, and the signed-in user.
"""

import gzip
import json
import posixpath
import re
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.http import Http404, HttpResponse
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.safestring import mark_safe
from django.utils.translation import pgettext_lazy
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_safe
from django.views.static import serve

from backend.common.headers import content_security_policy, inline_script_hashes
from backend.games import registry
from backend.matches.errors import MatchError
from backend.matches.services import visible_match

from . import assets, lean

# A plain name's bytes change with a deploy, so the browser revalidates it (cheap 304s); a hashed name's never do.
_ASSET_CACHE = "no-cache"
_COMPRESSED = ("text/", "application/javascript", "application/json", "image/svg+xml")
_MATCH_PAGE = re.compile(r"/match/(\d+)/?")


def site_name() -> str:
    return _("Condottiere & God's Playground")


# Screens known from their address alone; the app names the others (a lobby, a match) once it has their data.
_SCREENS = {
    "/login": pgettext_lazy("screen", "Log in"),
    "/signup": pgettext_lazy("screen", "Sign up"),
    "/matches": pgettext_lazy("screen", "Matches"),
    "/lobbies/new": pgettext_lazy("screen", "New lobby"),
    "/reset": pgettext_lazy("screen", "Forgotten password"),
    "/account": pgettext_lazy("screen", "Your account"),
}
_NOT_FOUND = pgettext_lazy("screen", "Not found")
# A game's pages (/rules/<id>, /leaderboard/<id>), titled by its manifest (backend/games/registry.py).
_GAME_PAGE = re.compile(r"/(?P<page>rules|leaderboard)/(?P<game>\w+)/?")


def screen_title(path: str) -> str | None:
    if (title := _SCREENS.get(path.rstrip("/"))) is not None:
        return title
    m = _GAME_PAGE.fullmatch(path)
    described = registry.game(m["game"]) if m else None
    return described.title(m["page"]) if described else None


# The lazily loaded screen modules each client route shows (frontend/js/main.js, ROUTES), preloaded with the
# shell so a cold load takes one round; a route missing here still works, one round later. Names under js/screens/.
_SCREEN_MODULES = (
    (r"/(lobbies/?)?", ("home.js", "matches.js", "common.js")),
    (r"/(login|signup)/?", ("auth.js",)),
    (r"/lobbies/new/?", ("create_lobby.js", "common.js")),
    (r"/lobby/[^/]+/?", ("lobby_room.js", "common.js")),
    (r"/matches/?", ("matches.js", "common.js")),
    (r"/match/[^/]+/replay/?", ("replay.js",)),
    (r"/reset(/[^/]+/[^/]+)?/?", ("reset.js", "auth.js")),  # the forms' parts are auth.js's
    (r"/account/?", ("account.js", "auth.js")),
    (r"/confirm-email/[^/]+/?", ("confirm_email.js",)),
    (r"/(u/[^/]+|leaderboard(/[^/]+)?)/?", ("players.js", "common.js")),
)
# (common.js: what the lobby screens and a rules page share, e.g. the games list; a match page does without.)
_RULES_PAGE = re.compile(r"/rules/(\w+)/?")


def screen_modules(path: str) -> tuple[str, ...]:
    """The modules (paths under frontend/) of the screen `path` shows: a game's rules page's are its manifest's."""
    if m := _RULES_PAGE.fullmatch(path):
        rules = (described := registry.game(m[1])) and described.rules
        return (rules.module, *rules.modules) if rules else ()
    modules = next((modules for pattern, modules in _SCREEN_MODULES if re.fullmatch(pattern, path)), ())
    return tuple(f"js/screens/{name}" for name in modules)


def match_game(request) -> str | None:
    """The game of the match a match page shows, if the visitor may see that match (else the page preloads no
    table, and tells nothing of a private match)."""
    m = _MATCH_PAGE.fullmatch(request.path)
    if not m:
        return None
    try:
        return visible_match(int(m[1]), request.user).game
    except MatchError:
        return None


def _script_text(text: str) -> str:
    # Inline in <script>: nothing in it may close the element (the import map is JSON, early.js our own code).
    assert "</" not in text, "an inline script must not contain </"
    return mark_safe(text)


def head(request, language: str, modules: tuple[str, ...]) -> dict:
    """The shell's template context for the page's files: the import map, what to preload, the entry module."""
    m = assets.manifest()
    page = assets.page(modules, match_game(request))
    early = lean.lean_bytes(Path(settings.FRONTEND_DIR) / assets.EARLY).decode().strip()
    words = lambda part: m.url(f"i18n/{language}/{part}.json")
    return {
        "icon": m.url("icon.svg"),
        "early_js": _script_text(early),
        "importmap": _script_text(json.dumps(assets.import_map(language), separators=(",", ":"))),
        "site_words": words("site"),
        "styles": [m.url("styles.css"), m.url("table.css")],
        "modules": [m.url(name) for name in page.modules],
        "table_styles": [m.url(name) for name in page.styles],
        "table_words": [words(part) for part in page.words],
        "screen_words": words("screens"),
        "lobby_css": m.url("lobby.css"),
        "entry": m.url(assets.ENTRY),
    }


@require_safe
@ensure_csrf_cookie
def index(request, *args, **kwargs) -> HttpResponse:
    page = shell(request)
    if page is None:
        raise Http404(_("The frontend is not installed."))
    return page


def shell(request, status: int = 200) -> HttpResponse | None:
    """index.html in the request's language, with the boot data; None if the frontend is not installed."""
    path = Path(settings.FRONTEND_DIR) / "index.html"
    if not path.is_file():
        return None
    user = request.user
    # An unknown address (the app shows its own not-found screen) says so from the start.
    screen = _NOT_FOUND if status == 404 else screen_title(request.path)
    modules = screen_modules(request.path)
    context = {
        "LANGUAGE_CODE": translation.get_language(),
        "title": f"{screen} · {site_name()}" if screen else site_name(),
        "description": _("Play Condottiere and God's Playground online with friends or bots."),
        # Those screens (not the rules pages, nor the players') bring the "screens" words and lobby.css
        # (frontend/js/main.js).
        "screen_parts": bool(modules) and not _RULES_PAGE.fullmatch(request.path)
        and modules[0] != "js/screens/players.js",
        # The signed-in user rides along with the page so the app never has to
        # probe /api/auth/me/ (a 401 there would be a console error for visitors).
        "boot": {"user": {"id": user.pk, "username": user.username} if user.is_authenticated else None,
                 "games": registry.for_the_app()},  # each game's parts, from its manifest
        **head(request, translation.get_language(), modules),
    }
    page = render_to_string("index.html", context, request)
    response = HttpResponse(page, status=status, content_type="text/html; charset=utf-8")
    response["Cache-Control"] = "no-cache, private"
    # The import map and early.js must be inline; the policy names them by their hashes (the boot data is JSON).
    response["Content-Security-Policy"] = content_security_policy(inline_script_hashes(page))
    return response


@require_safe
def asset(request, path: str) -> HttpResponse:
    # A hashed name stands for its file's current bytes only (an old one is gone, as after a deploy).
    shipped = assets.unhash(path)
    response = _file(request, shipped or path)
    if response.status_code == 200:
        response["Cache-Control"] = assets.IMMUTABLE if shipped else _ASSET_CACHE
        if shipped:
            del response["Last-Modified"]  # nothing to revalidate
        response = _compressed(request, response, shipped or path)
    response["X-Content-Type-Options"] = "nosniff"
    return response


def _file(request, path: str) -> HttpResponse:
    # serve() refuses paths outside FRONTEND_DIR and answers If-Modified-Since from the source's time of change.
    response = serve(request, path, document_root=settings.FRONTEND_DIR)
    if response.status_code == 200 and lean.ships_lean(path):
        response.close()
        source = Path(settings.FRONTEND_DIR) / posixpath.normpath(path).lstrip("/")  # serve() found it there
        shipped = HttpResponse(lean.lean_bytes(source), content_type=response["Content-Type"])
        shipped["Last-Modified"] = response["Last-Modified"]
        response = shipped
    return response


def _compressed(request, response: HttpResponse, path: str) -> HttpResponse:
    """Gzipped for a browser that takes it, as nginx does in production: `make run` on a phone over Wi-Fi too.
    The app's files are public, the same for everyone (no secret to guess through the compressed size)."""
    if not response["Content-Type"].startswith(_COMPRESSED):
        return response
    response["Vary"] = "Accept-Encoding"
    if not re.search(r"\bgzip\b", request.META.get("HTTP_ACCEPT_ENCODING", "")):
        return response
    source = Path(settings.FRONTEND_DIR) / posixpath.normpath(path).lstrip("/")
    st = source.stat()
    body = _gzipped(str(source), st.st_mtime_ns, st.st_size, settings.FRONTEND_LEAN)
    packed = HttpResponse(body, content_type=response["Content-Type"])
    for header in ("Cache-Control", "Last-Modified", "Vary"):
        if response.has_header(header):
            packed[header] = response[header]
    packed["Content-Encoding"] = "gzip"
    response.close()
    return packed


@lru_cache(maxsize=512)
def _gzipped(path: str, mtime_ns: int, size: int, lean_on: bool) -> bytes:
    name = Path(path)
    data = lean.lean_bytes(name) if lean.ships_lean(path) else name.read_bytes()
    return gzip.compress(data, compresslevel=9, mtime=0)
