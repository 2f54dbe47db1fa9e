"""REST endpoints for accounts (docs/api.md, Accounts). Thin: parse, call services, render."""

from django.contrib.auth import login, logout, update_session_auth_hash
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.csrf import ensure_csrf_cookie
from django.utils.decorators import method_decorator
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.accounts import services
from backend.accounts.ws_auth import TICKET_SECONDS, issue_ticket
from backend.common.addresses import client_address
from backend.common.errors import AppError
from backend.common.i18n import set_language_cookie

from .serializers import (
    CredentialsSerializer,
    EmailChangeSerializer,
    EmailConfirmSerializer,
    ErrorSerializer,
    LanguageSerializer,
    MeSerializer,
    OptionalCredentialsSerializer,
    PasswordChangeSerializer,
    PasswordResetConfirmSerializer,
    PasswordResetLinkSerializer,
    PasswordResetSerializer,
    SignupSerializer,
    TokenSerializer,
)

ERRORS = {code: ErrorSerializer for code in (400, 401, 403, 409, 429)}


def _valid(serializer_class, request) -> dict:
    data = serializer_class(data=request.data)
    data.is_valid(raise_exception=True)
    return data.validated_data


def _enforce_csrf(request) -> None:
    """Log-in and sign-up start a session, so they need CSRF even for anonymous callers.

    DRF only checks CSRF for already-authenticated session users; without this
    a third-party page could log a victim into the attacker's account.
    """
    SessionAuthentication().enforce_csrf(request)


@extend_schema(tags=["auth"])
class CsrfView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(request=None, responses={204: None}, summary="Set the csrftoken cookie")
    @method_decorator(ensure_csrf_cookie)
    def get(self, request):
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(tags=["auth"])
class SignupView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(request=SignupSerializer, responses={201: MeSerializer, **ERRORS},
                   summary="Create an account and log in (the account keeps the language of the request)")
    def post(self, request):
        _enforce_csrf(request)
        data = _valid(SignupSerializer, request)
        user = services.sign_up(data.get("username", ""), data.get("password", ""), password2=data["password2"],
                                email=data.get("email", ""), client=client_address(request.META),
                                site=services.MailSite.of(request), language=translation.get_language())
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return _signed_in(user, status.HTTP_201_CREATED)


def _signed_in(user, status_code=status.HTTP_200_OK) -> Response:
    """The answer to a log-in or sign-up: the user, and the language cookie now follows their saved language."""
    if not user.language:
        services.save_language(user, translation.get_language())
    response = Response(MeSerializer(user).data, status=status_code)
    set_language_cookie(response, user.language)
    return response


@extend_schema(tags=["auth"])
class LoginView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(request=CredentialsSerializer, responses={200: MeSerializer, **ERRORS},
                   summary="Log in (session); the language cookie follows the account's language")
    def post(self, request):
        _enforce_csrf(request)
        data = _valid(CredentialsSerializer, request)
        user = services.check_credentials(request, data["username"], data["password"], client=client_address(request.META))
        login(request, user)
        return _signed_in(user)


@extend_schema(tags=["auth"])
class LogoutView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={204: None, **ERRORS}, summary="Log out (ends the session)")
    def post(self, request):
        logout(request)
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(tags=["auth"])
class MeView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: MeSerializer, 401: ErrorSerializer}, summary="The logged-in user")
    def get(self, request):
        return Response(MeSerializer(request.user).data)


@extend_schema(tags=["auth"])
class LanguageView(APIView):
    """Anyone may choose: the cookie remembers it on this browser, and a signed-in user's account keeps it."""

    permission_classes = [AllowAny]

    @extend_schema(request=LanguageSerializer, responses={200: LanguageSerializer, **ERRORS},
                   summary="Choose the site's language (hu or en)")
    def post(self, request):
        if not isinstance(request.successful_authenticator, TokenAuthentication):
            _enforce_csrf(request)  # it sets a cookie: no third-party page may choose for a browser
        data = _valid(LanguageSerializer, request)
        language = data["language"]
        if request.user.is_authenticated:
            services.save_language(request.user, language)
        response = Response({"language": language})
        set_language_cookie(response, language)
        return response


