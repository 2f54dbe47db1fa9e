"""WebSocket authentication: the session cookie, or `?token=<key>` for scripts and bots."""

from __future__ import annotations

from urllib.parse import parse_qs

from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from channels.middleware import BaseMiddleware
from django.contrib.auth.models import AnonymousUser
from rest_framework.authtoken.models import Token


@database_sync_to_async
def _user_for_token(key: str):
    try:
        token = Token.objects.select_related("user").get(key=key)
    except Token.DoesNotExist:
        return AnonymousUser()
    return token.user if token.user.is_active else AnonymousUser()


class TokenAuthMiddleware(BaseMiddleware):
    """A `token` query parameter overrides the session user.

    A wrong token makes the connection anonymous rather than falling back to
    the cookie, so a script never acts as someone it did not name.
    """

    async def __call__(self, scope, receive, send):
        query = parse_qs(scope.get("query_string", b"").decode("latin1"))
        keys = query.get("token")
        if keys:
            scope = dict(scope)
            scope["user"] = await _user_for_token(keys[0])
        return await super().__call__(scope, receive, send)


def PlatformAuthStack(inner):
    """Session cookie first, then the token (if any) wins."""
    return AuthMiddlewareStack(TokenAuthMiddleware(inner))
