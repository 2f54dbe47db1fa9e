"""Rules engines: pure-Python game libraries behind one contract (docs/engines.md).

    from backend.engines import get_engine, IllegalAction
    engine = get_engine("condottiere")
"""

from __future__ import annotations

import importlib

from .base import Engine, IllegalAction, canonical, clone, visible_events

# Game id -> module holding `ENGINE`.  Imported lazily so one broken or slow
# game never stops the others from loading.
_REGISTRY = {
    "condottiere": "backend.engines.condottiere",
    "gods_playground": "backend.engines.gods_playground",
}


def engine_ids() -> list[str]:
    return list(_REGISTRY)


def get_engine(game_id: str) -> Engine:
    try:
        module_name = _REGISTRY[game_id]
    except (KeyError, TypeError):
        raise KeyError(f"Unknown game {game_id!r}; known games: {', '.join(_REGISTRY)}.") from None
    return importlib.import_module(module_name).ENGINE


def available_engines() -> dict[str, Engine]:
    """Every engine that imports cleanly (a game still being written is skipped)."""
    out = {}
    for game_id in _REGISTRY:
        try:
            out[game_id] = get_engine(game_id)
        except (ImportError, AttributeError):
            continue
    return out


__all__ = ["Engine", "IllegalAction", "available_engines", "canonical", "clone", "engine_ids", "get_engine", "visible_events"]
