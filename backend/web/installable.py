"""What makes the web app installable: its manifest, its service worker, and the page it shows offline.

The service worker (frontend/sw.js) is served from the root so that its scope is the whole site; it
keeps the app shell only (the files under /app/ and the offline page), never an API answer or a
match page (docs/notifications.md, The app offline).
"""

from pathlib import Path

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from .views import site_name

THEME = "#7a1f2b"  # icon.svg's burgundy
BACKGROUND = "#fbf7ef"


@require_safe
def manifest(request) -> JsonResponse:
    """In the request's language: a browser installs the app under the name it read then."""
    body = {
        "name": site_name(),
        "short_name": _("Condottiere"),
        "description": _("Play Condottiere and God's Playground online with friends or bots."),
        "lang": translation.get_language(),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "icons": [{"src": f"/app/icons/icon-{size}.png", "sizes": f"{size}x{size}", "type": "image/png",
                   "purpose": "any"} for size in (192, 512)],
    }
    response = JsonResponse(body, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False})
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def service_worker(request) -> HttpResponse:
    response = HttpResponse((Path(settings.FRONTEND_DIR) / "sw.js").read_bytes(), content_type="text/javascript")
    # A browser looks for a new worker on every visit; no-cache makes that look reach the server.
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def offline(request) -> HttpResponse:
    """The page the service worker shows for any address while there is no network: in both
    languages, since it was stored in whichever the visitor had then."""
    parts = []
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            heading, text, retry = (escape(_("No connection")), escape(_(
                "The site needs the network: your matches live on the server. It opens again as soon as you are "
                "back online.")), escape(_("Try again")))
        parts.append(f'<section lang="{code}"><h1>{heading}</h1><p>{text}</p><p><a href="/">{retry}</a></p></section>')
    page = ('<!doctype html><html lang="hu"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{escape(site_name())}</title><link rel="stylesheet" href="/app/styles.css">'
            f'<link rel="icon" href="/app/icon.svg" type="image/svg+xml"></head><body class="offline">'
            f'{"".join(parts)}</body></html>')
    response = HttpResponse(page, content_type="text/html; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response
