from django.urls import path

from . import views

urlpatterns = [
    path("players/<str:username>/", views.ProfileView.as_view(), name="player-profile"),
    path("leaderboards/<str:game>/", views.LeaderboardView.as_view(), name="leaderboard"),
]
