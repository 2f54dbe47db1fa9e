from django.apps import AppConfig


class LobbiesConfig(AppConfig):
    name = "backend.lobbies"
    label = "lobbies"
    default_auto_field = "django.db.models.BigAutoField"
