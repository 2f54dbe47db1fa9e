from django.apps import AppConfig


class CommonConfig(AppConfig):
    name = "backend.common"

    def ready(self):
        from . import checks, dbpool  # checks registers the deploy checks

        dbpool.retry_promptly()
