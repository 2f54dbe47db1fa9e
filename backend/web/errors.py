"""The app's own answers for an unknown address and an oversized body, in every setting.

With DEBUG on, Django answers an unmatched address with a page listing every
URL pattern, and a body over DATA_UPLOAD_MAX_MEMORY_SIZE with its debug page;
off, with bare HTML pages. Here instead:

- unknown `/api/...`: 404 `{"code": "not_found", ...}` like every API error;
- unknown page address: 404 with the app shell, whose router shows its own
  not-found screen;
- unknown `/app/` or `/static/` file, or `/ws/` over HTTP: a plain 404 (not a page);
- a body over the limit: 413 `too_large` (JSON under /api/), before anything reads it;
- a request Django finds suspicious (a path climbing out of /app/): 400 `bad_message`.

This middleware is the innermost one: CommonMiddleware still redirects to an
address with the missing slash added, and the CSRF middleware still sets the
cookie the shell needs.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import SuspiciousOperation
from django.http import Http404, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.urls import Resolver404, resolve

from backend.common.errors import AppError, to_app_error, too_large
from backend.web.views import shell


def _api(request) -> bool:
    return request.path_info.startswith("/api/")


def _answer(request, error: AppError) -> HttpResponse:
    if _api(request):
        return JsonResponse(error.as_dict(), status=error.status)
    if error.code == "not_found" and not request.path_info.startswith(("/app/", "/static/", "/ws/")):
        page = shell(request, status=404)
        if page is not None:
            get_token(request)  # the shell's forms need the CSRF cookie, as on every page
            return page
    return HttpResponse(error.message, status=error.status, content_type="text/plain; charset=utf-8")


class AppErrorsMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is not None and length > limit:
            # Nothing here accepts file uploads, so the whole body is bound by the limit.
            return _answer(request, too_large())
        try:
            # Resolved once more here (about 12 µs) so that Django never builds
            # its own page for an unmatched address; a view's own 404 comes
            # through process_exception.
            resolve(request.path_info, getattr(request, "urlconf", None))
        except Resolver404:
            return _answer(request, to_app_error(Http404()))
        return self.get_response(request)

    def process_exception(self, request, exception):
        # A view's 404 or the client's fault, which with DEBUG on Django would
        # answer with its debug pages (settings and all, for a 400).
        if isinstance(exception, (Http404, SuspiciousOperation)):
            return _answer(request, to_app_error(exception))
        return None
