from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from backend.common.headers import api_docs_policy
from backend.lobbies.api.views import RematchView
from backend.notifications.api.views import UnsubscribeView
from backend.ratings.api.views import MatchRatingsView

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves its script from a URL: no inline script for the Content-Security-Policy.
    path("api/docs/", api_docs_policy(SpectacularSwaggerSplitView.as_view(url_name="schema")), name="api-docs"),
    path("api/auth/", include("backend.accounts.api.urls")),
    path("api/games/", include("backend.games.urls")),
    path("api/lobbies/", include("backend.lobbies.api.urls")),
    # A lobby made from a match: served by the lobbies app, which may depend on matches (not the reverse).
    path("api/matches/<int:match_id>/rematch/", RematchView.as_view(), name="match-rematch"),
    # Its rating changes: served by the ratings app, which hears of matches (not the reverse).
    path("api/matches/<int:match_id>/ratings/", MatchRatingsView.as_view(), name="match-ratings"),
    path("api/matches/", include("backend.matches.api.urls")),
    path("api/notifications/", include("backend.notifications.api.urls")),
    # The link of every notification mail: a page, not an API answer.
    path("unsubscribe/<str:token>/", UnsubscribeView.as_view(), name="notifications-unsubscribe"),
    path("api/", include("backend.ratings.api.urls")),
]

# The web app (SPA shell + its modules). Kept last; its catch-all only matches client routes.
urlpatterns += [path("", include("backend.web.urls"))]
