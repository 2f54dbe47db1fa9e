"""Included last in backend/urls.py: the catch-all must not shadow the API, admin or sockets."""

from django.urls import path, re_path

from . import installable, views

urlpatterns = [
    re_path(r"^app/(?P<path>.+)$", views.asset, name="web-asset"),
    path("manifest.webmanifest", installable.manifest, name="web-manifest"),
    path("sw.js", installable.service_worker, name="web-service-worker"),
    path("offline/", installable.offline, name="web-offline"),
    path("", views.index, name="web-index"),
    # Client-side routes only; /api/, /admin/, /ws/ and /static/ never reach here.
    re_path(r"^(?!api/|admin/|ws/|static/|app/)(?:login|signup|reset|confirm-email|account|lobbies|lobby|match|matches|watch|me|rules|u|leaderboard)(?:/.*)?$",
            views.index, name="web-route"),
]
