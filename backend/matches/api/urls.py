from django.urls import path

from . import views

urlpatterns = [
    path("", views.MyMatchesView.as_view(), name="my-matches"),
    path("live/", views.LiveMatchesView.as_view(), name="live-matches"),
    path("<int:match_id>/", views.MatchDetailView.as_view(), name="match-detail"),
    path("<int:match_id>/events/", views.MatchEventsView.as_view(), name="match-events"),
    path("<int:match_id>/replay/", views.ReplayLogView.as_view(), name="match-replay"),
    path("<int:match_id>/replay/<int:step>/", views.ReplayStepView.as_view(), name="match-replay-step"),
    path("<int:match_id>/resign/", views.ResignView.as_view(), name="match-resign"),
    path("<int:match_id>/abort/", views.AbortView.as_view(), name="match-abort"),
    path("<int:match_id>/takeover/", views.TakeoverView.as_view(), name="match-takeover"),
    path("<int:match_id>/reclaim/", views.ReclaimView.as_view(), name="match-reclaim"),
]
