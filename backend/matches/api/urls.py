from django.urls import path

from . import views

urlpatterns = [
    path("", views.MyMatchesView.as_view(), name="my-matches"),
    path("live/", views.LiveMatchesView.as_view(), name="live-matches"),
    path("<int:match_id>/", views.MatchDetailView.as_view(), name="match-detail"),
    path("<int:match_id>/events/", views.MatchEventsView.as_view(), name="match-events"),
]
