"""The pieces of a game, by name.

An engine refuses with a template and parameters (docs/engines.md, Refusals), and a parameter may name a piece
of the game by its code. The platform shows it with the app's own word for it, from the table's words
(frontend/i18n/<lang>/<part>.json), so a province has one name on the table and in a sentence from the server
(backend/matches/errors.py renders the template). Which parameters name pieces, and the prefix of their words'
keys, is the game manifest's `[pieces]` (registry.py).
"""

from __future__ import annotations

import functools
import json

from django.conf import settings
from django.utils import translation

from .registry import game


@functools.lru_cache(maxsize=16)
def _words(language: str, part: str) -> dict:
    path = settings.FRONTEND_DIR / "i18n" / language / f"{part}.json"
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}


def name_pieces(game_id: str, params: dict) -> dict:
    """`params` with each piece code (a province, a unit) replaced by its name in the active language."""
    described = game(game_id)
    if described is None or not described.pieces or described.table is None:
        return dict(params)
    language = translation.get_language() or settings.LANGUAGE_CODE
    words = {k: v for part in described.table.words for k, v in _words(language, part).items()}
    named = dict(params)
    for param, prefix in described.pieces.items():
        word = words.get(prefix + named[param]) if isinstance(named.get(param), str) else None
        if isinstance(word, str):
            named[param] = word.replace("\u00ad", "")  # soft hyphens are for the table's narrow cards
    return named
