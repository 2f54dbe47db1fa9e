"""One error shape for REST and WebSocket: {"code", "message"} (docs/api.md, Errors).

Services raise `AppError(code, message)`; DRF views let it propagate to
`api_exception_handler`, WebSocket consumers send `ws_error(...)`.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation, TooManyFieldsSent
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions as drf
from rest_framework.response import Response
from rest_framework.views import set_rollback

# Stable code -> HTTP status, as documented in docs/api.md.
STATUS = {
    "bad_message": 400,
    "illegal_action": 400,
    "not_your_turn": 409,
    "stale_version": 409,
    "too_large": 413,
    "rate_limited": 429,
    "limit_reached": 429,
    "lobby_rate_limited": 429,  # lobbies opened by one account (THROTTLE_LOBBY)
    "unauthenticated": 401,
    "forbidden": 403,
    "not_found": 404,
    "conflict": 409,
    "unavailable": 503,
    "restarting": 503,  # this server is stopping: reconnect at once (WebSocket close 4503)
    # Chat (docs/api.md, Chat)
    "chat_empty": 400,
    "chat_too_long": 400,
    "chat_rate_limited": 429,
}


class AppError(Exception):
    """A refusal a client should understand: a stable code and a sentence for people."""

    def __init__(self, code: str, message: str, *, fields: dict | None = None, retry_after: int | None = None):
        if code not in STATUS:
            raise ValueError(f"Unknown error code {code!r}")
        super().__init__(message)
        self.code = code
        self.message = message
        self.fields = fields
        self.retry_after = retry_after  # seconds, for rate_limited (the Retry-After header)

    @property
    def status(self) -> int:
        return STATUS[self.code]

    def as_dict(self) -> dict:
        body = {"code": self.code, "message": self.message}
        if self.fields:
            body["fields"] = self.fields
        return _encodable(body)


def _encodable(value):
    """Messages may quote the client's input (an unknown option name); a lone
    surrogate there could not be encoded as UTF-8 and the error would become a
    500.  Escape such characters as text instead."""
    if isinstance(value, str):
        return value.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(value, dict):
        return {_encodable(k): _encodable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_encodable(v) for v in value]
    return value


def ws_error(code: str, message: str, **extra) -> dict:
    """The WebSocket error message; `extra` carries e.g. the client's action `id`."""
    if code not in STATUS:
        raise ValueError(f"Unknown error code {code!r}")
    return {"type": "error", "code": code, "message": message, **extra}


def _first_message(detail) -> str:
    """The first human sentence inside a (possibly nested) DRF error detail."""
    if isinstance(detail, dict):
        return _first_message(next(iter(detail.values()), None))
    if isinstance(detail, (list, tuple)) and detail:
        return _first_message(detail[0])
    return str(detail) if detail else _("Invalid input.")


def fields_message(fields: dict) -> str:
    """The top-level message for field errors: each field's first sentence, in
    order, as plain prose (the field names stay in `fields`, for the form)."""
    sentences = [_first_message(value) for value in fields.values()]
    return " ".join(dict.fromkeys(s for s in sentences if s)) or _("Invalid input.")


def too_large() -> AppError:
    """A request body over settings.DATA_UPLOAD_MAX_MEMORY_SIZE."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return AppError("too_large", _("The request body is over the %(size)s KiB limit.") % {"size": limit // 1024})


def _plain(detail):
    if isinstance(detail, dict):
        return {k: _plain(v) for k, v in detail.items()}
    if isinstance(detail, (list, tuple)):
        return [_plain(v) for v in detail]
    return str(detail)


def to_app_error(exc: Exception) -> AppError | None:
    """Translate Django/DRF exceptions into our codes; None for real server errors."""
    if isinstance(exc, AppError):
        return exc
    if isinstance(exc, DjangoValidationError):
        exc = drf.ValidationError(exc.message_dict if hasattr(exc, "error_dict") else exc.messages)
    if isinstance(exc, drf.ValidationError):
        if isinstance(exc.detail, dict):
            fields = _plain(exc.detail)
            return AppError("bad_message", fields_message(fields), fields=fields)
        return AppError("bad_message", _first_message(exc.detail))
    if isinstance(exc, RequestDataTooBig):
        return too_large()
    if isinstance(exc, TooManyFieldsSent):
        return AppError("bad_message", _("The request has too many fields."))
    if isinstance(exc, SuspiciousOperation):  # e.g. a path that climbs out of a directory
        return AppError("bad_message", _("The request was refused."))
    if isinstance(exc, (drf.NotAuthenticated, drf.AuthenticationFailed)):
        return AppError("unauthenticated", str(exc.detail))
    if isinstance(exc, (Http404, drf.NotFound)):
        return AppError("not_found", _("Not found."))
    if isinstance(exc, (DjangoPermissionDenied, drf.PermissionDenied)):
        detail = getattr(exc, "detail", None) or _("You are not allowed to do that.")
        return AppError("forbidden", str(detail))
    if isinstance(exc, drf.Throttled):
        return AppError("rate_limited", str(exc.detail), retry_after=None if exc.wait is None else int(exc.wait) + 1)
    if isinstance(exc, drf.APIException):
        # ParseError, UnsupportedMediaType, MethodNotAllowed, NotAcceptable: the request itself is malformed.
        return AppError("bad_message", _first_message(exc.detail))
    return None


def api_exception_handler(exc, context):
    """REST_FRAMEWORK["EXCEPTION_HANDLER"]: every error is {"code", "message"[, "fields"]}."""
    error = to_app_error(exc)
    if error is None:
        return None
    status = error.status
    if isinstance(exc, drf.APIException) and error.code == "bad_message":
        status = exc.status_code  # 405/406/415 keep their HTTP meaning
    headers = {}
    if error.retry_after is not None:
        headers["Retry-After"] = str(error.retry_after)
    if status == 401:
        headers["WWW-Authenticate"] = "Token"
    set_rollback()
    return Response(error.as_dict(), status=status, headers=headers)
