from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "backend.notifications"
    label = "notifications"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from backend.matches.signals import match_finished

        from .services import on_match_finished

        match_finished.connect(on_match_finished, dispatch_uid="notifications.finished")
