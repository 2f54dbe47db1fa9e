from django.urls import path

from .socket import MatchSocket

websocket_urlpatterns = [
    path("ws/matches/<int:match_id>/", MatchSocket.asgi),
]
