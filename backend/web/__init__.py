"""Serves the static single-page app in settings.FRONTEND_DIR (no Django app, no models)."""
