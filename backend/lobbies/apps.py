from django.apps import AppConfig


class LobbiesConfig(AppConfig):
    name = "backend.lobbies"
    label = "lobbies"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from backend.chat.signals import message_removed

        from .chat import on_message_removed

        message_removed.connect(on_message_removed, dispatch_uid="lobbies.chat_removed")
