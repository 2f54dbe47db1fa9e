from __future__ import annotations

from django.utils.translation import gettext

from backend.engines import Engine, available_engines

# What an option's schema says to people, translated when answering (texts.py holds the msgids).
_WORDS = ("label", "help")


def display_name(engine: Engine) -> str:
    """The game's name in the active language."""
    return gettext(engine.name)


def public_options_schema(engine: Engine) -> dict:
    """The options a player may set, their words in the active language; test hooks (stacked decks, fixed dice) stay hidden."""
    return {
        key: {k: gettext(v) if k in _WORDS and v else v for k, v in spec.items()}
        for key, spec in engine.options_schema.items() if not spec.get("test_hook")
    }


def public_board() -> dict:
    """The board new God's Playground matches get, as a view carries it (the rules page draws from it)."""
    from backend.engines.gods_playground.view import BOARD_VALUES

    from .boards import server_board

    board = server_board().to_json()
    return {"name": board["name"], "hash": board["hash"], "values": {k: board["values"][k] for k in BOARD_VALUES}}


def describe(engine: Engine) -> dict:
    described = {
        "id": engine.id,
        "name": display_name(engine),
        "min_players": engine.min_players,
        "max_players": engine.max_players,
        "options_schema": public_options_schema(engine),
        "bots": sorted(engine.bots),
    }
    if engine.id == "gods_playground":
        described["board"] = public_board()
    return described


def catalog() -> list[dict]:
    return [describe(engine) for engine in available_engines().values()]
