"""GET /api/games/: what the lobby form needs to know about each installed engine."""
