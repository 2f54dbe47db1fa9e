"""Content-Security-Policy and Permissions-Policy on every response.

The policy allows only this origin's own files: no inline script or style,
no eval, no plugins, no framing.  The one inline script the web app keeps,
its import map (browsers cannot load one from a file), is allowed by its
hash: the page's view passes the hashes of its inline scripts to
`content_security_policy` and sets the header itself; this middleware then
leaves a view's own policy alone.  Referrer-Policy comes from Django's
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


def inline_script_hashes(html: str) -> list[str]:
    """CSP source expressions ('sha256-...') for every inline script in a page that a browser would run."""
    return [
        "'sha256-%s'" % base64.b64encode(hashlib.sha256(m["body"].encode("utf-8")).digest()).decode()
        for m in _INLINE_SCRIPT.finditer(html) if not _DATA_TYPE.search(m["attrs"])
    ]


def content_security_policy(script_hashes: list[str] = ()) -> str:
    parts = []
    for name, value in _DIRECTIVES:
        if name == "script-src" and script_hashes:
            value = " ".join([value, *script_hashes])
        parts.append(f"{name} {value}")
    return "; ".join(parts)


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
