from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "backend.ratings"
    label = "ratings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from backend.matches.signals import match_finished

        from .services import on_match_finished

        match_finished.connect(on_match_finished, dispatch_uid="ratings.record")
