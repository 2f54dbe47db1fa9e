"""Rules engines: pure-Python game libraries behind one contract (docs/engines.md).

    from backend.engines import get_engine, IllegalAction
    engine = get_engine("condottiere")
"""

from __future__ import annotations

import importlib
import pkgutil

from .base import (
    Engine, IllegalAction, MalformedAction, NotLegal, NotYourTurn, Played, canonical, clone, visible_events,
)

# Game id -> module holding `ENGINE`, imported on first use.  A registered
# game that fails to import is a bug: it raises, never silently disappears.
# Every package here is a game, its id the package's name (what runs without
# Django finds it so: bench/, the engine tests); the site registers each game its
# manifests name (backend/games/registry.py), wherever its engine lives.
_REGISTRY = {name: f"{__name__}.{name}" for _, name, is_package in pkgutil.iter_modules(__path__) if is_package}


def register(game_id: str, module_name: str | None) -> None:
    """Makes `module_name`'s ENGINE the game `game_id` (None: forgets the game)."""
    if module_name is None:
        _REGISTRY.pop(game_id, None)
    else:
        _REGISTRY[game_id] = module_name


def engine_ids() -> list[str]:
    return list(_REGISTRY)


def get_engine(game_id: str) -> Engine:
    """The engine registered as `game_id`; KeyError for an unknown id.  An
    engine whose module fails to import raises that error (ImportError...)."""
    try:
        module_name = _REGISTRY[game_id]
    except (KeyError, TypeError):
        raise KeyError(f"Unknown game {game_id!r}; known games: {', '.join(_REGISTRY)}.") from None
    return importlib.import_module(module_name).ENGINE


def available_engines() -> dict[str, Engine]:
    """Every registered engine, by id.  Raises if one fails to import, so a
    broken game fails the tests and the server's start instead of vanishing
    from the catalogue."""
    return {game_id: get_engine(game_id) for game_id in _REGISTRY}


__all__ = [
    "Engine", "IllegalAction", "MalformedAction", "NotLegal", "NotYourTurn", "Played", "available_engines",
    "canonical", "clone", "engine_ids", "get_engine", "register", "visible_events",
]
