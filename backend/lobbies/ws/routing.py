from django.urls import path

from .consumers import LobbyListConsumer, LobbyRoomConsumer

websocket_urlpatterns = [
    path("ws/lobbies/", LobbyListConsumer.as_asgi()),
    path("ws/lobbies/<int:lobby_id>/", LobbyRoomConsumer.as_asgi()),
]
