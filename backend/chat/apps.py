from django.apps import AppConfig


class ChatConfig(AppConfig):
    name = "backend.chat"
    label = "chat"
    default_auto_field = "django.db.models.BigAutoField"
