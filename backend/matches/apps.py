from django.apps import AppConfig


class MatchesConfig(AppConfig):
    name = "backend.matches"
    label = "matches"
    default_auto_field = "django.db.models.BigAutoField"
