"""A third game, for tests only: what a new game brings (docs/new-game.md), and no platform file edited.

`engine.py` (the engine package's module with ENGINE), `game.toml` (its manifest) and `frontend/` (its folder,
laid over a copy of the web app's by tests/platform/test_plugin_game.py).
"""
