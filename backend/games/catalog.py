from __future__ import annotations

from django.utils.translation import gettext

from backend.engines import Engine, get_engine

from .registry import game, games, hook

# What an option's schema says to people, translated when answering (texts.py holds the msgids).
_WORDS = ("label", "help")


def display_name(engine: Engine) -> str:
    """The game's name in the active language: its manifest's (registry.py), else the engine's, translated."""
    described = game(engine.id)
    return described.display_name if described else gettext(engine.name)


def public_options_schema(engine: Engine) -> dict:
    """The options a player may set, their words in the active language (the manifest's `[options]`, else the
    engine's English through the catalogue, texts.py); test hooks (stacked decks, fixed dice) stay hidden."""
    described = game(engine.id)

    def word(key: str, k: str, v):
        own = described.options.get(key, {}).get(k) if described else None
        return described.words(own) if own else gettext(v)

    return {
        key: {k: word(key, k, v) if k in _WORDS and v else v for k, v in spec.items()}
        for key, spec in engine.options_schema.items() if not spec.get("test_hook")
    }


def describe(engine: Engine) -> dict:
    described = {
        "id": engine.id,
        "name": display_name(engine),
        "min_players": engine.min_players,
        "max_players": engine.max_players,
        "options_schema": public_options_schema(engine),
        "bots": sorted(engine.bots),
    }
    extra = game(engine.id)
    if extra and extra.describe:  # what a game with settings of its own adds (its manifest names the function)
        described.update(hook(extra.describe)())
    return described


def catalog() -> list[dict]:
    """Every game the site offers (settings.GAMES), in that order."""
    return [describe(get_engine(game_id)) for game_id in games()]
