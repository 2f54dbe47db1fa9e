"""WebSocket authentication.

Browsers use the session cookie.  Scripts and bots send
`Authorization: Token <key>` with the handshake, or, where they cannot set
headers, a single-use ticket (`POST /api/auth/ws-ticket/`, valid for
TICKET_SECONDS) as `?ticket=<t>`: a long-lived token must not travel in a URL,
which ends up in proxy logs.  A wrong token or ticket makes the connection
anonymous rather than falling back to the cookie, so a script never acts as
someone it did not name.
"""

from __future__ import annotations

import secrets
from urllib.parse import parse_qs

from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from channels.middleware import BaseMiddleware
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from rest_framework.authtoken.models import Token

TICKET_SECONDS = 30
_TICKET_PREFIX = "ws-ticket:"


def issue_ticket(user) -> str:
    ticket = secrets.token_urlsafe(24)
    cache.set(_TICKET_PREFIX + ticket, user.pk, TICKET_SECONDS)
    return ticket


def _redeem(ticket: str):
    key = _TICKET_PREFIX + ticket
    user_id = cache.get(key)
    # delete() answers True for the one caller that removed it: single use even under a race.
    if user_id is None or not cache.delete(key):
        return AnonymousUser()
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    return user or AnonymousUser()


def _for_token(key: str):
    token = Token.objects.select_related("user").filter(key=key).first()
    return token.user if token is not None and token.user.is_active else AnonymousUser()


@database_sync_to_async
def _user(kind: str, value: str):
    return _for_token(value) if kind == "token" else _redeem(value)


def _credential(scope) -> tuple[str, str] | None:
    for name, value in scope.get("headers", ()):
        if name == b"authorization":
            scheme, _, key = value.decode("latin1").partition(" ")
            return ("token", key.strip()) if scheme.lower() == "token" else ("invalid", "")
    tickets = parse_qs(scope.get("query_string", b"").decode("latin1")).get("ticket")
    return ("ticket", tickets[0]) if tickets else None


class ScriptAuthMiddleware(BaseMiddleware):
    async def __call__(self, scope, receive, send):
        credential = _credential(scope)
        if credential is not None:
            kind, value = credential
            scope = dict(scope, user=await _user(kind, value) if value and kind != "invalid" else AnonymousUser())
        return await super().__call__(scope, receive, send)


def PlatformAuthStack(inner):
    """Session cookie first; a token header or a ticket, when given, wins."""
    return AuthMiddlewareStack(ScriptAuthMiddleware(inner))
