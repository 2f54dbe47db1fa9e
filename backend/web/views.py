"""The SPA shell and its ES modules.

The frontend has no build step, so its files are served straight from
FRONTEND_DIR: `/app/<path>` for modules, styles and vendored libraries, and
index.html for `/` and every client-side route, so a reload or a shared link
(`/lobby/12?code=...`, `/match/7`) lands in the app.
"""

import json
from pathlib import Path

from django.conf import settings
from django.http import Http404, HttpResponse
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_safe
from django.views.static import serve

# Modules change with every deploy and carry no hash in their names, so the
# browser revalidates them (cheap 304s) instead of caching them blindly.
_ASSET_CACHE = "no-cache"


@require_safe
@ensure_csrf_cookie
def index(request, *args, **kwargs) -> HttpResponse:
    page = shell(request)
    if page is None:
        raise Http404("The frontend is not installed.")
    return page


def shell(request, status: int = 200) -> HttpResponse | None:
    """index.html with the boot data; None if the frontend is not installed."""
    path = Path(settings.FRONTEND_DIR) / "index.html"
    if not path.is_file():
        return None
    user = request.user
    boot = {"user": {"id": user.pk, "username": user.username} if user.is_authenticated else None}
    # The signed-in user rides along with the page so the app never has to
    # probe /api/auth/me/ (a 401 there would be a console error for visitors).
    payload = json.dumps(boot).replace("<", "\\u003c")
    page = path.read_text(encoding="utf-8").replace(
        "<!--boot-->", f'<script id="boot" type="application/json">{payload}</script>', 1
    )
    response = HttpResponse(page, status=status, content_type="text/html; charset=utf-8")
    response["Cache-Control"] = "no-cache, private"
    return response


@require_safe
def asset(request, path: str) -> HttpResponse:
    response = serve(request, path, document_root=settings.FRONTEND_DIR)
    response["Cache-Control"] = _ASSET_CACHE
    response["X-Content-Type-Options"] = "nosniff"
    return response