@extend_schema(tags=["auth"])
class PasswordView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=PasswordChangeSerializer, responses={204: None, **ERRORS},
                   summary="Change password (revokes the API token)")
    def post(self, request):
        data = _valid(PasswordChangeSerializer, request)
        services.change_password(request.user, data.get("old_password", ""), data.get("new_password", ""),
                                 new_password2=data["new_password2"], client=client_address(request.META))
        update_session_auth_hash(request, request.user)  # stay logged in on this browser
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(tags=["auth"])
class EmailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=EmailChangeSerializer, responses={200: MeSerializer, **ERRORS},
                   summary="Propose a new e-mail address (confirmed by a mailed link) or remove it (needs the current password)")
    def post(self, request):
        data = _valid(EmailChangeSerializer, request)
        services.change_email(request.user, data.get("password", ""), data.get("email", ""),
                              client=client_address(request.META), site=services.MailSite.of(request))
        return Response(MeSerializer(request.user).data)


@extend_schema(tags=["auth"])
class EmailConfirmView(APIView):
    """The link mailed to a proposed address: opening it makes the address the account's."""

    permission_classes = [AllowAny]

    @extend_schema(request=EmailConfirmSerializer, responses={200: EmailConfirmSerializer, **ERRORS},
                   summary="Confirm an e-mail address with the mailed link's token")
    def post(self, request):
        data = _valid(EmailConfirmSerializer, request)
        user = services.confirm_email(data["token"])
        return Response({"email": user.email})


@extend_schema(tags=["auth"])
class PasswordResetView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(request=PasswordResetSerializer, responses={204: None, **ERRORS},
                   summary="Mail a password reset link (the same answer whether or not an account uses the address)")
    def post(self, request):
        data = _valid(PasswordResetSerializer, request)
        services.request_password_reset(request, data.get("email", ""), client=client_address(request.META))
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(tags=["auth"])
class PasswordResetCheckView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(request=PasswordResetLinkSerializer, responses={204: None, **ERRORS},
                   summary="Whether a reset link still works (before the new password is asked for)")
    def post(self, request):
        data = _valid(PasswordResetLinkSerializer, request)
        services.check_password_reset(data["uid"], data["token"], client=client_address(request.META))
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(tags=["auth"])
class PasswordResetConfirmView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(request=PasswordResetConfirmSerializer, responses={204: None, **ERRORS},
                   summary="Set a new password with the link's uid and token (revokes the API token)")
    def post(self, request):
        data = _valid(PasswordResetConfirmSerializer, request)
        services.confirm_password_reset(data["uid"], data["token"], data.get("new_password", ""),
                                        new_password2=data["new_password2"], client=client_address(request.META))
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(tags=["auth"])
class TokenView(APIView):
    """The caller's API token: either already authenticated, or by username and password in the body."""

    permission_classes = [AllowAny]

    @extend_schema(
        request=OptionalCredentialsSerializer,
        responses={200: TokenSerializer, **ERRORS},
        summary="Get an API token (for scripts and bots)",
    )
    def post(self, request):
        data = _valid(OptionalCredentialsSerializer, request)
        if "username" in data:
            user = services.check_credentials(request, data["username"], data["password"],
                                              client=client_address(request.META))
        elif request.user.is_authenticated:
            user = request.user
        else:
            raise AppError("unauthenticated", _("Log in, or send your username and password."))
        return Response({"token": services.token_for(user)})


@extend_schema(tags=["auth"])
class WsTicketView(APIView):
    """A single-use ticket for one WebSocket handshake (`?ticket=`), for clients that cannot send headers."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: None}, summary="Get a WebSocket ticket")
    def post(self, request):
        return Response({"ticket": issue_ticket(request.user), "expires_in": TICKET_SECONDS})
