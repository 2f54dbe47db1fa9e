from django.apps import AppConfig


class CommonConfig(AppConfig):
    name = "backend.common"

    def ready(self):
        from . import checks  # noqa: F401  (registers the deploy checks)
