"""Which language a request or a WebSocket speaks (settings.LANGUAGES: Hungarian and English).

One rule for both transports, in this order:
  1. the `django_language` cookie (set by POST /api/auth/language/ and on log-in),
  2. the signed-in user's saved language (`User.language`),
  3. the browser's Accept-Language,
  4. English (settings.LANGUAGE_CODE).

HTTP: `LanguageMiddleware` activates it for the whole request.  A WebSocket
consumer either mixes in `ScopeLanguageMixin` (every handler runs in the
connection's language) or calls `language_from_scope(scope)` and wraps what it
sends in `translation.override(...)`. See docs/api.md, Languages.
"""

from __future__ import annotations


from django.conf import settings
from django.http import HttpRequest
from django.middleware.locale import LocaleMiddleware
from django.utils import translation
from django.utils.cache import patch_vary_headers


def supported(code) -> str | None:
    """The supported language for a code such as "hu", "hu-HU" or "en-gb"; None for anything else."""
    if not isinstance(code, str) or not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def from_accept_language(header: str) -> str:
    """The best supported language in an Accept-Language header, else the default."""
    request = HttpRequest()
    request.META["HTTP_ACCEPT_LANGUAGE"] = header or ""
    return translation.get_language_from_request(request)


def choose(cookie: str | None, user, accept_language: str) -> str:
    """The rule above, from its three inputs."""
    chosen = supported(cookie)
    if chosen is None and user is not None and user.is_authenticated:
        chosen = supported(getattr(user, "language", ""))
    return chosen or from_accept_language(accept_language)


def language_from_request(request) -> str:
    cookie = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    # Only look at the user when the cookie does not decide: loading it may cost a query.
    user = None if supported(cookie) else getattr(request, "user", None)
    return choose(cookie, user, request.META.get("HTTP_ACCEPT_LANGUAGE", ""))


def _account_language(request) -> str | None:
    """The signed-in user's saved language when the request came without a cookie naming one."""
    if supported(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)):
        return None
    user = getattr(request, "user", None)
    return supported(getattr(user, "language", "")) if user is not None and user.is_authenticated else None


def language_from_scope(scope) -> str:
    """The language of a WebSocket connection (cookies, scope["user"] and headers as Channels' auth stack leaves them)."""
    cookies = scope.get("cookies") or {}
    accept = ""
    for name, value in scope.get("headers") or ():
        if name == b"accept-language":
            accept = value.decode("latin1")
            break
    return choose(cookies.get(settings.LANGUAGE_COOKIE_NAME), scope.get("user"), accept)


def set_language_cookie(response, language: str) -> None:
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME, language,
        max_age=settings.LANGUAGE_COOKIE_AGE, path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN, secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY, samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


class LanguageMiddleware(LocaleMiddleware):
    """Django's LocaleMiddleware (Vary and Content-Language on the response) with the rule above,
    which adds the signed-in user's saved language; so it sits after AuthenticationMiddleware."""

    def process_request(self, request):
        translation.activate(language_from_request(request))
        request.LANGUAGE_CODE = translation.get_language()

    def process_response(self, request, response):
        patch_vary_headers(response, ("Cookie",))  # the language cookie changes the answer too
        # A session older than its language cookie (or a cleared cookie): the account's language becomes
        # the cookie, so the next requests need not load the user to know it.
        account = _account_language(request)
        if account and settings.LANGUAGE_COOKIE_NAME not in response.cookies:
            set_language_cookie(response, account)
        return super().process_response(request, response)


class ScopeLanguageMixin:
    """For a Channels consumer: each message is handled in the language of the connection's handshake,
    so its sentences, and those of the services it calls (sync_to_async copies the context), are in it."""

    language: str | None = None

    async def dispatch(self, message):
        if self.language is None:
            self.language = language_from_scope(self.scope)
        with translation.override(self.language):
            await super().dispatch(message)
