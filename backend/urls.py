from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api/auth/", include("backend.accounts.api.urls")),
    path("api/games/", include("backend.games.urls")),
    path("api/lobbies/", include("backend.lobbies.api.urls")),
    path("api/matches/", include("backend.matches.api.urls")),
]

# The web app (SPA shell + its modules). Kept last; its catch-all only matches client routes.
urlpatterns += [path("", include("backend.web.urls"))]
