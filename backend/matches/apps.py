from django.apps import AppConfig

from backend.games.boards import server_board
from backend.games.registry import games


class MatchesConfig(AppConfig):
    name = "backend.matches"
    label = "matches"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # A bad GP_BOARD_FILE stops every entry point (Daphne, manage.py) here, naming the value and its rule.
        server_board()
        games()  # the games' manifests: a bad one stops the server too, and their engines are registered

        from backend.chat.signals import message_removed

        from .chat import on_message_removed

        message_removed.connect(on_message_removed, dispatch_uid="matches.chat_removed")
