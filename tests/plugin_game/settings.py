"""The site's settings with Nim added as a deployment would add a game kept outside the repository: its
manifest in GAMES, and FRONTEND_DIR a web app with its folder laid in (the folder named by PLUGIN_FRONTEND_DIR,
which tests/browser/test_plugin_game.py makes)."""

import os
from pathlib import Path

from backend.settings import *  # noqa: F401,F403
from backend.settings import GAMES, TEMPLATES

GAMES = [*GAMES, Path(__file__).with_name("game.toml")]
FRONTEND_DIR = Path(os.environ["PLUGIN_FRONTEND_DIR"])
TEMPLATES = [{**TEMPLATES[0], "DIRS": [FRONTEND_DIR]}]
