"""Content-Security-Policy and Permissions-Policy on every response.

The policy allows only this origin's own files: no inline script or style,
no eval, no plugins, no framing.  The one inline script the web app keeps,
its import map (browsers cannot load one from a file), is allowed by its
hash: the page's view passes the hashes of its inline scripts to
`content_security_policy` and sets the header itself; this middleware then
leaves a view's own policy alone.  The API docs page adds the CDN its
Swagger UI comes from (`api_docs_policy`).  Referrer-Policy comes from Django's
SecurityMiddleware (SECURE_REFERRER_POLICY).
"""

from __future__ import annotations

import base64
import hashlib
import re

from asgiref.sync import iscoroutinefunction
from django.utils.decorators import sync_and_async_middleware

# 'self' also admits ws:// and wss:// on this host (CSP level 3).
_DIRECTIVES = (
    ("default-src", "'self'"),
    ("script-src", "'self'"),
    ("style-src", "'self'"),
    ("img-src", "'self' data:"),
    ("font-src", "'self'"),
    ("connect-src", "'self'"),
    ("object-src", "'none'"),
    ("base-uri", "'none'"),
    ("form-action", "'self'"),
    ("frame-ancestors", "'none'"),
)
# Nothing here needs a camera, a microphone, a location or a payment.
PERMISSIONS_POLICY = ", ".join(f"{feature}=()" for feature in (
    "accelerometer", "camera", "geolocation", "gyroscope", "magnetometer", "microphone", "payment", "usb",
    "browsing-topics",
))
# Executable inline scripts: no src attribute and a JavaScript or import-map type (JSON data blocks never run).
_INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?P<attrs>[^>]*)>(?P<body>.*?)</script>", re.S | re.I)
_DATA_TYPE = re.compile(r"""\btype\s*=\s*["']?application/(?:ld\+)?json""", re.I)
_INLINE_STYLE = re.compile(r"<style(?P<attrs>[^>]*)>(?P<body>.*?)</style>", re.S | re.I)
# The API docs page (drf-spectacular's Swagger UI) loads Swagger UI from this CDN.
SWAGGER_CDN = "https://cdn.jsdelivr.net"


def _hash(text: str) -> str:
    return "'sha256-%s'" % base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode()


def inline_script_hashes(html: str) -> list[str]:
    """CSP source expressions ('sha256-...') for every inline script in a page that a browser would run."""
    return [_hash(m["body"]) for m in _INLINE_SCRIPT.finditer(html) if not _DATA_TYPE.search(m["attrs"])]


def content_security_policy(script_hashes: list[str] = (), extra: dict[str, list[str]] | None = None) -> str:
    """The policy, with a page's inline-script hashes and any sources `extra` adds per directive."""
    extra = dict(extra or {})
    if script_hashes:
        extra["script-src"] = [*extra.get("script-src", ()), *script_hashes]
    return "; ".join(" ".join([name, value, *extra.get(name, ())]) for name, value in _DIRECTIVES)


def api_docs_policy(view):
    """The Swagger UI page: its scripts, styles and icon from the CDN and its one inline style by hash.
    Use it with the split view, which serves its script from a URL instead of inline."""
    def wrapped(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        if hasattr(response, "render"):
            response.render()
        page = response.content.decode("utf-8", "replace") if not response.streaming else ""
        response["Content-Security-Policy"] = content_security_policy(
            inline_script_hashes(page),
            {"script-src": [SWAGGER_CDN], "img-src": [SWAGGER_CDN],
             "style-src": [SWAGGER_CDN, *(_hash(m["body"]) for m in _INLINE_STYLE.finditer(page))]})
        return response
    return wrapped


DEFAULT_POLICY = content_security_policy()


def _add_headers(response):
    if "Content-Security-Policy" not in response:
        response["Content-Security-Policy"] = DEFAULT_POLICY
    response.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
    return response


@sync_and_async_middleware
def security_headers_middleware(get_response):
    if iscoroutinefunction(get_response):
        async def middleware(request):
            return _add_headers(await get_response(request))
    else:
        def middleware(request):
            return _add_headers(get_response(request))
    return middleware
