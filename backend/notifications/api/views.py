"""REST endpoints for notifications (docs/api.md, Notifications). Thin: parse, call services, render."""

from django.conf import settings
from django.http import HttpResponse
from django.utils.html import escape
from django.utils.translation import gettext as _
from django.views import View
from django.views.decorators.csrf import csrf_exempt
from django.utils.decorators import method_decorator
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.accounts.api.serializers import ErrorSerializer
from backend.common.errors import AppError

from .. import services
from ..models import KINDS
from ..keys import public_key_of
from .serializers import DeviceSerializer, PreferencesSerializer, SettingsSerializer, SubscribeSerializer

ERRORS = {code: ErrorSerializer for code in (400, 401, 404)}


def _settings(user) -> dict:
    prefs = services.preferences(user)
    key = settings.VAPID_PUBLIC_KEY or (public_key_of(settings.VAPID_PRIVATE_KEY) if settings.VAPID_PRIVATE_KEY else "")
    return {"kinds": list(KINDS), "push": prefs.push, "email": prefs.email, "has_email": bool(user.email),
            "vapid_public_key": key, "devices": DeviceSerializer(services.devices(user), many=True).data}


@extend_schema(tags=["notifications"])
class SettingsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: SettingsSerializer, **ERRORS},
                   summary="What the user is told, by push and by e-mail, and their devices")
    def get(self, request):
        return Response(_settings(request.user))

    @extend_schema(request=PreferencesSerializer, responses={200: SettingsSerializer, **ERRORS},
                   summary="Choose what to be told by push and by e-mail (e-mail: opt-in)")
    def put(self, request):
        data = PreferencesSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.set_preferences(request.user, data.validated_data.get("push"), data.validated_data.get("email"))
        return Response(_settings(request.user))


@extend_schema(tags=["notifications"])
class DevicesView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=SubscribeSerializer, responses={201: DeviceSerializer, **ERRORS},
                   summary="Subscribe this device to Web Push")
    def post(self, request):
        data = SubscribeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        device = services.add_device(request.user, v["endpoint"], v["keys"]["p256dh"], v["keys"]["auth"], v["label"])
        return Response(DeviceSerializer(device).data, status=status.HTTP_201_CREATED)


@extend_schema(tags=["notifications"])
class DeviceView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={204: None, **ERRORS}, summary="Remove a device")
    def delete(self, request, device_id: int):
        services.remove_device(request.user, device_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


@method_decorator(csrf_exempt, name="dispatch")  # the token is the proof; mail clients post without a cookie
class UnsubscribeView(View):
    """The link of every notification mail. GET asks (mail scanners fetch links), POST does it:
    the button on that page, or the mail client's one click (List-Unsubscribe-Post, RFC 8058)."""

    def get(self, request, token: str):
        button = escape(_("Unsubscribe"))
        return self._page(_("Stop the e-mails about your matches?"),
                          f'<form method="post"><button type="submit">{button}</button></form>')

    def post(self, request, token: str):
        try:
            services.unsubscribe_email(token)
        except AppError as exc:
            return self._page(exc.message, "", status=400)
        return self._page(_("You will get no more e-mails about your matches."), "")

    def _page(self, text: str, form: str, status: int = 200) -> HttpResponse:
        return HttpResponse(f'<!doctype html><meta charset="utf-8"><meta name="viewport" content="width=device-width">'
                            f"<title>{escape(text)}</title><p>{escape(text)}</p>{form}", status=status)
