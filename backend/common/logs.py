"""Structured logs: a JSON formatter and the access log of HTTP requests.

With LOG_FORMAT=json every record is one JSON object on one line, and the
`games.access` logger writes one record per HTTP request (this module's
middleware) and per WebSocket connect and disconnect
(backend/common/logging_asgi.py).  An access record names the path without
its query string (tickets and lobby codes travel there) and with a
password-reset link's uid and token cut off, never a header, a cookie or a
body; the formatter copies only the fields a record carries in
its `access` attribute, so nothing else a caller attaches (Django attaches
the whole request to its own records) reaches a line.
"""

from __future__ import annotations

import datetime
import json
import logging
import re
import time

from asgiref.sync import iscoroutinefunction
from django.utils.decorators import sync_and_async_middleware
from django.utils.functional import empty

from .addresses import client_address

ACCESS = logging.getLogger("games.access")
# Paths that carry a secret: a password-reset link is /reset/<uid>/<token>.
_SECRET_PATH = re.compile(r"^(/reset/)[^/].*$")


def loggable_path(path: str) -> str:
    return _SECRET_PATH.sub(r"\1…", path)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.datetime.fromtimestamp(record.created, datetime.timezone.utc).isoformat(
                timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        line.update(getattr(record, "access", None) or {})
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def log_access(message: str, fields: dict) -> None:
    ACCESS.info(message, extra={"access": fields})


def _user_id(request) -> int | None:
    """The signed-in user's id if the request already looked it up.

    request.user is lazy: reading it here would cost a session query on
    requests that never needed one (static files, health probes)."""
    user = getattr(request, "user", None)
    if user is None or getattr(user, "_wrapped", None) is empty:
        return None
    return user.pk if user.is_authenticated else None


def _log_request(request, response, started: float) -> None:
    duration = round((time.perf_counter() - started) * 1000, 1)
    path = loggable_path(request.path)
    log_access(
        f"{request.method} {path} {response.status_code} {duration}ms",
        {
            "event": "http",
            "method": request.method,
            "path": path,
            "status": response.status_code,
            "duration_ms": duration,
            "client": client_address(request.META),
            "user": _user_id(request),
        },
    )


@sync_and_async_middleware
def access_log_middleware(get_response):
    """Outermost middleware: one access record per request, when enabled."""
    if iscoroutinefunction(get_response):
        async def middleware(request):
            if not ACCESS.isEnabledFor(logging.INFO):
                return await get_response(request)
            started = time.perf_counter()
            response = await get_response(request)
            _log_request(request, response, started)
            return response
    else:
        def middleware(request):
            if not ACCESS.isEnabledFor(logging.INFO):
                return get_response(request)
            started = time.perf_counter()
            response = get_response(request)
            _log_request(request, response, started)
            return response
    return middleware
