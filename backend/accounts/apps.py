from django.apps import AppConfig
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured


class AccountsConfig(AppConfig):
    name = "backend.accounts"
    label = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # A mistyped THROTTLE_* value should stop the server at start, not at the first log-in.
        from backend.common.ratelimit import Rate

        for scope, text in settings.THROTTLE_RATES.items():
            try:
                Rate.parse(text)
            except ValueError as exc:
                raise ImproperlyConfigured(f"THROTTLE_RATES[{scope!r}]: {exc}") from None
