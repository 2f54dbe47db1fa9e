from django.urls import path

from . import views

urlpatterns = [
    path("", views.LobbyListView.as_view(), name="lobby-list"),
    path("<int:lobby_id>/", views.LobbyDetailView.as_view(), name="lobby-detail"),
    path("<int:lobby_id>/join/", views.JoinView.as_view(), name="lobby-join"),
    path("<int:lobby_id>/leave/", views.LeaveView.as_view(), name="lobby-leave"),
    path("<int:lobby_id>/kick/", views.KickView.as_view(), name="lobby-kick"),
    path("<int:lobby_id>/bots/", views.BotsView.as_view(), name="lobby-bots"),
    path("<int:lobby_id>/bots/<int:index>/", views.BotSeatView.as_view(), name="lobby-bot-seat"),
    path("<int:lobby_id>/rated/", views.RatedView.as_view(), name="lobby-rated"),
    path("<int:lobby_id>/start/", views.StartView.as_view(), name="lobby-start"),
]
