"""The admin site, with its two password checks rate-limited like the API's.

Django's admin answers any number of log-in attempts; here a POST that
carries a username and password counts against the `login` limit (shared
with the API's log-in, so switching doors gains nothing) and a password
change form with the current password against the `password` limit. Over
the limit the admin answers 429 without checking anything.
"""

from django.contrib import admin
from django.contrib.admin.apps import AdminConfig as DjangoAdminConfig
from django.http import HttpResponse

from backend.common import ratelimit
from backend.common.addresses import client_address, throttle_key
from backend.common.errors import AppError


def _refused(error: AppError) -> HttpResponse:
    response = HttpResponse(error.message, status=error.status, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(error.retry_after)
    return response


class AdminSite(admin.AdminSite):
    def login(self, request, extra_context=None):
        if request.method == "POST" and request.POST.get("username") and request.POST.get("password"):
            try:
                ratelimit.take("login", throttle_key(client_address(request.META)))
            except AppError as error:
                return _refused(error)
        return super().login(request, extra_context)

    def password_change(self, request, extra_context=None):
        if request.method == "POST" and request.POST.get("old_password"):
            try:
                ratelimit.take("password", throttle_key(client_address(request.META)), f"user:{request.user.pk}")
            except AppError as error:
                return _refused(error)
        return super().password_change(request, extra_context)


class AdminConfig(DjangoAdminConfig):
    """INSTALLED_APPS names this instead of django.contrib.admin, so `admin.site` is the site above."""

    default_site = "backend.accounts.admin_site.AdminSite"
