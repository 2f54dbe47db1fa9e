from __future__ import annotations

from backend.engines import Engine, available_engines


def public_options_schema(engine: Engine) -> dict:
    """The options a player may set; test hooks (stacked decks, fixed dice) stay hidden."""
    return {k: v for k, v in engine.options_schema.items() if not v.get("test_hook")}


def describe(engine: Engine) -> dict:
    return {
        "id": engine.id,
        "name": engine.name,
        "min_players": engine.min_players,
        "max_players": engine.max_players,
        "options_schema": public_options_schema(engine),
        "bots": sorted(engine.bots),
    }


def catalog() -> list[dict]:
    return [describe(engine) for engine in available_engines().values()]
